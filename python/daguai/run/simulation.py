"""Monte Carlo rollouts (docs/simulation.md): running the games.

:func:`simulate` plays many rounds (or matches) with a policy per seat and returns numpy
columns (:class:`~daguai.run.results.SimResult`, in ``results.py``); :func:`~daguai.evaluate`
(``evaluation.py`` beside this module) compares two policies on the same deals with the teams
swapped.

Built-in policies ("random", "greedy", "heuristic") run entirely in C++ (``_core.run.simulate``,
threads with the GIL released). Any Python callable ``policy(view, seat) -> action`` may
take a seat too (``view`` = ``Game.view(seat)``, what that seat may know): the run then
goes through the Python path, where the built-in seats still run in C++ between the Python
decisions, and gives exactly the same columns for the same seeds.

Game ``i`` of a run depends only on ``(seed, i)`` (its deals, first dealer and every
built-in policy's random stream, docs/game.md "Randomness"), so the columns are identical
for any batch size, number of threads, and for the Ray backend.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _core
from ..checks import (
    PolicyLike,
    check_bool,
    check_int,
    check_model_rules,
    check_rules,
    check_seed,
    policy_name,
    seat_policies,
)
from ..game import Game
from ..progress import ProgressBar, ProgressLike, progress_callback
from ..records import STARTS
from ..rules import LEVELS, Rules
from ..table import seats_of
from .cluster import RAY_TIMEOUT, RayConnectionError, ray_init
from .results import SimResult

__all__ = ["simulate", "play_game", "SimResult", "MAX_ROUNDS_PER_MATCH", "CHUNK_SECONDS",
           "RAY_TIMEOUT", "RayConnectionError", "ProgressBar"]

#: The built-in policies (the C++ catalog, cpp/engine/catalog/policies.def).

#: Safety net of the match mode: a match stops after this many rounds (read from C++).
MAX_ROUNDS_PER_MATCH: int = _core.run.MAX_ROUNDS_PER_MATCH

#: Target duration of one C++ call of a local run without ``batch`` (matches: twice that):
#: the run is interruptible (Ctrl-C) between calls.
CHUNK_SECONDS = 0.25

#: With games slower than that (a search policy's), a call still holds up to 4 games per
#: thread while it lasts at most about this long, so that no thread waits long for the slowest
#: game of a call (with one game per thread, two threads did about 1.3 threads' work).
SLOW_CALL_SECONDS = 3.0


# ---------------------------------------------------------------------------------------
# the two engines: C++ (all built-in) and Python (any callable)


@dataclass(frozen=True)
class _Run:
    """What every chunk of one run shares: the games ``first .. first + count - 1`` of a chunk
    depend only on these and the game index (R17). ``origin``: the position every game starts
    from (``simulate(position=...)``), its view's seat ``view_seat`` when each game plays a world
    sampled from that view (-1: the position itself); ``random_start``: seeded games begin at a
    random start state (docs/game.md "Start states"). Picklable: a Ray task gets one."""

    rules: Rules
    seed: int
    policies: tuple[PolicyLike, ...]
    matches: bool = False
    threads: int = 1
    auto_pass: bool = False
    random_start: bool = False
    origin: Game | None = None
    view_seat: int = -1

    @property
    def fast(self) -> bool:
        """Every seat a built-in policy: the whole run in C++."""
        return all(isinstance(p, str) for p in self.policies)


def _run_fast(run: _Run, first: int, count: int) -> dict[str, np.ndarray]:
    return dict(_core.run.simulate(run.rules._core, run.seed, count, list(run.policies), run.matches, first,
                                   run.threads, run.auto_pass, run.origin, run.view_seat, run.random_start))


def play_game(seed: int, game: int, policies: Sequence[PolicyLike], *, rules: Rules | None = None,
              matches: bool = False, auto_pass: bool = False, start: str = "fresh") -> tuple[Game, int, int]:
    """Play game ``game`` of a run from Python, decision by decision (the slow path).

    Built-in seats are driven by ``_core.run.PolicyRunner(name, seed, game, seat)`` (the same
    random stream as in C++), callables are called as ``policy(view, seat)``. Stops after
    the first round, or at the end of the match with ``matches=True``; ``start`` as
    :class:`~daguai.Game`'s (``"random"``: the seeded start state). Returns the game and
    the numbers of plays and passes decided (forced passes applied by ``auto_pass`` are not
    decisions, as in C++).
    """
    rules = check_rules(rules)
    g = Game(seed, rules, game=game, auto_pass=auto_pass, record=True, start=start)
    plays, passes = _play(g, seat_policies(policies, g.seats), matches)
    return g, plays, passes


def _call_policy(policy: Callable[..., Any], view: Any, seat: int, game: int) -> Any:
    """policy(view, seat); an exception inside it is re-raised with the seat and game."""
    try:
        return policy(view, seat)
    except Exception as exc:
        where = f"policy {policy_name(policy)!r} (seat {seat}, game {game}) raised: {exc}"
        try:
            again = type(exc)(where)
        except Exception:  # an exception type that takes other arguments: keep it, add a note
            again = None
        if again is None:
            if not hasattr(exc, "add_note"):  # Python < 3.11
                raise RuntimeError(where) from exc
            exc.add_note(where)
            raise exc
        raise again from exc


def _play(g: Game, pols: Sequence[PolicyLike], matches: bool) -> tuple[int, int]:
    # Built-in seats run in C++ (_SeatDriver) until a Python seat is to act; that policy
    # receives the seat's view (Game.view: R16, no other hand), never the Game.
    game = g.game_index
    driver = _core.run._SeatDriver([None if callable(p) else p for p in pols], g.seed, game)
    limit = MAX_ROUNDS_PER_MATCH if matches else 1
    plays = passes = 0
    while True:
        seat = driver.advance(g, limit)
        if seat < 0:
            break
        view = g.view(seat)  # view.game_index: which game of the run (not its seed: the deal)
        choice = _call_policy(pols[seat], view, seat, game)  # type: ignore[arg-type]
        try:
            action = g.state.to_action(choice)
            g.step(action)
        except ValueError as exc:
            raise type(exc)(f"policy {policy_name(pols[seat])!r} (seat {seat}, game {game}) "
                            f"chose {choice!r}: {exc}") from None
        plays += action.type == "play"
        passes += action.type == "pass"
    return plays + driver.plays, passes + driver.passes


def _view_worlds(start: Game, view_seat: int, seed: int, first: int, count: int) -> list[Game]:
    """Worlds first .. first + count - 1 of the view, as in C++ (game i plays world i): the
    sampler's world k depends only on (seed, k), so one draw gives them all."""
    from ..search import sample_worlds

    return sample_worlds(start.view(view_seat), first + count, seed)[first:] if count > 0 else []


