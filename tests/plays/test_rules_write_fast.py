"""R5-R8: the writing fast paths of ``legal_plays`` (moves.cpp ``Gen::fast_*``: a local cursor,
room made once per block, the key from what the loop knows) against the generators' generic
path (``_testing.legal_plays_generic``: one play at a time through emit / put), the reference:
the same plays in the same order (the order is part of the contract, docs/rules.md "Order of
legal plays": the random policy's games and the R17 digests depend on it).

Property-based (hypothesis) over random hands (with extra jokers and one-suit hands for the
rare families), every level, tops of every size and five-card kind (legal plays of another
hand), both tables (R18) and the variants that change which plays exist or how they compare
(``wild``, ``wrap_straights``, ``joker_pair``); and fixed hands of the rare families against
every kind of top. The generic path's contents are checked against tests/reference.py by
test_rules_vs_reference.py.
"""

from __future__ import annotations

import daguai
import pytest
from daguai import Rules
from daguai._core import _testing
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from plays_helpers import fixed_positions

RANKS = "23456789TJQKA"
SUITS = "shdc"
NATURAL = [r + s for r in RANKS for s in SUITS]


def _same(hand, level, top, rules):
    fast = list(daguai.legal_plays(hand, level, top, rules))
    ref = _testing.legal_plays_generic(hand, level, top, rules._core)
    assert fast == ref, (hand, level, top, rules)
    return len(fast)


@st.composite
def positions(draw):
    table = draw(st.sampled_from(["6p3d", "4p2d"]))
    copies = 3 if table == "6p3d" else 2
    rules = Rules(
        table=table,
        wild=draw(st.sampled_from(["auto", "high"] * 4 + ["declare"])),
        wrap_straights=draw(st.booleans()),
        joker_pair=draw(st.sampled_from(["tie", "pure_wins"])),
    )
    suits = SUITS if draw(st.integers(0, 3)) else draw(st.sampled_from(["s", "sh"]))  # flushes
    deck = [f for f in NATURAL + ["SJ", "BJ"] for _ in range(copies) if f[1] in suits or f[1] == "J"]
    order = draw(st.permutations(range(len(deck))))
    size = draw(st.integers(1, 27))
    extra = draw(st.integers(0, 2 * copies))  # jokers: compositions, joker-only plays
    idx = list(order[:size])
    idx += [i for i in range(len(deck)) if deck[i] in ("SJ", "BJ") and i not in idx][:extra]
    hand = " ".join(deck[i] for i in idx[:33])
    level = draw(st.sampled_from(RANKS))
    top = None
    if draw(st.integers(0, 5)) > 0:
        full = [f for f in NATURAL + ["SJ", "BJ"] for _ in range(copies)]
        other = " ".join(full[i] for i in draw(st.permutations(range(len(full))))[:27])
        plays = daguai.legal_plays(other, level, None, rules)
        kinds = sorted({int(p.kind) for p in plays})
        if kinds:
            kind = draw(st.sampled_from(kinds))  # every kind of top, not only the common ones
            pool = [p for p in plays if int(p.kind) == kind]
            top = pool[draw(st.integers(0, len(pool) - 1))]
    return hand, level, top, rules


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_r8_fast_written_plays_equal_generic_path(pos):
    _same(*pos)


def test_r8_fast_written_plays_rare_families():
    """Three jokers (two singles + 3 jokers), six jokers (joker-only plays), every copy of a
    rank, suits of many copies (flushes with a rank twice, thrice, two ranks twice), a whole
    suit, following every kind of top, under each variant."""
    hands = [
        "SJ SJ BJ 3s 5s 9h Kd",
        "SJ SJ SJ BJ BJ BJ 7c 7c 7c 8c 9c Tc",
        "As As As Ah Ah Ad Ac Ac Ac 2s 3s 4s 5s",
        "3h 3h 3h 5h 5h 7h 8h 8h Jh Qh Kh SJ",
        "3h 3h 5h 5h 7h 7h 9h Jh Jh Kh Kh SJ BJ",
        "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As BJ",
        "2s 2s 3s 3s 4s 5s 6s 6s 6s 9s Ts Ts Qs Ks As SJ BJ",
    ]
    tops = [None, "7d", "BJ", "8c 8d", "SJ SJ", "9s 9h 9d", "3s 4h 5d 6c 7s", "Ts Jh Qd Kc As",
            "2h 4h 6h 8h Th", "3d 5d 7d 9d Jd", "Ks Kh Kd 2c 2d", "Qs Qh Qd Qc 3d",
            "4c 5c 6c 7c 8c", "Js Jh Jd Jc Js"]
    total = 0
    rule_sets = ({}, {"wild": "high"}, {"wrap_straights": True}, {"joker_pair": "pure_wins"},
                 {"wild": "high", "wrap_straights": True}, {"table": "4p2d"},
                 {"table": "4p2d", "wild": "high"})
    for hand, level, top, _, rules, _ in fixed_positions(hands, tops, rule_sets, "2TA"):
        total += _same(hand, level, top, rules)
    assert total > 10_000  # the loops above did write plays


