"""Wrong accepts, unclear errors and unbounded work found by review, one test each, with the
answer docs/errors.md documents: tampered pickles of BatchEnv and of the Gymnasium vector
env, ``true`` where a record has an integer, rules nested 3,000 deep, a numpy array as a
level, integers past Python's int-to-text limit. Each failed before its fix (accepted, or
AttributeError / TypeError / RecursionError / IndexError / pybind11's "Unable to cast", or
a million environments built before the refusal)."""

from __future__ import annotations

import json
import pickle
import time

import daguai
import numpy as np
import pytest
from daguai import Game, IllegalActionError, PositionError, ReplayError, Rules, _core
from daguai.learn import BatchEnv


def _deep(n: int = 3000) -> list:
    x: list = []
    for _ in range(n):
        x = [x]
    return x


def _tampered(env: BatchEnv, **fields) -> bytes:
    """The pickle of ``env`` with some of its Python fields changed (as an editor would)."""
    state = dict(env.__dict__, **fields)
    clone = BatchEnv.__new__(BatchEnv)
    clone.__dict__.update(state)  # no __setstate__ on the way out: pickled as given
    return pickle.dumps(clone)


# ---- BatchEnv pickles: every field is the engine environment's own (R17) -----------------
@pytest.mark.parametrize("field, value", [
    ("_seed", 999), ("_seed", True), ("_rules", Rules(table="4p2d")), ("_rules", "Rules()"),
    ("_start", "fresh"), ("_start", "bogus"), ("_matches", True), ("_auto_pass", True),
    ("_env", None),
])
def test_a_tampered_batch_env_pickle_is_refused_naming_the_field(field, value):
    env = BatchEnv(2, seed=3)  # round episodes: start "random", no auto_pass
    data = _tampered(env, **{field: value})
    with pytest.raises(IllegalActionError, match=f"corrupt BatchEnv state: {field}"):
        pickle.loads(data)


def test_an_untampered_batch_env_pickle_builds_the_game_it_plays():
    env = BatchEnv(2, seed=3, opponents=[None, "random"])
    twin = pickle.loads(pickle.dumps(env))
    assert twin.seed == 3 and twin.episode_game(0).seed == 3 and twin.rules == env.rules
    assert twin.start == env.start and twin.matches == env.matches


def _core_state(env: BatchEnv) -> tuple:
    fn, args = env._env.__reduce__()
    return fn, list(args)


@pytest.mark.parametrize("index, value, message", [
    (7, ["\ud800", None, "random", None, "random", None], "seat 0's opponent"),
    (7, ["nobody", None, None, None, None, None], "seat 0's opponent 'nobody'"),
    (1, None, "corrupt BatchEnv state: bad rules"),
    (1, {"wild": _deep()}, "wild"),
    (1, {"dealer": 10**5000}, "dealer"),
], ids=["surrogate name", "unknown name", "rules None", "rules deep", "rules huge int"])
def test_a_corrupt_engine_state_names_what_is_wrong(index, value, message):
    """Was pybind11's "Unable to cast ... to C++ type '?'" (a surrogate name), a bare
    TypeError (rules None), RecursionError (rules nested 3,000 deep) and Python's int-to-text
    error; the rules' own check answers its ValueError (CardError) naming the rule."""
    fn, args = _core_state(BatchEnv(3, seed=1, opponents=[None, "random"] * 3))
    args[index] = value
    with pytest.raises(ValueError, match=message):
        fn(*args)


def test_the_size_message_names_both_lists():
    """Was "expected 3 environments, got 3" (the decision lists were short, the episode
    numbers were not)."""
    fn, args = _core_state(BatchEnv(3, seed=1))
    args[10] = args[10][:2]
    with pytest.raises(IllegalActionError, match="3 episode numbers and 2 decision lists"):
        fn(*args)


def test_a_pickle_claiming_a_million_environments_is_refused_before_building_them():
    """n = 2**20 with the lists of 3 built a million games (about two minutes) first."""
    fn, args = _core_state(BatchEnv(3, seed=1))
    args[0] = 2**20
    t0 = time.perf_counter()
    with pytest.raises(IllegalActionError, match="n is 1048576 but it holds 3 episode numbers"):
        fn(*args)
    assert time.perf_counter() - t0 < 1.0


