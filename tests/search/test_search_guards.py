"""The search's edges: every case the search's fuzzing found, as a test.

Thread counts are capped (a documented maximum, a ValueError above it, never an abort);
budgets, worlds and hands are bounded; every seed in 0 .. 2**64 - 1 is accepted by every
entry point (R17: the project's generator takes 64-bit seeds), and the CLI answers bad input
with exit status 2 and one line (docs/errors.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time

import daguai
import pytest
from daguai import Game, Rules, _core, bench
from daguai.search import MAX_ROLLOUTS, MAX_THREADS, MAX_WORLDS, analyze
from game_helpers import mid_game


def test_threads_above_the_cap_are_a_value_error_not_an_abort():
    """Found: analyze(g, rollouts=2, threads=40000) aborted the process (SIGABRT)."""
    g = mid_game()
    for threads in (40000, MAX_THREADS + 1, 0, -1):
        with pytest.raises(ValueError, match=rf"threads must be an integer in \[1, {MAX_THREADS}\]"):
            analyze(g, rollouts=2, threads=threads)
        with pytest.raises(ValueError, match=rf"threads must be in \[1, {MAX_THREADS}\]"):
            _core.catalog._search(g, 2, 0.0, threads, "heuristic", 1)
    assert analyze(g, rollouts=40, threads=MAX_THREADS) == analyze(g, rollouts=40, threads=1)


def test_a_thread_that_cannot_start_is_an_error_not_an_abort(tmp_path):
    """Found: threads=1000 under a 3 GiB limit aborted (a failed thread start left joinable
    threads). Under a 600 MiB address-space limit, 256 threads (8 MiB stacks) cannot all
    start: the search must end with a clean error (or succeed), never SIGABRT."""
    script = tmp_path / "limit.py"
    script.write_text(textwrap.dedent("""
        import random, resource
        from daguai import Game
        from daguai.search import analyze
        from game_helpers import mid_game, random_steps
        g = random_steps(Game(5), random.Random(5), 60)
        resource.setrlimit(resource.RLIMIT_AS, (600 << 20, 600 << 20))
        try:
            analyze(g, rollouts=4000, threads=256)
            print("ran")
        except (ValueError, MemoryError) as exc:
            print("error:", exc)
    """))
    # the child imports game_helpers from pytest's pythonpath (pyproject.toml), as this module does
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600,
                       check=False, env=env)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.startswith(("ran", "error:")), p.stdout
    if p.stdout.startswith("error:"):
        assert "fewer threads" in p.stdout or "memory" in p.stdout.lower()


def test_budgets_are_bounded():
    """Found: analyze(g, rollouts=10**9) ran without bound (3.3 GB RSS after 60 s)."""
    g = mid_game()
    for bad in (10**9, MAX_ROLLOUTS + 1, 2**31, 2**64, 0, -5):
        with pytest.raises(ValueError, match=rf"rollouts must be an integer in \[1, {MAX_ROLLOUTS}\]"):
            analyze(g, rollouts=bad)
    for bad in (0, -1.0, float("nan"), float("inf"), 3601, True, "5"):
        with pytest.raises(ValueError, match="time must be a number of seconds"):
            analyze(g, time=bad)
    with pytest.raises(TypeError, match="worlds"):
        analyze(g, worlds=64)  # the budget is rollouts=: the old name is gone
    with pytest.raises(ValueError, match="budget"):
        _core.catalog._search(g, 0, 0.0, 1, "heuristic", 1)
    with pytest.raises(ValueError, match="budget"):
        _core.catalog._search(g, 10, -1.0, 1, "heuristic", 1)


@pytest.mark.parametrize("seed", [0, 1, 2**31, 1.84e13, 2**62, 2**63, 2**64 - 1])
def test_every_seed_in_range_is_accepted_everywhere(seed):
    """Found: analyze(g, seed=2**62) and any seed from about 1.84e13 gave a pybind11 dump
    (seed * 1_000_003 overflowed); sample_worlds(view, 2**31) likewise. R17: 64-bit seeds."""
    seed = int(seed)
    g = mid_game()
    a = analyze(g, rollouts=30, seed=seed)
    assert a.seed == seed and a.rollouts >= 30
    assert analyze(g, rollouts=30, seed=seed, threads=2) == a
    w = daguai.sample_worlds(g.view(g.current_player), 2, seed=seed)
    assert len(w) == 2
    assert _core.catalog._search(g, 20, 0.0, 1, "heuristic", seed)[4] >= 20


def test_seeds_and_world_counts_out_of_range():
    g = mid_game()
    view = g.view(g.current_player)
    for seed in (-1, 2**64, 2**70):
        with pytest.raises(ValueError, match=r"seed must be an integer in \[0, 18446744073709551615\]"):
            analyze(g, rollouts=4, seed=seed)
        with pytest.raises(ValueError, match="seed must be an integer"):
            daguai.sample_worlds(view, 2, seed=seed)
    for n in (2**31, MAX_WORLDS + 1, 0, -1):
        with pytest.raises(ValueError, match=rf"n must be an integer in \[1, {MAX_WORLDS}\]"):
            daguai.sample_worlds(view, n)


def test_declare_random_rollouts_are_bounded_by_time():
    """Found: under wild="declare", analyze(rollouts=3, policy="random") on a 764-action lead
    took 47 s. A --time budget bounds it: the race stops at the deadline (a first round that
    did not finish is reported as such)."""
    g = Game(3, rules=Rules(wild="declare"))
    assert len(g.legal_actions()) > 764
    t0 = time.perf_counter()
    a = analyze(g, time=1.0, policy="random")
    assert time.perf_counter() - t0 < 10.0  # 1 s plus the rollouts in flight and grouping
    assert a.groups[0].best and a.groups[0].rollouts >= 1
    if a.rounds == 0:
        assert "time ran out" in str(a)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "daguai", *args], capture_output=True, text=True,
                          timeout=300, check=False)


def one_line_error(p):
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert len(p.stderr.strip().splitlines()) == 1 and p.stderr.startswith("daguai: error:"), p.stderr
    return p.stderr


def test_cli_bounds(tmp_path):
    """Found: daguai analyze --rollouts 2**31, bench --hands >= 2**31, threads above the cap."""
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(mid_game().position()))
    assert "rollouts must be" in one_line_error(run_cli("analyze", str(path), "--rollouts", "2147483648"))
    assert "threads must be" in one_line_error(run_cli("analyze", str(path), "--threads", "40000"))
    one_line_error(run_cli("analyze", str(path), "--time", "0"))
    one_line_error(run_cli("analyze", str(path), "--seed", str(2**64)))
    assert "--hands" in one_line_error(run_cli("bench", "--hands", "2147483648"))
    with pytest.raises(ValueError, match="hands must be"):
        bench.run(hands=2**31)
    ok = run_cli("analyze", str(path), "--rollouts", "30", "--seed", str(2**64 - 1), "--json")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["seed"] == 2**64 - 1


@pytest.mark.parametrize("entry", ["Game", "simulate", "simulate_worlds", "evaluate", "Rng", "BatchEnv",
                                   "PolicyRunner", "fill_hidden_hands"])
def test_the_largest_seed_everywhere(entry):
    """R17: every entry point that takes a seed accepts 2**64 - 1 (and none takes 2**64)."""
    seed = 2**64 - 1
    pos = mid_game(steps=30).position()
    partial = {**pos, "hands": [h if s == pos["to_act"] else None for s, h in enumerate(pos["hands"])]}
    calls = {
        "Game": lambda s: Game(s),
        "simulate": lambda s: daguai.simulate(2, ("heuristic", "random"), seed=s),
        "simulate_worlds": lambda s: daguai.simulate(2, ("heuristic",), seed=s, position=pos, worlds=True),
        "evaluate": lambda s: daguai.evaluate("heuristic", "random", 2, seed=s),
        "Rng": lambda s: daguai.Rng(s),
        "BatchEnv": lambda s: daguai.learn.BatchEnv(1, seed=s),
        "PolicyRunner": lambda s: _core.run.PolicyRunner("pimc24", s, 0, 0),
        "fill_hidden_hands": lambda s: daguai.positions.fill_hidden_hands(partial, seed=s),
    }
    calls[entry](seed)
    with pytest.raises((ValueError, TypeError, OverflowError)):
        calls[entry](2**64)
