"""Files of the learned player from someone else: a crafted `checkpoint.pt` is refused, never
run (PyTorch's weights-only loader); `.dgn` readers (`read_dgn`, `QNet.from_dgn`, a model path
given to `simulate` / `evaluate`) check a path with `stat` and the header before reading it
whole, so a FIFO, a symlink to /dev/zero or a 1 GiB file is refused at once; metadata that is
not JSON is a `ModelError`, never a UnicodeDecodeError / JSONDecodeError / RecursionError."""

from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
import time
from pathlib import Path

import daguai
import pytest
from daguai import _core
from daguai.dgn import MAX_DGN_BYTES, dgn_bytes, read_model_file
from daguai.learn import ModelError, read_dgn
from pickle_helpers import Planted

SHIPPED = Path(daguai.__file__).parent / "models" / "learned.dgn"


def _with_meta(meta: bytes) -> bytes:
    """The shipped model's bytes with its metadata replaced by ``meta`` (hash recomputed)."""
    data = SHIPPED.read_bytes()
    fmt, n_hidden = struct.unpack_from("<I", data, 4)[0], struct.unpack_from("<I", data, 20)[0]
    off = 24 + 4 * n_hidden + (8 if fmt >= 2 else 4)  # the margin, and format 2's decides word
    (old,) = struct.unpack_from("<I", data, off)
    body = data[:off] + struct.pack("<I", len(meta)) + meta + data[off + 4 + old:-8]
    return body + struct.pack("<Q", _core.learned._dgn_hash(body))


@pytest.mark.parametrize("meta", [b"\xff\xfe not utf-8", b"{not json", b"[" * 3000 + b"]" * 3000,
                                  b'"a string"', b"[1, 2]"])
def test_read_dgn_metadata_that_is_not_a_json_object(tmp_path, meta):
    path = tmp_path / "m.dgn"
    path.write_bytes(_with_meta(meta))
    _core.learned.Network.from_bytes(path.read_bytes())  # the engine ignores metadata
    with pytest.raises(ModelError, match="metadata"):
        read_dgn(path)


def test_qnet_from_dgn_loads_what_the_engine_loads(tmp_path):
    pytest.importorskip("torch")
    from daguai.learn import QNet

    path = tmp_path / "m.dgn"
    path.write_bytes(_with_meta(b"\xff{[" * 10))
    net = QNet.from_dgn(path)
    assert net.widths == tuple(_core.learned.Network.from_file(str(SHIPPED)).widths)


def _refused(path: Path, match: str) -> None:
    t = time.monotonic()
    with pytest.raises(ModelError, match=match):
        read_dgn(path)
    with pytest.raises(ModelError, match=match):
        read_model_file(path)
    assert time.monotonic() - t < 2.0  # no reading to the end


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "x.dgn"
    os.mkfifo(fifo)
    _refused(fifo, "not a regular file")


def test_a_symlink_to_dev_zero_is_refused(tmp_path):
    link = tmp_path / "zero.dgn"
    link.symlink_to("/dev/zero")
    _refused(link, "not a regular file")


def test_a_folder_is_refused(tmp_path):
    (tmp_path / "d.dgn").mkdir()
    _refused(tmp_path / "d.dgn", "folder")


def test_a_huge_file_is_refused_by_its_size(tmp_path):
    big = tmp_path / "big.dgn"
    with open(big, "wb") as fh:  # sparse: 1 GiB on disk costs nothing
        fh.truncate(1 << 30)
    assert (1 << 30) > MAX_DGN_BYTES
    _refused(big, "larger than any .dgn")


def test_a_large_file_with_a_small_header_is_refused_before_reading(tmp_path):
    """A valid header followed by 300 MB: the size disagrees with the header, so nothing past
    the header is read."""
    head = SHIPPED.read_bytes()[:200]
    path = tmp_path / "pad.dgn"
    with open(path, "wb") as fh:
        fh.write(head)
        fh.truncate(300 << 20)
    _refused(path, "header describes")
    bad = tmp_path / "magic.dgn"
    with open(bad, "wb") as fh:
        fh.write(b"JUNK")
        fh.truncate(300 << 20)
    _refused(bad, "bad magic")


