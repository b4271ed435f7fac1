"""The trainer's actors: self-play tasks run by the C++ engine, locally or on Ray.

A task is pure data (:class:`Task`): which games (seed, game indices), who plays each seat
(``"model"`` = the learner's network, whose ``.dgn`` bytes travel with the task, or a
hand-written policy), which seats are recorded, the exploration rate and the continuation
pool that plays the branches out (names or ``.dgn`` paths: on Ray, a model file of the pool
must be at the same path on every worker). Its frames depend
on nothing else (R17: the engine's streams of (seed, game)), so the same task gives the same
frames in any process, on any machine with the same build, on Ray or locally.
"""

from __future__ import annotations

import atexit
import multiprocessing as mp
import os
import queue
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core
from ..rules import Rules
from .stopping import ignore_interrupt, interrupts_ignored

__all__ = ["Task", "run_task", "LocalActors", "RayActors", "ray_connect"]

Frames = dict[str, np.ndarray]


@dataclass(frozen=True)
class Task:
    step: int
    index: int
    seed: int
    first_game: int
    games: int
    policies: tuple[str, ...]  # "model" = the network of this task's weights
    record: tuple[bool, ...]
    epsilon: float
    branch: float
    rules: Rules
    continuation: tuple[str, ...] = ("heuristic",)  # the play-outs' pool (names, .dgn paths)
    r11: bool = False  # the R11 decisions are recorded too (each one branched)


_cleanup_registered = False


def _actor_file() -> Path:
    return Path(tempfile.gettempdir()) / f"daguai-actor-{os.getpid()}.dgn"


def _remove_actor_file() -> None:
    """The weights file of this process goes with it (no 1 MB file left per run)."""
    for path in (_actor_file(), _actor_file().with_name(_actor_file().name + ".tmp")):
        path.unlink(missing_ok=True)


def _model_path(weights: bytes) -> str:
    """A file holding ``weights`` for this process (rewritten when the weights change; the
    engine's registry reloads a path whose bytes changed). Removed when the process ends:
    by :func:`_actor_main` for local actors (which leave by ``os._exit``, past ``atexit``)
    and by ``atexit`` elsewhere (Ray's workers)."""
    global _cleanup_registered
    path = _actor_file()
    if not _cleanup_registered:
        atexit.register(_remove_actor_file)
        _cleanup_registered = True
    try:
        same = path.read_bytes() == weights
    except OSError:
        same = False
    if not same:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(weights)
        tmp.replace(path)
    return str(path)


def run_task(task: Task, weights: bytes | None) -> Frames:
    """Play the task's rounds in C++ and return its frames (``_core.run._self_play`` columns)."""
    policies = list(task.policies)
    if "model" in policies:
        if weights is None:
            raise ValueError("a task with model seats needs weights")
        path = _model_path(weights)
        policies = [path if p == "model" else p for p in policies]
    out: Frames = _core.run._self_play(task.rules._core, task.seed, task.first_game, task.games,
                                   policies, list(task.record), task.epsilon, task.branch,
                                   continuation=list(task.continuation), r11=task.r11)
    return out


def _actor_main(tasks: Any, results: Any) -> None:
    # Ctrl-C reaches the whole process group: the learner ends the call after its step and
    # closes the actors, so an actor must not die first with its task half done
    ignore_interrupt()
    try:
        while True:
            item = tasks.get()
            if item is None:
                return
            task, weights = item
            try:
                results.put((task.step, task.index, run_task(task, weights), None))
            except Exception as exc:  # reported to the learner, which raises it
                results.put((task.step, task.index, None, f"{type(exc).__name__}: {exc}"))
    finally:
        _remove_actor_file()


class LocalActors:
    """``n`` actor processes on this machine (spawned: no state shared with the learner)."""

    def __init__(self, n: int) -> None:
        ctx = mp.get_context("spawn")
        self._tasks: Any = ctx.Queue()
        self._results: Any = ctx.Queue()
        self._procs = [ctx.Process(target=_actor_main, args=(self._tasks, self._results), daemon=True)
                       for _ in range(n)]
        with interrupts_ignored():  # each actor starts with Ctrl-C ignored
            for p in self._procs:
                p.start()
        self._done: dict[tuple[int, int], Frames] = {}

    def submit(self, task: Task, weights: bytes | None) -> None:
        self._tasks.put((task, weights))

    def collect(self, step: int, count: int) -> list[Frames]:
        """The frames of tasks ``(step, 0 .. count-1)``, in index order (waits for them)."""
        while any((step, j) not in self._done for j in range(count)):
            try:
                s, j, frames, error = self._results.get(timeout=5.0)
            except queue.Empty:
                if not all(p.is_alive() for p in self._procs):
                    raise RuntimeError("an actor process died") from None
                continue
            if error is not None:
                raise RuntimeError(f"actor task ({s}, {j}) failed: {error}")
            self._done[(s, j)] = frames
        return [self._done.pop((step, j)) for j in range(count)]

    def close(self) -> None:
        for _ in self._procs:
            self._tasks.put(None)
        for p in self._procs:
            p.join(timeout=10)
            if p.is_alive():
                p.terminate()
        for q in (self._tasks, self._results):
            q.cancel_join_thread()
            q.close()


def ray_connect(address: str, timeout: float | None = None) -> Any:
    """Ray, connected to ``address`` (``"auto"``, host:port, or ``"local"``: a Ray instance of
    this machine's CPUs started here); unchanged when this process is already connected.
    ``ValueError`` without Ray installed; :class:`daguai.run.cluster.RayConnectionError`
    naming the address when nothing answers there in ``timeout`` seconds."""
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs Ray: pip install 'daguai[ray]'") from None
    from ..run.cluster import RAY_TIMEOUT, ray_init

    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False)
        else:
            # the same bounded connect as simulate --ray: a TCP probe first (an address
            # nothing answers at, or no address at all such as 256.1.1.1, fails in
            # seconds), then a watchdog; RayConnectionError names the address
            ray_init(address, RAY_TIMEOUT if timeout is None else timeout, quiet=True)
    return ray


class RayActors:
    """The same tasks on a Ray cluster (``address``: ``"auto"``, ``"local"`` or host:port)."""

    def __init__(self, address: str, timeout: float | None = None) -> None:
        ray = self._ray = ray_connect(address, timeout)
        self._remote = ray.remote(num_cpus=1)(run_task)
        self._pending: dict[tuple[int, int], Any] = {}
        self._weights: tuple[bytes | None, Any] = (None, None)

    def submit(self, task: Task, weights: bytes | None) -> None:
        if weights is not None and self._weights[0] is not weights:
            self._weights = (weights, self._ray.put(weights))
        ref = self._weights[1] if weights is not None else None
        self._pending[(task.step, task.index)] = self._remote.remote(task, ref)

    def collect(self, step: int, count: int) -> list[Frames]:
        refs = [self._pending.pop((step, j)) for j in range(count)]
        return list(self._ray.get(refs))

    def close(self) -> None:
        for ref in self._pending.values():
            self._ray.cancel(ref)
        self._pending.clear()
