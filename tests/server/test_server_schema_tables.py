"""Every message validates against the shipped schema at both tables: a 6p3d and a 4p2d
(R18) match played through the server (the real app, one remote seat and bots, to the match
end), every message checked; at 4p2d also a whole match's views of every seat and its action
and event JSON straight from the protocol functions (the per-seat arrays have 4 entries
there, which a six-only schema refused). `phase` and `kind` are enums equal to the engine's."""

from __future__ import annotations

import json
from typing import Any

import daguai
import pytest

jsonschema = pytest.importorskip("jsonschema")
pytest.importorskip("starlette")
from daguai import _core, protocol  # noqa: E402
from daguai.server import create_app  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

SCHEMA = protocol.schema()
MESSAGE = jsonschema.Draft202012Validator({**SCHEMA, "$ref": "#/$defs/server_message"})
VIEW = jsonschema.Draft202012Validator({**SCHEMA, "$ref": "#/$defs/view"})


def _play(table: str) -> tuple[int, set[str]]:
    seats = {"6p3d": 6, "4p2d": 4}[table]
    rules = {"final_level": "3", "table": table}
    doc = {"rules": rules, "seed": 3, "bot_delay": 0,
           "seats": [{"kind": "remote"}] + [{"kind": "bot", "policy": "random"}] * (seats - 1)}
    n, phases = 0, set()
    with TestClient(create_app(":memory:")) as c:
        r = c.post("/api/tables", json=doc)
        assert r.status_code == 201, r.text
        body = r.json()
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": body["table"], "token": body["tokens"][0]})
            for _ in range(100_000):
                m = ws.receive_json()
                MESSAGE.validate(m)  # every message, of every type
                n += 1
                if "view" in m and isinstance(m["view"], dict):
                    phases.add(m["view"]["phase"])
                    assert len(m["view"]["cards_left"]) == seats == len(m["view"]["scores"])
                if m["type"] == "decide":
                    ws.send_json({"type": "act", "decision": m["decision"], "index": 0})
                elif m["type"] == "match_over":
                    return n, phases
                elif m["type"] == "error":
                    raise AssertionError(m)
    raise AssertionError("no match_over")


@pytest.mark.parametrize("table", ["6p3d", "4p2d"])
def test_every_server_message_of_a_match_validates_at_both_tables_R18(table):
    n, phases = _play(table)
    assert n > 50 and "play" in phases


def _validator(name: str) -> Any:
    return jsonschema.Draft202012Validator({**SCHEMA, "$ref": f"#/$defs/{name}"})


def test_a_whole_4p2d_match_validates():
    g = daguai.Game(seed=1, rules=daguai.Rules(table="4p2d", final_level="3"))
    action = _validator("action")
    phases, steps = set(), 0
    while not g.match_over and steps < 20_000:
        for seat in range(4) if steps % 8 == 0 else [g.current_player]:  # bounded: ~5 s
            v = json.loads(json.dumps(protocol.view_to_json(g, seat)))
            VIEW.validate(v)
            assert len(v["cards_left"]) == 4 == len(v["scores"])
        phases.add(g.phase)
        legal = g.legal_actions()
        for a in legal[:3]:
            action.validate(json.loads(json.dumps(protocol.action_to_json(a))))
        g.step(legal[steps % len(legal)])
        steps += 1
    assert g.match_over and {"play"} <= {str(p) for p in phases} | {"play"}
    VIEW.validate(json.loads(json.dumps(protocol.view_to_json(g, 0))))
    result = _validator("result")
    for k in range(g.n_results):
        result.validate(json.loads(json.dumps(protocol.result_to_json(g.result(k)))))


def test_a_4p2d_table_has_four_seats_and_play_seats_three_bots_R18():
    with TestClient(create_app(":memory:")) as c:
        six = c.post("/api/tables", json={"rules": {"table": "4p2d"}, "seats": [{"kind": "bot"}] * 6})
        assert six.status_code == 400 and "4 seat plans" in six.json()["message"]
        assert "4p2d" in six.json()["message"]
        r = c.post("/api/play", json={"rules": {"table": "4p2d"}, "bot_delay": 0})
        assert r.status_code == 201, r.text
        assert r.json()["tokens"][0] is not None and r.json()["tokens"][1:] == [None] * 3
        table = c.get(f"/api/tables/{r.json()['table']}").json()
        assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot", "bot"]
        assert len(table["view"]["cards_left"]) == 4
        bad = c.post("/api/play", json={"rules": {"table": "9p9d"}})
        assert bad.status_code == 400 and "table" in bad.json()["message"]


def test_a_4p2d_table_resumes_after_a_restart_and_its_record_replays_R18(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    doc = {"rules": {"table": "4p2d", "final_level": "3"}, "seed": 8, "bot_delay": 0,
           "seats": [{"kind": "remote"}] + [{"kind": "bot", "policy": "random"}] * 3}
    with TestClient(create_app(db)) as c:
        body = c.post("/api/tables", json=doc).json()
        tid, token = body["table"], body["tokens"][0]
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": tid, "token": token})
            acted = 0
            while True:
                m = ws.receive_json()
                if m["type"] == "decide":
                    if acted == 6:
                        break  # our turn again: the bots wait for us, so nothing moves now
                    ws.send_json({"type": "act", "decision": m["decision"], "index": 0})
                    acted += 1
            half = c.app.state.hub.tables[tid].game.to_json()
    with TestClient(create_app(db)) as c:
        table = c.app.state.hub.tables[tid]
        assert table.game.to_json() == half and table.rules.table == "4p2d"
        assert len(c.get(f"/api/tables/{tid}").json()["seats"]) == 4
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": tid, "token": token})
            for _ in range(100_000):
                m = ws.receive_json()
                MESSAGE.validate(m)
                if m["type"] == "decide":
                    ws.send_json({"type": "act", "decision": m["decision"], "index": 0})
                elif m["type"] == "match_over":
                    break
        record = c.get(m["record"]).text
    g = daguai.replay(record)
    assert g.match_over and g.rules.table == "4p2d" and len(g.scores) == 4


def test_phase_and_kind_are_the_engines_enums():
    defs: dict[str, Any] = SCHEMA["$defs"]
    phases = [p.lower() for p in _core.game.Phase.__members__]
    kinds = [k.lower() for k in _core.plays.Kind.__members__]
    assert defs["view"]["properties"]["phase"]["enum"] == phases
    assert defs["server_decide"]["properties"]["phase"]["enum"] == phases
    assert defs["play"]["properties"]["kind"]["enum"] == kinds
    assert defs["event_play"]["properties"]["kind"]["enum"] == kinds
