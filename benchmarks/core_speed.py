"""Core speed figures (issue "Core"): classification, comparison, legal plays.

Run:  python benchmarks/core_speed.py [--hands 400] [--markdown]

All figures are measured in this one run on random deals (fixed seed). Generation times
are taken inside C++ (fastest of repeated calls per hand, then the median over hands), so
Python call overhead is excluded; the numpy figure is the extra cost of the Python/numpy
path over that C++ time, per play. The machine is shared: compare ratios within a run.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # idle BLAS threads would share our core

import numpy as np  # noqa: E402

import daguai  # noqa: E402
from daguai import Hand, Rules, _core  # noqa: E402

DECK = [f for f in range(54) for _ in range(3)]


def random_hands(n: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    hands = []
    for _ in range(n):
        deck = DECK[:]
        rng.shuffle(deck)
        hands.append(Hand.from_faces(deck[:27]))
    return hands


def random_tops(hands: list[Hand], size: int, seed: int) -> list:
    """For each hand, a random play of `size` cards from another random 27-card hand."""
    rng = random.Random(seed)
    others = random_hands(len(hands), seed + 1)
    tops = []
    for other in others:
        rows = daguai.legal_plays_array(other)
        rows = rows[rows["size"] == size]
        tops.append(daguai.plays_from_array(rows[rng.randrange(len(rows)):][:1])[0])
    return tops


def best_of(fn, reps: int) -> float:
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def measure(n_hands: int) -> list[tuple[str, float, str, float]]:
    """Rows of (what, measured, unit, target)."""
    rules = Rules()
    hands = random_hands(n_hands, seed=2026)
    rows = []

    # classify + compare: random legal 5-card plays, as face-id rows
    rng = random.Random(7)
    fives = []
    for h in hands:
        a = daguai.legal_plays_array(h)
        a = a[a["size"] == 5]
        counts = daguai.play_counts(a[rng.sample(range(len(a)), min(40, len(a)))])
        for c in counts:
            fives.append(np.repeat(np.arange(54, dtype=np.uint8), c))
    faces = np.array(fives, dtype=np.uint8)
    faces = np.tile(faces, (max(1, 1_000_000 // len(faces)), 1))
    other = faces[np.random.default_rng(1).permutation(len(faces))]
    t = best_of(lambda: daguai.classify_many(faces), 5)
    rows.append(("classify a random 5-card play (batch)", t / len(faces) * 1e9, "ns", 5.0))
    t = best_of(lambda: daguai.beats_many(faces, other), 5)
    rows.append(("classify both + compare, per pair (batch)", t / len(faces) * 1e9, "ns", 5.0 * 2))

    # all legal leads of a random 27-card hand, timed in C++
    ns, counts = _core._time_legal_plays(hands, None, "2", rules._core, 20)
    rows.append((f"all legal leads, 27-card hand (median {int(np.median(counts))} plays, "
                 f"{counts.min()}-{counts.max()})", float(np.median(ns)) / 1000, "µs", 5.0))
    lead_ns_per_play = float(np.median(ns / counts))

    for size, target in ((1, 0.2), (2, 0.2), (3, 0.2), (5, 2.0)):
        tops = random_tops(hands, size, seed=size)
        ns_f, counts_f = _core._time_legal_plays(hands, tops, "2", rules._core, 20)
        name = {1: "single", 2: "pair", 3: "triple", 5: "5-card"}[size]
        rows.append((f"follow set for a random {name} top (median {int(np.median(counts_f))} plays)",
                     float(np.median(ns_f)) / 1000, "µs", target))

    # numpy path overhead per play: Python-side time of legal_plays_array minus C++ time
    extra = []
    for h, c_ns, n in zip(hands[:200], ns[:200], counts[:200]):
        t = best_of(lambda: daguai.legal_plays_array(h), 10) * 1e9
        extra.append((t - c_ns) / n)
    rows.append(("numpy path extra over C++, per play", statistics.median(extra), "ns", 2.0))
    rows.append(("(for scale) C++ lead generation, per play", lead_ns_per_play, "ns", float("nan")))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=400, help="random 27-card hands (default 400)")
    ap.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = ap.parse_args()
    rows = measure(args.hands)
    print(f"daguai {daguai.__version__}, {platform.machine()}, {platform.python_version()}, "
          f"{args.hands} hands")
    if args.markdown:
        print("| measure | measured | target | measured ÷ target |")
        print("|---|---|---|---|")
    for what, value, unit, target in rows:
        if args.markdown:
            tgt = "—" if target != target else f"≤ {target:g} {unit}"
            ratio = "—" if target != target else f"{value / target:.2f}"
            print(f"| {what} | {value:.2f} {unit} | {tgt} | {ratio} |")
        else:
            tgt = "" if target != target else f"  (target ≤ {target:g} {unit}, ratio {value / target:.2f})"
            print(f"{what:70s} {value:8.2f} {unit}{tgt}")


if __name__ == "__main__":
    main()