# The kinds each five-card family holds under auto / high (R6: a set is the highest kind it can
# form), which the heuristic's cheapest five-card follow relies on (rule_helpers.cpp
# cheapest_five_follow: it lists the families by the lowest kind they hold).
FIVE_FAMILY_KINDS = {
    3: {daguai.Kind.FIVE_OF_A_KIND},
    4: {daguai.Kind.FULL_HOUSE, daguai.Kind.FOUR_PLUS_ONE, daguai.Kind.STRAIGHT_FLUSH},
    5: {daguai.Kind.STRAIGHT, daguai.Kind.STRAIGHT_FLUSH},
    6: {daguai.Kind.FLUSH},
}


def _families(hand, level, top, rules):
    """legal_plays_of_family, family by family: together legal_plays, in its order."""
    fams = [_testing.legal_plays_of_family(hand, level, top, rules._core, f) for f in range(7)]
    assert [p for fam in fams for p in fam] == list(daguai.legal_plays(hand, level, top, rules))
    if rules.wild != "declare":
        for f, kinds in FIVE_FAMILY_KINDS.items():
            assert {p.kind for p in fams[f]} <= kinds, (hand, level, top, f)
    return sum(len(f) for f in fams)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_r6_r8_families_one_by_one_are_legal_plays(pos):
    _families(*pos)


def test_r6_r8_families_one_by_one_rare_hands():
    """The rare families' hands of the test above (three or six jokers, every copy of a rank,
    suits of many copies), against every kind of top, under each variant."""
    hands = ["SJ SJ BJ 3s 5s 9h Kd", "SJ SJ SJ BJ BJ BJ 7c 7c 7c 8c 9c Tc",
             "3h 3h 5h 5h 7h 7h 9h Jh Jh Kh Kh SJ BJ", "2s 2s 3s 3s 4s 5s 6s 6s 6s 9s Ts Ts Qs Ks As SJ BJ"]
    tops = [None, "3s 4h 5d 6c 7s", "2h 4h 6h 8h Th", "Ks Kh Kd 2c 2d", "Qs Qh Qd Qc 3d",
            "4c 5c 6c 7c 8c", "Js Jh Jd Jc Js"]
    rule_sets = ({}, {"wild": "high"}, {"wrap_straights": True}, {"table": "4p2d"}, {"wild": "declare"})
    total = 0
    for hand, level, top, _, rules, _ in fixed_positions(hands, tops, rule_sets, "2TA"):
        total += _families(hand, level, top, rules)
    assert total > 1_000


def test_families_hook_refuses_a_family_out_of_range():
    with pytest.raises(ValueError, match="family must be 0..6, got 7"):
        _testing.legal_plays_of_family("3s", "2", None, Rules()._core, 7)


def test_batch_face_range_error_names_row_and_value():
    """classify_many / beats_many on uint8 rows: the C++ loop finds an id out of range 0..53 and
    the error names the first one (its row and value) as plays.py's check of wider integers
    does, even when an earlier row is no play or has a face too often (R2)."""
    import numpy as np
    import pytest

    good = np.array([[0, 4, 8, 12, 16]] * 4, dtype=np.uint8)  # 2s 3s 4s 5s 6s
    bad = good.copy()
    bad[2, 3] = 200
    bad[1] = [0, 0, 0, 0, 1]  # a face four times: an earlier row's own error
    for what, call in (("classify_many", lambda: daguai.classify_many(bad)),
                       ("beats_many", lambda: daguai.beats_many(good, bad)),
                       ("beats_many", lambda: daguai.beats_many(bad, good))):
        with pytest.raises(ValueError, match=rf"^{what}: face id 200 \(row 2\) is out of range 0\.\.53$"):
            call()
    wide = bad.astype(np.int64)
    wide[2, 3] = 300
    with pytest.raises(ValueError, match=r"^classify_many: face id 300 \(row 2\)"):
        daguai.classify_many(wide)
    with pytest.raises(ValueError):  # no id out of range: the copy error stands
        daguai.classify_many(bad[:2])
