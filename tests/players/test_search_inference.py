"""Inference from play (cpp/engine/search/inference.hpp, docs/search.md "Inference from play").

The weight of a world is checked against a slow reference written from the definition: for
every play-phase decision of another seat this round, rebuild that seat's position at that
moment in the world as a position (its hands then = its hands now + what was played since;
the history up to then) with ``Game.from_position``, ask the heuristic, and multiply by
1 - eps when the observed decision is its choice (or a play of the same group of equivalent
plays), else eps / (legal decisions - 1); a decision with one legal action counts 1.
"""

from __future__ import annotations

import math

import daguai
import numpy as np
import pytest
from daguai import Game, Hand, _core
from daguai._core import _testing

EPS = 0.24


def _played_game(seed: int, steps: int) -> Game:
    """Round 0 of a seeded match after `steps` heuristic decisions (no tribute, no forced
    passes: the reference's positions are plain prefixes of the round)."""
    g = Game(seed=seed)
    runners = [_core.PolicyRunner("heuristic", seed, 0, s) for s in range(6)]
    for _ in range(steps):
        g.step(runners[g.current_player].act(g.state))
    assert g.state.n_results == 0
    return g


def _hands_of(counts: np.ndarray) -> list[Hand]:
    return [Hand.from_counts([int(c) for c in row]) for row in counts]


def _same(g: Game, seat: int, entry: list, choice: _core.Action) -> bool:
    if entry[1] == "pass" or choice.play is None:
        return entry[1] == "pass" and choice.play is None
    s = g.state
    top = s.top if s.top_seat is not None else None
    want = str(Hand(entry[2]))
    for group in _testing.play_groups(s.hand(seat), s.level, top, g.rules._core):
        texts = {str(Hand(str(p.cards))) for p in group}
        if want in texts and str(Hand(str(choice.play.cards))) in texts:
            return True
    return False


def reference_log_weight(g: Game, viewer: int, hands_now: list[Hand], eps: float) -> float:
    pos = g.position()
    hist = pos["history"]
    total = 0.0
    for i, entry in enumerate(hist):
        seat = entry[0]
        if seat == viewer or entry[1] not in ("play", "pass"):
            continue
        then = [Hand(str(h)) for h in hands_now]
        for later in hist[i:]:
            if later[1] == "play":
                then[later[0]] = then[later[0]] + Hand(later[2])
        p = dict(pos, hands=[str(h) for h in then], history=hist[:i], to_act=seat, finish_order=[])
        gi = Game.from_position(p)
        legal = gi.legal_actions()
        if len(legal) <= 1:
            continue
        choice = _core.PolicyRunner("heuristic", 0, 0, seat).act(gi.state)
        total += math.log1p(-eps) if _same(gi, seat, entry, choice) else math.log(eps / (len(legal) - 1))
    return total


@pytest.mark.parametrize("seed,steps", [(11, 14), (12, 22), (13, 30)])
def test_inference_weight_equals_the_reference_replay_R16(seed: int, steps: int) -> None:
    g = _played_game(seed, steps)
    viewer = g.current_player
    view = _core.information_state(g.state, viewer, True)
    n = 4
    weights = _core._inference_weights(view, n, 5, EPS)
    worlds = _core._sample_hands_array(view, n, 5)
    assert np.all(weights < 0)  # other seats made choices: the weights say something
    for k in range(n):
        ref = reference_log_weight(g, viewer, _hands_of(worlds[k]), EPS)
        assert weights[k] == pytest.approx(ref, abs=1e-9)


def test_inference_weights_are_deterministic_per_seed_R17() -> None:
    g = _played_game(21, 40)
    view = _core.information_state(g.state, g.current_player, True)
    a = _core._inference_weights(view, 16, 9)
    b = _core._inference_weights(view, 16, 9)
    assert np.array_equal(a, b)
    # world k's weight does not depend on how many worlds are asked for
    assert np.array_equal(_core._inference_weights(view, 5, 9), a[:5])
    h1 = _core._inferred_hands_array(view, 6, 9, "heuristic")
    assert np.array_equal(h1, _core._inferred_hands_array(view, 6, 9, "heuristic"))
    assert np.array_equal(h1[:3], _core._inferred_hands_array(view, 3, 9, "heuristic"))


def test_inference_none_plays_the_uniform_worlds() -> None:
    g = _played_game(22, 35)
    view = _core.information_state(g.state, g.current_player, True)
    assert np.array_equal(_core._inferred_hands_array(view, 8, 4, "none"),
                          _core._sample_hands_array(view, 8, 4))


def test_a_view_without_history_weighs_every_world_alike() -> None:
    g = _played_game(23, 35)
    view = _core.information_state(g.state, g.current_player, False)
    assert np.array_equal(_core._inference_weights(view, 6, 1), np.zeros(6))


def test_analyze_with_inference_is_deterministic_per_seed_R17() -> None:
    g = _played_game(24, 33)
    a = daguai.analyze(g, rollouts=40, seed=3, inference="heuristic")
    b = daguai.analyze(g, rollouts=40, seed=3, inference="heuristic", threads=2)
    assert [x.plays for x in a.groups] == [x.plays for x in b.groups]
    assert [(x.worlds, x.wins, x.losses) for x in a.groups] == \
        [(x.worlds, x.wins, x.losses) for x in b.groups]


@pytest.mark.parametrize("bad", ["learned", "Heuristic", "", None, 1])
def test_analyze_refuses_an_unknown_inference(bad: object) -> None:
    g = _played_game(25, 10)
    with pytest.raises(ValueError, match="inference"):
        daguai.analyze(g, rollouts=8, inference=bad)  # type: ignore[arg-type]


def test_the_search_refuses_bad_inference_settings() -> None:
    g = _played_game(26, 10)
    with pytest.raises(ValueError, match="'sometimes'"):
        _core._search(g.state, 8, 0.0, 1, "heuristic", 0, 0, -1, None, "sometimes")
    with pytest.raises(ValueError, match="inference_worlds"):
        _core._search(g.state, 8, 0.0, 1, "heuristic", 0, 0, -1, None, "heuristic", 0)
    with pytest.raises(ValueError, match="inference_noise"):
        _core._search(g.state, 8, 0.0, 1, "heuristic", 0, 0, -1, None, "heuristic", 4, 1.0)


def test_pimc24_inf_is_the_search_with_inference_R17() -> None:
    assert "pimc24_inf" in _core.policy_names()
    r1 = daguai.simulate(2, policies=["pimc24_inf", "heuristic"], seed=31, threads=1)
    r2 = daguai.simulate(2, policies=["pimc24_inf", "heuristic"], seed=31, threads=2)
    assert list(r1["winner"]) == list(r2["winner"])
