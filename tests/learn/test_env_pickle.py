"""Environments that pickle: ``BatchEnv`` (and so the Gymnasium vector env) is
saved as its constructor's arguments, its opponents and each environment's episode with the
learner's decisions in it, and replayed on unpickling (R17: same seed, same decisions, same
game), so a copy made mid-episode steps exactly as the original: same observations, masks,
rewards, done flags and final observations for the same actions. A corrupt state is refused
with IllegalActionError (a ValueError). Gymnasium's subprocess vector env (``AsyncVectorEnv``,
``context="spawn"``) plays daguai's env as the in-process one does."""

from __future__ import annotations

import concurrent.futures
import copy
import multiprocessing
import pickle

import daguai
import numpy as np
import pytest
from daguai import IllegalActionError, Rules, _core

CASES = {
    "rounds": {},
    "heuristic opponents": {"opponents": ["heuristic", None] * 3},
    "a match, random opponents": {"matches": True, "opponents": [None, "random"],
                                  "rules": Rules(final_level="3")},
    "candidate indices": {"abstract": False, "start": "fresh"},
    "auto_pass": {"auto_pass": True},
    "4p2d (R18)": {"rules": Rules(table="4p2d"), "opponents": [None, "greedy"]},
}


def _actions(env: daguai.learn.BatchEnv, out: tuple, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per environment (ids or indices)."""
    if env.abstract:
        return (rng.random(out[1].shape) * out[1]).argmax(axis=1)
    return np.array([rng.integers(len(env.legal_actions(i))) for i in range(env.n)])


def _same(a: tuple, b: tuple) -> bool:
    return all((x is None and y is None) or np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("kwargs", CASES.values(), ids=CASES.keys())
def test_batch_env_pickles_mid_episode_and_the_copy_steps_identically_r17(kwargs):
    env = daguai.learn.BatchEnv(3, seed=11, **kwargs)
    out = env.reset()
    rng = np.random.default_rng(1)
    for _ in range(23):  # mid-episode in every environment
        out = env.step(_actions(env, out, rng))
    copies = [pickle.loads(pickle.dumps(env, p)) for p in range(pickle.HIGHEST_PROTOCOL + 1)]
    copies.append(copy.deepcopy(env))
    base = env.observe()
    for c in copies:  # the last step's outputs too (rewards, done, final_obs)
        assert _same(c.observe(), base) and np.array_equal(c.final_obs, env.final_obs)
        assert c.episodes_done == env.episodes_done and c.n == env.n and c.rules == env.rules
    twin = copies[-2]
    rngs = [np.random.default_rng(7), np.random.default_rng(7)]
    outs = [base, twin.observe()]
    ended = 0
    for _ in range(250):
        outs = [e.step(_actions(e, o, r)) for e, o, r in zip((env, twin), outs, rngs, strict=True)]
        assert _same(*outs)
        assert np.array_equal(env.final_obs, twin.final_obs)
        assert [env.game_index(i) for i in range(3)] == [twin.game_index(i) for i in range(3)]
        ended += int(outs[0][3].sum())
    assert env.episodes_done == twin.episodes_done
    assert ended > 0 or kwargs.get("matches"), "no episode ended: the test saw no reset"


def test_a_pickled_batch_env_is_independent_of_its_original():
    env = daguai.learn.BatchEnv(2, seed=3, opponents=["random", None] * 3)
    twin = pickle.loads(pickle.dumps(env))
    rng = np.random.default_rng(0)
    out = env.observe()
    for _ in range(30):
        out = env.step(_actions(env, out, rng))
    fresh = daguai.learn.BatchEnv(2, seed=3, opponents=["random", None] * 3)
    assert _same(twin.observe(), fresh.observe())


def _state(env: daguai.learn.BatchEnv) -> tuple:
    fn, args = env._env.__reduce__()
    assert fn is _core.run._batch_env_from_state
    return args


def test_a_corrupt_batch_env_state_is_refused_by_name():
    env = daguai.learn.BatchEnv(2, seed=5, opponents=[None, "heuristic"] * 3)
    rng = np.random.default_rng(0)
    out = env.reset()
    for _ in range(5):
        out = env.step(_actions(env, out, rng))
    good = list(_state(env))
    assert _same(_core.run._batch_env_from_state(*good).observe(), env.observe())

    def refused(i: int, value: object, words: str, error: type = IllegalActionError) -> None:
        bad = list(good)
        bad[i] = value
        with pytest.raises(error, match=words):
            _core.run._batch_env_from_state(*bad)

    refused(0, 0, "n out of range")
    refused(7, ["nobody"] + good[7][1:], "unknown policy 'nobody'")
    refused(7, good[7][:5], "6 opponent entries")
    refused(7, ["random"] * 6, "at least one seat must be the learner's")
    refused(8, -1, "negative episodes_done")
    refused(9, [0], "n is 2 but it holds 1 episode numbers and 2 decision lists")
    refused(9, [-3, 0], "environment 0 has episode -3")
    refused(10, [[0], [9999]], "environment 1: decision 0 is not a legal index")
    # index 0 is always legal: replayed long enough it ends the round, which a saved
    # episode never holds
    refused(10, [[0] * 5000, []], "environment 0: its episode ends at decision")
    refused(11, np.zeros(3, dtype=np.float32), "output arrays of the wrong size")
    refused(1, {"wild": "nonsense"}, "wild", daguai.CardError)  # the rules' own check
    with pytest.raises(IllegalActionError, match="14 fields"):
        _core.run._batch_env_from_state(*good[:5])


def _steps(env, actions):
    out = []
    for a in actions:
        obs, reward, term, trunc, info = env.step(a)
        out.append((obs["observation"], obs["action_mask"], reward, term, trunc, info["rewards"],
                    info["to_act"]))
    return out


def test_the_vector_env_pickles_mid_episode_and_the_copy_plays_identically():
    """Found: DaGuaiVectorEnv could not be pickled because BatchEnv could not."""
    from daguai.learn.envs.gym_vector import DaGuaiVectorEnv

    vec = DaGuaiVectorEnv(num_envs=3, max_episode_steps=40)
    obs, _ = vec.reset(seed=9)
    rng = np.random.default_rng(2)
    for _ in range(15):
        ids = (rng.random(obs["action_mask"].shape) * obs["action_mask"]).argmax(axis=1)
        obs, *_ = vec.step(ids)
    twin = pickle.loads(pickle.dumps(vec))
    masks = [obs["action_mask"]]
    actions = []
    probe = pickle.loads(pickle.dumps(vec))  # find a legal action sequence once
    for _ in range(120):
        ids = (rng.random(masks[-1].shape) * masks[-1]).argmax(axis=1)
        actions.append(ids)
        o, *_ = probe.step(ids)
        masks.append(o["action_mask"])
    a, b = _steps(vec, actions), _steps(twin, actions)
    for x, y in zip(a, b, strict=True):
        assert all(np.array_equal(p, q) for p, q in zip(x, y, strict=True))


def _play_in_child(blob: bytes, actions: list) -> list:
    return _steps(pickle.loads(blob), actions)


def test_a_pickled_vector_env_plays_on_in_a_spawned_process():
    from daguai.learn.envs.gym_vector import DaGuaiVectorEnv

    vec = DaGuaiVectorEnv(num_envs=2, seed=4)
    obs, _ = vec.reset(seed=4)
    vec.step(np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]]))
    actions = [np.array([0, 0])] * 10  # masked-out ids become random legal ones (its own rng)
    blob = pickle.dumps(vec)
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as pool:
        there = pool.submit(_play_in_child, blob, actions).result(timeout=120)
    here = _steps(vec, actions)
    for x, y in zip(here, there, strict=True):
        assert all(np.array_equal(p, q) for p, q in zip(x, y, strict=True))


def _make_env():
    import gymnasium

    return gymnasium.make("daguai/DaGuai-v0", opponents="heuristic")


def test_a_spawned_async_vector_env_plays_as_the_sync_one():
    """gymnasium.vector.AsyncVectorEnv(context="spawn"): each env is pickled into its own
    process; two envs, 12 steps, every wait bounded."""
    gymnasium = pytest.importorskip("gymnasium")
    fns = [_make_env, _make_env]
    sync = gymnasium.vector.SyncVectorEnv(fns)
    spawned = gymnasium.vector.AsyncVectorEnv(fns, context="spawn")
    try:
        spawned.reset_async(seed=[1, 2])
        got, _ = spawned.reset_wait(timeout=120)
        want, _ = sync.reset(seed=[1, 2])
        assert np.array_equal(got["observation"], want["observation"])
        for _ in range(12):
            ids = np.array([np.flatnonzero(m)[-1] for m in want["action_mask"]])
            spawned.step_async(ids)
            got, r1, t1, u1, _ = spawned.step_wait(timeout=60)
            want, r2, t2, u2, _ = sync.step(ids)
            assert np.array_equal(got["observation"], want["observation"])
            assert np.array_equal(got["action_mask"], want["action_mask"])
            assert np.array_equal(r1, r2) and np.array_equal(t1, t2) and np.array_equal(u1, u2)
    finally:
        spawned.close(terminate=True)
        sync.close()
