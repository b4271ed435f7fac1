"""The one progress display of every long-running call (``simulate``, ``evaluate``,
``analyze``, the command line): a ``rich`` bar on stderr whose times are measured from the
run itself (docs/simulation.md "simulate").

A long-running function takes ``progress=None | True | callable``; it turns that into a
reporter with :func:`progress_callback` and calls ``report(done, total)`` as work finishes.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from typing import Any

__all__ = ["ProgressBar", "ProgressLike", "progress_callback"]

#: What a long-running function accepts as ``progress``.
ProgressLike = None | bool | Callable[[int, int], Any]


#: the clock of the progress bar (a test replaces it)
_clock = time.perf_counter


def _hms(seconds: float) -> str:
    s = int(max(0.0, seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


class ProgressBar:
    """A progress bar drawn by ``rich`` on stderr, sized to the terminal: ``bar(done, total)``.

    Time is measured from the run itself: the elapsed time counts from when the bar was
    made (the start of the run, not its first report) and the remaining time is the
    elapsed time per game so far times the games left.

    ``stream``: where to draw (default stderr); ``width``: columns (default: the terminal's);
    ``label``: a word drawn before the bar (what is running); ``min_interval``: seconds
    between redraws (the last one is always drawn); ``delay``:
    draw nothing until the run has lasted this many seconds, so a run that ends sooner
    leaves no bar behind (the command line's default on a terminal, docs/simulation.md).
    """

    def __init__(self, unit: str = "games", stream: Any = None, width: int | None = None,
                 min_interval: float = 0.1, delay: float = 0.0, label: str | None = None) -> None:
        self.unit = unit
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.min_interval = min_interval
        self.delay = delay
        self.start = _clock()
        self._last = -math.inf
        self._closed = False
        self._progress: Any = None
        self._task: Any = None

    def _fields(self, done: int, total: int, now: float) -> dict[str, str]:
        spent = now - self.start
        left = "-:--:--" if done <= 0 else _hms(spent / done * max(0, total - done))
        return {"elapsed": _hms(spent), "left": left}

    def _begin(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn

        console = Console(file=self.stream, width=self.width, highlight=False)
        columns: list[Any] = [] if self.label is None else [TextColumn(self.label)]
        self._progress = Progress(
            *columns, BarColumn(bar_width=None), TaskProgressColumn(), MofNCompleteColumn(),
            TextColumn(self.unit), TextColumn("{task.fields[elapsed]} elapsed"),
            TextColumn("{task.fields[left]} left"),
            console=console, auto_refresh=False, expand=False)
        self._task = self._progress.add_task(self.unit, total=total, elapsed="0:00:00", left="-:--:--")
        self._progress.start()

    def __call__(self, done: int, total: int) -> None:
        if self._closed:
            return
        now = _clock()
        finished = done >= total
        if self._progress is None:
            if now - self.start < self.delay:
                if finished:
                    self._closed = True  # a short run: no bar at all
                return
            self._begin(total)
        self._progress.update(self._task, completed=done, total=total, **self._fields(done, total, now))
        if finished or now - self._last >= self.min_interval:
            self._last = now
            self._progress.refresh()
        if finished:
            self.close()

    def note(self, text: str) -> None:
        """A line of text on the bar's stream, above the bar while it is drawn."""
        if self._progress is not None and not self._closed:
            self._progress.console.print(text, markup=False, highlight=False)
        else:
            print(text, file=self.stream, flush=True)

    def close(self) -> None:
        """Stop drawing (called when the run completes; call it after an interruption)."""
        if self._progress is not None and not self._closed:
            self._progress.stop()
        self._closed = True


def progress_callback(progress: ProgressLike, unit: str) -> Callable[[int, int], Any] | None:
    """``None`` / ``False``: no reporter; ``True``: a :class:`ProgressBar` counting ``unit``;
    a callable: itself (called as ``progress(done, total)``)."""
    if progress is None or progress is False:
        return None
    if progress is True:
        return ProgressBar(unit)
    if callable(progress):
        return progress
    raise ValueError(f"progress must be None, True/False or a callable(done, total), got {progress!r}")
