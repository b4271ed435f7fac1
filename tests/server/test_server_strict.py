"""The server reads exactly what the shipped JSON Schema allows: every
client message is checked against ``client_<type>`` with ``jsonschema``, refusals carry the
documented code in the documented order, and the HTTP listings hold the documented fields
and every table, before and after a restart."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest

pytest.importorskip("starlette")
from daguai import codec, protocol  # noqa: E402
from daguai.server import create_app  # noqa: E402
from daguai.server.messages import CLIENT_TYPES, ProtocolError, read_client_message  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from test_server import BOTS, expect_error, hub_of, new_table, play_out, recv  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs"
SCHEMA = protocol.schema()
CLIENT = jsonschema.Draft202012Validator({**SCHEMA, "$ref": "#/$defs/client_message"})


def server_code(msg: Any) -> str | None:
    """The error code the server's reader gives ``msg`` (None: read)."""
    try:
        read_client_message(json.dumps(msg))
    except ProtocolError as exc:
        return exc.code
    return None


# ---- the schema and the reader agree ----------------------------------------------------------
@pytest.mark.parametrize("msg", [
    {"type": "ping", "x": 1},
    {"type": "act", "index": 1.5},
    {"type": "act", "index": True},
    {"type": "act", "index": -1},
    {"type": "act", "decision": "0", "index": 0},
    {"type": "act", "decision": -1, "index": 0},
    {"type": "act", "decision": 0},
    {"type": "act", "index": 0, "text": "pass"},
    {"type": "act", "text": ""},
    {"type": "act", "action": "pass"},
    {"type": "act", "action": {"type": "fly"}},
    {"type": "act", "action": {"type": "pass", "seat": 9}},
    {"type": "join"},
    {"type": "join", "table": 7},
    {"type": "join", "table": "t", "token": 12},
    {"type": "join", "table": "t", "views": "yes"},
    {"type": "resync", "table": "t"},
    [1, 2],
    "ping",
    {"type": 3},
])
def test_what_the_schema_forbids_is_a_bad_message(msg):
    """Found: extra fields got a pong, `index: 1.5` / `true` got illegal_action and
    `decision: "0"` got stale_decision; now each is bad_message, as the schema says."""
    assert not CLIENT.is_valid(msg)
    assert server_code(msg) == "bad_message"


def test_unknown_types_are_unknown_type_not_bad_message():
    assert server_code({"type": "teleport"}) == "unknown_type"
    assert server_code({"type": "teleport", "x": 1}) == "unknown_type"
    assert set(CLIENT_TYPES) == {d["$ref"].removeprefix("#/$defs/client_")
                                 for d in SCHEMA["$defs"]["client_message"]["oneOf"]}


def test_every_client_type_has_one_handler_row():
    """The hub routes by one table: a type without a row (or a row without a type) would be
    read and then dropped, or never reach the reader."""
    from daguai.server.hub import HANDLERS

    assert set(HANDLERS) == set(CLIENT_TYPES) and len(HANDLERS) == len(CLIENT_TYPES)


def _mutations(rng: random.Random) -> list[Any]:
    """Valid messages and random damage to them: extra, missing and retyped fields."""
    base = [{"type": "ping"}, {"type": "resync"}, {"type": "join", "table": "abc"},
            {"type": "join", "table": "abc", "token": "tok", "views": True, "events": False},
            {"type": "act", "index": 3}, {"type": "act", "decision": 4, "text": "pass"},
            {"type": "act", "action": {"type": "play", "seat": 2, "cards": "3s 3h"}},
            {"type": "act", "action": {"type": "pass"}, "decision": 0}]
    values = [None, True, False, 0, 1, -1, 1.0, 2.5, "", "x", "0", [], {}, [1], {"a": 1},
              2**70, "3s 3h", "pass"]
    keys = ["type", "table", "token", "views", "events", "index", "text", "action", "decision",
            "x", "seat"]
    out: list[Any] = list(base)
    for _ in range(1500):
        m = json.loads(json.dumps(rng.choice(base)))
        for _ in range(rng.randrange(1, 3)):
            op = rng.randrange(3)
            if op == 0 and len(m) > 1:
                m.pop(rng.choice([k for k in m if k != "type"] or ["type"]), None)
            else:
                m[rng.choice(keys) if op == 1 else rng.choice(list(m))] = rng.choice(values)
        out.append(m)
    return out


