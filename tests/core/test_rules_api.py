"""The public Python API around cards and rules: Hand (R2 multisets and notation), Play
values, Rules (the variants of docs/rules.md as one immutable value) and the numpy path
(PLAY_DTYPE rows, classify_many, beats_many).  Encodings: docs/rules.md."""

from __future__ import annotations

import copy
import dataclasses
import os
import pickle
import random
import subprocess
import sys
import textwrap

import daguai
import numpy as np
import pytest
import reference as ref
from daguai import Hand, Kind, Play, Rules

ALL_TEXT = " ".join(r + s for r in "23456789TJQKA" for s in "shdc") + " SJ BJ"
DEAL = "2s 2s 2h 2d 3s 3d 3d 3c 5d 5c 7h 7h 8s 8h 8d 8c Ts Jh Jd Qc As Ah Ah Ac Ac SJ BJ"


def random_hand(rng: random.Random, n: int) -> Hand:
    deck = [f for f in range(54) for _ in range(3)]
    return Hand.from_faces(rng.sample(deck, n))


# ---------------------------------------------------------------------------
# R2 Hand: notation, canonical text, multiset operations
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, canonical", [
    ("BJ As 2s SJ 10c", "2s Tc As SJ BJ"),       # id order, T for ten, jokers last
    ("a♠ k♥", "Kh As"),                          # symbols, lower case rank
    ("A♠, K♥,Q♦ ,J♣", "Jc Qd Kh As"),            # commas with or without spaces
    ("10S 10h 10♦ tc", "Ts Th Td Tc"),           # "10" and upper-case suit
    ("sj Sj SJ bj", "SJ SJ SJ BJ"),              # jokers any case
    ("2c\t2d\n2h  2s", "2s 2h 2d 2c"),           # any white space; suit order s h d c
    ("", ""),
    (ALL_TEXT, ALL_TEXT),
])
def test_r2_hand_text_round_trip(text, canonical):
    hand = Hand(text)
    assert str(hand) == canonical
    assert repr(hand) == f"Hand({canonical!r})"
    assert Hand(str(hand)) == hand
    assert Hand.parse(text) == hand
    assert hand.cards() == canonical.split()
    assert list(hand) == canonical.split()
    assert hand.faces() == sorted(ref.parse(text))


def test_r2_hand_constructors_agree():
    text = "Kh As As SJ 3c"
    hand = Hand(text)
    assert Hand(text.split()) == hand                       # list of card strings
    assert Hand(hand) == hand and Hand(hand) is not hand    # copy
    assert Hand.from_faces(hand.faces()) == hand
    assert Hand.from_faces(list(reversed(hand.faces()))) == hand
    assert Hand.from_counts(hand.counts()) == hand
    assert Hand.from_counts(list(hand.counts())) == hand
    assert Hand.from_bits(*hand.bits) == hand
    assert Hand() == Hand("") == Hand([]) == Hand.from_faces([])
    assert not Hand() and hand


def test_r2_hand_faces_counts_len():
    hand = Hand("Kh As As SJ 3c")
    # ids: 3c = 1*4+3 = 7, Kh = 11*4+1 = 45, As = 48, SJ = 52
    assert hand.faces() == [7, 45, 48, 48, 52]
    counts = hand.counts()
    assert counts.dtype == np.uint8 and counts.shape == (54,)
    assert {i: int(c) for i, c in enumerate(counts) if c} == {7: 1, 45: 1, 48: 2, 52: 1}
    assert len(hand) == 5 == int(counts.sum())
    assert hand.jokers == 1
    assert hand.count("As") == 2 and hand.count(48) == 2 and hand.count("Ah") == 0


@pytest.mark.parametrize("seed", range(20))
def test_r2_counts_round_trip_random(seed):
    rng = random.Random(seed)
    hand = random_hand(rng, rng.randrange(0, 60))
    counts = hand.counts()
    assert Hand.from_counts(counts) == hand
    assert Hand.from_counts(counts.astype(np.int64)) == hand
    assert Hand.from_faces(hand.faces()) == hand
    assert Hand(str(hand)) == hand
    assert sorted(hand.faces()) == hand.faces()
    assert np.array_equal(np.bincount(hand.faces(), minlength=54), counts)


