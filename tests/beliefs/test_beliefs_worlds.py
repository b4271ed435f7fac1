"""Every sampled world is a position the engine accepts, and its seat's view is unchanged
(R16, R11, R8, R18): decision points of every phase (tribute, return, offer, take, play),
both tables, the tribute variants and auto_pass. A world is loaded through the position
validator (GameState(rules, position): the replay of this round's history with the world's
hands); a return or offer the seat did not see is the constraint model's witness, so the world
is judged against what the seat knows, not against the true return."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from daguai import Game, Hand, Rules, _core, sample_worlds
from daguai._core import _testing

FIELDS = ["hand", "phase", "current_player", "round", "dealer", "level", "levels", "played",
          "cards_left", "finish_order", "top", "top_seat", "passed", "scores", "tributes", "known",
          "jokers_known", "unseen", "hidden_counts"]

CONFIGS = [
    (Rules(), True),
    (Rules(), False),
    (Rules(table="4p2d"), True),
    (Rules(table="4p2d"), False),
    (Rules(anti_tribute=True), True),
    (Rules(joker_tribute_choice=True), True),
    (Rules(joker_tribute_choice=True, anti_tribute=True, table="4p2d"), True),
]


def decision_points(rules, auto_pass, games, every, seed0=0):
    """Views of every seat at every `every`-th decision of random-start rounds (tribute)."""
    for k in range(games):
        g = Game(seed0 + k, rules, auto_pass=auto_pass, start="random")
        rng = random.Random(k)
        i = 0
        while not g.match_over and g.round == 0:
            if i % every == 0:
                for seat in range(g.seats):
                    yield g, seat
            acts = g.legal_actions()
            g.step(acts[rng.randrange(len(acts))])
            i += 1


def check_worlds(g, seat, n, seed):
    v = g.view(seat)
    arr = _core._testing.sample_hands_array(v, n, seed)
    for k in range(n):
        hands = [_core_hand(arr[k, s]) for s in range(g.seats)]
        assert _core._testing.world_violation(v, hands) == ""
        w = _core._testing.world_game(v, hands)  # raises PositionError if the validator refuses it
        u = _core.game.information_state(w, seat, True)
        for f in FIELDS:
            assert getattr(u, f) == getattr(v, f), f
        assert [(s, str(t), str(c)) for s, t, c in u.forced] == \
               [(s, str(t), str(c)) for s, t, c in v.forced]
    return n


def _core_hand(counts):
    return Hand.from_counts([int(c) for c in counts])


@pytest.mark.parametrize("rules, auto_pass", CONFIGS, ids=[f"{r.table}-{a}-{i}" for i, (r, a) in
                                                            enumerate(CONFIGS)])
def test_every_world_loads_as_a_position_with_the_same_view(rules, auto_pass):
    worlds = points = 0
    for g, seat in decision_points(rules, auto_pass, games=2, every=23):
        worlds += check_worlds(g, seat, 2, seed=points)
        points += 1
    assert points >= 20 and worlds >= 2 * points


@pytest.mark.slow
@pytest.mark.parametrize("rules, auto_pass", CONFIGS, ids=[f"{r.table}-{a}-{i}" for i, (r, a) in
                                                            enumerate(CONFIGS)])
def test_thousands_of_decision_points(rules, auto_pass):
    """The target: >= 10,000 worlds over the configurations (7 x >= 1,500 here)."""
    worlds = points = 0
    for g, seat in decision_points(rules, auto_pass, games=12, every=7, seed0=100):
        worlds += check_worlds(g, seat, 3, seed=points)
        points += 1
    assert points >= 300 and worlds >= 3 * points



TIGHT = json.loads((Path(__file__).parent / "golden" / "tight_forced_passes.json").read_text())


def test_a_seat_after_many_forced_passes_gets_its_worlds_r8():
    # 23 forced passes (R8 under auto_pass) leave seat 3 (27 cards) almost only low cards:
    # random deals and the fact-count search never met the facts; the graded search does
    g = Game.from_position(TIGHT["position"])
    v = g.view(TIGHT["seat"])
    assert len(v.forced) == 23
    arr = _core._testing.sample_hands_array(v, 40, 6024, 0)
    for w in arr:
        hands = [Hand.from_counts(w[s]) for s in range(g.seats)]
        assert _core._testing.world_violation(v, hands) == ""
    world = sample_worlds(v, 1, 6024)[0]
    assert world.view(TIGHT["seat"]).hand == v.hand


def test_the_exhaustive_search_prunes_by_the_facts_more_cards_break_r8():
    # the last resort alone: seats with the most facts first, a forced pass checked card by
    # card; without that the same position took more than 20,000,000 steps
    g = Game.from_position(TIGHT["position"])
    v = g.view(TIGHT["seat"])
    hands, steps = _testing.exhaustive_world(v)
    assert hands is not None and _core._testing.world_violation(v, hands) == ""
    assert steps < 2_000_000
    assert [h.counts().sum() for h in hands] == [len(v.hand) if s == v.seat else v.cards_left[s]
                                                 for s, h in enumerate(hands)]


OFFER = json.loads((Path(__file__).parent / "golden" / "offer_holds_tribute.json").read_text())


def test_an_offer_holding_the_tribute_card_is_not_counted_twice_r11_r16():
    # joker_tribute_choice: the receiver offers cards from its hand after the tribute, so the
    # offer may hold the tribute card itself; the tributer knows the receiver holds at least
    # as many copies of a face as either shows, not their sum
    g = Game.from_position(OFFER["position"])
    v = g.view(OFFER["seat"])
    (pair,) = [t for t in v.tributes if t["from"] == OFFER["seat"]]
    assert pair["card"] == "BJ" and "BJ" in pair["offer"].split()
    assert min(v.hidden_counts) == 0
    assert sum(v.hidden_counts) == len(v.unseen)
    assert v.known[pair["to"]].counts().sum() <= v.cards_left[pair["to"]]
    for w in sample_worlds(v, 20, 3):
        assert w.view(OFFER["seat"]).hand == v.hand


TWO_FULL = json.loads((Path(__file__).parent / "golden" / "tight_two_full_hands.json").read_text())


def test_two_full_hands_after_many_forced_passes_get_their_worlds_r8():
    # seats 0 and 5 hold 27 cards each and passed automatically over a level pair, a triple
    # and five of a kind (R8): almost every high card and joker must sit in the three short
    # hands. The start search takes a card of a seat that breaks a fact half of the time.
    g = Game.from_position(TWO_FULL["position"])
    v = g.view(TWO_FULL["seat"])
    assert len(v.forced) == 21 and sorted(v.hidden_counts)[-2:] == [27, 27]
    arr = _core._testing.sample_hands_array(v, 8, 6024, 0)
    for w in arr:
        hands = [Hand.from_counts(w[s]) for s in range(g.seats)]
        assert _core._testing.world_violation(v, hands) == ""


TIGHT25 = json.loads((Path(__file__).parent / "golden" / "tight_25_forced_passes.json").read_text())


def test_25_forced_passes_and_71_hidden_cards_never_exhaust_the_start_search_r8():
    # a real pimc24 match under auto_pass aborted here (seed 6024 game 15, round 47): a local
    # search restart succeeds about once in five, so 16 restarts left 1 world in 37 to the
    # exhaustive search, which failed at its bound. World 0 of seed 1093 was one of them.
    g = Game.from_position(TIGHT25["position"])
    v = g.view(TIGHT25["seat"])
    assert len(v.forced) == 25 and sum(v.hidden_counts) == 71
    for seed in (1093, 6024):
        arr = _core._testing.sample_hands_array(v, 24 if seed == 6024 else 1, seed, 0)
        for w in arr:
            hands = [Hand.from_counts(w[s]) for s in range(g.seats)]
            assert _core._testing.world_violation(v, hands) == ""