def _run_slow(run: _Run, first: int, count: int,
              worlds: Sequence[Game] | None = None) -> dict[str, np.ndarray]:
    # The rows are filled by the engine's column table (cpp/engine/run/columns.cpp), as in C++.
    rows = _core.run._ResultRows(run.rules._core, count, run.matches)
    if run.origin is not None and run.view_seat >= 0 and worlds is None:
        worlds = _view_worlds(run.origin, run.view_seat, run.seed, first, count)
    for j in range(count):
        i = first + j
        if run.origin is None:
            g = Game(run.seed, run.rules, game=i, auto_pass=run.auto_pass,
                     record=True,  # policies see the history
                     start="random" if run.random_start else "fresh")
        elif run.view_seat < 0:
            g = run.origin.clone()
        else:
            g = worlds[j]  # type: ignore[index]
        dealer, level = g.dealer, LEVELS.index(g.level)
        plays, passes = _play(g, run.policies, run.matches)
        rows.fill(j, g.state, run.seed, i, dealer, level, plays, passes)
    return dict(rows.columns)


def _run_range(run: _Run, first: int, count: int,
               worlds: Sequence[Game] | None = None) -> dict[str, np.ndarray]:
    """Games ``first .. first + count - 1`` of ``run``: in C++ when every seat is built in,
    else through Python (``worlds``: the slow path's worlds of those games, drawn by the caller)."""
    return _run_fast(run, first, count) if run.fast else _run_slow(run, first, count, worlds)


def _ray_task(run: _Run, first: int, count: int) -> tuple[str, dict[str, np.ndarray]]:
    return _core.__version__, _run_range(run, first, count)


# ---------------------------------------------------------------------------------------
# simulate


