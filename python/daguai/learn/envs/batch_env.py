"""The batched C++ environment (docs/learning.md "BatchEnv"): N games stepped per call in
C++ with the GIL released, their observations, masks and rewards in NumPy arrays."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ... import _core
from ..._core.core import IllegalActionError
from ..._core.game import Action, GameState
from ...checks import check_int, check_model_rules, check_rules, check_seed
from ...codec import short_repr
from ...game import Game
from ...records import STARTS
from ...rules import Rules
from ...table import seats_of

__all__ = ["BatchEnv", "Outputs"]

#: (obs, mask, rewards, done, to_act) of BatchEnv.reset / observe / step.
Outputs = tuple[np.ndarray, np.ndarray | None, np.ndarray, np.ndarray, np.ndarray]


def _opponent_seats(opponents: Any, n_seats: int) -> list[str | None]:
    """BatchEnv's ``opponents`` as one entry per seat (None: the learner's): a sequence of
    ``n_seats``, 2 (team A, team B), or a ``{seat: policy}`` dict whose unnamed seats (the
    learner's own and its partners') are the learner's."""
    if isinstance(opponents, Mapping):
        bad = [s for s in opponents if isinstance(s, bool) or not isinstance(s, (int, np.integer))
               or not 0 <= s < n_seats]
        if bad:
            raise ValueError(f"opponents: the keys of a dict are seats 0..{n_seats - 1}, "
                             f"got {short_repr(bad[0])}")
        seats = [opponents.get(s) for s in range(n_seats)]
    elif isinstance(opponents, str):
        raise ValueError(f"opponents: {n_seats} entries (or 2 per team) or a {{seat: policy}} dict, "
                         f"not one name for every seat ({opponents!r}): the learner needs a seat")
    else:
        try:
            seats = list(opponents)
        except TypeError:
            seats = []  # not a sequence: refused below
        if len(seats) == 2:
            seats = seats * (n_seats // 2)
    if len(seats) != n_seats or not all(p is None or isinstance(p, str) for p in seats):
        raise ValueError(f"opponents: {n_seats} entries (or 2 per team) or a {{seat: policy}} dict, "
                         "each a policy name or None")
    return seats  # the engine refuses a list that leaves the learner no seat


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
    opponents : sequence of 6, or dict, optional
        Built-in policies (names, ``daguai.bots.policy_names()``) on the seats the learner does
        not control, ``None`` on the learner's seats; or 2 entries (team A, team B); or a
        ``{seat: policy}`` dict, whose unnamed seats are the learner's (so
        ``{1: "heuristic", 3: "heuristic", 5: "heuristic"}`` leaves the learner team A:
        its partners need no entry). At least one seat stays the learner's. The
        opponents play in C++ inside ``reset``/``step``: ``to_act`` and ``obs`` are then
        always of learner seats, and a round the opponents end is rewarded on that step.
    model_rules : {"same", "any"}
        A ``.dgn`` opponent trained for other rules than ``rules`` is refused (``ModelError``
        naming both) unless ``"any"``.

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
    >>> env = daguai.learn.BatchEnv(256, seed=1)
    >>> obs, mask, rewards, done, to_act = env.reset()
    >>> rng = np.random.default_rng(0)
    >>> actions = (rng.random(mask.shape) * mask).argmax(axis=1)   # uniform over legal ids
    >>> obs, mask, rewards, done, to_act = env.step(actions)
    """

    def __init__(self, n: int, rules: Rules | None = None, seed: int = 0, matches: bool = False,
                 auto_pass: bool = False, abstract: bool = True,
                 start: str | None = None,
                 opponents: Sequence[str | None] | Mapping[int, str] | None = None,
                 model_rules: str = "same") -> None:
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
        self._env = _core.run.BatchEnv(n, rules._core, seed, self._matches, self._auto_pass,
                                   bool(abstract), STARTS.index(start))
        if opponents is not None:
            seats = _opponent_seats(opponents, seats_of(rules))  # R18: 6, or 4 at 4p2d
            check_model_rules(seats, rules, model_rules)
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

        return Game(self._seed, self.episode_rules, auto_pass=self._auto_pass,
                    game=self.game_index(i), start=self._start)

    # ---- pickling ----------------------------------------------------------------------
    def __setstate__(self, state: Any) -> None:
        """A pickle holds the engine environment (which replays itself, checked, R17) and the
        Python fields; each field must be the engine environment's own, or
        :meth:`episode_game` would build another game than the one played (a ``_seed``
        changed to 999 while the environment plays seed 3). A mismatch is refused with
        IllegalActionError naming the field; the object stays uninitialized."""
        bad = "corrupt BatchEnv state: "
        keys = ("_rules", "_seed", "_matches", "_auto_pass", "_start", "_env")
        if not isinstance(state, dict) or set(state) != set(keys):
            raise IllegalActionError(bad + f"expected the fields {', '.join(keys)}")
        env = state["_env"]
        if type(env) is not _core.run.BatchEnv:
            raise IllegalActionError(bad + f"_env is a {type(env).__name__}, not an engine BatchEnv")
        args = env.__reduce__()[1]  # what the engine environment was built with
        own = {"_seed": int(args[2]), "_matches": bool(args[3]), "_auto_pass": bool(args[4]),
               "_start": STARTS[int(args[6])]}
        for key, value in own.items():
            given = state[key]
            if type(given) is not type(value) or given != value:
                raise IllegalActionError(bad + f"{key} is {short_repr(given)}, but the "
                                         f"environment plays {value!r}")
        rules = state["_rules"]  # round episodes play them with max_rounds=1 (episode_rules)
        if not isinstance(rules, Rules) or (
                rules if own["_matches"] else rules.replace(max_rounds=1)).to_dict() != dict(args[1]):
            raise IllegalActionError(bad + f"_rules {short_repr(rules)} are not the rules the "
                                     f"environment plays ({Rules.from_dict(args[1])!r})")
        self.__dict__.update(state)

    def __repr__(self) -> str:
        mode = "abstract" if self.abstract else "candidates"
        return (f"<BatchEnv n={self.n} seed={self._seed} {'matches' if self._matches else 'rounds'}"
                f" start={self._start}"
                f"{' auto_pass' if self._auto_pass else ''} {mode} {self._rules!r}>")
