"""R5-R8: ``count_plays`` by arithmetic (moves.cpp ``FastCount``: per-rank and per-suit sums of
the hand instead of enumerating the plays) against the written legal plays, the reference.

Property-based (hypothesis) over random hands, levels, tops (legal plays of another hand, so
every kind of top), both tables (6p3d: three copies of a face; 4p2d: two, R18) and the variants
that change which plays exist or how they compare (``wild``, ``wrap_straights``,
``joker_pair``): the total equals ``len(legal_plays)``, each family's count equals the number
of written plays of that family (the families' blocks in legal-play order), and
``play_at(i) == legal_plays[i]`` for every index i (``play_at`` finds the family from the
counts), so the random policy's games, which draw an index over the counts, do not move.
"""

from __future__ import annotations

import daguai
from daguai import Rules, _core
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from plays_helpers import fixed_positions

RANKS = "23456789TJQKA"
SUITS = "shdc"
NATURAL = [r + s for r in RANKS for s in SUITS]


def _is_sequence(ranks: set[int], wrap: bool) -> bool:
    for t in range(0 if wrap else 3, 13):
        window = {(t - i) % 13 for i in range(5)}
        if ranks <= window:
            return True
    return False


def _family(play, wrap: bool) -> int:
    """The generation family of a written play (moves.hpp: 0 singles .. 6 flushes)."""
    if play.size < 5:
        return play.size - 1
    faces = [f for f in str(play.cards).split() if f not in ("SJ", "BJ")]
    ranks = {RANKS.index(f[0]) for f in faces}
    if len(ranks) <= 1:
        return 3
    if len(ranks) == 2:
        return 4
    if len(ranks) == len(faces) and _is_sequence(ranks, wrap):
        return 5
    return 6


@st.composite
def positions(draw):
    table = draw(st.sampled_from(["6p3d", "4p2d"]))
    copies = 3 if table == "6p3d" else 2
    deck = [f for f in NATURAL + ["SJ", "BJ"] for _ in range(copies)]
    rules = Rules(
        table=table,
        wild=draw(st.sampled_from(["auto", "high", "declare"])),
        wrap_straights=draw(st.booleans()),
        joker_pair=draw(st.sampled_from(["tie", "pure_wins"])),
    )
    order = draw(st.permutations(range(len(deck))))
    size = draw(st.integers(1, 27))
    # many jokers make the rare families (two singles + 3 jokers, joker-only plays)
    extra = draw(st.integers(0, 2 * copies))
    hand_idx = list(order[:size])
    jokers = [i for i in range(len(deck)) if deck[i] in ("SJ", "BJ") and i not in hand_idx]
    hand_idx += jokers[:extra]
    hand = " ".join(deck[i] for i in hand_idx[:27])
    level = draw(st.sampled_from(RANKS))
    top = None
    if draw(st.integers(0, 4)) > 0:
        other = " ".join(deck[i] for i in order[27:54])
        plays = daguai.legal_plays(other, level, None, rules)
        five = draw(st.booleans())
        pool = [p for p in plays if p.size == 5] if five else list(plays)
        if pool:
            top = pool[draw(st.integers(0, len(pool) - 1))]
    return hand, level, top, rules


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_r8_count_plays_by_arithmetic_equals_written_plays(pos):
    hand, level, top, rules = pos
    plays = list(_core.plays.legal_plays(hand, level, top, rules._core))  # the reference
    assert daguai.count_plays(hand, level, top, rules) == len(plays)
    want = [0] * 7
    for p in plays:
        want[_family(p, rules.wrap_straights)] += 1
    got = daguai.count_plays_by_family(hand, level, top, rules)
    assert list(got.values()) == want
    # play_at over every index (declare: a spread of them, its interpretations are slow)
    step = 1 if rules.wild != "declare" or len(plays) < 200 else len(plays) // 50 + 1
    idx = sorted(set(range(0, len(plays), step)) | ({len(plays) - 1} if plays else set()))
    assert [daguai.play_at(hand, k, level, top, rules) for k in idx] == [plays[k] for k in idx]


