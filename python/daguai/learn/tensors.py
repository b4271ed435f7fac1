"""Learning interfaces (docs/learning.md): observation tensors, candidate features, the
abstract action space.

Everything here is a thin, typed layer over the C++ encoders (``cpp/engine/io/encode.hpp``,
the single source of truth for every layout). Layouts are versioned by
:data:`OBS_VERSION`.

- :func:`encode_observation` — ``float32[OBS_SIZE]`` of what one seat may know (R16).
- :func:`encode_candidates` — ``float32[n_actions, CAND_FEATURES]`` per legal action
  (candidate mode: an action is an index into ``game.legal_actions()``).
- :func:`abstract_id`, :func:`action_from_abstract`, :func:`abstract_mask` — the fixed-size
  abstract action space of :data:`NUM_ABSTRACT` ids.

The batched C++ environment :class:`daguai.learn.BatchEnv` is ``envs/batch_env.py``.

The PettingZoo environment is :mod:`daguai.env` (optional dependencies, not imported here).
"""

from __future__ import annotations

from typing import Any, Literal, overload

import numpy as np

from .. import _core
from .._core.core import IllegalActionError
from .._core.game import Action, GameState, InfoState
from ..checks import check_int
from ..game import Game

__all__ = [
    "OBS_VERSION",
    "OBS_SIZE",
    "NUM_ABSTRACT",
    "CAND_FEATURES",
    "abstract_id",
    "abstract_mask",
    "action_from_abstract",
    "encode_candidates",
    "encode_observation",
    "obs_meanings",
    "obs_spec",
    "observation_bounds",
]

#: Version of the observation / candidate / abstract-action layouts (bumped on any change).
OBS_VERSION: int = int(_core.io.OBS_VERSION)
#: Length of an observation tensor (633 in version 1).
OBS_SIZE: int = int(_core.io.OBS_SIZE)
#: Number of abstract action ids (444 in version 1).
NUM_ABSTRACT: int = int(_core.io.NUM_ABSTRACT)
#: Features per legal action in candidate mode (67 in version 1).
CAND_FEATURES: int = int(_core.io.CAND_FEATURES)

_SPEC: dict[str, slice] = {name: slice(off, off + size)
                           for name, off, size, _ in _core.io.obs_slices()}

_MEANING: dict[str, str] = {name: meaning for name, _, _, meaning in _core.io.obs_slices()}


def observation_bounds(rules: Any, matches: bool) -> tuple[np.ndarray, np.ndarray]:
    """Finite per-element bounds of the observation tensor (docs/learning.md), the ``Box``
    of both the Gymnasium and the PettingZoo environments.

    Face counts 0..3; ``cards_left`` 0..28/27 (a receiver holds 28 cards between tribute and
    return, R11); ``scores`` (match scores / 100) within ±18·base per round played (R13,
    R14: no scheme moves a score further in one round), for one round in round episodes,
    ``max_rounds`` in matches (float32's largest value when matches are unbounded);
    everything else 0..1.
    """
    low = np.zeros(OBS_SIZE, dtype=np.float32)
    high = np.ones(OBS_SIZE, dtype=np.float32)
    spec = obs_spec()
    for name in ("hand", "played", "top_cards", "tribute", "exchange"):
        high[spec[name]] = 3.0
    high[spec["cards_left"]] = np.float32(28) / np.float32(27)
    rounds = 1 if not matches else rules.max_rounds
    bound = np.float32(18 * rules.base * rounds / 100) if rounds else np.finfo(np.float32).max
    low[spec["scores"]] = -bound
    high[spec["scores"]] = bound
    return low, high


def obs_spec() -> dict[str, slice]:
    """The observation layout: slice name → ``slice`` into the tensor.

    Returns
    -------
    dict of str to slice
        In tensor order: ``hand``, ``played``, ``top_cards``, ``top_kind``, ``top_key``,
        ``top_seat``, ``leading``, ``passed``, ``cards_left``, ``out``, ``levels``,
        ``level_rank``, ``dealer``, ``phase``, ``to_act``, ``tribute``, ``exchange``,
        ``scores``; the slices tile ``range(OBS_SIZE)``. The meaning of each is in
        docs/learning.md and :func:`obs_meanings`. A fresh dict (safe to modify).

    Examples
    --------
    >>> import daguai
    >>> g = daguai.Game(seed=1)
    >>> x = daguai.learn.encode_observation(g, 0)
    >>> hand_counts = x[daguai.learn.obs_spec()["hand"]]     # 54 face counts
    """
    return dict(_SPEC)


def obs_meanings() -> dict[str, str]:
    """Slice name → one-line meaning (the table of docs/learning.md, from the C++ core)."""
    return dict(_MEANING)


def _check_game(game: Any, what: str, views: bool = False) -> None:
    if not isinstance(game, (GameState, Game)) and not (views and isinstance(game, _core.game.InfoState)):
        raise ValueError(f"{what} needs a daguai.Game{' or a view' if views else ''}, "
                         f"got {type(game).__name__}")


#: What the learning functions accept as a game: a Game, its GameState, or (where the
#: docs say so) the view of the seat to act (``Game.view``, what a Python policy receives).
GameLike = Game | GameState
ViewLike = Game | GameState | InfoState


