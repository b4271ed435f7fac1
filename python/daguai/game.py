"""A match of 大怪路子, step by step (R8-R17): a thin layer over the C++ state machine.

Decisions are the only inputs: play or pass, which highest card to pay as tribute, which
card to return, and (optional variants) 抗贡 / joker-tribute offers and takes. Randomness
(the first dealer, every deal) comes from the seed alone (R17, docs/game.md).
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Iterator, Optional, Union

from . import _core
from ._core import Action, ActionList, Hand, Play
from .errors import safe_json_loads
from .rules import Rules

__all__ = ["Game", "RECORD_FORMAT", "ReplayError", "replay", "read_record"]

#: Version of the JSON game format and the JSON Lines record format (docs/records.md).
RECORD_FORMAT = 1

ActionLike = Union[Action, Play, str, Hand, Iterable[str]]


class ReplayError(ValueError):
    """A record or game JSON that is corrupt, tampered with, or not legal."""


def _play_fields(p: Play) -> dict[str, Any]:
    d: dict[str, Any] = {"cards": str(p.cards), "kind": p.kind.name.lower(), "key": p.key}
    if p.jokers_as:
        d["as"] = " ".join(p.jokers_as)
    return d


def _event_entry(name: str, s: int, other: int, flags: int, payload: Any) -> dict[str, Any]:
    """The record entry (docs/records.md) of one engine log event."""
    if name == "deal":
        return {"event": "deal", "round": payload["round"], "dealer": payload["dealer"],
                "levels": list(payload["levels"]), "hands": [str(h) for h in payload["hands"]]}
    if name == "play":
        return {"event": "play", "seat": s, **_play_fields(payload)}
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
        return {"event": "forfeit", "seat": s, **payload}
    return {"event": name, **payload}  # round_end


def _json_normal(x: Any) -> Any:
    """JSON's view of a value (tuples become lists), for exact comparisons."""
    if isinstance(x, (list, tuple)):
        return [_json_normal(v) for v in x]
    if isinstance(x, dict):
        return {k: _json_normal(v) for k, v in x.items()}
    return x


