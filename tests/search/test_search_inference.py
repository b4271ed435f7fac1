"""Inference from play (cpp/engine/search/inference.hpp, docs/search.md "Inference from play").

The weight of a world is checked against a slow reference written from the definition: for
every play-phase decision of another seat this round, rebuild that seat's position at that
moment in the world as a position (its hands then = its hands now + what was played since;
the history up to then) with ``Game.from_position``, ask the heuristic, and multiply by
1 - eps when the observed decision is its choice (or a play of the same group of equivalent
plays), else eps / (legal decisions - 1); a decision with one legal action counts 1. The
learned model's reference asks the shipped network in Python instead (``learn_features`` and
``Network.evaluate``, the integer pass) and adds log softmax(Q / T) at the candidate of the
observed decision's abstract id.
"""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
from pathlib import Path

import daguai
import numpy as np
import pytest
from daguai import Game, Hand, _core
from daguai._core import _testing
from daguai.learn import Network, learn_features

EPS = 0.24


def _played_game(seed: int, steps: int) -> Game:
    """Round 0 of a seeded match after `steps` heuristic decisions (no tribute, no forced
    passes: the reference's positions are plain prefixes of the round)."""
    g = Game(seed=seed)
    runners = [_core.run.PolicyRunner("heuristic", seed, 0, s) for s in range(6)]
    for _ in range(steps):
        g.step(runners[g.current_player].act(g.state))
    assert g.state.n_results == 0
    return g


def _hands_of(counts: np.ndarray) -> list[Hand]:
    return [Hand.from_counts([int(c) for c in row]) for row in counts]


def _same(g: Game, seat: int, entry: list, choice: _core.game.Action) -> bool:
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


def _past_decisions(g: Game, viewer: int, hands_now: list[Hand]):
    """Each play-phase decision of another seat this round, rebuilt in the world of
    `hands_now` as a position (hands then = hands now + what was played since; the history up
    to then): (entry, game there) for those with two or more legal actions."""
    pos = g.position()
    hist = pos["history"]
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
        if len(gi.legal_actions()) > 1:
            yield entry, gi


def reference_log_weight(g: Game, viewer: int, hands_now: list[Hand], eps: float) -> float:
    total = 0.0
    for entry, gi in _past_decisions(g, viewer, hands_now):
        n = len(gi.legal_actions())
        choice = _core.run.PolicyRunner("heuristic", 0, 0, entry[0]).act(gi.state)
        total += math.log1p(-eps) if _same(gi, entry[0], entry, choice) else math.log(eps / (n - 1))
    return total


def _observed(gi: Game, entry: list) -> _core.game.Action:
    """The legal action of `gi` that the history entry made."""
    if entry[1] == "pass":
        return next(a for a in gi.legal_actions() if a.play is None)
    want = str(Hand(entry[2]))
    return next(a for a in gi.legal_actions() if a.play is not None and str(Hand(str(a.play.cards))) == want)


def reference_learned_log_weight(g: Game, viewer: int, hands_now: list[Hand], t: float) -> float:
    net = Network.from_file(str(Path(daguai.__file__).parent / "models" / "learned.dgn"))
    total = 0.0
    for entry, gi in _past_decisions(g, viewer, hands_now):
        state, cands, feats, _ = learn_features(gi)
        if len(cands) < 2:
            continue
        level = gi.state.level
        q = net.evaluate(state, feats, quantized=True).astype(np.float64) / t
        ids = [daguai.learn.abstract_id(c, level) for c in cands]
        k = ids.index(daguai.learn.abstract_id(_observed(gi, entry), level))
        total += q[k] - q.max() - math.log(float(np.exp(q - q.max()).sum()))
    return total


@pytest.mark.parametrize("seed,steps", [(11, 14), (12, 22), (13, 30)])
def test_inference_weight_equals_the_reference_replay_R16(seed: int, steps: int) -> None:
    g = _played_game(seed, steps)
    viewer = g.current_player
    view = _core.game.information_state(g.state, viewer, True)
    n = 4
    weights = _core._testing.inference_weights(view, n, 5, EPS)
    worlds = _core._testing.sample_hands_array(view, n, 5)
    assert np.all(weights < 0)  # other seats made choices: the weights say something
    for k in range(n):
        ref = reference_log_weight(g, viewer, _hands_of(worlds[k]), EPS)
        assert weights[k] == pytest.approx(ref, abs=1e-9)


