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
