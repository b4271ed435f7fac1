"""The bindings only bind: no file of cpp/bindings imports
the module it builds (``daguai._core``) to call another binding; the text of plays and
actions comes from the engine (cpp/engine/plays/play_text.hpp, cpp/engine/game/action_text.hpp),
which the bindings expose unchanged;
and validation lives in the engine's rule table (rules.hpp) and card parser (cards.hpp): a
binding translates a Python value and the engine's errors, it does not re-check a rule bound
or the R2 copy limit, loop over a variant's bounds or word a rule's error itself."""

from __future__ import annotations

import pathlib
import re

import numpy as np
import pytest
from daguai import CardError, Game, Hand, PositionError, Rules, _core, classify

BINDINGS = pathlib.Path(__file__).resolve().parents[2] / "cpp" / "bindings"


def test_no_binding_imports_daguai_core():
    files = sorted(BINDINGS.rglob("*.[ch]pp"))
    assert len(files) >= 10
    imports = re.compile(r'import\(\s*"daguai')  # py::module_::import("daguai._core") and kin
    offenders = [f.name for f in files if imports.search(f.read_text(encoding="utf-8"))]
    assert offenders == []


def test_play_and_action_text_are_the_engines():
    """Pinned forms (docs/protocol.md): describe / repr of plays, str / repr of actions."""
    p = classify("3h 4s 5d 6c 7h")
    assert p.describe() == "straight 34567"
    assert repr(p) == "Play('3h 4s 5d 6c 7h', straight 34567, level 2)"
    j = classify("5s 5h 5d 5c BJ")
    assert repr(j) == f"Play('5s 5h 5d 5c BJ', five of a kind 55555, jokers as {j.jokers_as[0]}, level 2)"
    assert classify("SJ BJ").describe() == "pair of jokers (SJ power)"  # R6: the lower joker
    assert classify("BJ BJ").describe() == "pair of jokers (BJ power)"
    g = Game(3)
    a = g.legal_actions()[0]
    assert str(a) == str(a.cards) and repr(a) == f"Action(play '{a.cards}', seat {a.seat})"
    g.step("pass") if g.top is not None else g.step(a)
    assert str(_core.game.parse_action(g, "pass")) == "pass"


def test_pickled_hands_and_plays_use_the_module_helpers():
    h = _core.core.Hand("As As BJ")
    f, args = h.__reduce__()
    assert f is _core.core._hand_from_state and f(*args) == h
    p = _core.plays.classify("3h 3s", "2", Rules()._core)
    f, args = p.__reduce__()
    assert f is _core.plays._play_from_state and f(*args) == p


# Logic that belongs to the engine: each pattern with where it lives instead.
_CMP = r"(?:[<>]=?|==|!=)"
ENGINE_LOGIC = {
    "compares with a rule variant's bounds (rules.hpp set_rule)":
        re.compile(rf"{_CMP}\s*\w+(?:\.|->)(?:lo|hi)\b|\b\w+(?:\.|->)(?:lo|hi)\s*{_CMP}"),
    "loops over a rule variant's bounds (rules.hpp rule_choices)":
        re.compile(r"for\s*\([^;]*=\s*\w+(?:\.|->)lo\s*;"),
    "checks the R2 copy limit (cards.hpp add_copy, add_cards, cards_from_counts)":
        re.compile(rf"{_CMP}\s*kMaxCopies\b|\bkMaxCopies\s*{_CMP}|\bsum_overflows\s*\("),
    "words the R2 copy limit (the engine's messages)":
        re.compile(r"at most 3|three decks|exceed 3 copies|outside 0\.\.3"),
    "words a rule variant's error (rules.hpp throw_rule_range / throw_rule_type)":
        re.compile(r'"Rules\.'),
}

# `x < lo || x > hi`: a range check. The ones left in the bindings, per file, each with why it
# is there; a new one fails this test (move it to the engine, or add it here with a reason).
RANGE_CHECK = re.compile(r"\b([\w.]+(?:\(\))?)\s*<\s*[-\w]+\s*\|\|\s*\1\s*>=?")
RANGE_CHECKS_LEFT = {
    "game/bind_state.cpp": 2,      # indices of Python sequences (ActionList, results): IndexError
    "game/bind_infostate.cpp": 1,  # the seat of Game.view before information_state
    "io/bind_io.cpp": 1,           # the seat of encode_observation
    "run/bind_batch_env.cpp": 5,   # environment / action indices of BatchEnv's arrays; the
                                   # unpickled n before the engine allocates n environments
    "run/bind_sim.cpp": 2,         # _ResultRows' row (memory safety), PolicyRunner's seat
    "testing/bind_hooks.cpp": 1,   # the sampler test hook's method (0 auto, 1 rejection, 2 chain)
    "testing/bind_timers.cpp": 4,  # time_play_op's op, time_decisions' rounds, time_network's
                                   # rounds and reps (benchmark hooks)
}


def engine_logic(text: str) -> list[str]:
    """What of ENGINE_LOGIC `text` (C++ source) does: the reasons, one per line that does it."""
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        code = line.split("//", 1)[0]
        found += [f"{n}: {why}" for why, pattern in ENGINE_LOGIC.items() if pattern.search(code)]
    return found


