"""Where a learned decision's time goes, by the number of its candidates.

The learned player decides in four steps (cpp/engine/learned/learned.cpp prepare_decision):
the heuristic's choice (a feature, and its own action stands for its abstract id), the
candidates (the legal actions, one per legal abstract id with its features: encoding, the hand
after it, the plays in the heuristic's plan of that hand), the state's features, and the
network's integer pass (the state part once, then a pass per candidate).
``_core._testing.time_decision_parts`` times each step of every play-phase decision with two or
more legal actions of ``time_decisions``' rounds (``learned`` on seats 0, 2, 4 against
``heuristic``, random start states of seed S), and this prints the medians per group of
candidate counts, and the median and 90th percentile of the four steps' sum (what ``daguai
bench`` reports as the decision, less the dispatch around it). Take it on a quiet machine.

    python benchmarks/learned_parts.py [--rounds 200] [--seed 2026] [--table 6p3d]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from daguai import Rules
from daguai._core import _testing

PARTS = ("heuristic_ns", "candidates_ns", "state_ns", "network_ns")
GROUPS = ((2, 2), (3, 3), (4, 5), (6, 8), (9, 12), (13, 19), (20, 39), (40, 10_000))


def table(parts: dict[str, np.ndarray]) -> str:
    """The Markdown table of the medians (µs) by candidate count, and the whole."""
    n = parts["candidates"]
    total = sum(parts[k] for k in PARTS)
    head = ("| candidates | decisions | heuristic | candidates | state | network | sum (median) |\n"
            "|---|---:|---:|---:|---:|---:|---:|")
    rows = [head]
    for lo, hi in GROUPS:
        sel = (n >= lo) & (n <= hi)
        if not sel.any():
            continue
        name = f"{lo}" if lo == hi else (f"{lo}+" if hi >= 10_000 else f"{lo}-{hi}")
        cells = [f"{np.median(parts[k][sel]) / 1e3:.2f}" for k in PARTS]
        rows.append(f"| {name} | {int(sel.sum()):,} ({sel.mean():.0%}) | " + " | ".join(cells)
                    + f" | {np.median(total[sel]) / 1e3:.2f} |")
    cells = [f"{np.median(parts[k]) / 1e3:.2f}" for k in PARTS]
    rows.append(f"| all (median {np.median(n):.0f}) | {len(n):,} | " + " | ".join(cells)
                + f" | {np.median(total) / 1e3:.2f} (p90 {np.quantile(total, 0.9) / 1e3:.2f}) |")
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--table", choices=("6p3d", "4p2d"), default="6p3d")
    args = ap.parse_args()
    time.sleep(2)  # numpy's BLAS threads spin on the other core for about a second after import
    parts = _testing.time_decision_parts(Rules(table=args.table)._core, args.seed, args.rounds)
    print(f"learned decisions in parts, µs (medians); {args.rounds} rounds of seed {args.seed}, "
          f"{args.table}\n")
    print(table(parts))


if __name__ == "__main__":
    main()
