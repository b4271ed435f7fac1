"""Every server message validates against the shipped schema at both tables: a 6p3d and a
4p2d (R18) match played through the server with one remote seat and bots (the per-seat
arrays have 4 entries at 4p2d, which a six-only schema refused); `phase` and `kind` are
enums equal to the engine's."""

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
def test_every_message_of_a_match_validates(table):
    n, phases = _play(table)
    assert n > 50 and "play" in phases


def test_view_to_json_of_a_4p2d_game_validates():
    g = daguai.Game(seed=1, rules=daguai.Rules(table="4p2d"))
    for _ in range(30):
        VIEW.validate(json.loads(json.dumps(protocol.view_to_json(g, g.current_player))))
        g.step(g.legal_actions()[0])


def test_phase_and_kind_are_the_engines_enums():
    defs: dict[str, Any] = SCHEMA["$defs"]
    phases = [p.lower() for p in _core.Phase.__members__]
    kinds = [k.lower() for k in _core.Kind.__members__]
    assert defs["view"]["properties"]["phase"]["enum"] == phases
    assert defs["server_decide"]["properties"]["phase"]["enum"] == phases
    assert defs["play"]["properties"]["kind"]["enum"] == kinds
    assert defs["event_play"]["properties"]["kind"]["enum"] == kinds