class Game(_core.GameState):
    """One match (R12) from a seed.

    Parameters
    ----------
    seed : int
        Every random choice (first dealer R10, every deal R2) derives from it (R17).
    rules : Rules, optional
        All rule variants (default ``Rules()``).
    auto_pass : bool
        Apply forced passes (a follower with no legal play) automatically.
    game : int
        Game index within a batch: the streams depend on ``(seed, game)`` only.
    record : bool
        Keep the event log (needed for ``to_json``, records and observations' history).

    Examples
    --------
    >>> g = Game(seed=7)
    >>> while not g.match_over:
    ...     g.step(g.legal_actions()[0])
    """

    def __init__(self, seed: int = 0, rules: Optional[Rules] = None, *, auto_pass: bool = False,
                 game: int = 0, record: bool = True) -> None:
        if rules is None:
            rules = Rules()
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a daguai.Rules, got {type(rules).__name__}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise ValueError(f"seed must be an integer in [0, 2**64), got {seed!r}")
        if isinstance(game, bool) or not isinstance(game, int) or not 0 <= game < 2**64:
            raise ValueError(f"game must be an integer in [0, 2**64), got {game!r}")
        super().__init__(rules._core, seed, game, bool(auto_pass), bool(record))
        self._rules = rules

    def __getattr__(self, name: str) -> Any:
        # Only reached when normal lookup fails: _rules is missing only in an object made by
        # Game.__new__ without __init__, which is unusable (docs/errors.md).
        if name == "_rules":
            raise TypeError("daguai.Game object is not initialized: it was made with __new__ "
                            "without __init__; create it by calling the class")
        raise AttributeError(f"'Game' object has no attribute {name!r}")

    # ---- the basic loop -------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self._rules

    def step(self, action: ActionLike) -> None:
        """Apply the current player's decision (R8, R11).

        ``action``: an Action from :meth:`legal_actions`, a Play, ``"pass"``,
        ``"anti_tribute"``, or card text read for the phase (a play, the tribute card, the
        returned card, the offered cards, the card taken). Invalid input raises
        ``ValueError`` (``IllegalActionError``, ``IllegalPlayError`` or ``CardError``)
        naming the problem, and leaves the game unchanged.
        """
        self.apply(action)

    @property
    def round_result(self) -> Optional[dict[str, Any]]:
        """The last finished round's result (R9, R13, R14), or None before the first."""
        return self.result(-1) if self.n_results else None

    def titles(self, table: str = "000") -> list[str]:
        """R15: each seat's title from its cumulative score in this match."""
        from .titles import title
        return [title(s, table) for s in self.scores]

    # ---- information (R16) ------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        """Exactly what ``seat`` may know (R16), as plain values.

        Public: plays and passes (with what jokers stood for), who is out and in what order,
        card counts, levels, dealer, scores, tribute cards and refusals. Private to the seat:
        its own hand, and the cards returned / offered / taken in its own tribute pair.
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 6:
            raise ValueError(f"seat must be 0..5, got {seat!r}")
        history = []
        if self.recording:
            for name, s, other, flags, payload in self._round_events():
                if name in ("deal", "round_end", "forfeit"):
                    continue
                ev: dict[str, Any] = {"event": name, "seat": s}
                if name == "play":
                    ev.update(_play_fields(payload))
                elif name == "pass":
                    ev["auto"] = bool(flags)
                elif name == "tribute":
                    ev.update({"to": other, "card": str(payload)})
                elif name == "anti_tribute":
                    ev.update({"to": other, "jokers": str(payload)})
                elif name in ("return", "offer", "take"):
                    if seat not in (s, other):
                        ev.update({"to": other})  # that it happened is public, not the cards
                    else:
                        ev.update({"to": other, "cards": str(payload)})
                history.append(ev)
        tributes = []
        for t in self.tribute_state:
            mine = seat in (t["from"], t["to"])
            tributes.append({
                "from": t["from"], "to": t["to"], "card": t["card"], "refused": t["refused"],
                "returned": t["returned"] if mine else None,
                "offer": t["offer"] if mine else None,
            })
        top = self.top
        return {
            "seat": seat,
            "team": seat % 2,
            "phase": self.phase,
            "current_player": self.current_player,
            "round": self.round,
            "dealer": self.dealer,
            "level": self.level,
            "levels": list(self.levels),
            "hand": self.hand(seat).cards(),
            "cards_left": self.cards_left,
            "finish_order": self.finish_order,
            "top": None if top is None else {"seat": self.top_seat, **_play_fields(top)},
            "passed": self.passed,
            "scores": self.scores,
            "tributes": tributes,
            "history": history,
            "last_result": self.round_result,
        }

    def _round_events(self) -> list[tuple]:
        """Events of the current round (from its deal)."""
        return self.events(self.round_events_start)

    # ---- copies and serialization -----------------------------------------------------
    def clone(self) -> "Game":
        """An independent copy (the C++ state is copied; nothing is shared)."""
        g = Game.__new__(Game)
        _core.GameState.__init__(g, self)
        g._rules = self._rules
        return g

    def __copy__(self) -> "Game":
        return self.clone()

    def __deepcopy__(self, memo: dict) -> "Game":
        return self.clone()

    def _actions_json(self) -> list[list[Any]]:
        out: list[list[Any]] = []
        for name, s, other, flags, payload in self.events():
            if name == "play":
                a = [s, "play", str(payload.cards)]
                if payload.jokers_as:
                    a.append(" ".join(payload.jokers_as))
                out.append(a)
            elif name == "pass":
                if not flags:  # forced passes are made by the engine again (auto_pass)
                    out.append([s, "pass"])
            elif name == "auto_pass":
                out.append([-1, "auto_pass", bool(flags)])
            elif name == "anti_tribute":
                out.append([s, "anti_tribute"])
            elif name == "forfeit":
                out.append([s, "forfeit"])
            elif name in ("tribute", "return", "offer", "take"):
                out.append([s, name, str(payload)])
        return out

    def to_json(self) -> str:
        """The game as JSON: format, engine version, rules, seed, the initial ``auto_pass``
        and every decision (changes of ``auto_pass`` included; forced passes are not listed:
        the engine makes them again).

        ``Game.from_json(g.to_json())`` rebuilds an equal game (decisions replayed)."""
        if not self.recording:
            raise ValueError("to_json needs a game created with record=True")
        return json.dumps({
            "format": "daguai-game", "version": RECORD_FORMAT, "engine": _core.__version__,
            "rules": self._rules.to_dict(), "seed": self.seed, "game": self.game_index,
            "auto_pass": self.initial_auto_pass, "actions": self._actions_json(),
        }, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: Union[str, bytes]) -> "Game":
        """Inverse of :meth:`to_json`; raises :class:`ReplayError` (a ValueError) on a
        corrupt document or an illegal decision, naming the first bad entry."""
        doc = safe_json_loads(text, ReplayError, "the game document")
        if not isinstance(doc, dict) or doc.get("format") != "daguai-game":
            raise ReplayError("not a daguai game document (format != 'daguai-game')")
        if doc.get("version") != RECORD_FORMAT:
            raise ReplayError(f"unsupported game format version {doc.get('version')!r}")
        g = _new_game(doc)
        actions = doc.get("actions")
        if not isinstance(actions, list):
            raise ReplayError("'actions' must be a list")
        for i, a in enumerate(actions):
            _apply_json_action(g, a, f"action {i}")
        return g

    def __reduce__(self) -> tuple[Any, ...]:
        return (Game.from_json, (self.to_json(),))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (self._rules == other._rules and self.seed == other.seed
                and self.game_index == other.game_index and self.auto_pass == other.auto_pass
                and self._actions_json() == other._actions_json()
                and self.phase == other.phase and self.current_player == other.current_player
                and all(self.hand(s) == other.hand(s) for s in range(6)))

    __hash__ = None  # type: ignore[assignment]  # mutable

    # ---- records (JSON Lines) ---------------------------------------------------------
    def record_lines(self) -> Iterator[dict[str, Any]]:
        """The game as record entries (docs/records.md): a header, then every event."""
        if not self.recording:
            raise ValueError("records need a game created with record=True")
        yield {"record": "daguai", "format": RECORD_FORMAT, "engine": _core.__version__,
               "rules": self._rules.to_dict(), "seed": self.seed, "game": self.game_index,
               "auto_pass": self.initial_auto_pass}
        for event in self.events():
            yield _event_entry(*event)

    def to_record(self) -> str:
        """The JSON Lines record (one JSON object per line, header first)."""
        return "\n".join(json.dumps(e, ensure_ascii=False, separators=(",", ":"))
                         for e in self.record_lines()) + "\n"

    # ---- display ----------------------------------------------------------------------
    def __repr__(self) -> str:
        if self.match_over:
            return f"<Game seed={self.seed} match over after {self.n_results} rounds, levels {self.levels}>"
        return (f"<Game seed={self.seed} round {self.round} phase {self.phase} level {self.level} "
                f"dealer {self.dealer} to act {self.current_player} cards {self.cards_left}>")

    def render(self, seat: Optional[int] = None) -> str:
        """The table as text; with ``seat`` only that seat's hand is shown (R16)."""
        lines = [f"round {self.round}  level {self.level}  levels A {self.levels[0]} / B {self.levels[1]}"
                 f"  dealer {self.dealer}  phase {self.phase}"]
        top, tseat = self.top, self.top_seat
        passed = set(self.passed)
        out = self.finish_order
        for s in range(6):
            team = "AB"[s % 2]
            mark = ">" if s == self.current_player else " "
            hand = str(self.hand(s)) if seat is None or seat == s else "··"
            state = ""
            if s in out:
                state = f"out #{out.index(s) + 1}"
            elif s == tseat:
                state = f"top: {top} ({top.describe()})"
            elif s in passed:
                state = "pass"
            lines.append(f"{mark} seat {s} [{team}] {self.cards_left[s]:2d} cards  {state:32s} {hand}")
        lines.append(f"scores {self.scores}")
        return "\n".join(lines)


