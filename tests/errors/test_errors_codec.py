"""Every input class of the codec and of positions raises its documented error
(docs/errors.md "The codec and positions"): a ValueError subclass naming the problem,
never RecursionError / KeyError / IndexError / AttributeError / a pybind11 dump."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import daguai
import pytest
from daguai import Game, PositionError, ReplayError, _core, codec, protocol
from daguai.errors import CodecError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

DEEP = 3000  # past Python's recursion limit for repr


def _deep(n: int = DEEP):
    v: object = 0
    for _ in range(n):
        v = [v]
    return v


@pytest.fixture(scope="module")
def game() -> Game:
    g = Game(5)
    for _ in range(40):
        g.step(g.legal_actions()[0])
    return g


@pytest.fixture(scope="module")
def record(game) -> str:
    return game.to_record()


def _position(**change):
    doc = Game(3).position()
    doc.update(change)
    return doc


CASES = [
    # (id, call, error class, words of the message)
    ("position: '[' * 100000", lambda g, r: Game.from_position("[" * 100000), PositionError,
     "nested too deeply"),
    ("position: not JSON", lambda g, r: Game.from_position("{"), PositionError, "not JSON"),
    ("position: bytes not UTF-8", lambda g, r: Game.from_position(b"\xff\xfe"), PositionError, "not JSON"),
    ("position: not a dict", lambda g, r: Game.from_position(17), PositionError, "JSON text"),
    ("position: seed nested 3000 deep", lambda g, r: Game.from_position(_position(seed=_deep())),
     PositionError, "'seed' must be an integer"),
    ("position: history entry nested 3000 deep",
     lambda g, r: Game.from_position(_position(history=[_deep()])), PositionError, "history entry 0"),
    ("position: scores nested 3000 deep", lambda g, r: Game.from_position(_position(scores=_deep())),
     PositionError, "'scores'"),
    ("position: history entry of a wrong type",
     lambda g, r: Game.from_position(_position(history=[[0, "play", 5]])), PositionError, "a play is"),
    ("position: an auto_pass change in a history",
     lambda g, r: Game.from_position(_position(history=[[-1, "auto_pass", True]])), PositionError,
     "unknown action"),
    ("fill_hidden_hands: nested 3000 deep",
     lambda g, r: __import__("daguai.positions").positions.fill_hidden_hands(_deep()), PositionError,
     "nested too deeply"),
    ("record: blank first line, upto=1", lambda g, r: Game.from_record("\n" + r, upto=1), ReplayError,
     "before the record's header"),
    ("record: a line nested 3000 deep", lambda g, r: Game.from_record(r + "[" * 3000 + "]" * 3000),
     ReplayError, "line"),
    ("record: entries nested 3000 deep",
     lambda g, r: Game.from_record([json.loads(r.splitlines()[0]), {"event": "deal", "x": _deep()}]),
     ReplayError, "line 2"),
    ("game JSON: an action nested 3000 deep",
     lambda g, r: Game.from_json(json.dumps({**json.loads(g.to_json()), "actions": [_deep(900)]})),
     ReplayError, "action 0: malformed"),
    ("entry_decision({})", lambda g, r: codec.entry_decision({}), ReplayError, "unknown event"),
    ("entry_decision(None)", lambda g, r: codec.entry_decision(None), ReplayError, "a dict"),
    ("restrict('x', 0)", lambda g, r: codec.restrict("x", 0), CodecError, "a dict"),
    ("restrict: unknown event", lambda g, r: codec.restrict({"event": "x"}, 0), CodecError,
     "unknown event"),
    ("restrict: bad audience", lambda g, r: codec.restrict({"event": "play"}, 9), CodecError,
     "audience"),
    ("restrict: bool audience", lambda g, r: codec.restrict({"event": "play"}, True),
     CodecError, "audience"),
    ("restrict: deal hands not a list",
     lambda g, r: codec.restrict({"event": "deal", "hands": 3}, 0), CodecError, "'hands'"),
    ("restrict: pair seat not a seat",
     lambda g, r: codec.restrict({"event": "return", "seat": "a", "to": 1}, 0), CodecError,
     "'seat' must be a seat"),
    ("public_view(None)", lambda g, r: protocol.public_view(None), CodecError, "needs a Game"),
    ("view_to_json('x', 1)", lambda g, r: protocol.view_to_json("x", 1), CodecError, "needs a Game"),
    ("position_to_json(None)", lambda g, r: protocol.position_to_json(None), CodecError, "needs a Game"),
    ("parse_action(None, 'pass')", lambda g, r: protocol.parse_action(None, "pass"),
     _core.core.IllegalActionError,
     "needs a Game or GameState"),
    ("parse_action(game, None)", lambda g, r: protocol.parse_action(g, None), _core.core.IllegalActionError,
     "must be a string"),
    ("action_from_json: nested 3000 deep", lambda g, r: protocol.action_from_json(g, _deep()),
     _core.core.IllegalActionError, "an action is an object"),
    ("encode('x', 0, view)", lambda g, r: codec.encode("x", 0, form="view"), CodecError, "engine event"),
    ("decision: unknown", lambda g, r: codec.decision(("x", 0, 0, 0, None)), CodecError,
     "unknown event"),
    ("encode: a play without a Play", lambda g, r: codec.encode(("play", 0, -1, 0, None)), CodecError,
     "malformed play event"),
    ("encode: bad form", lambda g, r: codec.encode(("pass", 0, -1, 0, None), form="x"), CodecError, "form"),
    ("result_to_json(3)", lambda g, r: protocol.result_to_json(3), CodecError, "a dict"),
    ("apply_decision: not a list", lambda g, r: protocol.apply_decision(g.clone(), "pass"), ReplayError,
     "malformed action"),
    ("restrict_view(None)", lambda g, r: codec.restrict_view(None, None), CodecError, "a view"),
]


@pytest.mark.parametrize("call, error, words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_codec_and_position_inputs_raise_their_documented_error(game, record, call, error, words):
    with pytest.raises(error, match=words) as info:
        call(game, record)
    assert isinstance(info.value, ValueError)
    assert len(str(info.value)) < 2000  # a bounded message, never a nested repr or a pybind11 dump
    assert "incompatible function arguments" not in str(info.value)


def test_cli_exits_2_with_one_line_on_a_deep_position(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100000)
    # the daguai this process imported (the installed one in CI, the source tree with a built
    # extension in development): never the bare source tree, which has no extension in CI
    pkg_parent = os.path.dirname(os.path.dirname(daguai.__file__))
    env = {**os.environ, "PYTHONPATH": pkg_parent}
    out = subprocess.run([sys.executable, "-m", "daguai", "analyze", str(path), "--rollouts", "1"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("daguai: error:") and "nested too deeply" in lines[0]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)
# Integers past 2**31 in a position are the binding's (helper "state"): kept
# small here.
SMALL_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-9, 60) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)
ENTRY_KEYS = st.sampled_from(["event", "seat", "to", "card", "cards", "hands", "auto", "on", "as"])
ENTRIES = st.dictionaries(ENTRY_KEYS, JSON | st.sampled_from(list(codec.EVENTS)), max_size=6)
AUDIENCES = st.none() | st.integers(-3, 8) | st.just(codec.REFEREE) | JSON


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entry=ENTRIES | JSON, audience=AUDIENCES)
def test_fuzz_restrict_and_entry_decision(entry, audience):
    """Wrong types and shapes anywhere: a documented ValueError or an answer, nothing else."""
    for call in (lambda: codec.restrict(entry, audience), lambda: codec.entry_decision(entry),
                 lambda: codec.read_decision(entry, "x"), lambda: codec.encode(entry, audience)):
        try:
            call()
        except (CodecError, ReplayError):
            pass


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(["seed", "game", "round", "dealer", "levels", "scores", "final_failures",
                              "tribute", "hands", "history", "to_act", "finish_order", "auto_pass",
                              "rules", "version"]),
       value=SMALL_JSON)
def test_fuzz_position_fields(field, value):
    try:
        Game.from_position(_position(**{field: value}))
    except PositionError:
        pass


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet='[]{}":,0123456789truefalsn -', max_size=60) | st.binary(max_size=40))
def test_fuzz_malformed_json_text(text):
    for call, error in ((Game.from_position, PositionError), (Game.from_json, ReplayError),
                        (Game.from_record, ReplayError)):
        try:
            call(text)
        except error:
            pass


@settings(max_examples=300, deadline=None)
@given(field=st.sampled_from(["hands", "tribute", "history", "rules"]), value=SMALL_JSON,
       unknown=st.sets(st.integers(0, 5), max_size=3))
def test_fuzz_fill_hidden_hands(field, value, unknown):
    """A position with unknown hands (what ``analyze`` fills) and one wrong field: a
    PositionError or a filled position, nothing else."""
    from daguai.positions import fill_hidden_hands

    doc = _position()
    doc["hands"] = [None if s in unknown else h for s, h in enumerate(doc["hands"])]
    doc[field] = value
    try:
        fill_hidden_hands(doc)
    except PositionError:
        pass
