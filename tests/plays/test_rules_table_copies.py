"""R2, R18: the copies of a face a play or hand may hold come from the table: 3 at 6p3d (three
decks), 2 at 4p2d (two decks). ``classify``, ``beats``, ``compare``, ``interpretations``,
``check_play``, the legal plays and the numpy batch readers refuse a face beyond it with a
``CardError`` that says the table's number (R18 at 4p2d); they accepted ``As As As``,
``SJ SJ SJ`` and ``SJ SJ BJ BJ BJ`` at 4p2d (``beats("SJ SJ SJ", "Ks Ks Kh", ...)`` was True)
and refused ``As As As As`` there with the three-deck message. The reference oracle
(tests/reference.py, ``copies``) agrees on every row."""

from __future__ import annotations

import re

import daguai
import numpy as np
import pytest
import reference as ref
from daguai import CardError, Hand, Rules

SIX, FOUR = Rules(), Rules(table="4p2d")
R2 = "(at most 3: three decks, R2)"
R18 = "(at most 2: two decks at the 4p2d table, R18)"

# cards, the face a 6p3d / 4p2d table has too few of (None: a play there), the kind there
ROWS = [
    ("As As", None, None, "PAIR"),
    ("SJ SJ BJ BJ As", None, None, "FIVE_OF_A_KIND"),  # two of each joker: fine at both (R6)
    ("As As As", None, "As", "TRIPLE"),
    ("SJ SJ SJ", None, "SJ", "TRIPLE"),  # R6: a joker-only triple stands for itself
    ("SJ SJ BJ BJ BJ", None, "BJ", "FIVE_OF_A_KIND"),
    ("Ks Ks Ks Qh Qh", None, "Ks", "FULL_HOUSE"),
    ("As As As As", "As", "As", None),
]
TABLES = [(SIX, 3, R2), (FOUR, 2, R18)]


def message(face: str, why: str) -> str:
    return re.escape(f"too many copies of {face} {why}")


@pytest.mark.parametrize("rules, copies, why", TABLES, ids=["6p3d", "4p2d"])
@pytest.mark.parametrize("cards, over6, over4, kind", ROWS, ids=[r[0] for r in ROWS])
def test_r2_r18_classify_follows_the_tables_copies(rules, copies, why, cards, over6, over4, kind):
    over = over6 if copies == 3 else over4
    faces = ref.parse(cards)
    if over is None:
        play = daguai.classify(cards, "2", rules)
        assert play is not None and play.kind.name == kind
        assert ref.classify(faces, 0, copies=copies) == (int(play.kind), play.key)  # the oracle
        return
    with pytest.raises(ValueError):  # the oracle refuses the same cards
        ref.classify(faces, 0, copies=copies)
    for cards_arg in (cards, cards.split()):
        with pytest.raises(CardError, match=message(over, why)):
            daguai.classify(cards_arg, "2", rules)
    if cards.count(over) <= 3:  # a Hand holds them (R2: at most 3 whatever the table)
        with pytest.raises(CardError, match=message(over, why)):
            daguai.classify(Hand(cards), "2", rules)
        with pytest.raises(CardError, match=message(over, why)):
            daguai.interpretations(Hand(cards), "2", rules)


def test_r18_beats_and_compare_refuse_a_play_the_table_cannot_hold():
    """The issue's case: SJ SJ SJ "beat" Ks Ks Kh at 4p2d; at 6p3d it does (R6, R7)."""
    assert daguai.beats("SJ SJ SJ", "Ks Ks Kh", level="2", rules=SIX) is True
    with pytest.raises(CardError, match=message("SJ", R18)):
        daguai.beats("SJ SJ SJ", "Ks Ks Kh", level="2", rules=FOUR)
    with pytest.raises(CardError, match=message("Ks", R18)):
        daguai.beats("SJ SJ BJ", "Ks Ks Ks", level="2", rules=FOUR)
    with pytest.raises(CardError, match=message("As", R18)):
        daguai.compare("As As As", "Ks Ks Ks", level="2", rules=FOUR)
    six_play = daguai.classify("As As As", "2", SIX)  # a Play made at the 6p3d table
    with pytest.raises(CardError, match=message("As", R18)):
        daguai.beats(six_play, "Ks Kh Kd", rules=FOUR)
    assert daguai.beats("SJ SJ BJ", "Ks Kh Kd", level="2", rules=FOUR) is True


def test_r18_hands_and_numpy_rows_of_the_4p2d_table():
    hand = "As As As Kh 3c"
    with pytest.raises(CardError, match=message("As", R18)):
        daguai.legal_plays(hand, "2", rules=FOUR)
    with pytest.raises(CardError, match=message("As", R18)):
        daguai.check_play(hand, "As As", level="2", rules=FOUR)
    assert len(daguai.legal_plays(hand, "2", rules=SIX)) > 0
    from daguai.analysis import min_plays

    with pytest.raises(CardError, match=message("As", R18)):
        min_plays(hand, "2", rules=FOUR)
    rows = np.array([ref.parse("As As Ks"), ref.parse("SJ SJ SJ")], dtype=np.uint8)
    with pytest.raises(CardError, match=message("SJ", R18)):
        daguai.classify_many(rows, "2", rules=FOUR)
    kinds, _ = daguai.classify_many(rows, "2", rules=SIX)
    assert list(kinds) == [255, int(daguai.Kind.TRIPLE)]
    a = np.array([ref.parse("As As As")], dtype=np.uint8)
    b = np.array([ref.parse("Ks Ks Kh")], dtype=np.uint8)
    with pytest.raises(CardError, match=message("As", R18)):
        daguai.beats_many(a, b, "2", rules=FOUR)
    two_pairs = np.array([ref.parse("As As Ks Ks 3c")], dtype=np.uint8)  # two of a face: fine
    assert daguai.classify_many(two_pairs, "2", rules=FOUR)[0][0] == 255


def test_r18_declared_jokers_and_game_actions_keep_the_limit():
    declare = FOUR.replace(wild="declare")
    with pytest.raises(CardError, match=message("As", R18)):
        daguai.classify("As As As SJ Ks", "2", declare, jokers_as="Ks")
    g = daguai.Game(1, FOUR)
    with pytest.raises(CardError, match=message("As", R18)):
        daguai.protocol.parse_action(g, "As As As")
