"""One public state (cpp/engine/game/public_state.hpp): the match, its views and
its worlds share it, and a view carries what a policy needs as real, read-only members.

R16: the public state is what every seat knows; a view adds one hand and that seat's
knowledge; a world is a view's public state with sampled hands.
"""

from __future__ import annotations

import json
import pickle
import random

import pytest
from daguai import Game, Rules, _core, sample_worlds
from daguai._core import _testing

RULES = [
    Rules(),
    Rules(anti_tribute=True, joker_tribute_choice=True, final_level="4"),
    Rules(table="4p2d", final_level="5"),
]

# Everything a view reads from the public state (R16), as its Python properties.
PUBLIC = ["phase", "current_player", "round", "dealer", "level", "levels", "cards_left",
          "finish_order", "top", "top_seat", "passed", "scores", "auto_pass", "played"]
# What a view infers about other hands (infostate.hpp), beyond the public state.
KNOWLEDGE = ["hand", "known", "jokers_known", "unseen", "hidden_counts", "forced", "tributes"]


def _games(n_games: int = 4, stride: int = 7):
    """(rules, game) at every `stride`-th decision of random matches (several rounds)."""
    for rules in RULES:
        for seed in range(n_games):
            rng = random.Random(seed)
            g = Game(seed=seed, rules=rules, game=seed * 11, auto_pass=seed % 2 == 0,
                     start="random" if seed % 3 == 0 else "fresh")
            k = 0
            while not g.match_over and g.round < 3:
                acts = g.legal_actions()
                g.step(acts[rng.randrange(len(acts))])
                k += 1
                if k % stride == 0 and not g.match_over:
                    yield rules, g


def _values(v, names):
    return {name: getattr(v, name) for name in names}


def test_r16_card_counts_are_the_hands_sizes_after_every_decision():
    """The public card counts are kept by the state machine beside the hands (deal,
    tribute exchange R11, plays R8); they must always be the hands' sizes."""
    for rules in RULES:
        g = Game(seed=3, rules=rules, start="random")
        rng = random.Random(3)
        while not g.match_over and g.round < 4:
            assert g.cards_left == [len(g.hand(s)) for s in range(g.seats)]
            for s in range(g.seats):
                assert g.view(s).cards_left == g.cards_left
            acts = g.legal_actions()
            g.step(acts[rng.randrange(len(acts))])


def test_a_view_carries_rules_game_index_and_last_result():
    seen_result = False
    for rules, g in _games():
        for seat in range(g.seats):
            v = g.view(seat)
            assert isinstance(v.rules, _core.core.CoreRules)
            assert Rules.from_dict(v.rules.to_dict()) == rules == g.rules
            assert v.game_index == g.game_index
            assert v.last_result == g.round_result
            seen_result |= v.last_result is not None
    assert seen_result


def test_view_members_are_read_only_and_views_take_no_attributes():
    v = Game(seed=1).view(0)
    for name in ["rules", "game_index", "last_result", "round", "hand"]:
        with pytest.raises(AttributeError):
            setattr(v, name, None)
    with pytest.raises(AttributeError):
        v.anything = 1  # no __dict__: no attributes attached from Python
    assert not hasattr(v, "__dict__")
    with pytest.raises(TypeError, match="cannot pickle"):
        pickle.dumps(v)
    bare = _core.game.InfoState.__new__(_core.game.InfoState)
    with pytest.raises(TypeError):
        bare.round  # noqa: B018 - never initialized: a TypeError, not garbage


def test_view_observation_is_the_games_observation_byte_for_byte():
    for _rules, g in _games(stride=11):
        for seat in range(g.seats):
            v = g.view(seat)
            mine = json.dumps(v.observation())
            assert mine == json.dumps(g.observation(seat))
            assert json.dumps(v.observation(seat)) == mine
            with pytest.raises(ValueError, match="not in it"):
                v.observation((seat + 1) % g.seats)


def test_a_raw_information_state_knows_the_last_result_too():
    """`last_result` is part of the information state itself, not attached by Game.view: a
    view made by `_core.game.information_state` has it too."""
    g = Game(seed=4, rules=Rules(max_rounds=5))
    rng = random.Random(4)
    while not g.match_over and g.round < 1:
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    v = _core.game.information_state(g.state, 0)
    assert v.last_result == g.round_result is not None


def test_a_world_is_the_views_public_state_with_sampled_hands():
    """A world keeps the public state of the view (and the view's own pair's exchange); the
    view of the same seat in the world equals the view in the game (what the sampler must
    preserve), apart from what a world has no log for."""
    n = 0
    for rules, g in _games(n_games=3, stride=13):
        seat = g.current_player
        v = g.view(seat)
        for k, w in enumerate(sample_worlds(v, 3, seed=n)):
            n += 1
            assert w.rules == rules and w.game_index == k and not w.recording
            # R16: the exchange of another pair is private to it; the world knows the viewer's
            expected = [t if seat in (t["from"], t["to"]) else {**t, "returned": None, "offer": None}
                        for t in g.tribute_state]
            assert w.tribute_state == expected
            assert w.final_failures == g.final_failures
            assert w.cards_left == [len(w.hand(s)) for s in range(w.seats)]
            assert w.hand(seat) == g.hand(seat)
            u = w.view(seat)
            assert _values(u, PUBLIC) == _values(v, PUBLIC)
            assert _values(u, KNOWLEDGE) == _values(v, KNOWLEDGE)
            assert u.rules.to_dict() == v.rules.to_dict() and u.game_index == k
            assert u.last_result is None and u.history == []  # a world has no log
            assert [str(a) for a in u.legal_actions()] == [str(a) for a in v.legal_actions()]
    assert n > 20


def test_clone_and_world_timing_hooks_run():
    """The benchmark hooks of `daguai bench` (world creation, clone) measure real work."""
    g = Game(seed=2)
    for _ in range(20):
        g.step(g.legal_actions()[0])
    t = _testing.time_worlds(g, 50, 1)
    assert t["world_ns"] > 0 and t["view_ns"] > 0
    with pytest.raises(ValueError):
        _testing.time_worlds(g, 0, 1)
    assert _testing.time_game(Rules()._core, 1, 200, True)["clone_ns"] > 0
