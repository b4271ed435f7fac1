"""Hidden information (issue 9): views, determinized worlds.

A *view* (``Game.view(seat)``, C++ ``InfoState``) is what one seat may know (R16). The
sampler deals the cards the seat has not seen so that every world is consistent with
the view: known cards in place, refusals and forced passes honoured exactly (rejection).
See docs/search.md.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import _core
from .game import Game
from .positions import PositionError, fill_hidden_hands

__all__ = ["Analysis", "Candidate", "analyze", "sample_worlds"]


def _check_int(x: Any, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise ValueError(f"{what} must be an integer, got {x!r}")
    return x


def sample_worlds(view: _core.InfoState, n: int, seed: int = 0) -> list[Game]:
    """``n`` complete games consistent with what ``view``'s seat knows.

    The hidden cards are dealt uniformly over their physical assignments (as a random deal
    would, given the view), and assignments that contradict the view (a refusal's jokers,
    a forced pass that could have been a play) are rejected, so the worlds follow the
    exact conditional distribution. World ``k`` depends only on ``(view, seed, k)``
    (R17: ``Rng.stream(seed, 0, kSample, k)``). Worlds keep no log (``record=False``); their
    later rounds are dealt from ``(seed, game=k)``.

    Raises ``ValueError`` for ``n <= 0``, a view that is not an ``InfoState``, a finished
    match, or constraints too tight to sample by rejection.
    """
    if not isinstance(view, _core.InfoState):
        raise ValueError(f"sample_worlds needs a view (Game.view(seat)), got {type(view).__name__}")
    n = _check_int(n, "n")
    seed = _check_int(seed, "seed")
    if n <= 0:
        raise ValueError(f"sample_worlds: n must be >= 1, got {n}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be in [0, 2**64), got {seed}")
    rules = getattr(view, "rules", None)
    out = []
    for state in _core.sample_worlds(view, n, seed):
        out.append(Game._of(state, rules))
    return out


# ---------------------------------------------------------------------------------------
# analysis: every candidate of the seat to act over sampled worlds


_Z95 = 1.959963984540054


def _wilson(k: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion k / n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + _Z95 ** 2 / n
    c = (p + _Z95 ** 2 / (2 * n)) / d
    h = _Z95 * math.sqrt(p * (1 - p) / n + _Z95 ** 2 / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


@dataclass(frozen=True)
class Candidate:
    """One candidate action and its estimated outcome for the acting seat's team."""
    action: str
    n: int
    wins: int
    draws: int
    losses: int

    @property
    def win(self) -> float:
        return self.wins / self.n if self.n else 0.0

    @property
    def draw(self) -> float:
        return self.draws / self.n if self.n else 0.0

    @property
    def lose(self) -> float:
        return self.losses / self.n if self.n else 0.0

    @property
    def score(self) -> float:
        """Mean of win +1 / draw 0 / loss -1."""
        return (self.wins - self.losses) / self.n if self.n else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "n": self.n, "win": self.win, "draw": self.draw, "lose": self.lose,
                "win_ci": list(_wilson(self.wins, self.n)), "draw_ci": list(_wilson(self.draws, self.n)),
                "lose_ci": list(_wilson(self.losses, self.n)), "score": self.score}


@dataclass(frozen=True)
class Analysis:
    """Result of :func:`analyze`: the candidates, best first."""
    seat: int
    phase: str
    worlds: int
    policy: str
    seed: int
    candidates: list[Candidate] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "phase": self.phase, "worlds": self.worlds, "policy": self.policy,
                "seed": self.seed, "candidates": [c.to_dict() for c in self.candidates]}

    def __str__(self) -> str:
        """The table as plain text (``print(analysis)``)."""
        from .results import render_text
        return render_text([self.table()])

    def table(self) -> Any:
        """A rich Table of the candidates."""
        from rich import box
        from rich.table import Table
        t = Table(title=f"seat {self.seat} to act ({self.phase}): {self.worlds} worlds, "
                        f"rollouts by {self.policy}, seed {self.seed}", box=box.SIMPLE)
        for col in ("action", "win", "draw", "lose", "score"):
            t.add_column(col, justify="left" if col == "action" else "right")
        for c in self.candidates:
            cells = [c.action]
            for k, p in ((c.wins, c.win), (c.draws, c.draw), (c.losses, c.lose)):
                lo, hi = _wilson(k, c.n)
                cells.append(f"{p:.2f} [{lo:.2f}, {hi:.2f}]")
            cells.append(f"{c.score:+.3f}")
            t.add_row(*cells)
        return t


