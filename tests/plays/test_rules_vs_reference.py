"""The C++ engine against tests/reference.py (slow, obvious Python) on random hands:
same classification, same interpretations, same beats, same legal-play sets (R5-R8),
for every level and every variant of R5-R7, with 0-6 jokers."""

from __future__ import annotations

from collections import Counter

import daguai
import pytest
import reference as ref
from daguai import Hand, Rules
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from strategies import play_rules

LEVELS = daguai.LEVELS
RULES_6P3D = play_rules(tables=("6p3d",))  # the reference deals three decks
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def pool_hand(draw, min_size=0, max_size=12, copies=3):
    """A multiset of faces drawn from a small pool (few ranks, few suits) plus 0-6 jokers,
    so that pairs, sequences, flushes and groups are common; at most ``copies`` of a face (R2;
    R18's 4p2d table: 2)."""
    if draw(st.booleans()):
        lo = draw(st.integers(-1, 12))
        ranks = sorted({(lo + i) % 13 for i in range(draw(st.integers(1, 6)))})
    else:
        ranks = sorted(draw(st.sets(st.integers(0, 12), min_size=1, max_size=7)))
    suits = sorted(draw(st.sets(st.integers(0, 3), min_size=1, max_size=4)))
    pool = [r * 4 + s for r in ranks for s in suits]
    counts = Counter({52: draw(st.integers(0, copies)), 53: draw(st.integers(0, copies))})
    # natural cards: biased towards max_size (hypothesis shrinks integers towards 0)
    target = max(min_size, max_size - draw(st.integers(0, max_size)))
    target = sum(counts.values()) + target
    for f in draw(st.lists(st.sampled_from(pool), min_size=2 * target, max_size=2 * target)):
        if sum(counts.values()) >= target:
            break
        if counts[f] < copies:
            counts[f] += 1
    while sum(counts.values()) < min_size:  # a tiny pool: top up with jokers, then naturals
        free = [f for f in (52, 53, *range(52)) if counts[f] < copies]
        counts[free[0]] += 1
    return tuple(sorted(counts.elements()))


def to_hand(faces) -> Hand:
    return Hand.from_faces(list(faces))


def engine_set(plays):
    return {(tuple(p.cards.faces()), int(p.kind), p.key) for p in plays}


def ref_kwargs(rules: Rules) -> dict:
    return dict(wild=rules.wild, wrap=rules.wrap_straights, joker_pair=rules.joker_pair)


@st.composite
def play_cards(draw, copies=3):
    """1, 2, 3 or 5 faces (a sub-multiset of a pool hand): often a play, sometimes not."""
    hand = draw(pool_hand(min_size=5, max_size=8, copies=copies))
    size = draw(st.sampled_from([1, 2, 3, 5, 5, 5]))
    idx = draw(st.permutations(range(len(hand))))
    return tuple(sorted(hand[i] for i in idx[:size]))


@SETTINGS
@given(faces=play_cards(), level=st.sampled_from(LEVELS), rules=RULES_6P3D)
def test_r5_r6_r7_classify_matches_reference(faces, level, rules):
    lv = LEVELS.index(level)
    expect = ref.classify(faces, lv, **ref_kwargs(rules))
    got = daguai.classify(to_hand(faces), level, rules)
    assert (None if got is None else (int(got.kind), got.key)) == expect
    # R6: every interpretation, whatever the wild mode.
    interps = {(int(p.kind), p.key) for p in daguai.interpretations(to_hand(faces), level, rules)}
    assert interps == ref.interpretations(faces, lv, rules.wrap_straights, rules.joker_pair)


