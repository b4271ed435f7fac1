"""Friends at one table: people's seats and bots, a stand-in bot for a
seat left empty for its ``bot_after`` seconds until its owner joins again, and ``leave``:
the leaver forfeits (R14) and the match ends for everyone, stored like any other."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("starlette")
import daguai  # noqa: E402
from daguai.server import create_app  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from test_server import BOTS, expect_error, hub_of, new_table, recv  # noqa: E402


@pytest.fixture
def client():
    with TestClient(create_app(":memory:", bot_delay=0.0)) as c:
        yield c


def wait(cond: Any, limit: float = 30.0) -> None:
    end = time.monotonic() + limit
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


@pytest.mark.slow  # a whole process, server or match (seconds): CI runs it
def test_an_empty_seat_is_played_by_a_bot_until_its_owner_returns(client):
    seats = [{"kind": "human", "name": "Ann", "bot_after": 0.2},
             {"kind": "human", "name": "Bo", "bot_after": 0.2}] + BOTS[:4]
    tid, tokens = new_table(client, seats, seed=8, rules={"max_rounds": 3}, bot_delay=0.02)
    table = hub_of(client).tables[tid]
    # nobody is connected: after 0.2 s a stand-in plays each person's seat in turn
    wait(lambda: table.n_decisions >= 15)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": tid, "token": tokens[0], "views": True})
        w = recv(ws, "welcome")
        assert w["seats"][0]["connected"] and not w["seats"][0]["bot_playing"]
        assert w["seats"][1]["bot_playing"] and not w["seats"][1]["connected"]
        # seat 0 is back: when its turn comes the table waits for Ann (no stand-in)
        wait(lambda: table.game.current_player == 0)
        d = recv(ws, "decide")
        before = table.n_decisions
        time.sleep(0.6)
        assert table.n_decisions == before == d["decision"]
        ws.send_json({"type": "act", "decision": d["decision"], "index": 0})
        assert "standin" not in recv(ws, "ack")
    # Ann leaves again: the stand-in takes over after 0.2 s, and the match finishes
    wait(lambda: table.standing_in(0) or table.game.match_over)
    # the engine's match is over before the table has stored it (Table._publish): wait for both
    wait(lambda: table.game.match_over and table.match_id is not None, 120)


def test_leave_forfeits_and_ends_the_match_for_everyone_r14(client):
    seats = [{"kind": "human"}, {"kind": "human"}] + BOTS[:4]
    tid, tokens = new_table(client, seats, seed=9)
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b, \
            client.websocket_connect("/ws") as spec:
        a.send_json({"type": "join", "table": tid, "token": tokens[0]})
        b.send_json({"type": "join", "table": tid, "token": tokens[1]})
        spec.send_json({"type": "join", "table": tid})
        recv(spec, "welcome")
        spec.send_json({"type": "leave"})
        expect_error(spec, "not_joined")
        recv(b, "welcome")
        a.send_json({"type": "leave"})
        over = [recv(c, "match_over") for c in (a, b, spec)]
        assert over[0] == over[1] == over[2]
        last = over[0]["results"][-1]
        assert last["forfeit"] == 0 and last["match_over"] and last["match_winner"] == 1
        a.send_json({"type": "act", "index": 0})
        expect_error(a, "match_over")
        a.send_json({"type": "leave"})
        expect_error(a, "match_over")
    g = daguai.replay(client.get(over[0]["record"]).text)
    assert g.match_over and g.results[-1]["forfeit"] == 0
    listed = {t["table"]: t for t in client.get("/api/tables").json()}
    assert listed[tid]["status"] == "finished" and listed[tid]["match"] == over[0]["match"]


def test_bots_take_no_bot_after_and_the_plan_survives_a_restart(tmp_path):
    with TestClient(create_app(":memory:")) as c:
        r = c.post("/api/tables", json={"seats": BOTS + [{"kind": "bot", "bot_after": 3}]})
        assert r.status_code == 400 and "bot_after" in r.json()["message"]
        r = c.post("/api/tables", json={"seats": BOTS + [{"kind": "human", "bot_after": -1}]})
        assert r.status_code == 400
    db = str(tmp_path / "f.sqlite3")
    with TestClient(create_app(db)) as c:
        tid, _ = new_table(c, [{"kind": "human", "bot_after": 0.1}] + BOTS, seed=4)
    with TestClient(create_app(db)) as c:
        table = hub_of(c).tables[tid]
        assert table.seats[0].bot_after == 0.1
        wait(lambda: table.n_decisions > 10 or table.game.match_over)
