"""The table server through Starlette's ASGI test client: the HTTP API, the WebSocket
protocol (docs/protocol.md), every kind of bad input, reconnects, spectators, time limits
and restarts from the SQLite checkpoint."""

from __future__ import annotations

import json
import time
from typing import Any

import jsonschema
import pytest

pytest.importorskip("starlette")
import daguai  # noqa: E402
from daguai import protocol  # noqa: E402
from daguai.server import create_app  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

SCHEMA = protocol.schema()
SERVER_MESSAGE = jsonschema.Draft202012Validator({**SCHEMA, "$ref": "#/$defs/server_message"})
BOTS = [{"kind": "bot", "policy": "random"}] * 5
SHORT = {"final_level": "3"}


def check(msg: dict[str, Any]) -> dict[str, Any]:
    SERVER_MESSAGE.validate(msg)
    return msg


def recv(ws: Any, kind: str, limit: int = 5000) -> dict[str, Any]:
    """The next message of type ``kind`` (every message on the way is schema-checked)."""
    for _ in range(limit):
        m = check(ws.receive_json())
        if m["type"] == kind:
            return m
    raise AssertionError(f"no {kind} message")


def new_table(c: TestClient, seats: list[dict[str, Any]], seed: int = 5, rules: Any = None,
              **extra: Any) -> tuple[str, list]:
    r = c.post("/api/tables", json={"rules": rules or SHORT, "seed": seed, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    body = r.json()
    jsonschema.Draft202012Validator({**SCHEMA, "$ref": "#/$defs/table_created"}).validate(body)
    return body["table"], body["tokens"]


def hub_of(c: TestClient) -> Any:
    return c.app.state.hub  # type: ignore[attr-defined]


# ---- HTTP ----------------------------------------------------------------------------------
@pytest.mark.parametrize("body, status", [
    (b"{not json", 400),
    (b"[1, 2]", 400),
    (json.dumps({"seats": BOTS}).encode(), 400),  # 5 seats
    (json.dumps({"seats": BOTS + [{"kind": "alien"}]}).encode(), 400),
    (json.dumps({"seats": BOTS + [{"kind": "bot", "policy": "oracle"}]}).encode(), 400),
    (json.dumps({"seats": BOTS + [{"kind": "remote", "time_limit": -1}]}).encode(), 400),
    (json.dumps({"seats": BOTS + [{"kind": "remote"}], "seed": -3}).encode(), 400),
    (json.dumps({"seats": BOTS + [{"kind": "remote"}], "rules": {"wild": "sometimes"}}).encode(), 400),
    (json.dumps({"seats": BOTS + [{"kind": "remote"}], "colour": "red"}).encode(), 400),
    (b"{" + b" " * 70_000 + b"}", 413),
])
def test_bad_table_requests_get_a_json_4xx(client, body, status):
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status
    assert set(r.json()) == {"error", "message"} and r.json()["message"]
    assert client.get("/api/tables").json() == []  # nothing was created


def test_unknown_ids_get_404_json(client):
    for path in ("/api/tables/nope", "/api/matches/7/record", "/api/matches/x/record", "/api/nothing"):
        r = client.get(path)
        assert r.status_code == 404 and "message" in r.json(), path


def test_listing_never_shows_tokens_or_seeds(client):
    tid, tokens = new_table(client, [{"kind": "remote"}] + BOTS, seed=1234567)
    text = client.get("/api/tables").text + client.get(f"/api/tables/{tid}").text
    assert tokens[0] not in text and "1234567" not in text
    assert client.get(f"/api/tables/{tid}").json()["view"]["seat"] is None
    assert client.get("/api/schema").json()["version"] == protocol.PROTOCOL_VERSION


def test_pages_are_served(client):
    for path in ("/", "/replay", "/static/table.js", "/static/cards.js", "/static/table.css"):
        assert client.get(path).status_code == 200, path
    assert "<script" in client.get("/").text


# ---- a match over the socket ------------------------------------------------------------------
def play_out(ws: Any, pick: Any = lambda legal: 0) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
    """Answer every decide until match_over; (decisions made, match_over, all messages)."""
    n, seen = 0, []
    while True:
        m = check(ws.receive_json())
        seen.append(m)
        if m["type"] == "decide":
            ws.send_json({"type": "act", "decision": m["decision"], "index": pick(m["legal"])})
            n += 1
        elif m["type"] == "match_over":
            return n, m, seen
        elif m["type"] == "error":
            raise AssertionError(m)


@pytest.mark.slow  # a whole process, server or match (seconds): CI runs it
def test_a_whole_match_with_one_remote_seat_is_stored_and_replays(client):
    tid, tokens = new_table(client, [{"kind": "remote"}] + BOTS)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": tid, "token": tokens[0]})
        w = recv(ws, "welcome")
        assert w["seat"] == 0 and w["protocol"] == 1
        n, over, seen = play_out(ws, lambda legal: len(legal) - 1)
    assert n > 0
    acks = [m for m in seen if m["type"] == "ack"]
    assert [a["decision"] for a in acks] == [m["decision"] for m in seen if m["type"] == "decide"]
    rec = client.get(over["record"])
    assert rec.status_code == 200
    g = daguai.replay(rec.text)
    assert g.match_over and g.seed == 5 and [r for r in g.results] == over["results"]
    matches = client.get("/api/matches").json()
    assert [m["table"] for m in matches] == [tid]
    assert matches[0]["winner"] == g.results[-1]["match_winner"]  # the replay list's winner
    stats = client.get("/api/stats").json()
    assert stats["decisions"] == len(protocol.decisions(g.state.events())) and stats["open"] == 0
    assert stats["decision_ms"]["n"] == stats["decision_cpu_ms"]["n"] == stats["decisions"]


def test_every_choice_form_index_text_and_json(client):
    tid, tokens = new_table(client, [{"kind": "remote"}] + BOTS, seed=9)
    forms = []
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": tid, "token": tokens[0]})
        for k in range(9):
            d = recv(ws, "decide")
            text = d["legal"][-1]
            if k % 3 == 0:
                ws.send_json({"type": "act", "index": len(d["legal"]) - 1})
            elif k % 3 == 1:
                ws.send_json({"type": "act", "decision": d["decision"], "text": text})
            else:
                g = hub_of(client).tables[tid].game
                a = protocol.parse_action(g, text)
                ws.send_json({"type": "act", "action": protocol.action_to_json(a)})
            ack = recv(ws, "ack")
            assert ack["text"] == text and ack["decision"] == d["decision"]
            forms.append(ack["action"]["type"])
    assert forms


# ---- bad input on the socket --------------------------------------------------------------------
def expect_error(ws: Any, code: str) -> dict[str, Any]:
    m = recv(ws, "error")
    assert m["code"] == code, m
    ws.send_json({"type": "ping"})
    recv(ws, "pong")  # the connection still works
    return m


def test_bad_messages_get_errors_and_change_nothing(client):
    tid, tokens = new_table(client, [{"kind": "remote"}, {"kind": "remote"}] + BOTS[:4], seed=3)
    hub = hub_of(client)
    table = hub.tables[tid]
    with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as other:
        ws.send_json({"type": "act", "index": 0})
        expect_error(ws, "not_joined")
        ws.send_text("{oops")
        expect_error(ws, "bad_json")
        ws.send_bytes(b"\xff\xfe")
        expect_error(ws, "bad_json")
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 70_000}))
        expect_error(ws, "too_large")
        ws.send_text("[1, 2]")
        expect_error(ws, "bad_message")
        ws.send_json({"type": "teleport"})
        expect_error(ws, "unknown_type")
        ws.send_json({"type": "join", "table": "no-such-table"})
        expect_error(ws, "unknown_table")
        ws.send_json({"type": "join", "table": tid, "token": "guess"})
        expect_error(ws, "bad_token")
        ws.send_json({"type": "join", "table": tid, "token": 12})
        expect_error(ws, "bad_message")  # the schema's join.token is text
        ws.send_json({"type": "join", "table": tid, "token": tokens[0]})
        recv(ws, "welcome")
        other.send_json({"type": "join", "table": tid, "token": tokens[1]})
        recv(other, "welcome")
        # wait until seat 0 or seat 1 must act
        while table.game.current_player not in (0, 1):
            time.sleep(0.01)
        mover, idle = (ws, other) if table.game.current_player == 0 else (other, ws)
        d = recv(mover, "decide")
        before, n = table.game.to_json(), table.n_decisions
        idle.send_json({"type": "act", "index": 0})
        expect_error(idle, "not_your_turn")
        foreign = protocol.action_to_json(table.game.legal_actions()[0])
        idle.send_json({"type": "act", "action": foreign})
        expect_error(idle, "not_your_turn")
        wrong_seat = dict(foreign, seat=(foreign["seat"] + 1) % 6)
        mover.send_json({"type": "act", "action": wrong_seat})
        expect_error(mover, "illegal_action")
        for bad in ({"index": 10_000}, {"text": "2s 3h"}, {"text": "fly away"}):
            mover.send_json({"type": "act", **bad})
            expect_error(mover, "illegal_action")
        # what the schema's client_act forbids is a bad_message (tests/server/test_server_strict.py)
        for bad in ({"index": -1}, {"index": True}, {"text": ""}, {"action": {"type": "fly"}},
                    {"action": "pass"}):
            mover.send_json({"type": "act", **bad})
            expect_error(mover, "bad_message")
        mover.send_json({"type": "act", "index": 0, "text": "pass"})
        expect_error(mover, "bad_message")
        mover.send_json({"type": "act", "decision": d["decision"] - 1, "index": 0})
        expect_error(mover, "stale_decision")
        if table.game.phase == "play" and table.game.top is None:
            mover.send_json({"type": "act", "text": "pass"})  # a leader cannot pass (R8)
            expect_error(mover, "illegal_action")
        assert table.game.to_json() == before and table.n_decisions == n
        mover.send_json({"type": "act", "decision": d["decision"], "index": 0})
        assert recv(mover, "ack")["decision"] == d["decision"]


