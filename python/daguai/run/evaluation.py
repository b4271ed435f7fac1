"""Duplicate evaluation: :func:`evaluate` plays every deal twice with the teams swapped
(docs/simulation.md "Duplicate evaluation")."""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import documents
from ..checks import PolicyLike, check_int, check_policy, policy_name
from ..progress import ProgressLike, progress_callback
from ..rules import Rules
from ..stats import _ci, bounded_mean_interval
from .cluster import RAY_TIMEOUT
from .results import SimResult, _pct, render_text
from .simulation import simulate

__all__ = ["evaluate", "EvalResult"]

#: How the intervals are made (docs/simulation.md "Duplicate evaluation").
INTERVAL = "95% intervals over the deals: Agresti-Coull in [-1, 1] for W-L, Student-t for scores"


@dataclass(frozen=True, eq=False)
class EvalResult:
    """Result of :func:`evaluate` (duplicate evaluation of A against B).

    Rates are over all ``2 * n_deals`` games, from A's side. ``score_diff`` is A's per-seat
    score minus B's per-seat score in a game; the confidence intervals are 95% intervals over
    the ``n_deals`` per-deal values (the mean of the deal's two games): for the net win rate,
    bounded in [-1, 1], :func:`daguai.stats.bounded_mean_interval` (never outside the bounds,
    never a point); for the score difference, Student-t.
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
    results: tuple[SimResult, ...] = field(repr=False)
    start: str = "fresh"  # how each deal began: "fresh" or "random" (simulate's start)

    @property
    def games(self) -> int:
        return 2 * self.n_deals

    _FORMAT = "daguai-evaluate"

    def figures(self, per_deal: bool = True) -> dict[str, Any]:
        """Every field as plain JSON values (the per-deal values as lists, left out with
        ``per_deal=False``: ``daguai evaluate --json`` without ``--per-deal``); without the
        two ``SimResult`` objects."""
        out = {
            "format": self._FORMAT, "version": 1, "policy_a": self.policy_a,
            "policy_b": self.policy_b, "n_deals": self.n_deals, "games": self.games,
            "seed": self.seed, "matches": self.matches, "start": self.start,
            "rules": self.rules.to_dict(),
            "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "win_rate": self.win_rate, "draw_rate": self.draw_rate, "loss_rate": self.loss_rate,
            "net_win_rate": self.net_win_rate, "net_win_ci": list(self.net_win_ci),
            "mean_score_diff": self.mean_score_diff, "score_diff_ci": list(self.score_diff_ci),
            "interval": INTERVAL, "elapsed": self.elapsed,
        }
        if per_deal:
            out["deal_net_win"] = self.deal_net_win.tolist()
            out["deal_score_diff"] = self.deal_score_diff.tolist()
        return out

    def to_json(self) -> str:
        """:meth:`figures` as JSON text (NaN, for a single deal's interval, as ``null``)."""
        return documents.evaluation_to_json(self.figures())

    def to_pandas(self) -> Any:
        """One row per deal: ``deal`` (its game index), ``net_win``, ``score_diff``. Needs
        pandas (the ``pandas`` extra)."""
        from ..errors import require

        require("EvalResult.to_pandas", "pandas", "pandas")
        import pandas as pd

        return pd.DataFrame({"deal": np.arange(self.n_deals, dtype=np.int64),
                             "net_win": self.deal_net_win, "score_diff": self.deal_score_diff})

    def save(self, path: str | os.PathLike) -> None:
        """Write by extension: ``.json`` (every figure; read back with :meth:`load`) or
        ``.csv`` (one row per deal, :meth:`to_pandas`)."""
        ext = os.path.splitext(os.fspath(path))[1].lower()
        if ext == ".json":
            with open(path, "w", encoding="utf-8") as f:
                f.write(self.to_json() + "\n")
        elif ext == ".csv":
            self.to_pandas().to_csv(path, index=False)
        else:
            raise ValueError(f"unknown output format {ext or os.fspath(path)!r} (use .json or .csv)")

    @classmethod
    def load(cls, path: str | os.PathLike) -> EvalResult:
        """Read back a ``.json`` file written by :meth:`save` (``results`` is then empty:
        the two runs' columns are not saved; re-run them from ``seed``)."""
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
        if not isinstance(d, dict) or d.get("format") != cls._FORMAT:
            raise ValueError(f"{os.fspath(path)}: not a daguai evaluate file")
        nan = float("nan")
        pair = lambda v: (nan if v[0] is None else float(v[0]), nan if v[1] is None else float(v[1]))  # noqa: E731
        return cls(
            policy_a=d["policy_a"], policy_b=d["policy_b"], n_deals=int(d["n_deals"]),
            seed=int(d["seed"]), matches=bool(d["matches"]), rules=Rules.from_dict(d["rules"]),
            wins=int(d["wins"]), draws=int(d["draws"]), losses=int(d["losses"]),
            win_rate=float(d["win_rate"]), draw_rate=float(d["draw_rate"]),
            loss_rate=float(d["loss_rate"]), net_win_rate=float(d["net_win_rate"]),
            net_win_ci=pair(d["net_win_ci"]), mean_score_diff=float(d["mean_score_diff"]),
            score_diff_ci=pair(d["score_diff_ci"]), elapsed=float(d["elapsed"]),
            deal_net_win=np.asarray(d["deal_net_win"], dtype=np.float64),
            deal_score_diff=np.asarray(d["deal_score_diff"], dtype=np.float64), results=(),
            start=str(d.get("start", "fresh")))

    def renderables(self) -> list[Any]:
        """The summary as ``rich`` renderables (what ``daguai evaluate`` prints)."""
        from rich import box
        from rich.table import Table

        unit = "matches" if self.matches else "rounds"
        rules = "default rules" if self.rules == Rules() else repr(self.rules)
        g = self.games
        lo, hi = self.net_win_ci
        slo, shi = self.score_diff_ci
        counts = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        counts.add_column(unit)
        counts.add_column("count", justify="right")
        counts.add_column("share", justify="right")
        for label, k in (("A wins", self.wins), ("draws", self.draws), ("A losses", self.losses)):
            counts.add_row(label, f"{k:,}", _pct(k, g))
        est = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        est.add_column("estimate", overflow="fold")
        est.add_column("value", justify="right")
        est.add_column("95% CI", justify="right")
        est.add_row("A win rate - loss rate", f"{self.net_win_rate:+.4f}", f"[{lo:+.4f}, {hi:+.4f}]")
        est.add_row("mean score difference (A per seat - B per seat, per game)",
                    f"{self.mean_score_diff:+.4f}", f"[{slo:+.4f}, {shi:+.4f}]")
        return [
            f"daguai evaluate: {self.policy_a} (A) vs {self.policy_b} (B), {self.n_deals:,} deals x 2 "
            f"seatings = {g:,} {unit}, seed {self.seed}, {rules}"
            + ("" if self.start == "fresh" else f", {self.start} starts"),
            counts, est,
            f"({INTERVAL}; a deal's value is the mean of its two seatings)",
            f"time: {self.elapsed:.2f} s",
        ]

    def summary(self, width: int | None = None) -> str:
        """The summary as text, ``width`` columns (default: the terminal's, else 80)."""
        return render_text(self.renderables(), width)


def evaluate(policy_a: PolicyLike, policy_b: PolicyLike, n_deals: int = 1000, *, seed: int = 0,
             rules: Rules | None = None, matches: bool = False, threads: int | None = None,
             backend: str = "local", ray_address: str | None = None, progress: ProgressLike = None,
             auto_pass: bool = False, ray_timeout: float = RAY_TIMEOUT,
             model_rules: str = "same", start: str = "fresh") -> EvalResult:
    """Duplicate evaluation of ``policy_a`` against ``policy_b``.

    Deal ``i`` (game index ``i`` of ``seed``) is played twice: A on the even seats and B on
    the odd seats, then B on the even seats and A on the odd seats. Deals depend only on
    ``(seed, i)``, so both seatings get the same cards (and the same first dealer), which
    cancels most of the luck of the deal. See :class:`EvalResult` for the figures. A ``.dgn``
    model trained for other rules than ``rules`` is refused unless ``model_rules="any"``
    (as in :func:`daguai.simulate`). ``start="random"``: each deal begins at the start state
    of ``(seed, i)`` (random levels, and the tribute exchange in 60% of deals, played by the
    policies; :func:`daguai.simulate`), the same state in both seatings.
    """
    pa, pb = check_policy(policy_a), check_policy(policy_b)
    n_deals = check_int(n_deals, "n_deals", 1, 2**32 - 1)
    report = progress_callback(progress, "matches" if matches else "rounds")
    kw: dict[str, Any] = dict(seed=seed, rules=rules, matches=matches, threads=threads,
                              backend=backend, ray_address=ray_address, auto_pass=auto_pass,
                              ray_timeout=ray_timeout, model_rules=model_rules, start=start)
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
    net, nlo, nhi = bounded_mean_interval(deal_net)  # a rate in [-1, 1]
    sd, slo, shi = _ci(deal_diff)
    g = 2 * n_deals
    return EvalResult(
        policy_a=policy_name(pa), policy_b=policy_name(pb), n_deals=n_deals, seed=first.seed,
        matches=bool(matches), rules=first.rules, wins=wins, draws=draws, losses=losses,
        win_rate=wins / g, draw_rate=draws / g, loss_rate=losses / g,
        net_win_rate=net, net_win_ci=(nlo, nhi), mean_score_diff=sd, score_diff_ci=(slo, shi),
        elapsed=elapsed, deal_net_win=deal_net, deal_score_diff=deal_diff, results=(first, second),
        start=first.start)