def simulate(n: int = 10_000, policies: Sequence[PolicyLike] = ("heuristic", "random"), *,
             seed: int = 0, rules: Rules | None = None, matches: bool = False,
             threads: int | None = None, batch: int | None = None, backend: str = "local",
             ray_address: str | None = None, progress: ProgressLike = None,
             auto_pass: bool = False, ray_timeout: float = RAY_TIMEOUT,
             position: Any = None, worlds: bool = False, model_rules: str = "same",
             start: str = "fresh") -> SimResult:
    """Play ``n`` rounds (or matches) and return their results as numpy columns.

    With ``position`` (a Game, or a position dict / JSON: docs/records.md) every game starts
    from that position instead of a seeded deal and plays to the end of its round (or
    match); with ``worlds=True`` game ``i`` starts from world ``i`` of the view of the seat
    to act (``sample_worlds``: the hands that seat cannot see are re-dealt), so the run
    estimates outcomes from what that seat knows. Rules and ``auto_pass`` then come from the
    position. Native speed: built-in policies run in C++.

    Parameters
    ----------
    n : int
        Number of games: game indices ``0 .. n-1``. A game is one round (the first round of
        a match from ``seed``/game index), or a whole match with ``matches=True``.
    policies : sequence
        2 policies (team A = seats 0, 2, 4; team B = seats 1, 3, 5) or 6 (one per seat).
        Each is a built-in name (``daguai.bots.policy_names()``) or a callable
        ``policy(view, seat: int) -> action`` (anything ``Game.step`` accepts; ``view`` is
        ``Game.view(seat)``: that seat's information, with ``legal_actions()``). With
        any callable the run takes the slower Python path (same results for the same
        seeds; ``threads`` is then ignored).
    seed : int
        The run's seed; game ``i`` depends only on ``(seed, i)``.
    rules : Rules, optional
        Rule variants (default ``Rules()``).
    matches : bool
        Play whole matches (R12) instead of single rounds.
    threads : int, optional
        C++ threads (default ``os.cpu_count()``; Ray backend: threads per task, default 1).
    batch : int, optional
        Games per call into the engine (local) or per task (Ray). Results do not depend on
        it; smaller batches give more frequent progress reports.
    backend : {"local", "ray"}
        ``"ray"`` runs chunks of game indices as Ray tasks (docs/simulation.md).
    ray_address : str, optional
        Ray cluster address (``"HOST:6379"``); ``None`` starts a local Ray instance unless
        Ray is already initialized (or ``RAY_ADDRESS`` is set).
    progress : None, True or callable
        ``True`` draws a bar on stderr; a callable is called as ``progress(done, n)``
        after each batch.
    auto_pass : bool
        Apply forced passes automatically (they are then not counted as decisions).
    ray_timeout : float
        Seconds to wait for Ray to start or connect (default 30); then
        :class:`RayConnectionError`.
    model_rules : {"same", "any"}
        ``"same"`` (default) refuses a ``.dgn`` model trained for other rules than ``rules``
        (``ModelError`` naming both); ``"any"`` plays it anyway (docs/learning.md).
    start : {"fresh", "random"}
        How seeded games begin, as :class:`~daguai.Game`'s ``start``: ``"fresh"`` (default) a
        match's first deal (level 2, no tribute); ``"random"`` the start state of ``(seed, i)``
        (both teams' levels, the previous round's order and its tribute exchange, in 60% of
        games; docs/learning.md "Start states"). Not with ``position``.

    Returns
    -------
    SimResult
        A read-only mapping of column name to numpy array, one row per game.
    """
    n = check_int(n, "n", 0, 2**32 - 1)  # game indices; memory runs out well before
    seed = check_seed(seed)
    rules = check_rules(rules)
    matches = check_bool(matches, "matches")
    auto_pass = check_bool(auto_pass, "auto_pass")
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    if threads is not None:
        threads = check_int(threads, "threads", 1, 1024)
    if batch is not None:
        batch = check_int(batch, "batch", 1)
    report = progress_callback(progress, "matches" if matches else "rounds")
    if not isinstance(start, str) or start not in STARTS:
        raise ValueError(f"start must be 'fresh' or 'random', got {start!r:.40}")
    random_start = start == "random"
    origin, view_seat = _start_position(position, worlds)
    if origin is not None:
        if random_start:
            raise ValueError("simulate(position=...) begins at the position: start='random' goes "
                             "with seeded games")
        if backend != "local":
            raise ValueError("simulate(position=...) runs on the local backend")
        rules, auto_pass = origin.rules, origin.auto_pass
    pols = seat_policies(policies, seats_of(rules))
    check_model_rules(pols, rules, model_rules)

    if isinstance(ray_timeout, bool) or not isinstance(ray_timeout, (int, float)) or not ray_timeout > 0:
        raise ValueError(f"ray_timeout must be a positive number of seconds, got {ray_timeout!r}")
    if backend == "ray":
        ray_init(ray_address, float(ray_timeout))  # before the clock: starting Ray is not simulation time
    threads = threads or (1 if backend == "ray" else os.cpu_count() or 1)
    run = _Run(rules, seed, tuple(pols), matches, threads, auto_pass, random_start, origin, view_seat)
    fast = run.fast
    t0 = time.perf_counter()
    if backend == "ray":
        cols = _simulate_ray(run, n, batch, ray_address, report)
    else:
        parts: list[dict[str, np.ndarray]] = []
        first = 0
        # Without a given batch, the C++ calls are sized to last about CHUNK_SECONDS, so
        # Ctrl-C (handled between calls) stops a run quickly; results do not depend on it.
        # The first call is one game per thread, so the first progress report comes after
        # one game's time however slow the policies (a search policy takes seconds a game).
        count = batch or (max(1, math.ceil(n / 100)) if not fast else threads)
        # The slow path from a view's worlds draws them once for the run (about 1 KB a world):
        # a draw per call would sample worlds 0 .. first again for every call.
        drawn = None
        if origin is not None and view_seat >= 0 and not fast:
            drawn = _view_worlds(origin, view_seat, seed, 0, n)
        while first < n or not parts:
            count = min(count, n - first)
            t1 = time.perf_counter()
            parts.append(_run_range(run, first, count, None if drawn is None else drawn[first:first + count]))
            spent = time.perf_counter() - t1
            first += count
            if report is not None:
                report(first, n)
            if batch is None and fast:
                count = _next_count(count, spent, threads, matches)
        cols = _concat(parts)
    elapsed = time.perf_counter() - t0
    return SimResult(cols, seed=seed, rules=rules, policies=tuple(policy_name(p) for p in pols),
                     matches=matches, elapsed=elapsed, threads=threads if fast else 1,
                     backend=backend, auto_pass=auto_pass, start=start)


