"""PettingZoo AEC environment of 大怪路子 (docs/learning.md).

Needs the optional packages ``pettingzoo`` and ``gymnasium`` (``pip install 'daguai[rl]'``);
``import daguai`` does not import this module. Three spellings give the same environment:

- ``daguai.learn.pettingzoo_env(**kwargs)`` (a function of ``daguai.learn``; imports this module);
- ``from daguai.env import env`` then ``env(**kwargs)`` (PettingZoo's convention);
- ``from daguai import env`` then ``env(**kwargs)``: that name is this module, and the
  module itself is callable (it forwards to :func:`env`), so the PettingZoo idiom works
  either way. ``daguai.env.env`` and ``daguai.env.raw_env`` stay as before.

The versioned name is ``metadata["name"]`` = ``"daguai_v1"`` (the observation version).

>>> from daguai.env import env
>>> e = env(render_mode="ansi")
>>> e.reset(seed=7)
>>> for agent in e.agent_iter():
...     obs, reward, termination, truncation, info = e.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

Conventions (decisions)
-----------------------
Agents
    ``"player_0"`` … ``"player_5"``: seat numbers. Team A = even seats, team B = odd.
    ``agent_selection`` is always the seat to act (the tributer, the receiver or the
    player on turn); seats that are out of cards are simply never selected until the end.
Episodes
    One **round** by default: episode k after ``reset(seed=s)`` is the first round of
    ``Game(s, rules, game=k, start=start)`` (the same streams as :class:`daguai.learn.BatchEnv`,
    so any episode can be replayed with :class:`daguai.Game`). ``start="random"`` (the
    default for rounds) begins at random levels, often with a tribute exchange
    (docs/learning.md "Start states"); ``start="fresh"`` keeps level 2 and no tribute (the
    default with ``matches=True``). The round's game is created with
    ``max_rounds=1`` so that its final state stays observable (no next deal); scores are
    unaffected. ``matches=True``: one whole match (R12; tribute phases included) with the
    given rules unchanged.
Rewards
    Team rewards from the rules' scoring scheme (R13): on the step that ends a round every
    agent's reward is its own seat's score change for that round
    (``game.round_result["scores"][seat]``, equal for the three partners), at every other
    step 0. With ``matches=True`` such a reward arrives at every round end and the episode
    terminates at the match's end. Rewards are not rescaled (multiples of ``Rules.base``).
Termination
    All six agents terminate together at the episode's end (then step ``None`` once each,
    as the AEC API requires). There is no truncation (rounds and matches always end; cap
    matches with ``Rules.max_rounds``).
Observations
    ``{"observation": float32[633], "action_mask": int8[444]}`` for every agent, from its
    own seat's view (:func:`daguai.learn.encode_observation`, R16: no other seat's hand). The
    mask is all zeros unless it is that agent's turn. int8 is the one mask dtype of every
    daguai API (PettingZoo's convention; Gymnasium's ``Discrete.sample(mask=...)`` needs it).
    After the episode's end the observation shows the finished round (phase ``match_over``).
    Box bounds per element:
    face counts 0..3, ``cards_left`` 0..28/27 (a receiver holds 28 cards between tribute
    and return), ``scores`` (match scores / 100) within ±18·base per round the episode
    can hold (unbounded float32 range for matches without ``max_rounds``), everything else
    0..1: :func:`daguai.learn.tensors.observation_bounds`, as the Gymnasium environment.
Actions
    ``abstract=True`` (default): ``Discrete(444)`` abstract ids (docs/learning.md), the
    canonical action of the id is played. ``abstract=False``: candidate mode,
    ``Discrete(max_candidates)`` indices into ``legal_actions()``; the mask has a 1 for each
    of the k legal actions (``mask[:k]``), features in :meth:`raw_env.candidates`. A state
    with more than ``max_candidates`` legal actions raises ``ValueError`` (raise the bound:
    a dealt 27-card hand leads with ~1 000 plays, rarely 5 000+; ``wild="declare"``
    multiplies this).
Seeding
    ``reset(seed=s)`` → ``Game(s, game=0)``; every later ``reset()`` without a seed moves to
    the next game index (``game=1, 2, …``) of the same seed, so a sequence of episodes is
    reproducible from the first seed. Without any seed, a fresh 64-bit seed is drawn from
    the operating system's entropy on the first reset.
Bad actions
    ``step`` validates every action (an integer, in range, legal now) and raises
    :class:`daguai.IllegalActionError` (a ``ValueError``) naming the agent; the state is
    unchanged.
Wrappers
    :func:`env` applies ``OrderEnforcingWrapper`` only (a subclass of PettingZoo's with the
    same checks and faster attribute access, see :class:`OrderEnforcingWrapper`).
    ``AssertOutOfBoundsWrapper`` is not used: ``raw_env.step`` already rejects out-of-range
    and illegal actions with a ``ValueError`` (the wrapper would turn the first kind into a
    bare ``AssertionError``, and vanishes under ``python -O``). ``TerminateIllegalWrapper``
    is not used either: an illegal move is a bug of the caller, and "the offender loses"
    has no meaning in a 6-player team game with rule-defined scores; an error that leaves
    the state unchanged is more useful.
Parallel API
    Not provided: the game is strictly turn-based (one decision at a time, decisions depend
    on the previous one), so a ParallelEnv would only re-wrap this AEC env with five idle
    agents per step; ``metadata["is_parallelizable"]`` is False. PettingZoo's
    ``parallel_api_test``, ``parallel_seed_test`` and ``max_cycles_test`` (parallel and
    ``max_cycles``) therefore do not apply; ``api_test``, ``seed_test`` and ``render_test``
    do.
"""