def _game_of(source: Any, upto: int | None) -> Game:
    if isinstance(source, Game):
        if upto is not None:
            raise ValueError("upto is for a record, not a Game")
        return source
    if upto is not None:
        return Game.from_record(source, upto=upto)
    if isinstance(source, (str, bytes)):
        text = source.decode() if isinstance(source, bytes) else source
        first = text.lstrip()[:200]
        if first.startswith("{") and '"record"' in first.split("\n", 1)[0]:
            return Game.from_record(text)
        try:
            source = json.loads(text)
        except ValueError as exc:
            raise PositionError(f"inconsistent position: not JSON ({exc})") from None
    if isinstance(source, Mapping):
        doc = dict(source)
        if isinstance(doc.get("hands"), list) and None in doc["hands"]:
            # a hand with a public history: the unknown hands are filled consistently (the
            # analysis re-deals them from the seat's view anyway)
            doc = fill_hidden_hands(doc)
        return Game.from_position(doc)
    raise ValueError(f"analyze needs a Game, a position (dict or JSON) or a record with upto=N, "
                     f"got {type(source).__name__}")


def analyze(source: Any, *, upto: int | None = None, worlds: int = 200, policy: str = "heuristic",
            seed: int = 0, threads: int = 1, progress: Any = None) -> Analysis:
    """Every candidate action of the seat to act, with its team's estimated probability of
    winning, drawing and losing the round, over ``worlds`` sampled worlds (each candidate is
    played in every world, then every seat follows ``policy`` to the end of the round).

    ``source``: a Game, a position (dict or JSON text, docs/records.md), or a record (text)
    with ``upto`` = a line number. A position may give only the acting seat's hand (the
    others ``null``): "a hand with a public history" (:func:`fill_hidden_hands`). The analysis
    uses only what the seat to act may know (its view; R16): the other hands of the position
    are re-dealt in every world.
    Deterministic for a seed (any ``threads``). ``progress``: True for a rich progress bar.
    Raises ``ValueError`` on bad input.
    """
    if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds <= 0:
        raise ValueError(f"worlds must be a positive integer, got {worlds!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or threads <= 0:
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    rollout_policies = [p for p in _core.policy_names() if not p.startswith("pimc")]
    if isinstance(policy, str) and policy.endswith(".dgn"):  # a model rolls out too
        _core.policy_id(policy)
    elif not isinstance(policy, str) or policy not in rollout_policies:
        raise ValueError(f"rollout policy must be one of {', '.join(rollout_policies)}, got {policy!r}")
    g = _game_of(source, upto)
    if g.match_over:
        raise ValueError("the match is over: nothing to analyze")
    seat = g.current_player
    assert seat is not None
    chunk = max(1, min(worlds, 25))
    chunks = [(i, min(chunk, worlds - i)) for i in range(0, worlds, chunk)]
    totals: list[list[int]] | None = None
    actions: list[Any] = []

    def run(k: int, size: int) -> None:
        nonlocal totals, actions
        # chunk k: its own seed stream, so the result is the same however it is split in time
        rows, _, _ = _core._search(g, size * 1000, size, size, 0.0, threads, policy, seed * 1_000_003 + k)
        if totals is None:
            totals = [[0, 0, 0, 0] for _ in rows]
            actions = [r[0] for r in rows]
        for t, (_, n, w, d, lo) in zip(totals, rows, strict=False):
            t[0] += n
            t[1] += w
            t[2] += d
            t[3] += lo

    if progress:
        from rich.progress import Progress
        with Progress(transient=True) as bar:
            task = bar.add_task("analyzing", total=worlds)
            for k, (_, size) in enumerate(chunks):
                run(k, size)
                bar.advance(task, size)
    else:
        for k, (_, size) in enumerate(chunks):
            run(k, size)
    assert totals is not None
    n_legal = len(actions)
    if n_legal == 1:  # a single legal action: no search, reported as certain to be played
        cands = [Candidate(str(actions[0]), 0, 0, 0, 0)]
    else:
        cands = [Candidate(str(a), *t) for a, t in zip(actions, totals, strict=False)]
        cands.sort(key=lambda c: -c.score)
    return Analysis(seat=seat, phase=g.phase, worlds=worlds if n_legal > 1 else 0, policy=policy, seed=seed,
                    candidates=cands)
