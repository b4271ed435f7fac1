"""The OpenSpiel adapter (python/daguai/learn/envs/openspiel_game.py): OpenSpiel's own random
simulation test, and the adapter's rounds against daguai.Game stepped directly."""

from __future__ import annotations

import copy

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import daguai.learn.envs.openspiel_game  # noqa: E402,F401 - registers "python_daguai"
from daguai import Game, Rules  # noqa: E402
from daguai.learn import abstract_mask, action_from_abstract, encode_observation  # noqa: E402


@pytest.mark.parametrize("start", ["fresh", "random"])
def test_openspiel_random_sim_test(start):
    """OpenSpiel's RandomSimTest (as its own Python games test themselves): random play
    with clones, legal-action, chance-outcome, return and observation checks."""
    game = pyspiel.load_game("python_daguai", {"start": start})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_openspiel_round_equals_game():
    game = pyspiel.load_game("python_daguai", {"start": "random"})
    assert game.num_players() == 6 and game.num_distinct_actions() == 444
    state = game.new_initial_state()
    seed_bytes = [3, 1, 4, 1, 5, 9, 2, 6]
    for b in seed_bytes:
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 256 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
        state.apply_action(b)
    seed = int.from_bytes(bytes(seed_bytes), "big")
    g = Game(seed, Rules(max_rounds=1), start="random")
    rng = np.random.default_rng(1)
    steps = 0
    while not state.is_terminal():
        p = state.current_player()
        assert p == g.current_player
        legal = state.legal_actions()
        assert legal == np.flatnonzero(abstract_mask(g)).tolist()
        assert np.array_equal(np.asarray(state.observation_tensor(p), dtype=np.float32),
                              encode_observation(g, p))
        if steps == 20:  # a clone is independent of its original
            twin = state.clone()
            twin.apply_action(twin.legal_actions()[0])
            assert twin.history() != state.history()
            assert copy.deepcopy(state).history() == state.history()
        a = int(rng.choice(legal))
        g.step(action_from_abstract(g, a))
        state.apply_action(a)
        steps += 1
    returns = state.returns()
    assert returns == [float(v) for v in g.round_result["scores"]]
    assert sum(returns) == 0  # stake scores: zero-sum (R13)
    assert returns[0] == returns[2] == returns[4] and returns[1] == returns[3] == returns[5]


def test_openspiel_bad_parameters():
    with pytest.raises((ValueError, RuntimeError), match="start"):
        pyspiel.load_game("python_daguai", {"start": "later"})
