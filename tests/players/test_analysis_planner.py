"""The heuristic policy's planner (配牌, cpp/engine/players/planner.cpp ``Planner``), through the
``_core._testing.heuristic_plan`` hook: on seeded random hands at every level, under wild auto / high /
declare and wrap_straights on / off,

1. every planned play is a play (R5-R7): ``classify`` of its cards gives its kind and key at
   the level, under the rules;
2. the plan covers the hand exactly: the multiset union of its plays is the hand;
3. it never has fewer plays than ``min_plays`` (the exact minimum), and where it claims to be
   minimal (its size meets the card-count bound of analysis.hpp ``plays_lower_bound``) it has
   the same number of plays.
"""

from __future__ import annotations

import random
from collections import Counter

import daguai
import pytest
from daguai import LEVELS, Hand, Rules, _core, bots, min_plays
from daguai._core import _testing

DECK = [f for f in range(54) for _ in range(3)]
RULES = [Rules(wild=w, wrap_straights=wrap) for w in ("auto", "high", "declare") for wrap in (False, True)]


def _bound(n: int) -> int:
    """The card-count bound: plays hold <= 5 cards and never leave exactly 1 slot empty."""
    b = (n + 4) // 5
    return b + 1 if 5 * b - n == 1 else b


def _uniform_hand(rng: random.Random) -> Hand:
    return Hand.from_faces(rng.sample(DECK, rng.randint(1, 27)))


def _dense_hand(rng: random.Random) -> Hand:
    """Naturals from a few neighbouring ranks (wrapping through A-2 at times) and two suits,
    plus 0-3 jokers: straights, flushes and groups are common."""
    start = rng.randrange(13)
    ranks = [(start + i) % 13 for i in range(rng.randint(3, 7))]
    suits = rng.sample(range(4), 2)
    pool = [4 * r + s for r in ranks for s in suits for _ in range(3)]
    n = rng.randint(1, min(20, len(pool)))
    faces = rng.sample(pool, n) + rng.sample([52, 52, 52, 53, 53, 53], rng.randint(0, 3))
    return Hand.from_faces(faces)


def _hands(seed: int, n: int) -> list[Hand]:
    rng = random.Random(seed)
    return [(_dense_hand if i % 2 else _uniform_hand)(rng) for i in range(n)]


def check_plan(hand: Hand, level: str, rules: Rules) -> tuple[int, int, bool]:
    """Assert 1-3 for one hand; return (plan size, min_plays, minimal claim)."""
    plays, minimal = _core._testing.heuristic_plan(hand, level, rules._core)
    covered: Counter[int] = Counter()
    for p in plays:
        assert p.level == level
        again = daguai.classify(p.cards, level, rules)
        assert again is not None, f"{p.cards} is no play at level {level}"
        assert (again.kind, again.key, again.size) == (p.kind, p.key, p.size), (hand, p, again)
        covered.update(p.cards.faces())
    assert covered == Counter(hand.faces()), f"plan {plays} does not cover {hand}"
    best, _ = min_plays(hand, level, rules)
    assert len(plays) >= best, (hand, plays, best)
    assert minimal == (len(plays) == _bound(len(hand)))
    if minimal:
        assert len(plays) == best, (hand, level, plays, best)
    return len(plays), best, minimal


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.wild}-wrap{int(r.wrap_straights)}")
def test_plan_is_legal_covers_the_hand_and_is_never_below_min_plays(rules):
    claims = 0
    for i, hand in enumerate(_hands(seed=8 + RULES.index(rules), n=600)):
        level = LEVELS[i % 13]
        _, _, minimal = check_plan(hand, level, rules)
        claims += minimal
    # the minimal claim is exercised (small hands and dense ones often meet the bound)
    assert claims >= 30


@pytest.mark.parametrize("text, level, wrap, size", [
    ("3s 4h 5d 6c 7s", "2", False, 1),                # one straight (R5)
    ("Qs Kh Ad 2c 3s", "5", True, 1),                 # QKA23 with wrap_straights
    ("Qs Kh Ad 2c 3s", "5", False, 5),                # no wrap: five singles
    ("9h 9s 9d 5c 5d", "2", False, 1),                # full house 999+55
    ("8s 8h 8d 8c 3h", "2", False, 1),                # four-plus-one
    ("2h 5h 8h Jh Kh", "A", False, 1),                # flush of singles
    ("3s 4s 5s 6s 7s 7h 7d", "2", False, 2),          # straight flush + pair of 7
    ("2s 2h SJ BJ", "2", False, 3),                   # level pair kept, jokers single
])
def test_plan_examples(text, level, wrap, size):
    rules = Rules(wrap_straights=wrap)
    plays, _ = _core._testing.heuristic_plan(text, level, rules._core)
    assert len(plays) == size, plays
    check_plan(Hand(text), level, rules)


def test_plan_of_a_dealt_hand_is_the_heuristic_s_first_lead():
    """The plan the hook returns is the one the heuristic leads from: in a fresh seeded game
    the dealer's heuristic lead is one of the plays of its plan."""
    rules = Rules()
    for seed in range(6):
        g = daguai.Game(seed=seed, rules=rules, record=False)
        seat = g.current_player
        plays, _ = _core._testing.heuristic_plan(g.hand(seat), g.level, rules._core)
        action = bots.heuristic(g, seat)
        assert action.type == "play" and action.play in plays


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.wild}-wrap{int(r.wrap_straights)}")
def test_planner_makes_the_reference_s_plans(rules):
    """Found: the faster planner makes exactly the plans of the reference planner
    (ReferencePlanner, the plan as first written), play for play and in order, on random and
    dense hands at every level. The heuristic's decision is a function of its plan and the
    view, so equal plans give the same games for the same seeds."""
    for i, hand in enumerate(_hands(seed=100 + RULES.index(rules), n=1500)):
        level = LEVELS[i % 13]
        fast, _ = _core._testing.heuristic_plan(hand, level, rules._core)
        assert fast == _testing.heuristic_plan_reference(hand, level, rules._core), (str(hand), level)


def test_planner_makes_the_reference_s_plans_in_played_rounds():
    """The hands the heuristic actually meets: every hand of every seat after every play of
    seeded heuristic rounds."""
    rules = Rules()
    checked = 0
    for seed in range(12):
        g = daguai.Game(seed=seed, rules=rules, record=False)
        while not g.match_over and g.n_results == 0:
            seat = g.current_player
            hand = g.hand(seat)
            assert _core._testing.heuristic_plan(hand, g.level, rules._core)[0] == \
                _testing.heuristic_plan_reference(hand, g.level, rules._core)
            checked += 1
            g.step(bots.heuristic(g, seat))
    assert checked > 500
