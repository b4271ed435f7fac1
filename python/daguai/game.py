"""A match of 大怪路子, step by step (R8-R17): a thin layer over the C++ state machine.

Decisions are the only inputs: play or pass, which highest card to pay as tribute, which
card to return, and (optional variants) 抗贡 / joker-tribute offers and takes. Randomness
(the first dealer, every deal) comes from the seed alone (R17, docs/game.md).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from operator import attrgetter
from typing import Any

from . import _core, codec, protocol, records
from ._core.core import Hand
from ._core.game import Action
from ._core.plays import Play
from .checks import check_rules, check_seed
from .errors import ReplayError, read_path, safe_json_loads
from .observations import observation as _observation
from .positions import game_from_position, position_of
from .protocol import RECORD_FORMAT
from .records import STARTS, read_record
from .rules import Rules

__all__ = ["Game", "RECORD_FORMAT", "ReplayError", "replay", "read_record"]

ActionLike = Action | Play | str | Hand | Iterable[str]



def _state_property(name: str, doc: str) -> Any:
    """A read-only property of the wrapped GameState (C-level getter: no Python frame); the
    class annotates each with the GameState stub's type, so ``Game.phase`` is a ``str`` to
    a type checker."""
    return property(attrgetter(f"_state.{name}"), doc=doc)


class Game:
    """One match (R12) from a seed.

    ``Game`` wraps the C++ match state (``_core.game.GameState``, ``cpp/engine/game/state.hpp``) and
    exposes only the names listed in docs/game.md "The Game API"; the
    engine-level state (its log, ``apply``, ``check``, ...) is :attr:`state`. Every daguai
    function that takes a game accepts a ``Game`` or a ``GameState``.

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
    start : {"fresh", "random"}
        ``"fresh"`` (default): both levels 2, a random first dealer, no tribute (R3, R10).
        ``"random"``: a random point of a match drawn from ``(seed, game)`` alone: random
        levels, and the tribute owed by a random previous round (docs/game.md "Start
        states"; what the learning environments use).

    Examples
    --------
    >>> g = Game(seed=7)
    >>> while not g.match_over:
    ...     g.step(g.legal_actions()[0])
    """

    def __init__(self, seed: int = 0, rules: Rules | None = None, *, auto_pass: bool = False,
                 game: int = 0, record: bool = True, start: str = "fresh") -> None:
        rules = check_rules(rules, mappings=False)
        seed, game = check_seed(seed), check_seed(game, "game")
        if start not in STARTS:
            raise ValueError(f"start must be 'fresh' or 'random', got {start!r}")
        self._wrap(_core.game.GameState(rules._core, seed, game, bool(auto_pass), bool(record),
                                   STARTS.index(start)), rules, None)

    def _wrap(self, state: _core.game.GameState, rules: Rules, origin: dict[str, Any] | None) -> Game:
        self._state = state
        self._rules = rules
        self._origin = origin  # the start position, if not the seeded deal
        return self

    @classmethod
    def _of(cls, state: _core.game.GameState, rules: Rules, origin: dict[str, Any] | None = None) -> Game:
        """A Game around an existing C++ state (positions, worlds, copies)."""
        return cls.__new__(cls)._wrap(state, rules, origin)

    @property
    def state(self) -> _core.game.GameState:
        """The C++ match state this Game wraps (``_core.game.GameState``): the engine-level API
        (``apply``, ``check``, ``events``, ``n_events``, ...) for tools that need it."""
        return self._state

    @property
    def start(self) -> str:
        """``"fresh"`` or ``"random"``: where the match began (docs/game.md)."""
        return STARTS[self._state.start_kind]

    def _origin_header(self) -> dict[str, Any]:
        """Where the game began, for its JSON and record headers: ``start`` when it is a random
        start state, ``position`` when it began from a position; both omitted for a fresh
        seeded match (so such documents are unchanged)."""
        head: dict[str, Any] = {"start": self.start} if self._state.start_kind else {}
        if self._origin is not None:
            head["position"] = self._origin
        return head

    def __getattr__(self, name: str) -> Any:
        # Only reached when normal lookup fails: a slot is empty only in an object made by
        # Game.__new__ without __init__, which is unusable (docs/errors.md).
        try:
            object.__getattribute__(self, "_state")
        except AttributeError:
            raise TypeError("daguai.Game object is not initialized: it was made with __new__ "
                            "without __init__; create it by calling the class") from None
        raise AttributeError(f"'Game' object has no attribute {name!r}")

    # ---- the state (read from the C++ state) -----------------------------------------
    seed: int = _state_property("seed", "The match seed (R17).")
    game_index: int = _state_property("game_index", "The game index within a batch (``game=``).")
    phase: str = _state_property("phase", "``tribute``, ``return``, ``take``, ``play`` or ``match_over``.")
    match_over: bool = _state_property("match_over", "Whether the match has ended (R12, R14).")
    current_player: int | None = _state_property(
        "current_player", "The seat to act, or None when the match is over.")
    round: int = _state_property("round", "The round number (0 first).")
    dealer: int = _state_property("dealer", "The seat that deals (and leads) this round (R10).")
    level: str = _state_property("level", "The round's level rank L (the dealer's team's level, R3).")
    levels: tuple[str, str] = _state_property(
        "levels", "Levels of team A (even seats) and team B (odd seats).")
    initial_auto_pass: bool = _state_property("initial_auto_pass", "``auto_pass`` when the game was created.")
    cards_left: list[int] = _state_property("cards_left", "Cards in each seat's hand.")
    finish_order: list[int] = _state_property("finish_order", "Seats out so far this round, in order.")
    top: Play | None = _state_property("top", "The play to beat (a Play), or None when leading.")
    top_seat: int | None = _state_property("top_seat", "The seat of the top play, or None.")
    passed: list[int] = _state_property("passed", "Seats that passed since the top play.")
    scores: list[int] = _state_property("scores", "Each seat's cumulative score (R13, R14).")
    final_failures: tuple[int, int] = _state_property(
        "final_failures", "R12: failed rounds of each team at the final level.")
    tribute_state: list[dict[str, Any]] = _state_property(
        "tribute_state", "This round's tribute pairs (R11) and what was paid.")
    results: list[dict[str, Any]] = _state_property(
        "results", "Results of the finished rounds (dicts, R9, R13, R14).")
    n_results: int = _state_property("n_results", "How many rounds have finished.")
    recording: bool = _state_property("recording", "Whether the event log is kept (``record=True``).")
    seats: int = _state_property("seats", "Number of seats at the table (6, or 4 at 4p2d, R18).")

    @property
    def auto_pass(self) -> bool:
        """Apply forced passes automatically (changes are logged and replayed)."""
        return self._state.auto_pass

    @auto_pass.setter
    def auto_pass(self, on: bool) -> None:
        self._state.auto_pass = on

    def hand(self, seat: int) -> Hand:
        """The cards ``seat`` holds (every hand: see :meth:`view` for what a seat may know)."""
        return self._state.hand(seat)

    def played(self, seat: int) -> Hand:
        """The cards ``seat`` has played this round (R16: public)."""
        return self._state.played(seat)

    def result(self, index: int) -> dict[str, Any]:
        """The result of finished round ``index`` (negative counts from the end)."""
        return self._state.result(index)

    def legal_actions(self) -> _core.game.ActionList:
        """The current player's legal actions (docs/game.md order; empty when the match is over)."""
        return self._state.legal_actions()

    def forfeit(self, seat: int) -> None:
        """R14: ``seat`` leaves the match now (docs/game.md "Leaving")."""
        self._state.forfeit(seat)

    # ---- the basic loop -------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        """The rule variants of this match."""
        return self._rules

    def step(self, action: ActionLike) -> None:
        """Apply the current player's decision (R8, R11).

        ``action``: an Action from :meth:`legal_actions`, a Play, action text (what
        ``str(action)`` prints: ``"pass"``, ``"tribute BJ"``, ``"5s 5s 5s 5c BJ as 3s"``, read
        by the engine's one parser, docs/protocol.md), or cards (a Hand, card text) read for
        the phase (a play, the tribute card, the returned card, the offered cards, the card
        taken). Invalid input raises
        ``ValueError`` (``IllegalActionError``, ``IllegalPlayError`` or ``CardError``)
        naming the problem, and leaves the game unchanged.
        """
        self._state.apply(action)

    @property
    def round_result(self) -> dict[str, Any] | None:
        """The last finished round's result (R9, R13, R14), or None before the first."""
        return self._state.result(-1) if self._state.n_results else None

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
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise ValueError(f"seat must be 0..{self.seats - 1}, got {seat!r}")
        return _observation(_core.game.information_state(self._state, seat, True, False))

    def view(self, seat: int) -> _core.game.InfoState:
        """The information state of ``seat`` (R16, C++ ``infostate.hpp``): what a policy
        sitting there receives. It holds the seat's own hand, public facts (plays, passes,
        counts, cards played this round, tribute cards), the cards the seat knows to be in
        other hands (``known``), forced-pass constraints (``forced``) and ``unseen`` cards;
        nothing reaches another hand. It also carries what a policy needs besides: ``rules``
        (the match's rule variants), ``game_index`` and ``last_result`` (the last finished
        round's result, :attr:`round_result`). ``history`` is filled when the game records;
        ``legal_actions()`` when the seat is to act."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise ValueError(f"seat must be 0..{self.seats - 1}, got {seat!r}")
        return _core.game.information_state(self._state, seat, True, seat == self.current_player)

    # ---- copies and serialization -----------------------------------------------------
    def clone(self) -> Game:
        """An independent copy (the C++ state is copied; nothing is shared)."""
        return Game._of(_core.game.GameState(self._state), self._rules, self._origin)

    # ---- positions (docs/records.md) --------------------------------------------------
    def position(self) -> dict[str, Any]:
        """The match as it stands now, as a JSON-ready dict (docs/records.md "Positions"):
        hands, dealer, levels, scores, round, tribute pairs and this round's history.

        ``Game.from_position(g.position())`` continues exactly as ``g`` does (the same later
        deals: the position keeps the seed). Needs ``record=True``."""
        return position_of(self)

    @classmethod
    def from_position(cls, position: str | bytes | dict[str, Any] | os.PathLike[str], *,
                      record: bool = True) -> Game:
        """A game from a position (dict or JSON text, the form :meth:`position` returns, or a
        ``pathlib.Path`` of a file holding it: docs/errors.md "Paths").

        The position is validated first: :class:`daguai.PositionError` (a ``ValueError``)
        names the first problem: card totals (R2: three of each face between the hands and
        this round's plays), a hand size that does not match the plays, tribute pairs, an
        illegal or out-of-turn history entry, the seat to act, the finishing order."""
        return game_from_position(cls, position, record=record)

    @classmethod
    def from_record(cls, record: str | Iterable[str] | list[dict[str, Any]] | os.PathLike[str],
                    upto: int | None = None) -> Game:
        """The game as it stood after line ``upto`` of a record (all of it when None).

        Lines are numbered as in the text (header = line 1, blank lines count). Forced passes
        the engine makes under ``auto_pass`` are made at once, with the play before them."""
        return records.replay(cls, record, upto=upto)

    def __copy__(self) -> Game:
        return self.clone()

    def __deepcopy__(self, memo: dict) -> Game:
        return self.clone()

    def to_json(self) -> str:
        """The game as JSON: format, engine version, rules, seed, the initial ``auto_pass``
        and every decision (changes of ``auto_pass`` included; forced passes are not listed:
        the engine makes them again).

        ``Game.from_json(g.to_json())`` rebuilds an equal game (decisions replayed)."""
        if not self._state.recording:
            raise ValueError("to_json needs a game created with record=True")
        return codec.dumps({
            "format": "daguai-game", "version": RECORD_FORMAT, "engine": _core.__version__,
            "rules": self._rules.to_dict(), "seed": self.seed, "game": self.game_index,
            "auto_pass": self.initial_auto_pass, **self._origin_header(),
            "actions": codec.decisions(self._state.events()),
        })

    @classmethod
    def from_json(cls, text: str | bytes | os.PathLike[str]) -> Game:
        """Inverse of :meth:`to_json`; raises :class:`ReplayError` (a ValueError) on a
        corrupt document or an illegal decision, naming the first bad entry."""
        text = read_path(text, ReplayError, "game document file")  # a pathlib.Path: its file
        doc = safe_json_loads(text, ReplayError, "the game document")
        if not isinstance(doc, dict) or doc.get("format") != "daguai-game":
            raise ReplayError("not a daguai game document (format != 'daguai-game')")
        if isinstance(doc.get("version"), bool) or doc.get("version") != RECORD_FORMAT:  # True == 1
            raise ReplayError(f"unsupported game format version {codec.short_repr(doc.get('version'))}")
        g = records.new_game(cls, doc)
        actions = doc.get("actions")
        if not isinstance(actions, list):
            raise ReplayError("'actions' must be a list")
        for i, a in enumerate(actions):
            protocol.apply_decision(g, a, f"action {i}")
        return g

    def __reduce__(self) -> tuple[Any, ...]:
        return (Game.from_json, (self.to_json(),))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (self._rules == other._rules and self.seed == other.seed
                and self.game_index == other.game_index and self.auto_pass == other.auto_pass
                and self._state.start_kind == other._state.start_kind
                and codec.decisions(self._state.events()) == codec.decisions(other._state.events())
                and self.phase == other.phase and self.current_player == other.current_player
                and all(self.hand(s) == other.hand(s) for s in range(self.seats)))

    __hash__ = None  # type: ignore[assignment]  # mutable

    # ---- records (JSON Lines) ---------------------------------------------------------
    def record_lines(self) -> Iterator[dict[str, Any]]:
        """The game as record entries (docs/records.md): a header, then every event."""
        if not self.recording:
            raise ValueError("records need a game created with record=True")
        yield {"record": "daguai", "format": RECORD_FORMAT, "engine": _core.__version__,
               "rules": self._rules.to_dict(), "seed": self.seed, "game": self.game_index,
               "auto_pass": self.initial_auto_pass, **self._origin_header()}
        for event in self._state.events():
            yield codec.encode(event)

    def to_record(self) -> str:
        """The JSON Lines record (one JSON object per line, header first)."""
        return "\n".join(codec.dumps(e) for e in self.record_lines()) + "\n"

    # ---- display ----------------------------------------------------------------------
    def __repr__(self) -> str:
        if self.match_over:
            return f"<Game seed={self.seed} match over after {self.n_results} rounds, levels {self.levels}>"
        return (f"<Game seed={self.seed} round {self.round} phase {self.phase} level {self.level} "
                f"dealer {self.dealer} to act {self.current_player} cards {self.cards_left}>")

    def render(self, seat: int | None = None) -> str:
        """The table as text; with ``seat`` only that seat's hand is shown (R16)."""
        lines = [f"round {self.round}  level {self.level}  levels A {self.levels[0]} / B {self.levels[1]}"
                 f"  dealer {self.dealer}  phase {self.phase}"]
        top, tseat = self.top, self.top_seat
        passed = set(self.passed)
        out = self.finish_order
        for s in range(self.seats):
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


def replay(record: str | Iterable[str] | list[dict[str, Any]] | os.PathLike[str],
           upto: int | None = None) -> Game:
    """Re-play a record through the engine and return the final game.

    ``record``: the record's text, its lines, its entries, or a ``pathlib.Path`` of its file
    (a ``str`` is always the text: a file name gets an error saying to pass a ``Path``).

    Walks the record and the engine's own log together: each decision is applied (it must
    be legal and by the seat to act), then the record's line must equal, field for field,
    the engine's own entry for that event (deals as the seed gives them, plays with their
    kind, key and jokers, every result). Raises :class:`ReplayError` (a ValueError) at the
    first line that does not, naming its line number in the text.

    With ``upto``, only the lines up to that line number are replayed: the game as it
    stood after that line (a game in progress, which may stop anywhere).
    """
    return records.replay(Game, record, upto)
