"""The one event codec of daguai: a table of event kinds, one ``encode(event, audience)``.

Every engine log event (a ``game.state.events()`` / ``InfoState.history`` tuple
``(name, seat, other, flags, payload)``) becomes JSON here and only here: record lines
(docs/records.md), the decisions of ``Game.to_json``, a position's history, the history of
``Game.observation`` and the table server's event messages (docs/protocol.md).

Audiences (R16)
---------------
An audience is a seat (``0 .. seats - 1``), :data:`SPECTATOR` (``None``: the public facts
only) or :data:`REFEREE` (the record writer: everything). What an audience may see of an
event is decided by the engine's one audience rule (``audience_sees`` in
``cpp/engine/game/audience.hpp``, which the information state uses too): this module never
decides secrecy itself, it only leaves out what that rule hides.

The table
---------
:data:`EVENTS` holds one :class:`EventKind` per event: its record fields, its fields in a
view's history, the fields its private part fills (and who sees them comes from the
engine's table, ``_core.game.EVENT_KINDS``), and its decision form. Adding an event kind is one
row here beside its row in ``kEventKinds`` (docs/development.md "Where to add what").

The documents built on these forms (positions, evaluation results, analyses, the server's
summaries) and their schema are :mod:`daguai.documents`.

Errors: every malformed input raises :class:`daguai.errors.CodecError` (a ``ValueError``),
a record or game document :class:`daguai.errors.ReplayError` (docs/errors.md).
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from . import _core
from .errors import CodecError, ReplayError
from .table import MAX_SEATS

__all__ = [
    "SPECTATOR", "REFEREE", "EventKind", "EVENTS", "encode", "restrict", "decision",
    "decisions", "entry_decision", "position_entry", "read_decision", "restrict_view",
    "play_to_json", "result_to_json", "dumps", "short_repr", "Decision",
]

#: The audience of a spectator: public facts only (R16).
SPECTATOR = None
#: The audience of the record: every card (records, positions, ``Game.to_json``).
REFEREE = "referee"

_SHORT = reprlib.Repr()
_SHORT.maxlevel = 4
_SHORT.maxstring = 60
_SHORT.maxother = 60
_SHORT.maxlist = _SHORT.maxdict = _SHORT.maxtuple = 8


def short_repr(x: Any) -> str:
    """A bounded ``repr`` for error messages: values nested thousands deep or megabytes long
    are cut (``...``) instead of recursing or flooding the message."""
    try:
        return _SHORT.repr(x)
    except (RecursionError, ValueError, TypeError):  # a hostile __repr__
        return f"<{type(x).__name__}>"


def dumps(doc: Any) -> str:
    """Compact JSON text (UTF-8 kept), the form every daguai document is written in."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def play_to_json(p: _core.plays.Play) -> dict[str, Any]:
    """``{"cards", "kind", "key", "as"?}``: the cards, R5 kind, R7 key and (R6) the faces the
    jokers stand for, when there are any."""
    d: dict[str, Any] = {"cards": str(p.cards), "kind": p.kind.name.lower(), "key": p.key}
    if p.jokers_as:
        d["as"] = " ".join(p.jokers_as)
    return d


def result_to_json(r: Mapping[str, Any]) -> dict[str, Any]:
    """A round result (``Game.result``) as JSON values (R9, R13, R14)."""
    if not isinstance(r, Mapping):
        raise CodecError(f"a round result is a dict, got {type(r).__name__}")
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in r.items()}


# ---- the table ----------------------------------------------------------------------------
# A form is one function of the event tuple's parts (seat s, other o, flags f, payload p)
# giving the whole entry: the fields in order, written out so a row reads like its JSON.
_Form = Callable[[int, int, int, Any], dict[str, Any]]
_Decide = Callable[[int, int, int, Any], list[Any]]


def _decide_play(s: int, o: int, f: int, p: Any) -> list[Any]:
    return [s, "play", str(p.cards), " ".join(p.jokers_as)] if p.jokers_as else [s, "play", str(p.cards)]


def _hidden(name: str, p: Any) -> dict[str, Any]:
    """A private field: absent when the information state already hid it (payload None)."""
    return {} if p is None else {name: str(p)}


