"""Self-checks of the pure-Python oracle tests/reference.py (not of the engine).

Every worked example of docs/rules.md (R2, R4-R7 and its part 2) is here, with
its arithmetic.  Levels are written as the level rank's character: level "2" is rank
index 0, "3" -> 1, "5" -> 3, "8" -> 6, "A" -> 12.
Power (R4): the ladder 2..A without L numbered 0..11, level rank 12, SJ 13, BJ 14.
So at level 2: 3->0 4->1 5->2 6->3 7->4 8->5 9->6 T->7 J->8 Q->9 K->10 A->11, 2->12.
Five-card key: (kind - 3) << 20 | sub.  Kinds: single 0 pair 1 triple 2 straight 3
flush 4 full_house 5 four_plus_one 6 straight_flush 7 five_of_a_kind 8.
"""

import itertools
import random

import pytest
from reference import (
    BJ,
    FIVE_OF_A_KIND,
    FLUSH,
    FOUR_PLUS_ONE,
    FULL_HOUSE,
    PAIR,
    RANK_CHARS,
    SINGLE,
    SJ,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPLE,
    beats,
    classify,
    face_power,
    flush_sub,
    fmt,
    interpretations,
    interpretations_bruteforce,
    legal_plays,
    natural_kind_key,
    parse,
    power,
    valid_assignments,
)
from rule_tables import (
    R2_BAD,
    R2_PARSE,
    R4_POWER,
    R5_CASES,
    R6_CLASSIFY,
    R6_INTERPRETATIONS,
    R7_CASES,
)


def LV(ch):
    """Level given by its rank character -> rank index."""
    return RANK_CHARS.index(ch)


def K5(kind, sub):
    return ((kind - 3) << 20) | sub


def FS(*powers):
    """Flush sub from powers already sorted high to low."""
    assert list(powers) == sorted(powers, reverse=True)
    return flush_sub(powers)


# ---------------------------------------------------------------------------
# R2 cards and notation
# ---------------------------------------------------------------------------


def test_r2_faces_and_notation():
    for text, ids in R2_PARSE:
        assert parse(text) == ids, text
    for text in R2_BAD:
        with pytest.raises(ValueError):
            parse(text)
    # canonical text: id order, rank upper, suit lower, T for ten, jokers last
    assert fmt(parse("BJ As 2s SJ 10c")) == "2s Tc As SJ BJ"
    assert fmt(parse("a♠ k♥")) == "Kh As"
    # 54 distinct faces round-trip
    all_text = " ".join(r + s for r in "23456789TJQKA" for s in "shdc") + " SJ BJ"
    assert parse(all_text) == tuple(range(54))
    assert parse(fmt(range(54))) == tuple(range(54))
    # each face exists 3 times: a 4th copy is not a set of cards
    with pytest.raises(ValueError):
        interpretations(parse("3s 3s 3s 3s"), 0)
    with pytest.raises(ValueError):
        legal_plays(parse("SJ SJ SJ SJ"), 0)


# ---------------------------------------------------------------------------
# R4 single power order
# ---------------------------------------------------------------------------


def test_r4_power():
    for x, lv, p in R4_POWER:
        arg = RANK_CHARS.index(x) if isinstance(x, str) else x
        assert power(arg, LV(lv)) == p, (x, lv)
    for level in range(13):
        # BJ > SJ > level cards > A > K > ... > 2, skipping L
        order = [r for r in range(13) if r != level] + [level, SJ, BJ]
        assert [power(x, level) for x in order] == list(range(15))
        # suits never rank: all four faces of a rank have one power
        for r in range(13):
            assert len({face_power(r * 4 + s, level) for s in range(4)}) == 1
    # equal power: neither beats the other (As vs Ah as singles)
    a = (1,) + classify(parse("As"), 0)
    b = (1,) + classify(parse("Ah"), 0)
    assert a == b and not beats(a, b) and not beats(b, a)
    # single order at level 2: BJ > SJ > 2 (level) > A > K ... > 3
    singles = ["3c", "4c", "Kc", "Ac", "2c", "SJ", "BJ"]
    keys = [classify(parse(t), 0)[1] for t in singles]
    assert keys == [0 << 1, 1 << 1, 10 << 1, 11 << 1, 12 << 1, 13 << 1, 14 << 1]
    with pytest.raises(ValueError):
        power(13, 0)  # neither a rank index nor a joker face


