"""Rule tables shared by the oracle self-checks (test_rules_reference_selfcheck.py) and the
engine tests (test_rules_tables.py): every worked example of docs/rules.md (R2,
R4-R7) and docs/rules.md, each row with its arithmetic.

Plain data only: card text, level characters, option dicts, and ints (face ids, kinds
and keys; K5 / FS below only build key ints at import time).
Levels are written as the level rank's character ("2", "5", "A", ...).
Power (R4): the ladder 2..A without L numbered 0..11, level rank 12, SJ 13, BJ 14.
So at level 2: 3->0 4->1 5->2 6->3 7->4 8->5 9->6 T->7 J->8 Q->9 K->10 A->11, 2->12.
Five-card key: (kind - 3) << 20 | sub.  Kinds: single 0 pair 1 triple 2 straight 3
flush 4 full_house 5 four_plus_one 6 straight_flush 7 five_of_a_kind 8.
Options (R6_CLASSIFY, R7_CASES) use the oracle's keyword names: wild, wrap, joker_pair.
"""



from reference import (
    BJ,
    FIVE_OF_A_KIND,
    FLUSH,
    FOUR_PLUS_ONE,
    FULL_HOUSE,
    PAIR,
    SINGLE,
    SJ,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPLE,
    flush_sub,
)

__all__ = ["R2_PARSE", "R2_BAD", "R4_POWER", "R5_CASES", "R6_CLASSIFY", "R6_INTERPRETATIONS",
           "R7_CASES"]


def K5(kind, sub):
    """Five-card key int: (kind - STRAIGHT) << 20 | sub."""
    return ((kind - 3) << 20) | sub


def FS(*powers):
    """Flush sub from powers already sorted high to low."""
    assert list(powers) == sorted(powers, reverse=True)
    return flush_sub(powers)


# ---------------------------------------------------------------------------
# R2 cards and notation
# ---------------------------------------------------------------------------

R2_PARSE = [
    # id = rank*4 + suit: 2c = 0*4+3 = 3, Th = 8*4+1 = 33, As = 12*4+0 = 48
    ("As Th 2c", (3, 33, 48)),
    ("10h", (33,)),                         # "10" accepted for T
    ("a♠, t♥", (33, 48)),                   # symbols, lower case, comma
    ("AS,TH,,2C", (3, 33, 48)),             # upper-case suit, commas only
    ("sj BJ Sj", (SJ, SJ, BJ)),             # jokers any case; 52, 52, 53
    ("2s 2h 2d 2c", (0, 1, 2, 3)),
    ("Ac", (51,)),                          # 12*4+3
    ("  \t\n", ()),
    ("K♦ Q♣", (10 * 4 + 3, 11 * 4 + 2)),     # Qc = 43, Kd = 46
]

R2_BAD = ["1h", "Ax", "11s", "S", "JJ", "XJ", "As Kx", "A", "10", "Joker", "2s2h"]

# ---------------------------------------------------------------------------
# R4 single power order
# ---------------------------------------------------------------------------

R4_POWER = [
    # (rank char or joker face, level char, power)
    ("2", "2", 12),   # level card
    ("3", "2", 0),    # ladder without 2 starts at 3
    ("K", "2", 10),
    ("A", "2", 11),
    (SJ, "2", 13),
    (BJ, "2", 14),
    ("2", "A", 0),    # at level A the ladder is 2..K = 0..11
    ("K", "A", 11),
    ("A", "A", 12),
    ("7", "8", 5),    # level 8 (index 6): 7 is index 5, below L -> 5
    ("8", "8", 12),
    ("9", "8", 6),    # index 7, above L -> 7-1 = 6
    ("A", "8", 11),
    ("2", "8", 0),
]

# ---------------------------------------------------------------------------
# R5 combination types (natural cards)
# ---------------------------------------------------------------------------

