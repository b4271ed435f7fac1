"""The promotion gate of iterated training (docs/learning.md "Iterated training"): a new
generation replaces the incumbent only when a duplicate evaluation shows it better, i.e. the
lower end of the 95% interval of its net win rate against the incumbent is above zero; with a
``tolerance`` d (a change meant to play as well, not better: a faster pass, a new file format),
when that lower end is above -d (no worse than d, shown).

Needs no PyTorch: the evaluation is :func:`daguai.run.evaluate` (both models play in C++).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..checks import check_int, check_rules, check_seed
from ..progress import ProgressLike
from ..rules import Rules
from ..run.evaluation import INTERVAL

__all__ = ["GateResult", "gate"]


@dataclass(frozen=True)
class GateResult:
    """The gate's decision and the figures it rests on (the candidate's, as policy A)."""

    promoted: bool  # the interval's lower end > -tolerance
    candidate: str
    incumbent: str
    net_win_rate: float  # the candidate's wins minus losses per game, duplicate
    net_win_ci: tuple[float, float]  # 95%, in [-1, 1] (daguai.stats.bounded_mean_interval)
    mean_score_diff: float
    score_diff_ci: tuple[float, float]
    deals: int
    seed: int
    start: str = "fresh"  # how the deals began (daguai.run.evaluate's start)
    tolerance: float = 0.0  # how much worse than the incumbent a promoted candidate may be

    def figures(self) -> dict[str, Any]:
        """Every field as plain JSON values (NaN, for a single deal's interval, as None)."""
        def num(x: float) -> float | None:
            return None if math.isnan(x) else x

        return {"promoted": self.promoted, "candidate": self.candidate, "incumbent": self.incumbent,
                "net_win_rate": num(self.net_win_rate),
                "net_win_ci": [num(x) for x in self.net_win_ci],
                "mean_score_diff": num(self.mean_score_diff),
                "score_diff_ci": [num(x) for x in self.score_diff_ci],
                "deals": self.deals, "seed": self.seed, "start": self.start, "tolerance": self.tolerance,
                "interval": INTERVAL}

    def line(self) -> str:
        lo, hi = self.net_win_ci
        verdict = "promoted" if self.promoted else "not promoted"
        start = "" if self.start == "fresh" else f", {self.start} starts"
        tolerance = f", tolerance {self.tolerance:g}" if self.tolerance else ""
        return (f"{self.candidate} vs {self.incumbent}: net win {self.net_win_rate:+.4f} "
                f"[{lo:+.4f}, {hi:+.4f}] over {self.deals} deals x 2 seatings "
                f"(seed {self.seed}{start}{tolerance}): {verdict}")


def gate(candidate: str, incumbent: str, deals: int = 2000, seed: int = 0, rules: Rules | None = None,
         *, threads: int | None = None, model_rules: str = "same",
         progress: ProgressLike = None, start: str = "fresh", tolerance: float = 0.0) -> GateResult:
    """Duplicate evaluation of ``candidate`` against ``incumbent`` (policy names or ``.dgn``
    paths) on ``deals`` deals of ``seed``: promoted when the lower end of the 95% interval of
    the candidate's net win rate is above zero (a model against itself never is: every deal
    is a tie, the interval holds 0). ``progress``: as in :func:`daguai.run.evaluate` (True:
    a bar on stderr over the ``2 * deals`` rounds); ``start="random"``: deals begin at random
    start states (levels, tribute rounds: :func:`daguai.run.evaluate`). ``tolerance`` d in
    [0, 1): promoted when the lower end is above -d instead (non-inferiority: the candidate is
    shown no worse than d per round; a model against itself is, once the deals narrow the
    interval below d). The bad arguments
    :func:`daguai.run.evaluate` refuses raise its errors (``ValueError``; ``ModelError`` for a
    bad model file or a model trained for other rules)."""
    from ..run.evaluation import evaluate

    deals = check_int(deals, "deals", 1, 2**32 - 1)
    seed = check_seed(seed)
    if (isinstance(tolerance, bool) or not isinstance(tolerance, (int, float))
            or not 0 <= tolerance < 1):
        raise ValueError(f"tolerance must be a number in [0, 1), got {tolerance!r:.40}")
    rules = check_rules(rules)
    for name, p in (("candidate", candidate), ("incumbent", incumbent)):
        if not isinstance(p, str):
            raise ValueError(f"{name} must be a policy name or a .dgn path, got {type(p).__name__}")
    r = evaluate(candidate, incumbent, deals, seed=seed, rules=rules, threads=threads,
                 model_rules=model_rules, progress=progress, start=start)
    lo, hi = (float(x) for x in r.net_win_ci)
    return GateResult(promoted=bool(lo > -tolerance), candidate=candidate, incumbent=incumbent,
                      net_win_rate=float(r.net_win_rate), net_win_ci=(lo, hi),
                      mean_score_diff=float(r.mean_score_diff),
                      score_diff_ci=tuple(float(x) for x in r.score_diff_ci),  # type: ignore[arg-type]
                      deals=deals, seed=seed, start=start, tolerance=float(tolerance))
