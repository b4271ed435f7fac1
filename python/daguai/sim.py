"""Monte Carlo rollouts and duplicate evaluation (docs/simulation.md).

:func:`simulate` plays many rounds (or matches) with a policy per seat and returns numpy
columns; :func:`evaluate` compares two policies on the same deals with the teams swapped.

Built-in policies ("random", "greedy", "heuristic") run entirely in C++ (``_core.simulate``,
threads with the GIL released). Any Python callable ``policy(game, seat) -> action`` may
take a seat too: the run then goes through the slower Python path, which drives a
:class:`~daguai.Game` step by step and gives exactly the same columns for the same seeds.

Game ``i`` of a run depends only on ``(seed, i)`` (its deals, first dealer and every
built-in policy's random stream, docs/game.md "Randomness"), so the columns are identical
for any batch size, number of threads, and for the Ray backend.
"""

from __future__ import annotations

import json
import logging
import math
import os
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Optional, Sequence, Union

import numpy as np

from . import _core
from .game import Game
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
    n = _check_int("n", n, 0, 2**32 - 1)  # game indices; memory runs out well before
    seed = _check_int("seed", seed, 0, 2**64 - 1)
    rules = _check_rules(rules)
    pols = _seat_policies(policies)
    matches = bool(matches)
    auto_pass = bool(auto_pass)
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    if threads is not None:
        threads = _check_int("threads", threads, 1, 1024)
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


# ---------------------------------------------------------------------------------------
# results