def test_floods_are_rate_limited_per_connection():
    with TestClient(create_app(":memory:", rate=5.0, burst=10.0)) as c:
        with c.websocket_connect("/ws") as ws, c.websocket_connect("/ws") as calm:
            for _ in range(40):
                ws.send_json({"type": "ping"})
            got = [ws.receive_json() for _ in range(40)]
            codes = [m.get("code") for m in got]
            assert codes.count("rate_limited") >= 25 and [m["type"] for m in got].count("pong") >= 10
            calm.send_json({"type": "ping"})  # another connection is not limited
            assert calm.receive_json()["type"] == "pong"
            time.sleep(0.5)
            ws.send_json({"type": "ping"})  # the bucket refills
            assert ws.receive_json()["type"] == "pong"


# ---- reconnects, spectators, time limits ------------------------------------------------------
def test_reconnect_with_token_resumes_with_the_view_again(client):
    tid, tokens = new_table(client, [{"kind": "human"}] + BOTS, seed=11)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": tid, "token": tokens[0]})
        first = recv(ws, "decide")
    with client.websocket_connect("/ws") as ws2:
        ws2.send_json({"type": "join", "table": tid, "token": tokens[0]})
        recv(ws2, "welcome")
        v = recv(ws2, "view")
        again = recv(ws2, "decide")
        assert again["decision"] == first["decision"] and again["legal"] == first["legal"]
        assert v["view"]["hand"] == first["view"]["hand"]
        with client.websocket_connect("/ws") as ws3:  # a third takes the seat over
            ws3.send_json({"type": "join", "table": tid, "token": tokens[0]})
            recv(ws3, "decide")
            assert recv(ws2, "error")["code"] == "bad_token"
            ws2.send_json({"type": "act", "index": 0})
            assert recv(ws2, "error")["code"] == "not_joined"
            ws3.send_json({"type": "resync"})
            recv(ws3, "view")