# ---------------------------------------------------------------------------
# R5 combination types (natural cards)
# ---------------------------------------------------------------------------


def test_r5_combination_types():
    for text, lv, wrap, expected, why in R5_CASES:
        faces = parse(text)
        got = classify(faces, LV(lv), wrap=wrap)
        assert got == expected, (text, lv, wrap, why)
        # without jokers there is exactly one interpretation, whatever the wild mode
        assert interpretations(faces, LV(lv), wrap) == ({expected} if expected else set())
        for wild in ("high", "declare"):
            assert classify(faces, LV(lv), wild=wild, wrap=wrap) == expected
        if len(faces) == 5 and SJ not in faces and BJ not in faces:
            assert natural_kind_key(faces, LV(lv), wrap) == expected, (text, why)


# ---------------------------------------------------------------------------
# R6 wildcards
# ---------------------------------------------------------------------------


def test_r6_wildcards():
    for text, lv, opts, expected, why in R6_CLASSIFY:
        assert classify(parse(text), LV(lv), **opts) == expected, (text, lv, opts, why)
    for text, lv, wrap, expected in R6_INTERPRETATIONS:
        assert interpretations(parse(text), LV(lv), wrap) == expected, text

    # "4h 7h Jh Kh + joker" at level 2: the joker is NOT 2h (a level card, power 12)
    assert classify(parse("4h 7h Jh Kh SJ"), 0) != (FLUSH, K5(FLUSH, FS(12, 10, 8, 4, 1)))

    # declare == high for every example
    for text, lv, _opts, _exp, _why in R6_CLASSIFY:
        f = parse(text)
        assert classify(f, LV(lv), wild="declare") == classify(f, LV(lv), wild="high")

    # 3h 3h 3h Kh + joker, level 2.  Interpretations:
    #   joker rank 3 (as 3s/3d/3c): four-plus-one 3333+K, key power(3) = 0;
    #   joker rank K: full house 333+KK, key 0;
    #   joker hearts of another rank r (11 ranks: not 3, not K): a flush;
    #   joker another rank in another suit: 333+K+r, no type.  Total 1 + 1 + 11 = 13.
    f = parse("3h 3h 3h Kh SJ")
    interps = interpretations(f, 0)
    assert len(interps) == 13
    assert (FOUR_PLUS_ONE, K5(FOUR_PLUS_ONE, 0)) in interps
    assert (FULL_HOUSE, K5(FULL_HOUSE, 0)) in interps
    assert sum(1 for k, _ in interps if k == FLUSH) == 11
    assert classify(f, 0) == (FOUR_PLUS_ONE, K5(FOUR_PLUS_ONE, 0))
    # the joker can never be 3h (a 4th copy of 3h); 3s is fine
    three_h, three_s = parse("3h")[0], parse("3s")[0]
    assigned = {a for (a,) in valid_assignments(f)}
    assert three_h not in assigned and three_s in assigned and len(assigned) == 51
    # and a flush with the joker as 3h (3h x4, which would be 3333+K anyway) is no
    # interpretation: every flush interpretation has exactly three powers 0.
    for kind, key in interps:
        if kind == FLUSH:
            sub = key & 0xFFFFF
            nibbles = [(sub >> s) & 15 for s in (16, 12, 8, 4, 0)]
            assert nibbles.count(0) == 3 and 10 in nibbles
    # a pair needing a 4th copy: 3h 3h 3h + ... is fine as a triple; 3h 3h + SJ triple ok
    assert classify(parse("3h 3h SJ"), 0) == (TRIPLE, 0)


def _check_reduction(faces, levels=(0, 3, 12), wraps=(False, True)):
    for level in levels:
        for wrap in wraps:
            fast = interpretations(faces, level, wrap)
            slow = interpretations_bruteforce(faces, level, wrap)
            assert fast == slow, (fmt(faces), level, wrap)


