"""Perft for legal-play generation (R8 with R5-R7): pinned counts of distinct legal plays,
like chess perft, for fixed hands, levels, rule variants, leading and following a top of
every kind.

Every pinned number is justified in the same test by the pure-Python oracle
(tests/reference.py): the count must equal len(reference.legal_plays(...)), and the engine's
set of plays must equal the oracle's set.  The oracle caches interpretations across calls
(keyed by the natural cards, joker count, level, wrap and joker_pair), which is why the
joker hands below are one deal at one level with naturals swapped for jokers: they share
most of the oracle's work and keep this file well under a minute.

"Distinct" (docs/rules.md, legal_plays): one play per distinct multiset of faces, and under
wild="declare" one per distinct (kind, key) interpretation.  Leading (top None) counts plays
of 1, 2, 3 and 5 cards; following counts only plays of top's size with a higher key (R7).
"""

from __future__ import annotations

import daguai
import pytest
import reference as ref
from daguai import Rules

# 27 cards = a full dealt hand (R2).
HANDS = {
    # random deal, 0 jokers
    "deal0": "2d 2c 4s 4d 4d 4d 5s 5s 5c 6h 7d 8s 8h 8d 8c 9d Ts Jc Jc Qs Qc Ks Kh Kc As Ad Ac",
    # one random deal (seed 204) with 25 / 23 / 21 naturals plus 2 / 4 / 6 jokers
    "deal2": "2s 2s 2h 2d 3s 3d 3d 3c 5d 5c 7h 7h 8s 8h 8d 8c Ts Jh Jd Qc As Ah Ah Ac Ac SJ BJ",
    "deal4": "2s 2s 2h 2d 3s 3d 3d 3c 5d 5c 7h 7h 8s 8h 8d Ts Jh Jd Qc As Ah Ah Ac SJ SJ BJ BJ",
    "deal6": "2s 2s 2h 2d 3s 3d 3c 5d 5c 7h 8s 8h 8d Ts Jh Jd Qc As Ah Ah Ac SJ SJ SJ BJ BJ BJ",
    # triples, fours and fives of a rank: 333333 6666 9999 JJJJJ KKK AAA + 2c SJ
    "groups": "3s 3s 3h 3d 3c 3c 6h 6h 6h 6d 9s 9s 9c 9c Js Jh Jd Jc Jc Kd Kd Kd As As Ah 2c SJ",
    # 21 hearts + 5 others + SJ
    "hearts": "2h 2h 4h 4h 5h 5h 6h 6h 6c 7h 7h 7h 8h 9h Th Th Js Jh Jd Qs Qs Qh Kh Kh Ah Ah SJ",
    # ranks J Q K A 2 3 4 only: wrap-around sequences (JQKA2, QKA23, KA234)
    "wrap": "2s 2s 2h 3s 3s 4s 4s 4h 4d 4d Js Jh Jh Jd Jd Jc Qs Qs Qs Qh Qd Kh Kc Ah Ah Ac SJ",
    # two of every spade + Ah: straight flushes everywhere, no jokers
    "spades": "2s 2s 3s 3s 4s 4s 5s 5s 6s 6s 7s 7s 8s 8s 9s 9s Ts Ts Js Js Qs Qs Ks Ks As As Ah",
    # small hands whose counts are worked out in test_rules_reference_selfcheck.py / below
    "run_sj": "3s 4h 5d 6c 7s SJ",
    "pair_sj": "3s 3h SJ",
    "jokers7": "7s SJ SJ SJ BJ BJ BJ",
    "joker_pairs": "2s 2h As SJ SJ BJ",
}

# One top play of each kind (classified at the row's level under the row's rules); the
# kind is asserted by the test and every kind is used (test_r8_perft_covers_every_top_kind).
SINGLE = "Ks"
PAIR = "9s 9h"
TRIPLE = "7s 7h 7d"
STRAIGHT = "5s 6h 7d 8c 9s"
FLUSH = "3h 5h 8h Jh Kh"
FULL_HOUSE = "8s 8h 8d 4s 4h"
FOUR_PLUS_ONE = "6s 6h 6d 6c 3s"
STRAIGHT_FLUSH = "4d 5d 6d 7d 8d"
FIVE_OF_A_KIND = "5s 5s 5h 5h 5d"