def test_r2_hand_equality_and_hash():
    a, b = Hand("As Kh SJ"), Hand("SJ,kh,a♠")
    assert a == b and not (a != b)
    assert hash(a) == hash(b)
    assert len({a, b, Hand("As Kh")}) == 2
    assert {a: 1}[b] == 1
    assert Hand("As") != Hand("As As")        # multiset: copies count
    assert Hand("As") != Hand("Ah")
    assert Hand("As") != "As"                 # a Hand never equals text


def test_r2_hand_contains_and_subset():
    hand = Hand("As As Kh SJ")
    assert "As" in hand and "As As" in hand and Hand("Kh SJ") in hand
    assert "As As As" not in hand             # only two copies held
    assert "Ah" not in hand and "BJ" not in hand
    assert "" in hand and Hand() in hand      # the empty multiset
    assert Hand("As Kh") <= hand and hand >= Hand("SJ")
    assert not (Hand("Ah") <= hand)


def test_r2_hand_add_and_subtract():
    hand = Hand("As Kh")
    assert hand + "SJ" == Hand("As Kh SJ")
    assert hand + Hand("As") == Hand("As As Kh")
    assert hand + ["2c", "2c"] == Hand("2c 2c As Kh")
    assert hand - "Kh" == Hand("As")
    assert hand - Hand("As Kh") == Hand()
    assert hand == Hand("As Kh")              # immutable: operators return new hands
    with pytest.raises(daguai.CardError, match="Ah"):
        hand - "Ah"                           # not in the hand
    with pytest.raises(daguai.CardError, match="As"):
        hand - "As As"                        # only one As held
    with pytest.raises(daguai.CardError, match="As"):
        Hand("As As As") + "As"               # R2: a 4th copy
    with pytest.raises(daguai.CardError, match="Zz"):
        hand + "Zz"


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_hand_and_play(protocol):
    hand = Hand(DEAL)
    assert pickle.loads(pickle.dumps(hand, protocol)) == hand
    for play in daguai.legal_plays(hand, "7", None, Rules(wild="declare"))[::97]:
        back = pickle.loads(pickle.dumps(play, protocol))
        assert back == play and hash(back) == hash(play)
        assert (back.cards, back.kind, back.key, back.level, back.jokers_as, back.describe()) == (
            play.cards, play.kind, play.key, play.level, play.jokers_as, play.describe())
    assert copy.copy(hand) == hand and copy.deepcopy(hand) == hand
    play = daguai.classify("3h 4s 5d 6c SJ")
    assert copy.deepcopy(play) == play


@pytest.mark.parametrize("protocol", [0, 1])
@pytest.mark.parametrize("obj", ["Hand('As SJ')", "daguai.classify('As')"])
def test_pickle_old_protocols_do_not_crash(obj, protocol):
    """pickle protocols 0 and 1 must either round-trip or raise a Python exception; they must
    never abort the interpreter.  (Run in a subprocess so an abort cannot kill the test run.)"""
    code = textwrap.dedent(f"""
        import pickle, daguai
        from daguai import Hand
        obj = {obj}
        try:
            back = pickle.loads(pickle.dumps(obj, protocol={protocol}))
            assert back == obj
            print("round trip")
        except Exception as exc:
            print("raised", type(exc).__name__)
    """)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=60)
    assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr[-500:])


# ---------------------------------------------------------------------------
# Play values
# ---------------------------------------------------------------------------

def test_play_equality_and_hash():
    a = daguai.classify("3h 4s 5d 6c SJ")
    b = daguai.classify(["SJ", "6c", "5d", "4s", "3h"])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    # other cards (BJ for SJ), other level, other reading: different plays
    assert a != daguai.classify("3h 4s 5d 6c BJ")
    assert a != daguai.classify("3h 4s 5d 6c SJ", "3")
    high = daguai.classify("3h 4s 5d 6c SJ", rules=Rules(wild="high"))
    assert a != high and a.cards == high.cards and a.key < high.key
    # equal kind and key but other cards: not equal, yet neither beats the other (R7)
    ah, as_ = daguai.classify("Ah"), daguai.classify("As")
    assert ah != as_ and not ah.beats(as_) and daguai.compare(ah, as_) == 0
    assert a != "3h 4s 5d 6c SJ" and a != a.cards


