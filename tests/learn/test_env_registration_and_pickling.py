"""Environments as a newcomer meets them: Gymnasium ids registered by ``import daguai`` (either import
order, without importing Gymnasium), environments that pickle (built-in opponents keep their
random streams), the vector env's unmasked sample handled as the single env does, and one
set of observation bounds for Gymnasium and PettingZoo."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
import daguai  # noqa: E402
import gymnasium  # noqa: E402
from daguai import IllegalActionError, Rules, _core  # noqa: E402
from daguai.learn.tensors import observation_bounds  # noqa: E402

ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))


@pytest.mark.parametrize("imports", ["import daguai, gymnasium", "import gymnasium, daguai"])
def test_make_works_after_import_daguai_in_either_order(imports):
    """Found: `gymnasium.make("daguai/DaGuai-v0")` raised NamespaceNotFound unless
    daguai.learn.envs.gym_env had been imported; `import daguai` alone must not import Gymnasium."""
    code = (f"{imports}\nimport sys\n"
            "e = gymnasium.make('daguai/DaGuai-v0', opponents='random')\n"
            "e.reset(seed=1)\n"
            "v = gymnasium.make_vec('daguai/DaGuaiSelfPlay-v0', num_envs=2)\n"
            "v.reset(seed=1)\nprint('ok')")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr
    alone = subprocess.run([sys.executable, "-c", "import daguai, sys; print('gymnasium' in sys.modules)"],
                           capture_output=True, text=True, env=ENV, timeout=300)
    assert alone.stdout.strip() == "False", alone.stderr


def _run(env, obs, steps: int) -> list:
    out = []
    for _ in range(steps):
        obs, reward, terminated, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        out.append((reward, terminated, obs["observation"].tobytes()))
        if terminated:
            break
    return out


@pytest.mark.parametrize("opponents", ["heuristic", "random"])
def test_the_single_env_pickles_and_the_copy_plays_on_identically(opponents):
    """Found: DaGuaiEnv held unpicklable PolicyRunners (subprocess vector envs failed)."""
    env = gymnasium.make("daguai/DaGuai-v0", opponents=opponents).unwrapped
    obs, _ = env.reset(seed=4)
    for _ in range(3):
        obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    twin = pickle.loads(pickle.dumps(env))
    clone = copy.deepcopy(env)
    a = _run(env, env._obs(), 40)
    assert a == _run(twin, twin._obs(), 40) == _run(clone, clone._obs(), 40)
    assert len(a) > 3


def test_policy_runner_pickles_with_its_stream_and_refuses_corrupt_state():
    g = daguai.Game(5, Rules(wild="high"))
    r = _core.run.PolicyRunner("random", 5, 0, g.current_player)
    for _ in range(3):
        r.act(g)
    twin = pickle.loads(pickle.dumps(r))
    assert [str(twin.act(g)) for _ in range(20)] == [str(r.act(g)) for _ in range(20)]
    want = str(copy.copy(r).act(g))
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):  # 0 and 1 go through copyreg
        assert str(pickle.loads(pickle.dumps(r, protocol)).act(g)) == want
    for bad in (("random", 0, 0, 0, 0), ("nobody", 1, 2, 3, 4), ("random", "x"), ("random", -1, 2, 3, 4)):
        with pytest.raises(ValueError):
            _core.run._policy_runner_from_state(*bad)


def test_an_unmasked_sample_works_in_the_vector_env_as_in_the_single_env():
    """Found: `action_space.sample()` without the mask raised in the vector env while the
    single env played a random legal action instead."""
    single = gymnasium.make("daguai/DaGuai-v0", opponents="random")
    single.reset(seed=1)
    *_, info = single.step(single.action_space.sample())
    assert "illegal_action" in info
    vec = gymnasium.make_vec("daguai/DaGuaiSelfPlay-v0", num_envs=8)
    vec.reset(seed=1)
    flagged = 0
    for _ in range(30):
        *_, info = vec.step(vec.action_space.sample())
        flagged += int(info["illegal_action"].sum())
    assert flagged > 0
    strict = gymnasium.make_vec("daguai/DaGuaiSelfPlay-v0", num_envs=8, illegal_action="raise")
    obs, _ = strict.reset(seed=1)
    bad = np.array([int(np.flatnonzero(m == 0)[0]) for m in obs["action_mask"]])
    with pytest.raises(IllegalActionError):
        strict.step(bad)
    with pytest.raises(IllegalActionError):  # out of range is never substituted
        vec.step(np.full(8, 10_000))


@pytest.mark.parametrize("rules, matches", [(Rules(), False), (Rules(max_rounds=5), True),
                                            (Rules(base=3), False)])
def test_pettingzoo_and_gymnasium_share_the_score_bounds(rules, matches):
    """Found: ±inf in PettingZoo, ±0.18 in Gymnasium."""
    from daguai.env import raw_env

    gym_space = gymnasium.make("daguai/DaGuai-v0", rules=rules, matches=matches).observation_space
    pz = raw_env(rules=rules, matches=matches)
    pz_space = pz.observation_space(pz.possible_agents[0])
    low, high = observation_bounds(rules, matches)
    for space in (gym_space, pz_space):
        assert np.array_equal(space["observation"].low, low)
        assert np.array_equal(space["observation"].high, high)
    assert np.isfinite(low).all() and np.isfinite(high).all()


def test_a_find_spec_before_the_import_does_not_lose_the_registration():
    code = ("import daguai, importlib.util\n"
            "assert importlib.util.find_spec('gymnasium') is not None\n"
            "import gymnasium\n"
            "gymnasium.make('daguai/DaGuai-v0', opponents='random').reset(seed=1)\n"
            "import sys\n"
            "from daguai import _gym_ids\n"
            "assert not any(isinstance(f, _gym_ids._Hook) for f in sys.meta_path)\n"
            "print('ok')")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr
