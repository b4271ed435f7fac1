"""min_plays (配牌 / 手数): the fewest legal plays (R5-R7) that empty a hand.

1. against a brute force written here (minimum over every partition into plays that
   ``legal_plays`` lists, memoized) on random small hands with 0-6 jokers, every level,
   wild auto / high / declare, wrap on / off;
2. the returned partition is valid: it adds up to the hand, each play is legal when made
   from what is left (``check_play``), and its length is the count;
3. hand-checked examples, with the arithmetic in comments;
4. random 27-card deals complete (no timing asserts: benchmarks/test_bench_analysis.py).
"""

from __future__ import annotations

import random

import daguai
import numpy as np
import pytest
from daguai import LEVELS, Hand, Kind, Rules, min_plays
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

DECK = [f for f in range(54) for _ in range(3)]


# ---------------------------------------------------------------------------
# Brute-force reference
# ---------------------------------------------------------------------------

def reference_min_plays(hand: Hand, level: str, rules: Rules) -> int:
    """Minimum number of legal plays partitioning ``hand``, by exhaustive search.

    Every partition has exactly one play containing (a given copy of) the hand's first
    face, so the minimum is 1 + the best over the legal plays that contain it of the
    minimum for the rest. Plays come from ``legal_plays_array`` (leading, R8); the rest of
    the hand is a word subtraction of the packed cards (docs/rules.md layout).
    """
    memo: dict[tuple[int, int], int] = {}

    def solve(lo: int, hi: int) -> int:
        if lo == 0 and hi == 0:
            return 0
        if (lo, hi) in memo:
            return memo[(lo, hi)]
        rest = Hand.from_bits(lo, hi)
        rows = daguai.legal_plays_array(rest, level, None, rules)
        first = rest.faces()[0]
        word = rows["lo"] if first < 32 else rows["hi"]
        shift = np.uint64(2 * (first % 32))
        holding = rows[((word >> shift) & np.uint64(3)) != 0]
        best = min(1 + solve(lo - int(r["lo"]), hi - int(r["hi"])) for r in holding)
        memo[(lo, hi)] = best
        return best

    lo, hi = hand.bits
    return solve(lo, hi)


def assert_valid_partition(hand: Hand, count: int, plays: list, level: str, rules: Rules) -> None:
    """The plays add up to the hand and each is a legal lead from what is left."""
    assert count == len(plays)
    total = Hand()
    for p in plays:
        total = total + p.cards
    assert total == hand
    rest = hand
    for p in plays:
        assert p.level == level
        assert daguai.check_play(rest, p, level=level, rules=rules) == p
        rest = rest - p.cards
    assert len(rest) == 0


@st.composite
def small_hands(draw, max_naturals: int = 10) -> Hand:
    """0-6 jokers plus naturals from a few neighbouring ranks and suits (so that pairs,
    flushes, straights and groups are common), at most 12 cards in all."""
    counts = [0] * 54
    jokers = draw(st.just(0) | st.just(1) | st.integers(0, 6))  # about half without jokers
    counts[52] = draw(st.integers(max(0, jokers - 3), min(3, jokers)))
    counts[53] = jokers - counts[52]
    low = draw(st.integers(0, 12))
    width = draw(st.integers(1, 7))
    suits = draw(st.integers(1, 4))
    n = draw(st.integers(0, min(max_naturals, 12 - jokers)))  # the brute force slows with jokers
    faces = draw(st.lists(st.tuples(st.integers(0, width - 1), st.integers(0, suits - 1)),
                          min_size=n, max_size=n))
    for dr, s in faces:
        f = ((low + dr) % 13) * 4 + s
        counts[f] = min(3, counts[f] + 1)
    return Hand.from_counts(counts)


RULES = st.builds(Rules, wild=st.sampled_from(["auto", "high", "declare"]),
                  wrap_straights=st.booleans())


@settings(max_examples=700, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=small_hands(), level=st.sampled_from(LEVELS), rules=RULES)
def test_min_plays_equals_brute_force(hand, level, rules):
    count, plays = min_plays(hand, level, rules)
    assert count == reference_min_plays(hand, level, rules)
    assert_valid_partition(hand, count, plays, level, rules)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), level=st.sampled_from(LEVELS), rules=RULES)
def test_min_plays_equals_brute_force_random_cards(data, level, rules):
    """Uniformly dealt hands of up to 12 cards (jokers as they fall)."""
    seed = data.draw(st.integers(0, 2**32 - 1))
    n = data.draw(st.integers(0, 12))
    hand = Hand.from_faces(random.Random(seed).sample(DECK, n))
    count, plays = min_plays(hand, level, rules)
    assert count == reference_min_plays(hand, level, rules)
    assert_valid_partition(hand, count, plays, level, rules)


@settings(max_examples=40, deadline=None)
@given(hand=small_hands(max_naturals=12), rules=RULES)
def test_count_does_not_depend_on_level_or_joker_colour(hand, rules):
    """Which sets are plays does not depend on the level or on `wild` (only their keys do),
    and SJ / BJ are both wild in 2/3/5-card plays and both singles (R6)."""
    count = min_plays(hand, "2", rules)[0]
    assert min_plays(hand, "A", rules)[0] == count
    assert min_plays(hand, "7", Rules(wild="auto", wrap_straights=rules.wrap_straights))[0] == count
    counts = hand.counts()
    jokers = int(counts[52]) + int(counts[53])
    swapped = counts.copy()
    swapped[52], swapped[53] = min(3, jokers), jokers - min(3, jokers)  # all SJ first
    assert min_plays(Hand.from_counts(swapped), "2", rules)[0] == count


# ---------------------------------------------------------------------------
# Hand-checked examples
# ---------------------------------------------------------------------------

EXAMPLES = [
    # (hand, wrap, count, kinds of one optimal partition or None)
    ("", False, 0, []),
    # any single card is a play (R5)
    ("9c", False, 1, [Kind.SINGLE]),
    # 3 4 5 6 7 in mixed suits: one straight (R5)
    ("3s 4h 5d 6c 7s", False, 1, [Kind.STRAIGHT]),
    # 333 + 44: one full house
    ("3s 3h 3d 4s 4h", False, 1, [Kind.FULL_HOUSE]),
    # 3 5 7 9 J: no two of a rank, suits s h d c d (no flush), gaps (no straight) -> 5 singles
    ("3s 5h 7d 9c Jd", False, 5, [Kind.SINGLE] * 5),
    # 3 4 5 6 alone: 4 cards, distinct ranks, mixed suits: nothing but singles -> 4
    ("3s 4h 5d 6c", False, 4, [Kind.SINGLE] * 4),
    # ... with a joker: SJ + 3456 is a straight (R6) -> 1
    ("3s 4h 5d 6c SJ", False, 1, [Kind.STRAIGHT]),
    # 99 55 + joker: full house (R6) -> 1
    ("9s 9h 5d 5c BJ", False, 1, [Kind.FULL_HOUSE]),
    # four 3s: there is no 4-card play: 2 + 2 or 3 + 1 -> 2
    ("3s 3h 3d 3c", False, 2, None),
    # five hearts, not consecutive: one flush -> 1; one more club -> 2
    ("2h 5h 9h Jh Kh", False, 1, [Kind.FLUSH]),
    ("2h 5h 9h Jh Kh Ac", False, 2, [Kind.FLUSH, Kind.SINGLE]),
    # jokers only (R6): 1-3 in one play, 4 = 2 + 2, 5 = a five, 6 = 3 + 3
    ("SJ", False, 1, [Kind.SINGLE]),
    ("SJ BJ", False, 1, [Kind.PAIR]),
    ("SJ SJ BJ BJ", False, 2, [Kind.PAIR, Kind.PAIR]),
    ("SJ SJ SJ BJ BJ", False, 1, [Kind.FIVE_OF_A_KIND]),
    ("SJ SJ SJ BJ BJ BJ", False, 2, [Kind.TRIPLE, Kind.TRIPLE]),
    # Q K A 2 3, mixed suits, no pairs: no straight without wrap -> 5; QKA23 with wrap -> 1
    ("Qs Kh Ad 2c 3s", False, 5, [Kind.SINGLE] * 5),
    ("Qs Kh Ad 2c 3s", True, 1, [Kind.STRAIGHT]),
    # 333 44 5 6 7 (8 cards): the full house 33344 leaves 5 6 7 as singles (4 plays), but
    # 34567 + 33 + 4 is 3. Two plays (5 + 3) are impossible: the only triple is 333 and
    # 44567 is no play; the only fives are 33344 and 34567, which leave 567 and 334.
    ("3s 3h 3d 4s 4h 5d 6c 7s", False, 3, [Kind.STRAIGHT, Kind.PAIR, Kind.SINGLE]),
    # Seed 000's 配牌 example, "344555667789" (ten and below; here no suit has 5 cards, so
    # no flush). 12 cards in 3 plays would need 5 + 5 + 2. The lone 3 has no pair partner
    # and no group (no other rank has 4), so it is in a straight, and the only one is 34567.
    # What is left, 4 5 5 6 7 8 9, holds the lone 9, whose only five is 56789, leaving 4 5:
    # no pair. So 3 is impossible, and 34567 + 56789 + 4 + 5 makes 4.
    ("3s 4h 4d 5s 5h 5c 6d 6c 7s 7h 8d 9c", False, 4,
     [Kind.STRAIGHT, Kind.STRAIGHT, Kind.SINGLE, Kind.SINGLE]),
    # 24 cards never fit 5 plays: they would waste 5 * 5 - 24 = 1 card, but a play wastes
    # 0 (five), 2 (triple), 3 (pair) or 4 (single). Here 2 3 4 5 7 of each suit are four
    # flushes and 9 9 9 9 two pairs: 4 + 2 = 6.
    ("2h 3h 4h 5h 7h 2s 3s 4s 5s 7s 2d 3d 4d 5d 7d 2c 3c 4c 5c 7c 9h 9s 9d 9c", False, 6, None),
]


