"""Learning interfaces (docs/learning.md): observation tensors, candidate features, the
abstract action space, and the batched C++ environment.

Everything here is a thin, typed layer over the C++ encoders (``cpp/engine/encode.hpp``,
the single source of truth for every layout). Layouts are versioned by
:data:`OBS_VERSION`.

- :func:`encode_observation` — ``float32[OBS_SIZE]`` of what one seat may know (R16).
- :func:`encode_candidates` — ``float32[n_actions, CAND_FEATURES]`` per legal action
  (candidate mode: an action is an index into ``game.legal_actions()``).
- :func:`abstract_id`, :func:`action_from_abstract`, :func:`abstract_mask` — the fixed-size
  abstract action space of :data:`NUM_ABSTRACT` ids.
- :class:`BatchEnv` — N games stepped per call in C++ with the GIL released.

The PettingZoo environment is :mod:`daguai.env` (optional dependencies, not imported here).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, overload

import numpy as np

from .. import _core
from .._core import Action, GameState, IllegalActionError, InfoState
from ..checks import check_int, check_rules, check_seed
from ..game import STARTS, Game
from ..rules import Rules
from ..table import seats_of

__all__ = [
    "OBS_VERSION",
    "OBS_SIZE",
    "NUM_ABSTRACT",
    "CAND_FEATURES",
    "BatchEnv",
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
OBS_VERSION: int = int(_core.OBS_VERSION)
#: Length of an observation tensor (633 in version 1).
OBS_SIZE: int = int(_core.OBS_SIZE)
#: Number of abstract action ids (444 in version 1).
NUM_ABSTRACT: int = int(_core.NUM_ABSTRACT)
#: Features per legal action in candidate mode (67 in version 1).
CAND_FEATURES: int = int(_core.CAND_FEATURES)

_SPEC: dict[str, slice] = {name: slice(off, off + size)
                           for name, off, size, _ in _core.obs_slices()}
#: (obs, mask, rewards, done, to_act) of BatchEnv.reset / observe / step.
Outputs = tuple[np.ndarray, np.ndarray | None, np.ndarray, np.ndarray, np.ndarray]

_MEANING: dict[str, str] = {name: meaning for name, _, _, meaning in _core.obs_slices()}


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
    >>> x = daguai.encode_observation(g, 0)
    >>> hand_counts = x[daguai.obs_spec()["hand"]]     # 54 face counts
    """
    return dict(_SPEC)


def obs_meanings() -> dict[str, str]:
    """Slice name → one-line meaning (the table of docs/learning.md, from the C++ core)."""
    return dict(_MEANING)


def _check_game(game: Any, what: str, views: bool = False) -> None:
    if not isinstance(game, (GameState, Game)) and not (views and isinstance(game, _core.InfoState)):
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
    if isinstance(game, _core.InfoState):  # a view (what a Python policy receives)
        seat = check_int(seat, "seat")
        if seat != game.seat:
            raise ValueError(f"this view is seat {game.seat}'s; seat {seat} is not in it (R16)")
        return _core.encode_view(game)
    _check_game(game, "encode_observation")
    seat = check_int(seat, "seat")
    if not 0 <= seat < game.seats:
        raise ValueError(f"seat must be 0..{game.seats - 1}, got {seat}")
    return _core.encode_observation(game, seat)


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
    return _core.encode_candidates(game)


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
    return int(_core.abstract_id(action, level))


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
    mask, index = _core.abstract_mask(game)
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
    return _core.action_from_abstract(game, int(id))


