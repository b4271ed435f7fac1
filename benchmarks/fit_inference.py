"""Fit inference's models of play (docs/search.md "Inference from play").

Self-play of one policy on every seat; at each play-phase decision with two or more legal
actions:

* ``--model heuristic``: the policy's decision is compared with the heuristic's choice at the
  same view (the same action, or a play of the same group of equivalent plays). Under the
  model a seat makes the heuristic's choice with probability 1 - eps, so the
  maximum-likelihood eps is the fraction of decisions that differ; printed with its 95%
  Wilson interval per policy.
* ``--model learned``: the shipped network's Q of its candidates at the same view (one per
  abstract id, the integer pass the player plays) and the candidate of the decision's abstract
  id. Under the model the decision is candidate i with probability softmax(Q / T)_i; the
  maximum-likelihood T is found by golden-section search over log T, and printed per policy
  with the mean log-likelihood per decision at that T and under a uniform choice.

    python benchmarks/fit_inference.py --rounds 6 --policies pimc24 learned heuristic_exact
    python benchmarks/fit_inference.py --model learned --rounds 12
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import daguai
import numpy as np
from daguai import _core
from daguai._core import _testing
from daguai.stats import wilson_interval


def same_choice(g: daguai.Game, seat: int, a: _core.game.Action, b: _core.game.Action) -> bool:
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
        runners = [_core.run.PolicyRunner(policy, seed, game, s) for s in range(6)]
        judges = [_core.run.PolicyRunner("heuristic", seed, game, s) for s in range(6)]
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


def softmax_decisions(policy: str, rounds: int, seed: int) -> list[tuple[np.ndarray, int]]:
    """(Q of the candidates, index of the decision's candidate) at every play-phase decision
    with two or more candidates of `rounds` rounds of self-play of `policy`."""
    from daguai.learn import Network, learn_features

    net = Network.from_file(str(Path(daguai.__file__).parent / "models" / "learned.dgn"))
    out = []
    for game in range(rounds):
        g = daguai.Game(seed=seed, game=game)
        runners = [_core.run.PolicyRunner(policy, seed, game, s) for s in range(6)]
        start = g.state.n_results
        while not g.state.match_over and g.state.n_results == start:
            seat = g.state.current_player
            a = runners[seat].act(g.state)
            if str(g.state.phase).endswith("play"):
                _state, cands, feats, _h = learn_features(g)
                if len(cands) > 1:
                    level = g.state.level
                    ids = [daguai.learn.abstract_id(c, level) for c in cands]
                    q = net.evaluate(_state, feats, quantized=True).astype(np.float64)
                    out.append((q, ids.index(daguai.learn.abstract_id(a, level))))
            g.step(a)
    return out


def log_likelihood(data: list[tuple[np.ndarray, int]], t: float) -> float:
    """Sum over decisions of log softmax(Q / t) at the decision's candidate."""
    total = 0.0
    for q, k in data:
        z = q / t
        top = z.max()
        total += z[k] - top - math.log(float(np.exp(z - top).sum()))
    return total


def fit_temperature(data: list[tuple[np.ndarray, int]]) -> float:
    """The maximum-likelihood temperature: golden-section search over log t in [1e-3, 10]
    (the log-likelihood is concave in 1 / t)."""
    lo, hi = math.log(1e-3), math.log(10.0)
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = log_likelihood(data, math.exp(a)), log_likelihood(data, math.exp(b))
    for _ in range(40):
        if fa > fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = log_likelihood(data, math.exp(a))
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = log_likelihood(data, math.exp(b))
    return math.exp((lo + hi) / 2)


def report_learned(policies: list[str], rounds: int, seed: int) -> None:
    pooled: list[tuple[np.ndarray, int]] = []
    for p in policies + ["all"]:
        data = pooled if p == "all" else softmax_decisions(p, rounds, seed)
        if p != "all":
            pooled += data
        t = fit_temperature(data)
        n = max(1, len(data))
        uniform = -sum(math.log(len(q)) for q, _ in data) / n
        argmax = sum(int(np.argmax(q)) == k for q, k in data) / n
        ll = log_likelihood(data, t) / n
        print(f"{p:16s} decisions {len(data):6d}  T {t:.4f}  log-lik/decision {ll:.3f}"
              f"  (uniform {uniform:.3f})  argmax share {argmax:.3f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--seed", type=int, default=930001)
    ap.add_argument("--policies", nargs="+", default=["pimc24", "learned", "heuristic_exact"])
    ap.add_argument("--model", choices=["heuristic", "learned"], default="heuristic")
    args = ap.parse_args()
    if args.model == "learned":
        report_learned(args.policies, args.rounds, args.seed)
        return
    total_n = total_d = 0
    for p in args.policies:
        n, d = fit(p, args.rounds, args.seed)
        total_n, total_d = total_n + n, total_d + d
        lo, hi = wilson_interval(d, n)
        print(f"{p:16s} decisions {n:6d}  differ {d:6d}  eps {d / max(1, n):.3f}  [{lo:.3f}, {hi:.3f}]",
              flush=True)
    lo, hi = wilson_interval(total_d, total_n)
    print(f"{'all':16s} decisions {total_n:6d}  differ {total_d:6d}  eps {total_d / max(1, total_n):.3f}"
          f"  [{lo:.3f}, {hi:.3f}]")


if __name__ == "__main__":
    main()
