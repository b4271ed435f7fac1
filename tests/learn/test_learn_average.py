"""Weight averaging of a run's snapshots (daguai.dgn.average_models, training/average.py;
docs/learning.md "Weight averaging"): the plain mean of the weights, checked against numpy
on random models, and every bad input refused with a ModelError / ValueError and nothing
written."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import daguai
import numpy as np
import pytest
from daguai.dgn import average_models, read_dgn, write_dgn
from daguai.learn import ACTION_FEATURES, STATE_FEATURES, Network
from weight_means import assert_weight_mean

SCRIPT = Path(__file__).resolve().parents[2] / "training" / "average.py"


def _model(path: Path, seed: int, widths=(16, 8), meta=None, margin=0.02) -> Path:
    rng = np.random.default_rng(seed)
    sizes = [STATE_FEATURES + ACTION_FEATURES, *widths, 1]
    layers = [((rng.standard_normal((o, i)) / np.sqrt(i)).astype(np.float32),
               (rng.standard_normal(o) * 0.1).astype(np.float32))
              for i, o in zip(sizes, sizes[1:], strict=False)]
    return write_dgn(path, layers, meta if meta is not None else {"seed": seed}, margin=margin)


def test_the_average_is_the_mean_of_the_weights(tmp_path):
    paths = [_model(tmp_path / f"m{k}.dgn", k) for k in range(3)]
    out = average_models(paths, tmp_path / "avg.dgn", margin=0.01)
    layers, meta, margin = read_dgn(out)
    inputs = [read_dgn(p)[0] for p in paths]
    assert len(inputs) == 3
    assert_weight_mean(layers, inputs)
    assert margin == pytest.approx(0.01)
    assert meta["seed"] == 2  # the last model's metadata
    assert meta["averaged"] == [{"file": p.name, "sha256": hashlib.sha256(p.read_bytes()).hexdigest()}
                                for p in paths]
    Network.from_file(str(out))  # the engine loads it


def test_the_average_of_one_model_is_that_model(tmp_path):
    p = _model(tmp_path / "m.dgn", 5)
    out = average_models([p], tmp_path / "avg.dgn")
    (a, _, ma), (b, _, mb) = read_dgn(p), read_dgn(out)
    assert ma == mb and all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1])
                            for x, y in zip(a, b, strict=True))


def test_the_averaged_model_plays(tmp_path):
    paths = [_model(tmp_path / f"m{k}.dgn", k) for k in range(2)]
    out = average_models(paths, tmp_path / "avg.dgn")
    r = daguai.evaluate(str(out), "heuristic", 2, seed=1)
    assert r.wins + r.draws + r.losses == 4


def test_one_path_instead_of_a_list_is_a_type_error(tmp_path):
    a = _model(tmp_path / "a.dgn", 1)
    with pytest.raises(TypeError, match="list of model files"):
        average_models(str(a), tmp_path / "avg.dgn")
    assert not (tmp_path / "avg.dgn").exists()


@pytest.mark.parametrize("case", ["empty", "widths", "rules", "garbage", "margin", "nan margin"])
def test_bad_inputs_are_refused_and_nothing_is_written(tmp_path, case):
    a = _model(tmp_path / "a.dgn", 1)
    out = tmp_path / "avg.dgn"
    if case == "empty":
        paths, margin, match = [], None, "no models"
    elif case == "widths":
        paths, margin, match = [a, _model(tmp_path / "b.dgn", 2, widths=(8, 8))], None, "widths"
    elif case == "rules":
        four = {"rules": daguai.Rules(table="4p2d").to_dict()}
        paths, margin, match = [a, _model(tmp_path / "b.dgn", 2, meta=four)], None, "rules"
    elif case == "garbage":
        bad = tmp_path / "bad.dgn"
        bad.write_bytes(b"DGNN" + b"\0" * 40)
        paths, margin, match = [a, bad], None, "bad.dgn"
    else:
        paths, margin, match = [a], (-1.0 if case == "margin" else float("nan")), "margin"
    with pytest.raises(ValueError, match=match):
        average_models(paths, out, margin)
    assert not out.exists()


def test_the_script_writes_the_average_and_exits_2_on_bad_input(tmp_path):
    paths = [str(_model(tmp_path / f"m{k}.dgn", k)) for k in range(2)]
    ok = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "avg.dgn"), *paths,
                         "--margin", "0.01"], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert read_dgn(tmp_path / "avg.dgn")[2] == pytest.approx(0.01)
    bad = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "x.dgn"), str(tmp_path / "none.dgn")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "none.dgn" in bad.stderr
    assert not (tmp_path / "x.dgn").exists()


def test_metadata_from_another_model_of_the_run(tmp_path):
    paths = [_model(tmp_path / f"m{k}.dgn", k) for k in range(2)]
    run = _model(tmp_path / "latest.dgn", 9, meta={"commands": ["daguai train run"], "seed": 9})
    out = average_models(paths, tmp_path / "avg.dgn", meta_from=run, extra_meta={"averaged_by": "x"})
    meta = read_dgn(out)[1]
    assert meta["commands"] == ["daguai train run"] and meta["seed"] == 9 and meta["averaged_by"] == "x"
    assert [m["file"] for m in meta["averaged"]] == ["m0.dgn", "m1.dgn"]
    four = _model(tmp_path / "four.dgn", 3, meta={"rules": daguai.Rules(table="4p2d").to_dict()})
    with pytest.raises(ValueError, match="meta_from"):
        average_models(paths, tmp_path / "bad.dgn", meta_from=four)
    assert not (tmp_path / "bad.dgn").exists()
