"""Opponents in the vector environment and dicts that leave partners out (docs/learning.md
"Gymnasium"): ``gymnasium.make_vec("daguai/DaGuaiSelfPlay-v0", opponents=...)`` passes them to
the BatchEnv underneath; a ``{seat: policy}`` dict names the other team only, its unnamed
seats (the learner's partners, R1, R18) being the learner's."""

from __future__ import annotations

from pathlib import Path

import daguai
import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from daguai.learn.envs.gym_env import DaGuaiEnv  # noqa: E402
from daguai.learn.envs.gym_vector import DaGuaiVectorEnv  # noqa: E402

SIX = str(Path(daguai.__file__).parent / "models" / "learned.dgn")  # a 6p3d model
OTHERS = {1: "heuristic", 3: "random", 5: "heuristic"}


def first_legal(obs: dict[str, np.ndarray]) -> np.ndarray:
    return obs["action_mask"].argmax(axis=1)


def play(envs, steps: int) -> tuple[set[int], int]:
    """Seats that were to act and episodes ended over ``steps`` steps of first legal ids."""
    obs, info = envs.reset(seed=4)
    seen, ended = set(info["to_act"].tolist()), 0
    for _ in range(steps):
        obs, reward, terminated, truncated, info = envs.step(first_legal(obs))
        seen |= set(info["to_act"].tolist()) | set(info["seat"].tolist())
        ended += int(terminated.sum())
    return seen, ended


@pytest.mark.parametrize("opponents", [(None, "heuristic"), [None, "heuristic"] * 3,
                                       {1: "heuristic", 3: "heuristic", 5: "heuristic"}])
def test_make_vec_takes_opponents(opponents):
    envs = gymnasium.make_vec("daguai/DaGuaiSelfPlay-v0", num_envs=4, opponents=opponents)
    seen, ended = play(envs, 300)
    assert seen == {0, 2, 4} and ended > 0  # the bots play seats 1, 3, 5 inside step


def test_a_dict_of_the_other_team_equals_the_list_with_none_on_partners():
    """The dict's unnamed seats 0, 2, 4 are the learner's: the same games as the list."""
    listed = [None, "heuristic", None, "random", None, "heuristic"]
    a = daguai.learn.BatchEnv(3, seed=9, opponents=OTHERS)
    b = daguai.learn.BatchEnv(3, seed=9, opponents=listed)
    for env in (a, b):
        env.reset()
    for _ in range(200):
        obs_a, mask_a, r_a, done_a, act_a = a.step(a.observe()[1].argmax(axis=1))
        obs_b, mask_b, r_b, done_b, act_b = b.step(b.observe()[1].argmax(axis=1))
        assert np.array_equal(obs_a, obs_b) and np.array_equal(act_a, act_b)
        assert np.array_equal(r_a, r_b) and set(act_a.tolist()) <= {0, 2, 4}


def test_vector_env_at_4p2d_with_a_dict():
    rules = daguai.Rules(table="4p2d")
    envs = DaGuaiVectorEnv(num_envs=2, rules=rules, opponents={0: "random", 2: "heuristic"})
    seen, ended = play(envs, 200)
    assert seen == {1, 3} and ended > 0


@pytest.mark.parametrize("opponents, message", [
    ({7: "random"}, "keys of a dict are seats 0..5, got 7"),
    ({True: "random"}, "keys of a dict are seats 0..5, got True"),
    ({1: 3}, "each a policy name or None"),
    ("heuristic", "the learner needs a seat"),
    (17, "2 per team"),
    (dict.fromkeys(range(6), "random"), "at least one seat"),
])
def test_bad_opponents_are_refused_when_made(opponents, message):
    with pytest.raises(ValueError, match=message):
        gymnasium.make_vec("daguai/DaGuaiSelfPlay-v0", num_envs=2, opponents=opponents)
    with pytest.raises(ValueError, match=message):
        daguai.learn.BatchEnv(2, opponents=opponents)


def test_vector_env_refuses_a_model_of_other_rules_unless_any():
    four = daguai.Rules(table="4p2d")
    with pytest.raises(daguai.learn.ModelError, match="6p3d"):
        DaGuaiVectorEnv(num_envs=2, rules=four, opponents=(None, SIX))
    envs = DaGuaiVectorEnv(num_envs=2, rules=four, opponents=(None, SIX), model_rules="any")
    seen, _ = play(envs, 20)
    assert seen <= {0, 2}


def test_vector_env_with_opponents_pickles():
    import pickle

    envs = DaGuaiVectorEnv(num_envs=2, opponents=OTHERS)
    obs, _ = envs.reset(seed=2)
    obs, *_ = envs.step(first_legal(obs))
    copy = pickle.loads(pickle.dumps(envs))
    a = envs.step(first_legal(obs))
    b = copy.step(first_legal(obs))
    assert np.array_equal(a[0]["observation"], b[0]["observation"])
    assert np.array_equal(a[4]["to_act"], b[4]["to_act"])


def test_single_env_dict_needs_no_partner_seats():
    """seat=0 with a dict of seats 1, 3, 5: the learner plays its partners 2 and 4 as with
    seat=(0, 2, 4); a seat of the other team left out is still refused."""
    env = DaGuaiEnv(seat=0, opponents={1: "random", 3: "random", 5: "random"})
    assert env.seats == (0, 2, 4) and sorted(env.policies) == [1, 3, 5]
    obs, info = env.reset(seed=3)
    done, seats = False, set()
    while not done:
        seats.add(info["seat"])
        obs, _, done, _, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert seats <= {0, 2, 4} and len(seats) > 1
    partner_named = DaGuaiEnv(seat=0, opponents={1: "random", 2: "greedy", 3: "random", 4: "greedy",
                                                 5: "random"})
    assert partner_named.seats == (0,)
    with pytest.raises(ValueError, match="opponents gives no policy for seat 3"):
        DaGuaiEnv(seat=0, opponents={1: "random", 5: "random"})
    four = DaGuaiEnv(seat=1, opponents={0: "random", 2: "random"}, rules=daguai.Rules(table="4p2d"))
    assert four.seats == (1, 3)


def test_heuristic_opponents_in_games_of_different_levels():
    """The heuristic's plan was kept per seat for every game of a batch and reused when
    another game left that seat the same cards at another level: a play classified at level
    2 in a game at level 7 ("was classified at level 2, the level is 7", IllegalPlayError)."""
    env = daguai.learn.BatchEnv(4, seed=4, opponents=(None, "heuristic"))  # random start levels
    _, mask, _, _, _ = env.reset()
    ended = 0
    for _ in range(300):
        _, mask, _, done, _ = env.step(mask.argmax(axis=1))
        ended += int(done.sum())
    assert ended > 0