def test_the_detector_finds_the_validators_that_were_in_the_bindings():
    """bind_rules.cpp and bind_cards.cpp as they were: a second rule validator (its
    bound [0, hi] where the table says [lo, hi]), a loop over a level variant's bounds, and
    the R2 copy check with its own message."""
    old_rules = """
      const std::int64_t x = to_int<CardError>(obj, what.c_str(), INT32_MIN, INT32_MAX);
      if (x < 0 || x > v.hi)
        throw CardError(what + " must be in [0, " + std::to_string(v.hi) + "], got " +
                        std::to_string(x));
          for (int x = v.lo; x <= v.hi; ++x) levels += (levels.empty() ? "" : " ") + level_text(x);
  const std::string what = std::string("Rules.") + v.name;
"""
    old_cards = """
    if (c.count(f) == kMaxCopies)
      throw CardError("too many copies of " + face_text(f) + " (at most 3: three decks, R2)");
            if (Cards::sum_overflows(a, b))
"""
    def reasons(text: str) -> set[str]:
        return {found.split(": ", 1)[1] for found in engine_logic(text)}

    why = list(ENGINE_LOGIC)
    assert reasons(old_rules) == {why[0], why[1], why[4]} and RANGE_CHECK.search(old_rules)
    assert reasons(old_cards) == {why[2], why[3]}


def test_bindings_leave_validation_to_the_engine():
    offenders = {f.relative_to(BINDINGS).as_posix(): engine_logic(f.read_text(encoding="utf-8"))
                 for f in sorted(BINDINGS.rglob("*.[ch]pp"))}
    assert {name: found for name, found in offenders.items() if found} == {}


def test_range_checks_left_in_the_bindings_are_the_listed_ones():
    counts = {}
    for f in sorted(BINDINGS.rglob("*.cpp")):
        code = "\n".join(line.split("//", 1)[0] for line in f.read_text(encoding="utf-8").splitlines())
        if n := len(RANGE_CHECK.findall(code)):
            counts[f.relative_to(BINDINGS).as_posix()] = n
    assert counts == RANGE_CHECKS_LEFT


@pytest.mark.parametrize("row", [r for r in _core.core.RULE_VARIANTS if r["kind"] == "int"],
                         ids=lambda r: r["name"])
def test_rule_bounds_in_messages_are_the_tables(row):
    """The engine's message names the variant's [lo, hi] on both sides of it (the binding said
    [0, hi] above the table's range)."""
    name, lo, hi = row["name"], row["lo"], row["hi"]
    for bad in (lo - 1, hi + 1, 2**70, -(2**70)):
        with pytest.raises(CardError, match=rf"^Rules\.{name} must be in \[{lo}, {hi}\], got {bad}$"):
            _core.core.CoreRules(**{name: bad})
    wrong_type = rf"^Rules\.{name} must be an integer in \[{lo}, {hi}\], got 1\.5$"
    with pytest.raises(CardError, match=wrong_type):
        _core.core.CoreRules(**{name: 1.5})
    assert getattr(_core.core.CoreRules(**{name: lo}), name) == lo


def test_choice_level_and_flag_messages_come_from_the_table():
    with pytest.raises(CardError, match=r"^Rules\.table='8p4d' is not one of '6p3d', '4p2d'$"):
        _core.core.CoreRules(table="8p4d")
    with pytest.raises(CardError, match=r"^Rules\.table must be in \[0, 1\], got 2$"):
        _core.core.CoreRules(table=2)
    not_a_level = r"^Rules\.final_level='Z' is not a level \(2 3 4 5 6 7 8 9 T J Q K A\)$"
    with pytest.raises(CardError, match=not_a_level):
        _core.core.CoreRules(final_level="Z")
    with pytest.raises(CardError, match=r"^Rules\.losers_pay must be True or False, got 1$"):
        _core.core.CoreRules(losers_pay=1)
    with pytest.raises(CardError, match=r"^unknown rule name\(s\): a, zz \(known: wild "):
        _core.core.CoreRules(zz=1, a=2)
    row = next(r for r in _core.core.RULE_VARIANTS if r["name"] == "final_level")
    assert row["choices"] == tuple("23456789TJQKA")


@pytest.mark.parametrize("table, decks", [("6p3d", 3), ("4p2d", 2)])
def test_r2_copy_messages_at_both_tables(table, decks):
    """R2: a Hand holds at most 3 copies of a face whatever the table (the 6p3d deck; one
    message from cards.cpp for text, lists, face ids, counts and sums); a table with fewer
    decks (4p2d: 2) refuses more copies where hands meet the table, naming its own count."""
    too_many = "too many copies of As (at most 3: three decks, R2)"
    for make in (lambda: Hand("As As As As"), lambda: Hand(["As"] * 4),
                 lambda: Hand.from_faces([Hand("As").faces()[0]] * 4)):
        with pytest.raises(CardError, match=re.escape(too_many)):
            make()
    with pytest.raises(CardError, match=re.escape("cannot add 'As As': a face would exceed 3 copies (R2)")):
        Hand("As As") + Hand("As As")
    with pytest.raises(CardError, match=re.escape("count 4 for 2s is outside 0..3 (R2)")):
        Hand.from_counts(np.full(54, 4))
    with pytest.raises(CardError, match=re.escape("count -1 for 2s is outside 0..3 (R2)")):
        Hand.from_counts(np.full(54, -1))
    assert Hand("As As As").count("As") == 3
    g = Game(1, Rules(table=table))
    pos = g.position()
    hands = [Hand(h) for h in pos["hands"]]
    extra = next(f for f in hands[0].faces() if hands[0].count(f) == 1)  # one more copy of it
    giver = next(s for s in range(1, len(hands)) if hands[s].count(extra) == 0)
    drop = hands[giver].faces()[0]
    hands[0] = hands[0] + Hand.from_faces([extra])
    hands[giver] = hands[giver] - Hand.from_faces([drop])
    pos["hands"] = [str(h) for h in hands]
    with pytest.raises(PositionError, match=rf"appears {decks + 1} times .*every face exists {decks} times"):
        Game.from_position(pos)
