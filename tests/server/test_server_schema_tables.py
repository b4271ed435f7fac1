"""Every message validates against the shipped schema at both tables: a 6p3d match played
through the server with one remote seat and bots, every message checked; at 4p2d (R18),
which the server does not serve yet (it answers 400 naming the table), a whole match's
views of every seat and its action and event JSON, the forms the server would send (the
per-seat arrays have 4 entries there, which a six-only schema refused). `phase` and `kind`
are enums equal to the engine's."""

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


def test_every_message_of_a_6p3d_match_validates():
    n, phases = _play("6p3d")
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


def test_the_server_refuses_a_4p2d_table_with_a_message():
    with TestClient(create_app(":memory:")) as c:
        r = c.post("/api/tables", json={"rules": {"table": "4p2d"}, "seats": [{"kind": "bot"}] * 4})
        assert r.status_code == 400 and "4p2d" in r.json()["message"]


def test_phase_and_kind_are_the_engines_enums():
    defs: dict[str, Any] = SCHEMA["$defs"]
    phases = [p.lower() for p in _core.Phase.__members__]
    kinds = [k.lower() for k in _core.Kind.__members__]
    assert defs["view"]["properties"]["phase"]["enum"] == phases
    assert defs["server_decide"]["properties"]["phase"]["enum"] == phases
    assert defs["play"]["properties"]["kind"]["enum"] == kinds
    assert defs["event_play"]["properties"]["kind"]["enum"] == kinds