class EventKind(NamedTuple):
    """One row of the event table."""

    #: The event's name in records, views and the protocol (``EventType`` in the engine).
    name: str
    #: Its record entry (docs/records.md).
    record: _Form
    #: Its entry in a view's history (None: not in views).
    view: _Form | None
    #: JSON keys its private part fills, per form: (record keys, view keys).
    private: tuple[tuple[str, ...], tuple[str, ...]]
    #: Its decision: the record keys after ``[seat, name]`` (None: not a decision); a
    #: ``"?key"`` is appended only when present.
    decision: tuple[str, ...] | None
    #: Its decision written from the event directly, None for a forced pass (the fast path
    #: of ``Game.to_json``; ``tests/game/test_codec.py`` checks it equals the decision of its
    #: record entry).
    decide: _Decide | None = None
    #: Whether its decision is part of a round's history in a position (docs/records.md).
    in_position: bool = True
    #: Who sees the private part: "none", "pair" (the two seats of a tribute pair, R11) or
    #: "owner" (a deal's hands, R2), from the engine's ``kEventKinds``.
    secret: str = "none"


_ROWS = [
    EventKind("deal",
              lambda s, o, f, p: {"event": "deal", "round": p["round"], "dealer": p["dealer"],
                                  "levels": list(p["levels"]), "hands": [str(h) for h in p["hands"]]},
              None, (("hands",), ()), None),
    EventKind("tribute",
              lambda s, o, f, p: {"event": "tribute", "seat": s, "to": o, "card": str(p)},
              lambda s, o, f, p: {"event": "tribute", "seat": s, "to": o, "card": str(p)},
              ((), ()), ("card",), lambda s, o, f, p: [s, "tribute", str(p)]),
    EventKind("anti_tribute",
              lambda s, o, f, p: {"event": "anti_tribute", "seat": s, "to": o, "jokers": str(p)},
              lambda s, o, f, p: {"event": "anti_tribute", "seat": s, "to": o, "jokers": str(p)},
              ((), ()), (), lambda s, o, f, p: [s, "anti_tribute"]),
    EventKind("return",
              lambda s, o, f, p: {"event": "return", "seat": s, "to": o, **_hidden("card", p)},
              lambda s, o, f, p: {"event": "return", "seat": s, "to": o, **_hidden("cards", p)},
              (("card",), ("cards",)), ("card",), lambda s, o, f, p: [s, "return", str(p)]),
    EventKind("offer",
              lambda s, o, f, p: {"event": "offer", "seat": s, "to": o, **_hidden("cards", p)},
              lambda s, o, f, p: {"event": "offer", "seat": s, "to": o, **_hidden("cards", p)},
              (("cards",), ("cards",)), ("cards",), lambda s, o, f, p: [s, "offer", str(p)]),
    EventKind("take",
              lambda s, o, f, p: {"event": "take", "seat": s, "to": o, **_hidden("card", p)},
              lambda s, o, f, p: {"event": "take", "seat": s, "to": o, **_hidden("cards", p)},
              (("card",), ("cards",)), ("card",), lambda s, o, f, p: [s, "take", str(p)]),
    EventKind("play",
              lambda s, o, f, p: {"event": "play", "seat": s, **play_to_json(p)},
              lambda s, o, f, p: {"event": "play", "seat": s, **play_to_json(p)},
              ((), ()), ("cards", "?as"), _decide_play),
    EventKind("pass",
              lambda s, o, f, p: {"event": "pass", "seat": s, "auto": bool(f)},
              lambda s, o, f, p: {"event": "pass", "seat": s, "auto": bool(f)},
              ((), ()), (), lambda s, o, f, p: None if f else [s, "pass"]),  # forced: re-made
    EventKind("round_end",
              lambda s, o, f, p: {"event": "round_end", **result_to_json(p)},
              None, ((), ()), None),
    EventKind("forfeit",
              lambda s, o, f, p: {"event": "forfeit", "seat": s, **result_to_json(p)},
              None, ((), ()), (), lambda s, o, f, p: [s, "forfeit"], in_position=False),
    EventKind("auto_pass",
              lambda s, o, f, p: {"event": "auto_pass", "on": bool(f)},
              lambda s, o, f, p: {"event": "auto_pass", "seat": s},
              ((), ()), ("on",), lambda s, o, f, p: [-1, "auto_pass", bool(f)], in_position=False),
]


