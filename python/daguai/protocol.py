"""The network forms of daguai: actions, plays, views and games (the table protocol).

The events themselves (record lines, decisions, a view's history, what each audience sees)
are encoded by the one event codec, :mod:`daguai.codec` (``codec.encode``, ``codec.restrict``,
``codec.decision``, ``codec.entry_decision``). The table server's messages (``daguai serve``,
docs/protocol.md) are built from both; the JSON
Schema of every message ships with the package (:func:`schema`).

Forms
-----
- **action text** (``str(action)``, read back by :func:`parse_action`): ``"pass"``,
  ``"anti_tribute"``, ``"tribute 2h"``, ``"return 5c"``, ``"offer 3s 4s"``, ``"take 3s"``, and
  for a play its cards, then ``as`` and the faces its jokers stand for when there are any
  (``"5s 5s 5s 5c BJ as 3s"``, R6). ``"play "`` may prefix a play. The keyword ``as`` is
  lowercase; in action texts the ace of spades is written ``As`` (as ``str`` prints it).
- **action JSON** (:func:`action_to_json`): ``{"type", "seat", "cards"?, "as"?}``.
- **decision** (``Game.to_json``'s ``actions``): ``[seat, type, cards?, as?]``
  (:func:`daguai.codec.decision`).
- **record entry** (:func:`daguai.codec.encode`): one line of a JSON Lines record (docs/records.md).
- **view** (:func:`view_to_json`): what one seat may know (R16); ``seat=None`` is the public
  view a spectator gets.

Errors: a value of the wrong shape or type raises :class:`daguai.errors.CodecError`, a bad
action text ``IllegalActionError`` (both ValueErrors, docs/errors.md).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from . import _core, codec
from ._core.core import IllegalActionError
from ._core.game import Action
from ._core.plays import IllegalPlayError, Play
from .codec import decisions, dumps, play_to_json, result_to_json
from .errors import CodecError, ReplayError
from .rules import Rules
from .table import table_info

__all__ = [
    "PROTOCOL_VERSION", "RECORD_FORMAT", "ACTION_TYPES", "ReplayError",
    "play_to_json", "play_from_json", "action_to_json", "action_text", "parse_action",
    "action_from_json", "decisions", "apply_decision", "result_to_json", "view_to_json",
    "public_view", "position_to_json", "dumps", "schema", "SCHEMA_NAME", "old_reading",
]

#: Version of the table protocol (docs/protocol.md) and of its JSON Schema.
PROTOCOL_VERSION = 1
#: Version of the JSON game format and the JSON Lines record format (docs/records.md).
RECORD_FORMAT = 1
#: The JSON Schema shipped in the package (``daguai/schemas``).
SCHEMA_NAME = f"protocol-v{PROTOCOL_VERSION}.schema.json"

#: Decision types (R8, R11), the engine's (``_core.game.ActionType``), in its order.
ACTION_TYPES: tuple[str, ...] = tuple(t.name.lower() for t in _core.game.ActionType)


# ---- plays and actions -------------------------------------------------------------------
def play_from_json(d: Any, level: str, rules: Any) -> Play:
    """The Play of :func:`play_to_json`'s form at ``level`` under ``rules`` (a Rules);
    ``kind``/``key`` when present must agree. Raises ``IllegalPlayError``/``CardError``, and
    ``CodecError`` for ``rules`` that are not a :class:`daguai.Rules`."""
    if not isinstance(d, dict) or not isinstance(d.get("cards"), str):
        raise IllegalPlayError(f"a play is an object with 'cards' text, got {codec.short_repr(d)}")
    p = _read_play(d["cards"], d.get("as"), level, rules)
    if "kind" in d and d["kind"] != p.kind.name.lower():
        raise IllegalPlayError(f"'{d['cards']}' is a {p.kind.name.lower()}, not a {d['kind']}")
    if "key" in d and d["key"] != p.key:
        raise IllegalPlayError(f"'{d['cards']}' has key {p.key}, not {d['key']}")
    return p


def _read_play(cards: Any, declared: Any, level: str, rules: Any) -> Play:
    """R6: under ``wild="declare"`` ``declared`` chooses the reading; otherwise the rules fix
    it and ``declared``, when given, must be what they give (the engine's ``read_play``,
    ``cpp/engine/plays/play_text.hpp``)."""
    if not isinstance(rules, Rules):  # not an AttributeError from deep inside
        raise CodecError(f"rules must be a daguai.Rules, got {type(rules).__name__}")
    if declared is not None and not isinstance(declared, str):
        raise _core.core.CardError(f"'as' must be card text, got {codec.short_repr(declared)}")
    return _core.plays.read_play(cards, declared, level, rules._core)


def action_text(a: Action) -> str:
    """The text form of an action (``str(a)``), read back by :func:`parse_action`."""
    return str(a)


def action_to_json(a: Action) -> dict[str, Any]:
    """``{"type", "seat", "cards"?, "as"?}`` (``as``: faces the jokers of a play stand for)."""
    d: dict[str, Any] = {"type": a.type, "seat": a.seat}
    if a.type not in ("pass", "anti_tribute"):
        d["cards"] = str(a.cards)
    if a.type == "play" and a.play is not None and a.play.jokers_as:
        d["as"] = " ".join(a.play.jokers_as)
    return d


def parse_action(game: Any, text: Any) -> Action:
    """Read an action for the current decision of ``game`` from its text form.

    Accepts what ``str(action)`` prints (module docstring), ``"play <cards>"`` and bare card
    text read for the phase. The one parser of action text is the engine's
    (``parse_action`` in ``cpp/engine/game/action_text.hpp``): ``Game.step`` and every other path
    that reads text use it. Raises ``IllegalActionError`` / ``IllegalPlayError`` /
    ``CardError`` (ValueErrors) naming the problem; ``game`` is not changed.
    """
    state = getattr(game, "_state", game)
    if not isinstance(state, _core.game.GameState):
        raise IllegalActionError(f"parse_action needs a Game or GameState, got {type(game).__name__}")
    if not isinstance(text, str):
        raise IllegalActionError(f"an action text must be a string, got {type(text).__name__}")
    return _core.game.parse_action(game, text)


def action_from_json(game: Any, d: Any) -> Action:
    """Inverse of :func:`action_to_json` for ``game``'s current decision; ``seat`` must be
    the seat to act."""
    if not isinstance(d, dict) or d.get("type") not in ACTION_TYPES:
        raise IllegalActionError(
            f"an action is an object with a 'type' in {ACTION_TYPES}, got {codec.short_repr(d)}")
    seat = d.get("seat", game.current_player)
    if seat != game.current_player:
        raise IllegalActionError(
            f"seat {codec.short_repr(seat)} acts but it is seat {game.current_player}'s turn")
    kind = d["type"]
    if kind in ("pass", "anti_tribute"):
        return parse_action(game, kind)
    if not isinstance(d.get("cards"), str):
        raise IllegalActionError(f"a {kind} needs 'cards' text, got {codec.short_repr(d.get('cards'))}")
    text = f"{kind} {d['cards']}"
    if d.get("as") is not None:
        if not isinstance(d["as"], str):
            raise IllegalActionError(f"'as' must be card text, got {codec.short_repr(d['as'])}")
        text += f" as {d['as']}"
    return parse_action(game, text)


# ---- decisions: applied to a game (read by daguai.codec) ---------------------------------
def apply_decision(g: Any, a: Any, where: str = "decision") -> None:
    """Apply one decision ``[seat, type, cards?, as?]`` to ``g`` (a Game); raises
    :class:`ReplayError` naming ``where`` when it is malformed (:func:`daguai.codec.read_decision`),
    by the wrong seat or illegal (``g`` unchanged)."""
    d = codec.read_decision(a, where)
    if d.type == "auto_pass":
        g.auto_pass = d.extra
        return
    try:
        if d.type == "forfeit":
            g.forfeit(d.seat)
            return
        if d.seat != g.current_player:
            raise ReplayError(f"{where}: seat {d.seat} acts but it is seat {g.current_player}'s turn")
        if d.type in ("pass", "anti_tribute"):
            g.step(d.type)
        elif d.type == "play":
            declared = old_reading(d.cards, d.extra, g.level, g.rules) or d.extra
            g.step(_read_play(d.cards, declared, g.level, g.rules))
        else:
            if g.phase not in (d.type, "return" if d.type == "offer" else d.type):
                raise ReplayError(f"{where}: a {d.type} in phase {g.phase}")
            g.step(getattr(g, "state", g).to_action(d.cards))  # cards read for the phase
    except ReplayError:
        raise
    except (ValueError, IndexError, TypeError) as exc:
        raise ReplayError(f"{where}: {exc}") from None


def old_reading(cards: Any, declared: Any, level: str, rules: Any) -> str | None:
    """The ``as`` of today's reading of a play whose ``declared`` text is the reading an
    older engine wrote at a two-deck table, or None when it is not one.

    Before 4p2d plays carried their copy limit (bit 7 of the Play level byte, R18), the
    faces the jokers stand for were chosen as at three decks, so a record or game document
    of a 4p2d match could name a face three times (``"7h Ks Kd SJ SJ"`` as ``"Ks Ks"``;
    today ``"Ks Kh"``). Such a reading is accepted exactly when it is the one the
    three-deck rules give for these cards (under ``wild="declare"``: the declared one) and
    today's reading has the same kind and key; records and documents keep format 1 (they
    gained no field), so this reader serves both versions.
    """
    if not isinstance(cards, str) or not isinstance(declared, str) or table_info(rules.table)["decks"] != 2:
        return None
    try:
        mine = str(_core.core.Hand(cards)).split()
        faces = Counter(mine + declared.split())
        if not faces or max(faces.values()) <= 2:
            return None
        three = type(rules).from_dict({**rules.to_dict(), "table": "6p3d"})
        declare = rules.wild == "declare"
        old = _core.plays.classify(cards, level, three._core, declared if declare else None)
        if old is None or " ".join(old.jokers_as) != declared:
            return None
        again = None
        if declare:  # the same ranks, each face at most twice (R18)
            held = Counter(mine)
            picks = []
            for f in old.jokers_as:
                suit = next((s for s in "shdc" if held[f[0] + s] < 2), None)
                if suit is None:
                    return None
                held[f[0] + suit] += 1
                picks.append(f[0] + suit)
            again = " ".join(picks)
        now = _core.plays.classify(cards, level, rules._core, again)
    except ValueError:
        return None
    if now is None or (now.kind, now.key) != (old.kind, old.key):
        return None
    return " ".join(now.jokers_as)


# ---- views -------------------------------------------------------------------------------
def view_to_json(game: Any, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know (``Game.observation``, R16) as JSON values; ``seat=None`` gives
    :func:`public_view`."""
    if seat is None:
        return public_view(game)
    _check_game(game, "view_to_json")
    return game.observation(seat)  # plain dicts, lists, str, int, bool and None already


def public_view(game: Any) -> dict[str, Any]:
    """The view of a spectator: every public fact (R16), no hand, no returned / offered /
    taken card (:func:`daguai.codec.restrict_view` of a seat's view)."""
    _check_game(game, "public_view")
    return codec.restrict_view(game.observation(0), codec.SPECTATOR)


def _check_game(game: Any, what: str) -> None:
    if not callable(getattr(game, "observation", None)) or not hasattr(game, "state"):
        raise CodecError(f"{what} needs a Game, got {type(game).__name__}")


def position_to_json(game: Any) -> dict[str, Any]:
    """The position of ``game`` in the one form the engine rebuilds exactly today: its rules,
    seed and decisions (``Game.to_json``'s document)."""
    _check_game(game, "position_to_json")
    return json.loads(game.to_json())


# ---- schema ------------------------------------------------------------------------------
def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every message, shipped as package data; each
    message kind is a ``$defs`` entry (docs/protocol.md)."""
    from importlib import resources
    text = resources.files(__package__).joinpath("schemas", SCHEMA_NAME).read_text(encoding="utf-8")
    return json.loads(text)