@pytest.mark.parametrize("seed,steps,t", [(11, 14, 0.05), (12, 22, 0.2), (13, 30, 0.05)])
def test_learned_inference_weight_equals_the_reference_replay_R16(seed: int, steps: int, t: float) -> None:
    g = _played_game(seed, steps)
    viewer = g.current_player
    view = _core.game.information_state(g.state, viewer, True)
    n = 3
    weights = _core._testing.inference_weights(view, n, 5, EPS, "learned", t)
    worlds = _core._testing.sample_hands_array(view, n, 5)
    assert np.all(weights < 0) and len(set(weights)) == n  # the worlds are told apart
    for k in range(n):
        ref = reference_learned_log_weight(g, viewer, _hands_of(worlds[k]), t)
        assert weights[k] == pytest.approx(ref, abs=1e-6)


def test_inference_weights_are_deterministic_per_seed_R17() -> None:
    g = _played_game(21, 40)
    view = _core.game.information_state(g.state, g.current_player, True)
    a = _core._testing.inference_weights(view, 16, 9)
    b = _core._testing.inference_weights(view, 16, 9)
    assert np.array_equal(a, b)
    # world k's weight does not depend on how many worlds are asked for
    assert np.array_equal(_core._testing.inference_weights(view, 5, 9), a[:5])
    h1 = _core._testing.inferred_hands_array(view, 6, 9, "heuristic")
    assert np.array_equal(h1, _core._testing.inferred_hands_array(view, 6, 9, "heuristic"))
    assert np.array_equal(h1[:3], _core._testing.inferred_hands_array(view, 3, 9, "heuristic"))


def test_each_inferred_world_is_one_of_its_own_m_uniform_worlds_R16() -> None:
    """World k of the search is resampled from uniform worlds k*m .. k*m+m-1 (m =
    daguai.search.INFERENCE_WORLDS, the C++ default), never one the history rules out."""
    m = daguai.search.INFERENCE_WORLDS
    assert m == _core.search.INFERENCE_WORLDS and m >= 2
    g = _played_game(24, 45)
    view = _core.game.information_state(g.state, g.current_player, True)
    n = 12
    uniform = _core._testing.sample_hands_array(view, n * m, 5)
    logw = _core._testing.inference_weights(view, n * m, 5)
    inferred = _core._testing.inferred_hands_array(view, n, 5, "heuristic")
    assert np.array_equal(inferred, _core._testing.inferred_hands_array(view, n, 5, "heuristic", m))
    kept, average = [], []
    for k in range(n):
        own = logw[k * m:k * m + m]
        match = [j for j in range(m) if np.array_equal(uniform[k * m + j], inferred[k])]
        assert match, f"world {k} is none of its {m} uniform worlds"
        if np.isfinite(own).any():
            assert np.isfinite(own[match]).any(), f"world {k} was ruled out by the history"
            kept.append(own[match].max() - own.max())
            average.append(np.mean(own - own.max()))
    # resampling by weight keeps heavy worlds: nearer the heaviest than a uniform pick
    assert kept and np.mean(kept) > np.mean(average)


def test_inference_none_plays_the_uniform_worlds() -> None:
    g = _played_game(22, 35)
    view = _core.game.information_state(g.state, g.current_player, True)
    assert np.array_equal(_core._testing.inferred_hands_array(view, 8, 4, "none"),
                          _core._testing.sample_hands_array(view, 8, 4))


def test_a_view_without_history_weighs_every_world_alike() -> None:
    g = _played_game(23, 35)
    view = _core.game.information_state(g.state, g.current_player, False)
    assert np.array_equal(_core._testing.inference_weights(view, 6, 1), np.zeros(6))


def test_analyze_with_inference_is_deterministic_per_seed_R17() -> None:
    g = _played_game(24, 33)
    a = daguai.analyze(g, rollouts=40, seed=3, inference="heuristic")
    b = daguai.analyze(g, rollouts=40, seed=3, inference="heuristic", threads=2)
    assert [x.plays for x in a.groups] == [x.plays for x in b.groups]
    assert [(x.rollouts, x.wins, x.losses) for x in a.groups] == \
        [(x.rollouts, x.wins, x.losses) for x in b.groups]