from __future__ import annotations

import secrets
import sys
import types
from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as _exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "daguai.env needs the optional packages pettingzoo and gymnasium: "
        "pip install 'daguai[rl]' (or: pip install pettingzoo gymnasium). "
        f"({_exc})"
    ) from _exc

from ... import _core
from ..._core.core import IllegalActionError
from ..._core.game import Action
from ...checks import check_rules
from ...codec import short_repr
from ...game import Game
from ...rules import Rules
from ...table import seats_of
from ..tensors import NUM_ABSTRACT, OBS_VERSION, observation_bounds

__all__ = ["env", "raw_env"]

AGENTS = tuple(f"player_{s}" for s in range(6))  # 6p3d; a 4p2d env uses the first 4 (R18)
_SEAT = {name: s for s, name in enumerate(AGENTS)}

#: Default bound of candidate mode's action space (abstract=False).
MAX_CANDIDATES = 16384


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper, with the per-step attributes as properties.

    The base class reaches ``agents``, ``agent_selection``, ``rewards``, … through
    ``__getattr__`` (a failed lookup first: ~3 µs each, a dozen per agent step). These
    properties apply the same rule (AttributeError before ``reset()``) and forward
    directly; everything else is inherited unchanged.
    """

    def __str__(self) -> str:
        return str(self.env)


def _forward(name: str) -> property:
    def get(self: OrderEnforcingWrapper) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)
    return property(get, doc=f"``{name}`` of the wrapped environment (after reset).")


for _name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos",
              "_cumulative_rewards"):
    setattr(OrderEnforcingWrapper, _name, _forward(_name))


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment with PettingZoo's standard wrapper (order enforcing).

    Keyword arguments are those of :class:`raw_env`. See the module docstring for the
    choice of wrappers.
    """
    return OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):  # noqa: N801 - PettingZoo naming convention
    """大怪路子 as a PettingZoo AEC environment (six agents, turn-based).

    Parameters
    ----------
    rules : Rules, optional
        Rule variants (default ``Rules()``), including the scoring scheme of the rewards.
    render_mode : {None, "ansi", "human"}
        ``"ansi"``: :meth:`render` returns the table as text (``Game.render()``, every
        hand shown); ``"human"``: prints it after every step.
    abstract : bool
        Abstract action ids (``Discrete(444)``, default) or candidate indices.
    matches : bool
        One episode = a whole match instead of one round.
    auto_pass : bool
        Forced passes are applied by the engine (agents never face a lone ``pass``).
    max_candidates : int
        Size of the action space in candidate mode (``abstract=False``).
    start : {None, "random", "fresh"}
        Where episodes begin; ``None``: ``"random"`` for rounds, ``"fresh"`` for matches.

    Notes
    -----
    The module docstring lists the conventions: agents, episodes, rewards, termination,
    observations, actions, seeding, bad actions, wrappers, and why there is no parallel
    API. ``self.game`` is the current :class:`daguai.Game` (read it, do not step it).
    """

    metadata = {
        "name": f"daguai_v{OBS_VERSION}",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, rules: Rules | None = None, render_mode: str | None = None,
                 abstract: bool = True, matches: bool = False, auto_pass: bool = False,
                 max_candidates: int = MAX_CANDIDATES, start: str | None = None) -> None:
        super().__init__()
        rules = check_rules(rules, mappings=False)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        for name, value in (("abstract", abstract), ("matches", matches), ("auto_pass", auto_pass)):
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be True or False, got {value!r}")
        if isinstance(max_candidates, bool) or not isinstance(max_candidates, int) \
                or max_candidates < 1:
            raise ValueError(f"max_candidates must be a positive integer, got {max_candidates!r}")
        if start is None:
            start = "fresh" if matches else "random"
        if start not in ("fresh", "random"):
            raise ValueError(f"start must be None, 'random' or 'fresh', got {start!r}")
        self.start = start
        self.rules = rules
        self.render_mode = render_mode
        self.abstract = abstract
        self.matches = matches
        self.auto_pass = auto_pass
        self.max_candidates = max_candidates
        # Round episodes stop after their round (the final state stays observable).
        self._game_rules = rules if matches else rules.replace(max_rounds=1)

        self.seats = seats_of(rules)  # R18: 6, or 4 at 4p2d
        self.possible_agents = list(AGENTS[:self.seats])
        n_actions = NUM_ABSTRACT if abstract else max_candidates
        low, high = observation_bounds(self.rules, self.matches)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(n_actions,), dtype=np.int8),
            }) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(low=np.tile(low, self.seats), high=np.tile(high, self.seats),
                                      dtype=np.float32)
        self._no_mask = np.zeros(n_actions, dtype=np.int8)

        self.game_seed: int | None = None  # seed of the current episode's Game
        self.game_index = 0  # its game index
        self.game: Game | None = None
        self._version = 0  # decisions applied (cache key)
        self._cache_version = -1
        self._mask: np.ndarray | None = None  # int8 mask of the current decision
        self._index: np.ndarray | None = None  # abstract id -> legal index
        self._acts: Any = None  # ActionList of the current decision (lazy)

    # ---- spaces ------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ---- episode -----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode.

        ``seed``: an integer in [0, 2**64) → the first round (or match) of
        ``Game(seed, game=0)``; without it, the next game index of the last seed (a fresh
        random seed on the very first reset). ``options`` are accepted and ignored.
        """
        if seed is not None:
            if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) \
                    or not 0 <= int(seed) < 2**64:
                raise ValueError(f"seed must be an integer in [0, 2**64), got {short_repr(seed)}")
            self.game_seed, self.game_index = int(seed), 0
        elif self.game_seed is None:
            self.game_seed, self.game_index = secrets.randbits(64), 0
        else:
            self.game_index += 1
        self.game = Game(self.game_seed, self._game_rules, auto_pass=self.auto_pass,
                         game=self.game_index, start=self.start)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._version += 1
        self.agent_selection = AGENTS[self.game.current_player]

    def _legal(self) -> None:
        """Fill the mask cache for the current decision."""
        if self._cache_version == self._version:
            return
        g = self.game
        if self.abstract:
            mask, index = _core.io.abstract_mask(g)
            self._mask, self._index, self._acts = mask, index, None
        else:
            acts = g.legal_actions()
            k = len(acts)
            if k > self.max_candidates:
                raise ValueError(
                    f"{AGENTS[g.current_player]} has {k} legal actions, more than "
                    f"max_candidates={self.max_candidates}: create the environment with a "
                    "larger max_candidates (or use abstract=True)")
            mask = np.zeros(self.max_candidates, dtype=np.int8)
            mask[:k] = 1
            self._mask, self._index, self._acts = mask, None, acts
        self._cache_version = self._version

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32[633], "action_mask": int8[n_actions]}`` of ``agent``'s
        own seat (R16); the mask is zero unless ``agent`` is to act. Fresh arrays."""
        seat = _SEAT[agent]
        obs = _core.io.encode_observation(self.game, seat)
        live = not (self.terminations.get(agent) or self.truncations.get(agent))
        if live and agent == self.agent_selection and self.game.current_player == seat:
            self._legal()
            mask = self._mask.copy()
        else:
            mask = self._no_mask.copy()
        return {"observation": obs, "action_mask": mask}

    def _decode(self, agent: str, action: Any) -> Action:
        """The Action for ``action`` of ``agent``, or IllegalActionError (state unchanged)."""
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = action.item()
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            what = "an abstract id" if self.abstract else "an index into legal_actions()"
            raise IllegalActionError(f"{agent}: an action must be an integer ({what}), "
                                     f"got {action!r}")
        a = int(action)
        self._legal()
        if self.abstract:
            if not 0 <= a < NUM_ABSTRACT:
                raise IllegalActionError(
                    f"{agent}: abstract action {a} is out of range 0..{NUM_ABSTRACT - 1}")
            if not self._mask[a]:
                legal = np.flatnonzero(self._mask)
                raise IllegalActionError(
                    f"{agent}: abstract action {a} is masked out (not legal now); legal ids: "
                    f"{legal[:20].tolist()}{' …' if len(legal) > 20 else ''}")
            if self._acts is None:
                self._acts = self.game.legal_actions()
            return self._acts[int(self._index[a])]
        k = len(self._acts)
        if not 0 <= a < k:
            raise IllegalActionError(f"{agent}: action index {a} is out of range 0..{k - 1} "
                                     f"(the {k} legal actions)")
        return self._acts[a]

    def step(self, action: Any) -> None:
        """Apply the action of ``agent_selection`` (``None`` for a terminated agent)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(
                f"{agent}: None is only for terminated agents; it is {agent}'s turn")
        act = self._decode(agent, action)
        g = self.game
        n_results = g.n_results
        g.step(act)
        self._version += 1
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        for a in rewards:
            rewards[a] = 0.0
        if g.n_results != n_results:  # a round ended (R9, R13)
            scores = g.result(-1)["scores"]
            for a in self.agents:
                rewards[a] = float(scores[_SEAT[a]])
            if not self.matches or g.match_over:
                for a in self.agents:
                    self.terminations[a] = True
        if self.terminations[agent]:
            self._deads_step_first()
        else:
            self.agent_selection = AGENTS[g.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ---- extras ------------------------------------------------------------------------
    def legal_actions(self) -> Any:
        """The legal actions of the agent to act (candidate mode indexes this list)."""
        return self.game.legal_actions()

    def candidates(self) -> np.ndarray:
        """Candidate features (k, CAND_FEATURES) of :meth:`legal_actions` (candidate mode)."""
        return _core.io.encode_candidates(self.game)

    def state(self) -> np.ndarray:
        """Global state for centralized training: every seat's observation tensor
        concatenated (seat 0 first), float32[seats * 633] (6 seats, or 4 at 4p2d): it shows
        every hand."""
        return np.concatenate([_core.io.encode_observation(self.game, s) for s in range(self.seats)])

    def render(self) -> str | None:
        """``"ansi"``: the table as text (every hand shown); ``"human"``: print it."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode: use raw_env(render_mode='ansi')")
            return None
        text = self.game.render() if self.game is not None else "(no episode: call reset())"
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release."""


class _CallableModule(types.ModuleType):
    """This module's class: calling the module calls :func:`env` (``from daguai import env``
    gives the module; ``env(...)`` then builds the environment, as users expect)."""

    def __call__(self, **kwargs: Any) -> AECEnv:
        return env(**kwargs)


sys.modules[__name__].__class__ = _CallableModule