def test_r8_count_plays_by_arithmetic_rare_families():
    """Hands the random draw seldom makes: three jokers (two singles + 3 jokers: straight
    flushes or four plus one), six jokers (joker-only fives), every copy of a rank, suits of
    many copies (flushes with a rank twice and thrice), following each kind of top."""
    hands = [
        "SJ SJ BJ 3s 5s 9h Kd",
        "SJ SJ SJ BJ BJ BJ 7c 7c 7c 8c 9c Tc",
        "2s 2s 4s 6s 7s 9s Js Ks 3h 5h 8h Th Qh Ah Ah SJ",
        "3d 4d 6d 8d 9d Td Qd Ad 2c 5c 7c 9c Jc Kc",
        "As As As Ah Ah Ad Ac Ac Ac 2s 3s 4s 5s",
        "3h 3h 3h 5h 5h 7h 8h 8h Jh Qh Kh SJ",
        "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As BJ",
    ]
    tops = [None, "7d", "8c 8d", "9s 9h 9d", "3s 4h 5d 6c 7s", "2h 4h 6h 8h Th",
            "Ks Kh Kd 2c 2d", "Qs Qh Qd Qc 3d", "4c 5c 6c 7c 8c", "Js Jh Jd Jc Js"]
    # flush tops from low to high: the flushes that beat are counted suit by suit, a suit whose
    # top power is above the top's and whose third lowest is below it by Gen (flush_top_suits)
    tops += ["2d 3d 4d 6d 7d", "3c 5c 7c 8c 9c", "4s 6s 8s 9s Js", "6h 7h 9h Jh Qh",
             "8d Td Qd Kd Ad", "9c Jc Kc Ac Qc", "Ts Js Qs Ks 2s", "2h 2h 4h 6h 6h"]
    rule_sets = ({}, {"wild": "high"}, {"wrap_straights": True}, {"joker_pair": "pure_wins"},
                 {"table": "4p2d"}, {"table": "4p2d", "wild": "high"})
    for hand, level, top, top_text, rules, rd in fixed_positions(hands, tops, rule_sets, "2TA"):
        plays = list(_core.plays.legal_plays(hand, level, top, rules._core))
        assert daguai.count_plays(hand, level, top, rules) == len(plays), (hand, top_text, rd)
        want = [0] * 7
        for p in plays:
            want[_family(p, rules.wrap_straights)] += 1
        got = list(daguai.count_plays_by_family(hand, level, top, rules).values())
        assert got == want, (hand, level, top_text, rd)


def test_r8_play_at_by_arithmetic_every_index_rare_hands():
    """``play_at`` (moves.cpp ``FastSelect``: blocks skipped by arithmetic, the index decoded
    inside its block) equals ``legal_plays[k]`` for every k, on hands whose suits hold a rank
    twice or thrice (flushes 2+1+1+1, 3+1+1, 2+2+1), runs inside one suit (sequences skipped
    among the flushes, straight flushes among the sequences), jokers 0-6 (every composition),
    leading and following a top of every kind, at levels that move a rank's power (R4)."""
    hands = [
        "3h 3h 3h 5h 5h 7h 8h 8h Jh Qh Kh SJ",
        "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As BJ",
        "2s 2s 3s 4s 4s 5s 6s 9s 9s 9s Js Qs As Ah Ah Kh Qh Jh Th 9h",
        "SJ SJ BJ 3s 5s 9h Kd",
        "SJ BJ 2c 3c 4c 5c 6c 6c 7c 8c 8c 8c Ac Ac Kd Kd Kd",
        "SJ SJ SJ BJ BJ BJ 7c 7c 7c 8c 9c Tc",
        "As As As Ah Ah Ad Ac Ac Ac 2s 3s 4s 5s",
    ]
    tops = [None, "7d", "8c 8d", "9s 9h 9d", "3s 4h 5d 6c 7s", "Ts Jh Qd Kc As", "2h 4h 6h 8h Th",
            "Ks Kh Kd 2c 2d", "Qs Qh Qd Qc 3d", "4c 5c 6c 7c 8c", "Js Jh Jd Jc Js",
            "3c 5c 7c 8c 9c", "8d Td Qd Kd Ad"]
    checked = 0
    rule_sets = ({}, {"wild": "high"}, {"wrap_straights": True}, {"table": "4p2d"},
                 {"wild": "high", "wrap_straights": True})
    for hand, level, top, top_text, rules, rd in fixed_positions(hands, tops, rule_sets, "25A"):
        plays = list(_core.plays.legal_plays(hand, level, top, rules._core))
        got = [daguai.play_at(hand, k, level, top, rules) for k in range(len(plays))]
        assert got == plays, (hand, level, top_text, rd)
        checked += len(plays)
    assert checked > 100_000  # the hands above make every family, many times
