"""`simulate` reports its uncertainty: 95% intervals of the win / draw / loss shares (Wilson)
and of the mean score per seat (Student-t) in figures() / --json, in the table, and as
error bars on --plot. The intervals are checked against plain-Python formulas and, for the
shares, against exact binomial coverage on small cases."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import daguai
import numpy as np
import pytest
from daguai import simulate
from daguai.run.results import mean_interval, wilson_interval
from daguai.stats import bounded_mean_interval


def wilson_reference(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The textbook formula (Wilson 1927), written out independently."""
    p = k / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)


@pytest.mark.parametrize("k,n", [(0, 1), (1, 1), (0, 20), (20, 20), (7, 20), (1971, 2000), (5, 10)])
def test_wilson_matches_the_formula(k, n):
    lo, hi = wilson_interval(k, n)
    rlo, rhi = wilson_reference(k, n)
    assert lo == pytest.approx(max(0.0, rlo), abs=1e-12) and hi == pytest.approx(min(1.0, rhi), abs=1e-12)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_wilson_covers_about_95_percent_exactly():
    """Exact coverage over the binomial distribution (no sampling): Wilson's 95% interval
    covers the true share in 93-97% of runs across p for n = 50 (Wald's falls to ~0 near 0)."""
    n = 50
    for p in (0.02, 0.1, 0.3, 0.5, 0.9):
        cover = sum(math.comb(n, k) * p**k * (1 - p) ** (n - k)
                    for k in range(n + 1) if wilson_interval(k, n)[0] <= p <= wilson_interval(k, n)[1])
        assert 0.91 <= cover <= 0.99, (p, cover)


def test_mean_interval_is_student_t():
    x = np.array([1.0, 2.0, 4.0, 7.0])
    lo, hi = mean_interval(x)
    half = 3.182446305284263 * x.std(ddof=1) / 2.0  # t(0.975, 3)
    assert (lo, hi) == pytest.approx((x.mean() - half, x.mean() + half))
    assert all(math.isnan(v) for v in mean_interval(np.array([3.0])))


def test_figures_and_json_have_intervals():
    r = simulate(200, ("heuristic", "random"), seed=5)
    f = r.figures()
    for t in f["teams"]:
        for share, key in (("win_rate", "win_ci"), ("draw_rate", "draw_ci"), ("loss_rate", "loss_ci")):
            lo, hi = t[key]
            assert 0 <= lo <= t[share] <= hi <= 1
            assert (lo, hi) == pytest.approx(wilson_interval(round(t[share] * 200), 200))
        slo, shi = t["score_per_seat_ci"]
        assert slo < t["score_per_seat"] < shi
        per_game = r["scores"][:, "AB".index(t["team"])::2].mean(axis=1)
        assert (slo, shi) == pytest.approx(mean_interval(per_game))
    json.dumps(f)  # JSON-ready
    text = r.summary(width=80)
    a = f["teams"][0]
    assert f"[{100 * a['win_ci'][0]:.1f}, {100 * a['win_ci'][1]:.1f}]" in text
    assert "95% interval" in text and "Wilson" in text


