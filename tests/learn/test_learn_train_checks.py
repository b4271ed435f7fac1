"""`daguai train` checks its paths and numbers before it imports PyTorch (exit 2, one line,
in well under the 2-12 s torch takes), reports progress when stderr is not a terminal,
evaluates short runs often enough to draw a curve, leaves no actor file behind, and titles
its curve with the run's name."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from daguai.learn.config import check_minutes, check_run_dir
from daguai.learn.trainer import eval_due


def _cli(*args: str, cwd=None) -> tuple[subprocess.CompletedProcess[str], float]:
    t = time.monotonic()
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "daguai", "train", *args],
                       capture_output=True, text=True, timeout=120, cwd=cwd)
    return p, time.monotonic() - t


def _bad(tmp_path):
    (tmp_path / "f").write_text("x")
    (tmp_path / "d.dgn").mkdir()
    (tmp_path / "d.png").mkdir()
    run = str(tmp_path / "r")
    return [
        ([str(tmp_path / "f")], "is a file"),
        ([str(tmp_path / "f" / "x")], "is a file"),
        (["/proc/daguai-run"], "cannot write"),
        ([""], "RUN must name a folder"),
        ([run, "--export", str(tmp_path / "d.dgn")], "is a folder"),
        ([run, "--export", str(tmp_path / "nope" / "x.dgn")], "does not exist"),
        ([run, "--plot", str(tmp_path / "d.png")], "is a folder"),
        ([run, "--checkpoint-minutes", "nan"], "checkpoint-minutes"),
        ([run, "--checkpoint-minutes", "-1"], "checkpoint-minutes"),
        ([run, "--minutes", "inf"], "minutes"),
        ([run, "--lr", "5"], "lr"),
        ([run, "--ray", "256.1.1.1:1", "--minutes", "0.05"], "cannot reach the Ray cluster"),
    ]


def test_bad_paths_and_numbers_exit_2_before_torch(tmp_path):
    for args, message in _bad(tmp_path):
        p, seconds = _cli(*args, cwd=tmp_path)
        lines = [ln for ln in p.stderr.splitlines() if not ln.startswith("import time:")]
        assert p.returncode == 2, (args, p.stderr[-500:])
        assert len(lines) == 1 and message in lines[0], (args, lines)
        # -X importtime lists every module imported: torch never was
        assert not any(ln.split("|")[-1].strip() == "torch" for ln in p.stderr.splitlines()), args
        assert seconds < 10, (args, seconds)
    assert not list(tmp_path.glob("**/*.tmp")) and not (tmp_path / "r" / "checkpoint.pt").exists()


def test_python_checks():
    for bad in (float("nan"), -1, 0, float("inf"), True, "5"):
        with pytest.raises(ValueError):
            check_minutes("checkpoint_minutes", bad)
    with pytest.raises(ValueError, match="RUN must name a folder"):
        check_run_dir("")


def test_evaluations_are_spaced_for_short_runs():
    steps = [s for s in range(1, 301) if eval_due(s, 100)]
    assert steps == [1, 2, 4, 8, 16, 32, 64, 100, 200, 300]
    assert [s for s in range(1, 21) if eval_due(s, 5)] == [1, 2, 4, 5, 10, 15, 20]
    assert not any(eval_due(s, 0) for s in range(1, 50))


@pytest.mark.slow  # a whole process, server or match (seconds): CI runs it
def test_progress_lines_without_a_terminal_and_no_actor_file_left(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("tensorboard")
    import tempfile
    from pathlib import Path

    before = set(Path(tempfile.gettempdir()).glob("daguai-actor-*.dgn"))
    p = subprocess.run([sys.executable, "-m", "daguai", "train", str(tmp_path / "r"), "--minutes", "5",
                        "--max-frames", "600", "--games-per-task", "2", "--widths", "16",
                        "--warm-frames", "0", "--eval-every", "3", "--eval-deals", "2"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    lines = [ln for ln in p.stderr.splitlines() if ln.startswith("daguai train")]
    assert lines and "frames/s" in lines[0] and "eval vs heuristic" in lines[0], p.stderr
    after = set(Path(tempfile.gettempdir()).glob("daguai-actor-*.dgn"))
    assert after <= before, after - before
    pytest.importorskip("matplotlib")
    from daguai.learn import curve

    titles = []
    import matplotlib.axes

    real = matplotlib.axes.Axes.set_title

    def spy(self, label, *a, **k):  # type: ignore[no-untyped-def]
        titles.append(label)
        return real(self, label, *a, **k)

    matplotlib.axes.Axes.set_title = spy  # type: ignore[method-assign]
    try:
        curve.plot_curve(tmp_path / "r", tmp_path / "c.png")
    finally:
        matplotlib.axes.Axes.set_title = real  # type: ignore[method-assign]
    assert titles and "run run" not in titles[0] and str(tmp_path / "r") in titles[0]
