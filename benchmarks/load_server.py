"""Load, latency and crash test of ``daguai serve`` over loopback (127.0.0.1 only, bounded).

Phases (each bounded by --duration seconds):

1. **think**: ``--tables`` tables (default 200) of six remote random bots, each bot waiting
   ``--think`` seconds (default 0.5) before answering: about tables*6/(6*think) = 400
   decisions/s. Meanwhile ``--hints`` people's seats (default 2) ask for a ``hint`` whenever
   the server allows (one per seat every 3 s): hint latency request -> answer (their CPU,
   in the server's worker threads, counts in the server's CPU figures). Reports
   decisions/s, the round trip act -> ack seen by the bots (think time excluded; includes
   both event loops and the loopback socket) and the server's own time per decision
   (``GET /api/stats``: apply, checkpoint, push), and checks that no action is lost or
   duplicated: every act is acknowledged exactly once and the server's decision
   count equals the acknowledgements.
2. **instant**: ``--instant-tables`` tables of instant bots: the most decisions/s one server
   process sustains (the bots share one client process, so this is a lower bound).
3. **crash**: short matches of remote bots with seeded choices plus all-bot tables; the
   server is killed with SIGKILL mid-match and restarted; every finished match must be in
   the database and every resumed table must end with exactly the record of an
   uninterrupted run with the same seed and decisions.

    python benchmarks/load_server.py                 # all phases, about 2 minutes
    python benchmarks/load_server.py --phases think --tables 50 --duration 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from daguai import Game, Rules  # noqa: E402
from daguai.server.standins import policy_action  # noqa: E402
from server_helpers import ServerProcess, remote_bot  # noqa: E402


class Bot:
    """One remote seat: answers ``decide`` after ``think`` s with a seeded random index."""

    def __init__(self, url: str, table: str, token: str, seed: int, think: float,
                 events: bool = False) -> None:
        self.url, self.table, self.token, self.seed, self.think = url, table, token, seed, think
        self.events = events
        self.sent: dict[int, float] = {}
        self.acks: list[int] = []
        self.rtts: list[float] = []
        self.errors: list[Any] = []
        self.acts = 0

    async def run(self, stop: asyncio.Event) -> None:
        bot = remote_bot()
        async with websockets.connect(self.url, max_size=8 << 20, ping_interval=None,
                                      open_timeout=120) as ws:
            await ws.send(json.dumps({"type": "join", "table": self.table, "token": self.token,
                                      "events": self.events}))
            while True:
                if stop.is_set() and not self.sent:
                    return
                try:
                    raw = await asyncio.wait_for(ws.recv(), 1.0)
                except asyncio.TimeoutError:
                    continue
                if isinstance(raw, str) and raw.startswith('{"type":"event"'):
                    continue  # the bot needs only decide / ack
                msg = json.loads(raw)
                kind = msg["type"]
                if kind == "decide":
                    if self.think:
                        await asyncio.sleep(self.think)
                    if stop.is_set():
                        continue
                    i = bot.choose(self.seed, msg["decision"], msg["legal"])
                    self.sent[msg["decision"]] = time.perf_counter()
                    self.acts += 1
                    await ws.send(json.dumps({"type": "act", "decision": msg["decision"], "index": i}))
                elif kind == "ack":
                    t = self.sent.pop(msg["decision"], None)
                    if t is not None:
                        self.rtts.append(time.perf_counter() - t)
                    self.acks.append(msg["decision"])
                elif kind == "error":
                    self.errors.append(msg)
                elif kind == "match_over":
                    return


class HintProber:
    """One person's seat (with five built-in bots) that asks for a ``hint`` at every decision
    it may (one per seat every 3 s, the server's limit) while the load runs, and measures
    request -> answer; then plays the hint's best choice."""

    def __init__(self, url: str, table: str, token: str) -> None:
        self.url, self.table, self.token = url, table, token
        self.latencies: list[float] = []
        self.refused: list[str] = []
        self.worlds: list[int] = []

    async def run(self, stop: asyncio.Event) -> None:
        async with websockets.connect(self.url, max_size=8 << 20, ping_interval=None,
                                      open_timeout=120) as ws:
            await ws.send(json.dumps({"type": "join", "table": self.table, "token": self.token,
                                      "events": False}))
            last = -10.0
            while not stop.is_set():
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                except asyncio.TimeoutError:
                    continue
                if msg["type"] == "match_over":
                    return
                if msg["type"] != "decide":
                    continue
                choice = 0
                if len(msg["legal"]) > 1 and time.monotonic() - last >= 3.05:
                    last = time.monotonic()
                    t0 = time.perf_counter()
                    await ws.send(json.dumps({"type": "hint", "decision": msg["decision"]}))
                    while True:
                        ans = json.loads(await asyncio.wait_for(ws.recv(), 60))
                        if ans["type"] in ("hint", "error"):
                            break
                    if ans["type"] == "hint":
                        self.latencies.append(time.perf_counter() - t0)
                        self.worlds.append(ans["worlds"])
                        choice = ans["candidates"][0]["index"] or 0
                    else:
                        self.refused.append(ans["code"])
                await ws.send(json.dumps({"type": "act", "decision": msg["decision"], "index": choice}))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc): load on a shared machine does not
    change it, so decisions per CPU-second is the capacity figure."""
    import os
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def create_tables(srv: ServerProcess, n: int, rules: dict[str, Any], seed0: int) -> list[tuple[str, list]]:
    out = []
    with httpx.Client(base_url=srv.base, timeout=30) as c:
        for i in range(n):
            r = c.post("/api/tables", json={"rules": rules, "seed": seed0 + i,
                                            "seats": [{"kind": "remote"}] * 6})
            r.raise_for_status()
            out.append((r.json()["table"], r.json()["tokens"]))
    return out


async def drive(srv: ServerProcess, tables: list[tuple[str, list]], think: float,
                duration: float, events: bool = False,
                probers: list[HintProber] | None = None) -> tuple[list[Bot], float]:
    stop = asyncio.Event()
    bots = [Bot(srv.ws, t, tok, 1000 * k + s, think, events) for k, (t, toks) in enumerate(tables)
            for s, tok in enumerate(toks)]
    tasks = [asyncio.create_task(p.run(stop)) for p in probers or []]
    for i, b in enumerate(bots):  # connect in batches: 1200 handshakes at once time out
        tasks.append(asyncio.create_task(b.run(stop)))
        if i % 50 == 49:
            await asyncio.sleep(0.05)
    t0 = time.perf_counter()
    await asyncio.wait(tasks, timeout=duration)  # or sooner, when every match is over
    stop.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 60)
    return bots, time.perf_counter() - t0


def load_phase(db: str, n_tables: int, think: float, duration: float, label: str,
               events: bool, hints: int = 0) -> dict[str, Any]:
    srv = ServerProcess(db, rate=1000)
    try:
        tables = create_tables(srv, n_tables, {}, 1)
        probers = []
        with httpx.Client(base_url=srv.base, timeout=30) as c:
            for i in range(hints):  # a person asking for hints, five built-in bots
                r = c.post("/api/tables", json={"seed": 7000 + i, "bot_delay": 0.3, "seats": [
                    {"kind": "human"}] + [{"kind": "bot", "policy": "heuristic"}] * 5}).json()
                probers.append(HintProber(srv.ws, r["table"], r["tokens"][0]))
        before = httpx.get(srv.base + "/api/stats", timeout=30).json()
        cpu0, client0 = cpu_seconds(srv.proc.pid), time.process_time()
        bots, elapsed = asyncio.run(drive(srv, tables, think, duration, events, probers))
        cpu1, client1 = cpu_seconds(srv.proc.pid), time.process_time()
        stats = httpx.get(srv.base + "/api/stats", timeout=30).json()
        server_total = sum(t["decisions"] for t in httpx.get(srv.base + "/api/tables", timeout=30).json()
                           if t["table"] in {tid for tid, _ in tables})
    finally:
        srv.stop()
    acks = sum(len(b.acks) for b in bots)
    acts = sum(b.acts for b in bots)
    dup = sum(len(b.acks) - len(set(b.acks)) for b in bots) + max(0, server_total - acks)
    unacked = sum(len(b.sent) for b in bots)
    rtts = [x for b in bots for x in b.rtts]
    out = {
        "phase": label, "tables": n_tables, "bots": len(bots), "think_s": think, "events": events,
        "server_cpu_ms_per_decision": round(1000 * (cpu1 - cpu0) / max(1, acts), 3),
        "server_decisions_per_cpu_s": round(acts / max(1e-9, cpu1 - cpu0), 1),
        "client_cpu_s": round(client1 - client0, 1), "server_cpu_s": round(cpu1 - cpu0, 1),
        "seconds": round(elapsed, 1), "decisions": acks,
        "decisions_per_s": round(acks / elapsed, 1),
        "rtt_ms_p50": round(1000 * pct(rtts, 0.5), 2), "rtt_ms_p99": round(1000 * pct(rtts, 0.99), 2),
        "server_ms_p50": stats["decision_ms"]["p50"], "server_ms_p99": stats["decision_ms"]["p99"],
        "server_ms_max": stats["decision_ms"]["max"],
        "server_cpu_ms_p50": stats["decision_cpu_ms"]["p50"],
        "server_cpu_ms_p99": stats["decision_cpu_ms"]["p99"],
        "acts_sent": acts, "server_decisions": server_total,
        "lost": acts - server_total, "duplicated": dup, "unacknowledged_acts": unacked,
        "errors": sum(len(b.errors) for b in bots),
    }
    if hints:
        lat = [x for p in probers for x in p.latencies]
        out.update({"hints": len(lat), "hint_ms_p50": round(1000 * pct(lat, 0.5), 1),
                    "hint_ms_p99": round(1000 * pct(lat, 0.99), 1),
                    "hint_ms_max": round(1000 * max(lat), 1) if lat else None,
                    "hint_worlds_median": pct([float(w) for p in probers for w in p.worlds], 0.5),
                    "hints_refused": sum(len(p.refused) for p in probers),
                    "hints_refused_codes": sorted({c for p in probers for c in p.refused})})
    assert before["decisions"] == 0
    return out


def crash_phase(db: str, n_remote: int, n_bot_tables: int) -> dict[str, Any]:
    rules = {"final_level": "3"}
    srv = ServerProcess(db)
    try:
        remote = create_tables(srv, n_remote, rules, 500)
        with httpx.Client(base_url=srv.base, timeout=30) as c:
            bot_tables = []
            for i in range(n_bot_tables):
                r = c.post("/api/tables", json={"rules": rules, "seed": 900 + i,
                                                "seats": [{"kind": "bot", "policy": "random"}] * 6,
                                                "bot_delay": 0.002 * i})
                bot_tables.append(r.json()["table"])
        bots, _ = asyncio.run(drive(srv, remote, 0.0, 2.0))
        finished_before = {m["table"] for m in httpx.get(srv.base + "/api/matches", timeout=30).json()}
        srv.kill()
    finally:
        srv.stop()
    srv = ServerProcess(db)
    try:
        still = {m["table"] for m in httpx.get(srv.base + "/api/matches", timeout=30).json()}
        bots, _ = asyncio.run(drive(srv, remote, 0.0, 60.0))  # play the rest (they end by themselves)
        deadline = time.monotonic() + 60
        while True:
            matches = {
                m["table"]: m["match"] for m in httpx.get(srv.base + "/api/matches", timeout=30).json()
            }
            if len(matches) == n_remote + n_bot_tables or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        same = 0
        bot = remote_bot()
        for k, (t, _) in enumerate(remote):
            g = Game(500 + k, Rules.from_dict(rules), auto_pass=True)
            n = 0
            while not g.match_over:
                legal = g.legal_actions()
                g.step(legal[bot.choose(1000 * k + g.current_player, n, [str(a) for a in legal])])
                n += 1
            got = httpx.get(f"{srv.base}/api/matches/{matches[t]}/record", timeout=30).text
            same += got == g.to_record()
        for i, t in enumerate(bot_tables):
            g = Game(900 + i, Rules.from_dict(rules), auto_pass=True)
            n = 0
            while not g.match_over:
                g.step(policy_action("random", g, 900 + i, n))
                n += 1
            got = httpx.get(f"{srv.base}/api/matches/{matches[t]}/record", timeout=30).text
            same += got == g.to_record()
    finally:
        srv.stop()
    return {"phase": "crash", "tables": n_remote + n_bot_tables,
            "finished_before_kill": len(finished_before), "kept_after_restart": len(finished_before & still),
            "finished_after_restart": len(matches), "same_result_as_uninterrupted": same}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--phases", default="think,instant,crash")
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--think", type=float, default=0.5)
    p.add_argument("--instant-tables", type=int, default=20)
    p.add_argument("--duration", type=float, default=30.0)
    p.add_argument("--events", action="store_true", help="bots also receive every event message")
    p.add_argument("--hints", type=int, default=2,
                   help="during the think phase, this many people's seats ask for a hint whenever "
                        "they may (the server computes two at once)")
    args = p.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for phase in args.phases.split(","):
            if phase == "think":
                row = load_phase(f"{tmp}/think.sqlite3", args.tables, args.think, args.duration, "think",
                                 args.events, args.hints)
            elif phase == "instant":
                row = load_phase(f"{tmp}/instant.sqlite3", args.instant_tables, 0.0, args.duration,
                                 "instant", args.events)
            elif phase == "crash":
                row = crash_phase(f"{tmp}/crash.sqlite3", 10, 5)
            else:
                p.error(f"unknown phase {phase!r}")
            print(json.dumps(row), flush=True)
            rows.append(row)


if __name__ == "__main__":
    main()
