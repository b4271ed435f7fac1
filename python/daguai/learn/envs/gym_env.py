"""Gymnasium environments of 大怪路子 (docs/learning.md "Gymnasium").

Needs the optional package ``gymnasium`` (``pip install 'daguai[rl]'``). Importing this
module registers two versioned ids with :func:`gymnasium.register` (``import daguai``
already does, as soon as Gymnasium is imported too: ``daguai._gym_ids``):

``"daguai/DaGuai-v0"`` — :class:`DaGuaiEnv`, single agent
    The learner plays one seat (or several: a team) against opponents on the other seats:
    every policy ``simulate`` takes by name (built-ins and model files run in C++, import
    paths in Python) or Python callables ``policy(game, seat) -> action``.
    ``gymnasium.make("daguai/DaGuai-v0", seat=0, opponents="heuristic")``.
``"daguai/DaGuaiSelfPlay-v0"`` — :class:`daguai.learn.envs.gym_vector.DaGuaiVectorEnv`,
``gymnasium.make_vec`` only
    :class:`daguai.learn.BatchEnv` behind Gymnasium's vector API: ``num_envs`` games stepped
    together in C++, one policy acting for whichever seat is to act (self-play).
    ``gymnasium.make_vec("daguai/DaGuaiSelfPlay-v0", num_envs=256)``.

``gymnasium.make("daguai/DaGuai-v0")`` works after ``import daguai`` (and
``"daguai.learn.envs.gym_env:daguai/DaGuai-v0"`` imports it in one call).

Conventions of both
-------------------
Observations
    ``{"observation": float32[633], "action_mask": int8[444]}``: the observation tensor of
    the seat to act (:func:`daguai.learn.encode_observation`, R16) and the legal abstract ids
    (int8, 1 = legal: the one mask dtype of every daguai API).
Actions
    ``Discrete(444)``: abstract action ids (docs/learning.md); the id's canonical action is
    played. Not an integer in 0..443: :class:`daguai.IllegalActionError` (a ValueError),
    nothing changes.
Episodes
    One round (default; random start states, docs/learning.md "Start states") or one match
    (``matches=True``). Rewards are score changes under the rules' scoring scheme (R13).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as _exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "daguai.learn.envs.gym_env needs the optional package gymnasium: pip install 'daguai[rl]' "
        f"(or: pip install gymnasium). ({_exc})") from _exc

from ... import _core, _gym_ids
from ..._core.core import IllegalActionError
from ..._gym_ids import ENV_ID, SELF_PLAY_ID
from ...bots import Bot
from ...checks import check_model_rules, check_policy, check_rules, check_seed
from ...game import Game
from ...rules import Rules
from ...table import seats_of
from ..tensors import NUM_ABSTRACT
from ..tensors import observation_bounds as _observation_bounds

__all__ = ["DaGuaiEnv", "ENV_ID", "SELF_PLAY_ID", "BUILTIN_POLICIES"]

#: Opponents run in C++ by name (cpp/engine/players/policy.hpp).
BUILTIN_POLICIES = ("random", "greedy", "heuristic")

PolicyLike = str | Callable[[Game, int], Any]


class _ViewPolicy:
    """A simulate-style ``policy(view, seat)`` (named by an import path) as an opponent: it
    is given the seat's view, never the whole game (R16), as in ``simulate``."""

    def __init__(self, policy: Callable[[Any, int], Any]) -> None:
        self.policy = policy
        self.__name__ = getattr(policy, "__name__", type(policy).__name__)

    def __call__(self, game: Game, seat: int) -> Any:
        return self.policy(game.view(seat), seat)


def observation_bounds(rules: Rules, matches: bool) -> tuple[np.ndarray, np.ndarray]:
    """Finite per-element bounds of the observation tensor (docs/learning.md): the ones
    the PettingZoo environment uses too (:func:`daguai.learn.tensors.observation_bounds`)."""
    return _observation_bounds(rules, matches)


def _obs_space(rules: Rules, matches: bool) -> spaces.Dict:
    low, high = observation_bounds(rules, matches)
    return spaces.Dict({
        "observation": spaces.Box(low=low, high=high, dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ABSTRACT,), dtype=np.int8),
    })