def test_the_reader_accepts_exactly_what_the_schema_accepts():
    """1,500 damaged messages: bad_message / unknown_type exactly when the schema refuses
    (no hand-written check can drift from the schema)."""
    rng = random.Random(19)
    valid = refused = 0
    for msg in _mutations(rng):
        code = server_code(msg)
        if CLIENT.is_valid(msg):
            assert code is None, msg
            valid += 1
        else:
            known = isinstance(msg.get("type"), str) and msg["type"] in CLIENT_TYPES
            assert code == ("bad_message" if known or not isinstance(msg.get("type"), str)
                            else "unknown_type"), msg
            refused += 1
    assert valid > 100 and refused > 500


def test_integral_floats_are_read_as_the_integers_the_schema_says_they_are():
    msg = read_client_message('{"type": "act", "index": 1.0, "decision": 2.0}')
    assert msg["index"] == 1 and type(msg["index"]) is int and type(msg["decision"]) is int
    assert CLIENT.is_valid({"type": "act", "index": 1.0})


def test_deep_nesting_is_bad_json_not_a_crash(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_text("[" * 30_000 + "]" * 30_000)
        expect_error(ws, "bad_json")
    r = client.post("/api/tables", content=b"[" * 30_000 + b"]" * 30_000)
    assert r.status_code == 400 and r.json()["error"] == "http"


# ---- the order of the checks --------------------------------------------------------------------
def test_a_repeated_decision_is_stale_not_your_turn(client):
    """Found: re-sending an applied decision got not_your_turn; the number says it is
    stale, whoever acts now."""
    tid, tokens = new_table(client, [{"kind": "remote"}] + BOTS, seed=3)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": tid, "token": tokens[0]})
        d = recv(ws, "decide")
        ws.send_json({"type": "act", "decision": d["decision"], "index": 0})
        recv(ws, "ack")
        table = hub_of(client).tables[tid]
        before = table.game.to_json()
        ws.send_json({"type": "act", "decision": d["decision"], "index": 0})
        m = recv(ws, "error")
        assert m["code"] == "stale_decision", m
        ws.send_json({"type": "act", "decision": 10**6, "index": 0})  # not open yet
        assert recv(ws, "error")["code"] == "stale_decision"
        assert table.game.to_json() == before or table.n_decisions > d["decision"] + 1


def test_a_spectators_act_is_not_joined_and_wire_messages_that_the_schema_forbids(client):
    tid, _ = new_table(client, [{"kind": "remote"}] + BOTS, seed=4)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "ping", "x": 1})
        expect_error(ws, "bad_message")
        ws.send_json({"type": "join", "table": tid})
        recv(ws, "welcome")
        ws.send_json({"type": "act", "index": 0})
        m = expect_error(ws, "not_joined")
        assert "spectator" in m["message"]
        ws.send_json({"type": "act", "decision": "0", "index": 0})
        expect_error(ws, "bad_message")


# ---- documentation ---------------------------------------------------------------------------
def _doc_table(text: str, heading: str) -> dict[str, str]:
    """{first cell: second cell} of the table under ``heading``."""
    part = text.split(heading, 1)[1]
    rows = {}
    for line in part.splitlines()[1:]:
        if line.startswith("#"):
            break
        m = re.match(r"^\| `([a-z_]+)` \| (.+) \|$", line)
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


def test_every_error_code_is_documented_and_in_the_schema():
    documented = _doc_table((DOCS / "protocol.md").read_text(encoding="utf-8"), "### Error codes")
    in_schema = SCHEMA["$defs"]["server_error"]["properties"]["code"]["enum"]
    src = "".join(p.read_text(encoding="utf-8") for p in
                  (Path(protocol.__file__).parent / "server").glob("*.py"))
    raised = set(re.findall(r'ProtocolError\(\s*"([a-z_]+)"', src))
    raised |= set(re.findall(r'"type": "error", "code": "([a-z_]+)"', src))
    assert raised <= set(in_schema) == set(documented), (raised, in_schema, documented)


