"""The package's interval arithmetic, written once: Student-t quantiles (scipy when
installed, else exact finite sums), the 95% interval of a mean, of a mean bounded in
``[lo, hi]`` (a net win rate) and of a share (Wilson). The search (:mod:`daguai.search`),
the hints of the server, :func:`daguai.simulate`'s figures, the duplicate evaluation and the
ladder all use these (docs/simulation.md "Duplicate evaluation" and "Uncertainty")."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["Z95", "bounded_mean_interval", "mean_interval", "t_quantile", "wilson_interval"]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def _t_two_sided(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with integer ``df`` >= 1, by the finite sums of
    Abramowitz & Stegun 26.7.3 (odd df) and 26.7.4 (even df), theta = atan(t / sqrt(df))."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2 == 1:
        if df == 1:
            return 2.0 * theta / math.pi
        term = total = math.cos(theta)
        for k in range(1, (df - 3) // 2 + 1):  # ratio (2k)/(2k+1) times cos^2
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        return 2.0 / math.pi * (theta + math.sin(theta) * total)
    term = total = 1.0
    for k in range(1, (df - 2) // 2 + 1):  # ratio (2k-1)/(2k) times cos^2
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return math.sin(theta) * total


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (0.5 <= p < 1) of Student's t with ``df`` degrees of freedom.

    Uses ``scipy.stats.t.ppf`` when scipy is installed; otherwise bisection on the exact
    finite-sum distribution function (df <= 2000) or the Cornish-Fisher expansion around
    the normal quantile (larger df, error far below 1e-9). Tested against scipy.
    """
    if not 0.5 <= p < 1.0 or df < 1:
        raise ValueError(f"t_quantile needs 0.5 <= p < 1 and df >= 1, got p={p}, df={df}")
    try:
        from scipy.stats import t as student_t
    except ImportError:
        return _t_quantile_own(p, df)
    return float(student_t.ppf(p, df))


def _t_quantile_own(p: float, df: int) -> float:
    from statistics import NormalDist

    if p == 0.5:
        return 0.0
    if df > 2000:
        z = NormalDist().inv_cdf(p)
        g1 = (z**3 + z) / 4
        g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
        g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
        return z + g1 / df + g2 / df**2 + g3 / df**3
    target = 2.0 * p - 1.0  # P(|T| <= q)
    lo, hi = 0.0, 1.0
    while _t_two_sided(hi, df) < target:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if _t_two_sided(mid, df) < target:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share ``k / n`` (95% for the default ``z``).

    Chosen over the normal ("Wald") interval because win shares here are often near 0 or 1
    (heuristic against random wins 98% of rounds), where Wald's interval collapses to a
    point or leaves [0, 1]; Wilson's stays inside and keeps its coverage. With no trials
    (``n = 0``) every share is possible: ``(0.0, 1.0)``, the whole range (never NaN, so a
    hint's JSON stays valid)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # exact ends at k = 0 and k = n (the formula gives them up to rounding)
    return (0.0 if k == 0 else max(0.0, centre - half)), (1.0 if k == n else min(1.0, centre + half))


def mean_interval(values: np.ndarray) -> tuple[float, float]:
    """A 95% Student-t interval for the mean of independent ``values`` (the games of a
    simulation are independent: each has its own seeded deal); ``(nan, nan)`` below 2."""
    _, lo, hi = _ci(np.asarray(values, dtype=np.float64))
    return lo, hi


def bounded_mean_interval(values: np.ndarray, lo: float = -1.0, hi: float = 1.0,
                          z: float = Z95) -> tuple[float, float, float]:
    """Mean and 95% interval of independent ``values`` that lie in ``[lo, hi]`` (a net win
    rate: wins minus losses per round, in [-1, 1]); ``(mean, nan, nan)`` below 2 values.

    The plain Student-t interval can leave the bounds (20 deals at -0.975 on average gave
    [-1.027, -0.923]), is a point when every value is the same (4 deals all lost gave
    [-1, -1], which looks certain), and near a bound covers the true mean far less often
    than 95% (a third of the time at 4 deals). This is the Agresti-Coull interval carried
    over from shares to bounded means: ``z**2 / 2`` pseudo-values at each bound join the
    sample, the normal interval is taken around the adjusted mean with the adjusted spread,
    and the result is clipped to ``[lo, hi]`` (and made to hold the sample mean). For 0/1
    values it is exactly Agresti and Coull's "add two successes and two failures" interval;
    with many values it approaches the Student-t interval (the pseudo-values weigh about
    3.84 / n), and near a bound it is wider and pulled toward the middle. Its coverage is at
    least about 95% from 4 values up (``tests/run/test_run_intervals.py``). Four deals all
    lost give [-1, +0.09]: four deals do not show that a player never wins."""
    x = np.asarray(values, dtype=np.float64)
    n = len(x)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(x.mean())
    if n < 2:
        return mean, float("nan"), float("nan")
    w = z * z / 2  # pseudo-values at each bound
    m = n + 2 * w
    centre = (float(x.sum()) + w * (lo + hi)) / m
    ss = float(((x - centre) ** 2).sum()) + w * ((lo - centre) ** 2 + (hi - centre) ** 2)
    half = z * math.sqrt(ss / m / m)
    return mean, max(lo, min(mean, centre - half)), min(hi, max(mean, centre + half))


def _ci(values: np.ndarray) -> tuple[float, float, float]:
    """Mean and 95% Student-t interval mean ± t(0.975, n-1)·sd/√n (sd with n-1)."""
    n = len(values)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(values.mean())
    if n < 2:
        return mean, float("nan"), float("nan")
    half = t_quantile(0.975, n - 1) * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half