def _new_game(header: dict[str, Any]) -> Game:
    try:
        rules = Rules.from_dict(header["rules"])
        seed, game, auto = header["seed"], header.get("game", 0), header.get("auto_pass", False)
    except KeyError as exc:
        raise ReplayError(f"header is missing {exc}") from None
    except ValueError as exc:
        raise ReplayError(f"bad rules in header: {exc}") from None
    if not isinstance(auto, bool):
        raise ReplayError("auto_pass must be true or false")
    try:
        return Game(seed, rules, auto_pass=auto, game=game)
    except ValueError as exc:
        raise ReplayError(f"bad header: {exc}") from None


def _apply_json_action(g: Game, a: Any, where: str) -> None:
    if not isinstance(a, list) or len(a) < 2 or not isinstance(a[0], int) or not isinstance(a[1], str):
        raise ReplayError(f"{where}: malformed action {a!r}")
    seat, kind = a[0], a[1]
    if kind == "auto_pass":
        if len(a) != 3 or not isinstance(a[2], bool):
            raise ReplayError(f"{where}: malformed auto_pass change {a!r}")
        g.auto_pass = a[2]
        return
    if kind == "forfeit":
        try:
            g.forfeit(seat)
        except ValueError as exc:
            raise ReplayError(f"{where}: {exc}") from None
        return
    if seat != g.current_player:
        raise ReplayError(f"{where}: seat {seat} acts but it is seat {g.current_player}'s turn")
    try:
        if kind == "pass" or kind == "anti_tribute":
            g.step(kind)
        elif kind == "play":
            cards = a[2]
            # under declare the recorded joker faces choose the interpretation; otherwise the
            # rules fix it and the faces are only checked below
            declared = a[3] if len(a) > 3 and g.rules.wild == "declare" else None
            play = _core.classify(cards, g.level, g.rules._core, declared)
            if play is None:
                raise ReplayError(f"{where}: '{cards}' is not a play")
            if len(a) > 3 and " ".join(play.jokers_as) != a[3]:
                raise ReplayError(f"{where}: jokers stand for {' '.join(play.jokers_as)!r}, "
                                  f"record says {a[3]!r}")
            g.step(play)
        elif kind in ("tribute", "return", "offer", "take"):
            if g.phase not in (kind, "return" if kind == "offer" else kind):
                raise ReplayError(f"{where}: a {kind} in phase {g.phase}")
            g.step(a[2])
        else:
            raise ReplayError(f"{where}: unknown action {kind!r}")
    except ReplayError:
        raise
    except (ValueError, IndexError, TypeError) as exc:
        raise ReplayError(f"{where}: {exc}") from None


