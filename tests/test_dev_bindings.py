"""The bindings only bind (issue 8 item 3): no file of cpp/bindings imports the module it
builds (``daguai._core``) to call another binding, and the text of plays and actions comes
from the engine (cpp/engine/describe.hpp), which the bindings expose unchanged."""

from __future__ import annotations

import pathlib
import re

from daguai import Game, Rules, _core, classify

BINDINGS = pathlib.Path(__file__).resolve().parents[1] / "cpp" / "bindings"


def test_no_binding_imports_daguai_core():
    files = sorted(BINDINGS.glob("*.[ch]pp"))
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
    assert str(_core.parse_action(g, "pass")) == "pass"


def test_pickled_hands_and_plays_use_the_module_helpers():
    h = _core.Hand("As As BJ")
    f, args = h.__reduce__()
    assert f is _core._hand_from_state and f(*args) == h
    p = _core.classify("3h 3s", "2", Rules()._core)
    f, args = p.__reduce__()
    assert f is _core._play_from_state and f(*args) == p
