"""Monte Carlo rollouts (docs/simulation.md): running the games.

:func:`simulate` plays many rounds (or matches) with a policy per seat and returns numpy
columns (:class:`~daguai.results.SimResult`, in ``results.py``); :func:`evaluate` (in
``evaluation.py``, re-exported here) compares two policies on the same deals with the teams
swapped.

Built-in policies ("random", "greedy", "heuristic") run entirely in C++ (``_core.simulate``,
threads with the GIL released). Any Python callable ``policy(game, seat) -> action`` may
take a seat too: the run then goes through the slower Python path, which drives a
:class:`~daguai.Game` step by step and gives exactly the same columns for the same seeds.

Game ``i`` of a run depends only on ``(seed, i)`` (its deals, first dealer and every
built-in policy's random stream, docs/game.md "Randomness"), so the columns are identical
for any batch size, number of threads, and for the Ray backend.
"""

from __future__ import annotations

import logging
import math
import os
import sys
import time
from collections.abc import Mapping
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from . import _core
from .game import Game
from .results import SimResult
from .rules import LEVELS, Rules

__all__ = ["simulate", "evaluate", "SimResult", "EvalResult", "POLICIES", "ProgressBar"]

#: The built-in policies (cpp/engine/policy.hpp).
POLICIES = ("random", "greedy", "heuristic")

#: Safety net of the match mode: a match stops after this many rounds (as in C++).
MAX_ROUNDS_PER_MATCH = 10_000

_ROUND_COLUMNS = ("seed", "game", "dealer", "level", "order", "winner", "n_tributers",
                  "tributers", "levels", "scores", "plays", "passes", "rounds")
_MATCH_COLUMNS = _ROUND_COLUMNS + ("draws", "wins")

PolicyLike = Union[str, Callable[[Game, int], Any]]
ProgressLike = Union[None, bool, Callable[[int, int], Any]]


# ---------------------------------------------------------------------------------------
# argument checks


def _policy_name(p: PolicyLike) -> str:
    if isinstance(p, str):
        return p
    return getattr(p, "__name__", None) or type(p).__name__


def _check_policy(p: Any) -> PolicyLike:
    if isinstance(p, str):
        name = p.strip().lower()
        if name not in POLICIES:
            raise ValueError(f"unknown policy {p!r} (choose {', '.join(POLICIES)})")
        return name
    if callable(p):
        return p
    raise ValueError(f"a policy is a name ({', '.join(POLICIES)}) or a callable "
                     f"policy(game, seat) -> action, got {type(p).__name__}")


def _seat_policies(policies: Any) -> list[PolicyLike]:
    """2 policies (team A = even seats, team B = odd seats), 6 (per seat) or 1 (all)."""
    if isinstance(policies, str) or callable(policies):
        policies = [policies]
    try:
        seq = list(policies)
    except TypeError:
        raise ValueError("policies: give 2 (team A = even seats, team B = odd seats) or 6 "
                         f"(one per seat), got {type(policies).__name__}") from None
    if len(seq) == 1:
        seq = seq * 6
    elif len(seq) == 2:
        seq = seq * 3
    elif len(seq) != 6:
        raise ValueError("policies: give 2 (team A = even seats, team B = odd seats) or 6 "
                         f"(one per seat), got {len(seq)}")
    return [_check_policy(p) for p in seq]


def _check_rules(rules: Any) -> Rules:
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, Mapping):
        return Rules.from_dict(rules)
    raise ValueError(f"rules must be a daguai.Rules (or a dict of rules), got {type(rules).__name__}")