class BatchEnv:
    """N games stepped together in C++ (GIL released, automatic reset).

    One environment is one seat-agnostic game: its observation is that of the player to
    act. Environment ``i``'s k-th episode is ``Game(seed, rules, game=k * n + i,
    auto_pass=auto_pass, start=start)`` from its first round, so any trajectory can be
    replayed with :class:`daguai.Game` (see :meth:`episode_game`).

    Parameters
    ----------
    n : int
        Number of environments (>= 1).
    rules : Rules, optional
        Rule variants (default ``Rules()``); rewards follow its scoring scheme (R13).
    seed : int
        Seed in [0, 2**64) of every deal and first dealer (R17).
    matches : bool
        Episodes are whole matches (rewards at every round end) instead of single rounds.
    auto_pass : bool
        Forced passes are applied by the engine (the player never sees them).
    abstract : bool
        Actions are abstract ids (masks returned); else indices into each game's legal
        actions (candidate mode: see :meth:`candidates`).
    start : {None, "random", "fresh"}
        Where each episode begins. ``"random"`` (the default for round episodes): random
        levels, and in about half the episodes a tribute exchange before play, so that a
        learner meets every level and every phase (docs/learning.md "Start states").
        ``"fresh"`` (the default with ``matches=True``, and the behaviour before start
        states existed): level 2, no tribute.
    opponents : sequence of 6, optional
        Built-in policies (names, ``daguai.run.POLICIES``) on the seats the learner does
        not control, ``None`` on the learner's seats; or 2 entries (team A, team B). The
        opponents play in C++ inside ``reset``/``step``: ``to_act`` and ``obs`` are then
        always of learner seats, and a round the opponents end is rewarded on that step.

    Notes
    -----
    :meth:`reset`, :meth:`observe` and :meth:`step` return
    ``(obs, mask, rewards, done, to_act)``:

    - ``obs``: ``float32 (n, OBS_SIZE)``, of the player to act in each game;
    - ``mask``: ``int8 (n, NUM_ABSTRACT)``, 1 for the legal ids (``None`` in candidate
      mode); int8 is the one mask dtype of every API (docs/learning.md);
    - ``rewards``: ``float32 (n, seats)`` (6, or 4 at 4p2d) per absolute seat: the round's score changes under
      the rules' scoring scheme on the step that ends a round, else 0;
    - ``done``: ``uint8 (n,)``, 1 where the step ended an episode — the returned
      observation is then already the next episode's first (automatic reset) and
      :attr:`final_obs` row ``i`` holds the ended episode's last state;
    - ``to_act``: ``int32 (n,)`` absolute seat of the player to act.

    **The arrays are owned by the environment and overwritten by the next call** (no
    allocation per step): copy what you keep (``obs.copy()``). Bad input to :meth:`step`
    (wrong shape, a non-integer dtype, an out-of-range index, a masked-out id) raises
    :class:`IllegalActionError` (a ``ValueError``) naming the environment, before any game
    changes. One object must not be stepped from two threads at once.

    Examples
    --------
    >>> import numpy as np, daguai
    >>> env = daguai.BatchEnv(256, seed=1)
    >>> obs, mask, rewards, done, to_act = env.reset()
    >>> rng = np.random.default_rng(0)
    >>> actions = (rng.random(mask.shape) * mask).argmax(axis=1)   # uniform over legal ids
    >>> obs, mask, rewards, done, to_act = env.step(actions)
    """

    def __init__(self, n: int, rules: Rules | None = None, seed: int = 0, matches: bool = False,
                 auto_pass: bool = False, abstract: bool = True,
                 start: str | None = None,
                 opponents: Sequence[str | None] | None = None) -> None:
        rules = check_rules(rules, mappings=False)
        n = check_int(n, "n")
        if not 1 <= n <= 2**20:
            raise ValueError(f"BatchEnv needs n >= 1 environments, at most {2**20}, got {n}")
        seed = check_seed(seed)
        for name, value in (("matches", matches), ("auto_pass", auto_pass), ("abstract", abstract)):
            if not isinstance(value, (bool, np.bool_)):
                raise ValueError(f"{name} must be True or False, got {value!r}")
        if start is None:
            start = "fresh" if matches else "random"
        if start not in STARTS:
            raise ValueError(f"start must be None, 'random' or 'fresh', got {start!r}")
        self._rules = rules
        self._seed = seed
        self._matches = bool(matches)
        self._auto_pass = bool(auto_pass)
        self._start = start
        self._env = _core.BatchEnv(n, rules._core, seed, self._matches, self._auto_pass,
                                   bool(abstract), STARTS.index(start))
        if opponents is not None:
            n_seats = seats_of(rules)  # R18: 6, or 4 at 4p2d
            seats = list(opponents)
            if len(seats) == 2:
                seats = seats * (n_seats // 2)
            if len(seats) != n_seats or not all(p is None or isinstance(p, str) for p in seats):
                raise ValueError(f"opponents: {n_seats} entries (or 2 per team), each a policy "
                                 "name or None")
            self._env.set_opponents(seats)

    # ---- configuration -----------------------------------------------------------------
    @property
    def n(self) -> int:
        """Number of environments."""
        return int(self._env.n)

    def __len__(self) -> int:
        return self.n

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def matches(self) -> bool:
        return self._matches

    @property
    def auto_pass(self) -> bool:
        return self._auto_pass

    @property
    def episode_rules(self) -> Rules:
        """The rules of every episode's game: :attr:`rules`, with ``max_rounds=1`` for round
        episodes (so that an episode's last state is its finished round, not the next deal)."""
        return self._rules if self._matches else self._rules.replace(max_rounds=1)

    @property
    def start(self) -> str:
        """``"random"`` or ``"fresh"``: where every episode begins."""
        return self._start

    @property
    def final_obs(self) -> np.ndarray:
        """``float32 (n, OBS_SIZE)``: where the last :meth:`step` ended an episode
        (``done[i] == 1``), row ``i`` is the observation of that episode's last state seen
        by the seat that made the last decision (the step's observation is already the
        next episode's). Other rows hold older data. Reused by the next call."""
        return self._env.final_obs

    @property
    def abstract(self) -> bool:
        """True: actions are abstract ids; False: indices into legal actions."""
        return bool(self._env.abstract)

    @property
    def episodes_done(self) -> int:
        """Episodes finished since construction or the last :meth:`reset`."""
        return int(self._env.episodes_done)

    # ---- stepping ----------------------------------------------------------------------
    def reset(self) -> Outputs:
        """Restart every environment at its first episode (game index ``i``).

        Returns
        -------
        tuple
            ``(obs, mask, rewards, done, to_act)`` (class notes); rewards and done are 0.
            The arrays are reused by the next call.
        """
        return self._env.reset()

    def observe(self) -> Outputs:
        """The current ``(obs, mask, rewards, done, to_act)`` without stepping (rewards and
        done are those of the last step). The arrays are reused by the next call."""
        return self._env.observe()

    def step(self, actions: Any) -> Outputs:
        """Apply one action per environment.

        Parameters
        ----------
        actions : array_like of int, shape (n,)
            Abstract ids (``abstract=True``) legal in each game's mask, or indices into
            :meth:`legal_actions` (candidate mode). Any integer dtype.

        Returns
        -------
        tuple
            ``(obs, mask, rewards, done, to_act)`` after the step (class notes). Where
            ``done[i]`` is 1, ``rewards[i]`` hold the ended round's scores and ``obs[i]``
            is the next episode's first observation. The arrays are reused by the next call.

        Raises
        ------
        IllegalActionError
            (a ``ValueError``) wrong shape or dtype, an index out of range, or a masked-out
            id: the message names the environment; no game has changed.
        """
        return self._env.step(actions)

    def truncate(self, i: int) -> Outputs:
        """End environment ``i``'s episode now (truncation, e.g. a step limit) and start its
        next episode (game index + n, counted in :attr:`episodes_done`).

        Returns the current ``(obs, mask, rewards, done, to_act)`` (rewards and done of the
        last step, unchanged). The arrays are reused by the next call."""
        return self._env.truncate(self._index(i))

    def candidates(self) -> tuple[np.ndarray, np.ndarray]:
        """Candidate features of every environment's legal actions.

        Returns
        -------
        features : numpy.ndarray
            ``float32 (total, CAND_FEATURES)``: the rows of environment ``i`` are
            ``features[offsets[i]:offsets[i + 1]]``, in :meth:`legal_actions` order.
        offsets : numpy.ndarray
            ``int64 (n + 1,)``.

        Fresh arrays (not reused).
        """
        return self._env.candidates()

    # ---- per environment ---------------------------------------------------------------
    def _index(self, i: Any) -> int:
        i = check_int(i, "environment index")
        if not 0 <= i < self.n:
            raise ValueError(f"no environment {i}: indices are 0..{self.n - 1}")
        return i

    def legal_actions(self, i: int) -> list[Action]:
        """The legal actions of environment ``i`` (candidate mode indexes this list)."""
        return self._env.legal_actions(self._index(i))

    def game_index(self, i: int) -> int:
        """The game index of environment ``i``'s current episode (``Game(seed, game=...)``)."""
        return int(self._env.game_index(self._index(i)))

    def game(self, i: int) -> GameState:
        """A copy of environment ``i``'s current state (a ``GameState`` without a log)."""
        return self._env.game(self._index(i))

    def episode_game(self, i: int) -> Any:
        """A fresh recorded :class:`daguai.Game` at the start of environment ``i``'s current
        episode (:attr:`episode_rules`, :attr:`start`): stepping it with the same actions
        reproduces the trajectory, the final state included."""
        from ..game import Game  # local: game.py imports nothing from here

        return Game(self._seed, self.episode_rules, auto_pass=self._auto_pass,
                    game=self.game_index(i), start=self._start)

    def __repr__(self) -> str:
        mode = "abstract" if self.abstract else "candidates"
        return (f"<BatchEnv n={self.n} seed={self._seed} {'matches' if self._matches else 'rounds'}"
                f" start={self._start}"
                f"{' auto_pass' if self._auto_pass else ''} {mode} {self._rules!r}>")