AUTO: dict = {}
HIGH = {"wild": "high"}
DECLARE = {"wild": "declare"}
WRAP = {"wrap_straights": True}
PURE = {"joker_pair": "pure_wins"}
LEAD = None

PERFT = [
    # (hand, level, rules, top (None = lead), kind of top, number of distinct legal plays)
    ("deal0", "2", AUTO, LEAD, None, 398),
    # K = 10 at level 2; beaten by As Ad Ac (A = 11) and 2d 2c (level, 12): 3 + 2
    ("deal0", "2", AUTO, SINGLE, "single", 5),
    # 99 = power 6; pairs above: JcJc 1, Qs Qc 1, K (3 faces) 3, A (3 faces) 3, 2d2c 1
    ("deal0", "2", AUTO, PAIR, "pair", 9),
    # 777 = power 4; triples above: 8 (4 faces, choose 3) 4, KsKhKc 1, AsAdAc 1
    ("deal0", "2", AUTO, TRIPLE, "triple", 6),
    ("deal0", "2", AUTO, STRAIGHT, "straight", 323),
    ("deal0", "2", AUTO, FULL_HOUSE, "full_house", 72),
    # same sets as at level 2 (no jokers: each set has one reading), other keys
    ("deal0", "A", HIGH, LEAD, None, 398),
    ("deal0", "A", HIGH, FLUSH, "flush", 257),
    ("deal2", "7", AUTO, LEAD, None, 2273),
    ("deal2", "7", AUTO, PAIR, "pair", 24),
    ("deal2", "7", AUTO, FLUSH, "flush", 1759),
    # auto and high pick different keys, but every set is a play in both
    ("deal2", "7", HIGH, LEAD, None, 2273),
    ("deal2", "7", HIGH, STRAIGHT, "straight", 1909),
    ("deal2", "7", DECLARE, LEAD, None, 10577),
    ("deal2", "7", DECLARE, STRAIGHT, "straight", 10184),
    ("deal4", "7", AUTO, LEAD, None, 2983),
    # 777 at level 7 = power 12; only joker triples are higher (13): SJ SJ BJ, SJ BJ BJ
    ("deal4", "7", AUTO, TRIPLE, "triple", 2),
    ("deal4", "7", AUTO, FOUR_PLUS_ONE, "four_plus_one", 806),
    ("deal4", "7", DECLARE, LEAD, None, 91690),
    ("deal4", "7", DECLARE, FIVE_OF_A_KIND, "five_of_a_kind", 43),
    ("deal6", "7", AUTO, LEAD, None, 3031),
    # K = 10; above: As Ah Ac (11) 3, 7h (level, 12) 1, SJ 1, BJ 1
    ("deal6", "7", AUTO, SINGLE, "single", 6),
    ("deal6", "7", AUTO, STRAIGHT_FLUSH, "straight_flush", 182),
    ("deal6", "7", AUTO, FIVE_OF_A_KIND, "five_of_a_kind", 81),
    ("deal6", "7", HIGH, FULL_HOUSE, "full_house", 2007),
    ("deal6", "7", DECLARE, LEAD, None, 191524),
    ("deal6", "7", DECLARE, FOUR_PLUS_ONE, "four_plus_one", 2272),
    ("groups", "J", AUTO, LEAD, None, 1222),
    ("groups", "J", AUTO, TRIPLE, "triple", 24),
    ("groups", "J", AUTO, FULL_HOUSE, "full_house", 728),
    ("groups", "J", AUTO, FOUR_PLUS_ONE, "four_plus_one", 222),
    # 55555 = power 3 at level J; fives above: Js Jh Jd Jc Jc 1, four of those J + SJ
    # (drop Js, Jh, Jd or a Jc) 4, 6h6h6h6d+SJ (4) 1, 9s9s9c9c+SJ (7) 1; 3333+3/SJ is power 1
    ("groups", "J", AUTO, FIVE_OF_A_KIND, "five_of_a_kind", 7),
    ("hearts", "5", AUTO, LEAD, None, 3718),
    ("hearts", "5", AUTO, FLUSH, "flush", 912),
    ("hearts", "5", AUTO, STRAIGHT_FLUSH, "straight_flush", 30),
    ("hearts", "5", DECLARE, FLUSH, "flush", 3531),
    ("wrap", "3", WRAP, LEAD, None, 1740),
    ("wrap", "3", WRAP, STRAIGHT, "straight", 1197),
    ("wrap", "3", AUTO, LEAD, None, 1358),
    ("wrap", "3", AUTO, STRAIGHT, "straight", 1244),
    ("spades", "8", WRAP, LEAD, None, 5051),
    # 45678 = key 6 (index of 8); spade SFs above: tops 9 T J Q K A (keys 7..12) = 6
    ("spades", "8", WRAP, STRAIGHT_FLUSH, "straight_flush", 6),
    # wrapped SF QKA23 = key 1; above: KA234 (2), A2345 (3), 23456 .. TJQKA (4..12) = 11
    ("spades", "8", WRAP, "Qh Kh Ah 2h 3h", "straight_flush", 11),
    ("spades", "8", WRAP, FLUSH, "flush", 863),
    # test_rules_reference_selfcheck.test_r8_legal_plays: 6 singles + 5 pairs + 6 fives = 17
    ("run_sj", "2", AUTO, LEAD, None, 17),
    # declare adds 4567+SJ as 45678 and 3456+SJ as 34567: 19
    ("run_sj", "2", DECLARE, LEAD, None, 19),
    # top 34567 (key 5): under auto every five here is 23456 (4) or 34567 (5) -> 0;
    # high / declare: 4567+SJ as 45678 (6) -> 1
    ("run_sj", "2", AUTO, "3c 4c 5c 6s 7d", "straight", 0),
    ("run_sj", "2", HIGH, "3c 4c 5c 6s 7d", "straight", 1),
    ("run_sj", "2", DECLARE, "3c 4c 5c 6s 7d", "straight", 1),
    # singles 3s 3h SJ + pairs 3s3h 3s+SJ 3h+SJ + triple 3s3h+SJ = 7
    ("pair_sj", "2", AUTO, LEAD, None, 7),
    ("pair_sj", "2", AUTO, SINGLE, "single", 1),          # only SJ (13) > K (10)
    ("pair_sj", "2", AUTO, PAIR, "pair", 0),              # pairs of 3 (0) < 99 (6)
    # singles 7s SJ BJ 3; pairs 7+SJ 7+BJ SJSJ SJBJ BJBJ 5; triples 7+{SJSJ,SJBJ,BJBJ} 3 and
    # SJSJSJ SJSJBJ SJBJBJ BJBJBJ 4; fives 7 + 4 jokers {3+1, 2+2, 1+3} 3, 5 jokers {3+2, 2+3} 2
    ("jokers7", "7", AUTO, LEAD, None, 20),
    # 55555 = power 3 at level 7; every five here is 77777 (12) or joker five (13): 3 + 2
    ("jokers7", "7", AUTO, FIVE_OF_A_KIND, "five_of_a_kind", 5),
    ("jokers7", "7", DECLARE, LEAD, None, 5426),
    # singles 2s 2h As SJ BJ 5; pairs (below) 9; triples 2s2h+SJ/BJ 2, 2s/2h/As + SJSJ/SJBJ 6,
    # SJSJBJ 1; fives: the 6 cards minus one of 2s 2h As SJ BJ (all plays, e.g. AAAA+2) 5
    ("joker_pairs", "2", AUTO, LEAD, None, 28),
    # 99 = key 12; pairs: 2s2h, 2s/2h + SJ/BJ (4), As+SJ, As+BJ, SJSJ, SJBJ = 1 + 4 + 2 + 2
    ("joker_pairs", "2", AUTO, PAIR, "pair", 9),
    # top SJ BJ (key 26): tie -> nothing higher; pure_wins -> SJ SJ (27) beats it
    ("joker_pairs", "2", AUTO, "SJ BJ", "pair", 0),
    ("joker_pairs", "2", PURE, "SJ BJ", "pair", 1),
]


def _rules_id(rd: dict) -> str:
    if not rd:
        return "auto"
    return "+".join(f"{k}={v}" if not isinstance(v, bool) else k for k, v in rd.items())


def _row_id(row) -> str:
    hand, level, rd, top, top_kind, _count = row
    if top is None:
        return f"{hand}-L{level}-{_rules_id(rd)}-lead"
    return f"{hand}-L{level}-{_rules_id(rd)}-follow_{top_kind}[{top}]"


def _ref_kwargs(rd: dict) -> dict:
    return dict(wild=rd.get("wild", "auto"), wrap=rd.get("wrap_straights", False),
                joker_pair=rd.get("joker_pair", "tie"))


def _engine_set(plays):
    return {(tuple(p.cards.faces()), int(p.kind), p.key) for p in plays}


# The one row whose oracle takes about 14 s of CPU (191,524 declare readings enumerated in
# Python) runs with the slow tests; deal4's declare lead (the same generation, 7 s) and the
# declare follows stay in the default run, and test_rules_perft_tool pins the count natively.
SLOW_ROWS = [("deal6", "7", DECLARE, LEAD)]


@pytest.mark.parametrize("hand, level, rd, top_text, top_kind, count",
                         [pytest.param(*r, marks=pytest.mark.slow) if r[:4] in SLOW_ROWS else r
                          for r in PERFT],
                         ids=[_row_id(r) for r in PERFT])
