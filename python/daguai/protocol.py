"""The one JSON codec of daguai: actions, plays, events, views, results and games.

Every JSON document the project writes or reads goes through this module: ``Game.to_json``
and ``Game.from_json``, JSON Lines records and :func:`daguai.replay`, ``Game.observation``'s
history, and the table server's messages (``daguai serve``, docs/protocol.md). The JSON
Schema of every message ships with the package (:func:`schema`).

Forms
-----
- **action text** (``str(action)``, read back by :func:`parse_action`): ``"pass"``,
  ``"anti_tribute"``, ``"tribute 2h"``, ``"return 5c"``, ``"offer 3s 4s"``, ``"take 3s"``, and
  for a play its cards, then ``as`` and the faces its jokers stand for when there are any
  (``"5s 5s 5s 5c BJ as 3s"``, R6). ``"play "`` may prefix a play. The keyword ``as`` is
  lowercase; in action texts the ace of spades is written ``As`` (as ``str`` prints it).
- **action JSON** (:func:`action_to_json`): ``{"type", "seat", "cards"?, "as"?}``.
- **decision** (``Game.to_json``'s ``actions``): ``[seat, type, cards?, as?]``.
- **record entry** (:func:`event_to_json`): one line of a JSON Lines record (docs/records.md).
- **view** (:func:`view_to_json`): what one seat may know (R16); ``seat=None`` is the public
  view a spectator gets.

Positions (a game state without its history) have no engine type yet; :func:`position_to_json`
encodes the only position the current code can rebuild exactly: the game itself (rules, seed
and decisions). A position codec slots in beside it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from . import _core
from ._core import Action, Play

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

__all__ = [
    "PROTOCOL_VERSION", "RECORD_FORMAT", "ACTION_TYPES", "ReplayError",
    "play_to_json", "play_from_json", "action_to_json", "action_text", "parse_action",
    "action_from_json", "decision_of_event", "decisions", "apply_decision", "event_to_json",
    "entry_decision", "event_for_seat", "history_entry", "result_to_json", "view_to_json",
    "public_view", "position_to_json", "dumps", "schema", "SCHEMA_NAME",
]

#: Version of the table protocol (docs/protocol.md) and of its JSON Schema.
PROTOCOL_VERSION = 1
#: Version of the JSON game format and the JSON Lines record format (docs/records.md).
RECORD_FORMAT = 1
#: The JSON Schema shipped in the package (``daguai/schemas``).
SCHEMA_NAME = f"protocol-v{PROTOCOL_VERSION}.schema.json"

#: Decision types (R8, R11).
ACTION_TYPES = ("play", "pass", "tribute", "anti_tribute", "return", "offer", "take")
_CARD_VERBS = ("tribute", "return", "offer", "take")


class ReplayError(ValueError):
    """A record or game JSON that is corrupt, tampered with, or not legal."""


def dumps(doc: Any) -> str:
    """Compact JSON text (UTF-8 kept), the form every daguai document is written in."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


# ---- plays and actions -------------------------------------------------------------------
def play_to_json(p: Play) -> dict[str, Any]:
    """``{"cards", "kind", "key", "as"?}``: the cards, R5 kind, R7 key and (R6) the faces the
    jokers stand for, when there are any."""
    d: dict[str, Any] = {"cards": str(p.cards), "kind": p.kind.name.lower(), "key": p.key}
    if p.jokers_as:
        d["as"] = " ".join(p.jokers_as)
    return d


def play_from_json(d: Any, level: str, rules: Any) -> Play:
    """The Play of :func:`play_to_json`'s form at ``level`` under ``rules`` (a Rules);
    ``kind``/``key`` when present must agree. Raises ``IllegalPlayError``/``CardError``."""
    if not isinstance(d, dict) or not isinstance(d.get("cards"), str):
        raise _core.IllegalPlayError(f"a play is an object with 'cards' text, got {d!r}")
    p = _read_play(d["cards"], d.get("as"), level, rules)
    if "kind" in d and d["kind"] != p.kind.name.lower():
        raise _core.IllegalPlayError(f"'{d['cards']}' is a {p.kind.name.lower()}, not a {d['kind']}")
    if "key" in d and d["key"] != p.key:
        raise _core.IllegalPlayError(f"'{d['cards']}' has key {p.key}, not {d['key']}")
    return p


def _read_play(cards: Any, declared: Any, level: str, rules: Any) -> Play:
    """R6: under ``wild="declare"`` ``declared`` chooses the reading; otherwise the rules fix
    it and ``declared``, when given, must be what they give (the engine's ``read_play``,
    ``cpp/engine/actions.hpp``)."""
    if declared is not None and not isinstance(declared, str):
        raise _core.CardError(f"'as' must be card text, got {declared!r}")
    return _core.read_play(cards, declared, level, rules._core)


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


