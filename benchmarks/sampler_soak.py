"""Soak test of the world sampler in real search play: whole matches with ``pimc24`` on every
seat under ``auto_pass`` (forced passes are the hardest constraints a view can hold, R16), each
decision sampling its worlds from the seat's view. Counts rounds, decisions and sampler
failures (an error raised by a decision), one JSON line per match appended to a log, so a run
resumes where it stopped and grows across sessions.

    python benchmarks/sampler_soak.py --log training/soak/pimc24_autopass.jsonl --rounds 1000

Matches are ``Game(seed, rules, game=k, auto_pass=True)`` for k = 0, 1, 2, ... (seed 6024 by
default: its game 1 failed in round 0 before the constraint model and the swap chain). A
failure is logged with its match, round and message and the run goes on with the next match.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import daguai
from daguai import _core


def play_match(seed: int, k: int, rules: daguai.Rules, policy: str) -> dict:
    g = daguai.Game(seed, rules, game=k, auto_pass=True)
    runners = [_core.run.PolicyRunner(policy, seed, k, s) for s in range(g.seats)]
    decisions, t0 = 0, time.process_time()
    try:
        while g.current_player is not None:
            seat = g.current_player
            g.step(runners[seat].act(g.state))
            decisions += 1
    except (ValueError, RuntimeError) as exc:
        return {"game": k, "rounds": len(g.state.results), "decisions": decisions,
                "failed": f"{type(exc).__name__}: {exc}", "cpu_s": round(time.process_time() - t0, 1)}
    return {"game": k, "rounds": len(g.state.results), "decisions": decisions, "failed": None,
            "cpu_s": round(time.process_time() - t0, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log", required=True, type=Path)
    ap.add_argument("--rounds", type=int, default=1000, help="stop once the log holds this many rounds")
    ap.add_argument("--seed", type=int, default=6024)
    ap.add_argument("--policy", default="pimc24")
    ap.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args()
    rules = daguai.Rules(**dict(r.split("=", 1) for r in args.rule)) if args.rule else daguai.Rules()
    args.log.parent.mkdir(parents=True, exist_ok=True)
    done = [json.loads(line) for line in args.log.read_text().splitlines()] if args.log.exists() else []
    rounds = sum(d["rounds"] for d in done)
    k = 1 + max((d["game"] for d in done), default=-1)
    while rounds < args.rounds:
        row = play_match(args.seed, k, rules, args.policy)
        row.update(seed=args.seed, policy=args.policy, rules=rules.to_dict())
        with args.log.open("a") as f:
            f.write(json.dumps(row) + "\n")
        rounds += row["rounds"]
        print(f"match {k}: {row['rounds']} rounds, {row['decisions']} decisions, "
              f"{row['cpu_s']} s, failed: {row['failed']}; {rounds} rounds in all", flush=True)
        k += 1


if __name__ == "__main__":
    main()
