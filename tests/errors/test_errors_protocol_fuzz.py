"""Fuzz the protocol's readers and the server's message checks: only documented errors.

``daguai.protocol``'s parse functions (``play_from_json``, ``parse_action``,
``action_from_json``, ``apply_decision``) and ``daguai.codec.read_decision`` get JSON-like
junk: every JSON type, integers past Python's int-to-text limit, lone surrogates, lists
nested 3,000 deep, and (as a level) numpy arrays. They may succeed or raise a ``ValueError``
(CardError, IllegalPlayError, IllegalActionError, CodecError, ReplayError: docs/errors.md);
AttributeError, ``TypeError("unhashable")``, RecursionError, IndexError and KeyError are
failures, and a refused decision leaves the game unchanged. The server's checks of client
messages (``read_client_message``, ``schema_error``) may only answer ``ProtocolError`` /
an error text (docs/protocol.md)."""

from __future__ import annotations

import json
import sys
from typing import Any

import numpy as np
import pytest
from daguai import Game, Rules, codec, protocol
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FUZZ = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))


def _deep(n: int = 3000) -> list:
    x: list = []
    for _ in range(n):
        x = [x]
    return x


def _huge(k: int) -> int:
    """Integers built when drawn: hypothesis prints its strategies, and 10**5000 has no text."""
    return [10**5000, -10**5000, 2**64][k]


_TEXT = st.one_of(
    st.sampled_from(["", "pass", "As", "As Ah", "SJ BJ", "play As", "tribute As", "return 2s",
                     "anti_tribute", "offer 2s", "take 2s", "3s 4s 5s 6s 7s", "\ud800", "As \udfff",
                     "10", "T", "x" * 5000, "play", "as", "2"]),
    st.text(max_size=20))
_SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-10, 10), st.integers(0, 2).map(_huge),
                    st.floats(allow_nan=True), _TEXT)
_KEYS = st.sampled_from(["type", "seat", "cards", "as", "kind", "key", "text", "index", "decision",
                         "table"]) | st.text(max_size=4)
_JSON = st.recursive(
    _SCALAR,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(_KEYS, inner, max_size=5)),
    max_leaves=12)
_VALUE = st.one_of(_JSON, st.builds(_deep), st.builds(lambda: {"cards": _deep()}),
                   st.builds(lambda: [0, "play", _deep()]))
_LEVEL = st.one_of(st.sampled_from(["2", "T", "10", "A", "a", "x", "", "\ud800"]),
                   st.builds(lambda: np.array(["2", "3"])), st.builds(lambda: np.array("2")), _SCALAR)
_ACTION = st.one_of(_VALUE, st.fixed_dictionaries(
    {"type": st.sampled_from(list(protocol.ACTION_TYPES)), "seat": _SCALAR},
    optional={"cards": _VALUE, "as": _VALUE}))
_DECISION = st.one_of(_VALUE, st.tuples(_SCALAR, st.sampled_from(["play", "pass", "tribute", "return",
                                                                  "auto_pass", "forfeit", "take", "offer"]),
                                        _VALUE, _VALUE).map(list))


def _games() -> list[Game]:
    out = [Game(seed=5), Game(seed=5, rules=Rules(table="4p2d", wild="declare"))]
    g = Game(seed=6, rules=Rules(anti_tribute=True), start="random")
    while g.phase == "play" and not g.match_over:
        g.step(g.legal_actions()[0])  # into a tribute phase, or to a round end
    return [*out, g]


GAMES = _games()


def _only_documented(call: Any) -> None:
    try:
        call()
    except ValueError:
        pass  # the documented errors are all ValueErrors (docs/errors.md)


@FUZZ
@given(d=_VALUE, level=_LEVEL, k=st.integers(0, 2))
def test_play_from_json_raises_only_documented_errors(d, level, k):
    rules = GAMES[k].rules
    _only_documented(lambda: protocol.play_from_json(d, level, rules))
    _only_documented(lambda: protocol.play_from_json(d, GAMES[k].level, rules))


@FUZZ
@given(text=st.one_of(_TEXT, _VALUE), k=st.integers(0, 2))
def test_parse_action_raises_only_documented_errors(text, k):
    g = GAMES[k]
    before = g.to_json()
    _only_documented(lambda: protocol.parse_action(g, text))
    assert g.to_json() == before


@FUZZ
@given(d=_ACTION, k=st.integers(0, 2))
def test_action_from_json_raises_only_documented_errors(d, k):
    g = GAMES[k]
    before = g.to_json()
    _only_documented(lambda: protocol.action_from_json(g, d))
    assert g.to_json() == before


@FUZZ
@given(a=_DECISION, k=st.integers(0, 2), position=st.booleans())
def test_apply_decision_and_read_decision_raise_only_documented_errors(a, k, position):
    g = GAMES[k].clone()
    before = g.to_json()
    try:
        protocol.apply_decision(g, a)
    except ValueError:
        assert g.to_json() == before  # a refused decision changes nothing
    _only_documented(lambda: codec.read_decision(a, "entry", position=position))


# ---- the server's checks of client messages ----------------------------------------------
pytest.importorskip("jsonschema")
from daguai.server.messages import CLIENT_TYPES, ProtocolError, read_client_message, schema_error  # noqa: E402

_MESSAGE = st.one_of(_VALUE, st.fixed_dictionaries(
    {"type": st.sampled_from([*CLIENT_TYPES, "nope"])},
    optional={k: _VALUE for k in ("table", "token", "decision", "index", "text", "action",
                                  "cards", "views", "events")}))


def _text(msg: Any) -> str:
    try:
        return json.dumps(msg)
    except (ValueError, RecursionError):  # 10**5000 has no text; 3,000 deep is JSON text still
        return "[" * 3000 + "]" * 3000


@FUZZ
@given(msg=_MESSAGE)
def test_read_client_message_answers_only_protocol_errors(msg):
    text = _text(msg)
    try:
        out = read_client_message(text)
    except ProtocolError as exc:
        assert exc.code in ("bad_json", "bad_message", "unknown_type") and str(exc)
    else:
        assert out["type"] in CLIENT_TYPES


@FUZZ
@given(doc=_MESSAGE, name=st.sampled_from([*(f"client_{t}" for t in CLIENT_TYPES), "create_table",
                                            "play_request"]))
def test_schema_error_answers_text_or_none(doc, name):
    depth = sys.getrecursionlimit()
    error = schema_error(name, doc)
    assert error is None or (isinstance(error, str) and len(error) < 400)
    assert sys.getrecursionlimit() == depth