def _join_engine_table(rows: list[EventKind]) -> dict[str, EventKind]:
    """The rows keyed by name, each with its secret and decision from the engine's table."""
    engine = {name: (secret, decision) for name, secret, decision in _core.game.EVENT_KINDS}
    if set(engine) != {r.name for r in rows}:
        raise ImportError(f"the codec's event table {sorted(r.name for r in rows)} does not match "
                          f"the engine's {sorted(engine)} (rebuild _core?)")
    out = {}
    for r in rows:
        secret, is_decision = engine[r.name]
        if is_decision != (r.decision is not None) or is_decision != (r.decide is not None):
            raise ImportError(f"event {r.name!r}: the codec and the engine disagree on whether "
                              "it is a decision")
        out[r.name] = r._replace(secret=secret)
    return out


#: Every event kind, by name.
EVENTS: dict[str, EventKind] = _join_engine_table(_ROWS)
_DECIDE = {name: k.decide for name, k in EVENTS.items()}  # decisions()'s fast path
_RECORD = {name: k.record for name, k in EVENTS.items()}  # encode()'s fast path (the record)


# ---- audiences ---------------------------------------------------------------------------
def _audience_code(audience: Any) -> int:
    """The engine's code of an audience (seat, SPECTATOR -1, REFEREE -2)."""
    if type(audience) is int and 0 <= audience < MAX_SEATS:
        return audience
    if audience is SPECTATOR:
        return _core.game.SPECTATOR
    if audience == REFEREE and isinstance(audience, str):
        return _core.game.REFEREE
    if isinstance(audience, bool) or not isinstance(audience, int) or not 0 <= audience < MAX_SEATS:
        raise CodecError(f"an audience is a seat 0..{MAX_SEATS - 1}, None (a spectator) or {REFEREE!r}, "
                         f"got {short_repr(audience)}")
    return audience


def _sees(kind: EventKind, seat: Any, other: Any, code: int) -> bool:
    """R16 through the engine's one rule (``cpp/engine/game/audience.hpp``)."""
    if kind.secret == "none" or code == _core.game.REFEREE:
        return True
    for name, v in (("seat", seat), ("to", other)):
        if isinstance(v, bool) or not isinstance(v, int) or not -1 <= v < MAX_SEATS:
            raise CodecError(f"a {kind.name} event's {name!r} must be a seat, got {short_repr(v)}")
    return _core.game.audience_sees(kind.name, seat, other, code)


def _kind_of(name: Any) -> EventKind:
    kind = EVENTS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise CodecError(f"unknown event {short_repr(name)} (one of {', '.join(EVENTS)})")
    return kind


def _unpack(event: Any) -> tuple[EventKind, int, int, int, Any]:
    if type(event) is tuple and len(event) == 5:  # the engine's tuples: the fast path
        kind = EVENTS.get(event[0])  # type: ignore[call-overload]
        if kind is not None:
            return (kind, *event[1:])  # type: ignore[return-value]
    if not isinstance(event, (tuple, list)) or len(event) != 5:
        raise CodecError("an engine event is a tuple (name, seat, other, flags, payload), got "
                         f"{short_repr(event)}")
    name, s, o, f, p = event
    return _kind_of(name), s, o, f, p