@pytest.mark.parametrize("text, wrap, count, kinds", EXAMPLES,
                         ids=[f"{t or 'empty'}{'-wrap' if w else ''}" for t, w, _, _ in EXAMPLES])
def test_examples(text, wrap, count, kinds):
    rules = Rules(wrap_straights=wrap)
    hand = Hand(text)
    got, plays = min_plays(hand, "2", rules)
    assert got == count
    assert_valid_partition(hand, got, plays, "2", rules)
    if kinds is not None:
        assert [p.kind for p in plays] == kinds  # plays come largest first, then by key
    if len(hand) <= 12:
        assert reference_min_plays(hand, "2", rules) == count


def test_python_api_defaults_and_errors():
    count, plays = min_plays("3s 3h 3d 4s 4h 9c")  # level "2", Rules()
    assert count == 2 and [p.kind for p in plays] == [Kind.FULL_HOUSE, Kind.SINGLE]
    assert min_plays(Hand("7c 7d"), level="7", rules=Rules(wild="high"))[0] == 1
    assert min_plays(["As", "Ah"])[0] == 1
    with pytest.raises(ValueError):
        min_plays("3s 3s 3s 3s")  # a 4th copy (R2)
    with pytest.raises(ValueError):
        min_plays("3s", level="1")
    with pytest.raises(ValueError):
        min_plays("3s", rules="auto")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# Full deals
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("wrap", [False, True])
def test_dealt_27_card_hands(wrap):
    rng = random.Random(2026 + wrap)
    rules = Rules(wrap_straights=wrap)
    for _ in range(10):
        hand = Hand.from_faces(rng.sample(DECK, 27))
        level = rng.choice(LEVELS)
        count, plays = min_plays(hand, level, rules)
        assert 6 <= count <= 27  # 27 cards need at least ceil(27 / 5) = 6 plays
        assert_valid_partition(hand, count, plays, level, rules)