def test_play_attributes():
    play = daguai.classify("9s 9h 5d 5c SJ", "5")
    assert isinstance(play, Play)
    assert play.cards == Hand("9s 9h 5d 5c SJ")
    assert play.kind == Kind.FULL_HOUSE and play.kind.name == "FULL_HOUSE"
    assert play.size == len(play) == 5 and play.jokers == 1
    assert play.level == "5"
    assert str(play) == str(play.cards)
    assert "full house" in repr(play)
    # level given as "10" is the level T
    assert daguai.classify("As", "10").level == "T"


# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------

def test_rules_immutable_and_hashable():
    rules = Rules(wild="high")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.wild = "auto"
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.base = 5
    assert Rules(wild="high") == rules and hash(Rules(wild="high")) == hash(rules)
    assert Rules() != rules
    assert len({Rules(), Rules(), rules, Rules(wild="high")}) == 2
    assert pickle.loads(pickle.dumps(rules)) == rules


@pytest.mark.parametrize("rules, text", [
    (Rules(), "Rules()"),
    (Rules(wild="auto", base=1), "Rules()"),                  # explicit defaults are not shown
    (Rules(wild="high"), "Rules(wild='high')"),
    (Rules(wrap_straights=True, joker_pair="pure_wins", base=3),
     "Rules(wrap_straights=True, joker_pair='pure_wins', base=3)"),
    (Rules(final_level="10"), "Rules(final_level='T')"),
])
def test_rules_repr_shows_only_non_defaults(rules, text):
    assert repr(rules) == text
    assert eval(text, {"Rules": Rules}) == rules


@pytest.mark.parametrize("rules", [
    Rules(),
    Rules(wild="declare", wrap_straights=True, joker_pair="pure_wins"),
    Rules(lead_after_out="partner", dealer="stay", tribute_pairing="finish_order",
          anti_tribute=True, joker_tribute_choice=True, final_level="K", max_rounds=12,
          max_final_failures=3, scoring="levels", base=5, losers_pay=False, min_rounds=0),
])
def test_rules_dict_round_trip(rules):
    data = rules.to_dict()
    assert list(data) == list(Rules.names())
    assert Rules.from_dict(data) == rules
    assert Rules.from_dict({}) == Rules()                      # missing names: defaults
    import json
    assert Rules.from_dict(json.loads(json.dumps(data))) == rules


def test_rules_replace():
    base = Rules(wild="high")
    changed = base.replace(wrap_straights=True)
    assert changed == Rules(wild="high", wrap_straights=True)
    assert base == Rules(wild="high")                         # unchanged
    assert changed.replace(wild="auto", wrap_straights=False) == Rules()
    with pytest.raises(ValueError, match="colour"):
        base.replace(colour="red")
    with pytest.raises(ValueError, match="wild"):
        base.replace(wild="x")


@pytest.mark.parametrize("kwargs, name", [
    ({"wild": "x"}, "wild"),
    ({"joker_pair": "never"}, "joker_pair"),
    ({"lead_after_out": 1}, "lead_after_out"),
    ({"dealer": ""}, "dealer"),
    ({"tribute_pairing": "nearest"}, "tribute_pairing"),
    ({"scoring": "points"}, "scoring"),
    ({"wrap_straights": 1}, "wrap_straights"),
    ({"anti_tribute": "yes"}, "anti_tribute"),
    ({"losers_pay": None}, "losers_pay"),
    ({"final_level": "1"}, "final_level"),
    ({"final_level": 14}, "final_level"),
    ({"max_rounds": -1}, "max_rounds"),
    ({"base": 0}, "base"),
    ({"base": 1.5}, "base"),
    ({"min_rounds": True}, "min_rounds"),
])
def test_rules_bad_value_names_it(kwargs, name):
    with pytest.raises(ValueError, match=name):
        Rules(**kwargs)
    with pytest.raises(ValueError, match=name):
        Rules.from_dict(kwargs)
    with pytest.raises(ValueError, match=name):
        Rules().replace(**kwargs)


