"""Duplicate evaluation: :func:`evaluate` plays every deal twice with the teams swapped
(docs/simulation.md "Duplicate evaluation")."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from .results import SimResult, _pct
from .rules import Rules
from .sim import PolicyLike, ProgressLike, _check_int, _check_policy, _policy_name, _progress_callback, simulate

__all__ = ["evaluate", "EvalResult"]


def _ci(values: np.ndarray) -> tuple[float, float, float]:
    """Mean and 95% normal interval mean ± 1.96·sd/√n (sd with n-1)."""
    n = len(values)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(values.mean())
    if n < 2:
        return mean, float("nan"), float("nan")
    half = 1.96 * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


@dataclass(frozen=True, eq=False)
class EvalResult:
    """Result of :func:`evaluate` (duplicate evaluation of A against B).

    Rates are over all ``2 * n_deals`` games, from A's side. ``score_diff`` is A's per-seat
    score minus B's per-seat score in a game; the confidence intervals are 95% normal
    intervals over the ``n_deals`` per-deal values (the mean of the deal's two games).
    """

    policy_a: str
    policy_b: str
    n_deals: int
    seed: int
    matches: bool
    rules: Rules
    wins: int
    draws: int
    losses: int
    win_rate: float
    draw_rate: float
    loss_rate: float
    net_win_rate: float
    net_win_ci: tuple[float, float]
    mean_score_diff: float
    score_diff_ci: tuple[float, float]
    elapsed: float
    deal_net_win: np.ndarray = field(repr=False)
    deal_score_diff: np.ndarray = field(repr=False)
    results: tuple[SimResult, SimResult] = field(repr=False)

    @property
    def games(self) -> int:
        return 2 * self.n_deals

    def summary(self) -> str:
        unit = "matches" if self.matches else "rounds"
        rules = "default rules" if self.rules == Rules() else repr(self.rules)
        g = self.games
        lo, hi = self.net_win_ci
        slo, shi = self.score_diff_ci
        return "\n".join([
            f"daguai evaluate: {self.policy_a} (A) vs {self.policy_b} (B), {self.n_deals:,} deals x 2 "
            f"seatings = {g:,} {unit}, seed {self.seed}, {rules}",
            "",
            f"A wins    {self.wins:>9,}  {_pct(self.wins, g)}",
            f"draws     {self.draws:>9,}  {_pct(self.draws, g)}",
            f"A losses  {self.losses:>9,}  {_pct(self.losses, g)}",
            "",
            f"A win rate - loss rate     {self.net_win_rate:+8.4f}   95% CI [{lo:+.4f}, {hi:+.4f}]",
            f"mean score difference      {self.mean_score_diff:+8.4f}   95% CI [{slo:+.4f}, {shi:+.4f}]"
            "   (A per seat - B per seat, per game)",
            "(intervals over the deals: mean ± 1.96·sd/√n of the per-deal means of the two seatings)",
            f"time: {self.elapsed:.2f} s",
        ])


def evaluate(policy_a: PolicyLike, policy_b: PolicyLike, n_deals: int = 1000, *, seed: int = 0,
             rules: Optional[Rules] = None, matches: bool = False, threads: Optional[int] = None,
             backend: str = "local", ray_address: Optional[str] = None, progress: ProgressLike = None,
             auto_pass: bool = False) -> EvalResult:
    """Duplicate evaluation of ``policy_a`` against ``policy_b``.

    Deal ``i`` (game index ``i`` of ``seed``) is played twice: A on the even seats and B on
    the odd seats, then B on the even seats and A on the odd seats. Deals depend only on
    ``(seed, i)``, so both seatings get the same cards (and the same first dealer), which
    cancels most of the luck of the deal. See :class:`EvalResult` for the figures.
    """
    pa, pb = _check_policy(policy_a), _check_policy(policy_b)
    n_deals = _check_int("n_deals", n_deals, 1)
    report = _progress_callback(progress, "matches" if matches else "rounds")
    kw: dict[str, Any] = dict(seed=seed, rules=rules, matches=matches, threads=threads,
                              backend=backend, ray_address=ray_address, auto_pass=auto_pass)
    start = time.perf_counter()
    first = simulate(n_deals, (pa, pb), progress=None if report is None else
                     (lambda d, t: report(d, 2 * t)), **kw)
    second = simulate(n_deals, (pb, pa), progress=None if report is None else
                      (lambda d, t: report(t + d, 2 * t)), **kw)
    elapsed = time.perf_counter() - start
    w1, w2 = first["winner"].astype(np.int64), second["winner"].astype(np.int64)
    net1 = (w1 == 0).astype(np.float64) - (w1 == 1)   # A is team 0 in the first seating
    net2 = (w2 == 1).astype(np.float64) - (w2 == 0)   # A is team 1 in the second
    s1, s2 = first["scores"].astype(np.float64), second["scores"].astype(np.float64)
    diff1 = s1[:, 0::2].mean(axis=1) - s1[:, 1::2].mean(axis=1)
    diff2 = s2[:, 1::2].mean(axis=1) - s2[:, 0::2].mean(axis=1)
    deal_net = (net1 + net2) / 2
    deal_diff = (diff1 + diff2) / 2
    wins = int((w1 == 0).sum() + (w2 == 1).sum())
    losses = int((w1 == 1).sum() + (w2 == 0).sum())
    draws = 2 * n_deals - wins - losses
    net, nlo, nhi = _ci(deal_net)
    sd, slo, shi = _ci(deal_diff)
    g = 2 * n_deals
    return EvalResult(
        policy_a=_policy_name(pa), policy_b=_policy_name(pb), n_deals=n_deals, seed=first.seed,
        matches=bool(matches), rules=first.rules, wins=wins, draws=draws, losses=losses,
        win_rate=wins / g, draw_rate=draws / g, loss_rate=losses / g,
        net_win_rate=net, net_win_ci=(nlo, nhi), mean_score_diff=sd, score_diff_ci=(slo, shi),
        elapsed=elapsed, deal_net_win=deal_net, deal_score_diff=deal_diff, results=(first, second))
