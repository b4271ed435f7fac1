"""Bots at a table: an ``act`` that answers the open ``decide`` is never dropped by the
rate limit (docs/protocol.md "Rate limit"), so a prompt bot at a ``bot_delay: 0`` table with
five instant built-in bots plays whole matches without a stall; the example bot ships in the
package (``python -m daguai.bot``)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from daguai import bot  # noqa: E402
from daguai.server import create_app  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from test_server import new_table, recv  # noqa: E402

INSTANT = [{"kind": "bot", "policy": "heuristic"}] * 5


def test_an_answer_to_the_open_decision_passes_the_rate_limit():
    """Beyond the bucket, pings are dropped but the act answering the open decide is read."""
    with TestClient(create_app(":memory:", rate=0.5, burst=2.0)) as c:
        tid, tokens = new_table(c, [{"kind": "remote"}] + INSTANT, seed=3, bot_delay=0)
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": tid, "token": tokens[0]})
            d = recv(ws, "decide")
            for _ in range(4):
                ws.send_json({"type": "ping"})  # the bucket is empty after these
            ws.send_json({"type": "act", "decision": d["decision"], "index": 0})
            replies = [ws.receive_json() for _ in range(4)]
            assert [m.get("code") for m in replies].count("rate_limited") >= 3  # the pings
            ack = ws.receive_json()
            assert ack["type"] == "ack" and ack["decision"] == d["decision"], ack
            d2 = recv(ws, "decide")
            ws.send_json({"type": "ping"})  # still a flood: dropped
            assert recv(ws, "error")["code"] == "rate_limited"
            ws.send_json({"type": "act", "decision": d2["decision"] + 5, "index": 0})
            assert recv(ws, "error")["code"] == "rate_limited"  # not the open decision
            ws.send_text(json.dumps({"type": "act", "decision": d2["decision"], "index": 0, "x": " " * 5000}))
            assert recv(ws, "error")["code"] == "rate_limited"  # too long to be read beyond the rate
            ws.send_json({"type": "act", "decision": d2["decision"], "index": 0})
            assert recv(ws, "ack")["decision"] == d2["decision"]


async def _naive_bot(url: str, table: str, token: str, stall: float) -> int:
    """A bot that follows steps 1-3 of "Writing a bot" only: never resends; returns its
    decisions; AssertionError if nothing arrives for ``stall`` seconds."""
    import websockets

    n = 0
    async with websockets.connect(url, max_size=4 << 20) as ws:
        await ws.send(json.dumps({"type": "join", "table": table, "token": token, "events": False}))
        while True:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), stall))
            except asyncio.TimeoutError:
                raise AssertionError(f"stalled after {n} decisions") from None
            if msg["type"] == "decide":
                n += 1
                await ws.send(json.dumps({"type": "act", "decision": msg["decision"], "index": 0}))
            elif msg["type"] == "error":
                assert msg["code"] != "rate_limited", msg
            elif msg["type"] == "match_over":
                return n


@pytest.mark.slow
def test_a_prompt_bot_plays_whole_matches_at_an_instant_table(tmp_path):
    """Three whole matches (final_level 3: short ones) of a bot that never resends, at a
    bot_delay 0 table with five instant heuristic bots, on a server limited to 5 messages/s:
    before the exemption its acts were dropped within the first seconds and it stalled."""
    from server_helpers import ServerProcess

    srv = ServerProcess(str(tmp_path / "bots.sqlite3"), rate=5)
    try:
        import httpx

        for m in range(3):
            r = httpx.post(srv.base + "/api/tables", json={
                "rules": {"final_level": "3"}, "seed": 40 + m, "bot_delay": 0,
                "seats": [{"kind": "remote", "name": "prompt"}] + INSTANT}, timeout=10)
            body = r.json()
            t0 = time.monotonic()
            n = asyncio.run(asyncio.wait_for(_naive_bot(srv.ws, body["table"], body["tokens"][0], 20.0), 300))
            print(f"match {m}: {n} decisions of the prompt bot in {time.monotonic() - t0:.1f} s")
            assert n > 20
        # the packaged bot, as the docs run it: a table against five bots, played to its end
        out = subprocess.run([sys.executable, "-m", "daguai.bot", "--vs-bots", srv.base], capture_output=True,
                             text=True, timeout=300)
        assert out.returncode == 0 and "match over after" in out.stdout, out.stdout + out.stderr
    finally:
        srv.stop()


def test_the_bot_ships_in_the_package_and_reads_join_links():
    assert bot.parse_target("http://127.0.0.1:8000/#join=abc.tok-en_1") == (
        "http://127.0.0.1:8000", "abc", "tok-en_1")
    assert bot.parse_target("ws://127.0.0.1:9/ws") == ("http://127.0.0.1:9", None, None)
    for bad in ("127.0.0.1:8000", "ftp://x/", "http://h/#join=abc"):
        with pytest.raises(ValueError):
            bot.parse_target(bad)
    # run beside the daguai this test imports (installed, or the source tree with its built module)
    root = Path(bot.__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-m", "daguai.bot", "--help"], capture_output=True, text=True,
                         cwd=root, timeout=60)
    assert out.returncode == 0 and "#join=" in out.stdout
    out = subprocess.run([sys.executable, "-m", "daguai.bot", "not a url"], capture_output=True, text=True,
                         cwd=root, timeout=60)
    assert out.returncode == 2 and "not a server address" in out.stderr
