"""A run's ``checkpoint.pt`` from someone else (docs/learning.md "Training: `daguai train`"): only a regular
file of bounded size is opened (a FIFO used to hang ``daguai train RUN --export``, a symlink to
``/dev/zero`` was read), every field is checked at load with one error naming it (``evals``
without ``mean`` was a KeyError after training, ``step`` -5 a pybind11 dump), and a file that is
no checkpoint is one line of our own (never the loader's advice to load it unsafely)."""

from __future__ import annotations

import math
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
from daguai.cli.main import main  # noqa: E402
from daguai.learn import ModelError, TrainConfig, export, train  # noqa: E402
from daguai.learn.checkpoint import MAX_CHECKPOINT_BYTES, load_checkpoint  # noqa: E402
from daguai.learn.config import config_json  # noqa: E402
from daguai.learn.model import QNet  # noqa: E402

CFG = TrainConfig(widths=(8,))


def valid() -> dict[str, Any]:
    """The fields ``daguai train`` writes (trainer._RunState.save), for a small network."""
    torch.manual_seed(0)
    net = QNet(CFG.widths)
    opt = torch.optim.Adam(net.parameters(), lr=CFG.lr)
    return {"net": net.state_dict(), "opt": opt.state_dict(), "step": 3, "frames": 1000, "rounds": 40,
            "prev_weights": net.to_dgn(margin=CFG.margin), "frames_issue": (900, 1000), "wall": 12.5,
            "evals": [{"mean": 0.1, "lo": -0.2, "hi": 0.4, "deals": 20, "opponent": "heuristic",
                       "step": 2, "frames": 800, "wall": 10.0}],
            "commands": [{"command": "daguai train run", "from_frames": 0}],
            "config": config_json(CFG), "torch_rng": torch.get_rng_state()}


def run_with(tmp_path: Path, **changes: Any) -> Path:
    run = tmp_path / "run"
    run.mkdir(exist_ok=True)
    ckpt = valid()
    for k, v in changes.items():
        if v is _DROP:
            del ckpt[k]
        else:
            ckpt[k] = v
    torch.save(ckpt, run / "checkpoint.pt")
    return run


_DROP = object()


def cli(*argv: str, capsys: Any) -> tuple[int, str]:
    status = main(list(argv))
    return status, capsys.readouterr().err


def test_a_valid_checkpoint_loads_and_exports(tmp_path):
    run = run_with(tmp_path)
    ckpt = load_checkpoint(run / "checkpoint.pt")
    assert ckpt["config"] == CFG and ckpt["step"] == 3
    assert export(run, tmp_path / "m.dgn").stat().st_size > 0