def test_r6_reduction_matches_bruteforce():
    """The oracle's rank-multiset x suit-situation reduction equals the literal
    52**j enumeration (with the 3-copy limit)."""
    rng = random.Random(20240517)
    deck = [f for f in range(52) for _ in range(3)]
    hearts = [f for f in range(52) if f % 4 == 1 for _ in range(3)]
    # hand-picked: same suit, copies at the limit, wrap-sensitive, level-sensitive
    for text in ["3h 3h 3h Kh SJ", "4h 7h Jh Kh SJ", "9s 9h 5d 5c SJ", "Qh Kh Ah 2h SJ",
                 "3h 3h 3h SJ BJ", "Ah Ah Kh SJ SJ", "2s 3s 4s SJ BJ", "Ks Ks Ks Kh SJ",
                 "5h 5h SJ", "5h SJ SJ", "5h SJ"]:
        _check_reduction(parse(text))
    # random: 4 naturals + 1 joker (half of them all hearts)
    for i in range(120):
        pool = hearts if i % 2 else deck
        nat = rng.sample(pool, 4)
        if max(nat.count(x) for x in nat) > 3:
            continue
        _check_reduction(tuple(sorted(nat)) + (SJ,), levels=(rng.randrange(13),))
    # random: 3 naturals + 2 jokers
    for i in range(16):
        pool = hearts if i % 2 else deck
        nat = rng.sample(pool, 3)
        _check_reduction(tuple(sorted(nat)) + (SJ, BJ), levels=(rng.randrange(13),), wraps=(i % 4 < 2,))
    # one 3-joker case (52**3 assignments, ~3 s)
    _check_reduction(parse("3h 5h SJ SJ BJ"), levels=(0,), wraps=(True,))


# ---------------------------------------------------------------------------
# R7 keys and comparison
# ---------------------------------------------------------------------------

def _play(text, level, **opts):
    faces = parse(text)
    return (len(faces),) + classify(faces, level, **opts)


def test_r7_keys_and_comparison():
    L2 = LV("2")
    # five-card type order at level 2, each the strongest of its type below the weakest
    # of the next where possible:
    chain = [
        "Ts Jh Qd Kc As",   # straight TJQKA: 0<<20 | 12
        "3h 4h 5h 6h 8h",   # weakest-ish flush: 1<<20 | ...
        "3s 3h 3d 4s 4h",   # full house 333: 2<<20 | 0
        "3s 3h 3d 3c 4s",   # four-plus-one 3333: 3<<20 | 0
        "As 2s 3s 4s 5s",   # straight flush A2345: 4<<20 | 3
        "3s 3s 3h 3h 3d",   # five of a kind 3: 5<<20 | 0
    ]
    plays = [_play(t, L2) for t in chain]
    assert [p[1] for p in plays] == [STRAIGHT, FLUSH, FULL_HOUSE, FOUR_PLUS_ONE,
                                     STRAIGHT_FLUSH, FIVE_OF_A_KIND]
    for lo, hi in zip(plays, plays[1:], strict=False):
        assert beats(hi, lo) and not beats(lo, hi)
    # the strongest of each type is below the weakest of the next (key layout)
    assert K5(STRAIGHT, 12) < K5(FLUSH, 0)
    assert K5(FLUSH, FS(14, 14, 14, 14, 14)) < K5(FULL_HOUSE, 0)
    assert K5(FULL_HOUSE, 14) < K5(FOUR_PLUS_ONE, 0)
    assert K5(FOUR_PLUS_ONE, 14) < K5(STRAIGHT_FLUSH, 0)
    assert K5(STRAIGHT_FLUSH, 12) < K5(FIVE_OF_A_KIND, 0)

    for a, b, lv, opts, ab, ba, why in R7_CASES:
        pa, pb = _play(a, LV(lv), **opts), _play(b, LV(lv), **opts)
        assert beats(pa, pb) == ab, (a, b, why)
        assert beats(pb, pa) == ba, (b, a, why)
    # (size, key) pairs work too
    assert beats((2, 27), (2, 26)) and not beats((1, 27), (2, 26))


# ---------------------------------------------------------------------------
# R8 with R5-R7: legal plays (lead and follow)
# ---------------------------------------------------------------------------

def _naive_legal(hand, level, wild="auto", wrap=False, joker_pair="tie"):
    """Index combinations, deduplicated: a second, dumber enumeration."""
    out = set()
    subs = {tuple(sorted(c)) for n in (1, 2, 3, 5) for c in itertools.combinations(hand, n)}
    for sub in subs:
        if wild == "declare":
            for kind, key in interpretations(sub, level, wrap, joker_pair):
                out.add((sub, kind, key))
        else:
            kk = classify(sub, level, wild, wrap, joker_pair)
            if kk is not None:
                out.add((sub,) + kk)
    return out