R5_CASES = [
    # (cards, level, wrap, expected (kind, key) or None, arithmetic)
    ("7d", "2", False, (SINGLE, 4 << 1), "7 = index 5 > L=0 -> power 4"),
    ("3s 3h", "2", False, (PAIR, 0 << 1), "power(3) = 0 at level 2"),
    ("3s 4s", "2", False, None, "two ranks: not a pair"),
    ("Kh Kh Kd", "2", False, (TRIPLE, 10 << 1), "K -> 10"),
    ("Kh Kh Qd", "2", False, None, "not one rank"),
    ("3s 3h 3d 3c", "2", False, None, "4 cards: no such play"),
    ("3s 4h 5d 6c 7s 8h", "2", False, None, "6 cards: no such play"),
    ("", "2", False, None, "0 cards"),
    ("3s 4h 5d 6c 7s", "2", False, (STRAIGHT, K5(STRAIGHT, 5)), "top 7 = index 5"),
    ("As 2h 3d 4c 5s", "3", False, (STRAIGHT, K5(STRAIGHT, 3)), "A2345 lowest, top 5 = index 3"),
    ("As 2h 3d 4c 5s", "2", False, (STRAIGHT, K5(STRAIGHT, 3)), "level 2 at natural place"),
    ("Ts Jh Qd Kc As", "2", False, (STRAIGHT, K5(STRAIGHT, 12)), "TJQKA highest, top A = 12"),
    ("Ts Jh Qd Kc As", "A", False, (STRAIGHT, K5(STRAIGHT, 12)), "level A still natural place"),
    ("6s 7h 8d 9c Ts", "8", False, (STRAIGHT, K5(STRAIGHT, 8)),
     "level 8: 8 at its natural place, key = index of T = 8"),
    ("Qs Kh Ad 2c 3s", "2", False, None, "no wrap by default"),
    ("Qs Kh Ad 2c 3s", "2", True, (STRAIGHT, K5(STRAIGHT, 1)), "wrap: QKA23 key 1"),
    ("Js Qh Kd Ac 2s", "2", True, (STRAIGHT, K5(STRAIGHT, 0)), "wrap: JQKA2 key 0"),
    ("Ks Ah 2d 3c 4s", "2", True, (STRAIGHT, K5(STRAIGHT, 2)), "wrap: KA234 key 2"),
    ("Ks Ah 2d 3c 4s", "2", False, None, "no wrap"),
    ("As 2h 3d 4c 5s", "2", True, (STRAIGHT, K5(STRAIGHT, 3)), "A2345 still key 3 with wrap"),
    ("Ks Ah 2d 3c 5s", "2", True, None, "gap: not a sequence even with wrap"),
    ("Qh Kh Ah 2h 3h", "2", True, (STRAIGHT_FLUSH, K5(STRAIGHT_FLUSH, 1)), "wrap SF"),
    ("Qh Kh Ah 2h 3h", "2", False, (FLUSH, K5(FLUSH, FS(12, 11, 10, 9, 0))),
     "no wrap: a flush; powers 2->12 A->11 K->10 Q->9 3->0"),
    ("2h 5h 8h 9h Kh", "8", False, (FLUSH, K5(FLUSH, FS(12, 10, 6, 3, 0))),
     "level 8: 8->12 (high in flush), K->10, 9->6, 5->3, 2->0"),
    ("5h 6h 7h 8h 9h", "2", False, (STRAIGHT_FLUSH, K5(STRAIGHT_FLUSH, 7)), "top 9 = index 7"),
    ("3h 3h 7h 9h Jh", "2", False, (FLUSH, K5(FLUSH, FS(8, 6, 4, 0, 0))),
     "equal ranks allowed in a flush: J8 9 6 7 4 3 0 3 0"),
    ("3h 3h 4h 4h 5h", "2", False, (FLUSH, K5(FLUSH, FS(2, 1, 1, 0, 0))),
     "one suit, two pair: a flush (no two-pair type)"),
    ("9h 9h 9h 5h 5h", "2", False, (FULL_HOUSE, K5(FULL_HOUSE, 6)),
     "R5 example: full house (not flush), triple 9 -> power 6"),
    ("Ah Ah Ah Kh Kh", "2", False, (FULL_HOUSE, K5(FULL_HOUSE, 11)), "A -> 11"),
    ("7s 7h 7d 7c 2s", "2", False, (FOUR_PLUS_ONE, K5(FOUR_PLUS_ONE, 4)), "7 -> 4"),
    ("7s 7s 7h 7h 7d", "2", False, (FIVE_OF_A_KIND, K5(FIVE_OF_A_KIND, 4)), "7 -> 4"),
    ("3s 3h 4d 4c 5s", "2", False, None, "two pair + 1: no type"),
    ("3s 3h 3d 4c 5s", "2", False, None, "three + 1 + 1: no type"),
    ("3h 4h 5h 6h 7s", "2", False, (STRAIGHT, K5(STRAIGHT, 5)), "four hearts + spade: straight"),
]

