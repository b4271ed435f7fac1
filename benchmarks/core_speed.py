"""Speed figures (issues "Core" and "Monte Carlo"): classification, comparison, legal
plays, rollouts. The measurements live in ``daguai.bench`` (also ``daguai bench``).

Run:  python benchmarks/core_speed.py [--hands 400] [--markdown] [--quick] [--no-rollouts]

All figures are measured in this one run on random deals (fixed seed). Generation times
are taken inside C++ (fastest of repeated calls per hand, then the median over hands), so
Python call overhead is excluded; the numpy figure is the extra cost of the Python/numpy
path over that C++ time, per play. The machine is shared: compare ratios within a run.
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # idle BLAS threads would share our core

from daguai.bench import (  # noqa: E402,F401  (re-exported for scripts that imported them here)
    best_of,
    format_rows,
    header,
    measure,
    measure_rollouts,
    random_hands,
    random_tops,
    run,
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=None, help="random 27-card hands (default 400, --quick 60)")
    ap.add_argument("--markdown", action="store_true", help="print a markdown table")
    ap.add_argument("--quick", action="store_true", help="fewer hands, shorter rollout timings")
    ap.add_argument("--no-rollouts", action="store_true", help="only the core figures")
    args = ap.parse_args()
    n_hands = args.hands if args.hands is not None else (60 if args.quick else 400)
    rows = run(quick=args.quick, hands=n_hands, rollouts=not args.no_rollouts)
    print(header(n_hands))
    print(format_rows(rows, markdown=args.markdown, targets=True))


if __name__ == "__main__":
    main()
