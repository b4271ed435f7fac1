"""``daguai serve`` as a real process on 127.0.0.1 with six remote bots (examples/remote_bot.py):
a whole match, its stored record, secrecy of every message (R16), and a SIGKILL mid-match
followed by a restart that finishes every table as an uninterrupted run would."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

import httpx
import pytest

pytest.importorskip("websockets")
pytest.importorskip("uvicorn")

import daguai  # noqa: E402
from daguai import Game, Rules, protocol  # noqa: E402
from daguai.server.standins import policy_action  # noqa: E402
from server_helpers import ServerProcess, remote_bot  # noqa: E402

RULES = {"final_level": "3"}
TIMEOUT = 120.0


def create(srv: ServerProcess, seats: list[dict[str, Any]], seed: int) -> tuple[str, list]:
    r = httpx.post(srv.base + "/api/tables", json={"rules": RULES, "seed": seed, "seats": seats}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()["table"], r.json()["tokens"]


async def run_bots(srv: ServerProcess, table: str, tokens: list, **kw: Any) -> list[Any]:
    bot = remote_bot()
    return await asyncio.wait_for(asyncio.gather(*[
        bot.play(srv.ws, table, tok, seed=100 + s, **kw) for s, tok in enumerate(tokens)]), TIMEOUT)


def cards(text: Any) -> Counter:
    return Counter(text.split()) if isinstance(text, str) and text else Counter()


def check_secrecy(seat: int, messages: list[dict[str, Any]], entries: list[dict[str, Any]]) -> int:
    """Every message ``seat`` received shows no card of another hand beyond R16: deals show
    only its own hand; every hand shown is within what it was dealt plus the cards passed to
    it in that round; returned / offered / taken cards only inside their tribute pair."""
    dealt: dict[int, Counter] = {}
    for e in entries:  # the full record: what the seat could rightfully hold in each round
        if e.get("event") == "deal":
            dealt[e["round"]] = cards(e["hands"][seat])
        elif e.get("event") in ("tribute", "return", "take") and seat in (e["seat"], e["to"]):
            dealt[max(dealt)] += cards(e["card"])
        elif e.get("event") == "offer" and e["to"] == seat:
            dealt[max(dealt)] += cards(e["cards"])
    checked = 0

    def walk(x: Any, rnd: Any) -> None:
        nonlocal checked
        if isinstance(x, list):
            for v in x:
                walk(v, rnd)
            return
        if not isinstance(x, dict):
            return
        rnd = x.get("round", rnd) if isinstance(x.get("round"), int) else rnd
        if isinstance(x.get("hand"), list):
            assert x.get("seat") == seat
            assert not Counter(x["hand"]) - dealt[rnd], (seat, rnd)
            checked += 1
        if isinstance(x.get("hands"), list):
            assert all(h is None for s, h in enumerate(x["hands"]) if s != seat)
            checked += 1
        if x.get("event") in ("return", "offer", "take") and seat not in (x.get("seat"), x.get("to")):
            assert "card" not in x and "cards" not in x
            checked += 1
        if "returned" in x and seat not in (x.get("from"), x.get("to")):
            assert x["returned"] is None and x["offer"] is None
            checked += 1
        for v in x.values():
            walk(v, rnd)

    for m in messages:
        if m["type"] != "match_over":
            walk(m, None)
    return checked


@pytest.mark.slow  # a whole process, server or match (seconds): CI runs it
def test_six_remote_bots_play_a_whole_match_over_loopback(tmp_path):
    srv = ServerProcess(str(tmp_path / "loop.sqlite3"))
    try:
        table, tokens = create(srv, [{"kind": "remote", "name": f"bot{s}"} for s in range(6)], seed=31)
        assert all(tokens)
        stats = asyncio.run(run_bots(srv, table, tokens, keep_messages=True))
        overs = [s.match_over for s in stats]
        assert all(o is not None for o in overs) and len({json.dumps(o) for o in overs}) == 1
        for s in stats:  # every action acknowledged once, none lost or repeated
            assert not s.errors and len(s.acks) == len(set(s.acks)) == s.decisions
        record = httpx.get(srv.base + overs[0]["record"], timeout=10).text
        g = daguai.replay(record)
        assert g.match_over and g.results == overs[0]["results"]
        assert sum(s.decisions for s in stats) == len(protocol.decisions(g.state.events()))
        entries = [json.loads(line) for line in record.splitlines()]
        checked = [check_secrecy(seat, s.messages, entries) for seat, s in enumerate(stats)]
        assert min(checked) > 50
        # a seat's own deal and hand do reach it
        for seat, s in enumerate(stats):
            deals = [m["event"] for m in s.messages if m["type"] == "event" and m["event"]["event"] == "deal"]
            assert deals and all(d["hands"][seat] for d in deals)
    finally:
        srv.stop()


def expected_record(seed: int, bot_seeds: list[int]) -> str:
    """The uninterrupted run: the same decisions as remote_bot.choose, in process."""
    bot = remote_bot()
    g = Game(seed, Rules.from_dict(RULES), auto_pass=True)
    n = 0
    while not g.match_over:
        legal = g.legal_actions()
        g.step(legal[bot.choose(bot_seeds[g.current_player], n, [str(a) for a in legal])])
        n += 1
    return g.to_record()


def expected_bot_record(seed: int) -> str:
    g = Game(seed, Rules.from_dict(RULES), auto_pass=True)
    n = 0
    while not g.match_over:
        g.step(policy_action("random", g, seed, n))
        n += 1
    return g.to_record()


@pytest.mark.slow  # a whole process, server or match (seconds): CI runs it
def test_sigkill_mid_match_then_restart_loses_nothing(tmp_path):
    db = str(tmp_path / "crash.sqlite3")
    srv = ServerProcess(db)
    try:
        remote, tokens = create(srv, [{"kind": "remote"}] * 6, seed=41)
        bots, _ = create(srv, [{"kind": "bot", "policy": "random"}] * 6, seed=42)
        stats = asyncio.run(run_bots(srv, remote, tokens, stop_after=1.5))
        before = sum(s.decisions for s in stats)
        done = httpx.get(srv.base + "/api/matches", timeout=10).json()
        srv.kill()  # SIGKILL mid-match
    finally:
        srv.stop()
    assert 0 < before and [m["table"] for m in done] == [bots]
    srv = ServerProcess(db)
    try:
        tables = {t["table"]: t for t in httpx.get(srv.base + "/api/tables", timeout=10).json()}
        assert tables[remote]["status"] == "open" and tables[remote]["decisions"] >= before - 6
        stats = asyncio.run(run_bots(srv, remote, tokens))
        assert all(s.match_over for s in stats)
        matches = {m["table"]: m["match"] for m in httpx.get(srv.base + "/api/matches", timeout=10).json()}
        assert set(matches) == {remote, bots}
        got = httpx.get(f"{srv.base}/api/matches/{matches[remote]}/record", timeout=10).text
        assert got == expected_record(41, [100 + s for s in range(6)])
        got_bots = httpx.get(f"{srv.base}/api/matches/{matches[bots]}/record", timeout=10).text
        assert got_bots == expected_bot_record(42)
    finally:
        srv.stop()
