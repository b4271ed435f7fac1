"""The benchmark hook that splits the learned player's decisions into their parts
(``_core._testing.time_decision_parts``, cpp/testing/bench.cpp; benchmarks/learned_parts.py)
plays the player's games: its decisions, replayed here through the player itself
(``PolicyRunner("learned")`` on seats 0, 2, 4, ``heuristic`` on the others, R17), are the
play-phase decisions with two or more legal actions of those games, each with its number of
candidates (one per legal abstract id: ``learn_features``). Its times are not checked (a
timed unit test is not a measurement), only that each is a duration."""

from __future__ import annotations

import daguai
import numpy as np
import pytest
from daguai import Rules, _core, bots
from daguai._core import _testing
from daguai.learn import learn_features

SEED, ROUNDS = 2026, 4


def _replayed(rules: Rules) -> list[int]:
    counts = []
    for game in range(ROUNDS):
        g = daguai.Game(seed=SEED, rules=rules, game=game, start="random")
        seats = g.seats
        runners = {s: _core.run.PolicyRunner("learned", SEED, game, s) for s in range(0, seats, 2)}
        while not g.match_over and not g.results:
            seat = g.current_player
            if seat % 2 == 0:
                if g.phase == "play" and len(g.legal_actions()) > 1:
                    counts.append(len(learn_features(g)[1]))
                g.step(runners[seat].act(g))
            else:
                g.step(bots.heuristic(g, seat))
    return counts


@pytest.mark.parametrize("table", ["6p3d", "4p2d"])
def test_decision_parts_are_the_learned_player_s_decisions_R17_R18(table):
    rules = Rules(table=table)
    parts = _testing.time_decision_parts(rules._core, SEED, ROUNDS)
    assert parts["candidates"].tolist() == _replayed(rules)
    n = len(parts["candidates"])
    assert n > 50
    for key in ("heuristic_ns", "candidates_ns", "state_ns", "network_ns"):
        assert parts[key].shape == (n,) and (parts[key] >= 0).all() and np.isfinite(parts[key]).all()


@pytest.mark.parametrize("rounds", [0, -1, 100001])
def test_decision_parts_refuse_rounds_out_of_range(rounds):
    with pytest.raises(ValueError, match=r"rounds in \[1, 100000\]"):
        _testing.time_decision_parts(Rules()._core, SEED, rounds)
