"""Iterated training's continuation pool (docs/learning.md "Iterated training"): the default
pool {heuristic} gives the self-play frames of before, a model in the pool changes the
targets and not the main line, the frames are a function of the seed (R17), and a bad pool is
refused before any work (one line, exit 2, no PyTorch for the command)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from daguai import Rules, _core
from daguai.learn.actors import Task, run_task
from daguai.learn.config import TrainConfig, check_continuation, config_from_json, config_json

MODELS = Path(__file__).resolve().parents[2] / "python" / "daguai" / "models"
MODEL = str(MODELS / "learned.dgn")
MODEL_4P = str(MODELS / "learned_4p2d.dgn")
KEYS = ("state", "action", "target", "score", "game", "seat")


def _play(continuation=None, seed=12345, first=3, n=4, policies=("heuristic",) * 6, record=(True,) * 6,
          epsilon=0.1):
    kw = {} if continuation is None else {"continuation": list(continuation)}
    return _core.run._self_play(Rules()._core, seed, first, n, list(policies), list(record), epsilon, 1.0,
                                **kw)


def _digest(f) -> str:
    h = hashlib.sha256()
    for k in KEYS:
        h.update(np.ascontiguousarray(f[k]).tobytes())
    return h.hexdigest()


def _same(a, b) -> bool:
    return all(np.array_equal(a[k], b[k]) for k in KEYS) and a["rounds"] == b["rounds"]


def test_default_pool_gives_the_frames_of_before():
    default, explicit = _play(), _play(["heuristic"])
    assert _same(default, explicit)
    # pinned from the generator before the pool existed (heuristic play-outs, seed 12345,
    # games 3..6, epsilon 0.1): a change of the default's draws changes these
    assert len(default["target"]) == 856 and default["rounds"] == 4
    assert default["target"][:8].tolist() == [1, 1, -1, -1, 1, 1, 1, 1]
    assert default["score"][:8].tolist() == [3, 3, -3, -3, 6, 1, 6, 3]
    assert float(default["target"].sum()) == -1.0 and float(default["score"].sum()) == 37.0
    assert _digest(default) == "a42599b49fbdde8fb5201184c824c19d8c8630219c2ca1c13d48d2dfe26df08b"


def test_default_pool_with_model_seats_is_unchanged():
    seats = dict(policies=("learned", "heuristic") * 3, record=(True, False) * 3, seed=999, first=0, n=2)
    assert _same(_play(**seats), _play(["heuristic"], **seats))


def test_a_model_continuation_changes_the_targets_not_the_main_line():
    h, m = _play(["heuristic"]), _play([MODEL])
    # the main line (states, actions, seats) is the same: only the play-outs differ
    for k in ("state", "action", "game", "seat"):
        assert np.array_equal(h[k], m[k]), k
    assert not np.array_equal(h["target"], m["target"])
    assert np.mean(h["score"] != m["score"]) > 0.1


def test_same_seed_same_frames_and_the_pool_draw_depends_on_the_seed():
    pool = [MODEL, "heuristic"]
    a, b = _play(pool), _play(pool)
    assert _same(a, b)
    # the mixed pool is neither pure pool
    assert not np.array_equal(a["target"], _play([MODEL])["target"])
    assert not np.array_equal(a["target"], _play(["heuristic"])["target"])
    # the order of the pool is part of the draw, the seed too
    assert _same(_play(pool, seed=7), _play(pool, seed=7))
    assert not _same(_play(pool, seed=7), a)


def test_a_game_s_frames_do_not_depend_on_the_batch():
    # R17: game k's frames are a function of (seed, k), whatever the games around it
    pool = [MODEL, "heuristic"]
    whole = _play(pool, first=3, n=4)
    part = _play(pool, first=5, n=2)
    sel = whole["game"] >= 5
    for k in KEYS:
        assert np.array_equal(whole[k][sel], part[k]), k


def test_run_task_passes_the_pool():
    t = Task(0, 0, 12345, 3, 4, ("heuristic",) * 6, (True,) * 6, 0.1, 1.0, Rules())
    assert _same(run_task(t, None), _play())
    assert _same(run_task(replace(t, continuation=(MODEL,)), None), _play([MODEL]))


@pytest.mark.slow
def test_an_actor_process_gives_the_frames_of_this_one():
    from daguai.learn.actors import LocalActors

    t = Task(0, 0, 12345, 3, 2, ("heuristic",) * 6, (True,) * 6, 0.1, 1.0, Rules(), (MODEL, "heuristic"))
    actors = LocalActors(1)
    try:
        actors.submit(t, None)
        (far,) = actors.collect(0, 1)
    finally:
        actors.close()
    assert _same(far, run_task(t, None))


def test_bad_pools_are_refused():
    for bad in ((), "heuristic", ("nope",), ("pimc",), ("expert",), (3,), ["heuristic"] * 65, ("a\0.dgn",)):
        with pytest.raises(ValueError, match="continuation"):
            TrainConfig(continuation=bad).check()  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no model file"):
        check_continuation(TrainConfig(continuation=("/nonexistent/gen1.dgn",)).check())
    with pytest.raises(_core.learned.ModelError, match="trained for"):
        check_continuation(TrainConfig(continuation=(MODEL_4P,)).check())
    check_continuation(TrainConfig(continuation=(MODEL_4P,), rules=Rules(table="4p2d")).check())
    # the engine refuses what the Python check would (a search, an empty pool)
    for bad in ([], ["pimc"], ["nope"]):
        with pytest.raises(ValueError):
            _play(bad)
    with pytest.raises(ValueError):
        _play(["/nonexistent/gen1.dgn"])


def test_the_pool_is_in_the_config_json():
    cfg = TrainConfig(continuation=(MODEL, "heuristic")).check()
    d = config_json(cfg)
    assert d["continuation"] == [MODEL, "heuristic"]
    assert config_from_json(d) == cfg
    old = {k: v for k, v in d.items() if k != "continuation"}  # a run made before the pool
    assert config_from_json(old).continuation == ("heuristic",)
    assert TrainConfig(continuation=[MODEL]).check().continuation == (MODEL,)  # type: ignore[arg-type]


def _cli(*args: str, cwd) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-X", "importtime", "-m", "daguai", "train", *args],
                          capture_output=True, text=True, timeout=120, cwd=cwd)


def test_cli_refuses_a_bad_pool_before_torch(tmp_path):
    run = str(tmp_path / "r")
    for pool, message in (("nope", "unknown policy"), ("pimc", "search policy"),
                          ("heuristic,", "comma-separated"), (str(tmp_path / "x.dgn"), "no model file"),
                          (MODEL_4P, "trained for")):
        p = _cli(run, "--continuation", pool, cwd=tmp_path)
        lines = [ln for ln in p.stderr.splitlines() if not ln.startswith("import time:")]
        assert p.returncode == 2, (pool, p.stderr[-500:])
        assert len(lines) == 1 and message in lines[0], (pool, lines)
        assert not any(ln.split("|")[-1].strip() == "torch" for ln in p.stderr.splitlines()), pool
    assert not (tmp_path / "r" / "checkpoint.pt").exists()


@pytest.mark.slow
def test_a_run_records_and_keeps_its_pool(tmp_path):
    pytest.importorskip("torch")
    from daguai.learn.checkpoint import load_checkpoint
    from daguai.learn.trainer import train

    cfg = TrainConfig(seed=3, games_per_task=1, widths=(16,), warm_frames=0, eval_every=0,
                      init="", continuation=(MODEL, "heuristic"))
    run = tmp_path / "r"
    train(run, cfg, minutes=2, max_frames=300, resume=False)
    assert load_checkpoint(run / "checkpoint.pt")["config"].continuation == (MODEL, "heuristic")
    train(run, None, minutes=2, max_frames=600)  # resumed: the checkpoint's pool
    assert load_checkpoint(run / "checkpoint.pt")["config"].continuation == (MODEL, "heuristic")
