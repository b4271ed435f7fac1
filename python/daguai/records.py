"""Records (JSON Lines, docs/records.md) read back: the lines parsed, the header's game
built and every line re-played through the engine and compared with its own log.

The functions take the game class (:class:`daguai.Game`) so that this module needs nothing
of ``game.py``, which calls them."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any, TypeVar

from . import codec, protocol
from .errors import ReplayError, read_path, safe_json_loads
from .protocol import RECORD_FORMAT
from .rules import Rules

#: Where a match begins (docs/game.md "Start states"): a fresh match, or a random point of one.
STARTS = ("fresh", "random")

G = TypeVar("G")


def _json_normal(x: Any) -> Any:
    """JSON's view of a value (tuples become lists), for exact comparisons: ``true`` and
    ``1.0`` stay apart from ``1`` (Python's ``True == 1.0 == 1`` would let a deal's
    ``"dealer": true`` pass for seat 1)."""
    if isinstance(x, (list, tuple)):
        return [_json_normal(v) for v in x]
    if isinstance(x, dict):
        return {k: _json_normal(v) for k, v in x.items()}
    if isinstance(x, (bool, float)):
        return (type(x).__name__, x)
    return x


def new_game(cls: type[G], header: dict[str, Any]) -> G:
    """The game a record's or game document's header starts (``cls``: :class:`daguai.Game`)."""
    if header.get("position") is not None:  # a game that began from a position
        try:
            return cls.from_position(header["position"])
        except ValueError as exc:
            raise ReplayError(f"bad start position: {exc}") from None
    try:
        rules = Rules.from_dict(header["rules"])
        seed, game, auto = header["seed"], header.get("game", 0), header.get("auto_pass", False)
    except KeyError as exc:
        raise ReplayError(f"header is missing {exc}") from None
    except ValueError as exc:
        raise ReplayError(f"bad rules in header: {exc}") from None
    if not isinstance(auto, bool):
        raise ReplayError("auto_pass must be true or false")
    start = header.get("start", "fresh")
    if start not in STARTS:
        raise ReplayError(f"start must be 'fresh' or 'random', got {codec.short_repr(start)}")
    try:
        return cls(seed, rules, auto_pass=auto, game=game, start=start)
    except ValueError as exc:
        raise ReplayError(f"bad header: {exc}") from None


def _read_lines(source: str | Iterable[str] | os.PathLike[str]) -> list[tuple[int, Any]]:
    """(text line number, parsed entry) for every non-blank line."""
    source = read_path(source, ReplayError, "record file")  # a pathlib.Path: its file
    try:
        lines = source.splitlines() if isinstance(source, str) else list(source)
    except TypeError:
        raise ReplayError(f"a record is text or an iterable of lines, got {type(source).__name__}") from None
    out = []
    for i, line in enumerate(lines, 1):
        if not isinstance(line, str):
            raise ReplayError(f"line {i}: not text")
        if not line.strip():
            continue
        out.append((i, safe_json_loads(line, ReplayError, f"line {i}")))
    return out


def read_record(source: str | Iterable[str] | os.PathLike[str]) -> list[dict[str, Any]]:
    """Parse a JSON Lines record (text, lines or a ``pathlib.Path``) into entries; raises ReplayError."""
    return [e for _, e in _read_lines(source)]


def replay(cls: type[G], record: str | Iterable[str] | list[dict[str, Any]] | os.PathLike[str],
           upto: int | None = None) -> G:
    """:func:`daguai.game.replay` for the Game class ``cls`` (its documentation says what a
    replay checks, and ``upto``)."""
    if isinstance(record, list) and all(isinstance(x, dict) for x in record):
        numbered = list(enumerate(record, 1))
    else:
        numbered = _read_lines(record)  # type: ignore[arg-type]
    if not numbered:
        raise ReplayError("empty record")
    if upto is not None:
        if isinstance(upto, bool) or not isinstance(upto, int) or upto < 1:
            raise ReplayError(f"upto must be a line number >= 1, got {codec.short_repr(upto)}")
        first_line = numbered[0][0]
        if upto > numbered[-1][0]:
            raise ReplayError(f"upto={upto} is past the record's last line ({numbered[-1][0]})")
        numbered = [(n, e) for n, e in numbered if n <= upto]
        if not numbered:
            raise ReplayError(f"upto={upto} is before the record's header (line {first_line})")
    first, head = numbered[0]
    if not isinstance(head, dict) or head.get("record") != "daguai":
        raise ReplayError(f"line {first}: not a daguai record header")
    if isinstance(head.get("format"), bool) or head.get("format") != RECORD_FORMAT:  # True == 1
        raise ReplayError(f"line {first}: unsupported record format {codec.short_repr(head.get('format'))}")
    g = new_game(cls, head)
    i = 0  # index into the engine's log
    last = first
    for lineno, e in numbered[1:]:
        where = f"line {lineno}"
        last = lineno
        if not isinstance(e, dict) or not isinstance(e.get("event"), str):
            raise ReplayError(f"{where}: not an event")
        kind = e["event"]
        if kind == "play" and "as" in e:  # a 4p2d reading of an older engine (R18)
            upgraded = protocol.old_reading(e.get("cards"), e["as"], g.level, g.rules)
            if upgraded is not None:
                e = {**e, "as": upgraded}
        try:
            decision = codec.entry_decision(e)
            if decision is not None:
                protocol.apply_decision(g, decision, where)
        except ReplayError as exc:
            raise ReplayError(exc.args[0] if str(exc).startswith(where) else f"{where}: {exc}") from None
        except (ValueError, TypeError) as exc:
            raise ReplayError(f"{where}: {exc}") from None
        logged = g.state.events(i)
        if not logged:
            raise ReplayError(f"{where}: a {kind} event the engine did not produce")
        raw = codec.encode(logged[0])
        mine = _json_normal(raw)
        try:
            differs = _json_normal(e) != mine
        except RecursionError:
            raise ReplayError(f"{where}: nested too deeply") from None
        if differs:
            if raw.get("event") != kind:
                raise ReplayError(f"{where}: the record has a {kind} event where the engine has a "
                                  f"{raw.get('event')}")
            diff = sorted(k for k in set(mine) | set(e) if _json_normal(e.get(k)) != mine.get(k))
            what = ("the deal differs from the one the seed gives (a tampered record, or another "
                    "engine)") if kind == "deal" else "differs from the engine's"
            raise ReplayError(f"{where}: {kind} {what}: field(s) {', '.join(diff)} "
                              f"(engine: {', '.join(f'{k}={codec.short_repr(raw.get(k))}' for k in diff)})")
        i += 1
    if upto is None and i != g.state.n_events:
        raise ReplayError(f"line {last}: the record ends early ({i} events; the engine logged "
                          f"{g.state.n_events} by then)")
    return g