def test_rules_unknown_keyword_is_value_error():
    """The Rules docstring: "Unknown names or values raise ValueError" - also in the
    constructor, like from_dict and replace."""
    with pytest.raises(ValueError, match="colour"):
        Rules(colour="red")


def test_rules_unknown_name_names_it():
    with pytest.raises(ValueError, match="wildcards"):
        Rules.from_dict({"wildcards": "auto"})
    with pytest.raises(ValueError, match="wildcards"):
        Rules().replace(wildcards="auto")
    with pytest.raises(ValueError, match="mapping"):
        Rules.from_dict([("wild", "auto")])


# ---------------------------------------------------------------------------
# numpy path
# ---------------------------------------------------------------------------

def test_play_dtype_fields():
    dt = daguai.PLAY_DTYPE
    assert dt.names == ("lo", "hi", "key", "kind", "size", "jokers", "level")
    assert [dt[n] for n in dt.names] == [np.dtype("<u8"), np.dtype("<u8"), np.dtype("<u4"),
                                         np.dtype("u1"), np.dtype("u1"), np.dtype("u1"),
                                         np.dtype("u1")]


@pytest.mark.parametrize("hand, level, rules, top", [
    (DEAL, "7", Rules(), None),
    (DEAL, "7", Rules(wild="declare"), None),
    (DEAL, "A", Rules(wild="high", wrap_straights=True), None),
    (DEAL, "7", Rules(), "5s 6h 7d 8c 9s"),
    (DEAL, "7", Rules(wild="declare"), "9s 9h"),
    ("3s 3h SJ", "2", Rules(), None),
    ("", "2", Rules(), None),
])
def test_legal_plays_array_rows_equal_legal_plays(hand, level, rules, top):
    plays = daguai.legal_plays(hand, level, top, rules)
    rows = daguai.legal_plays_array(hand, level, top, rules)
    assert rows.dtype == daguai.PLAY_DTYPE and rows.shape == (len(plays),)
    assert daguai.count_plays(hand, level, top, rules) == len(plays)
    # same order, same plays
    assert daguai.plays_from_array(rows) == plays
    counts = daguai.play_counts(rows)
    assert counts.dtype == np.uint8 and counts.shape == (len(plays), 54)
    assert all(np.array_equal(counts[i], p.cards.counts()) for i, p in enumerate(plays))
    lv = daguai.LEVELS.index(level)
    for row, p in zip(rows, plays, strict=False):
        assert (int(row["lo"]), int(row["hi"])) == p.cards.bits
        assert int(row["key"]) == p.key and int(row["kind"]) == int(p.kind)
        assert int(row["size"]) == p.size and int(row["jokers"]) == p.jokers
        assert int(row["level"]) == lv
    # and back: Play objects -> rows
    assert daguai.plays_to_array(plays).tobytes() == rows.tobytes()


def _random_plays(rng: random.Random, n: int, size: int) -> np.ndarray:
    """n rows of `size` face ids drawn from small pools so that most rows are plays."""
    rows = []
    while len(rows) < n:
        lo = rng.randrange(13)
        ranks = [(lo + i) % 13 for i in range(rng.choice([1, 2, 5]))]
        suits = rng.sample(range(4), rng.choice([1, 2, 4]))
        pool = [r * 4 + s for r in ranks for s in suits for _ in range(3)] + [52, 52, 53]
        faces = rng.sample(pool, size) if len(pool) >= size else None
        if faces and max(faces.count(f) for f in faces) <= 3:
            rows.append(faces)
    return np.array(rows, dtype=np.uint8)