def restrict(entry: Mapping[str, Any], audience: Any, *, form: str = "record") -> dict[str, Any]:
    """A record entry (``form="record"``) or a view's history entry (``form="view"``) as
    ``audience`` may see it (R16): a deal shows only the audience's own hand (others
    ``null``); the cards returned, offered and taken in a tribute pair are left out for every
    seat but the pair's two (R11); everything else is public. An entry the audience sees
    whole is returned itself (not a copy), so a caller can share one encoding."""
    if not isinstance(entry, dict) and not isinstance(entry, Mapping):
        raise CodecError(f"an event entry is a dict, got {type(entry).__name__}")
    kind = _kind_of(entry.get("event"))
    code = _audience_code(audience)
    if kind.secret == "none":
        return entry  # type: ignore[return-value]
    keys = kind.private[0 if form == "record" else 1]
    if not keys or code == _core.game.REFEREE:
        return entry  # type: ignore[return-value]
    if kind.secret == "owner":
        hands = entry.get(keys[0])
        if not isinstance(hands, list):
            raise CodecError(f"a {kind.name} entry's {keys[0]!r} must be a list, got {short_repr(hands)}")
        return {**entry, keys[0]: [h if _sees(kind, s, -1, code) else None for s, h in enumerate(hands)]}
    if _sees(kind, entry.get("seat"), entry.get("to"), code):
        return entry  # type: ignore[return-value]
    return {k: v for k, v in entry.items() if k not in keys}


def encode(event: Any, audience: Any = REFEREE, *, form: str = "record") -> dict[str, Any] | None:
    """The JSON entry of one engine event as ``audience`` may see it (R16).

    ``form="record"``: a record line (docs/records.md; ``audience=REFEREE``, the default, is
    the whole record; a seat or ``SPECTATOR`` is what the table server sends them).
    ``form="view"``: an entry of ``Game.observation``'s history (None for kinds that are not
    in views: deals, results, forfeits).
    """
    if audience is REFEREE and form == "record":  # the whole record: the fast path
        try:
            name, s, o, f, p = event
            return _RECORD[name](s, o, f, p)
        except (AttributeError, KeyError, TypeError, ValueError):
            pass  # the checked path below names the problem
    if type(event) is tuple and len(event) == 5 and (kind := EVENTS.get(event[0])) is not None:
        _, s, o, f, p = event  # the engine's tuples
    else:
        kind, s, o, f, p = _unpack(event)
    if form == "record":
        write = kind.record
    elif form == "view":
        if kind.view is None:
            return None
        write = kind.view
    else:
        raise CodecError(f"form must be 'record' or 'view', got {short_repr(form)}")
    try:
        entry = write(s, o, f, p)
    except (AttributeError, KeyError, TypeError) as exc:
        raise CodecError(f"a malformed {kind.name} event {short_repr(event)} ({exc})") from None
    if audience is REFEREE or (kind.secret == "none" and type(audience) is int and 0 <= audience < MAX_SEATS):
        return entry
    return restrict(entry, audience, form=form)


def restrict_view(view: Mapping[str, Any], audience: Any) -> dict[str, Any]:
    """A seat's observation (``Game.observation``) cut to what ``audience`` may see, for the
    spectator's view: no hand, no seat, and the pair-private tribute cards and history
    cards only where the audience rule allows (R11, R16)."""
    if not isinstance(view, Mapping):
        raise CodecError(f"a view is a dict, got {type(view).__name__}")
    code = _audience_code(audience)
    pair = EVENTS["return"]
    v = dict(view)
    if code != v.get("seat"):
        v.pop("hand", None)
        v["seat"] = audience if code >= 0 else None
        v["team"] = audience % 2 if code >= 0 else None
    v["tributes"] = [t if _sees(pair, t["from"], t["to"], code) else {**t, "returned": None, "offer": None}
                     for t in v["tributes"]]
    v["history"] = [e if type(e) is dict and getattr(EVENTS.get(e.get("event")), "secret", "") == "none"
                    else restrict(e, audience, form="view") for e in v["history"]]
    return v


# ---- decisions ---------------------------------------------------------------------------
def entry_decision(e: Any) -> list[Any] | None:
    """The decision ``[seat, type, cards?, as?]`` a record entry carries (None for deals,
    results and forced passes); raises :class:`ReplayError` for an entry that is not one."""
    if not isinstance(e, dict) and not isinstance(e, Mapping):
        raise ReplayError(f"an event entry is a dict, got {type(e).__name__}")
    try:
        kind = _kind_of(e.get("event"))
    except CodecError as exc:
        raise ReplayError(str(exc)) from None
    return _decision_of_entry(kind, e)


