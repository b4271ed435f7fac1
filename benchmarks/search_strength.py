r"""Strength of the search policy (docs/search.md "Strength").

A table: the search policy against several opponents, each by duplicate evaluation (every
deal twice, teams swapped; wins - losses of the search team per round, 95% interval over the
deals), one thread, plus the CPU milliseconds per decision (median and p90) over decision
points sampled from heuristic rounds. Opponents that are not registered (the learned
policy before it is merged) are listed as missing, not skipped silently.

    python benchmarks/search_strength.py --deals 1000 --seed 2027 \
        --opponents heuristic,greedy,heuristic_exact,learned --out docs/search_strength.json

``--budgets`` instead measures pimc24 / pimc48 / pimc / pimc192 against heuristic (the
strength-by-budget curve) and ``--plot`` draws it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import daguai
from daguai import Game, _core

BUDGETS = [("pimc24", 24), ("pimc48", 48), ("pimc192", 192), ("pimc", 256)]


def decision_ms(policy: str, positions: int, seed: int) -> list[float]:
    """CPU ms of ``policy``'s decisions at decision points drawn uniformly from seeded
    heuristic rounds (forced decisions excluded: they cost no search)."""
    rng = random.Random(seed)
    out: list[float] = []
    game = 0
    while len(out) < positions:
        g = Game(seed + game)
        runners = {s: _core.run.PolicyRunner("heuristic", seed, game, s) for s in range(6)}
        stop = rng.randrange(0, 160)
        for _ in range(stop):
            if g.match_over or g.n_results:
                break
            g.step(runners[g.current_player].act(g))
        game += 1
        if g.match_over or g.n_results or len(g.legal_actions()) < 2:
            continue
        runner = _core.run.PolicyRunner(policy, seed, game, g.current_player)
        t0 = time.process_time()
        runner.act(g)
        out.append(1000 * (time.process_time() - t0))
    return out


def p90(xs: list[float]) -> float:
    return sorted(xs)[min(len(xs) - 1, int(0.9 * len(xs)))]


def table(args: argparse.Namespace) -> None:
    names = set(_core.catalog.policy_names())
    rows = []
    for opp in args.opponents.split(","):
        if opp not in names:
            rows.append({"opponent": opp, "missing": True})
            print(f"{opp}: not a registered policy here (skipped)", flush=True)
            continue
        t0 = time.process_time()
        r = daguai.evaluate(args.policy, opp, args.deals, seed=args.seed, threads=1)
        rows.append({"opponent": opp, "deals": args.deals, "seed": args.seed, "wml": r.net_win_rate,
                     "wml_ci": list(r.net_win_ci), "score_diff": r.mean_score_diff,
                     "cpu_s": time.process_time() - t0})
        print(json.dumps(rows[-1]), flush=True)
    ms = decision_ms(args.policy, args.positions, args.seed)
    timing = {"positions": len(ms), "median_ms": statistics.median(ms), "p90_ms": p90(ms)}
    doc = {"policy": args.policy, "rows": rows, "decision": timing}
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
    print(f"\n| {args.policy} against | deals | wins - losses | 95% interval |")
    print("|---|---|---|---|")
    for r in rows:
        if r.get("missing"):
            print(f"| {r['opponent']} | - | not registered | - |")
        else:
            print(f"| {r['opponent']} | {r['deals']:,} | {r['wml']:+.3f} | "
                  f"[{r['wml_ci'][0]:+.3f}, {r['wml_ci'][1]:+.3f}] |")
    print(f"\nCPU per decision ({timing['positions']} decision points): median "
          f"{timing['median_ms']:.1f} ms, p90 {timing['p90_ms']:.1f} ms")


def budgets(args: argparse.Namespace) -> None:
    rows = []
    try:
        with open(args.out) as f:
            rows = json.load(f)
    except (OSError, ValueError):
        rows = []
    done = {r["policy"] for r in rows}
    for name, rollouts in BUDGETS:
        if name in done or (args.only and name not in args.only.split(",")):
            continue
        t0 = time.perf_counter()
        r = daguai.evaluate(name, "heuristic", args.deals, seed=args.seed, threads=1)
        rows.append({"policy": name, "rollouts": rollouts, "deals": args.deals,
                     "seconds": time.perf_counter() - t0, "wml": r.net_win_rate,
                     "wml_lo": r.net_win_ci[0], "wml_hi": r.net_win_ci[1]})
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)
        print(name, rows[-1], flush=True)
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
        ax.set_title("pimc vs heuristic, duplicate", fontsize=9)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--policy", default="pimc")
    ap.add_argument("--opponents", default="heuristic,greedy,heuristic_exact,learned")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2027)
    ap.add_argument("--positions", type=int, default=300, help="decision points timed")
    ap.add_argument("--out", default="search_strength.json")
    ap.add_argument("--budgets", action="store_true", help="the strength-by-budget curve instead")
    ap.add_argument("--only", default=None, help="--budgets: comma-separated policy names")
    ap.add_argument("--plot", default=None)
    args = ap.parse_args()
    (budgets if args.budgets else table)(args)


if __name__ == "__main__":
    main()
