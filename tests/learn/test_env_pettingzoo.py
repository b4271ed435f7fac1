"""The PettingZoo AEC environment (daguai.env): PettingZoo's own api_test, seed_test and
render_test unmodified, rewards equal to the Game's round results, a whole random episode
equal to a Game stepped with the same actions, seeding, bad actions, and the optional
import."""

from __future__ import annotations

import functools
import importlib
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import daguai  # noqa: E402
from daguai import (  # noqa: E402
    Game,
    IllegalActionError,
    Rules,
)
from daguai.env import env, raw_env  # noqa: E402
from daguai.learn import abstract_mask, action_from_abstract, encode_candidates, encode_observation  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

# api_test warns (not fails) that a Dict observation space is not a Box / Discrete and
# that the observation is not a bare array: both are PettingZoo's own convention for
# action masks (its classic environments are exempted by name). Every other warning is
# an error (pyproject's filterwarnings).
DICT_OBS = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


def with_dict_obs(f):
    for m in DICT_OBS:
        f = m(f)
    return f


def random_episode(e, seed, rng):
    """Play one episode with uniform random legal actions; returns the actions taken."""
    e.reset(seed=seed)
    actions = []
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append((agent, a))
        e.step(a)
    return actions


# ---------------------------------------------------------------------------
# PettingZoo's tests, unmodified
# ---------------------------------------------------------------------------

@with_dict_obs
@pytest.mark.parametrize("kwargs", [
    {},
    {"abstract": False},
    {"auto_pass": True, "rules": Rules(wild="declare", wrap_straights=True, scoring="simple")},
    {"matches": True, "rules": Rules(final_level="3", max_rounds=3, anti_tribute=True,
                                     joker_tribute_choice=True)},
], ids=["abstract", "candidates", "auto_pass_declare", "matches"])
def test_api_test(kwargs):
    if kwargs.get("rules") is not None and kwargs["rules"].wild == "declare":
        kwargs = {**kwargs, "max_candidates": 2**20}
    api_test(env(**kwargs), num_cycles=1000, verbose_progress=False)


@with_dict_obs
def test_api_test_raw_env():
    api_test(raw_env(), num_cycles=1000, verbose_progress=False)


def test_seed_test():
    seed_test(env, num_cycles=500)
    seed_test(functools.partial(env, abstract=False), num_cycles=200)
    seed_test(functools.partial(env, matches=True, rules=Rules(final_level="3")), num_cycles=200)


def test_render_test(capsys):
    render_test(raw_env)  # "human" prints, "ansi" returns text
    e = env(render_mode="ansi")
    e.reset(seed=3)
    text = e.render()
    assert text == e.unwrapped.game.render() and "seat 5" in text
    assert capsys.readouterr().out  # the human mode printed the table


def test_parallel_api_is_not_offered():
    assert raw_env.metadata["is_parallelizable"] is False
    assert not hasattr(importlib.import_module("daguai.env"), "parallel_env")


# ---------------------------------------------------------------------------
# Rewards, observations and trajectories against daguai.Game
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [Rules(), Rules(scoring="levels", base=3),
                                   Rules(scoring="simple")], ids=["stake", "levels", "simple"])
