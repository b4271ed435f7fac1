"""The engine's model loader (cpp/engine/learned/format.cpp read_model_file, models.cpp):
what it refuses before reading, and how many model names one process may use.

- A path that is not a regular file - a FIFO (opening one for reading would wait for a
  writer), a symlink to /dev/zero (endless bytes), a folder - is a ModelError naming it,
  at once; so is a file over the format's size bound, and a large file without the magic is
  refused after its first bytes.
- Model names are not a scarce resource: the builtin ``learned`` and new paths keep
  working after hundreds of distinct ``.dgn`` paths in one process (each copy of one model
  shares its network in memory).
"""

from __future__ import annotations

import os
import threading

import daguai
import numpy as np
import pytest
from daguai import _core
from daguai.dgn import write_dgn
from daguai.learn import ModelError, Network

IN = _core.learned.STATE_FEATURES + _core.learned.ACTION_FEATURES


def _layers(seed: int = 0, width: int = 4):
    rng = np.random.default_rng(seed)
    return [(rng.normal(size=(width, IN)).astype(np.float32), np.zeros(width, np.float32)),
            (rng.normal(size=(1, width)).astype(np.float32), np.zeros(1, np.float32))]


def _finishes(fn, seconds: float = 20.0):
    """Runs fn in a thread; the exception it raised, failing if it has not finished in time
    (a FIFO would block the open forever)."""
    box: list[BaseException | None] = []

    def run():
        try:
            fn()
            box.append(None)
        except BaseException as e:  # noqa: BLE001 - handed to the test
            box.append(e)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "the loader is still reading"
    return box[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_named_dgn_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "x.dgn"
    os.mkfifo(fifo)
    for load in (lambda: Network.from_file(str(fifo)), lambda: _core.catalog.policy_id(str(fifo))):
        e = _finishes(load)
        assert isinstance(e, ModelError) and isinstance(e, ValueError), e
        assert "not a regular file (a FIFO)" in str(e)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_symlink_to_dev_zero_is_refused_without_reading(tmp_path):
    link = tmp_path / "zero.dgn"
    link.symlink_to("/dev/zero")
    e = _finishes(lambda: Network.from_file(str(link)))
    assert isinstance(e, ModelError) and "not a regular file (a device)" in str(e)


def test_a_folder_named_dgn_is_refused(tmp_path):
    folder = tmp_path / "d.dgn"
    folder.mkdir()
    with pytest.raises(ModelError, match=r"not a regular file \(a folder\)"):
        _core.catalog.policy_id(str(folder))
    with pytest.raises(ModelError, match="cannot open"):
        Network.from_file(str(tmp_path / "missing.dgn"))


def test_files_over_the_bound_or_without_the_magic_are_refused_before_reading(tmp_path):
    big = tmp_path / "big.dgn"
    with open(big, "wb") as f:  # sparse: 600 MiB of size, no bytes written
        f.truncate(600 << 20)
    with pytest.raises(ModelError, match="more than the 512 MiB"):
        Network.from_file(str(big))
    junk = tmp_path / "junk.dgn"
    with open(junk, "wb") as f:
        f.write(b"NOPE")
        f.truncate(200 << 20)
    e = _finishes(lambda: Network.from_file(str(junk)), seconds=5.0)
    assert isinstance(e, ModelError) and "bad magic" in str(e)


def test_hundreds_of_model_paths_leave_learned_and_new_paths_working(tmp_path):
    """The old registry had 128 slots: the 129th distinct path, and the builtin after it,
    failed with "too many model names"."""
    layers = _layers()
    ids = set()
    for i in range(300):
        path = write_dgn(tmp_path / f"copy{i}.dgn", layers, {"i": 0}, 0.0)
        ids.add(_core.catalog.policy_id(str(path)))
    assert len(ids) == 300  # one id per name: names are reported as given
    path = write_dgn(tmp_path / "last.dgn", _layers(1), None, 0.0)
    r = daguai.evaluate(str(path), "heuristic", 4, seed=1)
    assert r.wins + r.draws + r.losses == 8
    if "learned" in _core.catalog.policy_names():
        assert _core.catalog.policy_id("learned") >= 64
        r = daguai.evaluate("learned", "heuristic", 4, seed=1)
        assert r.wins + r.draws + r.losses == 8
