"""The promotion gate (docs/learning.md "Iterated training"): a duplicate evaluation of a
candidate against the incumbent, promoted when the 95% interval's lower end is above zero;
``daguai gate`` exits 0 promoted, 1 not promoted, 2 for bad arguments."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from daguai.learn.gate import gate

MODEL = str(Path(__file__).resolve().parents[2] / "python" / "daguai" / "models" / "learned.dgn")


def test_a_model_beats_a_weak_incumbent():
    r = gate(MODEL, "random", deals=100, seed=5, threads=1)
    assert r.promoted and r.net_win_ci[0] > 0 and r.net_win_rate > 0.5
    assert r.deals == 100 and r.seed == 5 and "promoted" in r.line()


def test_a_model_against_itself_is_not_promoted():
    r = gate(MODEL, MODEL, deals=50, seed=5, threads=1)
    assert not r.promoted
    # every deal a tie: the interval holds 0 with room either side (50 deals do not show
    # that two players are equal, only that neither is far ahead)
    lo, hi = r.net_win_ci
    assert r.net_win_rate == 0 and lo == -hi and 0 < hi < 0.1
    assert "not promoted" in r.line()


def test_a_tolerance_promotes_a_candidate_shown_no_worse():
    # the same model: every deal a tie, the interval about +-0.07 at 50 deals; non-inferiority
    # within 0.1 is shown, within 0.05 not yet (more deals would narrow it)
    r = gate(MODEL, MODEL, deals=50, seed=5, threads=1, tolerance=0.1)
    assert r.promoted and r.tolerance == 0.1 and "tolerance 0.1): promoted" in r.line()
    assert r.figures()["tolerance"] == 0.1
    assert not gate(MODEL, MODEL, deals=50, seed=5, threads=1, tolerance=0.05).promoted
    # a clearly worse candidate stays out whatever the tolerance
    assert not gate("random", MODEL, deals=50, seed=5, threads=1, tolerance=0.5).promoted


@pytest.mark.parametrize("tolerance", [-0.01, 1, 1.5, float("nan"), float("inf"), True, "0.1", None])
def test_a_bad_tolerance_is_a_value_error(tolerance):
    with pytest.raises(ValueError, match="tolerance must be a number in"):
        gate(MODEL, "random", deals=10, tolerance=tolerance)


def test_the_weak_side_is_not_promoted():
    assert not gate("random", MODEL, deals=50, seed=5, threads=1).promoted


def test_bad_arguments():
    for kw in (dict(deals=0), dict(seed=-1), dict(candidate=3)):
        args = dict(candidate=MODEL, incumbent="random", deals=10, seed=0) | kw
        with pytest.raises(ValueError):
            gate(**args)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        gate("/nonexistent/gen2.dgn", MODEL, deals=10)


def _gate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "daguai", "gate", *args], capture_output=True,
                          text=True, timeout=120)


def test_cli_exit_status():
    p = _gate(MODEL, "random", "--deals", "60", "--threads", "1", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["promoted"] is True
    p = _gate(MODEL, MODEL, "--deals", "30", "--threads", "1")
    assert p.returncode == 1 and "not promoted" in p.stdout
    p = _gate(MODEL, "nope")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    p = _gate(MODEL, MODEL, "--deals", "30", "--threads", "1", "--tolerance", "0.2", "--json")
    assert p.returncode == 0 and json.loads(p.stdout)["tolerance"] == 0.2, p.stderr
    for bad in ("-0.1", "1", "x", "nan"):
        p = _gate(MODEL, "random", "--tolerance", bad)
        assert p.returncode == 2 and "--tolerance" in p.stderr, p.stderr
        assert len(p.stderr.strip().splitlines()) == 1