def _decision_of_entry(kind: EventKind, e: Mapping[str, Any]) -> list[Any] | None:
    if kind.decision is None or (kind.name == "pass" and e.get("auto")):
        return None
    out = [-1 if kind.name == "auto_pass" else e.get("seat"), kind.name]
    for k in kind.decision:
        if k[0] != "?":
            out.append(e.get(k))
        elif k[1:] in e:
            out.append(e[k[1:]])
    return out


def decision(event: Any) -> list[Any] | None:
    """The decision an engine event records (``Game.to_json``'s ``actions``), or None for
    events that are not decisions (deals, results, forced passes the engine re-makes); the
    same as the decision of its record entry (:func:`entry_decision`)."""
    kind, s, o, f, p = _unpack(event)
    if kind.decide is None:
        return None
    try:
        return kind.decide(s, o, f, p)
    except (AttributeError, KeyError, TypeError) as exc:
        raise CodecError(f"a malformed {kind.name} event {short_repr(event)} ({exc})") from None


def decisions(events: Iterable[Any]) -> list[list[Any]]:
    """The decisions among engine log events (``game.state.events()`` tuples)."""
    events = list(events)
    out = []
    try:
        for name, s, o, f, p in events:  # the engine's tuples: the fast path
            decide = _DECIDE[name]
            if decide is not None:
                d = decide(s, o, f, p)
                if d is not None:
                    out.append(d)
    except (AttributeError, KeyError, TypeError, ValueError):  # the checked path names the event
        return [d for d in map(decision, events) if d is not None]
    return out


def position_entry(event: Any) -> list[Any] | None:
    """An engine event as a position's history entry (docs/records.md "Positions"): its
    decision, with forced passes as ``[seat, "pass", "auto"]``; None for the rest (deals,
    results, changes of ``auto_pass``: the position keeps the current setting)."""
    kind = _unpack(event)[0]
    if kind.decision is None or not kind.in_position:
        return None
    if kind.name == "pass" and event[3]:
        return [event[1], "pass", "auto"]
    return decision(event)


class Decision(NamedTuple):
    """A decision entry read by :func:`read_decision`."""

    seat: int
    type: str
    cards: str | None = None
    #: a play's ``as`` (or None); a pass: whether it was forced; an auto_pass change: on/off.
    extra: Any = None


def read_decision(a: Any, where: str, *, position: bool = False,
                  error: Callable[[str], Exception] = ReplayError) -> Decision:
    """The one reader of decision entries ``[seat, type, cards?, as?]``: of ``Game.to_json``
    (``position=False``) and of a position's history (``position=True``: forced passes
    ``[seat, "pass", "auto"]``; no ``auto_pass`` changes or forfeits). Checks the shape only
    (the engine checks legality); raises ``error`` naming ``where``."""
    if not isinstance(a, list) or len(a) < 2 or isinstance(a[0], bool) or not isinstance(a[0], int) \
            or not isinstance(a[1], str):
        raise error(f"{where}: malformed action {short_repr(a)}")
    seat, kind = a[0], a[1]
    row = EVENTS.get(kind)
    if row is None or row.decision is None or (position and not row.in_position):
        raise error(f"{where}: unknown action {short_repr(kind)}")
    if kind == "auto_pass":
        if len(a) != 3 or not isinstance(a[2], bool):
            raise error(f"{where}: malformed auto_pass change {short_repr(a)}")
        return Decision(seat, kind, None, a[2])
    if kind == "pass":
        if len(a) == 2 or (position and len(a) == 3 and a[2] == "auto"):
            return Decision(seat, kind, None, len(a) == 3)
        raise error(f"{where}: a pass is [seat, 'pass']" + (" or [seat, 'pass', 'auto']" if position else ""))
    if kind in ("anti_tribute", "forfeit"):
        return Decision(seat, kind)
    if len(a) < 3:
        raise error(f"{where}: a {kind} without cards")
    if not isinstance(a[2], str) or len(a) > (4 if kind == "play" else 3):
        raise error(f"{where}: a {kind} is [seat, '{kind}', cards{', jokers_as?' if kind == 'play' else ''}]")
    declared = a[3] if len(a) > 3 else None
    if declared is not None and not isinstance(declared, str):
        raise error(f"{where}: 'as' must be card text, got {short_repr(declared)}")
    return Decision(seat, kind, a[2], declared)