def _flat_columns(columns: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """One 1-D column per field: 2-D columns become name_0, name_1, ..."""
    out: dict[str, np.ndarray] = {}
    for name, a in columns.items():
        if a.ndim == 1:
            out[name] = a
        else:
            for j in range(a.shape[1]):
                out[f"{name}_{j}"] = a[:, j]
    return out


def _pct(k: float, n: float) -> str:
    return f"{100.0 * k / n:5.1f}%" if n else "    -"


class SimResult(Mapping):
    """Results of :func:`simulate`: a read-only mapping of column name -> numpy array.

    One row per game (index ``game``); see docs/simulation.md for every column. Attributes:
    ``seed``, ``rules``, ``policies`` (6 names, callables by ``__name__``), ``matches``,
    ``elapsed`` (seconds), ``threads``, ``backend``, ``auto_pass``, ``n`` (games).
    """

    def __init__(self, columns: Mapping[str, np.ndarray], *, seed: int, rules: Rules,
                 policies: Sequence[str], matches: bool, elapsed: float = 0.0, threads: int = 1,
                 backend: str = "local", auto_pass: bool = False) -> None:
        self._columns = dict(columns)
        for a in self._columns.values():
            a.flags.writeable = False
        self.seed = seed
        self.rules = rules
        self.policies = tuple(policies)
        self.matches = matches
        self.elapsed = float(elapsed)
        self.threads = threads
        self.backend = backend
        self.auto_pass = auto_pass

    # Mapping
    def __getitem__(self, key: str) -> np.ndarray:
        return self._columns[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._columns)

    def __len__(self) -> int:
        return len(self._columns)

    @property
    def n(self) -> int:
        """Number of games (rows)."""
        return len(self._columns["game"])

    @property
    def unit(self) -> str:
        return "matches" if self.matches else "rounds"

    def __repr__(self) -> str:
        return (f"<SimResult {self.n:,} {self.unit}, {self._matchup()}, seed {self.seed}, "
                f"{self.elapsed:.2f} s>")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimResult):
            return NotImplemented
        return (list(self) == list(other) and all(np.array_equal(self[k], other[k]) for k in self)
                and self.seed == other.seed and self.rules == other.rules
                and self.policies == other.policies and self.matches == other.matches)

    __hash__ = None  # type: ignore[assignment]

    def _matchup(self) -> str:
        a, b = self.team_policies()
        return f"{a} vs {b}"

    def team_policies(self) -> tuple[str, str]:
        """The policy names of team A and team B ('x+y' when a team mixes policies)."""
        out = []
        for t in (0, 1):
            names: list[str] = []
            for p in self.policies[t::2]:
                if p not in names:
                    names.append(p)
            out.append("+".join(names))
        return out[0], out[1]

    def positions(self) -> np.ndarray:
        """(n, 6) int8: the finishing position (1..6) of each seat (last round of a match)."""
        return (np.argsort(self["order"], axis=1, kind="stable") + 1).astype(np.int8)

    def meta(self) -> dict[str, Any]:
        return {"seed": self.seed, "rules": self.rules.to_dict(), "policies": list(self.policies),
                "matches": self.matches, "auto_pass": self.auto_pass, "engine": _core.__version__,
                "elapsed": self.elapsed}

    # ---- summary ----------------------------------------------------------------------
    def summary(self) -> str:
        """A readable table: win/draw rates per team and policy, finishing positions,
        plays and passes per round, speed."""
        n = self.n
        rounds = int(self["rounds"].sum())
        lines = []
        rules = "default rules" if self.rules == Rules() else repr(self.rules)
        speed = rounds / self.elapsed if self.elapsed > 0 else float("nan")
        head = f"{n:,} {self.unit}"
        if self.matches:
            head += f" ({rounds:,} rounds, {rounds / n if n else 0:.1f} per match)"
        backend = f"{self.threads} thread{'s' if self.threads != 1 else ''}"
        if self.backend == "ray":
            backend = f"Ray, {backend} per task"
        lines.append(f"daguai simulate: {head}, seed {self.seed}, {rules}, {backend}")
        lines.append("")
        winner = self["winner"]
        wins = [int((winner == t).sum()) for t in (0, 1)]
        draws = int((winner == -1).sum())
        pa, pb = self.team_policies()
        width = max(6, len(pa), len(pb))
        what = "match " if self.matches else ""
        lines.append(f"team  seats  {'policy':{width}s}  {what + 'wins':>10s}{'':7s}  {what + 'draws':>10s}{'':7s}  "
                     f"{what + 'losses':>10s}{'':7s}  score/seat")
        scores = self["scores"]
        for t, name in ((0, pa), (1, pb)):
            seats = " ".join(str(s) for s in range(t, 6, 2))
            score = float(scores[:, t::2].mean()) if n else 0.0
            lines.append(f"{'AB'[t]:4s}  {seats:5s}  {name:{width}s}  {wins[t]:>10,} {_pct(wins[t], n)}  "
                         f"{draws:>10,} {_pct(draws, n)}  {wins[1 - t]:>10,} {_pct(wins[1 - t], n)}  "
                         f"{score:+10.3f}")
        names = list(dict.fromkeys(self.policies))
        if pa not in names or pb not in names:  # a team mixes policies: per policy as well
            lines.append("")
            lines.append(f"{'policy':{width}s}  seats        {what + 'wins':>10s}{'':7s}  {what + 'draws':>10s}")
            for name in names:
                seats = [s for s in range(6) if self.policies[s] == name]
                won = sum(int((winner == s % 2).sum()) for s in seats)
                lines.append(f"{name:{width}s}  {' '.join(map(str, seats)):11s}  {won:>10,} "
                             f"{_pct(won, n * len(seats))}  {draws * len(seats):>10,} {_pct(draws, n)}")
        if self.matches:
            rw = self["wins"].sum(axis=0)
            rd = int(self["draws"].sum())
            lines.append("")
            lines.append(f"rounds won: A {int(rw[0]):,} {_pct(rw[0], rounds)}, B {int(rw[1]):,} "
                         f"{_pct(rw[1], rounds)}, drawn {rd:,} {_pct(rd, rounds)}")
            lv = self["levels"]
            if n:
                lines.append(f"final levels (mean rank, 0 = '2' .. 12 = 'A'): A {lv[:, 0].mean():.2f}, "
                             f"B {lv[:, 1].mean():.2f}")
        lines.append("")
        pos = self.positions()
        label = "finishing position, % (last round)" if self.matches else "finishing position, %"
        lw = max(width, len(label))
        lines.append(f"{label:{lw}s}" + "".join(f"{k:>7d}" for k in range(1, 7)))
        for name in names:
            seats = [s for s in range(6) if self.policies[s] == name]
            p = pos[:, seats].ravel()
            total = len(p)
            row = "".join(f"{(100.0 * (p == k).sum() / total if total else 0.0):7.1f}" for k in range(1, 7))
            lines.append(f"{name:{lw}s}{row}")
        lines.append("")
        if rounds:
            lines.append(f"per round: {self['plays'].sum() / rounds:.1f} plays, "
                         f"{self['passes'].sum() / rounds:.1f} passes"
                         + ("" if self.matches else f", {self['n_tributers'].mean():.2f} tributers"))
        lines.append(f"time: {self.elapsed:.2f} s, {speed:,.0f} rounds/s"
                     + (f", {n / self.elapsed:,.1f} matches/s" if self.matches and self.elapsed > 0 else ""))
        return "\n".join(lines)

    # ---- files ------------------------------------------------------------------------
    def to_npz(self, path: Union[str, os.PathLike]) -> None:
        """Compressed numpy archive: every column, plus ``_meta`` (a JSON string)."""
        np.savez_compressed(path, **self._columns, _meta=np.array(json.dumps(self.meta())))

    @classmethod
    def from_npz(cls, path: Union[str, os.PathLike]) -> "SimResult":
        """Read back a file written by :meth:`to_npz`."""
        with np.load(path, allow_pickle=False) as f:
            cols = {k: f[k] for k in f.files if k != "_meta"}
            meta = json.loads(str(f["_meta"])) if "_meta" in f.files else {}
        return cls(cols, seed=meta.get("seed", 0), rules=Rules.from_dict(meta.get("rules", {})),
                   policies=meta.get("policies", ["?"] * 6), matches=meta.get("matches", "draws" in cols),
                   elapsed=meta.get("elapsed", 0.0), auto_pass=meta.get("auto_pass", False))

    def to_csv(self, path: Union[str, os.PathLike]) -> None:
        """CSV with a header, one row per game; 2-D columns flattened (order_0 .. order_5)."""
        flat = _flat_columns(self._columns)
        names = list(flat)
        big = any(a.dtype == np.uint64 and len(a) and int(a.max()) >= 2**63 for a in flat.values())
        if big:
            mat = np.empty((self.n, len(names)), dtype=object)
            for j, a in enumerate(flat.values()):
                mat[:, j] = [int(x) for x in a]
        else:
            mat = np.column_stack([a.astype(np.int64) for a in flat.values()]) if self.n else \
                np.zeros((0, len(names)), np.int64)
        np.savetxt(path, mat, fmt="%d", delimiter=",", header=",".join(names), comments="")

    def to_parquet(self, path: Union[str, os.PathLike]) -> None:
        """Parquet (needs pyarrow): flattened columns as in :meth:`to_csv`, metadata in
        the schema under ``daguai``."""
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise ImportError("to_parquet needs pyarrow: pip install 'daguai[parquet]' "
                              "(or pip install pyarrow)") from None
        table = pa.table({k: pa.array(v) for k, v in _flat_columns(self._columns).items()})
        table = table.replace_schema_metadata({"daguai": json.dumps(self.meta())})
        pq.write_table(table, path)

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Write by extension: .npz, .csv or .parquet."""
        ext = os.path.splitext(os.fspath(path))[1].lower()
        if ext == ".npz":
            self.to_npz(path)
        elif ext == ".csv":
            self.to_csv(path)
        elif ext in (".parquet", ".pq"):
            self.to_parquet(path)
        else:
            raise ValueError(f"unknown output format {ext or os.fspath(path)!r} (use .npz, .csv or .parquet)")

    def plot(self, path: Union[str, os.PathLike]) -> None:
        """Save a figure (needs matplotlib): finishing-position histogram per policy and
        win / draw / loss bars per team."""
        try:
            from matplotlib.figure import Figure
        except ImportError:
            raise ImportError("plot needs matplotlib: pip install 'daguai[plot]' "
                              "(or pip install matplotlib)") from None
        fig = Figure(figsize=(10, 4), layout="constrained")
        ax1, ax2 = fig.subplots(1, 2, width_ratios=[3, 2])
        pos = self.positions()
        names = list(dict.fromkeys(self.policies))
        width = 0.8 / max(1, len(names))
        ks = np.arange(1, 7)
        for j, name in enumerate(names):
            seats = [s for s in range(6) if self.policies[s] == name]
            p = pos[:, seats].ravel()
            share = [100.0 * (p == k).mean() if len(p) else 0.0 for k in ks]
            ax1.bar(ks + (j - (len(names) - 1) / 2) * width, share, width, label=name)
        ax1.set_xticks(ks)
        ax1.set_xlabel("finishing position" + (" (last round)" if self.matches else ""))
        ax1.set_ylabel("% of seats")
        ax1.legend()
        ax1.set_title("finishing positions per policy")
        winner = self["winner"]
        n = max(1, self.n)
        pa, pb = self.team_policies()
        labels = [f"A ({pa})", f"B ({pb})"]
        win = np.array([(winner == t).sum() for t in (0, 1)]) * 100.0 / n
        draw = np.full(2, (winner == -1).sum() * 100.0 / n)
        loss = 100.0 - win - draw
        ax2.bar(labels, win, label="win", color="tab:green")
        ax2.bar(labels, draw, bottom=win, label="draw", color="tab:gray")
        ax2.bar(labels, loss, bottom=win + draw, label="loss", color="tab:red")
        ax2.set_ylabel(f"% of {self.unit}")
        ax2.set_ylim(0, 100)
        ax2.legend()
        ax2.set_title(f"{self.n:,} {self.unit}, seed {self.seed}")
        fig.savefig(path)


# ---------------------------------------------------------------------------------------
# duplicate evaluation


def _ci(values: np.ndarray) -> tuple[float, float, float]:
    """Mean and 95% normal interval mean ± 1.96·sd/√n (sd with n-1)."""
    n = len(values)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(values.mean())
    if n < 2:
        return mean, float("nan"), float("nan")
    half = 1.96 * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


@dataclass(frozen=True, eq=False)
class EvalResult:
    """Result of :func:`evaluate` (duplicate evaluation of A against B).

    Rates are over all ``2 * n_deals`` games, from A's side. ``score_diff`` is A's per-seat
    score minus B's per-seat score in a game; the confidence intervals are 95% normal
    intervals over the ``n_deals`` per-deal values (the mean of the deal's two games).
    """

    policy_a: str
    policy_b: str
    n_deals: int
    seed: int
    matches: bool
    rules: Rules
    wins: int
    draws: int
    losses: int
    win_rate: float
    draw_rate: float
    loss_rate: float
    net_win_rate: float
    net_win_ci: tuple[float, float]
    mean_score_diff: float
    score_diff_ci: tuple[float, float]
    elapsed: float
    deal_net_win: np.ndarray = field(repr=False)
    deal_score_diff: np.ndarray = field(repr=False)
    results: tuple[SimResult, SimResult] = field(repr=False)

    @property
    def games(self) -> int:
        return 2 * self.n_deals

    def summary(self) -> str:
        unit = "matches" if self.matches else "rounds"
        rules = "default rules" if self.rules == Rules() else repr(self.rules)
        g = self.games
        lo, hi = self.net_win_ci
        slo, shi = self.score_diff_ci
        return "\n".join([
            f"daguai evaluate: {self.policy_a} (A) vs {self.policy_b} (B), {self.n_deals:,} deals x 2 "
            f"seatings = {g:,} {unit}, seed {self.seed}, {rules}",
            "",
            f"A wins    {self.wins:>9,}  {_pct(self.wins, g)}",
            f"draws     {self.draws:>9,}  {_pct(self.draws, g)}",
            f"A losses  {self.losses:>9,}  {_pct(self.losses, g)}",
            "",
            f"A win rate - loss rate     {self.net_win_rate:+8.4f}   95% CI [{lo:+.4f}, {hi:+.4f}]",
            f"mean score difference      {self.mean_score_diff:+8.4f}   95% CI [{slo:+.4f}, {shi:+.4f}]"
            "   (A per seat - B per seat, per game)",
            "(intervals over the deals: mean ± 1.96·sd/√n of the per-deal means of the two seatings)",
            f"time: {self.elapsed:.2f} s",
        ])


def evaluate(policy_a: PolicyLike, policy_b: PolicyLike, n_deals: int = 1000, *, seed: int = 0,
             rules: Optional[Rules] = None, matches: bool = False, threads: Optional[int] = None,
             backend: str = "local", ray_address: Optional[str] = None, progress: ProgressLike = None,
             auto_pass: bool = False) -> EvalResult:
    """Duplicate evaluation of ``policy_a`` against ``policy_b``.

    Deal ``i`` (game index ``i`` of ``seed``) is played twice: A on the even seats and B on
    the odd seats, then B on the even seats and A on the odd seats. Deals depend only on
    ``(seed, i)``, so both seatings get the same cards (and the same first dealer), which
    cancels most of the luck of the deal. See :class:`EvalResult` for the figures.
    """
    pa, pb = _check_policy(policy_a), _check_policy(policy_b)
    n_deals = _check_int("n_deals", n_deals, 1, 2**32 - 1)
    report = _progress_callback(progress, "matches" if matches else "rounds")
    kw: dict[str, Any] = dict(seed=seed, rules=rules, matches=matches, threads=threads,
                              backend=backend, ray_address=ray_address, auto_pass=auto_pass)
    start = time.perf_counter()
    first = simulate(n_deals, (pa, pb), progress=None if report is None else
                     (lambda d, t: report(d, 2 * t)), **kw)
    second = simulate(n_deals, (pb, pa), progress=None if report is None else
                      (lambda d, t: report(t + d, 2 * t)), **kw)
    elapsed = time.perf_counter() - start
    w1, w2 = first["winner"].astype(np.int64), second["winner"].astype(np.int64)
    net1 = (w1 == 0).astype(np.float64) - (w1 == 1)   # A is team 0 in the first seating
    net2 = (w2 == 1).astype(np.float64) - (w2 == 0)   # A is team 1 in the second
    s1, s2 = first["scores"].astype(np.float64), second["scores"].astype(np.float64)
    diff1 = s1[:, 0::2].mean(axis=1) - s1[:, 1::2].mean(axis=1)
    diff2 = s2[:, 1::2].mean(axis=1) - s2[:, 0::2].mean(axis=1)
    deal_net = (net1 + net2) / 2
    deal_diff = (diff1 + diff2) / 2
    wins = int((w1 == 0).sum() + (w2 == 1).sum())
    losses = int((w1 == 1).sum() + (w2 == 0).sum())
    draws = 2 * n_deals - wins - losses
    net, nlo, nhi = _ci(deal_net)
    sd, slo, shi = _ci(deal_diff)
    g = 2 * n_deals
    return EvalResult(
        policy_a=_policy_name(pa), policy_b=_policy_name(pb), n_deals=n_deals, seed=first.seed,
        matches=bool(matches), rules=first.rules, wins=wins, draws=draws, losses=losses,
        win_rate=wins / g, draw_rate=draws / g, loss_rate=losses / g,
        net_win_rate=net, net_win_ci=(nlo, nhi), mean_score_diff=sd, score_diff_ci=(slo, shi),
        elapsed=elapsed, deal_net_win=deal_net, deal_score_diff=deal_diff, results=(first, second))