def test_r8_legal_plays():
    s3, h4 = parse("3s")[0], parse("4h")[0]
    # hand "3s 3s 4h", level 2, lead:
    #   singles: 3s (key 0<<1), 4h (power 1 -> key 2)          -> 2
    #   pairs: 3s3s (key 0); 3s4h is not a pair                -> 1
    #   triple 3s3s4h: two ranks, no                           -> 0
    #   five: only 3 cards                                     -> 0   total 3
    assert legal_plays(parse("3s 3s 4h"), 0) == {
        ((s3,), SINGLE, 0), ((h4,), SINGLE, 2), ((s3, s3), PAIR, 0)}

    # hand "3s 3h SJ", level 2, lead:
    #   singles 3s, 3h (key 0), SJ (26)                         -> 3
    #   pairs 3s3h, 3s+SJ, 3h+SJ, all pair of 3 (key 0)         -> 3
    #   triple 3s 3h SJ (key 0)                                 -> 1   total 7
    hand = parse("3s 3h SJ")
    lead = legal_plays(hand, 0)
    assert len(lead) == 7
    assert {(k, key) for _, k, key in lead} == {(SINGLE, 0), (SINGLE, 26), (PAIR, 0), (TRIPLE, 0)}
    # follow a single 3 (key 0): only SJ beats (0 is not > 0)
    assert legal_plays(hand, 0, top=(1, 0)) == {((SJ,), SINGLE, 26)}
    # follow a pair of 2s at level 5 (L=3): power(2) = 0, key 0; pairs of 3 have
    # power 1 -> key 2, all three pairs beat
    assert len(legal_plays(hand, LV("5"), top=(2, 0))) == 3
    # follow a pair of 3s at level 2 (key 0): nothing beats; a single top ignores pairs
    assert legal_plays(hand, 0, top=(2, 0)) == set()
    # top as (size, kind, key) works the same
    assert legal_plays(hand, 0, top=(1, SINGLE, 0)) == {((SJ,), SINGLE, 26)}

    # hand "3s 4h 5d 6c 7s SJ", level 2, lead:
    #   singles: 6                                              -> 6
    #   pairs: each natural + SJ (no natural pair)              -> 5
    #   triples: none (needs two naturals of one rank)          -> 0
    #   fives: C(6,5) = 6 subsets, all straights                -> 6   auto total 17
    #     34567 (5); 4567+J auto 34567 (5) [or 45678 (6)]; 3567+J 34567 (5);
    #     3467+J 34567 (5); 3457+J 34567 (5); 3456+J auto 23456 (4) [or 34567 (5)]
    #   declare: the bracketed extra interpretations -> 6 + 5 + 8 = 19
    hand = parse("3s 4h 5d 6c 7s SJ")
    assert len(legal_plays(hand, 0)) == 17
    assert len(legal_plays(hand, 0, wild="high")) == 17
    assert len(legal_plays(hand, 0, wild="declare")) == 19
    fives = sorted(key for f, k, key in legal_plays(hand, 0) if len(f) == 5)
    assert fives == [4, 5, 5, 5, 5, 5]
    # follow a straight 34567 (key 0<<20 | 5):
    #   auto: every five here is 23456 or 34567 under auto -> nothing beats
    #   high: 4567+SJ is 45678 (key 6) -> 1;  declare: the 45678 interpretation -> 1
    top = (5, K5(STRAIGHT, 5))
    assert legal_plays(hand, 0, top=top) == set()
    c4567j = tuple(sorted(parse("4h 5d 6c 7s SJ")))
    assert legal_plays(hand, 0, top=top, wild="high") == {(c4567j, STRAIGHT, 6)}
    assert legal_plays(hand, 0, top=top, wild="declare") == {(c4567j, STRAIGHT, 6)}

    # copies are interchangeable: "3s 3s 3s" gives one single, one pair, one triple
    assert len(legal_plays(parse("3s 3s 3s"), 0)) == 3

    # sub-multiset enumeration equals the dumb index enumeration on small hands
    rng = random.Random(7)
    deck = [f for f in range(54) for _ in range(3)]
    for i in range(6):
        hand = sorted(rng.sample(deck, 8))
        if i == 0:
            hand = sorted(parse("7h 7h 8h 9h SJ SJ BJ Kd"))
        level = rng.randrange(13)
        for wild in ("auto", "high", "declare"):
            assert legal_plays(hand, level, wild=wild) == _naive_legal(hand, level, wild), (fmt(hand), wild)