@pytest.mark.parametrize("size", [1, 2, 3, 5])
@pytest.mark.parametrize("level, rules", [
    ("2", Rules()),
    ("9", Rules(wild="high", wrap_straights=True)),
    ("A", Rules(wild="declare", joker_pair="pure_wins")),
])
def test_classify_many_and_beats_many_agree_with_scalar(size, level, rules):
    rng = random.Random(f"{size}-{level}-{rules!r}")
    a = _random_plays(rng, 120, size)
    b = _random_plays(rng, 120, size)
    kinds, keys = daguai.classify_many(a, level, rules)
    assert kinds.dtype == np.uint8 and keys.dtype == np.uint32 and kinds.shape == (120,)
    scalar = [daguai.classify(Hand.from_faces(list(row)), level, rules) for row in a]
    assert [None if k == 255 else (int(k), int(key)) for k, key in zip(kinds, keys, strict=False)] == [
        None if p is None else (int(p.kind), p.key) for p in scalar]
    assert sum(p is not None for p in scalar) > 40        # many rows are plays
    # beats_many on the rows that are plays in both arrays
    kb, _ = daguai.classify_many(b, level, rules)
    ok = (kinds != 255) & (kb != 255)
    got = daguai.beats_many(a[ok], b[ok], level, rules)
    assert got.dtype == np.bool_ and got.shape == (int(ok.sum()),)
    want = [daguai.beats(Hand.from_faces(list(x)), Hand.from_faces(list(y)), level, rules)
            for x, y in zip(a[ok], b[ok], strict=False)]
    assert got.tolist() == want
    # non-contiguous and int64 input give the same answers
    assert np.array_equal(daguai.classify_many(a.astype(np.int64)[::-1], level, rules)[1],
                          keys[::-1])


def test_beats_many_different_sizes_is_false():
    # R7: a play of another size never beats: a single vs a pair, row-wise
    a = np.array([[53]], dtype=np.uint8)                 # BJ
    b = np.array([[0, 1]], dtype=np.uint8)               # 2s 2h
    assert daguai.beats_many(a, b).tolist() == [False]


def test_numpy_empty_inputs():
    kinds, keys = daguai.classify_many(np.zeros((0, 5), np.uint8))
    assert kinds.shape == keys.shape == (0,)
    assert daguai.plays_from_array(np.zeros(0, daguai.PLAY_DTYPE)) == []
    assert daguai.plays_to_array([]).shape == (0,)
    assert daguai.play_counts(np.zeros(0, daguai.PLAY_DTYPE)).shape == (0, 54)


@pytest.mark.parametrize("call", [
    lambda: daguai.classify_many(np.zeros((3,), np.uint8)),            # 1-d
    lambda: daguai.classify_many(np.zeros((2, 5, 1), np.uint8)),       # 3-d
    lambda: daguai.classify_many(np.zeros((2, 6), np.uint8)),          # 6 cards
    lambda: daguai.classify_many(np.zeros((2, 0), np.uint8)),          # 0 cards
    lambda: daguai.beats_many(np.zeros((2, 1), np.uint8), np.zeros((3, 1), np.uint8)),
    lambda: daguai.beats_many(np.zeros((2, 1), np.uint8), np.zeros((2,), np.uint8)),
    lambda: daguai.plays_from_array(np.zeros((2, 2), daguai.PLAY_DTYPE)),
], ids=["classify_many-1d", "classify_many-3d", "classify_many-k6", "classify_many-k0",
        "beats_many-n-mismatch", "beats_many-1d", "plays_from_array-2d"])
def test_numpy_bad_shapes_raise_value_error(call):
    with pytest.raises(ValueError):
        call()


@pytest.mark.parametrize("call", [
    lambda: daguai.classify_many(np.array([["As", "Ah"]])),
    lambda: daguai.classify_many(np.array([[0.5, 4.0]])),               # not face ids
    lambda: daguai.beats_many(np.array([[1.5]]), np.array([[0]])),
    lambda: daguai.plays_from_array(np.zeros(3, np.int64)),
    lambda: daguai.plays_from_array(np.zeros(3, [("a", "<u8"), ("b", "<u8")])),
    lambda: daguai.play_counts(np.zeros(3, np.int64)),
    lambda: daguai.play_counts(np.zeros((3, 54), np.uint8)),
], ids=["classify_many-str", "classify_many-float", "beats_many-float",
        "plays_from_array-int64", "plays_from_array-other-struct", "play_counts-int64",
        "play_counts-counts-array"])
def test_numpy_bad_dtypes_raise_value_error(call):
    with pytest.raises(ValueError):
        call()
