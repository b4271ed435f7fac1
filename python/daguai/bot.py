"""A remote bot for ``daguai serve`` that ships in the package: plain Python over the
WebSocket protocol (docs/protocol.md "Writing a bot"); needs the ``serve`` extra (it uses
the ``websockets`` package only).

It joins one seat of a table with the seat's token and answers every ``decide`` message
with the index of a legal action::

    daguai serve &                                          # in another terminal
    python -m daguai.bot --vs-bots                          # a table: this bot + 5 built-in bots
    python -m daguai.bot http://127.0.0.1:8000/#join=TABLE.TOKEN   # the page's link for the seat
    python -m daguai.bot ws://127.0.0.1:8000/ws --table ID --token TOKEN

The choice is a seeded random pick that depends only on (seed, decision number), so a bot
that reconnects after a server restart makes the same decisions again. ``--think`` waits
before answering, like a slow player. A bot in another language does the same: open a
WebSocket, send ``join``, answer ``decide`` with ``act`` (docs/protocol.md has one in
Node.js).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any

__all__ = ["BotStats", "choose", "play", "main", "parse_target"]


@dataclass
class BotStats:
    """What one bot saw: its decisions, acknowledgements, round trips, errors."""
    decisions: int = 0                     # act messages sent (first tries)
    acks: list[int] = field(default_factory=list)   # decision numbers acknowledged
    rtts: list[float] = field(default_factory=list)  # act sent -> ack received, seconds
    errors: list[dict[str, Any]] = field(default_factory=list)
    messages: list[dict[str, Any]] = field(default_factory=list)  # when keep_messages
    match_over: dict[str, Any] | None = None


def choose(seed: int, decision: int, legal: list[str]) -> int:
    """A random legal index that depends only on (seed, decision)."""
    return random.Random(f"{seed}:{decision}").randrange(len(legal))


async def play(url: str, table: str, token: str, *, seed: int = 0, think: float = 0.0,
               keep_messages: bool = False, stop_after: float | None = None) -> BotStats:
    """Play a seat until the match is over (or the connection closes, or ``stop_after``
    seconds pass); returns what happened. ``url``: the server's WebSocket (``ws://…/ws``)."""
    from .errors import require

    require("daguai.bot", "serve", "websockets")
    import websockets

    stats = BotStats()
    sent_at: dict[int, float] = {}
    end = None if stop_after is None else time.monotonic() + stop_after
    async with websockets.connect(url, max_size=4 << 20) as ws:
        await ws.send(json.dumps({"type": "join", "table": table, "token": token}))
        while True:
            timeout = None if end is None else max(0.0, end - time.monotonic())
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout)
            except (asyncio.TimeoutError, websockets.ConnectionClosed):
                return stats
            msg = json.loads(raw)
            if keep_messages:
                stats.messages.append(msg)
            kind = msg["type"]
            if kind == "decide":
                if think:
                    await asyncio.sleep(think)
                index = choose(seed, msg["decision"], msg["legal"])
                sent_at[msg["decision"]] = time.monotonic()
                stats.decisions += 1
                await ws.send(json.dumps({"type": "act", "decision": msg["decision"], "index": index}))
            elif kind == "ack":
                t = sent_at.pop(msg["decision"], None)
                if t is not None and not msg.get("timeout"):
                    stats.rtts.append(time.monotonic() - t)
                stats.acks.append(msg["decision"])
            elif kind == "error":
                stats.errors.append(msg)
                if msg["code"] == "rate_limited":  # ask for the open decision again
                    await asyncio.sleep(0.2)
                    await ws.send(json.dumps({"type": "resync"}))
            elif kind == "match_over":
                stats.match_over = msg
                return stats


def _post(base: str, path: str, doc: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(base + path, data=json.dumps(doc).encode(),
                                 headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        body: dict[str, Any] = json.loads(r.read())
        return body


def parse_target(target: str) -> tuple[str, str | None, str | None]:
    """(HTTP base, table, token) of a server address: ``http(s)://host:port``,
    ``ws(s)://host:port/ws`` or a seat's link ``http://host:port/#join=TABLE.TOKEN``
    (table and token None when the address has none). ``ValueError`` if it is none of them."""
    u = urllib.parse.urlsplit(target)
    if u.scheme not in ("http", "https", "ws", "wss") or not u.netloc:
        raise ValueError(f"not a server address (http://HOST:PORT, ws://HOST:PORT/ws or a "
                         f"#join= link): {target!r}")
    scheme = {"ws": "http", "wss": "https"}.get(u.scheme, u.scheme)
    base = f"{scheme}://{u.netloc}"
    if u.fragment.startswith("join="):
        table, _, token = u.fragment[5:].partition(".")
        if not table or not token:
            raise ValueError(f"a #join= link is #join=TABLE.TOKEN, got #{u.fragment}")
        return base, table, token
    return base, None, None


def main(argv: list[str] | None = None) -> int:
    """``python -m daguai.bot``: play one seat until the match ends; the exit status."""
    p = argparse.ArgumentParser(prog="python -m daguai.bot", description=__doc__.splitlines()[0])
    p.add_argument("server", nargs="?", default="http://127.0.0.1:8000",
                   help="the server (http://HOST:PORT or ws://HOST:PORT/ws) or the seat's "
                        "#join= link (default http://127.0.0.1:8000)")
    p.add_argument("--table", help="table id")
    p.add_argument("--token", help="the seat's secret token")
    p.add_argument("--vs-bots", action="store_true", help="create a table: this bot + 5 built-in bots")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--think", type=float, default=0.0, help="seconds to wait before each answer")
    args = p.parse_args(argv)
    try:
        base, table, token = parse_target(args.server)
    except ValueError as exc:
        p.error(str(exc))
    table, token = args.table or table, args.token or token
    if args.vs_bots:
        created = _post(base, "/api/tables", {"rules": {"final_level": "3"}, "bot_delay": 0, "seats": [
            {"kind": "remote", "name": "daguai.bot"}] + [{"kind": "bot"}] * 5})
        table, token = created["table"], created["tokens"][0]
        print(f"table {table}")
    if not (table and token):
        p.error("give the seat's #join= link, --table and --token, or --vs-bots")
    url = base.replace("http", "ws", 1) + "/ws"
    stats = asyncio.run(play(url, table, token, seed=args.seed, think=args.think))
    if stats.match_over:
        r = stats.match_over["results"][-1]
        print(f"match over after {len(stats.match_over['results'])} rounds: levels {r['levels_after']}; "
              f"{stats.decisions} decisions; record at {base}{stats.match_over['record']}")
        return 0
    print(f"connection closed after {stats.decisions} decisions")
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