def _check_start(start: str | None, matches: bool) -> str:
    if start is None:
        return "fresh" if matches else "random"
    if start not in ("fresh", "random"):
        raise ValueError(f"start must be None, 'random' or 'fresh', got {start!r}")
    return start


def _action_id(action: Any, where: str) -> int:
    """An abstract id from an int / numpy integer / 0-d integer array, else IllegalActionError."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(f"{where}: an action must be an integer abstract id, got {action!r}")
    a = int(action)
    if not 0 <= a < NUM_ABSTRACT:
        raise IllegalActionError(f"{where}: abstract action {a} is out of range 0..{NUM_ABSTRACT - 1}")
    return a


class DaGuaiEnv(gymnasium.Env):
    """One learner against opponents: ``gymnasium.make("daguai/DaGuai-v0", ...)``.

    Parameters
    ----------
    seat : int or sequence of int
        The seat(s) the learner plays (default 0). ``(0, 2, 4)`` plays team A: the learner
        then decides for whichever of its seats is to act (the observation is that seat's).
    opponents : str, callable, sequence or mapping
        The policy of every other seat: any policy ``simulate`` takes by name — a built-in
        name (``"random"``, ``"greedy"``, ``"heuristic"``, ``"pimc"``, ``"learned"``, ...)
        or a model ``path.dgn``, run in C++ with its own seeded stream per seat (R17), or an
        import path ``package.module:policy`` / ``file.py:policy`` of a ``policy(view, seat)``
        (given the seat's view, as in ``simulate``) — a callable
        ``policy(game, seat) -> action`` (anything :meth:`daguai.Game.step` accepts), a
        sequence of 6 (entries of learner seats are ignored) or a ``{seat: policy}`` dict; a
        partner of the learner that the dict does not name is the learner's too (``seat=0,
        opponents={1: p, 3: p, 5: p}`` is ``seat=(0, 2, 4)``), any other seat must be named.
        A ``.dgn`` model trained for other rules than ``rules`` is refused (``ModelError``)
        unless ``model_rules="any"``.
    rules : Rules, optional
        Rule variants, including the scoring scheme of the rewards (R13).
    matches : bool
        One episode = a whole match instead of one round.
    start : {None, "random", "fresh"}
        Where episodes begin; ``None``: ``"random"`` for rounds, ``"fresh"`` for matches.
    auto_pass : bool
        Forced passes are applied by the engine (the learner never faces a lone pass).
    illegal_action : {"random", "raise"}
        What a masked-out (but in-range) id does. ``"random"`` (default): a uniformly random
        legal action from ``np_random`` is played instead, ``info["illegal_action"]`` is
        True and ``illegal_penalty`` is added to the reward (this keeps every sample of
        ``action_space`` valid, as Gymnasium's tools assume). ``"raise"``:
        :class:`daguai.IllegalActionError`, nothing changes.
    illegal_penalty : float
        Added to the reward of a step whose action was masked out (default 0).
    render_mode : {None, "ansi"}
        ``"ansi"``: :meth:`render` returns the table from the learner's view (its hand only).

    Notes
    -----
    Episodes: ``reset(seed=s)`` plays ``Game(s, rules, game=0, start=start)``; every later
    ``reset()`` moves to the next game index of the same seed, so a sequence of episodes is
    reproducible from the first seed (without any seed, one is drawn from ``np_random``).
    Opponents move inside :meth:`step` (and :meth:`reset`) until a learner seat is to act.
    Reward: the learner's seat's score change (R13) on the step in which a round ends, else
    0 (partners share scores). Terminated: the round (or match) ended; the observation is
    then the finished state from the learner's last seat, with an all-zero mask. Never
    truncated (rounds always end; use ``max_episode_steps`` of ``gymnasium.make`` to cap).
    ``info``: ``action_mask`` (int8 copy), ``seat`` (seat to act, -1 at the end),
    ``game_index``, ``illegal_action``, and at an episode's end ``round_result`` (dict).
    ``self.game`` is the current :class:`daguai.Game` (read it, do not step it).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, seat: int | Sequence[int] = 0, opponents: Any = "heuristic",
                 rules: Rules | None = None, matches: bool = False,
                 start: str | None = None, auto_pass: bool = False,
                 illegal_action: str = "random", illegal_penalty: float = 0.0,
                 render_mode: str | None = None, model_rules: str = "same") -> None:
        super().__init__()
        self.rules = check_rules(rules, mappings=False)
        for name, value in (("matches", matches), ("auto_pass", auto_pass)):
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be True or False, got {value!r}")
        self.matches, self.auto_pass = matches, auto_pass
        self.start = _check_start(start, matches)
        self.n_seats = seats_of(self.rules)  # R18: 6, or 4 at 4p2d
        self.seats = self._check_seats(seat, self.n_seats)
        self.policies = self._check_opponents(opponents)
        # a .dgn opponent trained for other rules: refused unless model_rules="any"
        check_model_rules(list(self.policies.values()), self.rules, model_rules)
        if illegal_action not in ("random", "raise"):
            raise ValueError(f"illegal_action must be 'random' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        if isinstance(illegal_penalty, bool) or not isinstance(illegal_penalty, (int, float)):
            raise ValueError(f"illegal_penalty must be a number, got {illegal_penalty!r}")
        self.illegal_penalty = float(illegal_penalty)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space = _obs_space(self.rules, matches)
        self.action_space = spaces.Discrete(NUM_ABSTRACT)
        # Round episodes stop after their round (its final state stays observable).
        self._game_rules = self.rules if matches else self.rules.replace(max_rounds=1)
        self.game_seed: int | None = None
        self.game_index = 0
        self.game: Game | None = None
        self._runners: dict[int, Any] = {}
        self._last_seat = self.seats[0]

    @staticmethod
    def _check_seats(seat: Any, n: int = 6) -> tuple[int, ...]:
        items = [seat] if isinstance(seat, (int, np.integer)) else seat
        try:
            seats = tuple(items)
        except TypeError:
            raise ValueError(f"seat must be a seat 0..{n - 1} or a sequence of seats, got {seat!r}") from None
        if not seats or any(isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, np.integer))
                            or not 0 <= int(s) < n for s in seats) or len(set(seats)) != len(seats):
            raise ValueError(f"seat must be a seat 0..{n - 1} or a sequence of distinct seats, got {seat!r}")
        if len(seats) == n:
            raise ValueError(f"the learner cannot play all {'six' if n == 6 else n} seats here: use "
                             "daguai.learn.BatchEnv or daguai/DaGuaiSelfPlay-v0 for self-play")
        return tuple(sorted(int(s) for s in seats))

    def _check_opponents(self, opponents: Any) -> dict[int, PolicyLike]:
        if isinstance(opponents, str) or callable(opponents):
            per_seat: dict[int, Any] = {s: opponents for s in range(self.n_seats)}
        elif isinstance(opponents, Mapping):
            per_seat = dict(opponents)
            # A partner the dict leaves out is the learner's: it decides for its team, as with
            # seat=(0, 2, 4) (alternate seats are partners, R1, R18); other seats need a policy.
            teams = {s % 2 for s in self.seats}
            mine = {s for s in range(self.n_seats) if s not in per_seat and s % 2 in teams}
            self.seats = self._check_seats(sorted(set(self.seats) | mine), self.n_seats)
        elif isinstance(opponents, Iterable):
            listed = list(opponents)
            if len(listed) != self.n_seats:
                raise ValueError(f"opponents as a sequence needs {self.n_seats} entries (one per seat), "
                                 f"got {len(listed)}")
            per_seat = dict(enumerate(listed))
        else:
            raise ValueError(f"opponents must be a policy name ({', '.join(BUILTIN_POLICIES)}), a "
                             f"callable, a sequence of {self.n_seats} or a dict, got {opponents!r}")
        out: dict[int, PolicyLike] = {}
        for s in range(self.n_seats):
            if s in self.seats:
                continue
            if s not in per_seat:
                raise ValueError(f"opponents gives no policy for seat {s}")
            p = per_seat[s]
            if isinstance(p, Bot) or isinstance(p, str):
                # every policy simulate takes: a built-in name (pimc and learned too), a model
                # path.dgn (both run in C++ by name), an import path package.module:policy or
                # file.py:policy (a simulate-style policy(view, seat): it gets the seat's view)
                try:
                    q = check_policy(p)
                except ValueError as exc:
                    raise ValueError(f"the policy of seat {s}: {exc}") from None
                out[s] = q if isinstance(q, str) else _ViewPolicy(q)
            elif callable(p):
                out[s] = p
            else:
                raise ValueError(f"the policy of seat {s} must be a policy name, a model path.dgn, an "
                                 f"import path or a callable policy(game, seat), got {p!r}")
        return out

    # ---- episode -----------------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if seed is not None:
            seed = check_seed(seed)  # before Gymnasium's own seeding sees it
        super().reset(seed=seed)
        if seed is not None:
            self.game_seed, self.game_index = seed, 0
        elif self.game_seed is None:
            self.game_seed, self.game_index = int(self.np_random.integers(2**63)), 0
        else:
            self.game_index += 1
        while True:
            self._new_game()
            _, ended = self._advance()
            if not ended:
                break
            self.game_index += 1  # the learner never got to act (auto_pass): next deal
        self._illegal = False
        return self._obs(), self._info(None)

    def _game(self) -> Game:
        if self.game is None:
            raise IllegalActionError("call reset() first")
        return self.game

    def _new_game(self) -> None:
        assert self.game_seed is not None
        self.game = Game(self.game_seed, self._game_rules, auto_pass=self.auto_pass,
                         game=self.game_index, start=self.start)
        self._runners = {s: _core.run.PolicyRunner(p, self.game_seed, self.game_index, s)
                         for s, p in self.policies.items() if isinstance(p, str)}

    def _round_end(self, before: int) -> tuple[float, bool]:
        g = self._game()
        reward = 0.0
        for k in range(before, g.n_results):
            reward += float(g.result(k)["scores"][self.seats[0]])
        ended = g.n_results > before and (not self.matches or g.match_over)
        return reward, ended

    def _advance(self) -> tuple[float, bool]:
        """Opponents move until a learner seat is to act; (reward, episode ended)."""
        g = self._game()
        before = g.n_results
        while not g.match_over and g.current_player not in self.seats:
            s = int(g.current_player)
            runner = self._runners.get(s)
            if runner is not None:
                g.step(runner.act(g))
            else:
                p = self.policies[s]
                assert callable(p)
                g.step(p(g, s))
        return self._round_end(before)

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.game is None:
            raise IllegalActionError("call reset() before step()")
        g = self.game
        if g.match_over or g.current_player not in self.seats:
            raise IllegalActionError("the episode has ended: call reset()")
        a = _action_id(action, f"seat {g.current_player}")
        mask, index = _core.io.abstract_mask(g)
        reward = 0.0
        self._illegal = not mask[a]
        if self._illegal:
            if self.illegal_action == "raise":
                legal = np.flatnonzero(mask)
                raise IllegalActionError(
                    f"seat {g.current_player}: abstract action {a} is masked out (not legal now); "
                    f"legal ids: {legal[:20].tolist()}{' …' if len(legal) > 20 else ''}")
            a = int(self.np_random.choice(np.flatnonzero(mask)))
            reward += self.illegal_penalty
        self._last_seat = g.current_player
        before = g.n_results
        g.step(g.legal_actions()[int(index[a])])
        r, ended = self._round_end(before)
        reward += r
        if not ended:
            r, ended = self._advance()
            reward += r
        obs = self._obs()
        return obs, reward, ended, False, self._info(obs if not ended else None, ended)

    # ---- views -------------------------------------------------------------------------
    def _obs(self) -> dict[str, np.ndarray]:
        g = self._game()
        live = not g.match_over and g.current_player in self.seats
        seat = g.current_player if live else self._last_seat
        if live:
            self._last_seat = int(seat)
        mask = _core.io.abstract_mask(g)[0] if live else np.zeros(NUM_ABSTRACT, dtype=np.int8)
        return {"observation": _core.io.encode_observation(g, seat), "action_mask": mask}

    def _info(self, obs: dict[str, np.ndarray] | None, ended: bool = False) -> dict[str, Any]:
        g = self._game()
        live = not g.match_over and g.current_player in self.seats
        info: dict[str, Any] = {
            "action_mask": (_core.io.abstract_mask(g)[0] if live
                            else np.zeros(NUM_ABSTRACT, dtype=np.int8)),
            "seat": g.current_player if live else -1,
            "game_index": self.game_index,
            "illegal_action": bool(getattr(self, "_illegal", False)),
        }
        if ended:
            info["round_result"] = g.round_result
        return info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        if self.game is None:
            return "(no episode: call reset())"
        return self.game.render(seat=self._last_seat)


_gym_ids.register(gymnasium)