# ---------------------------------------------------------------------------
# R6 wildcards
# ---------------------------------------------------------------------------

R6_CLASSIFY = [
    # (cards, level, options, expected classify, arithmetic)
    ("3s 4h 5d 6c SJ", "2", {}, (STRAIGHT, K5(STRAIGHT, 4)),
     "R6 example: auto = lowest key, 2-3-4-5-6 (top 6 = index 4), not 3-7"),
    ("3s 4h 5d 6c BJ", "2", {}, (STRAIGHT, K5(STRAIGHT, 4)), "BJ is wild the same way"),
    ("3s 4h 5d 6c SJ", "2", {"wild": "high"}, (STRAIGHT, K5(STRAIGHT, 5)),
     "high: 3-4-5-6-7, top 7 = index 5"),
    ("3s 4h 5d 6c SJ", "2", {"wild": "declare"}, (STRAIGHT, K5(STRAIGHT, 5)),
     "declare without a declaration = pick of high"),
    ("3s 3h 3d SJ 4c", "2", {}, (FOUR_PLUS_ONE, K5(FOUR_PLUS_ONE, 0)),
     "R6 example: 3333+4 (four-plus-one beats full house 333+44); power(3) = 0"),
    ("3s 3h 3d SJ 4c", "2", {"wild": "high"}, (FOUR_PLUS_ONE, K5(FOUR_PLUS_ONE, 0)),
     "highest type first in every mode"),
    ("9s 9h 5d 5c SJ", "2", {}, (FULL_HOUSE, K5(FULL_HOUSE, 2)),
     "R6 example, level 2: 555+99, power(5) = 2 < power(9) = 6"),
    ("9s 9h 5d 5c SJ", "2", {"wild": "high"}, (FULL_HOUSE, K5(FULL_HOUSE, 6)), "999+55"),
    ("9s 9h 5d 5c SJ", "5", {}, (FULL_HOUSE, K5(FULL_HOUSE, 6)),
     "R6 example, level 5: 5 is level (12), so the lowest is 999+55; 9 = index 7 > L=3 -> 6"),
    ("9s 9h 5d 5c SJ", "5", {"wild": "high"}, (FULL_HOUSE, K5(FULL_HOUSE, 12)), "555+99"),
    ("4h 7h Jh Kh SJ", "3", {}, (FLUSH, K5(FLUSH, FS(10, 8, 4, 1, 0))),
     "R6 example, level 3: joker = 2h (power 0); K10 J8 7->4 4->1"),
    ("4h 7h Jh Kh SJ", "2", {}, (FLUSH, K5(FLUSH, FS(10, 8, 4, 1, 0))),
     "level 2: 2 is level (12), joker = 3h (power 0); K10 J8 7->4 4->1"),
    ("4h 7h Jh Kh SJ", "3", {"wild": "high"}, (FLUSH, K5(FLUSH, FS(12, 10, 8, 4, 1))),
     "high: joker = level card 3h (12)"),
    ("4h 7h Jh Kh SJ", "2", {"wild": "high"}, (FLUSH, K5(FLUSH, FS(12, 10, 8, 4, 1))),
     "high: joker = level card 2h (12)"),
    ("Ah Ah Ah Kh SJ", "A", {"wild": "high"}, (FOUR_PLUS_ONE, K5(FOUR_PLUS_ONE, 12)),
     "AAAA+K (mixed suit) beats any flush; A is level -> 12"),
    ("3h 4h 5h 6h SJ", "2", {}, (STRAIGHT_FLUSH, K5(STRAIGHT_FLUSH, 4)), "SF 23456"),
    ("3h 4h 5h 6h SJ", "2", {"wild": "high"}, (STRAIGHT_FLUSH, K5(STRAIGHT_FLUSH, 5)), "SF 34567"),
    ("2s 3s SJ SJ BJ", "2", {}, (STRAIGHT_FLUSH, K5(STRAIGHT_FLUSH, 3)), "SF A2345 (top 5 = 3)"),
    ("2s 3s SJ SJ BJ", "2", {"wild": "high"}, (STRAIGHT_FLUSH, K5(STRAIGHT_FLUSH, 4)), "SF 23456"),
    ("2s 3s SJ SJ BJ", "2", {"wrap": True}, (STRAIGHT_FLUSH, K5(STRAIGHT_FLUSH, 1)),
     "wrap: QKA23 (key 1) is the lowest SF containing 2 and 3"),
    ("7s SJ SJ BJ BJ", "2", {}, (FIVE_OF_A_KIND, K5(FIVE_OF_A_KIND, 4)), "five 7s, 7 -> 4"),
    # singles are never wild (R5 table, R6)
    ("SJ", "2", {}, (SINGLE, 13 << 1), "joker single = its own power"),
    ("BJ", "2", {}, (SINGLE, 14 << 1), ""),
    # pairs / triples with jokers standing in
    ("Ks SJ", "2", {}, (PAIR, 10 << 1), "K -> 10"),
    ("2s BJ", "2", {}, (PAIR, 12 << 1), "pair of level cards"),
    ("Ks SJ BJ", "2", {}, (TRIPLE, 10 << 1), ""),
    ("Ks Kh BJ", "2", {}, (TRIPLE, 10 << 1), ""),
    ("Ks Qs SJ", "2", {}, None, "two ranks + one joker: no triple"),
    # joker-only combinations stand for themselves
    ("SJ SJ", "2", {}, (PAIR, 13 << 1), ""),
    ("SJ BJ", "2", {}, (PAIR, 13 << 1), "not every card BJ -> power of SJ"),
    ("BJ BJ", "2", {}, (PAIR, 14 << 1), ""),
    ("SJ SJ", "2", {"joker_pair": "pure_wins"}, (PAIR, (13 << 1) | 1), "pure_wins"),
    ("SJ BJ", "2", {"joker_pair": "pure_wins"}, (PAIR, 13 << 1), ""),
    ("BJ BJ", "2", {"joker_pair": "pure_wins"}, (PAIR, 14 << 1), ""),
    ("SJ SJ SJ", "2", {}, (TRIPLE, 13 << 1), ""),
    ("SJ SJ BJ", "2", {}, (TRIPLE, 13 << 1), ""),
    ("BJ BJ BJ", "2", {}, (TRIPLE, 14 << 1), ""),
    ("SJ SJ SJ", "2", {"joker_pair": "pure_wins"}, (TRIPLE, 13 << 1), "pure_wins is pairs only"),
    ("SJ SJ SJ BJ BJ", "2", {}, (FIVE_OF_A_KIND, K5(FIVE_OF_A_KIND, 13)), "joker five"),
    ("SJ SJ BJ BJ BJ", "2", {}, (FIVE_OF_A_KIND, K5(FIVE_OF_A_KIND, 13)), "not all BJ"),
]

