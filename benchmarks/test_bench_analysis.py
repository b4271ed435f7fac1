"""pytest-benchmark: hand analysis, min_plays (run: pytest benchmarks/ --benchmark-only).

The benchmark solves a fixed set of 50 random dealt 27-card hands per round. For the
per-hand distribution (median / p99 / max over 1000 dealt hands) run this file:

    PYTHONPATH=python python benchmarks/test_bench_analysis.py [--hands 1000] [--wrap] [--reps 3]

Each hand is timed through the Python API (so the figures include the call overhead and
the building of the Play objects), by one call, or by the fastest of --reps calls: that
hides preemption on a shared machine, but the repeated calls also find the caches warm.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import daguai
import pytest
from daguai import Hand, Rules

DECK = [f for f in range(54) for _ in range(3)]


def dealt_hands(n: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    return [Hand.from_faces(rng.sample(DECK, 27)) for _ in range(n)]


@pytest.fixture(scope="module")
def hands() -> list[Hand]:
    return dealt_hands(50, seed=2026)


@pytest.mark.parametrize("wrap", [False, True])
def test_min_plays_27(benchmark, hands, wrap):
    rules = Rules(wrap_straights=wrap)
    counts = benchmark(lambda: [daguai.min_plays(h, "2", rules)[0] for h in hands])
    assert min(counts) >= 6  # ceil(27 / 5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--reps", type=int, default=1, help="calls per hand; the fastest counts")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--wrap", action="store_true", help="Rules(wrap_straights=True)")
    args = parser.parse_args()
    rules = Rules(wrap_straights=args.wrap)
    times, counts = [], []
    for h in dealt_hands(args.hands, args.seed):
        best = float("inf")
        for _ in range(args.reps):
            t = time.perf_counter()
            count, _ = daguai.min_plays(h, "2", rules)
            best = min(best, time.perf_counter() - t)
        times.append(best * 1e6)
        counts.append(count)
    times.sort()
    n = len(times)
    print(f"min_plays on {n} dealt 27-card hands (wrap_straights={args.wrap}), "
          f"fastest of {args.reps} call(s) each, microseconds:")
    print(f"  median {statistics.median(times):.1f}  p90 {times[int(0.9 * n)]:.1f}  "
          f"p99 {times[int(0.99 * n)]:.1f}  max {times[-1]:.1f}  "
          f"mean {statistics.fmean(times):.1f}")
    hist = {c: counts.count(c) for c in sorted(set(counts))}
    print(f"  counts: {hist}")


if __name__ == "__main__":
    main()
