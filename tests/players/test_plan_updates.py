"""The heuristic's plan kept across a hand's changes (cpp/engine/players/planner.cpp
``update_plan``, through ``_core._testing.plan_updates``) is the plan made from scratch, at
every step of random sequences of cards leaving a random hand: a unit of the current plan
(what the heuristic plays), every card of one rank (its last unit, in a combination or not),
any few cards (a follow that breaks the plan, a tribute), a
control unit, or the same hand at another level (a scratch shared by games of other levels).
Both planners (``heuristic``'s and ``heuristic_exact``'s), both tables (6p3d, 4p2d: at most
two copies of a face, R18), every level, the wild and wrap variants (R5, R6). The plan from
scratch is also the reference planner's (testing/reference_planner.cpp)."""

from __future__ import annotations

from collections import Counter

import daguai
import numpy as np
import pytest
from daguai import Hand, Rules
from daguai._core import _testing
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import play_rules

LEVELS = daguai.LEVELS
SETTINGS = settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def hand_st(draw, copies: int) -> list[int]:
    """Up to 27 faces, often from a few neighbouring ranks and suits (straights, flushes and
    groups are common), at most ``copies`` of a face, 0-4 jokers."""
    if draw(st.booleans()):
        lo = draw(st.integers(0, 12))
        ranks = [(lo + i) % 13 for i in range(draw(st.integers(3, 8)))]
        suits = sorted(draw(st.sets(st.integers(0, 3), min_size=1, max_size=4)))
    else:
        ranks, suits = list(range(13)), [0, 1, 2, 3]
    pool = [r * 4 + s for r in ranks for s in suits for _ in range(copies)]
    pool += [52] * copies + [53] * copies
    n = draw(st.integers(1, min(27, len(pool))))
    idx = draw(st.permutations(range(len(pool))))
    return sorted(pool[i] for i in idx[:n])


def _remove(faces: list[int], gone: list[int]) -> list[int]:
    left = Counter(faces)
    left.subtract(Counter(gone))
    assert min(left.values(), default=0) >= 0
    return sorted(left.elements())