def encode_observation(game: ViewLike, seat: int) -> np.ndarray:
    """The observation tensor of ``seat``: exactly what that seat may know (R16).

    Parameters
    ----------
    game : Game or view
        Any game (recorded or not): the tensor is built from the seat's information
        state (``Game.view``; the cards played this round are part of the state). A view
        (``Game.view(seat)``, what a Python policy receives) gives the same tensor.
    seat : int
        Absolute seat 0..5 (0..3 at 4p2d) whose view is encoded (any seat, not only the
        one to act). Seats inside the tensor are relative: index k is seat
        ``(seat + k) % seats``; at 4p2d (R18) the slots of relative seats 4 and 5 stay zero,
        so the shape is the same at both tables.

    Returns
    -------
    numpy.ndarray
        A new ``float32`` array of shape ``(OBS_SIZE,)``; slices in :func:`obs_spec`.

    Raises
    ------
    ValueError
        A seat outside 0..5, or something other than a Game.
    """
    if isinstance(game, _core.game.InfoState):  # a view (what a Python policy receives)
        seat = check_int(seat, "seat")
        if seat != game.seat:
            raise ValueError(f"this view is seat {game.seat}'s; seat {seat} is not in it (R16)")
        return _core.io.encode_view(game)
    _check_game(game, "encode_observation")
    seat = check_int(seat, "seat")
    if not 0 <= seat < game.seats:
        raise ValueError(f"seat must be 0..{game.seats - 1}, got {seat}")
    return _core.io.encode_observation(game, seat)


def encode_candidates(game: GameLike) -> np.ndarray:
    """Features of every legal action of the player to act (candidate mode).

    Row k describes ``game.legal_actions()[k]``: 54 face counts of its cards, a 9-way
    one-hot Kind (plays only), the key scaled to [0, 1], jokers / 5, 1 for ``pass``, and
    cards / 5 (docs/learning.md).

    Parameters
    ----------
    game : Game
        Any game state (no log needed).

    Returns
    -------
    numpy.ndarray
        A new ``float32`` array of shape ``(len(game.legal_actions()), CAND_FEATURES)``;
        zero rows when the match is over.
    """
    _check_game(game, "encode_candidates")
    return _core.io.encode_candidates(game)


def abstract_id(action: Action, level: str | None = None) -> int:
    """The abstract action id (0 .. NUM_ABSTRACT-1) of a concrete action.

    Parameters
    ----------
    action : Action
        An action, e.g. from ``game.legal_actions()``.
    level : str, optional
        The round's level rank (``game.level``), kept for the documented signature: the id
        depends only on the action (a Play's key already carries its level). Default: the
        play's own level, else ``"2"``.

    Returns
    -------
    int
        Its id in the table of docs/learning.md. Several actions can share an id;
        :func:`action_from_abstract` returns the canonical one.
    """
    if not isinstance(action, Action):
        raise ValueError(f"abstract_id needs a daguai.Action, got {type(action).__name__}")
    if level is None:
        play = action.play
        level = play.level if play is not None else "2"
    return int(_core.io.abstract_id(action, level))


@overload
def abstract_mask(game: ViewLike, return_index: Literal[False] = ...) -> np.ndarray: ...
@overload
def abstract_mask(game: ViewLike, return_index: Literal[True]) -> tuple[np.ndarray, np.ndarray]: ...
def abstract_mask(game: ViewLike, return_index: bool = False
                  ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Which abstract ids are legal now.

    Parameters
    ----------
    game : Game or view
        Any game state, or the view of the seat to act (``Game.view``, what a Python
        policy receives).
    return_index : bool
        Also return, for each id, the index of its canonical action in
        ``game.legal_actions()`` (-1 where the id is masked out).

    Returns
    -------
    mask : numpy.ndarray
        ``int8`` array of shape ``(NUM_ABSTRACT,)``, 1 where the id is legal (all 0 when the
        match is over). int8 is the one mask dtype of every API (BatchEnv, PettingZoo,
        Gymnasium; docs/learning.md): use ``mask.astype(bool)`` for boolean indexing.
    index : numpy.ndarray
        ``int32`` array of shape ``(NUM_ABSTRACT,)``, only with ``return_index=True``.
    """
    _check_game(game, "abstract_mask", views=True)
    mask, index = _core.io.abstract_mask(game)
    return (mask, index) if return_index else mask


def action_from_abstract(game: ViewLike, id: int) -> Action:  # noqa: A002 - documented name
    """The canonical legal action of an abstract id.

    Among the legal actions sharing the id: the smallest sum of card powers (R4), then the
    fewest level cards, then the fewest BJs, then the first in ``legal_actions()`` order.

    Parameters
    ----------
    game : Game
        The game whose player to act would take the action.
    id : int
        An abstract id in 0 .. NUM_ABSTRACT-1 that is legal now (see :func:`abstract_mask`).

    Returns
    -------
    Action
        An element of ``game.legal_actions()``, ready for ``game.step``.

    Raises
    ------
    IllegalActionError
        (a ``ValueError``) the id is not an integer, is out of range, or is masked out.
    """
    _check_game(game, "action_from_abstract", views=True)
    if isinstance(id, (bool, np.bool_)) or not isinstance(id, (int, np.integer)):
        raise IllegalActionError(f"an abstract action must be an integer, got {id!r}")
    return _core.io.action_from_abstract(game, int(id))
