"""``daguai ladder`` through subprocess: the table, JSON, the cache across runs, the plot, and
bad arguments (exit 2, one line)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import daguai
import pytest

PKG_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(daguai.__file__)))


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="80")
    env["PYTHONPATH"] = os.pathsep.join([PKG_PARENT] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return subprocess.run([sys.executable, "-m", "daguai", "ladder", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300, stdin=subprocess.DEVNULL)


@pytest.mark.slow  # a whole process, server or match (seconds): CI runs it
def test_ladder_prints_ratings_pairs_and_cross_play_within_80_columns(tmp_path):
    p = run("random", "greedy", "heuristic", "--deals", "3", "--threads", "1", "--cache",
            str(tmp_path / "c.sqlite"), "--plot", str(tmp_path / "l.png"))
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "daguai ladder: 3 players" in out and "Elo" in out and "cross-play" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    for name in ("random", "greedy", "heuristic"):
        assert name in out
    assert "random vs greedy: 3 deals" in p.stderr  # what it played
    assert (tmp_path / "l.png").stat().st_size > 1000
    # the same ladder again plays nothing: every pair comes from the cache
    again = run("random", "greedy", "heuristic", "--deals", "3", "--threads", "1", "--cache",
                str(tmp_path / "c.sqlite"), "--json")
    assert again.returncode == 0, again.stderr
    assert " vs " not in again.stderr and "cross-play:" not in again.stderr
    doc = json.loads(again.stdout)
    assert doc["format"] == "daguai-ladder" and doc["anchor"] == "heuristic"
    assert all(pair["cached"] for pair in doc["pairings"])
    assert {r["name"] for r in doc["ratings"]} == {"random", "greedy", "heuristic"}


@pytest.mark.parametrize(("args", "message"), [
    (["heuristic", "--deals", "2", "--no-cache"], "at least two"),
    (["heuristic", "nobody", "--no-cache"], "unknown policy"),
    (["heuristic", "random", "--deals", "0", "--no-cache"], "--deals"),
    (["heuristic", "random", "--cache", "x.sqlite", "--no-cache"], "exclude each other"),
    (["heuristic", "random", "--no-cache", "--plot", "ratings.xyz"], "xyz"),
])
def test_bad_ladder_arguments_exit_2_with_one_line(args, message, tmp_path):
    p = run(*args, cwd=tmp_path)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert message in p.stderr
    assert len(p.stderr.strip().splitlines()) <= 2  # argparse: usage line + the error line


def run_module(code: str, *args: str, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="80")
    env["PYTHONPATH"] = os.pathsep.join([PKG_PARENT] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=300, stdin=subprocess.DEVNULL)


@pytest.mark.slow
def test_without_statsmodels_the_ladder_fails_before_playing_any_pair(tmp_path):
    """The extra is named in one line, exit 2, and nothing was played or cached."""
    code = ("import sys; sys.modules['statsmodels'] = None\n"
            "from daguai.cli import main; raise SystemExit(main(sys.argv[1:]))")
    db = tmp_path / "c.sqlite"
    p = run_module(code, "ladder", "random", "greedy", "--deals", "2", "--cache", str(db), cwd=tmp_path)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert p.stderr.strip().splitlines() == [p.stderr.strip()]
    assert "pip install 'daguai[ladder]'" in p.stderr and " vs " not in p.stderr
    assert not db.exists()
    # from Python as well: MissingExtraError before any pairing
    code = ("import sys; sys.modules['statsmodels'] = None\n"
            "from daguai.errors import MissingExtraError\n"
            "import daguai.run.ladder as L\n"
            "L.evaluate = lambda *a, **k: sys.exit('played')\n"
            "try:\n    L.ladder(['random', 'greedy'], 2, cache=False)\n"
            "except MissingExtraError as e:\n    print(e.extra)\n")
    p = run_module(code, cwd=tmp_path)
    assert p.returncode == 0 and p.stdout.strip() == "ladder", p.stderr


@pytest.mark.slow
def test_the_ladder_and_the_gate_draw_a_progress_bar_unless_told_not_to(tmp_path):
    db = str(tmp_path / "c.sqlite")
    p = run("random", "greedy", "--deals", "2", "--threads", "1", "--cache", db, "--progress")
    assert p.returncode == 0, p.stderr
    assert "3/3 pairs" in p.stderr and "left" in p.stderr  # one pair, two cross-play rows
    assert "random vs greedy: 2 deals" in p.stderr
    p = run("random", "greedy", "--deals", "2", "--threads", "1", "--cache", db, "--no-progress")
    assert p.returncode == 0 and "pairs" not in p.stderr, p.stderr
    code = "import sys; from daguai.cli import main; raise SystemExit(main(sys.argv[1:]))"
    p = run_module(code, "gate", "heuristic", "random", "--deals", "20", "--threads", "1", "--progress")
    assert p.returncode == 0, p.stderr
    assert "40/40 rounds" in p.stderr and "promoted" in p.stdout
    p = run_module(code, "gate", "heuristic", "random", "--deals", "20", "--threads", "1", "--no-progress")
    assert p.returncode == 0 and p.stderr == "", p.stderr
