"""Issue 19's command-line papercuts, each as found: progress measured from the run itself
(on stderr, first report after one game per thread), ``--plot`` / ``--out`` checked before
the run (and ``--plot figure`` naming the file it writes), ``evaluate --json`` without
per-deal data unless asked, and a policy file path that loads from any folder."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import daguai
import pytest
from daguai import progress

ROOT = Path(__file__).resolve().parents[2]
PKG_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(daguai.__file__)))


def run(*args: str, cwd: object = None, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PKG_PARENT] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.pop("RAY_ADDRESS", None)
    return subprocess.run([sys.executable, "-m", "daguai", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=timeout, stdin=subprocess.DEVNULL)


# ---- progress ----------------------------------------------------------------------------
def test_the_first_progress_report_comes_after_one_game_per_thread():
    """Issue 19: built-in policies ran 32 games per thread before the first report (30 s
    with a search policy)."""
    seen: list[tuple[int, int]] = []
    daguai.simulate(300, ("heuristic", "random"), seed=3, threads=2,
                    progress=lambda d, n: seen.append((d, n)))
    assert seen[0][0] <= 2 and seen[-1] == (300, 300)


def test_the_bar_measures_elapsed_time_from_the_start_of_the_run(monkeypatch):
    """Issue 19: the first update read 0:00:00 after 30 s (the clock started at the first
    report). The bar's clock starts when it is made, and the remaining time is the run's own
    pace."""
    now = [100.0]
    monkeypatch.setattr(progress, "_clock", lambda: now[0])
    out = io.StringIO()
    bar = progress.ProgressBar("rounds", stream=out, width=120)
    now[0] = 175.0  # the first report, 75 s into the run
    bar(50, 100)
    now[0] = 250.0
    bar(100, 100)
    text = out.getvalue()
    assert "0:02:30 elapsed" in text and "100/100" in text


def test_a_bar_with_a_delay_stays_silent_for_a_short_run(monkeypatch):
    now = [0.0]
    monkeypatch.setattr(progress, "_clock", lambda: now[0])
    out = io.StringIO()
    bar = progress.ProgressBar("rounds", stream=out, delay=1.0)
    now[0] = 0.5
    bar(10, 10)
    assert out.getvalue() == ""
    late = progress.ProgressBar("rounds", stream=out, delay=1.0)
    now[0] = 2.0
    late(5, 10)
    late(10, 10)
    assert "10/10" in out.getvalue()


def test_progress_goes_to_stderr_never_stdout():
    p = run("simulate", "--rounds", "60", "--threads", "1", "--progress")
    assert p.returncode == 0, p.stderr
    assert "elapsed" in p.stderr and "elapsed" not in p.stdout


def test_the_cli_decides_from_the_terminal_not_from_a_speed_guess(monkeypatch):
    from daguai import cli
    from daguai.cli import options

    args = cli.build_parser().parse_args(["simulate"])
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert options.progress_delay(args) == options.PROGRESS_DELAY
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    assert options.progress_delay(args) is None
    assert options.progress_delay(cli.build_parser().parse_args(["simulate", "--progress"])) == 0.0
    assert not hasattr(cli, "_ROUNDS_PER_SECOND_GUESS")
    assert not hasattr(options, "_ROUNDS_PER_SECOND_GUESS")


# ---- outputs checked before the run --------------------------------------------------------
@pytest.mark.parametrize("args, words", [
    (["--plot", "x.bmp"], ["--plot x.bmp", "unknown figure format"]),
    (["--plot", "no/such/dir/x.png"], ["no such directory"]),
    (["--out", "x.xlsx"], ["--out x.xlsx", "unknown format"]),
    (["--out", "taken.npz"], ["cannot write taken.npz", "directory"]),
])
def test_bad_outputs_exit_2_before_the_run(tmp_path, args, words):
    """Issue 19: `--plot x.bmp` ran the whole simulation, then exited 2. 10**9 rounds
    would take hours: the refusal must come first."""
    (tmp_path / "taken.npz").mkdir()
    t0 = time.monotonic()
    p = run("simulate", "--rounds", "1000000000", *args, cwd=tmp_path, timeout=60)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and all(w in lines[0] for w in words), lines
    assert time.monotonic() - t0 < 60


def test_plot_without_extension_names_the_file_it_writes(tmp_path):
    """Issue 19: `--plot figure` said "wrote figure" but wrote figure.png."""
    pytest.importorskip("matplotlib")
    p = run("simulate", "--rounds", "40", "--threads", "1", "--plot", "figure", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "figure.png").is_file() and not (tmp_path / "figure").exists()
    assert "wrote figure.png" in p.stderr


# ---- evaluate --json -----------------------------------------------------------------------
def test_evaluate_json_prints_per_deal_data_only_on_request():
    """Issue 19: `evaluate --json` printed a thousand lines of per-deal values."""
    p = run("evaluate", "heuristic", "random", "--deals", "30", "--json", "--threads", "1")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert "deal_net_win" not in d and "deal_score_diff" not in d and d["n_deals"] == 30
    assert len(p.stdout.splitlines()) < 60
    full = json.loads(run("evaluate", "heuristic", "random", "--deals", "30", "--json", "--per-deal",
                          "--threads", "1").stdout)
    assert len(full["deal_net_win"]) == len(full["deal_score_diff"]) == 30
    assert {k: v for k, v in full.items() if not k.startswith("deal_") and k != "elapsed"} == \
        {k: v for k, v in d.items() if k != "elapsed"}


# ---- a policy from a file ------------------------------------------------------------------
def test_a_policy_file_path_loads_from_any_folder(tmp_path):
    """Issue 19: `examples.reinforce:policy` worked only from the repository root; a file
    path works anywhere (the dotted form is documented as needing the folder on sys.path)."""
    mine = tmp_path / "elsewhere" / "mybot.py"
    mine.parent.mkdir()
    mine.write_text("import daguai\n\ndef policy(game, seat):\n    return game.legal_actions()[0]\n",
                    encoding="utf-8")
    p = run("evaluate", f"{mine}:policy", "random", "--deals", "4", "--json", "--threads", "1",
            cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["policy_a"]
    bad = run("evaluate", f"{tmp_path / 'missing.py'}:policy", "random", cwd=tmp_path)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert daguai.bots.load(f"{mine}:policy") is daguai.bots.load(f"{mine}:policy")


def test_the_plot_legends_cover_no_bar(monkeypatch, tmp_path):
    """Issue 19: the legend covered the tops of bars (the win / draw / loss bars reach 100%)."""
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    figures: list[Figure] = []
    save = Figure.savefig
    monkeypatch.setattr(Figure, "savefig", lambda self, *a, **k: (figures.append(self), save(self, *a, **k)))
    daguai.simulate(60, ("heuristic", "random"), seed=2, threads=1).plot(tmp_path / "p.png")
    (fig,) = figures
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    checked = 0
    for ax in fig.axes:
        legend = ax.get_legend()
        assert legend is not None
        box = legend.get_window_extent(renderer)
        for bar in ax.patches:
            b = bar.get_window_extent(renderer)
            if b.width > 0 and b.height > 0:
                assert not box.overlaps(b), (ax.get_title(), bar)
                checked += 1
    assert checked > 6