def test_spectators_get_the_public_view_only(client):
    tid, tokens = new_table(client, [{"kind": "remote"}] + BOTS, seed=13, rules={"max_rounds": 1})
    with client.websocket_connect("/ws") as spec, client.websocket_connect("/ws") as ws:
        spec.send_json({"type": "join", "table": tid, "views": True})
        assert recv(spec, "welcome")["seat"] is None
        v = recv(spec, "view")["view"]
        assert "hand" not in v and v["seat"] is None
        ws.send_json({"type": "join", "table": tid, "token": tokens[0]})
        play_out(ws)
        while True:
            m = check(spec.receive_json())
            if m["type"] == "event" and m["event"]["event"] == "deal":
                assert m["event"]["hands"] == [None] * 6
            if m["type"] == "view":
                assert "hand" not in m["view"]
            if m["type"] == "match_over":
                break
            assert m["type"] in ("event", "view")


def test_time_limit_makes_the_documented_default_action(client):
    tid, tokens = new_table(client, [{"kind": "remote", "time_limit": 0.2}] + BOTS, seed=17)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": tid, "token": tokens[0]})
        for _ in range(3):
            d = recv(ws, "decide")
            assert d["time_limit"] == 0.2
            ack = recv(ws, "ack")  # no answer: the server decides
            assert ack["timeout"] is True and ack["decision"] == d["decision"]
            want = "pass" if "pass" in d["legal"] else d["legal"][0]
            assert ack["text"] == want


