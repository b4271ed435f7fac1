"""The hint is warm before the first click: when a person's decision opens at the web
table (a connection with ``views``), the server computes its hint ahead within the hint
budget, and the click is answered from it. The first hint's latency is written to the test
log (``-s``), not asserted: it depends on the machine."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette")
from daguai.server import create_app  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from test_server import recv  # noqa: E402


def test_the_first_hint_is_computed_when_the_decision_opens():
    with TestClient(create_app(":memory:")) as c:
        r = c.post("/api/play", json={"seed": 9, "bot_delay": 0, "rules": {"final_level": "3"}})
        tid, token = r.json()["table"], r.json()["tokens"][0]
        table = c.app.state.hub.tables[tid]  # type: ignore[attr-defined]
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": tid, "token": token, "views": True})
            d = recv(ws, "decide")
            assert table._warm is not None and table._warm[0] == d["decision"]
            end = time.monotonic() + 60
            while not table._warm[1].done() and time.monotonic() < end:
                time.sleep(0.02)
            assert table._warm[1].done()
            ready = table._warm[1].result()
            t0 = time.perf_counter()
            ws.send_json({"type": "hint", "decision": d["decision"]})
            h = recv(ws, "hint")
            took = time.perf_counter() - t0
            print(f"first hint: {took * 1000:.1f} ms after the click ({h['seconds']} s in the "
                  f"server; computed ahead with {ready['worlds']} worlds)")
            assert h["decision"] == d["decision"] and h["candidates"] == ready["candidates"]


def test_no_hint_is_computed_ahead_for_a_bot_program():
    """A remote seat (a program) never asked for hints: nothing is computed for it."""
    with TestClient(create_app(":memory:")) as c:
        r = c.post("/api/tables", json={"seed": 9, "bot_delay": 0, "rules": {"final_level": "3"},
                                        "seats": [{"kind": "remote"}] + [{"kind": "bot"}] * 5})
        tid, token = r.json()["table"], r.json()["tokens"][0]
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": tid, "token": token, "views": True})
            recv(ws, "decide")
            assert c.app.state.hub.tables[tid]._warm is None  # type: ignore[attr-defined]
