"""A model per table (R18): the built-in name ``learned`` plays the shipped model of the game's
table (``models/learned.dgn`` at 6p3d, ``models/learned_4p2d.dgn`` at 4p2d, the 6p3d one where
a table has none), and ``daguai train --rule`` / ``--init`` make and record a model for a table.

The built-in models are process-wide, so the checks that set one run in a child process.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import daguai
import numpy as np
import pytest
from daguai import _core
from daguai.dgn import read_dgn, write_dgn
from weight_means import assert_weight_mean

IN = _core.learned.STATE_FEATURES + _core.learned.ACTION_FEATURES
SHIPPED = Path(daguai.__file__).parent / "models" / "learned.dgn"
SHIPPED4 = Path(daguai.__file__).parent / "models" / "learned_4p2d.dgn"


def _random_model(path: Path, seed: int) -> Path:
    rng = np.random.default_rng(seed)
    layers = [(rng.normal(size=(8, IN)).astype(np.float32), np.zeros(8, np.float32)),
              (rng.normal(size=(1, 8)).astype(np.float32), np.zeros(1, np.float32))]
    write_dgn(path, layers, {"note": "a random network"}, margin=0.0)
    return path


def _child(code: str) -> str:
    p = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_learned_plays_the_model_of_the_games_table_R18(tmp_path):
    four = _random_model(tmp_path / "four.dgn", 1)
    common = """
        import daguai
        from daguai import _core
        def rec(policy, table):
            r = daguai.simulate(6, policies=[policy], seed=11, rules=daguai.Rules(table=table),
                                threads=1, model_rules="any")
            return r.to_pandas().to_json()
    """
    out = _child(common + f"""
        print(rec("learned", "4p2d") == rec({str(SHIPPED4)!r}, "4p2d"))  # the shipped 4p2d model
        at6 = rec("learned", "6p3d")
        print(at6 == rec({str(SHIPPED)!r}, "6p3d"))
        _core.learned._set_builtin_model({str(four)!r}, "4p2d")
        print(rec("learned", "4p2d") == rec({str(four)!r}, "4p2d"))   # another 4p2d model
        print(rec("learned", "6p3d") == at6)                         # 6p3d untouched
    """)
    assert out.split() == ["True"] * 4
    # a table without a model of its own plays the 6p3d one
    out = _child(common + f"""
        _core.learned._set_builtin_model("", "4p2d")
        print(rec("learned", "4p2d") == rec({str(SHIPPED)!r}, "4p2d"))
    """)
    assert out.split() == ["True"]


def test_a_builtin_model_for_an_unknown_table_is_refused():
    with pytest.raises(ValueError, match="unknown table '5p2d'"):
        _core.learned._set_builtin_model(str(SHIPPED), "5p2d")


@pytest.mark.slow  # trains for seconds (> 10 s on a loaded machine)
def test_train_records_its_table_and_starts_from_an_init_model_R18(tmp_path):
    pytest.importorskip("torch")
    run = tmp_path / "run"
    init = _random_model(tmp_path / "init.dgn", 2)
    p = subprocess.run([sys.executable, "-m", "daguai", "train", str(run), "--rule", "table=4p2d",
                        "--init", str(init), "--warm-frames", "0", "--max-frames", "1",
                        "--games-per-task", "1", "--eval-every", "0", "--no-progress"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    model = tmp_path / "m.dgn"
    p = subprocess.run([sys.executable, "-m", "daguai", "train", str(run), "--export", str(model)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    layers, meta, _ = read_dgn(model)
    assert meta["rules"]["table"] == "4p2d" and meta["config"]["rules"]["table"] == "4p2d"
    assert meta["config"]["init"] == str(init)
    assert [w.shape[0] for w, _ in layers[:-1]] == [8]  # the init model's widths are the run's
    json.dumps(meta)


@pytest.mark.parametrize("bad", ["missing.dgn", "folder"])
def test_a_bad_init_model_gets_one_line_and_exit_2(tmp_path, bad):
    path = tmp_path / bad
    if bad == "folder":
        path.mkdir()
    p = subprocess.run([sys.executable, "-m", "daguai", "train", str(tmp_path / "run"), "--init",
                        str(path)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert "--init" in p.stderr


@pytest.mark.slow  # a whole training process (PyTorch's import, a step, an evaluation)
def test_sigterm_ends_a_training_call_after_its_step_with_the_checkpoint_written(tmp_path):
    pytest.importorskip("torch")
    import os
    import signal
    import time

    run, tmp = tmp_path / "run", tmp_path / "tmp"
    tmp.mkdir()
    p = subprocess.Popen([sys.executable, "-m", "daguai", "train", str(run), "--minutes", "30",
                          "--warm-frames", "0", "--games-per-task", "2", "--eval-every", "1",
                          "--eval-deals", "2", "--no-progress", "--checkpoint-minutes", "30"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env={**os.environ, "TMPDIR": str(tmp)})
    try:
        deadline = time.monotonic() + 300
        while not (run / "evals.jsonl").exists():  # the loop has run a step
            assert p.poll() is None and time.monotonic() < deadline, p.stderr.read() if p.stderr else ""
            time.sleep(0.2)
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=120)
    finally:
        p.kill()
    assert p.returncode == 0, err
    assert (run / "checkpoint.pt").is_file() and (run / "latest.dgn").is_file()
    _, meta, _ = read_dgn(run / "latest.dgn")
    assert meta["commands"][-1]["stopped"].startswith("SIGTERM at ")
    assert "step" in out
    assert not list(tmp.glob("daguai-actor-*.dgn"))  # the actor ended normally and cleaned up


# ---- a model file records its rules; playing it under others is refused ---------------------

def _model_for(path: Path, rules: dict | None, seed: int = 3) -> str:
    rng = np.random.default_rng(seed)
    layers = [(rng.normal(size=(8, IN)).astype(np.float32), np.zeros(8, np.float32)),
              (rng.normal(size=(1, 8)).astype(np.float32), np.zeros(1, np.float32))]
    write_dgn(path, layers, {} if rules is None else {"rules": rules}, margin=0.0)
    return str(path)


FOUR = daguai.Rules(table="4p2d")


def test_a_model_without_recorded_rules_is_a_default_rules_model(tmp_path):
    from daguai.dgn import model_rules

    assert model_rules(_model_for(tmp_path / "old.dgn", None)) == daguai.Rules().to_dict()
    assert model_rules(_model_for(tmp_path / "four.dgn", FOUR.to_dict()))["table"] == "4p2d"
    assert model_rules(str(SHIPPED))["table"] == "6p3d"  # its training configuration's rules


@pytest.mark.parametrize("call", ["simulate", "evaluate", "batch_env", "ladder"])
def test_a_model_played_under_other_rules_is_refused_naming_both_R18(tmp_path, call):
    six = _model_for(tmp_path / "six.dgn", None)
    runs = {
        "simulate": lambda **kw: daguai.simulate(2, policies=[six, "heuristic"], rules=FOUR, threads=1, **kw),
        "evaluate": lambda **kw: daguai.evaluate(six, "heuristic", 2, rules=FOUR, threads=1, **kw),
        "batch_env": lambda **kw: daguai.learn.BatchEnv(2, rules=FOUR, opponents=[None, six], **kw),
        "ladder": lambda **kw: __import__("daguai.run.ladder", fromlist=["ladder"]).ladder(
            [six, "random"], 2, rules=FOUR, cache=False, threads=1, cross_play=(), **kw),
    }
    with pytest.raises(_core.learned.ModelError, match=r"trained for Rules\(\) \(the default rules, 6p3d\), "
                                                r"not for this game's Rules\(table='4p2d'\)"):
        runs[call]()
    runs[call](model_rules="any")  # the explicit override plays it


def test_a_4p2d_model_is_refused_at_6p3d_and_plays_at_4p2d_R18(tmp_path):
    four = _model_for(tmp_path / "four.dgn", FOUR.to_dict())
    with pytest.raises(_core.learned.ModelError, match="trained for Rules\\(table='4p2d'\\)"):
        daguai.simulate(2, policies=[four, "heuristic"], threads=1)
    r = daguai.simulate(2, policies=[four, "heuristic"], rules=FOUR, threads=1)
    assert len(r["winner"]) == 2


def test_the_gym_environment_refuses_a_model_of_other_rules(tmp_path):
    pytest.importorskip("gymnasium")
    from daguai.learn.envs.gym_env import DaGuaiEnv

    six = _model_for(tmp_path / "six.dgn", None)
    with pytest.raises(_core.learned.ModelError, match="not for this game's"):
        DaGuaiEnv(seat=0, opponents=six, rules=FOUR)
    DaGuaiEnv(seat=0, opponents=six, rules=FOUR, model_rules="any")


@pytest.mark.parametrize("bad", ["some", None, 1, True])
def test_model_rules_takes_same_or_any(bad):
    with pytest.raises(ValueError, match="model_rules must be 'same' or 'any'"):
        daguai.simulate(1, model_rules=bad)


def test_the_command_line_refuses_in_one_line_and_plays_with_any_model_rules(tmp_path):
    six = _model_for(tmp_path / "six.dgn", None)
    base = [sys.executable, "-m", "daguai", "evaluate", six, "heuristic", "--deals", "2",
            "--threads", "1", "--rule", "table=4p2d", "--quiet"]
    p = subprocess.run(base, capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "--any-model-rules" in p.stderr, p.stderr
    p = subprocess.run(base + ["--any-model-rules"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr


def test_the_shipped_4p2d_model_is_generation_5_with_its_r11_decisions_R18_R11():
    """models/learned_4p2d.dgn (docs/learning.md "4p2d generation 5"): the weights and margin of
    training/4p2d_gen5/gen5.dgn, the trainer's export of that run's snapshots from step 2,800 and
    its final weights, written by training/r11a/ship_r11.py so the network also makes the R11
    decisions."""
    import hashlib

    root = Path(__file__).resolve().parents[2] / "training" / "4p2d_gen5"
    gen5 = root / "gen5.dgn"
    shipped, meta, margin = read_dgn(SHIPPED4)
    weights, meta5, margin5 = read_dgn(gen5)
    assert margin == margin5 == np.float32(0.02)
    for (w, b), (w5, b5) in zip(shipped, weights, strict=True):
        assert np.array_equal(w, w5) and np.array_equal(b, b5)
    assert meta["r11"]["weights_of"] == {"file": "gen5.dgn",
                                         "sha256": hashlib.sha256(gen5.read_bytes()).hexdigest()}
    net = _core.learned.Network.from_file(str(SHIPPED4))
    assert net.decides_r11 and json.loads(net.meta)["rules"]["table"] == "4p2d"
    # the export: the mean of the snapshots of steps 2,800 to 4,000 and the final weights (4,002)
    assert meta5["export"] == (
        "daguai train training/4p2d_gen5 --export training/4p2d_gen5/gen5.dgn --average-from 2800")
    assert [a["file"] for a in meta5["averaged"]] == [
        "step2800.dgn", "step3200.dgn", "step3600.dgn", "step4000.dgn", "final-step4002.dgn"]
    for a in meta5["averaged"][:-1]:
        snap = root / "snapshots" / a["file"]
        assert hashlib.sha256(snap.read_bytes()).hexdigest() == a["sha256"]
    parts = [read_dgn(root / "snapshots" / a["file"])[0] for a in meta5["averaged"][:-1]]
    parts.append(read_dgn(root / "latest.dgn")[0])  # the final weights
    assert len(parts) == 5
    assert_weight_mean(weights, parts)