def test_humans_have_no_time_limit_by_default(client):
    tid, tokens = new_table(client, [{"kind": "human"}] + BOTS, seed=17)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": tid, "token": tokens[0]})
        d = recv(ws, "decide")
        assert d["time_limit"] is None
        time.sleep(0.5)
        assert hub_of(client).tables[tid].n_decisions == d["decision"]


# ---- persistence ----------------------------------------------------------------------------------
@pytest.mark.slow  # a whole process, server or match (seconds): CI runs it
def test_restart_resumes_unfinished_tables_to_the_same_result(tmp_path):
    """A new server on the same database continues each table from its checkpoint; the
    finished match equals an uninterrupted one with the same seed and decisions."""
    db = str(tmp_path / "t.sqlite3")
    pick = lambda legal: len(legal) // 2  # noqa: E731
    with TestClient(create_app(db)) as c:
        tid, tokens = new_table(c, [{"kind": "remote"}] + BOTS, seed=21)
        done, _ = new_table(c, BOTS + [{"kind": "bot"}], seed=22)
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": tid, "token": tokens[0]})
            for _ in range(12):
                d = recv(ws, "decide")
                ws.send_json({"type": "act", "index": pick(d["legal"])})
                recv(ws, "ack")
        while hub_of(c).tables[done].match_id is None:
            time.sleep(0.02)
        half = hub_of(c).tables[tid].game.to_json()
    with TestClient(create_app(db)) as c:
        assert hub_of(c).tables[tid].game.to_json() == half
        assert [m["table"] for m in c.get("/api/matches").json()] == [done]
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": tid, "token": tokens[0]})
            play_out(ws, pick)
        resumed = c.get(f"/api/matches/{hub_of(c).tables[tid].match_id}/record").text
    with TestClient(create_app(":memory:")) as c:
        tid2, tokens2 = new_table(c, [{"kind": "remote"}] + BOTS, seed=21)
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": tid2, "token": tokens2[0]})
            play_out(ws, pick)
        straight = c.get(f"/api/matches/{hub_of(c).tables[tid2].match_id}/record").text
    assert resumed == straight
    daguai.replay(resumed)


def test_cli_serve_rejects_a_bad_port(capsys):
    from daguai.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["serve", "--port", "70000"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--port" in err[0]


def test_only_the_newest_finished_tables_stay_in_memory_the_store_answers_for_the_rest():
    """Finished tables no longer pile up in memory (keep_finished); the store still answers."""
    with TestClient(create_app(":memory:", keep_finished=1)) as c:
        ids = [new_table(c, [{"kind": "bot", "policy": "random"}] * 6, seed=s)[0] for s in (1, 2, 3)]
        deadline = time.monotonic() + 60
        while len(c.get("/api/matches").json()) < 3:
            assert time.monotonic() < deadline, "the bot tables did not finish"
            time.sleep(0.05)
        listed = [t["table"] for t in c.get("/api/tables").json()]
        assert listed == ids and len(hub_of(c).tables) == 1  # every table listed
        matches = {m["table"]: m["match"] for m in c.get("/api/matches").json()}
        for tid in ids:
            body = c.get(f"/api/tables/{tid}").json()
            assert body["status"] == "finished" and body["match"] == matches[tid]
            assert daguai.replay(c.get(f"/api/matches/{body['match']}/record").text).match_over
        assert c.get("/api/tables/nope").status_code == 404