def parse_action(game: Game | _core.GameState, text: Any) -> Action:
    """Read an action for the current decision of ``game`` from its text form.

    Accepts what ``str(action)`` prints (module docstring), ``"play <cards>"`` and bare card
    text read for the phase. The one parser of action text is the engine's
    (``parse_action`` in ``cpp/engine/actions.hpp``): ``Game.step`` and every other path
    that reads text use it. Raises ``IllegalActionError`` / ``IllegalPlayError`` /
    ``CardError`` (ValueErrors) naming the problem; ``game`` is not changed.
    """
    if not isinstance(text, str):
        raise _core.IllegalActionError(f"an action text must be a string, got {type(text).__name__}")
    return _core.parse_action(game, text)


def action_from_json(game: Game, d: Any) -> Action:
    """Inverse of :func:`action_to_json` for ``game``'s current decision; ``seat`` must be
    the seat to act."""
    if not isinstance(d, dict) or d.get("type") not in ACTION_TYPES:
        raise _core.IllegalActionError(f"an action is an object with a 'type' in {ACTION_TYPES}, got {d!r}")
    seat = d.get("seat", game.current_player)
    if seat != game.current_player:
        raise _core.IllegalActionError(f"seat {seat!r} acts but it is seat {game.current_player}'s turn")
    kind = d["type"]
    if kind in ("pass", "anti_tribute"):
        return parse_action(game, kind)
    if not isinstance(d.get("cards"), str):
        raise _core.IllegalActionError(f"a {kind} needs 'cards' text, got {d.get('cards')!r}")
    text = f"{kind} {d['cards']}"
    if d.get("as") is not None:
        if not isinstance(d["as"], str):
            raise _core.IllegalActionError(f"'as' must be card text, got {d['as']!r}")
        text += f" as {d['as']}"
    return parse_action(game, text)


# ---- decisions (the actions of Game.to_json) ---------------------------------------------
def decision_of_event(name: str, s: int, other: int, flags: int, payload: Any) -> list[Any] | None:
    """The decision ``[seat, type, cards?, as?]`` an engine log event records, or None for
    events that are not decisions (deals, results, forced passes the engine re-makes)."""
    if name == "play":
        a = [s, "play", str(payload.cards)]
        if payload.jokers_as:
            a.append(" ".join(payload.jokers_as))
        return a
    if name == "pass":
        return None if flags else [s, "pass"]
    if name == "auto_pass":
        return [-1, "auto_pass", bool(flags)]
    if name in ("anti_tribute", "forfeit"):
        return [s, name]
    if name in _CARD_VERBS:
        return [s, name, str(payload)]
    return None


def decisions(events: Iterable[tuple]) -> list[list[Any]]:
    """The decisions among engine log events (``game.state.events()`` tuples)."""
    out = []
    for e in events:
        d = decision_of_event(*e)
        if d is not None:
            out.append(d)
    return out


def apply_decision(g: Game, a: Any, where: str = "decision") -> None:
    """Apply one decision ``[seat, type, cards?, as?]`` to ``g``; raises :class:`ReplayError`
    naming ``where`` when it is malformed, by the wrong seat or illegal (``g`` unchanged)."""
    if not isinstance(a, list) or len(a) < 2 or not isinstance(a[0], int) or not isinstance(a[1], str):
        raise ReplayError(f"{where}: malformed action {a!r}")
    seat, kind = a[0], a[1]
    if kind == "auto_pass":
        if len(a) != 3 or not isinstance(a[2], bool):
            raise ReplayError(f"{where}: malformed auto_pass change {a!r}")
        g.auto_pass = a[2]
        return
    try:
        if kind == "forfeit":
            g.forfeit(seat)
            return
        if seat != g.current_player:
            raise ReplayError(f"{where}: seat {seat} acts but it is seat {g.current_player}'s turn")
        if kind in ("pass", "anti_tribute"):
            g.step(kind)
        elif kind == "play":
            if len(a) < 3:
                raise ReplayError(f"{where}: a play without cards")
            p = _read_play(a[2], a[3] if len(a) > 3 else None, g.level, g.rules)
            g.step(p)
        elif kind in _CARD_VERBS:
            if g.phase not in (kind, "return" if kind == "offer" else kind):
                raise ReplayError(f"{where}: a {kind} in phase {g.phase}")
            if len(a) < 3:
                raise ReplayError(f"{where}: a {kind} without cards")
            g.step(getattr(g, "state", g).to_action(a[2]))  # cards read for the phase
        else:
            raise ReplayError(f"{where}: unknown action {kind!r}")
    except ReplayError:
        raise
    except (ValueError, IndexError, TypeError) as exc:
        raise ReplayError(f"{where}: {exc}") from None


# ---- events ------------------------------------------------------------------------------
def result_to_json(r: dict[str, Any]) -> dict[str, Any]:
    """A round result (``Game.result``) as JSON values (R9, R13, R14)."""
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in r.items()}


