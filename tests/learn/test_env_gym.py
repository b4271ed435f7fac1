"""Gymnasium environments (python/daguai/learn/envs/gym_env.py): Gymnasium's own env checker, the
single-agent env against daguai.Game stepped with the same decisions and the same C++
opponents, and the vector env against daguai.learn.BatchEnv."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from daguai import (  # noqa: E402
    Game,
    IllegalActionError,
    Rules,
    _core,  # noqa: E402
)
from daguai.learn import BatchEnv, abstract_mask, action_from_abstract, encode_observation  # noqa: E402
from daguai.learn.envs.gym_env import ENV_ID, SELF_PLAY_ID, DaGuaiEnv  # noqa: E402
from daguai.learn.envs.gym_vector import DaGuaiVectorEnv  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402


@pytest.mark.parametrize("kwargs", [
    {},
    {"seat": (1, 3, 5), "opponents": "greedy"},
    {"matches": True, "rules": Rules(final_level="3", max_rounds=2), "opponents": "random"},
    {"seat": 4, "opponents": "random", "auto_pass": True, "start": "fresh"},
], ids=["default", "team", "matches", "auto_pass"])
def test_gymnasium_check_env(kwargs):
    env = gymnasium.make(ENV_ID, **kwargs)
    check_env(env.unwrapped)  # warnings are errors in this suite


def test_registered_ids_and_module_entry_point():
    assert ENV_ID in gymnasium.envs.registry and SELF_PLAY_ID in gymnasium.envs.registry
    env = gymnasium.make("daguai.learn.envs.gym_env:daguai/DaGuai-v0", opponents="random")
    assert isinstance(env.unwrapped, DaGuaiEnv)
    v = gymnasium.make_vec(SELF_PLAY_ID, num_envs=3)
    assert isinstance(v, DaGuaiVectorEnv) and v.num_envs == 3


def play_against_reference(seed, seat, opponents, rules, episodes, start=None):
    """Random learner play through the env, checked step by step against a Game whose
    opponent seats are played by the same C++ policies (own streams per (seed, game, seat))."""
    env = DaGuaiEnv(seat=seat, opponents=opponents, rules=rules, start=start)
    rng = np.random.default_rng(seed)
    seats = env.seats
    total = []
    obs, info = env.reset(seed=seed)
    for ep in range(episodes):
        g = Game(seed, rules.replace(max_rounds=1), game=ep, start=env.start)
        runners = {s: _core.run.PolicyRunner(opponents, seed, ep, s) for s in range(6) if s not in seats}

        def advance(g=g, runners=runners):
            while not g.match_over and g.current_player not in seats:
                g.step(runners[g.current_player].act(g))

        advance()
        ret = 0.0
        while True:
            assert info["seat"] == g.current_player and info["game_index"] == ep
            assert np.array_equal(obs["observation"], encode_observation(g, g.current_player))
            assert np.array_equal(obs["action_mask"], abstract_mask(g))
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, term, trunc, info = env.step(a)
            g.step(action_from_abstract(g, a))
            advance()
            ret += reward
            assert not trunc and not info["illegal_action"]
            if term:
                break
            assert reward == 0
        assert g.match_over and env.game == g
        assert ret == g.round_result["scores"][seats[0]]
        assert info["round_result"] == g.round_result and info["seat"] == -1
        assert not obs["action_mask"].any()
        total.append(ret)
        obs, info = env.reset()
    return total


def test_single_seat_equals_game_with_the_same_opponents():
    returns = play_against_reference(5, 2, "heuristic", Rules(), episodes=4)
    assert any(r != 0 for r in returns)


def test_team_seats_equal_game():
    play_against_reference(6, (0, 2, 4), "greedy", Rules(scoring="simple"), episodes=2)


def test_python_callable_opponents():
    calls = []

    def first_legal(game, seat):
        assert isinstance(game, Game) and seat == game.current_player
        calls.append(seat)
        return game.legal_actions()[0]

    env = DaGuaiEnv(seat=0, opponents={1: first_legal, 2: "random", 3: first_legal,
                                       4: "greedy", 5: first_legal})
    obs, info = env.reset(seed=3)
    done = False
    while not done:
        a = int(np.flatnonzero(obs["action_mask"])[0])
        obs, r, done, _, info = env.step(a)
    assert calls and set(calls) <= {1, 3, 5}


def test_illegal_actions():
    env = DaGuaiEnv(opponents="random", illegal_action="raise")
    obs, _ = env.reset(seed=1)
    before = env.game.to_json()
    masked = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    for bad, msg in ((masked, "masked out"), (444, "out of range"), (-1, "out of range"),
                     (1.0, "integer"), ("pass", "integer"), (None, "integer")):
        with pytest.raises(IllegalActionError, match=msg):
            env.step(bad)
        assert env.game.to_json() == before
    lenient = DaGuaiEnv(opponents="random", illegal_penalty=-0.5)
    obs, _ = lenient.reset(seed=1)
    obs2, r, term, trunc, info = lenient.step(masked)
    assert info["illegal_action"] and r == -0.5 + (info.get("round_result") or {"scores": [0]})["scores"][0]
    with pytest.raises(IllegalActionError, match="out of range"):
        lenient.step(444)  # outside the space: always an error
    with pytest.raises(IllegalActionError, match="reset"):
        DaGuaiEnv().step(0)


def test_bad_construction():
    for kwargs, msg in (({"seat": 6}, "seat"), ({"seat": (0, 0)}, "seat"),
                        ({"seat": tuple(range(6))}, "six"), ({"opponents": "smart"}, "policy"),
                        ({"opponents": ["random"] * 5}, "6 entries"), ({"opponents": {1: "random"}}, "seat"),
                        ({"rules": "default"}, "Rules"), ({"start": "later"}, "start"),
                        ({"illegal_action": "ignore"}, "illegal_action"), ({"matches": 1}, "matches"),
                        ({"render_mode": "human"}, "render_mode")):
        with pytest.raises(ValueError, match=msg):
            DaGuaiEnv(**kwargs)


def test_seeding_and_render():
    env = DaGuaiEnv(opponents="random", render_mode="ansi")
    env.reset(seed=9)
    assert (env.game_seed, env.game_index) == (9, 0)
    first = env.game.to_json()
    env.reset()
    assert env.game_index == 1
    env.reset(seed=9)
    assert env.game.to_json() == first
    text = env.render()
    assert "seat 0" in text and "··" in text  # other hands hidden
    for bad in (-1, 2**64, 1.5, "1", True):
        with pytest.raises(ValueError, match="seed"):
            env.reset(seed=bad)


# ---------------------------------------------------------------------------
# The vector env
# ---------------------------------------------------------------------------

def test_vector_env_equals_batch_env():
    n = 6
    v = gymnasium.make_vec(SELF_PLAY_ID, num_envs=n)
    b = BatchEnv(n, seed=21)
    obs, info = v.reset(seed=21)
    bobs, bmask, _, _, bto = b.reset()
    assert np.array_equal(obs["observation"], bobs) and np.array_equal(obs["action_mask"], bmask)
    assert np.array_equal(info["to_act"], bto)
    assert v.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        actions = (rng.random(bmask.shape) * bmask).argmax(axis=1)
        actor = bto.copy()
        obs, reward, term, trunc, info = v.step(actions)
        bobs, bmask, brew, bdone, bto = b.step(actions)
        assert np.array_equal(obs["observation"], bobs) and np.array_equal(obs["action_mask"], bmask)
        assert np.array_equal(term, bdone.astype(bool)) and not trunc.any()
        assert np.array_equal(info["rewards"], brew) and np.array_equal(info["seat"], actor)
        assert np.array_equal(reward, brew[np.arange(n), actor])
        for i in np.flatnonzero(term):
            assert info["_final_obs"][i]
            assert np.array_equal(info["final_obs"][i]["observation"], b.final_obs[i])
            ended += 1
        if not term.any():
            assert "final_obs" not in info
    assert ended >= n


def test_vector_env_truncation():
    v = DaGuaiVectorEnv(num_envs=3, max_episode_steps=10)
    obs, info = v.reset(seed=2)
    first_games = info["game_index"].copy()
    for _step in range(10):
        actions = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
        before = obs["observation"].copy()
        obs, reward, term, trunc, info = v.step(actions)
    assert trunc.all() and not term.any()
    assert np.array_equal(info["game_index"], first_games + 3)  # the next episodes
    assert info["_final_obs"].all()
    assert not np.array_equal(info["final_obs"][0]["observation"], before[0])
    g = Game(2, Rules(max_rounds=1), game=3, start="random")  # env 0's next episode
    assert np.array_equal(obs["observation"][0], encode_observation(g, g.current_player))


def test_vector_env_bad_input():
    v = DaGuaiVectorEnv(num_envs=2)
    with pytest.raises(IllegalActionError, match="reset"):
        v.step(np.zeros(2, dtype=np.int64))
    obs, _ = v.reset(seed=1)
    with pytest.raises(IllegalActionError, match="1-d array of 2"):
        v.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="one integer seed"):
        v.reset(seed=[1, 2])
    for kwargs in ({"num_envs": 0}, {"max_episode_steps": 0}, {"start": "x"}):
        with pytest.raises(ValueError):
            DaGuaiVectorEnv(**kwargs)