@st.composite
def sequence_st(draw):
    """(rules, exact, hands, levels): a hand and what it becomes step by step."""
    rules = draw(play_rules())
    copies = 2 if rules.table == "4p2d" else 3
    faces = draw(hand_st(copies))
    level = draw(st.sampled_from(LEVELS))
    hands, levels = [faces], [level]
    for _ in range(draw(st.integers(1, 12))):
        if not faces:
            break
        how = draw(st.sampled_from(["unit", "unit", "unit", "rank", "rank", "cards", "control", "level"]))
        plan, _ = _testing.heuristic_plan(Hand.from_faces(faces), level, rules._core)
        if how == "unit":  # a unit of the plan, as the heuristic plays it
            gone = plan[draw(st.integers(0, len(plan) - 1))].cards.faces()
        elif how == "control":  # a control unit if any (the natural part unchanged)
            lv = LEVELS.index(level)
            controls = [p for p in plan if all(f >= 52 or f // 4 == lv for f in p.cards.faces())]
            unit = controls[draw(st.integers(0, len(controls) - 1))] if controls else plan[0]
            gone = unit.cards.faces()
        elif how == "rank":  # every natural card of one rank (the last unit of a rank goes)
            held = sorted({f // 4 for f in faces if f < 52})
            r = held[draw(st.integers(0, len(held) - 1))] if held else None
            gone = [f for f in faces if f < 52 and f // 4 == r]
        elif how == "cards":  # any 1-5 cards
            idx = draw(st.permutations(range(len(faces))))
            gone = [faces[i] for i in idx[: draw(st.integers(1, min(5, len(faces))))]]
        else:  # the same cards at another level
            level, gone = draw(st.sampled_from(LEVELS)), []
        faces = _remove(faces, gone)
        if faces:
            hands.append(faces)
            levels.append(level)
    return rules, draw(st.booleans()), hands, levels


@SETTINGS
@given(case=sequence_st())
def test_updated_plan_is_the_plan_made_from_scratch(case):
    rules, exact, hands, levels = case
    hs = [Hand.from_faces(f) for f in hands]
    steps = _testing.plan_updates(hs, levels, rules._core, exact)
    assert len(steps) == len(hs)
    for hand, level, (updated, scratch) in zip(hs, levels, steps, strict=True):
        assert updated == scratch, (str(hand), level, exact)
        if not exact:
            assert scratch == _testing.heuristic_plan_reference(hand, level, rules._core), (str(hand), level)


@SETTINGS
@given(rules=play_rules(), level=st.sampled_from(LEVELS), data=st.data())
def test_planner_makes_the_reference_s_plans_at_both_tables(rules, level, data):
    """Found: the planner's plan of a random hand is the reference planner's, play for play
    (kinds, keys, info bytes: the two-deck bit of 4p2d, R18), at 6p3d and 4p2d; and the count
    the learned player's features read, made without writing the plays, is its length."""
    faces = data.draw(hand_st(2 if rules.table == "4p2d" else 3))
    hand = Hand.from_faces(faces)
    fast, _ = _testing.heuristic_plan(hand, level, rules._core)
    reference = _testing.heuristic_plan_reference(hand, level, rules._core)
    assert fast == reference, (str(hand), level)
    assert _testing.heuristic_plan_size(hand, level, rules._core) == len(reference), (str(hand), level)


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=play_rules(),
    seed=st.integers(0, 2**32),
    exact=st.booleans(),
    seats=st.integers(1, 63),
    games=st.integers(1, 3),
)
def test_the_plan_kept_in_a_game_is_the_plan_made_from_scratch(rules, seed, exact, seats, games):
    """In real matches (R8-R11: plays, passes, tribute and return change the hands), at every
    decision of a heuristic seat the plan it decides from (kept in its scratch across the
    trick's decisions and updated after its plays, planner.hpp update_plan) is the plan made
    from scratch for its hand. The seats of the mask play the heuristic, the others random,
    and each seat's scratch is kept across games that may be at other levels (BatchEnv)."""
    if rules.table == "4p2d":  # four seats (R18)
        seats = seats % 15 + 1
    checked, mismatches = _testing.heuristic_plan_trace(rules._core, seed, games, 2, exact, seats)
    assert checked > 0
    assert not mismatches, mismatches[0]


def test_plan_updates_sees_a_stale_plan():
    """The hook compares what it should: a plan kept for a hand that lost a unit differs from
    the plan of the old hand (the check cannot pass by returning one plan twice)."""
    rules = Rules()
    old = Hand("3s 4h 5d 6c 7s 9h 9d")
    new = Hand("3s 4h 5d 6c 7s")
    (_, a), (_, b) = _testing.plan_updates([old, new], ["2", "2"], rules._core, False)
    assert a != b and len(b) == 1


@pytest.mark.parametrize("hand, gone", [
    # the second combination (a full house holding every card of its ranks) played
    ("3s 3h 3d 3c 9s 7s 7h 7d Qs Qh Kd", "7s 7h 7d Qs Qh"),
    # a rank's last units (a triple and a single of the rest) played together
    ("3s 4h 5d 6c 7s 9h 9d 9c 9s Kd", "9h 9d 9c 9s"),
    # a combination's rank also held in the rest: every card of it gone with the combination
    ("3s 3h 3d 3c 9s 7s 7h 7d Qs Qh Qd Qc Kd", "7s 7h 7d Qs Qh Qd Qc"),
    # a rank shared by two combinations: not a whole-rank removal (planned from scratch)
    ("3s 3h 3d 3c 9s 9h 9d Qs Qh Kd", "3s 3h 3d 3c 9s"),
])
def test_whole_rank_removals_keep_the_plan_made_from_scratch(hand, gone):
    """update_plan's whole-rank path (planner.cpp whole_ranks_left): hands where every card of
    some ranks leaves, with and without a combination, give the plan made from scratch."""
    rules = Rules()
    old = Hand(hand)
    left = Hand.from_faces(_remove(old.faces(), Hand(gone).faces()))
    for level in LEVELS:
        steps = _testing.plan_updates([old, left], [level, level], rules._core, False)
        assert all(u == s for u, s in steps), (hand, gone, level)


def test_the_remembered_plan_size_is_the_plan_s_length_whatever_came_before():
    """The count the learned player's features read (heuristic_plan_size) remembers the natural
    part of each hand per thread, by its natural non-level cards and the rule fields a plan
    depends on: asked in any order, over hands that share a natural part but differ in level
    cards and jokers, at other levels, under other rules (R5, R6, R18: wild, wrap, tables) and
    after more hands than its table holds, it is the length of the plan made from scratch."""
    rng = np.random.default_rng(20261207)
    variants = {3: [Rules(), Rules(wrap_straights=True), Rules(wild="declare")], 2: [Rules(table="4p2d")]}
    cases = []
    for _ in range(40):
        copies = int(rng.choice([2, 3]))
        pool = [f for f in range(54) for _ in range(copies)]
        faces = sorted(rng.choice(pool, size=int(rng.integers(1, 28)), replace=False).tolist())
        bare = [f for f in faces if f < 52] or faces  # the same natural part, other controls
        # the same cards at every level and under other rules: other keys, never a hit
        cases += [(h, level, rules) for h in (faces, bare) for level in LEVELS for rules in variants[copies]]
    expected = [len(_testing.heuristic_plan(Hand.from_faces(f), lv, r._core)[0]) for f, lv, r in cases]
    for order in (range(len(cases)), reversed(range(len(cases))), rng.permutation(len(cases))):
        for i in order:
            faces, level, rules = cases[i]
            got = _testing.heuristic_plan_size(Hand.from_faces(faces), level, rules._core)
            assert got == expected[i], (faces, level, rules)
