"""The C++ engine against the shared rule tables (tests/rule_tables.py): every worked
example of docs/rules.md (R2, R4-R7 and its part 2), one test function per rule id,
parametrized over the rows, plus engine-only behaviour (Play.kind names, jokers_as,
describe(), interpreted hand, declared interpretations).

The tables' expectations are (kind int, key int); the engine gives Play objects with
``int(p.kind)`` and ``p.key``.  Table options use the oracle's names (wild, wrap,
joker_pair); ``_rules`` maps them onto daguai.Rules.
"""

from __future__ import annotations

import daguai
import pytest
import reference as ref
from daguai import Hand, Kind, Rules, _core
from rule_tables import (
    R2_BAD,
    R2_PARSE,
    R4_POWER,
    R5_CASES,
    R6_CLASSIFY,
    R6_INTERPRETATIONS,
    R7_CASES,
)

KIND_NAMES = ["single", "pair", "triple", "straight", "flush", "full_house", "four_plus_one",
              "straight_flush", "five_of_a_kind"]


def _rules(opts=None, wrap=None) -> Rules:
    opts = dict(opts or {})
    if wrap is not None:
        opts["wrap"] = wrap
    return Rules(wild=opts.get("wild", "auto"), wrap_straights=opts.get("wrap", False),
                 joker_pair=opts.get("joker_pair", "tie"))


def _kk(play):
    """(kind int, key) of a Play, or None."""
    return None if play is None else (int(play.kind), play.key)


def _short(text: str) -> str:
    return text.strip().replace(" ", "_") or "empty"


def _opts_id(opts: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in opts.items()) or "default"


# ---------------------------------------------------------------------------
# R2 cards and notation
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, ids", R2_PARSE, ids=[repr(t) for t, _ in R2_PARSE])
def test_r2_parse(text, ids):
    hand = Hand(text)
    assert tuple(hand.faces()) == ids
    assert len(hand) == len(ids)
    assert Hand.parse(text) == hand
    # the canonical text parses back to the same hand (docs/rules.md "Faces")
    assert str(hand) == ref.fmt(ids)
    assert Hand(str(hand)) == hand


def _offending_token(text: str) -> str:
    """The first token the oracle rejects."""
    for token in text.replace(",", " ").split():
        try:
            ref.parse(token)
        except ValueError:
            return token
    raise AssertionError(f"oracle accepts {text!r}")


@pytest.mark.parametrize("text", R2_BAD, ids=[repr(t) for t in R2_BAD])
def test_r2_bad_notation(text):
    token = _offending_token(text)
    with pytest.raises(daguai.CardError) as info:
        Hand(text)
    assert isinstance(info.value, ValueError)
    assert repr(token) in str(info.value)  # the message quotes the bad token


def test_r2_all_54_faces():
    all_text = " ".join(r + s for r in "23456789TJQKA" for s in "shdc") + " SJ BJ"
    hand = Hand(all_text)
    assert hand.faces() == list(range(54))
    assert str(hand) == all_text
    assert [_core.core.face_text(f) for f in range(54)] == all_text.split()
    assert [_core.core.parse_face(t) for t in all_text.split()] == list(range(54))
    # R2: each face exists 3 times; a 4th copy is not a set of cards
    assert len(Hand(" ".join([all_text] * 3))) == 162
    with pytest.raises(daguai.CardError, match="3s"):
        Hand("3s 3s 3s 3s")


# ---------------------------------------------------------------------------
# R4 single power order
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("x, level, power", R4_POWER,
                         ids=[f"{x}@L{lv}={p}" for x, lv, p in R4_POWER])
def test_r4_power(x, level, power):
    if isinstance(x, str):  # a rank: all four suits (suits never rank)
        faces = [ref.RANK_CHARS.index(x) * 4 + s for s in range(4)]
    else:
        faces = [x]
    for face in faces:
        assert _core.core.face_power(face, level) == power
        # a single's key is power << 1 (docs/rules.md "Keys")
        single = daguai.classify(Hand.from_faces([face]), level)
        assert single.kind == Kind.SINGLE and single.key == power << 1


@pytest.mark.parametrize("level", daguai.LEVELS)
def test_r4_ladder_every_level(level):
    lv = daguai.LEVELS.index(level)
    # BJ > SJ > level cards > A > K > ... > 2, the natural ladder skipping L: 0..14
    order = [r * 4 for r in range(13) if r != lv] + [lv * 4, 52, 53]
    assert [_core.core.face_power(f, level) for f in order] == list(range(15))
    # equal power: neither beats the other (As vs Ah)
    assert not daguai.beats("As", "Ah", level) and not daguai.beats("Ah", "As", level)
    assert daguai.compare("As", "Ah", level) == 0