def test_episode_equals_game_stepped_with_the_same_actions(rules):
    """A whole random round through the AEC API equals daguai.Game(seed, rules) stepped
    with the same decisions: every observation (of every agent, not only the one to act),
    every mask, the agent to act, and the rewards (the round's scores, R13) at the end."""
    seed = 77
    e = env(rules=rules)
    e.reset(seed=seed)
    # round episodes begin at random start states (docs/learning.md); the original rules:
    # max_rounds=1 only changes what follows
    g = Game(seed, rules, start="random")
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            assert g.n_results == 1
            e.step(None)
            continue
        assert agent == f"player_{g.current_player}"
        assert reward == 0 and info == {}
        assert np.array_equal(obs["observation"], encode_observation(g, g.current_player))
        assert obs["action_mask"].dtype == np.int8
        assert np.array_equal(obs["action_mask"], abstract_mask(g).astype(np.int8))
        if steps % 7 == 0:  # the others see their own seat's view and no mask
            for other in e.possible_agents:
                if other != agent:
                    o = e.observe(other)
                    s = int(other.split("_")[1])
                    assert np.array_equal(o["observation"], encode_observation(g, s))
                    assert not o["action_mask"].any()
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        g.step(action_from_abstract(g, a))
        e.step(a)
        steps += 1
    assert not e.agents
    scores = g.round_result["scores"]
    assert total == {f"player_{s}": float(scores[s]) for s in range(6)}
    assert sum(1 for v in total.values() if v != 0) in (0, 6)
    # partners share the reward (team rewards)
    assert total["player_0"] == total["player_2"] == total["player_4"]
    assert total["player_1"] == total["player_3"] == total["player_5"]


def test_rewards_arrive_on_the_last_step_only():
    e = raw_env()
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    g = Game(5, start="random")
    while not any(e.terminations.values()):
        assert not any(e.rewards.values())
        obs = e.observe(e.agent_selection)
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        g.step(action_from_abstract(g, a))
        e.step(a)
    assert all(e.terminations.values()) and not any(e.truncations.values())
    assert e.rewards == {f"player_{s}": float(v) for s, v in enumerate(g.round_result["scores"])}
    # the terminal observation shows the finished round, phase match_over
    x = e.observe("player_0")["observation"]
    assert x[daguai.learn.obs_spec()["phase"]][4] == 1
    assert e.unwrapped.game.finish_order == g.round_result["order"][:len(e.game.finish_order)]


def test_matches_mode_rewards_every_round_and_ends_with_the_match():
    rules = Rules(final_level="3", max_rounds=4)
    e = raw_env(rules=rules, matches=True)
    e.reset(seed=9)
    rng = np.random.default_rng(9)
    g = Game(9, rules)
    round_rewards = []
    while e.agents:
        agent = e.agent_selection
        if e.terminations[agent]:
            e.step(None)
            continue
        obs = e.observe(agent)
        assert np.array_equal(obs["observation"], encode_observation(g, g.current_player))
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        n = g.n_results
        g.step(action_from_abstract(g, a))
        e.step(a)
        if g.n_results > n:
            round_rewards.append([e.rewards[f"player_{s}"] for s in range(6)])
            assert round_rewards[-1] == [float(v) for v in g.round_result["scores"]]
        else:
            assert not any(e.rewards.values())
    assert g.match_over and len(round_rewards) == g.n_results >= 2


def test_candidate_mode_equals_game():
    e = raw_env(abstract=False)
    e.reset(seed=12)
    g = Game(12, start="random")
    rng = np.random.default_rng(12)
    while not any(e.terminations.values()):
        obs = e.observe(e.agent_selection)
        k = len(g.legal_actions())
        assert obs["action_mask"].shape == (e.max_candidates,)
        assert obs["action_mask"][:k].all() and not obs["action_mask"][k:].any()
        assert np.array_equal(e.candidates(), encode_candidates(g))
        assert list(e.legal_actions()) == list(g.legal_actions())
        i = int(rng.integers(k))
        g.step(g.legal_actions()[i])
        e.step(i)
    assert e.rewards == {f"player_{s}": float(v) for s, v in enumerate(g.round_result["scores"])}


def test_candidate_mode_bound_is_checked():
    e = raw_env(abstract=False, max_candidates=5, start="fresh")
    e.reset(seed=1)  # a lead from 27 cards has hundreds of plays
    with pytest.raises(ValueError, match="max_candidates"):
        e.observe(e.agent_selection)


# ---------------------------------------------------------------------------
# Seeding
# ---------------------------------------------------------------------------