def test_cli_json_and_plot_have_intervals(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "p.png"
    p = subprocess.run([sys.executable, "-m", "daguai", "simulate", "--rounds", "100", "--json",
                        "--plot", str(png)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    teams = json.loads(p.stdout)["teams"]
    assert all(len(t["win_ci"]) == 2 and len(t["score_per_seat_ci"]) == 2 for t in teams)
    assert png.stat().st_size > 1000


def test_plot_draws_error_bars(tmp_path, monkeypatch):
    """The win bars carry the Wilson interval as error bars (matplotlib's yerr)."""
    pytest.importorskip("matplotlib")
    from matplotlib.axes import Axes

    seen = []
    real = Axes.bar

    def bar(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(kwargs.get("yerr"))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Axes, "bar", bar)
    r = simulate(100, ("heuristic", "random"), seed=5)
    r.plot(tmp_path / "p.png")
    bars = [np.asarray(y) for y in seen if y is not None]
    assert len(bars) == 1 and bars[0].shape == (2, 2)
    lo, hi = wilson_interval(int((r["winner"] == 0).sum()), 100)
    win = 100 * (r["winner"] == 0).mean()
    assert bars[0][:, 0] == pytest.approx([win - 100 * lo, 100 * hi - win])


def test_one_wilson_interval_with_one_answer_at_no_trials():
    """The search's groups, the server's hints and simulate's figures share one Wilson
    interval; with no trials every share is possible: the whole range [0, 1], never NaN
    (a hint's JSON must stay valid)."""
    import daguai.search
    import daguai.stats
    from daguai.search import Group

    assert wilson_interval is daguai.stats.wilson_interval
    assert not hasattr(daguai.search, "_wilson")
    assert wilson_interval(0, 0) == (0.0, 1.0)
    empty = Group(("pass",), 0, 0, 0, 0, 0.0, None, 0)
    assert empty.win_ci == (0.0, 1.0)
    played = Group(("pass",), 20, 7, 3, 10, 0.0, None, 1)
    assert played.win_ci == wilson_interval(7, 20)


@pytest.mark.parametrize("values", [[-1.0] * 4, [-1.0] * 20, [-1.0] * 19 + [-0.5], [0.0] * 4,
                                    [1.0] * 3 + [0.5], [-1.0, 1.0]])
def test_a_bounded_rate_never_gets_an_interval_outside_its_bounds_or_a_point(values):
    """Wins minus losses per round lies in [-1, 1]: its interval stays inside, holds the
    mean, and is never a point at a few deals (20 deals at -0.975 once printed
    [-1.0273, -0.9227], 4 lost deals [-1.000, -1.000])."""
    x = np.array(values)
    mean, lo, hi = bounded_mean_interval(x)
    assert mean == pytest.approx(x.mean())
    assert -1.0 <= lo <= mean <= hi <= 1.0
    assert hi - lo > 0.05
    if len(values) == 4 and values[0] == -1.0:
        assert hi > -0.2  # four lost deals do not show that a player never wins


def test_the_bounded_interval_is_agresti_coull_for_0_1_values():
    """On 0/1 values in [0, 1] it is the Agresti-Coull interval (z**2/2 pseudo-successes and
    pseudo-failures, normal quantile), clipped to [0, 1]."""
    z = 1.959963984540054
    for k, n in ((0, 5), (3, 10), (9, 10), (40, 100)):
        x = np.array([1.0] * k + [0.0] * (n - k))
        nt = n + z * z
        pt = (k + z * z / 2) / nt
        half = z * math.sqrt(pt * (1 - pt) / nt)
        _, lo, hi = bounded_mean_interval(x, 0.0, 1.0)
        assert lo == pytest.approx(min(k / n, max(0.0, pt - half)))
        assert hi == pytest.approx(max(k / n, min(1.0, pt + half)))


@pytest.mark.parametrize("probs", [(0.9, 0.05, 0.05, 0.0, 0.0), (0.97, 0.02, 0.01, 0.0, 0.0),
                                   (0.7, 0.1, 0.1, 0.05, 0.05), (0.1, 0.2, 0.4, 0.2, 0.1)])
@pytest.mark.parametrize("n", [4, 10, 20])
def test_the_bounded_interval_covers_the_true_rate_at_few_deals(probs, n):
    """Coverage by simulation (fixed seed): the per-deal net win takes the values -1, -1/2,
    0, 1/2, 1; near a bound the Student-t interval covered the true rate in as few as 12%
    of runs at 4 deals, this one in at least ~95%."""
    values = np.array([-1.0, -0.5, 0.0, 0.5, 1.0])
    p = np.array(probs)
    true = float(p @ values)
    rng = np.random.default_rng(7)
    runs = rng.choice(values, size=(1500, n), p=p)
    covered = sum(lo <= true <= hi for _, lo, hi in map(bounded_mean_interval, runs))
    assert covered / len(runs) >= 0.93, covered / len(runs)


def test_evaluate_prints_an_interval_inside_the_bounds():
    e = daguai.evaluate("random", "heuristic", 20, seed=0, threads=1)
    lo, hi = e.net_win_ci
    assert -1.0 <= lo <= e.net_win_rate <= hi <= 1.0 and hi - lo > 0.05
    assert "Agresti-Coull" in e.summary(80) and "Agresti-Coull" in e.figures()["interval"]