# ---------------------------------------------------------------------------
# R5 combination types
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, level, wrap, expected, why", R5_CASES,
                         ids=[f"{_short(r[0])}@L{r[1]}{'+wrap' if r[2] else ''}" for r in R5_CASES])
def test_r5_combination_types(text, level, wrap, expected, why):
    for wild in ("auto", "high", "declare"):  # no jokers: every wild mode agrees
        play = daguai.classify(text, level, _rules({"wild": wild}, wrap))
        assert _kk(play) == expected, (wild, why)
    interps = daguai.interpretations(text, level, _rules(wrap=wrap))
    assert [_kk(p) for p in interps] == ([expected] if expected else [])
    if expected is not None:
        play = daguai.classify(text, level, _rules(wrap=wrap))
        assert play.kind.name.lower() == KIND_NAMES[expected[0]]
        assert play.size == len(play) == len(Hand(text))
        assert play.cards == Hand(text)
        assert play.level == level
        assert play.jokers == 0 and play.jokers_as == []
        assert play.interpreted == play.cards


# ---------------------------------------------------------------------------
# R6 wildcards
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, level, opts, expected, why", R6_CLASSIFY,
                         ids=[f"{_short(r[0])}@L{r[1]}-{_opts_id(r[2])}" for r in R6_CLASSIFY])
def test_r6_classify(text, level, opts, expected, why):
    play = daguai.classify(text, level, _rules(opts))
    assert _kk(play) == expected, why
    if play is not None:
        assert play.kind.name.lower() == KIND_NAMES[expected[0]]
        # the chosen reading is one of the interpretations (R6)
        interps = daguai.interpretations(text, level, _rules(opts))
        assert expected in [_kk(p) for p in interps]


@pytest.mark.parametrize("text, level, wrap, expected", R6_INTERPRETATIONS,
                         ids=[f"{_short(r[0])}@L{r[1]}" for r in R6_INTERPRETATIONS])
def test_r6_interpretations(text, level, wrap, expected):
    interps = daguai.interpretations(text, level, _rules(wrap=wrap))
    got = [_kk(p) for p in interps]
    assert set(got) == expected
    assert len(got) == len(set(got))            # one Play per (kind, key)
    assert [p.key for p in interps] == sorted(p.key for p in interps)  # increasing key order


@pytest.mark.parametrize("text, level, opts, expected, why", R6_CLASSIFY,
                         ids=[f"{_short(r[0])}@L{r[1]}-{_opts_id(r[2])}" for r in R6_CLASSIFY])
def test_r6_declare_without_declaration_is_high(text, level, opts, expected, why):
    """docs/rules.md: without an explicit declaration, declare = the pick of "high"."""
    declare = daguai.classify(text, level, _rules({**opts, "wild": "declare"}))
    high = daguai.classify(text, level, _rules({**opts, "wild": "high"}))
    assert _kk(declare) == _kk(high)


# --- the seed examples and the canonical joker assignment (docs/rules.md) -------------

