"""Stopping a long call by signal: SIGTERM (``kill``) and SIGINT (Ctrl-C) end ``daguai train``
after its current step and ``daguai label`` after its next shard, with everything made so far
kept, so that the same command resumes the run."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["StopRequest", "ignore_interrupt", "interrupts_ignored"]


class StopRequest:
    """Records SIGTERM and SIGINT (``requested``: the signal's name, "" until one arrives)
    instead of letting them end the process. The handlers are installed from the main thread
    only, and the previous ones put back by :meth:`restore` (or at the end of a ``with``)."""

    def __init__(self) -> None:
        self.requested = ""
        self._old: dict[int, Any] = {}
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGINT):
                self._old[sig] = signal.signal(sig, self._handle)

    def _handle(self, signum: int, frame: Any) -> None:
        self.requested = signal.Signals(signum).name

    def restore(self) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)
        self._old.clear()

    def __enter__(self) -> StopRequest:
        return self

    def __exit__(self, *exc: object) -> None:
        self.restore()


def ignore_interrupt() -> None:
    """A worker process's start: Ctrl-C reaches the whole process group, and the caller ends
    the call in order, so a worker must not die first with its work half done."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def interrupts_ignored() -> Iterator[None]:
    """Around starting worker processes: SIGINT is ignored, and a process started meanwhile
    begins with it ignored (an ignored signal stays ignored across exec, and Python keeps it so),
    so a Ctrl-C during a worker's imports, before it can call :func:`ignore_interrupt`, does not
    end it with a traceback. A Ctrl-C in those few milliseconds does not reach the caller either
    (press it again). From the main thread only (elsewhere it does nothing)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