def test_seeding_follows_game_indices():
    e = raw_env()
    e.reset(seed=123)
    assert (e.game_seed, e.game_index) == (123, 0)
    first = e.observe(e.agent_selection)["observation"]
    assert np.array_equal(first, encode_observation(Game(123, start="random"),
                                                 e.game.current_player))
    e.reset()
    assert (e.game_seed, e.game_index) == (123, 1)
    assert e.game.hand(0) == Game(123, game=1, start="random").hand(0)
    e.reset(seed=123)
    assert np.array_equal(e.observe(e.agent_selection)["observation"], first)
    fresh = raw_env()
    fresh.reset()
    other = raw_env()
    other.reset()
    assert fresh.game_seed != other.game_seed  # fresh entropy without a seed
    for bad in (-1, 2**64, 1.5, "1", True):
        with pytest.raises(ValueError, match="seed"):
            e.reset(seed=bad)


def test_same_seed_same_episodes():
    a, b = env(), env()
    rng_a, rng_b = np.random.default_rng(0), np.random.default_rng(0)
    assert random_episode(a, 4, rng_a) == random_episode(b, 4, rng_b)


# ---------------------------------------------------------------------------
# Bad actions
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("abstract", [True, False], ids=["abstract", "candidates"])
def test_bad_actions_raise_and_change_nothing(abstract):
    e = env(abstract=abstract)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(20):
        obs, *_ = e.last()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    agent = e.agent_selection
    before = {a: e.observe(a) for a in e.possible_agents}
    mask = before[agent]["action_mask"]
    n = e.action_space(agent).n
    bad = [(-1, "out of range"), (n, "out of range"), (10**9, "out of range"),
           (1.0, "integer"), ("3", "integer"), (True, "integer"), (None, "terminated"),
           (np.array([1, 2]), "integer")]
    if abstract:
        bad.append((int(np.flatnonzero(mask == 0)[0]), "masked out"))
    else:
        bad.append((int(mask.sum()), "out of range"))
    for action, msg in bad:
        with pytest.raises(IllegalActionError, match=msg) as info:
            e.step(action)
        assert agent in str(info.value)  # names the agent
        assert e.agent_selection == agent
        for a in e.possible_agents:
            now = e.observe(a)
            assert all(np.array_equal(now[k], before[a][k]) for k in now)
    events = e.unwrapped.game.state.n_events
    e.step(np.int64(np.flatnonzero(mask)[0]))  # numpy integers are fine
    assert e.unwrapped.game.state.n_events == events + 1


def test_order_enforcing():
    e = env()
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agents
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.num_agents
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    with pytest.raises(AssertionError, match="reset"):
        e.observe("player_0")
    assert str(e) == str(e.unwrapped) == "daguai_v1"


def test_bad_construction():
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="daguai.Rules"):
        raw_env(rules="default")
    with pytest.raises(ValueError, match="True or False"):
        raw_env(matches=1)
    with pytest.raises(ValueError, match="max_candidates"):
        raw_env(abstract=False, max_candidates=0)


def test_state_is_every_seat_view():
    e = raw_env()
    e.reset(seed=6)
    s = e.state()
    assert s.shape == (6 * daguai.learn.OBS_SIZE,) and e.state_space.contains(s)
    for seat in range(6):
        assert np.array_equal(s[seat * daguai.learn.OBS_SIZE:(seat + 1) * daguai.learn.OBS_SIZE],
                              encode_observation(e.game, seat))


# ---------------------------------------------------------------------------
# Optional dependency
# ---------------------------------------------------------------------------

def test_import_daguai_does_not_import_pettingzoo():
    code = ("import sys, daguai; assert 'daguai.env' not in sys.modules; "
            "assert 'pettingzoo' not in sys.modules; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**__import__("os").environ, "PYTHONPATH": ":".join(sys.path)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_missing_pettingzoo_gives_a_clear_import_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.delitem(sys.modules, "daguai.env")
    monkeypatch.delitem(sys.modules, "daguai.learn.envs.pettingzoo_env")  # daguai.env is this module
    with pytest.raises(ImportError, match=r"pip install 'daguai\[rl\]'"):
        importlib.import_module("daguai.env")