R6_SEED_EXAMPLES = [
    # (cards, level, wild, kind, describe(), jokers_as, interpreted)
    # "SJ+3456 played as 23456": a straight's jokers take spades
    ("3h 4s 5d 6c SJ", "2", "auto", "straight", "straight 23456", ["2s"], "2s 3h 4s 5d 6c"),
    ("3h 4s 5d 6c BJ", "2", "auto", "straight", "straight 23456", ["2s"], "2s 3h 4s 5d 6c"),
    ("3h 4s 5d 6c SJ", "2", "high", "straight", "straight 34567", ["7s"], "3h 4s 5d 6c 7s"),
    # ... or hearts when every natural card is a spade
    ("3s 4s 5s 6h SJ", "2", "auto", "straight", "straight 23456", ["2s"], "2s 3s 4s 5s 6h"),
    ("3s 4s 5s 6s SJ", "2", "auto", "straight_flush", "straight flush 23456", ["2s"],
     "2s 3s 4s 5s 6s"),
    # 3 3 3 + joker + 4 = four-plus-one 3333+4: the joker completes the four (first free suit)
    ("3s 3h 3d SJ 4c", "2", "auto", "four_plus_one", "four plus one 33334", ["3s"],
     "3s 3s 3h 3d 4c"),
    # 9 9 5 5 + joker = 555+99 at level 2 (power 2 < 6), 999+55 at level 5 (5 is level)
    ("9s 9h 5d 5c SJ", "2", "auto", "full_house", "full house 55599", ["5s"], "5s 5d 5c 9s 9h"),
    ("9s 9h 5d 5c SJ", "5", "auto", "full_house", "full house 99955", ["9s"], "5d 5c 9s 9s 9h"),
    # 4h 7h Jh Kh + joker = flush, joker the lowest natural rank: 3h at level 2, 2h at level 3
    ("4h 7h Jh Kh SJ", "2", "auto", "flush", "flush KJ743", ["3h"], "3h 4h 7h Jh Kh"),
    ("4h 7h Jh Kh SJ", "3", "auto", "flush", "flush KJ742", ["2h"], "2h 4h 7h Jh Kh"),
    # high: the joker is the level card of the flush suit
    ("4h 7h Jh Kh SJ", "2", "high", "flush", "flush 2KJ74", ["2h"], "2h 4h 7h Jh Kh"),
    # pairs / triples with jokers standing in; SJs are listed first, then BJs
    ("Ks SJ", "2", "auto", "pair", "pair KK", ["Ks"], "Ks Ks"),
    ("7s SJ SJ BJ BJ", "2", "auto", "five_of_a_kind", "five of a kind 77777",
     ["7s", "7s", "7h", "7h"], "7s 7s 7s 7h 7h"),
    # joker-only plays and singles stand for themselves: nothing to show
    ("SJ SJ", "2", "auto", "pair", "pair of jokers (SJ power)", [], "SJ SJ"),
    ("SJ", "2", "auto", "single", "single SJ", [], "SJ"),
    ("As 2h 3d 4c 5s", "2", "auto", "straight", "straight A2345", [], "2h 3d 4c 5s As"),
]


@pytest.mark.parametrize("text, level, wild, kind, describe, jokers_as, interpreted",
                         R6_SEED_EXAMPLES,
                         ids=[f"{_short(r[0])}@L{r[1]}-{r[2]}" for r in R6_SEED_EXAMPLES])
def test_r6_play_records_what_jokers_stood_for(text, level, wild, kind, describe, jokers_as,
                                               interpreted):
    play = daguai.classify(text, level, Rules(wild=wild))
    assert play.kind.name.lower() == kind
    assert play.describe() == describe
    assert play.jokers_as == jokers_as
    assert play.interpreted == Hand(interpreted)
    assert play.jokers == Hand(text).jokers
    if jokers_as:
        # the natural cards the jokers stand for have exactly the play's kind and key
        natural = daguai.classify(play.interpreted, level, Rules(wild=wild))
        assert _kk(natural) == _kk(play)


def test_r6_seed_example_sj_3456_played_as_23456():
    play = daguai.classify("3h 4s 5d 6c SJ")
    assert play.jokers_as == ["2s"]
    assert play.describe() == "straight 23456"
    assert play.kind.name.lower() == "straight"
    assert play.key == (0 << 20) | 4
    assert str(play.interpreted) == "2s 3h 4s 5d 6c"
    assert str(play) == "3h 4s 5d 6c SJ"


def test_r6_declare_mode_chooses_the_interpretation():
    declare = Rules(wild="declare")
    # 3456 + joker declared as 7c: the 3-7 straight (key 5), not 2-6 (key 4)
    play = daguai.classify("3h 4s 5d 6c SJ", rules=declare, jokers_as="7c")
    assert play.kind == Kind.STRAIGHT
    assert play.key == (0 << 20) | 5
    assert play.describe() == "straight 34567"
    # the recorded face is the canonical one for that (kind, key): a straight's joker is a spade
    assert play.jokers_as == ["7s"]
    # declaring 2c gives the 23456 reading, the same play auto picks
    low = daguai.classify("3h 4s 5d 6c SJ", rules=declare, jokers_as="2c")
    assert low.describe() == "straight 23456" and low == daguai.classify("3h 4s 5d 6c SJ")
    # both declared plays are interpretations; the higher beats the lower
    assert {p.describe() for p in daguai.interpretations("3h 4s 5d 6c SJ", rules=declare)} == {
        "straight 23456", "straight 34567"}
    assert daguai.beats(play, low, rules=declare) and not daguai.beats(low, play, rules=declare)
    # R6 example 3 3 3 + joker + 4 declared as a full house 333+44
    fh = daguai.classify("3s 3h 3d SJ 4c", rules=declare, jokers_as="4h")
    assert fh.kind == Kind.FULL_HOUSE and fh.describe() == "full house 33344"
    # a declaration that forms no play is refused
    with pytest.raises(ValueError, match="form no play"):
        daguai.classify("3h 4s 5d 6c SJ", rules=declare, jokers_as="9c")