def _check_int(name: str, value: Any, lowest: int, highest: Optional[int] = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < lowest or (highest is not None and value > highest):
        bound = f">= {lowest}" if highest is None else f"in [{lowest}, {highest}]"
        raise ValueError(f"{name} must be {bound}, got {value}")
    return value


# ---------------------------------------------------------------------------------------
# the two engines: C++ (all built-in) and Python (any callable)


def _run_fast(rules: Rules, seed: int, first: int, count: int, policies: Sequence[str],
              matches: bool, threads: int, auto_pass: bool) -> dict[str, np.ndarray]:
    return dict(_core.simulate(rules._core, seed, count, list(policies), matches, first,
                               threads, auto_pass))


def _empty_columns(count: int, matches: bool) -> dict[str, np.ndarray]:
    cols = {
        "game": np.zeros(count, np.uint64),
        "dealer": np.zeros(count, np.int8),
        "level": np.zeros(count, np.int8),
        "order": np.zeros((count, 6), np.int8),
        "winner": np.zeros(count, np.int8),
        "n_tributers": np.zeros(count, np.int8),
        "tributers": np.zeros((count, 3), np.int8),
        "levels": np.zeros((count, 2), np.int8),
        "scores": np.zeros((count, 6), np.int32),
        "plays": np.zeros(count, np.int32),
        "passes": np.zeros(count, np.int32),
        "rounds": np.zeros(count, np.int32),
    }
    if matches:
        cols["draws"] = np.zeros(count, np.int32)
        cols["wins"] = np.zeros((count, 2), np.int32)
    return cols


def play_game(seed: int, game: int, policies: Sequence[PolicyLike], *, rules: Optional[Rules] = None,
              matches: bool = False, auto_pass: bool = False) -> tuple[Game, int, int]:
    """Play game ``game`` of a run from Python, decision by decision (the slow path).

    Built-in seats are driven by ``_core.PolicyRunner(name, seed, game, seat)`` (the same
    random stream as in C++), callables are called as ``policy(game, seat)``. Stops after
    the first round, or at the end of the match with ``matches=True``. Returns the game and
    the numbers of plays and passes decided (forced passes applied by ``auto_pass`` are not
    decisions, as in C++).
    """
    rules = _check_rules(rules)
    g = Game(seed, rules, game=game, auto_pass=auto_pass, record=False)
    plays, passes = _play(g, _seat_policies(policies), matches)
    return g, plays, passes


def _play(g: Game, pols: Sequence[PolicyLike], matches: bool) -> tuple[int, int]:
    seed, game = g.seed, g.game_index
    runners = [None if callable(p) else _core.PolicyRunner(p, seed, game, s) for s, p in enumerate(pols)]
    limit = MAX_ROUNDS_PER_MATCH if matches else 1
    plays = passes = 0
    while not g.match_over and g.n_results < limit:
        seat = g.current_player
        runner = runners[seat]
        if runner is not None:
            action = runner.act(g)
            g.step(action)
        else:
            choice = pols[seat](g, seat)
            try:
                action = g.to_action(choice)
                g.step(action)
            except ValueError as exc:
                raise type(exc)(f"policy {_policy_name(pols[seat])!r} (seat {seat}, game {game}) "
                                f"chose {choice!r}: {exc}") from None
        kind = action.type
        plays += kind == "play"
        passes += kind == "pass"
    return plays, passes


def _run_slow(rules: Rules, seed: int, first: int, count: int, policies: Sequence[PolicyLike],
              matches: bool, auto_pass: bool) -> dict[str, np.ndarray]:
    cols = _empty_columns(count, matches)
    level_rank = {text: i for i, text in enumerate(LEVELS)}
    for j in range(count):
        i = first + j
        g = Game(seed, rules, game=i, auto_pass=auto_pass, record=False)
        dealer, level = g.dealer, level_rank[g.level]
        plays, passes = _play(g, policies, matches)
        last = g.result(-1)
        cols["game"][j] = i
        cols["dealer"][j] = dealer
        cols["level"][j] = level
        cols["order"][j] = last["order"]
        if matches:
            mw = last["match_winner"] if last["match_over"] else None
            cols["winner"][j] = -1 if mw is None else mw
        else:
            cols["winner"][j] = -1 if last["winner"] is None else last["winner"]
        trib = last["tributers"]
        cols["n_tributers"][j] = len(trib)
        cols["tributers"][j] = list(trib) + [-1] * (3 - len(trib))
        cols["levels"][j] = [level_rank[x] for x in g.levels]
        cols["scores"][j] = g.scores
        cols["plays"][j] = plays
        cols["passes"][j] = passes
        cols["rounds"][j] = g.n_results
        if matches:
            results = [r for r in g.results if r["forfeit"] is None]
            cols["draws"][j] = sum(r["winner"] is None for r in results)
            cols["wins"][j] = [sum(r["winner"] == t for r in results) for t in (0, 1)]
    return cols


def _run_range(rules: Rules, seed: int, first: int, count: int, policies: Sequence[PolicyLike],
               matches: bool, threads: int, auto_pass: bool) -> dict[str, np.ndarray]:
    if all(isinstance(p, str) for p in policies):
        return _run_fast(rules, seed, first, count, policies, matches, threads, auto_pass)  # type: ignore[arg-type]
    return _run_slow(rules, seed, first, count, policies, matches, auto_pass)


def _ray_task(rules: Rules, seed: int, first: int, count: int, policies: Sequence[PolicyLike],
              matches: bool, threads: int, auto_pass: bool) -> tuple[str, dict[str, np.ndarray]]:
    return _core.__version__, _run_range(rules, seed, first, count, policies, matches, threads, auto_pass)


# ---------------------------------------------------------------------------------------
# progress


class ProgressBar:
    """A plain progress bar on stderr (no dependency): ``bar(done, total)``."""

    def __init__(self, unit: str = "games", stream: Any = None, width: int = 30,
                 min_interval: float = 0.1) -> None:
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.min_interval = min_interval
        self._start = time.perf_counter()
        self._last = -math.inf
        self._closed = False

    def __call__(self, done: int, total: int) -> None:
        if self._closed:
            return
        now = time.perf_counter()
        finished = done >= total
        if not finished and now - self._last < self.min_interval:
            return
        self._last = now
        frac = 1.0 if total <= 0 else min(1.0, done / total)
        fill = int(round(frac * self.width))
        elapsed = now - self._start
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else float("nan")
        tail = f"{elapsed:5.1f} s" if finished else (f"ETA {eta:5.1f} s" if eta == eta else "ETA   ?  ")
        line = (f"\r[{'#' * fill}{'.' * (self.width - fill)}] {frac * 100:5.1f}%  "
                f"{done:,}/{total:,} {self.unit}  {rate:,.0f}/s  {tail}")
        self.stream.write(line)
        if finished:
            self.stream.write("\n")
            self._closed = True
        self.stream.flush()


def _progress_callback(progress: ProgressLike, unit: str) -> Optional[Callable[[int, int], Any]]:
    if progress is None or progress is False:
        return None
    if progress is True:
        return ProgressBar(unit)
    if callable(progress):
        return progress
    raise ValueError(f"progress must be None, True/False or a callable(done, total), got {progress!r}")


# ---------------------------------------------------------------------------------------
# simulate


def simulate(n: int = 10_000, policies: Sequence[PolicyLike] = ("heuristic", "random"), *,
             seed: int = 0, rules: Optional[Rules] = None, matches: bool = False,
             threads: Optional[int] = None, batch: Optional[int] = None, backend: str = "local",
             ray_address: Optional[str] = None, progress: ProgressLike = None,
             auto_pass: bool = False) -> "SimResult":
    """Play ``n`` rounds (or matches) and return their results as numpy columns.

    Parameters
    ----------
    n : int
        Number of games: game indices ``0 .. n-1``. A game is one round (the first round of
        a match from ``seed``/game index), or a whole match with ``matches=True``.
    policies : sequence
        2 policies (team A = seats 0, 2, 4; team B = seats 1, 3, 5) or 6 (one per seat).
        Each is a built-in name (``"random"``, ``"greedy"``, ``"heuristic"``) or a callable
        ``policy(game: Game, seat: int) -> action`` (anything ``Game.step`` accepts). With
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

    Returns
    -------
    SimResult
        A read-only mapping of column name to numpy array, one row per game.
    """
    n = _check_int("n", n, 0)
    seed = _check_int("seed", seed, 0, 2**64 - 1)
    rules = _check_rules(rules)
    pols = _seat_policies(policies)
    matches = bool(matches)
    auto_pass = bool(auto_pass)
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    if threads is not None:
        threads = _check_int("threads", threads, 1)
    if batch is not None:
        batch = _check_int("batch", batch, 1)
    report = _progress_callback(progress, "matches" if matches else "rounds")
    fast = all(isinstance(p, str) for p in pols)

    if backend == "ray":
        _ray_init(ray_address)  # before the clock: starting Ray is not simulation time
    start = time.perf_counter()
    if backend == "ray":
        threads = threads or 1
        cols = _simulate_ray(rules, seed, n, pols, matches, threads, batch, auto_pass, ray_address, report)
    else:
        threads = threads or os.cpu_count() or 1
        if batch is None:
            if report is None:
                batch = max(n, 1)
            elif fast:
                batch = max(64 * threads, math.ceil(n / 100))
            else:
                batch = max(1, math.ceil(n / 100))
        parts = []
        for first in range(0, max(n, 1), batch):
            count = min(batch, n - first)
            parts.append(_run_range(rules, seed, first, count, pols, matches, threads, auto_pass))
            if report is not None:
                report(first + count, n)
        cols = _concat(parts)
    elapsed = time.perf_counter() - start
    columns = {"seed": np.full(n, seed, dtype=np.uint64), **cols}
    return SimResult(columns, seed=seed, rules=rules, policies=tuple(_policy_name(p) for p in pols),
                     matches=matches, elapsed=elapsed, threads=threads if fast else 1,
                     backend=backend, auto_pass=auto_pass)


def _concat(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    if len(parts) == 1:
        return parts[0]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


_ray_remote: Any = None


def _ray_init(address: Optional[str]) -> Any:
    """Import Ray and connect: to ``address``, else (not yet initialized) a local instance."""
    try:
        import ray
    except ImportError:
        raise ImportError("backend='ray' needs Ray: pip install 'daguai[ray]' (or pip install ray)") from None
    if not ray.is_initialized():
        if address is None and not os.environ.get("RAY_ADDRESS"):
            ray.init(include_dashboard=False, logging_level=logging.WARNING)
        else:
            ray.init(address=address, logging_level=logging.WARNING)
    return ray


def _simulate_ray(rules: Rules, seed: int, n: int, pols: list[PolicyLike], matches: bool, threads: int,
                  batch: Optional[int], auto_pass: bool, address: Optional[str],
                  report: Optional[Callable[[int, int], Any]]) -> dict[str, np.ndarray]:
    global _ray_remote
    ray = _ray_init(address)
    if _ray_remote is None:
        _ray_remote = ray.remote(_ray_task)
    if batch is None:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        batch = math.ceil(n / (4 * max(1, cpus // threads)))
        if all(isinstance(p, str) for p in pols):
            batch = max(batch, 256)
        batch = max(batch, 1)
    chunks = [(first, min(batch, n - first)) for first in range(0, max(n, 1), batch)]
    task = _ray_remote.options(num_cpus=threads)
    refs = [task.remote(rules, seed, first, count, pols, matches, threads, auto_pass)
            for first, count in chunks]
    if report is not None:
        size = {ref: count for ref, (_, count) in zip(refs, chunks)}
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


# re-exported: ``from daguai.sim import evaluate, EvalResult`` keeps working
from .evaluation import EvalResult, evaluate