def test_an_opponent_name_with_a_surrogate_is_a_card_error():
    with pytest.raises(daguai.CardError, match="surrogate"):
        BatchEnv(2, opponents=["\ud800", None] * 3)


def test_a_tampered_gym_num_envs_is_refused_on_loading():
    """Was an IndexError at the next step (the arrays had 3 rows, num_envs said 5)."""
    gym_vector = pytest.importorskip("daguai.learn.envs.gym_vector")
    v = gym_vector.DaGuaiVectorEnv(num_envs=3)
    v.reset(seed=1)
    v.num_envs = 5
    with pytest.raises(IllegalActionError, match="num_envs is 5 but the environment inside has 3"):
        pickle.loads(pickle.dumps(v))
    v.num_envs = 3
    twin = pickle.loads(pickle.dumps(v))
    twin.step(np.zeros(3, dtype=np.int64))


# ---- records and positions: true is not 1 ------------------------------------------------
def _record() -> list[str]:
    g = Game(seed=1)
    g.step(g.legal_actions()[0])
    return g.to_record().splitlines()


@pytest.mark.parametrize("value", [True, 1.0])
def test_a_deal_whose_dealer_is_true_or_a_float_is_refused(value):
    lines = _record()
    deal = json.loads(lines[1])
    assert deal["event"] == "deal"
    deal["dealer"] = value if deal["dealer"] == 1 else float(deal["dealer"])
    lines[1] = json.dumps(deal)
    with pytest.raises(ReplayError, match="line 2: deal .*field\\(s\\) dealer"):
        daguai.replay("\n".join(lines))


def test_a_record_whose_format_is_true_is_refused():
    lines = _record()
    head = json.loads(lines[0])
    head["format"] = True
    with pytest.raises(ReplayError, match="unsupported record format True"):
        daguai.replay("\n".join([json.dumps(head), *lines[1:]]))


def _position() -> dict:
    g = Game(seed=2)
    g.step(g.legal_actions()[0])
    return g.position()


def test_a_position_whose_version_is_true_is_refused():
    p = dict(_position(), version=True)
    with pytest.raises(PositionError, match="unsupported position version True"):
        Game.from_position(p)


@pytest.mark.parametrize("change, message", [
    ({"rules": {"wild": _deep()}}, "bad rules: Rules.wild="),
    ({"dealer": 10**5000}, "dealer <int> is not a seat"),
    ({"levels": [np.array(["2", "3"]), "2"]}, "is not a level"),
    ({"scores": [10**5000] + [0] * 5}, "score must be an integer .* got <int>"),
], ids=["rules deep", "dealer huge", "level array", "scores huge"])
def test_a_position_with_a_deep_huge_or_array_value_names_it(change, message):
    """Were RecursionError, Python's "Exceeds the limit (4300 digits)" and numpy's "truth
    value of an array ... is ambiguous"."""
    with pytest.raises(PositionError, match=message):
        Game.from_position(dict(_position(), **change))


@pytest.mark.parametrize("value", [_deep(), 10**5000, np.array(["2", "3"])], ids=["deep", "huge", "array"])
@pytest.mark.parametrize("name", ["wild", "final_level", "max_rounds", "anti_tribute"])
def test_rules_values_that_are_deep_huge_or_arrays_are_value_errors(name, value):
    with pytest.raises(ValueError, match=f"Rules.{name}"):
        Rules(**{name: value})
    with pytest.raises(ValueError, match=f"Rules.{name}"):
        Rules.from_dict({name: value})
    with pytest.raises(ValueError, match=name):
        _core.core.CoreRules(**{name: value})


def test_a_record_header_with_rules_nested_deep_is_a_replay_error():
    head = json.loads(_record()[0])
    head["rules"] = {"wild": _deep()}
    with pytest.raises(ReplayError, match="bad rules in header"):
        daguai.replay([head])
