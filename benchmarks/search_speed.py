"""Speed figures of the search (docs/search.md): sampling one world, heuristic rollouts from
mid-round positions, and a pimc decision at the default budget; one thread.

    python benchmarks/search_speed.py [--positions 20]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from daguai import Game, _core
from daguai._core import _testing


def mid_round_positions(n: int, seed: int = 1) -> list[Game]:
    out = []
    rng = random.Random(seed)
    for k in range(n):
        g = Game(seed + k)
        runner = {s: _core.run.PolicyRunner("heuristic", seed, k, s) for s in range(6)}
        target = rng.randrange(40, 90)  # decisions into the round
        for _ in range(target):
            if g.phase == "match_over" or g.n_results:
                break
            g.step(runner[g.current_player].act(g))
        if not g.n_results and not g.match_over:
            out.append(g)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=20)
    args = ap.parse_args()
    games = mid_round_positions(args.positions)
    sample_ns = statistics.median(_testing.time_sampling(g, 20000, 1) for g in games)
    rollout_ns = statistics.median(_testing.time_rollouts(g, 200, "heuristic") for g in games)
    times = []
    for k, g in enumerate(games):
        runner = _core.run.PolicyRunner("pimc", 7, k, g.current_player)
        h = g.clone()
        for _ in range(6):
            if h.match_over or h.n_results:
                break
            if len(h.legal_actions()) > 1:
                t0 = time.perf_counter()
                a = _core.run.PolicyRunner("pimc", 7, k, h.current_player).act(h)
                times.append(time.perf_counter() - t0)
            else:
                a = h.legal_actions()[0]
            h.step(a)
        del runner
    print(f"positions: {len(games)} mid-round (40-90 heuristic decisions into round 0)")
    print(f"sample one world (hands):      {sample_ns / 1000:8.2f} us   (target <= 2 us)")
    print(f"heuristic rollout to round end: {rollout_ns / 1000:8.1f} us = {1e9 / rollout_ns:,.0f} /s/core "
          f"(target >= 20,000 /s)")
    print(
        f"pimc decision, default budget:  median {statistics.median(times) * 1000:6.1f} ms, "
        f"p90 {sorted(times)[int(0.9 * len(times))] * 1000:6.1f} ms "
        f"over {len(times)} decisions (target <= 50 ms)"
    )


if __name__ == "__main__":
    main()