def _read_lines(source: Union[str, Iterable[str]]) -> list[tuple[int, Any]]:
    """(text line number, parsed entry) for every non-blank line."""
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


def read_record(source: Union[str, Iterable[str]]) -> list[dict[str, Any]]:
    """Parse a JSON Lines record (text or lines) into entries; raises ReplayError."""
    return [e for _, e in _read_lines(source)]


def replay(record: Union[str, Iterable[str], list[dict[str, Any]]]) -> Game:
    """Re-play a record through the engine and return the final game.

    Walks the record and the engine's own log together: each decision is applied (it must
    be legal and by the seat to act), then the record's line must equal, field for field,
    the engine's own entry for that event (deals as the seed gives them, plays with their
    kind, key and jokers, every result). Raises :class:`ReplayError` (a ValueError) at the
    first line that does not, naming its line number in the text.
    """
    if isinstance(record, list) and all(isinstance(x, dict) for x in record):
        numbered = list(enumerate(record, 1))
    else:
        numbered = _read_lines(record)  # type: ignore[arg-type]
    if not numbered:
        raise ReplayError("empty record")
    first, head = numbered[0]
    if not isinstance(head, dict) or head.get("record") != "daguai":
        raise ReplayError(f"line {first}: not a daguai record header")
    if head.get("format") != RECORD_FORMAT:
        raise ReplayError(f"line {first}: unsupported record format {head.get('format')!r}")
    g = _new_game(head)
    i = 0  # index into the engine's log
    last = first
    for lineno, e in numbered[1:]:
        where = f"line {lineno}"
        last = lineno
        if not isinstance(e, dict) or not isinstance(e.get("event"), str):
            raise ReplayError(f"{where}: not an event")
        kind = e["event"]
        seat = e.get("seat")
        try:
            if kind == "play":
                _apply_json_action(g, [seat, "play", e.get("cards")] + ([e["as"]] if "as" in e else []), where)
            elif kind == "pass":
                if not e.get("auto"):  # forced passes: the engine makes them itself
                    _apply_json_action(g, [seat, "pass"], where)
            elif kind == "auto_pass":
                _apply_json_action(g, [-1, "auto_pass", e.get("on")], where)
            elif kind in ("anti_tribute", "forfeit"):
                _apply_json_action(g, [seat, kind], where)
            elif kind in ("tribute", "return", "take"):
                _apply_json_action(g, [seat, kind, e.get("card")], where)
            elif kind == "offer":
                _apply_json_action(g, [seat, kind, e.get("cards")], where)
            elif kind not in ("deal", "round_end"):
                raise ReplayError(f"{where}: unknown event {kind!r}")
        except ReplayError:
            raise
        except (ValueError, TypeError) as exc:
            raise ReplayError(f"{where}: {exc}") from None
        logged = g.events(i)
        if not logged:
            raise ReplayError(f"{where}: a {kind} event the engine did not produce")
        mine = _json_normal(_event_entry(*logged[0]))
        if _json_normal(e) != mine:
            if mine.get("event") != kind:
                raise ReplayError(f"{where}: the record has a {kind} event where the engine has a "
                                  f"{mine.get('event')}")
            diff = sorted(k for k in set(mine) | set(e) if _json_normal(e.get(k)) != mine.get(k))
            what = ("the deal differs from the one the seed gives (a tampered record, or another "
                    "engine)") if kind == "deal" else "differs from the engine's"
            raise ReplayError(f"{where}: {kind} {what}: field(s) {', '.join(diff)} "
                              f"(engine: {', '.join(f'{k}={mine.get(k)!r}' for k in diff)})")
        i += 1
    if i != g.n_events:
        raise ReplayError(f"line {last}: the record ends early ({i} events; the engine logged "
                          f"{g.n_events} by then)")
    return g
