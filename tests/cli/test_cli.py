"""The ``daguai`` command, run through subprocess (``python -m daguai``, the same entry point
as the console script ``daguai = daguai.cli:main``)."""

from __future__ import annotations

import csv
import os
import subprocess
import sys

import daguai
import numpy as np
import pytest
from daguai import SimResult, simulate

# the folder holding the daguai package that this test imported (source tree or installed)
PKG_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(daguai.__file__)))


def run(*args: str, cwd=None, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PKG_PARENT] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.pop("RAY_ADDRESS", None)
    return subprocess.run([sys.executable, "-m", "daguai", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("command", [[], ["simulate"], ["evaluate"], ["bench"]])
def test_help(command):
    p = run(*command, "--help")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("usage: daguai")
    assert p.stderr == ""
    if command == ["simulate"]:
        for opt in ("--rounds", "--matches", "--policy-a", "--policy-b", "--seed", "--threads",
                    "--rules", "--out", "--plot", "--ray", "--quiet"):
            assert opt in p.stdout
    if not command:
        for sub in ("simulate", "evaluate", "bench"):
            assert sub in p.stdout


def test_version():
    p = run("--version")
    assert p.returncode == 0 and p.stdout.strip() == f"daguai {daguai.__version__}"


def test_simulate_table():
    p = run("simulate", "--rounds", "200", "--quiet")
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    out = p.stdout
    for piece in ("200 rounds", "team", "heuristic", "random", "wins", "draws",
                  "finishing position", "per round", "rounds/s"):
        assert piece in out, piece


def test_simulate_matches_and_rules():
    p = run("simulate", "--matches", "3", "--policy-a", "greedy", "--policy-b", "Random",
            "--rules", "wild=high", "--rule", "max_rounds=4", "--seed", "5", "--threads", "1", "-q")
    assert p.returncode == 0, p.stderr
    assert "3 matches" in p.stdout and "match wins" in p.stdout and "Rules(" in p.stdout


def test_out_files_load_back(tmp_path):
    p = run("simulate", "--rounds", "120", "--seed", "3", "--policy-b", "greedy", "--quiet",
            "--out", "r.npz", "--out", "r.csv", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    expected = simulate(120, ("heuristic", "greedy"), seed=3)
    back = SimResult.from_npz(tmp_path / "r.npz")
    assert back == expected
    with np.load(tmp_path / "r.npz") as f:
        assert set(f.files) == set(expected) | {"_meta"}
    with open(tmp_path / "r.csv", newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], np.array(rows[1:], dtype=np.int64)
    assert len(body) == 120
    for name, a in expected.items():
        if a.ndim == 1:
            assert np.array_equal(body[:, header.index(name)], a), name
        else:
            for j in range(a.shape[1]):
                assert np.array_equal(body[:, header.index(f"{name}_{j}")], a[:, j]), name


def test_plot_and_parquet(tmp_path):
    pytest.importorskip("matplotlib")
    pytest.importorskip("pyarrow")
    p = run("simulate", "--rounds", "50", "--out", "r.parquet", "--plot", "r.png", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "wrote r.parquet" in p.stderr and "wrote r.png" in p.stderr
    assert (tmp_path / "r.png").stat().st_size > 1000 and (tmp_path / "r.parquet").stat().st_size > 0


def test_evaluate():
    p = run("evaluate", "heuristic", "random", "--deals", "40", "--seed", "2", "-q")
    assert p.returncode == 0, p.stderr
    assert "heuristic (A) vs random (B)" in p.stdout and "95% CI" in p.stdout


@pytest.mark.parametrize("args,needle", [
    (["simulate", "--policy-a", "foo"], "unknown policy 'foo'"),
    (["evaluate", "heuristic", "nope"], "unknown policy 'nope'"),
    (["simulate", "--rounds", "-5"], "--rounds"),
    (["simulate", "--rounds", "0"], "--rounds"),
    (["simulate", "--rounds", "many"], "not a whole number"),
    (["simulate", "--rules", "foo=1"], "unknown rule 'foo'"),
    (["simulate", "--rules", "wild=sideways"], "wild"),
    (["simulate", "--rules", "anti_tribute=maybe"], "anti_tribute"),
    (["simulate", "--rules", "base=two"], "base"),
    (["simulate", "--rules", "wild"], "KEY=VALUE"),
    (["simulate", "--rounds", "5", "--matches", "5"], "not allowed"),
    (["simulate", "--out", "results.txt"], "unknown format"),
    (["simulate", "--seed", "-1"], "--seed"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    ([], "no command"),
    (["evaluate", "heuristic"], "required"),
    (["simulate", "--bogus"], "unrecognized arguments"),
    (["analyze", "p.json", "--worlds", "64"], "unrecognized arguments: --worlds"),  # now --rollouts
])
def test_bad_arguments(args, needle):
    p = run(*args)
    assert p.returncode == 2
    assert p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith("daguai: error: ")
    assert needle in lines[0]


def test_bench_quick():
    p = run("bench", "--quick")
    assert p.returncode == 0, p.stderr
    for piece in ("classify", "legal leads", "rounds/s", "2 threads / 1 thread"):
        assert piece in p.stdout, piece


@pytest.mark.slow  # a whole process, server or match (seconds): CI runs it
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.ray
def test_simulate_ray(tmp_path):
    pytest.importorskip("ray")
    p = run("simulate", "--rounds", "100", "--seed", "8", "--ray", "--quiet", "--out", "r.npz",
            cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""  # Ray's start-up warnings are silenced by --quiet
    assert "Ray" in p.stdout
    assert SimResult.from_npz(tmp_path / "r.npz") == simulate(100, seed=8)


def test_train_options_default_to_the_trainers_settings():
    """Every setting ``daguai train`` passes to TrainConfig defaults to TrainConfig's own value
    (the CLI once said --epsilon 0.05 while the trainer used 0.02), and --help shows it. Needs
    no PyTorch: the settings live in daguai.learn.config."""
    import dataclasses

    from daguai.cli import build_parser
    from daguai.learn.config import TrainConfig

    args = build_parser().parse_args(["train", "RUN"])
    cfg = TrainConfig()
    cli_side = {f.name for f in dataclasses.fields(TrainConfig)} - {"rules", "eval_seed", "margin"}
    for name in sorted(cli_side):
        assert getattr(args, name) == getattr(cfg, name), name
    assert args.margin is None  # None: the run's margin on --export, TrainConfig.margin on a run
    assert args.epsilon == 0.02
    help_text = run("train", "--help").stdout
    assert f"exploration rate (default {cfg.epsilon:g})" in " ".join(help_text.split())
    assert f"(default {cfg.margin:g};" in " ".join(help_text.split())
