"""Fit the noise rate of inference's heuristic model (docs/search.md "Inference from play").

Self-play of one policy on every seat; at each play-phase decision with two or more legal
actions, the policy's decision is compared with the heuristic's choice at the same view
(the same action, or a play of the same group of equivalent plays). Under the model a seat
makes the heuristic's choice with probability 1 - eps, so the maximum-likelihood eps is the
fraction of decisions that differ; printed with its 95% Wilson interval per policy.

    python benchmarks/fit_inference.py --rounds 6 --policies pimc24 learned heuristic_exact
"""

from __future__ import annotations

import argparse
import math

import daguai
from daguai import _core
from daguai._core import _testing


def same_choice(g: daguai.Game, seat: int, a: _core.Action, b: _core.Action) -> bool:
    """Equal decisions, or plays of one group of equivalent plays (candidates.hpp)."""
    if a == b:
        return True
    if a.play is None or b.play is None or str(a.type) != str(b.type):
        return False
    s = g.state
    top = s.top if s.top_seat is not None else None
    for group in _testing.play_groups(s.hand(seat), s.level, top, g.rules._core):
        texts = {str(p) for p in group}
        if str(a.play) in texts and str(b.play) in texts:
            return True
    return False


def fit(policy: str, rounds: int, seed: int) -> tuple[int, int]:
    """(decisions, those differing from the heuristic) over `rounds` rounds of self-play."""
    n = differ = 0
    for game in range(rounds):
        g = daguai.Game(seed=seed, game=game)
        runners = [_core.PolicyRunner(policy, seed, game, s) for s in range(6)]
        judges = [_core.PolicyRunner("heuristic", seed, game, s) for s in range(6)]
        start = g.state.n_results
        while not g.state.match_over and g.state.n_results == start:
            seat = g.state.current_player
            legal = g.legal_actions()
            a = runners[seat].act(g.state)
            if str(g.state.phase).endswith("play") and len(legal) > 1:
                h = judges[seat].act(g.state)
                n += 1
                differ += not same_choice(g, seat, a, h)
            g.step(a)
    return n, differ


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p, z = k / n, 1.96
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--seed", type=int, default=930001)
    ap.add_argument("--policies", nargs="+", default=["pimc24", "learned", "heuristic_exact"])
    args = ap.parse_args()
    total_n = total_d = 0
    for p in args.policies:
        n, d = fit(p, args.rounds, args.seed)
        total_n, total_d = total_n + n, total_d + d
        lo, hi = wilson(d, n)
        print(f"{p:16s} decisions {n:6d}  differ {d:6d}  eps {d / max(1, n):.3f}  [{lo:.3f}, {hi:.3f}]",
              flush=True)
    lo, hi = wilson(total_d, total_n)
    print(f"{'all':16s} decisions {total_n:6d}  differ {total_d:6d}  eps {total_d / max(1, total_n):.3f}"
          f"  [{lo:.3f}, {hi:.3f}]")


if __name__ == "__main__":
    main()