R6_INTERPRETATIONS = [
    # (cards, level, wrap, expected interpretation set)
    ("3s 4h 5d 6c SJ", "2", False, {(STRAIGHT, K5(STRAIGHT, 4)), (STRAIGHT, K5(STRAIGHT, 5))}),
    ("3s 3h 3d SJ 4c", "2", False,
     {(FOUR_PLUS_ONE, K5(FOUR_PLUS_ONE, 0)), (FULL_HOUSE, K5(FULL_HOUSE, 0))}),
    ("9s 9h 5d 5c SJ", "2", False, {(FULL_HOUSE, K5(FULL_HOUSE, 2)), (FULL_HOUSE, K5(FULL_HOUSE, 6))}),
    ("SJ", "2", False, {(SINGLE, 26)}),
    ("SJ SJ", "2", False, {(PAIR, 26)}),
    ("3s 5h SJ", "2", False, set()),
    ("3s 5h 7d 9c SJ", "2", False, set()),
    ("3s 4h 5d 6c SJ SJ", "2", False, set()),  # 6 cards
    ("3s 4h SJ BJ", "2", False, set()),        # 4 cards
]

# ---------------------------------------------------------------------------
# R7 keys and comparison
# ---------------------------------------------------------------------------

R7_CASES = [
    # (a, b, level, opts, a beats b?, b beats a?, arithmetic)
    ("2s 3h 4d 5c 6s", "As 2h 3d 4c 5s", "2", {}, True, False, "straight 6 (4) > A2345 (3)"),
    ("Ts Jh Qd Kc As", "9s Th Jd Qc Ks", "2", {}, True, False, "TJQKA 12 > 9TJQK 11"),
    ("Ts Jh Qd Kc As", "Th Js Qs Ks Ad", "2", {}, False, False, "equal straights tie"),
    ("Ks Kh Kd As Ah", "Ks Kh Kd 2s 2h", "2", {}, False, False, "full house: pair never counts"),
    ("As Ah Ad 3s 3h", "Ks Kh Kd 2s 2h", "2", {}, True, False, "AAA (11) > KKK (10)"),
    ("7s 7h 7d 7c Ac", "7s 7h 7d 7c 3c", "2", {}, False, False, "four-plus-one: kicker never counts"),
    ("Ah 9h 7h 5h 3h", "Kh Qh Jh 9h 7h", "2", {}, True, False,
     "flush card by card: A 11 > K 10"),
    ("Ah 9h 7h 5h 2h", "Ah 9h 7h 5h 3h", "2", {}, True, False,
     "level 2: 2h is 12, so (12,11,6,4,2) > (11,6,4,2,0)"),
    ("Ah 9h 7h 6h 3h", "Ah 9h 7h 5h 3h", "2", {}, True, False, "4th card 6 (3) > 5 (2)"),
    ("7s 7s 7h 7h 7d", "As As Ah Ah Ad", "7", {}, True, False, "five 7s at level 7: 12 > 11"),
    ("SJ SJ SJ BJ BJ", "As As Ah Ah Ad", "A", {}, True, False, "joker five 13 > 12"),
    ("As 2s 3s 4s 5s", "7s 7h 7d 7c 8c", "2", {}, True, False, "SF > four-plus-one"),
    # R7: equal keys do not beat each other; joker pairs
    ("SJ SJ", "SJ BJ", "2", {}, False, False, "tie by default (13<<1 both)"),
    ("SJ SJ", "SJ BJ", "2", {"joker_pair": "pure_wins"}, True, False, "27 > 26"),
    ("BJ BJ", "SJ SJ", "2", {"joker_pair": "pure_wins"}, True, False, "28 > 27"),
    ("BJ BJ", "SJ BJ", "2", {}, True, False, "28 > 26"),
    ("SJ SJ", "2s 2h", "2", {}, True, False, "joker pair 26 > level pair 24"),
    ("2s SJ", "As Ah", "2", {}, True, False, "level pair 24 > AA 22"),
    ("SJ SJ SJ", "SJ SJ BJ", "2", {"joker_pair": "pure_wins"}, False, False, "triples tie"),
    ("BJ", "SJ", "2", {}, True, False, "single 28 > 26"),
    ("SJ", "2c", "2", {}, True, False, "26 > 24"),
    ("2c", "Ac", "2", {}, True, False, "level card 24 > A 22"),
    ("Ac", "Kc", "2", {}, True, False, "22 > 20"),
    # sizes differ: never beats (no bombs)
    ("3s 3h", "BJ", "2", {}, False, False, "pair vs single"),
    ("3s 3s 3h 3h 3d", "4s 4h", "2", {}, False, False, "five vs pair"),
    ("BJ BJ BJ", "3s", "2", {}, False, False, "triple vs single"),
]
