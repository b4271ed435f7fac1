"""Hidden information (issue 9): views, determinized worlds.

A *view* (``Game.view(seat)``, C++ ``InfoState``) is what one seat may know (R16). The
sampler deals the cards the seat has not seen so that every world is consistent with
the view: known cards in place, refusals and forced passes honoured exactly (rejection).
See docs/search.md.
"""

from __future__ import annotations

from typing import Any

from . import _core
from .game import Game

__all__ = ["sample_worlds"]


def _check_int(x: Any, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise ValueError(f"{what} must be an integer, got {x!r}")
    return x


def sample_worlds(view: "_core.InfoState", n: int, seed: int = 0) -> list[Game]:
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
        g = Game.__new__(Game)
        _core.GameState.__init__(g, state)
        g._rules = rules
        g._origin = None
        out.append(g)
    return out
