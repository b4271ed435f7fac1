"""The interval arithmetic of the runners: Student-t quantiles (scipy when installed, else
exact finite sums) and the 95% interval of a mean, shared by simulate's figures and the
duplicate evaluation."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["t_quantile"]


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
