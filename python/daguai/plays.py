"""Classification, comparison and legal plays (R5-R8): thin wrappers over the C++ core."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

import numpy as np

from . import _core
from ._core.core import CardError, Hand, Rng
from ._core.plays import Play
from .rules import Rules

__all__ = [
    "FAMILIES", "LegalPlays", "Rng", "beats", "beats_many", "check_play", "classify", "classify_many",
    "compare", "count_plays", "count_plays_by_family", "interpretations",
    "legal_plays", "legal_plays_array", "play_at", "play_counts", "plays_from_array", "plays_to_array",
    "sample_play",
]

CardsLike = Hand | str | Iterable[str]
PlayLike = Play | Hand | str | Iterable[str]

_DEFAULT = Rules()


def _rules(rules: Rules | None) -> object:
    if rules is None:
        return _DEFAULT._core
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a daguai.Rules, got {type(rules).__name__}")
    return rules._core


def _level(level: str | None, *plays: object) -> str:
    """The level to use: the given one, else the level of the first Play argument, else '2'."""
    if level is not None:
        return level
    for p in plays:
        if isinstance(p, Play):
            return p.level
    return "2"


def classify(cards: CardsLike, level: str = "2", rules: Rules | None = None,
             jokers_as: CardsLike | None = None) -> Play | None:
    """Classify cards as a play (R5-R7), or return None if they form no play.

    Parameters
    ----------
    cards : Hand, str or iterable of str
        The cards, e.g. ``"3h 4s 5d 6c SJ"``.
    level : str
        The level rank L (``"2"`` … ``"A"``; ``"10"`` = ``"T"``).
    rules : Rules, optional
        Under ``wild="declare"`` the result is the interpretation ``"high"`` picks, unless
        ``jokers_as`` names the faces the jokers stand for.
    jokers_as : cards, optional
        ``wild="declare"`` only: one natural face per joker, e.g. ``"7c"``.
    """
    return _core.plays.classify(cards, level, _rules(rules), jokers_as)


def interpretations(cards: CardsLike, level: str = "2",
                    rules: Rules | None = None) -> list[Play]:
    """Every interpretation (R6) the cards can form, in increasing key order."""
    return _core.plays.interpretations(cards, level, _rules(rules))


def beats(a: PlayLike, b: PlayLike, level: str | None = None,
          rules: Rules | None = None) -> bool:
    """R7: whether ``a`` beats ``b``.

    ``a`` and ``b`` are Plays or card text (classified at ``level`` under ``rules``). Plays of
    different sizes never beat each other, so the answer is then ``False``; use
    :func:`compare` for an ordering, which raises there. Text that is no play raises
    ``ValueError``. ``level`` defaults to the Plays' own level (else ``"2"``); a Play
    classified at another level raises ``ValueError``.
    """
    return _core.plays.beats(a, b, _level(level, a, b), _rules(rules))


def compare(a: PlayLike, b: PlayLike, level: str | None = None,
            rules: Rules | None = None) -> int:
    """Three-way R7 comparison of plays of equal size: 1 (a higher), 0 (tie), -1.

    Raises ``ValueError`` for plays of different sizes (no order exists between them).
    """
    return _core.plays.compare(a, b, _level(level, a, b), _rules(rules))


def check_play(hand: CardsLike, play: PlayLike, level: str | None = None,
               top: PlayLike | None = None, rules: Rules | None = None) -> Play:
    """Validate a play a player wants to make from ``hand`` and return it as a Play.

    Raises :class:`CardError` (a ``ValueError``) naming the cards that are not in the hand,
    and :class:`IllegalPlayError` (a ``ValueError``) if the play's interpretation is not
    allowed under ``rules`` or it does not beat ``top`` (R7). ``play`` may be card text,
    classified at ``level`` (default: the Play's own level, else ``"2"``).
    """
    return _core.plays.check_play(hand, play, _level(level, play, top), top, _rules(rules))


class LegalPlays(Sequence[Play]):
    """The legal plays of one position, as a read-only sequence whose :class:`Play` objects are
    created only when touched.

    The plays live in a numpy array of dtype :data:`PLAY_DTYPE` filled by C++; ``len`` reads
    its length, an index builds one Play, a slice gives another lazy ``LegalPlays``, and
    iteration, ``==`` with a list, ``in`` and ``repr`` build every Play once (then cached).
    ``numpy.asarray(plays)`` and :meth:`array` give the rows themselves, without Play objects.
    Equality holds with lists and tuples of the same plays in the same order.
    """

    __slots__ = ("_rows", "_plays")

    def __init__(self, rows: np.ndarray) -> None:
        self._rows = rows
        self._plays: list[Play] | None = None

    def __len__(self) -> int:
        return len(self._rows)

    def _all(self) -> list[Play]:
        if self._plays is None:
            self._plays = _core.plays.plays_from_array(np.ascontiguousarray(self._rows))
        return self._plays

    @overload
    def __getitem__(self, i: int) -> Play: ...

    @overload
    def __getitem__(self, i: slice) -> LegalPlays: ...

    def __getitem__(self, i: int | slice) -> Play | LegalPlays:
        if isinstance(i, slice):
            return LegalPlays(self._rows[i])
        if isinstance(i, bool) or not hasattr(i, "__index__"):
            raise IndexError(f"a play index is an integer or a slice, got {type(i).__name__}")
        if self._plays is not None:
            return self._plays[i]
        n = len(self._rows)
        k = i.__index__()
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError(f"play index {i} out of range ({n} plays)")
        return _core.plays.plays_from_array(self._rows[k:k + 1])[0]

    def __iter__(self) -> Iterator[Play]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalPlays):
            return len(self) == len(other) and bool(np.array_equal(self._rows, other._rows))
        if isinstance(other, (list, tuple)):
            return self._all() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable cache, equal to lists: unhashable

    def __repr__(self) -> str:
        return f"LegalPlays({self._all()!r})"

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        rows = self._rows if dtype is None else self._rows.astype(dtype)
        return rows.copy() if copy else rows

    def array(self) -> np.ndarray:
        """The plays as PLAY_DTYPE rows (no Play objects are created)."""
        return self._rows


def legal_plays(hand: CardsLike, level: str = "2", top: PlayLike | None = None,
                rules: Rules | None = None) -> LegalPlays:
    """Every distinct legal play of ``hand``: any play if ``top`` is None (leading, R8),
    else the plays of top's size that beat it (R7).

    Distinct = distinct multiset of faces and, under ``wild="declare"``, distinct
    interpretation. The order is deterministic (docs/rules.md "Order of legal plays").
    The result is a lazy :class:`LegalPlays` sequence (equal to the list of the same plays).
    """
    return LegalPlays(_core.plays.legal_plays_array(hand, level, top, _rules(rules)))


#: Generation families of legal plays, in their order (the engine's, plays/moves.hpp
#: kFamilyNames): count_plays_by_family keys.
FAMILIES: tuple[str, ...] = _core.plays.FAMILIES


def count_plays(hand: CardsLike, level: str = "2", top: PlayLike | None = None,
                rules: Rules | None = None) -> int:
    """Number of legal plays, ``len(legal_plays(...))``, counted without generating them."""
    return int(_core.plays.count_plays(hand, level, top, _rules(rules))[0])


def count_plays_by_family(hand: CardsLike, level: str = "2", top: PlayLike | None = None,
                          rules: Rules | None = None) -> dict[str, int]:
    """:func:`count_plays` per generation family (:data:`FAMILIES`, in legal-play order)."""
    return dict(zip(FAMILIES, _core.plays.count_plays(hand, level, top, _rules(rules))[1], strict=False))


def play_at(hand: CardsLike, index: int, level: str = "2", top: PlayLike | None = None,
            rules: Rules | None = None) -> Play:
    """``legal_plays(...)[index]``, generating only that play (IndexError if out of range)."""
    return _core.plays.play_at(hand, level, top, _rules(rules), index)


def sample_play(hand: CardsLike, rng: Rng, level: str = "2", top: PlayLike | None = None,
                rules: Rules | None = None) -> Play | None:
    """A legal play drawn uniformly with the project's generator (R17), or None if there is
    none: counts the plays, draws ``rng.bounded(count)`` and generates only that play, so it
    equals ``legal_plays(...)[i]`` for the drawn ``i``."""
    if not isinstance(rng, Rng):
        raise CardError(f"rng must be a daguai.Rng, got {type(rng).__name__}")
    return _core.plays.sample_play(hand, level, top, _rules(rules), rng)


def legal_plays_array(hand: CardsLike, level: str = "2", top: PlayLike | None = None,
                      rules: Rules | None = None) -> np.ndarray:
    """:func:`legal_plays` as a numpy structured array of dtype :data:`PLAY_DTYPE`
    (fields ``lo, hi`` packed cards, ``key``, ``kind``, ``size``, ``jokers``, ``level``),
    filled by C++ without per-play Python objects. Same order as :func:`legal_plays`."""
    return _core.plays.legal_plays_array(hand, level, top, _rules(rules))


def play_counts(rows: np.ndarray) -> np.ndarray:
    """(n, 54) uint8 face counts of PLAY_DTYPE rows."""
    return _core.plays.counts_from_array(rows)


def plays_from_array(rows: np.ndarray) -> list[Play]:
    """Play objects from PLAY_DTYPE rows."""
    return _core.plays.plays_from_array(rows)


def plays_to_array(plays: Iterable[Play]) -> np.ndarray:
    """PLAY_DTYPE rows from Play objects."""
    return _core.plays.plays_to_array(plays)  # any iterable; CardError names a non-Play item


def _face_rows(faces: np.ndarray, what: str) -> np.ndarray:
    """An (n, k) uint8 array of face ids, or CardError naming the first bad entry.

    A uint8 array goes to C++ as it is: the batch loop checks every id as it classifies and
    raises the same error (bind_plays.cpp ``throw_face_range``). Wider integers are checked
    here, before the conversion would wrap them."""
    a = np.asarray(faces)
    if a.ndim != 2:
        raise _core.core.CardError(f"{what} needs an (n, k) array of face ids, got shape {a.shape}")
    if a.dtype == np.uint8:
        return np.ascontiguousarray(a)
    if a.dtype.kind not in "iu":
        raise _core.core.CardError(f"{what} needs integer face ids, got dtype {a.dtype}")
    bad = (a < 0) | (a > 53)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise _core.core.CardError(f"{what}: face id {a[i, j]} (row {i}) is out of range 0..53")
    return np.ascontiguousarray(a, dtype=np.uint8)


def classify_many(faces: np.ndarray, level: str = "2",
                  rules: Rules | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Classify n plays given as an (n, k) uint8 array of face ids (k = play size).

    Returns ``(kinds, keys)``: uint8 kinds (255 where the row is no play) and uint32 keys.
    """
    return _core.plays.classify_many(_face_rows(faces, "classify_many"), level, _rules(rules))


def beats_many(a: np.ndarray, b: np.ndarray, level: str = "2",
               rules: Rules | None = None) -> np.ndarray:
    """Row-wise R7: whether play ``a[i]`` beats play ``b[i]`` (face-id arrays)."""
    return _core.plays.beats_many(_face_rows(a, "beats_many"), _face_rows(b, "beats_many"), level,
                            _rules(rules))
