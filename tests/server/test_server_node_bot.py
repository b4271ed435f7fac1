"""The Node.js bot of docs/protocol.md ("A bot in Node.js"), as the page prints it, plays
10 whole matches in a row at a ``bot_delay: 0`` table with five instant built-in bots
(heuristic), without a stall, on a server limited to 5 messages/s (a burst of 10): every
act answers the open decision, so none is dropped; before that exemption each match
stalled within its first dozen decisions of the bot (at the default 50/s a long match
stalled the same way, as a Node.js bot did at decision 910).

Short matches: ``final_level: "3"`` (a match ends when a team wins at level 3), so the 10
matches take about a minute on the 2-core machine; each match is bounded (120 s) and so is
the whole run. Node 20 needs ``--experimental-websocket`` for its built-in WebSocket (no
npm package is used); the test is skipped without a Node.js that has one."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
import httpx  # noqa: E402
from server_helpers import ServerProcess  # noqa: E402

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
MATCHES = 10
PER_MATCH = 120.0
BOTS = [{"kind": "bot", "policy": "heuristic"}] * 5


def node_bot_source() -> str:
    """The ```js block after the <!-- node-bot --> mark of docs/protocol.md."""
    text = DOC.read_text(encoding="utf-8")
    m = re.search(r"<!-- node-bot -->\s*```js\n(.*?)```", text, re.S)
    assert m, "docs/protocol.md has no Node.js bot block"
    return m.group(1)


def node_with_websocket() -> list[str] | None:
    node = shutil.which("node")
    if node is None:
        return None
    for flags in ([], ["--experimental-websocket"]):
        out = subprocess.run([node, *flags, "-e", "process.exit(typeof WebSocket === 'function' ? 0 : 1)"],
                             capture_output=True, timeout=30)
        if out.returncode == 0:
            return [node, *flags]
    return None


@pytest.mark.slow
def test_the_node_bot_of_the_docs_plays_ten_matches_without_a_stall(tmp_path):
    node = node_with_websocket()
    if node is None:
        pytest.skip("no Node.js with a built-in WebSocket")
    bot = tmp_path / "bot.js"
    bot.write_text(node_bot_source())
    srv = ServerProcess(str(tmp_path / "node.sqlite3"), rate=5)
    try:
        t0 = time.monotonic()
        for m in range(MATCHES):
            r = httpx.post(srv.base + "/api/tables", json={
                "rules": {"final_level": "3"}, "seed": 700 + m, "bot_delay": 0,
                "seats": [{"kind": "remote", "name": "node"}] + BOTS}, timeout=10)
            body = r.json()
            start = time.monotonic()
            out = subprocess.run([*node, str(bot), srv.ws, body["table"], body["tokens"][0]],
                                 capture_output=True, text=True, timeout=PER_MATCH)
            assert out.returncode == 0, out.stderr
            assert "match over after" in out.stdout, (m, out.stdout, out.stderr)
            assert "rate_limited" not in out.stderr, out.stderr
            table = httpx.get(f"{srv.base}/api/tables/{body['table']}", timeout=10).json()
            assert table["status"] == "finished" and table["match"] is not None
            print(f"match {m}: {table['decisions']} decisions in {time.monotonic() - start:.1f} s")
        print(f"{MATCHES} matches in {time.monotonic() - t0:.1f} s")
    finally:
        srv.stop()