@pytest.mark.parametrize("wild", ["auto", "high"])
def test_r6_jokers_as_needs_declare(wild):
    with pytest.raises(ValueError, match="declare"):
        daguai.classify("3h 4s 5d 6c SJ", rules=Rules(wild=wild), jokers_as="7c")


def test_r6_jokers_as_default_rules_is_auto():
    with pytest.raises(ValueError, match="declare"):
        daguai.classify("3h 4s 5d 6c SJ", jokers_as="7c")


# ---------------------------------------------------------------------------
# R7 keys and comparison
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("a, b, level, opts, ab, ba, why", R7_CASES,
                         ids=[f"{_short(r[0])}-vs-{_short(r[1])}@L{r[2]}-{_opts_id(r[3])}"
                              for r in R7_CASES])
def test_r7_beats_and_compare(a, b, level, opts, ab, ba, why):
    rules = _rules(opts)
    assert daguai.beats(a, b, level, rules) is ab, why
    assert daguai.beats(b, a, level, rules) is ba, why
    pa, pb = daguai.classify(a, level, rules), daguai.classify(b, level, rules)
    assert pa.beats(pb) is ab and pb.beats(pa) is ba
    assert daguai.beats(pa, pb, rules=rules) is ab  # level taken from the Plays
    if pa.size == pb.size:
        # compare: 1 (a higher), 0 (tie), -1; consistent with beats
        expected = 1 if ab else (-1 if ba else 0)
        assert daguai.compare(a, b, level, rules) == expected
        assert daguai.compare(b, a, level, rules) == -expected
        assert expected == (pa.key > pb.key) - (pa.key < pb.key)
    else:
        # R7: plays of different sizes never beat each other and have no order
        assert not ab and not ba
        with pytest.raises(ValueError):
            daguai.compare(a, b, level, rules)


R7_TYPE_CHAIN = [
    # each the strongest (or a strong one) of its type, below the weakest of the next, level 2
    ("Ts Jh Qd Kc As", "straight", (0 << 20) | 12),
    ("3h 4h 5h 6h 8h", "flush", (1 << 20) | 0x53210),    # 8 6 5 4 3 -> powers 5 3 2 1 0
    ("3s 3h 3d 4s 4h", "full_house", (2 << 20) | 0),
    ("3s 3h 3d 3c 4s", "four_plus_one", (3 << 20) | 0),
    ("As 2s 3s 4s 5s", "straight_flush", (4 << 20) | 3),
    ("3s 3s 3h 3h 3d", "five_of_a_kind", (5 << 20) | 0),
]


def test_r7_five_card_type_order():
    plays = [daguai.classify(text) for text, _, _ in R7_TYPE_CHAIN]
    for play, (text, kind, key) in zip(plays, R7_TYPE_CHAIN, strict=False):
        assert play.kind.name.lower() == kind and play.key == key, text
    for lo, hi in zip(plays, plays[1:], strict=False):
        assert hi.beats(lo) and not lo.beats(hi)
        assert daguai.compare(hi, lo) == 1


def test_r7_play_level_mismatch():
    """A Play classified at one level is not silently re-read at another."""
    ace_at_5 = daguai.classify("As", "5")
    assert daguai.beats(ace_at_5, "Ks")            # level taken from the Play: 11 > 10
    with pytest.raises(ValueError, match="level"):
        daguai.beats(ace_at_5, daguai.classify("Ks", "2"))
    with pytest.raises(ValueError, match="level"):
        daguai.beats(ace_at_5, "Ks", level="3")


# ---------------------------------------------------------------------------
# Kind names (docs/rules.md "R5 Plays")
# ---------------------------------------------------------------------------

def test_r5_kind_enum_names_and_values():
    members = daguai.Kind.__members__
    assert [name.lower() for name in members] == KIND_NAMES
    assert [int(k) for k in members.values()] == list(range(9))
    assert [int(getattr(ref, name.upper())) for name in KIND_NAMES] == list(range(9))
