"""Positions: a match as it stands inside a round, as JSON (docs/records.md).

A position holds the six hands now, the dealer, both levels, scores, the round number, the
round's tribute pairs and this round's history (plays, passes, tribute exchanges) in order.
The engine validates it before use (:class:`PositionError`, a ``ValueError``, names the
first problem) and re-applies the history, so a game made from a position has the same log,
legal actions and information state (R16) as the game it was taken from.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from . import _core, codec, documents
from .documents import POSITION_FORMAT
from .errors import read_path, safe_json_loads
from .rules import LEVELS, Rules
from .table import seats_of

__all__ = ["POSITION_FORMAT", "PositionError", "game_from_position", "position_of"]

PositionError = _core.game.PositionError


def _fail(msg: str) -> PositionError:
    return PositionError(f"inconsistent position: {msg}")


def position_of(game: Any, *, at_deal: bool = False) -> dict[str, Any]:
    """The JSON-ready position of ``game`` (a Game) now (or, ``at_deal``, at this round's
    deal); its history entries are the codec's (:func:`daguai.codec.position_entry`)."""
    return documents.position_to_json(game, at_deal=at_deal)


def _int(doc: Mapping[str, Any], key: str, default: Any = None) -> int:
    v = doc.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int):
        raise _fail(f"'{key}' must be an integer, got {codec.short_repr(v)}")
    return v


def _int_list(doc: Mapping[str, Any], key: str, n: int | None, default: Any = None) -> list[int]:
    v = doc.get(key, default)
    if not isinstance(v, list) or (n is not None and len(v) != n) or \
            any(isinstance(x, bool) or not isinstance(x, int) for x in v):
        raise _fail(
            f"'{key}' must be a list of {n if n is not None else ''} integers, "
            f"got {codec.short_repr(v)}".replace("  ", " ")
        )
    return v


def _level(v: Any) -> int:
    # the type first: `v == "10"` of a numpy array is an array (truth value ambiguous)
    text = "T" if isinstance(v, str) and v == "10" else v
    if not isinstance(text, str) or text.upper() not in LEVELS:
        raise _fail(f"{codec.short_repr(v)} is not a level ({' '.join(LEVELS)})")
    return LEVELS.index(text.upper())


def game_from_position(cls: type, position: str | bytes | Mapping[str, Any], *,
                       record: bool = True) -> Any:
    """Build a ``cls`` (a Game subclass) from a position (dict or JSON text)."""
    rules, core_pos = _parse_position(position)
    g = cls._of(_core.game.GameState(rules._core, core_pos, record), rules)
    g._origin = position_of(g, at_deal=True) if record else None
    return g