def test_the_shipped_model_and_a_written_one_still_read(tmp_path):
    layers, meta, margin = read_dgn(SHIPPED)
    assert isinstance(meta, dict) and margin >= 0
    path = tmp_path / "w.dgn"
    path.write_bytes(dgn_bytes(layers, {"x": 1}, margin))
    assert read_dgn(path)[1] == {"x": 1}


@pytest.mark.parametrize("kind", ["fifo", "zero", "big"])
def test_evaluate_and_simulate_check_a_model_path_first(tmp_path, kind):
    path = tmp_path / "x.dgn"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    else:
        with open(path, "wb") as fh:
            fh.truncate(1 << 30)
    t = time.monotonic()
    with pytest.raises(ModelError):
        daguai.evaluate(str(path), "random", 2)
    with pytest.raises(ValueError):
        daguai.simulate(2, (str(path), "random"))
    assert time.monotonic() - t < 3.0
    p = subprocess.run([sys.executable, "-m", "daguai", "evaluate", str(path), "random", "--deals", "2"],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr


# ---- checkpoints -------------------------------------------------------------------------


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def test_a_crafted_checkpoint_is_refused_not_run(tmp_path, torch):
    from daguai.learn import export, train

    run = tmp_path / "run"
    run.mkdir()
    marker = tmp_path / "pwned"
    torch.save({"config": Planted(marker), "net": {}}, run / "checkpoint.pt")
    for call in (lambda: export(run, tmp_path / "m.dgn"), lambda: train(run, None, minutes=0.01)):
        with pytest.raises(ModelError, match="not a daguai checkpoint.*(?i:global)"):
            call()
        assert not marker.exists()
    # a plain pickle (not torch's zip) with the same payload
    (run / "checkpoint.pt").write_bytes(pickle.dumps({"x": Planted(marker)}))
    with pytest.raises(ModelError, match="not a daguai checkpoint"):
        export(run, tmp_path / "m.dgn")
    assert not marker.exists()


@pytest.mark.slow  # a whole process, server or match (seconds): CI runs it
@pytest.mark.parametrize("content", [b"garbage" * 100, b"", "folder"])
def test_a_bad_checkpoint_gets_one_line_and_exit_2(tmp_path, content, torch):
    run = tmp_path / "run"
    run.mkdir()
    if content == "folder":
        (run / "checkpoint.pt").mkdir()
    else:
        (run / "checkpoint.pt").write_bytes(content)  # type: ignore[arg-type]
    for extra in (["--export", str(tmp_path / "m.dgn")], ["--minutes", "0.01"]):
        p = subprocess.run([sys.executable, "-m", "daguai", "train", str(run), *extra],
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 2, (extra, p.stderr)
        assert len(p.stderr.strip().splitlines()) == 1 and "checkpoint" in p.stderr, p.stderr
    assert not (tmp_path / "m.dgn").exists()


def test_checkpoint_shapes_that_do_not_fit_are_refused(tmp_path, torch):
    from daguai.learn import TrainConfig, export
    from daguai.learn.config import config_json as _config_json

    run = tmp_path / "run"
    run.mkdir()
    from daguai.learn.model import QNet

    cfg = TrainConfig(widths=(8,))
    prev = QNet(cfg.widths).to_dgn()  # the fields are checked at load: only the net does not fit
    torch.save({"net": {"hidden.0.weight": torch.zeros(3, 3)}, "opt": {}, "step": 0, "frames": 0,
                "rounds": 0, "prev_weights": prev, "frames_issue": (0, 0), "wall": 0.0, "evals": [],
                "config": _config_json(cfg), "torch_rng": torch.get_rng_state()}, run / "checkpoint.pt")
    with pytest.raises(ModelError, match="does not fit"):
        export(run, tmp_path / "m.dgn")
