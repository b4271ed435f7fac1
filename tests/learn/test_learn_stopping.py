"""Worker processes and Ctrl-C (python/daguai/learn/stopping.py): Ctrl-C reaches the whole
process group, so a worker of ``daguai label`` or ``daguai train`` that is still importing when it
comes would die with a KeyboardInterrupt traceback before it could ignore the signal (seen once in
tests/learn/test_learn_labels.py's SIGINT case). Started under ``interrupts_ignored``, a worker begins
with SIGINT ignored."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal

import pytest
from daguai.learn.stopping import ignore_interrupt, interrupts_ignored

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")


def _start_and_interrupt(held: bool) -> int | None:
    """A spawned worker whose whole work is ignore_interrupt, sent SIGINT right after its start
    (it is still importing daguai then); its exit code."""
    p = mp.get_context("spawn").Process(target=ignore_interrupt)
    # Python's own Ctrl-C handler here, whatever this process inherited (a shell's background
    # job starts with SIGINT ignored, and a worker would inherit that): a worker started from
    # here then gets the default disposition, unless held
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        if held:
            with interrupts_ignored():
                p.start()
        else:
            p.start()
    finally:
        signal.signal(signal.SIGINT, old)
    os.kill(p.pid, signal.SIGINT)
    p.join(60)
    return p.exitcode


def test_a_worker_started_with_interrupts_ignored_outlives_a_ctrl_c_during_its_imports():
    assert _start_and_interrupt(held=True) == 0
    assert _start_and_interrupt(held=False) != 0  # the case it guards: killed while importing


def test_the_handler_is_put_back_after_the_start():
    seen = []
    old = signal.signal(signal.SIGINT, lambda *_: seen.append("SIGINT"))
    try:
        with interrupts_ignored():
            os.kill(os.getpid(), signal.SIGINT)  # while the workers start: ignored
        assert seen == []
        os.kill(os.getpid(), signal.SIGINT)
        assert seen == ["SIGINT"]  # the caller's handler again
    finally:
        signal.signal(signal.SIGINT, old)
