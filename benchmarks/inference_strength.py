"""Strength of the search with inference from play against the same search without
(docs/search.md "Inference from play"): duplicate evaluation at the same rollout budget
(every deal twice, teams swapped; wins - losses per round of the first policy with its 95%
interval over the deals), one thread, and the CPU milliseconds per decision (median, p90) of
each at decision points sampled from heuristic rounds (search_strength.decision_ms).

    python benchmarks/inference_strength.py --deals 1000 --seed 940001
"""

from __future__ import annotations

import argparse
import statistics

import daguai
from search_strength import decision_ms, p90


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=940001)
    ap.add_argument("--policy", default="pimc24_inf")
    ap.add_argument("--baseline", default="pimc24")
    ap.add_argument("--positions", type=int, default=200)
    args = ap.parse_args()
    r = daguai.evaluate(args.policy, args.baseline, args.deals, seed=args.seed, threads=1)
    lo, hi = r.net_win_ci
    print(f"{args.policy} vs {args.baseline}: {args.deals} deals (x2 seatings), seed {args.seed}: "
          f"wins {r.wins} draws {r.draws} losses {r.losses}; wins - losses per round "
          f"{r.net_win_rate:+.4f} [{lo:+.4f}, {hi:+.4f}]; score diff {r.mean_score_diff:+.3f} "
          f"[{r.score_diff_ci[0]:+.3f}, {r.score_diff_ci[1]:+.3f}]; {r.elapsed:.0f} s", flush=True)
    for p in (args.policy, args.baseline):
        ms = decision_ms(p, args.positions, args.seed)
        print(f"{p}: CPU ms per decision median {statistics.median(ms):.2f} p90 {p90(ms):.2f} "
              f"({len(ms)} positions)", flush=True)


if __name__ == "__main__":
    main()
