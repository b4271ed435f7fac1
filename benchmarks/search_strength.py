r"""Strength of the search policy against heuristic by budget (docs/search.md).

Duplicate evaluation (every deal twice, teams swapped) of pimc at several budgets against
heuristic, one thread, then a table and a plot. Usage:

    python benchmarks/search_strength.py --deals 500 --out docs/search_strength.json \
        --plot docs/search_strength.png
"""

from __future__ import annotations

import argparse
import json
import time

import daguai

BUDGETS = [("pimc24", 24), ("pimc48", 48), ("pimc", 96), ("pimc192", 192)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default="search_strength.json")
    ap.add_argument("--plot", default=None)
    ap.add_argument("--only", default=None, help="comma-separated policy names")
    args = ap.parse_args()
    rows = []
    try:
        with open(args.out) as f:
            rows = json.load(f)
    except (OSError, ValueError):
        rows = []
    done = {r["policy"] for r in rows}
    budgets = [b for b in BUDGETS if args.only is None or b[0] in args.only.split(",")]
    for name, rollouts in budgets:
        if name in done:
            continue
        t0 = time.perf_counter()
        r = daguai.evaluate(name, "heuristic", args.deals, seed=args.seed, threads=1)
        seconds = time.perf_counter() - t0
        rows.append({"policy": name, "rollouts": rollouts, "deals": args.deals, "seconds": seconds,
                     "summary": r.summary(), **_fields(r)})
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)
        print(name, seconds, flush=True)
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        rows.sort(key=lambda r: r["rollouts"])
        x = [r["rollouts"] for r in rows]
        y = [r["wml"] for r in rows]
        err = [[r["wml"] - r["wml_lo"] for r in rows], [r["wml_hi"] - r["wml"] for r in rows]]
        fig, ax = plt.subplots(figsize=(5, 3.2))
        ax.errorbar(x, y, yerr=err, marker="o", capsize=3)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("rollouts per decision")
        ax.set_ylabel("wins - losses vs heuristic")
        ax.set_title(
            "pimc vs heuristic, duplicate (deals: " + ", ".join(str(r["deals"]) for r in rows) + ")",
            fontsize=9,
        )
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)


def _fields(r) -> dict:
    """wins - losses and its 95% interval, from the EvalResult."""
    d = {}
    for key in ("win_minus_loss", "wml"):
        if hasattr(r, key):
            d["wml"] = float(getattr(r, key))
    text = r.summary()
    for line in text.splitlines():
        if line.startswith("A win rate - loss rate"):
            parts = line.replace("[", " ").replace("]", " ").replace(",", " ").split()
            nums = [float(p) for p in parts if p[:1] in "+-" and p[1:2].isdigit()]
            d["wml"], d["wml_lo"], d["wml_hi"] = nums[0], nums[1], nums[2]
    return d


if __name__ == "__main__":
    main()
