"""Hand analysis (配牌 / 手数): thin wrappers over the C++ core."""

from __future__ import annotations

from collections.abc import Iterable

from . import _core
from ._core.core import Hand
from ._core.plays import Play
from .plays import _rules
from .rules import Rules

__all__ = ["min_plays"]

CardsLike = Hand | str | Iterable[str]


def min_plays(hand: CardsLike, level: str = "2",
              rules: Rules | None = None) -> tuple[int, list[Play]]:
    """The fewest legal plays that together empty ``hand`` (配牌 / 手数), exactly.

    Each play is one a leader could make (R5-R7): a single, pair, triple or five-card play,
    with jokers wild in plays of 2, 3 and 5 cards (R6), joker-only plays included. The
    answer depends on ``rules.wrap_straights`` (which five-card sets are straights); the
    returned plays are classified at ``level`` under ``rules`` as :func:`classify` would.

    Parameters
    ----------
    hand : Hand, str or iterable of str
        The cards, e.g. ``"3s 4h 5d 6c 7s 9h 9d"``. An empty hand needs 0 plays.
    level : str
        The level rank L (``"2"`` … ``"A"``; ``"10"`` = ``"T"``). It does not change the
        count, only how the plays are classified.
    rules : Rules, optional
        Default :class:`Rules()`.

    Returns
    -------
    count : int
        The minimum number of plays.
    plays : list of Play
        One partition achieving it: ``len(plays) == count`` and the plays' cards add up to
        ``hand``. Which optimal partition is returned is deterministic but unspecified.

    Examples
    --------
    >>> count, plays = min_plays("3s 3h 3d 4s 4h 9c")
    >>> count, [p.kind.name for p in plays]
    (2, ['FULL_HOUSE', 'SINGLE'])
    """
    return _core.plays.min_plays(hand, level, _rules(rules))