def _next_count(count: int, spent: float, threads: int, matches: bool) -> int:
    """The games of a local run's next C++ call: sized to last about CHUNK_SECONDS (matches:
    twice), at most twice or a quarter of this call's, and never fewer than 1 to 4 per thread,
    as many as fit SLOW_CALL_SECONDS at this call's time per game."""
    target = CHUNK_SECONDS * (2 if matches else 1)
    grow = target / spent if spent > 0 else 2.0
    per_game = spent * threads / count if count > 0 else 0.0  # one thread's time for a game
    fit = int(SLOW_CALL_SECONDS / per_game) if per_game > 0 else 4
    return max(threads * max(1, min(4, fit)), int(count * min(2.0, max(0.25, grow))))


def _start_position(position: Any, worlds: Any) -> tuple[Game | None, int]:
    """(start game without a log, seat whose view is sampled or -1) for simulate(position=)."""
    if not isinstance(worlds, bool):
        raise ValueError(f"worlds must be True or False, got {worlds!r}")
    if position is None:
        if worlds:
            raise ValueError("worlds=True needs a position")
        return None, -1
    if isinstance(position, Game):
        position = position.position()
    start = Game.from_position(position, record=False)
    if start.match_over:
        raise ValueError("the position's match is over")
    return start, (start.current_player if worlds else -1)


def _concat(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    if len(parts) == 1:
        return parts[0]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


_ray_remote: Any = None


def _simulate_ray(run: _Run, n: int, batch: int | None, address: str | None,
                  report: Callable[[int, int], Any] | None) -> dict[str, np.ndarray]:
    global _ray_remote
    ray = ray_init(address)
    if _ray_remote is None:
        _ray_remote = ray.remote(_ray_task)
    if batch is None:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        batch = math.ceil(n / (4 * max(1, cpus // run.threads)))
        if run.fast:
            batch = max(batch, 256)
        batch = max(batch, 1)
    chunks = [(first, min(batch, n - first)) for first in range(0, max(n, 1), batch)]
    task = _ray_remote.options(num_cpus=run.threads)
    refs = [task.remote(run, first, count) for first, count in chunks]
    if report is not None:
        size = {ref: count for ref, (_, count) in zip(refs, chunks, strict=False)}
        pending, done = list(refs), 0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            done += sum(size[r] for r in ready)
            report(done, n)
    parts = []
    for version, cols in ray.get(refs):
        if version != _core.__version__:
            raise RuntimeError(f"a Ray worker runs daguai {version}, this process {_core.__version__}: "
                               "install the same daguai on every node")
        parts.append(cols)
    return _concat(parts)


