"""The self-play vector environment ``"daguai/DaGuaiSelfPlay-v0"`` (docs/learning.md
"Gymnasium"): :class:`daguai.learn.BatchEnv` behind Gymnasium's vector API, one policy acting for
whichever seat is to act in ``num_envs`` games stepped together in C++. The conventions it
shares with :class:`daguai.learn.envs.gym_env.DaGuaiEnv` are in ``gym_env.py``; needs the
optional package ``gymnasium``."""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np

try:
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as _exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "daguai.learn.envs.gym_vector needs the optional package gymnasium: pip install 'daguai[rl]' "
        f"(or: pip install gymnasium). ({_exc})") from _exc

from ..._core.core import IllegalActionError
from ...checks import check_rules, check_seed
from ...rules import Rules
from ..tensors import NUM_ABSTRACT
from .batch_env import BatchEnv
from .gym_env import _check_start, _obs_space

__all__ = ["DaGuaiVectorEnv"]


class DaGuaiVectorEnv(VectorEnv):
    """:class:`daguai.learn.BatchEnv` through Gymnasium's vector API (self-play):
    ``gymnasium.make_vec("daguai/DaGuaiSelfPlay-v0", num_envs=n)``.

    One policy decides for whichever seat is to act in each of ``num_envs`` games stepped
    together in C++ (the GIL released).

    Parameters
    ----------
    num_envs : int
        Number of games.
    rules, matches, start, auto_pass
        As for :class:`daguai.learn.BatchEnv` (round episodes with random start states by default).
    max_episode_steps : int, optional
        Truncate an episode after this many steps (none by default: rounds always end).
    opponents, model_rules
        As for :class:`daguai.learn.BatchEnv`: built-in policies or models on the seats the policy
        does not play (a sequence of 6, 2 per team, or a ``{seat: policy}`` dict whose
        unnamed seats, partners included, are the policy's); they move in C++ inside
        ``reset`` and ``step``, so every observation is of a seat of the policy. None
        (default): self-play, the policy plays every seat.

    Notes
    -----
    ``observation_space``: the batched ``{"observation": float32 (n, 633), "action_mask":
    int8 (n, 444)}`` of the seat to act; ``action_space``: ``MultiDiscrete([444] * n)``
    abstract ids. Reward: ``reward[i]`` is the score change (R13) of the seat that made the
    step's decision in game ``i`` (non-zero only when the step ends a round);
    ``info["rewards"]`` (float32 (n, seats)) has every seat's, ``info["seat"]`` the seat that
    acted, ``info["to_act"]`` the seat to act now, ``info["game_index"]`` each game's index
    (``Game(seed, rules, game=..., start=...)`` replays it).

    Autoreset: ``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP`` — where
    ``terminated[i]`` or ``truncated[i]``, the returned observation is already the next
    episode's first, and the ended episode's last observation (seen by the seat that acted;
    for a truncation, by the seat to act) is in ``info["final_obs"]`` (batched like the
    observations, valid where ``info["_final_obs"][i]``), its info in ``info["final_info"]``.
    Bad actions (wrong shape, not integers, out of range) raise
    :class:`daguai.IllegalActionError` before any game changes. A masked-out id is handled
    as by :class:`DaGuaiEnv`: with ``illegal_action="random"`` (default) a random legal id of
    that game is played instead and ``info["illegal_action"][i]`` is True (so an unmasked
    ``action_space.sample()`` works in both); ``"raise"`` raises. Returned arrays are fresh.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1, rules: Rules | None = None, matches: bool = False,
                 start: str | None = None, auto_pass: bool = False,
                 max_episode_steps: int | None = None, seed: int = 0,
                 illegal_action: str = "random", opponents: Any = None,
                 model_rules: str = "same") -> None:
        self.rules = check_rules(rules, mappings=False)
        if illegal_action not in ("random", "raise"):
            raise ValueError(f"illegal_action must be 'random' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be an integer >= 1, got {num_envs!r}")
        if max_episode_steps is not None and (isinstance(max_episode_steps, bool) or not isinstance(
                max_episode_steps, (int, np.integer)) or max_episode_steps < 1):
            raise ValueError(f"max_episode_steps must be None or an integer >= 1, got {max_episode_steps!r}")
        self.num_envs = int(num_envs)
        self.matches = matches
        self.auto_pass = auto_pass
        self.start = _check_start(start, matches)
        self.max_episode_steps = max_episode_steps
        self.single_observation_space = _obs_space(self.rules, matches)
        self.single_action_space = spaces.Discrete(NUM_ABSTRACT)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._seed = check_seed(seed)
        self.opponents, self.model_rules = opponents, model_rules
        self._env: BatchEnv | None = None
        if opponents is not None:  # refused here, not at the first reset
            BatchEnv(1, rules=self.rules, opponents=opponents, model_rules=model_rules)
        self._steps = np.zeros(self.num_envs, dtype=np.int64)
        self._to_act = np.zeros(self.num_envs, dtype=np.int32)
        self._mask = np.zeros((self.num_envs, NUM_ABSTRACT), dtype=np.int8)
        self._rng = np.random.default_rng(self._seed)

    def _make(self, seed: int) -> None:
        self._seed = seed
        self._rng = np.random.default_rng(seed)
        self._env = BatchEnv(self.num_envs, rules=self.rules, seed=seed, matches=self.matches,
                             auto_pass=self.auto_pass, start=self.start, opponents=self.opponents,
                             model_rules=self.model_rules)

    def _batch(self, obs: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        return {"observation": obs.copy(), "action_mask": mask.copy()}

    def _base_info(self) -> dict[str, Any]:
        env = self._env
        return {"game_index": np.array([env.game_index(i) for i in range(self.num_envs)],
                                       dtype=np.uint64)}

    def reset(self, *, seed: int | list | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Restart every game at its first episode. ``seed`` (an int) picks the deals'
        seed (a fresh random one on the first reset without a seed); per-game seed lists
        are not supported (game ``i`` is game index ``i`` of the one seed)."""
        if isinstance(seed, list):
            raise ValueError("DaGuaiVectorEnv.reset takes one integer seed (game i uses game "
                             "index i of it), not a list")
        if seed is not None:
            self._make(check_seed(seed))
        elif self._env is None:
            self._make(secrets.randbits(64))
        obs, mask, _, _, to_act = self._env.reset()
        self._mask = mask.copy()
        self._steps[:] = 0
        self._to_act[:] = to_act
        info = self._base_info()
        info["to_act"] = to_act.copy()
        return self._batch(obs, mask), info

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray, dict[str, Any]]:
        if self._env is None:
            raise IllegalActionError("call reset() before step()")
        env = self._env
        actor = self._to_act.copy()
        actions, illegal = self._legal_ids(actions)
        obs, mask, rewards, done, to_act = env.step(actions)
        n = self.num_envs
        terminated = done.astype(bool)
        truncated = np.zeros(n, dtype=bool)
        reward = rewards[np.arange(n), actor].astype(np.float32)
        all_rewards = rewards.copy()
        self._steps += 1
        self._steps[terminated] = 0
        ended_obs: dict[int, dict[str, np.ndarray]] = {}
        for i in np.flatnonzero(terminated):
            ended_obs[int(i)] = {"observation": env.final_obs[i].copy(),
                                 "action_mask": np.zeros(NUM_ABSTRACT, dtype=np.int8)}
        if self.max_episode_steps is not None:
            for i in np.flatnonzero(self._steps >= self.max_episode_steps):
                ended_obs[int(i)] = {"observation": obs[i].copy(),
                                     "action_mask": np.zeros(NUM_ABSTRACT, dtype=np.int8)}
                truncated[i] = True
                self._steps[i] = 0
                obs, mask, _, _, to_act = env.truncate(int(i))
        self._to_act[:] = to_act
        self._mask = mask.copy()
        info: dict[str, Any] = self._base_info()
        info["illegal_action"] = illegal
        info["rewards"] = all_rewards
        info["seat"] = actor
        info["to_act"] = to_act.copy()
        for i, final in sorted(ended_obs.items()):
            info = self._add_info(info, {"final_obs": final, "final_info": {
                "rewards": all_rewards[i].copy(), "seat": int(actor[i])}}, i)
        return self._batch(obs, mask), reward, terminated, truncated, info

    def _legal_ids(self, actions: Any) -> tuple[Any, np.ndarray]:
        """``actions`` with each masked-out id replaced by a random legal id of its game
        (``illegal_action="random"``), and which were; anything malformed is passed on for
        BatchEnv to refuse."""
        illegal = np.zeros(self.num_envs, dtype=bool)
        if self.illegal_action != "random":
            return actions, illegal
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu" or \
                not ((a >= 0) & (a < NUM_ABSTRACT)).all():
            return actions, illegal
        a = a.astype(np.int64, copy=True)
        illegal = self._mask[np.arange(self.num_envs), a] == 0
        for i in np.flatnonzero(illegal):
            a[i] = int(self._rng.choice(np.flatnonzero(self._mask[i])))
        return a, illegal

    def __setstate__(self, state: Any) -> None:
        """A pickle's fields must agree with each other: ``num_envs`` is the number of games
        of the environment inside and of every per-game array (a tampered ``num_envs`` was an
        IndexError at :meth:`step`). A mismatch is refused with IllegalActionError."""
        bad = "corrupt DaGuaiVectorEnv state: "
        if not isinstance(state, dict):
            raise IllegalActionError(bad + "not a dict of fields")
        n = state.get("num_envs")
        if type(n) is not int or n < 1:
            raise IllegalActionError(bad + f"num_envs must be an integer >= 1, got {type(n).__name__}")
        env = state.get("_env")
        if env is not None and (not isinstance(env, BatchEnv) or env.n != n):
            raise IllegalActionError(bad + f"num_envs is {n} but the environment inside has "
                                     f"{env.n if isinstance(env, BatchEnv) else 'no'} games")
        for key, shape in (("_steps", (n,)), ("_to_act", (n,)), ("_mask", (n, NUM_ABSTRACT))):
            arr = state.get(key)
            if not isinstance(arr, np.ndarray) or arr.shape != shape:
                raise IllegalActionError(bad + f"{key} must be an array of shape {shape} "
                                         f"(num_envs = {n})")
        self.__dict__.update(state)

    def close_extras(self, **kwargs: Any) -> None:
        self._env = None