def test_learned_inference_is_deterministic_per_seed_and_threads_R17() -> None:
    g = _played_game(27, 40)
    view = _core.game.information_state(g.state, g.current_player, True)
    w = _core._testing.inference_weights(view, 8, 9, EPS, "learned")
    assert np.array_equal(w, _core._testing.inference_weights(view, 8, 9, EPS, "learned"))
    assert np.array_equal(_core._testing.inference_weights(view, 3, 9, EPS, "learned"), w[:3])
    h = _core._testing.inferred_hands_array(view, 4, 9, "learned")
    assert np.array_equal(h[:2], _core._testing.inferred_hands_array(view, 2, 9, "learned"))
    a = daguai.analyze(g, rollouts=30, seed=3, inference="learned")
    b = daguai.analyze(g, rollouts=30, seed=3, inference="learned", threads=2)
    assert [(x.plays, x.rollouts, x.wins, x.losses) for x in a.groups] == \
        [(x.plays, x.rollouts, x.wins, x.losses) for x in b.groups]


def test_the_two_models_of_play_weigh_worlds_differently() -> None:
    # the same worlds, two models: the weights are not a rescaling of each other, and the
    # learned model at a higher temperature is flatter across the worlds
    g = _played_game(28, 45)
    view = _core.game.information_state(g.state, g.current_player, True)
    heur = _core._testing.inference_weights(view, 12, 2, EPS, "heuristic")
    sharp = _core._testing.inference_weights(view, 12, 2, EPS, "learned", 0.02)
    flat = _core._testing.inference_weights(view, 12, 2, EPS, "learned", 2.0)
    assert not np.array_equal(np.argsort(heur), np.argsort(sharp))
    assert np.ptp(flat) < np.ptp(sharp)


def test_learned_inference_needs_a_model_for_the_table() -> None:
    code = textwrap.dedent("""
        import daguai
        from daguai import _core
        _core.learned._set_builtin_model("", "6p3d")
        g = daguai.Game(seed=3)
        try:
            daguai.analyze(g, rollouts=8, inference="learned")
        except ValueError as e:
            print("refused:", e)
    """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("refused:") and "learned model" in p.stdout, p.stdout


@pytest.mark.parametrize("bad", ["learnt", "Heuristic", "", None, 1])
def test_analyze_refuses_an_unknown_inference(bad: object) -> None:
    g = _played_game(25, 10)
    with pytest.raises(ValueError, match="inference"):
        daguai.analyze(g, rollouts=8, inference=bad)  # type: ignore[arg-type]


def test_the_search_refuses_bad_inference_settings() -> None:
    g = _played_game(26, 10)
    with pytest.raises(ValueError, match="'sometimes'"):
        _core.catalog._search(g.state, 8, 0.0, 1, "heuristic", 0, 0, -1, None, "sometimes")
    with pytest.raises(ValueError, match="inference_worlds"):
        _core.catalog._search(g.state, 8, 0.0, 1, "heuristic", 0, 0, -1, None, "heuristic", 0)
    with pytest.raises(ValueError, match="inference_noise"):
        _core.catalog._search(g.state, 8, 0.0, 1, "heuristic", 0, 0, -1, None, "heuristic", 4, 1.0)
    for t in (0.0, -1.0, float("nan"), 1e9):
        with pytest.raises(ValueError, match="inference_temperature"):
            _core.catalog._search(g.state, 8, 0.0, 1, "heuristic", 0, 0, -1, None, "learned", 4, 0.24, t)
        view = _core.game.information_state(g.state, g.current_player, True)
        with pytest.raises(ValueError, match="inference_temperature"):
            _core._testing.inference_weights(view, 2, 0, EPS, "learned", t)


def test_pimc24_inf_is_the_search_with_inference_R17() -> None:
    names = _core.catalog.policy_names()
    assert "pimc24_inf" in names and "pimc24_inf_learned" in names
    r1 = daguai.simulate(2, policies=["pimc24_inf", "heuristic"], seed=31, threads=1)
    r2 = daguai.simulate(2, policies=["pimc24_inf", "heuristic"], seed=31, threads=2)
    assert list(r1["winner"]) == list(r2["winner"])


@pytest.mark.slow  # whole rounds of a 30 ms-a-decision search, twice (> 10 s on a loaded machine)
def test_pimc24_inf_learned_plays_the_same_rounds_on_any_thread_count_R17() -> None:
    r1 = daguai.evaluate("pimc24_inf_learned", "heuristic", 1, seed=32, threads=1)
    r2 = daguai.evaluate("pimc24_inf_learned", "heuristic", 1, seed=32, threads=2)
    assert list(r1.deal_net_win) == list(r2.deal_net_win)
    assert (r1.wins, r1.draws, r1.losses, r1.mean_score_diff) == \
        (r2.wins, r2.draws, r2.losses, r2.mean_score_diff)