@SETTINGS
@given(a=play_cards(), b=play_cards(), level=st.sampled_from(LEVELS), rules=RULES_6P3D)
def test_r7_beats_matches_reference(a, b, level, rules):
    lv = LEVELS.index(level)
    ka = ref.classify(a, lv, **ref_kwargs(rules))
    kb = ref.classify(b, lv, **ref_kwargs(rules))
    if ka is None or kb is None:
        with pytest.raises(ValueError, match="not a play"):
            daguai.beats(to_hand(a), to_hand(b), level, rules)
        return
    expect = ref.beats((len(a), *ka), (len(b), *kb))
    assert daguai.beats(to_hand(a), to_hand(b), level, rules) is expect
    if len(a) == len(b):
        c = daguai.compare(to_hand(a), to_hand(b), level, rules)
        assert c == (ka[1] > kb[1]) - (ka[1] < kb[1])
    else:
        with pytest.raises(ValueError, match="equal size"):
            daguai.compare(to_hand(a), to_hand(b), level, rules)


@settings(SETTINGS, max_examples=80)
@given(hand=pool_hand(max_size=9), level=st.sampled_from(LEVELS), rules=RULES_6P3D)
def test_r8_legal_leads_match_reference(hand, level, rules):
    lv = LEVELS.index(level)
    plays = daguai.legal_plays(to_hand(hand), level, None, rules)
    got = engine_set(plays)
    assert len(got) == len(plays), "a play was generated twice"
    assert got == ref.legal_plays(hand, lv, None, **ref_kwargs(rules))


@settings(SETTINGS, max_examples=80)
@given(hand=pool_hand(max_size=9), other=pool_hand(min_size=5, max_size=10),
       level=st.sampled_from(LEVELS), rules=RULES_6P3D, pick=st.integers(0, 10**6))
def test_r7_r8_legal_follows_match_reference(hand, other, level, rules, pick):
    lv = LEVELS.index(level)
    candidates = daguai.legal_plays(to_hand(other), level, None, rules)
    top = candidates[pick % len(candidates)]
    plays = daguai.legal_plays(to_hand(hand), level, top, rules)
    got = engine_set(plays)
    assert len(got) == len(plays), "a play was generated twice"
    assert got == ref.legal_plays(hand, lv, (top.size, top.key), **ref_kwargs(rules))
    assert all(p.beats(top) for p in plays)


@settings(SETTINGS, max_examples=150)
@given(hand=pool_hand(min_size=5, max_size=10), level=st.sampled_from(LEVELS), rules=RULES_6P3D)
def test_r6_jokers_as_is_an_assignment_with_that_meaning(hand, level, rules):
    """The canonical faces a play's jokers stand for give, as natural cards, exactly the
    play's kind and key (R6), with no face above 3 copies (R2)."""
    plays = daguai.legal_plays(to_hand(hand), level, None, rules)
    for p in plays[:: max(1, len(plays) // 150)]:  # at most ~150 per hand
        faces = p.jokers_as
        if p.jokers == 0 or p.jokers == p.size or p.size == 1:
            assert faces == []
            continue
        assert len(faces) == p.jokers
        natural = p.interpreted  # raises if a face would exceed 3 copies
        assert natural.jokers == 0 and len(natural) == p.size
        lv = LEVELS.index(level)
        if p.size == 5:
            assert ref.natural_kind_key(tuple(natural.faces()), lv, rules.wrap_straights) == (
                int(p.kind), p.key)
        else:  # a pair / triple: the jokers take the rank of the natural cards
            assert ref.classify(tuple(natural.faces()), lv) == (int(p.kind), p.key)
        if rules.wild == "declare" and p.size == 5:
            again = daguai.classify(p.cards, level, rules, jokers_as=" ".join(faces))
            assert again == p


@pytest.mark.slow
@settings(SETTINGS, max_examples=4, phases=[Phase.explicit, Phase.generate])
@given(seed=st.integers(0, 2**32 - 1), level=st.sampled_from(LEVELS),
       wild=st.sampled_from(["auto", "high"]))
def test_r8_full_27_card_hands_match_reference(seed, level, wild):
    """Whole dealt hands (27 random cards of the 162-card deck, R2)."""
    import random

    deck = [f for f in range(54) for _ in range(3)]
    random.Random(seed).shuffle(deck)
    hand = tuple(sorted(deck[:27]))
    rules = Rules(wild=wild)
    plays = daguai.legal_plays(to_hand(hand), level, None, rules)
    assert engine_set(plays) == ref.legal_plays(hand, LEVELS.index(level), None, wild=wild)
