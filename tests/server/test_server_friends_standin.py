"""The stand-in race behind test_server_friends' time-out on a loaded machine: a person who
joins (or rejoins) their seat while another empty seat's stand-in bot is about to move
cancelled that other seat's stand-in (the table keeps one stand-in timer), so the table
waited for nobody forever. A join now takes back only its own seat."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette")
from daguai.server import create_app  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from test_server import BOTS, hub_of, new_table, recv  # noqa: E402


def wait(cond, limit: float = 30.0) -> None:
    end = time.monotonic() + limit
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


def test_joining_one_seat_leaves_another_empty_seats_stand_in_alone():
    with TestClient(create_app(":memory:", bot_delay=0.0)) as client:
        # seat 1's stand-in waits 1.5 s after its owner left (bot_after); seat 0's owner
        # joins inside that window
        seats = [{"kind": "human", "name": "Ann", "bot_after": 0.05},
                 {"kind": "human", "name": "Bo", "bot_after": 1.5}] + BOTS[:4]
        tid, tokens = new_table(client, seats, seed=8, rules={"max_rounds": 1}, bot_delay=0.01)
        table = hub_of(client).tables[tid]
        with client.websocket_connect("/ws") as bo:  # Bo plays until his turn, then leaves
            bo.send_json({"type": "join", "table": tid, "token": tokens[1]})
            recv(bo, "decide")
        wait(lambda: table.game.current_player == 1 and table._standin is not None)
        assert table.conns[1] is None
        with client.websocket_connect("/ws") as ann:
            ann.send_json({"type": "join", "table": tid, "token": tokens[0]})
            recv(ann, "welcome")
            assert table.game.current_player == 1  # still inside Bo's 1.5 s
            # the stand-in plays Bo's seat once his time is up; before the fix nothing did
            wait(lambda: table.game.current_player != 1 or table.game.match_over, 20)