@pytest.mark.parametrize("field, value, message", [
    ("step", -5, r"field 'step' must be an integer in \[0, 4611686018427387904\], got -5"),
    ("step", True, "field 'step' must be an integer"),
    ("frames", 1.5, "field 'frames' must be an integer"),
    ("rounds", 2**70, "field 'rounds' must be an integer"),
    ("wall", -1.0, r"field 'wall' must be seconds \(a number >= 0\), got -1.0"),
    ("wall", math.inf, "field 'wall' must be seconds"),
    ("frames_issue", (1,), "field 'frames_issue' must be two frame counts"),
    ("evals", [{"lo": 0.0, "hi": 1.0}], "field 'evals' entry 0 has no finite number 'mean'"),
    ("evals", [{"mean": math.nan, "lo": 0.0, "hi": 1.0}], "field 'evals' entry 0 must be a dict of numbers"),
    ("evals", [{"mean": "0.5", "lo": 0.0, "hi": 1.0}], "field 'evals' entry 0 has no finite number 'mean'"),
    ("evals", [{"mean": 0.0, "lo": 0.0, "hi": 1.0, "x": [1]}],
     "field 'evals' entry 0 must be a dict of numbers"),
    ("evals", "none", "field 'evals' must be a list, got str"),
    ("commands", [{"from_frames": 0}], "field 'commands' entry 0 has no text 'command'"),
    ("commands", [{"command": 5}], "field 'commands' entry 0 has no text 'command'"),
    ("prev_weights", b"x", "field 'prev_weights' is not a .dgn model"),
    ("prev_weights", "text", "field 'prev_weights' must be the bytes of a .dgn model"),
    ("prev_weights", QNet((4,)).to_dgn(), r"field 'prev_weights' has widths \(4,\), the run \(8,\)"),
    ("torch_rng", torch.zeros(3), "field 'torch_rng' must be a torch random state"),
    ("net", {"w": 3}, "field 'net' must be a state dict of tensors"),
    ("opt", [], "field 'opt' must be an optimizer state dict"),
    ("config", {"widths": "x"}, "field 'config' is not a training configuration"),
    ("evals", _DROP, "is not a daguai checkpoint: no field 'evals'"),
])
def test_every_field_is_checked_at_load_with_one_error_naming_it(tmp_path, capsys, field, value, message):
    run = run_with(tmp_path, **{field: value})
    with pytest.raises(ModelError, match=message):
        export(run, tmp_path / "m.dgn")
    with pytest.raises(ModelError, match=message):  # resuming refuses it before any training
        train(run, None, minutes=0.01)
    status, err = cli("train", str(run), "--export", str(tmp_path / "m.dgn"), capsys=capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1 and field in err, err
    assert not (tmp_path / "m.dgn").exists()


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "huge"])
def test_only_a_regular_file_of_bounded_size_is_opened(tmp_path, capsys, kind):
    run = tmp_path / "run"
    run.mkdir()
    path = run / "checkpoint.pt"
    if kind == "fifo":
        os.mkfifo(path)  # opening it for reading would wait for a writer forever
        message = "is not a regular file"
    elif kind == "dev_zero":
        path.symlink_to("/dev/zero")  # reading it would never end
        message = "is not a regular file"
    else:
        with open(path, "wb") as fh:  # sparse: no disk used
            fh.truncate(MAX_CHECKPOINT_BYTES + 1)
        message = "larger than any daguai checkpoint"
    with pytest.raises(ModelError, match=message):
        export(run, tmp_path / "m.dgn")
    status, err = cli("train", str(run), "--export", str(tmp_path / "m.dgn"), capsys=capsys)
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("content, reason", [
    (os.urandom(4096), "not a PyTorch archive"),
    (b"", "not a PyTorch archive"),
    (pickle.dumps({"a": 1}, protocol=4), "not a PyTorch archive"),
    (b"PK\x03\x04" + b"\x00" * 200, "a corrupt or truncated archive"),
])
def test_garbage_is_one_line_of_our_own(tmp_path, capsys, content, reason):
    run = tmp_path / "run"
    run.mkdir()
    (run / "checkpoint.pt").write_bytes(content)
    status, err = cli("train", str(run), "--export", str(tmp_path / "m.dgn"), capsys=capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert f"is not a daguai checkpoint: {reason}" in err and "weights_only set to False" not in err, err


@pytest.mark.slow  # a process importing torch (seconds): CI runs it
def test_a_pickle_the_safe_loader_warns_about_gives_one_line(tmp_path):
    """A zip whose pickle is protocol 4 made torch warn on stderr (two more lines) before the
    refusal; and its refusal ended "Re-running torch.load with weights_only set to False"."""
    run = tmp_path / "run"
    run.mkdir()
    torch.save({"x": Path("a")}, run / "checkpoint.pt", pickle_protocol=4)  # a global: PosixPath
    p = subprocess.run([sys.executable, "-m", "daguai", "train", str(run), "--export",
                        str(tmp_path / "m.dgn")], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr
    why = "is not a daguai checkpoint: the safe (weights-only) loader refused it (Unsupported operand"
    assert why in p.stderr
    assert "weights_only set to False" not in p.stderr and "Warning" not in p.stderr