def _parse_position(position: Any, *, unknown_ok: bool = False) -> tuple[Rules, Any]:
    """(rules, engine Position) of a position document; PositionError on malformed input.
    ``unknown_ok``: a hand may be null (unknown; empty in the engine Position, which
    :func:`fill_hidden_hands` fills)."""
    position = read_path(position, _fail, "position file")  # a pathlib.Path: its file
    if isinstance(position, (str, bytes, bytearray)):
        doc = safe_json_loads(position, _fail, "the position")
    elif isinstance(position, Mapping):
        doc = position
    else:
        raise _fail(f"a position is a dict or JSON text, got {type(position).__name__}")
    # type checks before ==: an array compares element by element (numpy's "truth value ...
    # is ambiguous"), True == 1
    if not isinstance(doc, Mapping) or not isinstance(doc.get("format"), str) or \
            doc.get("format") != "daguai-position":
        raise _fail("not a daguai position ('format' must be 'daguai-position', got "
                    f"{codec.short_repr(doc.get('format')) if isinstance(doc, Mapping) else 'no field'})")
    if type(doc.get("version")) is not int or doc.get("version") != POSITION_FORMAT:
        raise _fail(f"unsupported position version {codec.short_repr(doc.get('version'))}")
    try:
        rules = Rules.from_dict(doc.get("rules", {}))
    except (TypeError, ValueError) as exc:
        raise _fail(f"bad rules: {exc}") from None
    seed, game_index = _int(doc, "seed", 0), _int(doc, "game", 0)
    if not 0 <= seed < 2**64 or not 0 <= game_index < 2**64:
        raise _fail("seed and game are integers in [0, 2**64)")
    auto = doc.get("auto_pass", False)
    if not isinstance(auto, bool):
        raise _fail("'auto_pass' must be true or false")
    start = doc.get("start", "fresh")  # a random start state's round 0 may have tribute
    if not isinstance(start, str) or start not in ("fresh", "random"):
        raise _fail(f"'start' must be 'fresh' or 'random', got {start!r}")
    seats = seats_of(rules)  # R18: 6, or 4 at 4p2d
    dealer = _int(doc, "dealer")
    if not 0 <= dealer < seats:
        raise _fail(f"dealer {codec.short_repr(dealer)} is not a seat (0..{seats - 1})")
    levels_raw = doc.get("levels", ["2", "2"])
    if not isinstance(levels_raw, list) or len(levels_raw) != 2:
        raise _fail("'levels' must be [team A, team B]")
    levels = [_level(v) for v in levels_raw]
    level_text = LEVELS[levels[dealer % 2]]
    pairs_raw = doc.get("tribute", [])
    if not isinstance(pairs_raw, list) or any(
        not isinstance(p, list)
        or len(p) != 2
        or any(isinstance(x, bool) or not isinstance(x, int) for x in p)
        for p in pairs_raw
    ):
        raise _fail("'tribute' must be a list of [tributer, receiver] seat pairs")
    hands = doc.get("hands")
    if not isinstance(hands, list) or len(hands) != seats or \
            not all(isinstance(h, str) or (unknown_ok and h is None) for h in hands):
        raise _fail(f"'hands' must list {seats} card texts"
                    + (" (or null for an unknown hand)" if unknown_ok else ""))
    hands = ["" if h is None else h for h in hands]
    history_raw = doc.get("history", [])
    if not isinstance(history_raw, list):
        raise _fail("'history' must be a list")
    history = []
    for i, e in enumerate(history_raw):
        d = codec.read_decision(e, f"history entry {i}", position=True, error=_fail)
        if d.type == "play":
            declared = d.extra if rules.wild == "declare" else None
            try:
                play = _core.plays.classify(d.cards, level_text, rules._core, declared)
            except ValueError as exc:
                raise _fail(f"history entry {i}: {exc}") from None
            if play is None:
                raise _fail(f"history entry {i}: '{d.cards}' is not a play")
            if d.extra is not None and " ".join(play.jokers_as) != d.extra:
                raise _fail(f"history entry {i}: jokers stand for "
                            f"{codec.short_repr(' '.join(play.jokers_as))}, not {codec.short_repr(d.extra)}")
            history.append((d.seat, "play", play, False))
        else:
            history.append((d.seat, d.type, d.cards, bool(d.extra)))
    to_act = doc.get("to_act")
    if to_act is not None and (
        isinstance(to_act, bool) or not isinstance(to_act, int) or not 0 <= to_act < seats
    ):
        raise _fail(f"'to_act' must be a seat 0..{seats - 1} or null, got {codec.short_repr(to_act)}")
    finish = doc.get("finish_order")
    if finish is not None:
        finish = _int_list(doc, "finish_order", None)
    try:
        core_pos = _core.game._make_position(
            seed, game_index, _int(doc, "round", 0), dealer, levels,
            _int_list(doc, "scores", seats, [0] * seats), _int_list(doc, "final_failures", 2, [0, 0]),
            [tuple(p) for p in pairs_raw], hands, history, auto,
            -1 if to_act is None else to_act, finish, 1 if start == "random" else 0)
    except PositionError:
        raise
    except (ValueError, TypeError) as exc:  # a card text that is not cards
        raise _fail(str(exc)) from None
    return rules, core_pos


def _json_copy(position: Any) -> dict[str, Any]:
    """A copy of a position document of JSON values only; PositionError otherwise."""
    try:
        doc = json.loads(json.dumps(position))
    except RecursionError:
        raise _fail("the position is nested too deeply") from None
    except (TypeError, ValueError) as exc:
        raise _fail(f"not a JSON-ready position ({exc})") from None
    if not isinstance(doc, dict):
        raise _fail(f"a position is a dict, got {type(position).__name__}")
    return doc


def fill_hidden_hands(position: Mapping[str, Any], seed: int = 0) -> dict[str, Any]:
    """A position whose unknown hands (``null`` in ``hands``) are filled with cards
    consistent with everything else: what a seat that knows only its own hand and the public
    history needs before analysis (the filling is re-dealt by the sampler anyway).

    The engine's sampler deals them (cpp/engine/beliefs/hidden_hands.hpp): from the view the
    position gives (the public history, the given hands, the cards the tribute exchange shows
    an unknown hand holds), every assignment of the unseen cards equally likely among those
    the engine accepts (tribute cards where they must be, forced passes that were forced),
    drawn from ``seed`` (0 .. 2**64 - 1; R17). A position without an unknown hand is returned
    as it is (a copy). Raises :class:`PositionError` if the position is malformed, its known
    parts are inconsistent, or no filling agrees with them.
    """
    doc = _json_copy(position)
    try:
        table = seats_of(Rules.from_dict(doc.get("rules", {})))
    except (TypeError, ValueError) as exc:
        raise _fail(f"bad rules: {exc}") from None
    hands = doc.get("hands")
    if not isinstance(hands, list) or len(hands) != table:
        raise _fail(f"'hands' must list {table} entries (card text, or null for an unknown hand)")
    unknown = [s for s, h in enumerate(hands) if h is None]
    if not unknown:
        return doc
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an integer in [0, 18446744073709551615], "
                         f"got {codec.short_repr(seed)}")
    rules, core_pos = _parse_position(doc, unknown_ok=True)
    filled = _core.beliefs.fill_hidden_hands(rules._core, core_pos, unknown, seed)
    doc["hands"] = [filled[s] if h is None else h for s, h in enumerate(hands)]
    return doc