def test_r8_perft(hand, level, rd, top_text, top_kind, count):
    rules = Rules(**rd)
    text = HANDS[hand]
    lv = daguai.LEVELS.index(level)
    top = ref_top = None
    if top_text is not None:
        top = daguai.classify(top_text, level, rules)
        assert top.kind.name.lower() == top_kind, (top_text, level, top)
        kind_key = ref.classify(ref.parse(top_text), lv, **_ref_kwargs(rd))
        assert kind_key == (int(top.kind), top.key)
        ref_top = (top.size, top.key)

    n = daguai.count_plays(text, level, top, rules)
    # the oracle justifies the pinned number ...
    expected = ref.legal_plays(ref.parse(text), lv, ref_top, **_ref_kwargs(rd))
    assert len(expected) == count, "pinned count disagrees with the oracle"
    # ... and the engine must produce it
    assert n == count

    plays = daguai.legal_plays(text, level, top, rules)
    rows = daguai.legal_plays_array(text, level, top, rules)
    assert len(plays) == len(rows) == n
    assert _engine_set(plays) == expected
    if top is not None:
        assert all(p.size == top.size and p.key > top.key and p.beats(top) for p in plays)
    # deterministic: a second call gives the same plays in the same order
    assert daguai.legal_plays(text, level, top, rules) == plays
    assert daguai.legal_plays_array(text, level, top, rules).tobytes() == rows.tobytes()


def test_r8_perft_covers_every_top_kind():
    """The table leads, and follows a top of every kind, on full 27-card hands with 0, 2, 4
    and 6 jokers, under every wild mode and both straight variants."""
    kinds = {row[4] for row in PERFT if row[3] is not None}
    assert kinds == {k.name.lower() for k in daguai.Kind.__members__.values()}
    full = {name for name, text in HANDS.items() if len(daguai.Hand(text)) == 27}
    assert {daguai.Hand(HANDS[h]).jokers for h in full} >= {0, 2, 4, 6}
    assert len(HANDS) >= 12
    assert {row[2].get("wild", "auto") for row in PERFT} == {"auto", "high", "declare"}
    assert {row[2].get("wrap_straights", False) for row in PERFT} == {False, True}
    for hand in HANDS:
        assert any(row[0] == hand and row[3] is None for row in PERFT), hand


def test_r8_legal_plays_deterministic_across_inputs():
    """The order of legal_plays depends only on the multiset of cards (and level, top, rules):
    the same hand given as shuffled text, as a list, or as a Hand gives the same list."""
    text = HANDS["deal4"]
    tokens = text.split()
    shuffled = " ".join(reversed(tokens))
    for rules in (Rules(), Rules(wild="declare")):
        base = daguai.legal_plays(text, "9", None, rules)
        assert daguai.legal_plays(shuffled, "9", None, rules) == base
        assert daguai.legal_plays(tokens[::-1], "9", None, rules) == base
        assert daguai.legal_plays(daguai.Hand(shuffled), "9", None, rules) == base
        assert len(set(base)) == len(base)  # no play twice
        top = base[len(base) // 2]
        follow = daguai.legal_plays(text, "9", top, rules)
        # following = the leads of top's size that beat it, in the same relative order
        assert follow == [p for p in base if p.size == top.size and p.key > top.key]