def event_to_json(name: str, s: int, other: int, flags: int, payload: Any) -> dict[str, Any]:
    """The record entry (docs/records.md) of one engine log event (``game.state.events()``)."""
    if name == "deal":
        return {"event": "deal", "round": payload["round"], "dealer": payload["dealer"],
                "levels": list(payload["levels"]), "hands": [str(h) for h in payload["hands"]]}
    if name == "play":
        return {"event": "play", "seat": s, **play_to_json(payload)}
    if name == "pass":
        return {"event": "pass", "seat": s, "auto": bool(flags)}
    if name == "auto_pass":
        return {"event": "auto_pass", "on": bool(flags)}
    if name == "anti_tribute":
        return {"event": "anti_tribute", "seat": s, "to": other, "jokers": str(payload)}
    if name in ("tribute", "return", "take"):
        return {"event": name, "seat": s, "to": other, "card": str(payload)}
    if name == "offer":
        return {"event": "offer", "seat": s, "to": other, "cards": str(payload)}
    if name == "forfeit":
        return {"event": "forfeit", "seat": s, **result_to_json(payload)}
    return {"event": name, **result_to_json(payload)}  # round_end


def entry_decision(e: dict[str, Any]) -> list[Any] | None:
    """The decision a record entry carries (None for deals, results and forced passes);
    raises :class:`ReplayError` for an unknown event."""
    kind = e["event"]
    seat = e.get("seat")
    if kind == "play":
        return [seat, "play", e.get("cards")] + ([e["as"]] if "as" in e else [])
    if kind == "pass":
        return None if e.get("auto") else [seat, "pass"]
    if kind == "auto_pass":
        return [-1, "auto_pass", e.get("on")]
    if kind in ("anti_tribute", "forfeit"):
        return [seat, kind]
    if kind in ("tribute", "return", "take"):
        return [seat, kind, e.get("card")]
    if kind == "offer":
        return [seat, kind, e.get("cards")]
    if kind in ("deal", "round_end"):
        return None
    raise ReplayError(f"unknown event {kind!r}")


def event_for_seat(e: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A record entry as ``seat`` may see it (R16); ``seat=None``: the public form.

    A deal shows only the seat's own hand (others ``null``); the cards returned, offered and
    taken in a tribute pair are seen only by its two players (R11); everything else is public.
    """
    kind = e["event"]
    if kind == "deal":
        return {**e, "hands": [h if s == seat else None for s, h in enumerate(e["hands"])]}
    if kind in ("return", "take", "offer") and seat not in (e["seat"], e["to"]):
        return {k: v for k, v in e.items() if k not in ("card", "cards")}
    return e


def history_entry(event: tuple, seat: int) -> dict[str, Any] | None:
    """An engine log event (a ``game.state.events()`` tuple) as it appears in
    ``Game.observation(seat)["history"]`` (None for deals and results): public fields, and
    the cards of a tribute pair only for its two players."""
    name, s, other, flags, payload = event
    if name in ("deal", "round_end", "forfeit"):
        return None
    ev: dict[str, Any] = {"event": name, "seat": s}
    if name == "play":
        ev.update(play_to_json(payload))
    elif name == "pass":
        ev["auto"] = bool(flags)
    elif name == "tribute":
        ev.update({"to": other, "card": str(payload)})
    elif name == "anti_tribute":
        ev.update({"to": other, "jokers": str(payload)})
    elif name in ("return", "offer", "take"):
        ev["to"] = other  # that it happened is public, not the cards
        if seat in (s, other):
            ev["cards"] = str(payload)
    return ev


# ---- views -------------------------------------------------------------------------------
def view_to_json(game: Game, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know (``Game.observation``, R16) as JSON values; ``seat=None`` gives
    :func:`public_view`."""
    if seat is None:
        return public_view(game)
    return game.observation(seat)  # plain dicts, lists, str, int, bool and None already


def public_view(game: Game) -> dict[str, Any]:
    """The view of a spectator: every public fact (R16), no hand, no returned / offered /
    taken card."""
    v = game.observation(0)
    v.pop("hand", None)
    v["seat"] = None
    v["team"] = None
    for t in v["tributes"]:
        t["returned"] = None
        t["offer"] = None
    for e in v["history"]:
        if e["event"] in ("return", "offer", "take"):
            e.pop("cards", None)
    return v


def position_to_json(game: Game) -> dict[str, Any]:
    """The position of ``game`` in the one form the engine rebuilds exactly today: its rules,
    seed and decisions (``Game.to_json``'s document)."""
    return json.loads(game.to_json())


# ---- schema ------------------------------------------------------------------------------
def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every message, shipped as package data; each
    message kind is a ``$defs`` entry (docs/protocol.md)."""
    from importlib import resources
    text = resources.files(__package__).joinpath("schemas", SCHEMA_NAME).read_text(encoding="utf-8")
    return json.loads(text)