def test_api_matches_has_the_documented_fields(client):
    text = (DOCS / "server.md").read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if ln.startswith("| `GET /api/matches` |"))
    documented = set(re.findall(r"`([a-z_]+)`", line.split("|")[2]))
    new_table(client, [{"kind": "bot", "policy": "random"}] * 6, seed=2)
    deadline = time.monotonic() + 60
    while not client.get("/api/matches").json():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    (m,) = client.get("/api/matches").json()
    assert set(m) == documented, (set(m), documented)
    assert isinstance(m["finished"], float) and m["decisions"] > 0


def test_api_tables_lists_every_table_before_and_after_a_restart(tmp_path):
    """Found: after a restart the tables that had finished before it were missing."""
    db = str(tmp_path / "t.sqlite3")
    text = (DOCS / "server.md").read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if ln.startswith("| `GET /api/tables` |"))
    documented = set(re.findall(r"`([a-z_]+)`", line.split("|")[2])) - {
        "open", "finished", "seat", "kind", "name", "connected", "bot_playing"}
    with TestClient(create_app(db, keep_finished=1)) as c:
        done = [new_table(c, [{"kind": "bot", "policy": "random"}] * 6, seed=s)[0] for s in (1, 2)]
        open_id, tokens = new_table(c, [{"kind": "remote"}] + BOTS, seed=3)
        deadline = time.monotonic() + 60
        while len(c.get("/api/matches").json()) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        before = c.get("/api/tables").json()
        assert [t["table"] for t in before] == [*done, open_id]
        for t in before:
            assert set(t) == documented, (set(t), documented)
        assert [t["status"] for t in before] == ["finished", "finished", "open"]
    with TestClient(create_app(db, keep_finished=1)) as c:
        after = c.get("/api/tables").json()
        assert [t["table"] for t in after] == [*done, open_id]
        assert after[:2] == before[:2]  # finished tables: the same, field by field
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": open_id, "token": tokens[0]})
            play_out(ws)
        final = c.get("/api/tables").json()
        assert [t["status"] for t in final] == ["finished"] * 3
        # the store's summary of a finished table equals the live one's
        live = next(t for t in final if t["table"] == open_id)
    with TestClient(create_app(db, keep_finished=0)) as c:
        stored = next(t for t in c.get("/api/tables").json() if t["table"] == open_id)
        assert stored == {**live, "seats": [dict(s, connected=False) for s in live["seats"]],
                          "spectators": 0}


def test_event_index_and_decision_numbering_are_as_documented(client):
    """docs/protocol.md "Fields and numbering": event `index` is the record entry's place
    (line index + 1 of the JSON Lines record, the header excluded); decisions are numbered
    0, 1, ... across seats and rounds with no gaps, forced passes excluded."""
    tid, tokens = new_table(client, [{"kind": "remote"}] + BOTS, seed=12, rules={"max_rounds": 1},
                            auto_pass=True)
    with client.websocket_connect("/ws") as spec, client.websocket_connect("/ws") as ws:
        spec.send_json({"type": "join", "table": tid})
        recv(spec, "welcome")
        ws.send_json({"type": "join", "table": tid, "token": tokens[0]})
        n, over, seen = play_out(ws)
        events = []
        while True:
            m = spec.receive_json()
            if m["type"] == "event":
                events.append(m)
            if m["type"] == "match_over":
                break
    record = client.get(over["record"]).text.splitlines()
    assert events and [e["index"] for e in events] == list(range(events[0]["index"], events[-1]["index"] + 1))
    for e in events:
        entry = json.loads(record[e["index"] + 1])
        assert e["event"] == codec.restrict(entry, None)
    table = hub_of(client).tables[tid]
    decided = [m["decision"] for m in seen if m["type"] == "decide"]
    assert decided == sorted(set(decided)) and decided[-1] < table.n_decisions
    forced = sum(1 for line in record[1:] if json.loads(line).get("auto") is True)
    decisions = sum(1 for line in record[1:] if codec.entry_decision(json.loads(line)) is not None)
    assert forced > 0 and table.n_decisions == decisions  # forced passes take no number
