"""examples/reinforce.py: the numpy REINFORCE example trains through the Gymnasium env
(briefly, seeded) and its policy is a plain ``policy(game, seat)`` callable that
``daguai.evaluate`` accepts."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `examples.reinforce` imports from the repository root
    sys.path.insert(0, str(ROOT))

import daguai  # noqa: E402
from daguai import Game  # noqa: E402

from examples import reinforce  # noqa: E402


def test_gradient_of_log_probability_matches_finite_differences():
    rng = np.random.default_rng(0)
    p = reinforce.LinearPolicy(rng.normal(size=(daguai.learn.NUM_ABSTRACT, daguai.learn.OBS_SIZE)) * 0.01,
                               rng.normal(size=daguai.learn.NUM_ABSTRACT) * 0.1)
    x = rng.random(daguai.learn.OBS_SIZE)
    mask = (rng.random(daguai.learn.NUM_ABSTRACT) < 0.05).astype(np.int8)
    mask[7] = 1
    probs = p.probabilities(x, mask)
    assert abs(probs.sum() - 1) < 1e-12 and not probs[mask == 0].any()
    a = int(np.flatnonzero(mask)[0])
    dW, db = p.grad_log_prob(x, mask, a)
    eps = 1e-6
    for i, j in [(a, 3), (7, 100), (int(np.flatnonzero(mask)[-1]), 632), (0, 5)]:
        p.W[i, j] += eps
        up = np.log(p.probabilities(x, mask)[a])
        p.W[i, j] -= 2 * eps
        down = np.log(p.probabilities(x, mask)[a])
        p.W[i, j] += eps
        assert abs((up - down) / (2 * eps) - dW[i, j]) < 1e-6
    p.b[7] += eps
    up = np.log(p.probabilities(x, mask)[a])
    p.b[7] -= 2 * eps
    down = np.log(p.probabilities(x, mask)[a])
    assert abs((up - down) / (2 * eps) - db[7]) < 1e-6


def test_training_is_seeded_and_bounded():
    a, ret_a = reinforce.train(episodes=6, seed=3)
    b, ret_b = reinforce.train(episodes=6, seed=3)
    assert ret_a == ret_b and np.array_equal(a.W, b.W) and np.array_equal(a.b, b.b)
    assert len(ret_a) == 6 and np.isfinite(a.W).all()
    assert any(r != 0 for r in ret_a) and np.abs(a.W).sum() > 0  # it learned something


def test_policy_is_a_plain_callable_and_saves(tmp_path):
    trained, _ = reinforce.train(episodes=4, seed=1)
    g = Game(2)
    rng = random.Random(2)
    for _ in range(60):
        if g.match_over:
            break
        seat = g.current_player
        action = trained(g, seat)
        assert action in g.legal_actions()
        g.step(action if rng.random() < 0.5 else g.legal_actions()[0])
    path = tmp_path / "w.npz"
    trained.save(path)
    again = reinforce.LinearPolicy.load(path)
    assert np.allclose(again.W, trained.W, atol=1e-6)
    assert callable(reinforce.policy)  # examples.reinforce:policy


def test_evaluate_the_trained_policy_against_heuristic():
    trained, _ = reinforce.train(episodes=4, seed=0)
    result = daguai.evaluate(trained, "heuristic", 3, seed=5)
    assert result.n_deals == 3 and result.wins + result.draws + result.losses == 6
    assert -1 <= result.net_win_rate <= 1
