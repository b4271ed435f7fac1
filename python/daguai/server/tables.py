"""Tables of the server: one match each, seats played by humans, built-in policies or remote
bots over WebSockets (docs/protocol.md, docs/server.md).

Everything runs on one asyncio loop: a decision is validated, applied to the engine,
checkpointed in SQLite (committed) and only then pushed to the seats, each event filtered
for its receiver (R16). Built-in bots act from ``loop.call_later`` callbacks.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import hashlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from .. import _core, protocol
from ..checks import policy_names
from ..game import Game
from ..rules import Rules
from . import advice
from .store import Store

__all__ = ["Hub", "Table", "Conn", "ProtocolError", "policy_action", "read_client_message",
           "MAX_MESSAGE", "SEAT_KINDS", "CLIENT_TYPES"]

#: Largest client message (bytes of text) the server reads; larger ones get ``too_large``.
MAX_MESSAGE = 64 * 1024
SEAT_KINDS = ("human", "bot", "remote")
#: The client message types; each is the schema's ``client_<type>`` entry.
CLIENT_TYPES = ("join", "act", "resync", "ping", "check", "hint", "leave")
#: Seconds between two hints of one seat, and hints computed at once by the whole server.
HINT_INTERVAL = 3.0
HINT_CONCURRENCY = 2


class ProtocolError(Exception):
    """A client message the server refuses: ``code`` (docs/protocol.md) and a message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _validators() -> dict[str, Any]:
    """One compiled validator per client message type, from the shipped schema: the server
    reads exactly what ``client_message`` allows, so the two cannot disagree."""
    schema = protocol.schema()
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    names = [f"client_{kind}" for kind in CLIENT_TYPES] + ["create_table", "play_request"]
    return {name: cls({**schema, "$ref": f"#/$defs/{name}"}) for name in names}


_VALIDATORS = _validators()


def schema_error(name: str, doc: Any) -> str | None:
    """Why ``doc`` is not what the schema's ``$defs/name`` allows, or None if it is."""
    error = jsonschema.exceptions.best_match(_VALIDATORS[name].iter_errors(doc))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path)
    return f"{where + ': ' if where else ''}{error.message[:200]} (schema {name})"


def read_client_message(text: str) -> dict[str, Any]:
    """A client message checked against the shipped JSON Schema (docs/protocol.md), or a
    ProtocolError: ``bad_json`` (not JSON), ``bad_message`` (not an object with a text
    ``type``, or not what the schema allows), ``unknown_type``.

    JSON Schema counts ``1.0`` as an integer; such a ``decision`` or ``index`` is read as
    the integer it equals, so the server and the schema agree on every value."""
    try:
        msg = json.loads(text)
    except RecursionError:
        raise ProtocolError("bad_json", "not JSON: nested too deeply") from None
    except ValueError as exc:
        raise ProtocolError("bad_json", f"not JSON: {exc}") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ProtocolError("bad_message", "a message is a JSON object with a text 'type'")
    kind = msg["type"]
    if kind not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r} "
                            f"(the types are {', '.join(CLIENT_TYPES)})")
    error = schema_error(f"client_{kind}", msg)
    if error is not None:
        raise ProtocolError("bad_message", f"{kind}: {error}")
    for key in ("decision", "index"):
        if isinstance(msg.get(key), float):
            msg[key] = int(msg[key])
    return msg


def policy_action(policy: str, game: Game, seed: int, decision: int) -> _core.Action:
    """The built-in ``policy``'s decision for the seat to act: the one place bots are called.

    Its random stream depends on (table seed, decision number, seat) only, so a table
    restarted from its checkpoint makes the same bot decisions as an uninterrupted one (R17).
    """
    seat = game.current_player
    assert seat is not None
    return _core.PolicyRunner(policy, seed, decision, seat).act(game)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class SeatPlan:
    kind: str
    name: str
    policy: str | None = None
    time_limit: float | None = None
    token_hash: str | None = None
    #: seconds without a connection after which a built-in bot plays the seat (None: never)
    bot_after: float | None = None

    @staticmethod
    def read(d: Any, seat: int) -> SeatPlan:
        """A seat of a create-table request (schema ``seat_plan``); ValueError if bad."""
        if not isinstance(d, dict) or d.get("kind") not in SEAT_KINDS:
            raise ValueError(f"seat {seat}: an object with 'kind' in {SEAT_KINDS}, got {d!r}")
        extra = set(d) - {"kind", "policy", "name", "time_limit", "bot_after"}
        if extra:
            raise ValueError(f"seat {seat}: unknown field(s) {sorted(extra)}")
        kind = d["kind"]
        policy = d.get("policy")
        if kind == "bot":
            policy = policy or "heuristic"
            if policy not in policy_names():
                raise ValueError(f"seat {seat}: unknown policy {policy!r} "
                                 f"(choose {', '.join(policy_names())})")
        elif policy is not None:
            raise ValueError(f"seat {seat}: only bots have a policy")
        name = d.get("name", policy if kind == "bot" else f"{kind} {seat}")
        if not isinstance(name, str) or len(name) > 40:
            raise ValueError(f"seat {seat}: name must be text of at most 40 characters")
        limit = d.get("time_limit")
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, float))
                                  or not 0 < limit <= 86400):
            raise ValueError(f"seat {seat}: time_limit must be seconds in (0, 86400] or null")
        if kind == "bot" and limit is not None:
            raise ValueError(f"seat {seat}: bots have no time limit")
        after = d.get("bot_after")
        if kind == "bot" and after is not None:
            raise ValueError(f"seat {seat}: a bot needs no stand-in (bot_after)")
        return SeatPlan(kind, name, policy, None if limit is None else float(limit),
                        bot_after=None if after is None else float(after))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "policy": self.policy,
                "time_limit": self.time_limit, "token_hash": self.token_hash,
                "bot_after": self.bot_after}


class Conn:
    """One WebSocket: an outgoing queue drained by a writer task, and a rate limit."""

    def __init__(self, send: Callable[[str], Any], rate: float, burst: float) -> None:
        self._send = send
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.table: Table | None = None
        self.seat: int | None = None
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, time.monotonic()
        self.closed = False
        self.views = False  # push a fresh view after every decision (the web table)
        self.events = True  # push every event (a bot may do without: decide has the view)

    def send(self, msg: dict[str, Any]) -> None:
        if not self.closed:
            self.queue.put_nowait(protocol.dumps(msg))

    def send_text(self, text: str) -> None:
        """An already encoded message (one encoding shared by many receivers)."""
        if not self.closed:
            self.queue.put_nowait(text)

    def allow(self) -> bool:
        """Token bucket: ``burst`` messages at once, ``rate`` per second after that."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                return
            await self._send(text)


class Table:
    """One match at a table (R12): the engine game, the seat plan and who is connected."""

    def __init__(self, hub: Hub, table_id: str, rules: Rules, seed: int, auto_pass: bool,
                 seats: list[SeatPlan], bot_delay: float) -> None:
        self.hub, self.id, self.rules, self.seed = hub, table_id, rules, seed
        self.auto_pass = auto_pass
        self.seats = seats
        self.bot_delay = bot_delay
        self.game = Game(seed, rules, auto_pass=auto_pass)
        self.n_decisions = 0      # decisions made (the id of the next one)
        self.n_saved = 0          # decisions checkpointed (auto_pass changes included)
        self.conns: list[Conn | None] = [None] * 6
        self.spectators: set[Conn] = set()
        self.match_id: int | None = None
        self._legal: Any | None = None
        self._legal_text: list[str] = []
        self._timer: asyncio.TimerHandle | None = None
        self._bot: asyncio.TimerHandle | None = None
        self._hint_at = [-1e9] * 6  # when each seat last asked for a hint (monotonic)
        self._hinting = [False] * 6
        # since when each seat has had no connection (monotonic; None: connected)
        now = time.monotonic()
        self.away_since: list[float | None] = [now] * 6
        self._standin: asyncio.TimerHandle | None = None

    # ---- state ----------------------------------------------------------------------
    def restore(self, decisions: list[Any]) -> None:
        """Replay checkpointed decisions (the table as it stood before a restart)."""
        for i, d in enumerate(decisions):
            protocol.apply_decision(self.game, d, f"table {self.id} decision {i}")
            if d[1] != "auto_pass":
                self.n_decisions += 1
        self.n_saved = len(decisions)

    def standing_in(self, seat: int) -> bool:
        """Whether a built-in bot plays this person's or remote seat now: it has had no
        connection for its ``bot_after`` seconds (docs/server.md "Friends at one table")."""
        p, away = self.seats[seat], self.away_since[seat]
        return (not self.game.match_over and p.kind != "bot" and p.bot_after is not None
                and away is not None
                and time.monotonic() - away >= p.bot_after)

    def seat_info(self) -> list[dict[str, Any]]:
        return [{"seat": s, "kind": p.kind, "name": p.name, "connected": self.conns[s] is not None,
                 "bot_playing": self.standing_in(s)}
                for s, p in enumerate(self.seats)]

    def summary(self) -> dict[str, Any]:
        g = self.game
        return {"table": self.id, "status": "finished" if g.match_over else "open",
                "rules": self.rules.to_dict(), "seats": self.seat_info(), "round": g.round,
                "levels": list(g.levels), "scores": g.scores, "decisions": self.n_decisions,
                "match": self.match_id, "spectators": len(self.spectators)}

    def legal(self) -> tuple[Any, list[str]]:
        if self._legal is None:
            self._legal = self.game.legal_actions()
            self._legal_text = [str(a) for a in self._legal]
        return self._legal, self._legal_text

    # ---- connections ----------------------------------------------------------------
    def join(self, conn: Conn, seat: int | None) -> None:
        if seat is None:
            self.spectators.add(conn)
        else:
            old = self.conns[seat]
            if old is not None and old is not conn:
                old.send({"type": "error", "code": "bad_token",
                          "message": f"seat {seat} was taken over by a newer connection"})
                old.table, old.seat = None, None
            self.conns[seat] = conn
            self.away_since[seat] = None  # the owner takes the seat back from a stand-in
            if self._standin is not None:
                self._standin.cancel()
                self._standin = None
        conn.table, conn.seat = self, seat
        conn.send({"type": "welcome", "protocol": protocol.PROTOCOL_VERSION, "table": self.id,
                   "seat": seat, "rules": self.rules.to_dict(), "seats": self.seat_info(),
                   **({"match": self.match_id} if self.match_id is not None else {})})
        conn.send({"type": "view", "view": protocol.view_to_json(self.game, seat)})
        if self.game.match_over:
            conn.send(self._match_over_message())
        elif seat is not None and self.game.current_player == seat:
            conn.send(self._decide_message(seat))

    def disconnect(self, conn: Conn) -> None:
        """The connection closed or joined elsewhere: its seat is away from now on."""
        self.spectators.discard(conn)
        seat = conn.seat
        if seat is not None and self.conns[seat] is conn:
            self.conns[seat] = None
            self.away_since[seat] = time.monotonic()
            if self.game.current_player == seat and not self.game.match_over:
                self._schedule_standin(seat)
        conn.table, conn.seat = None, None

    def _schedule_standin(self, seat: int) -> None:
        plan, away = self.seats[seat], self.away_since[seat]
        if plan.kind == "bot" or plan.bot_after is None or away is None:
            return
        if self._standin is not None:
            self._standin.cancel()
        delay = max(self.bot_delay, away + plan.bot_after - time.monotonic())  # bots' pace
        self._standin = asyncio.get_running_loop().call_later(delay, self._standin_move,
                                                              self.n_decisions)

    def _standin_move(self, decision: int) -> None:
        """A seat empty for its ``bot_after`` seconds: the heuristic bot decides for it."""
        self._standin = None
        if decision != self.n_decisions or self.game.match_over:
            return
        seat = self.game.current_player
        assert seat is not None
        if self.conns[seat] is not None:
            return
        self.commit(policy_action("heuristic", self.game, self.seed, decision), standin=True)

    # ---- decisions ------------------------------------------------------------------
    def _decide_message(self, seat: int) -> dict[str, Any]:
        _, texts = self.legal()
        return {"type": "decide", "decision": self.n_decisions, "seat": seat,
                "phase": self.game.phase, "legal": texts,
                "time_limit": self.seats[seat].time_limit,
                "view": protocol.view_to_json(self.game, seat)}

    def _match_over_message(self) -> dict[str, Any]:
        return {"type": "match_over", "match": self.match_id or 0,
                "results": [protocol.result_to_json(r) for r in self.game.results],
                "record": f"/api/matches/{self.match_id}/record"}

    def advance(self) -> None:
        """Ask for the next decision: schedule a bot, or push ``decide`` to the seat."""
        self._cancel_timers()
        g = self.game
        if g.match_over:
            return
        seat = g.current_player
        assert seat is not None
        plan = self.seats[seat]
        loop = asyncio.get_running_loop()
        if plan.kind == "bot":
            self._bot = loop.call_later(self.bot_delay, self._bot_move, self.n_decisions)
            return
        conn = self.conns[seat]
        if conn is not None:
            conn.send(self._decide_message(seat))
        else:
            self._schedule_standin(seat)
        if plan.time_limit is not None:
            self._timer = loop.call_later(plan.time_limit, self._timeout, self.n_decisions)

    def _cancel_timers(self) -> None:
        for h in (self._timer, self._bot, self._standin):
            if h is not None:
                h.cancel()
        self._timer = self._bot = self._standin = None

    def _bot_move(self, decision: int) -> None:
        if decision != self.n_decisions or self.game.match_over:
            return
        seat = self.game.current_player
        assert seat is not None  # the match is not over
        policy = self.seats[seat].policy or "heuristic"
        self.commit(policy_action(policy, self.game, self.seed, decision))

    def _timeout(self, decision: int) -> None:
        """The default action of a seat out of time: pass when passing is legal, otherwise
        the first legal action (docs/protocol.md)."""
        if decision != self.n_decisions or self.game.match_over:
            return
        actions, texts = self.legal()
        i = texts.index("pass") if "pass" in texts else 0
        self.commit(actions[i], timeout=True)

    def act(self, conn: Conn, msg: dict[str, Any]) -> None:
        """A seat's ``act`` message (already checked against the schema); ProtocolError
        (state unchanged) if it is refused. The checks run in the documented order:
        ``not_joined``, ``match_over``, ``stale_decision``, ``not_your_turn``,
        ``illegal_action`` (docs/protocol.md)."""
        seat = conn.seat
        if seat is None:
            raise ProtocolError("not_joined", "a spectator cannot act: join a seat with its token")
        g = self.game
        if g.match_over:
            raise ProtocolError("match_over", "the match is over")
        if "decision" in msg and msg["decision"] != self.n_decisions:
            raise ProtocolError("stale_decision", f"decision {msg['decision']} is not the open "
                                f"one ({self.n_decisions})")
        if g.current_player != seat:
            raise ProtocolError("not_your_turn", f"it is seat {g.current_player}'s turn, not seat {seat}'s")
        keys = [k for k in ("index", "text", "action") if k in msg]
        actions, _ = self.legal()
        try:
            if keys == ["index"]:
                i = msg["index"]
                if not 0 <= i < len(actions):
                    raise ProtocolError("illegal_action", f"index must be 0..{len(actions) - 1}, got {i!r}")
                action = actions[i]
            elif keys == ["text"]:
                action = protocol.parse_action(g, msg["text"])
            else:
                action = protocol.action_from_json(g, msg["action"])
            if action.seat != seat or action not in actions:
                raise ProtocolError("illegal_action", f"{action} is not a legal action of seat {seat} now")
        except ValueError as exc:
            raise ProtocolError("illegal_action", str(exc)) from None
        self.commit(action)

    # ---- advice for the seat to act (docs/protocol.md) ------------------------------
    def _own_decision(self, conn: Conn, msg: dict[str, Any], what: str) -> int:
        """The seat asking about its open decision, after the checks every ``act`` gets."""
        seat = conn.seat
        if seat is None:
            raise ProtocolError("not_joined", f"a spectator cannot ask for a {what}: join a seat")
        if self.game.match_over:
            raise ProtocolError("match_over", "the match is over")
        if "decision" in msg and msg["decision"] != self.n_decisions:
            raise ProtocolError("stale_decision", f"decision {msg['decision']} is not the open "
                                f"one ({self.n_decisions})")
        if self.game.current_player != seat:
            raise ProtocolError("not_your_turn", f"it is seat {self.game.current_player}'s turn, "
                                f"not seat {seat}'s")
        return seat

    def check(self, conn: Conn, msg: dict[str, Any]) -> None:
        """``check``: what the seat's selection would be (``checked``), any time."""
        seat = conn.seat
        if seat is None:
            raise ProtocolError("not_joined", "a spectator has no hand to check: join a seat")
        mine = not self.game.match_over and self.game.current_player == seat
        actions, _ = self.legal() if mine else ([], [])
        conn.send(advice.check(self.game, seat, msg["cards"], list(actions),
                               self.n_decisions if mine else None))

    def hint(self, conn: Conn, msg: dict[str, Any]) -> None:
        """``hint``: the engine's estimate of every choice of the open decision, computed in
        a worker thread (the loop goes on), at most one per seat per ``HINT_INTERVAL`` s and
        ``HINT_CONCURRENCY`` in the whole server (docs/protocol.md)."""
        seat = self._own_decision(conn, msg, "hint")
        hub = self.hub
        now = time.monotonic()
        if self._hinting[seat] or now - self._hint_at[seat] < hub.hint_interval:
            raise ProtocolError("rate_limited", f"one hint per seat every {hub.hint_interval:g} s")
        if hub.hints_running >= HINT_CONCURRENCY:
            raise ProtocolError("rate_limited", "the server is computing other hints: try again")
        self._hint_at[seat], self._hinting[seat] = now, True
        hub.hints_running += 1
        _, texts = self.legal()
        decision = self.n_decisions
        game = self.game.clone()  # the thread reads its own copy; play goes on meanwhile
        seed = secrets.randbits(32)
        loop = asyncio.get_running_loop()

        async def run() -> None:
            t0 = time.perf_counter()
            try:
                out = await loop.run_in_executor(hub.executor, advice.hint, game, texts, decision, seed)
                out["seconds"] = round(time.perf_counter() - t0, 3)
                hub.hint_seconds.append(out["seconds"])
                conn.send(out)
            except Exception as exc:  # noqa: BLE001 - reported to the asker, the table goes on
                conn.send({"type": "error", "code": "unavailable", "message": f"hint failed: {exc}"[:300]})
            finally:
                self._hinting[seat] = False
                hub.hints_running -= 1

        task = asyncio.ensure_future(run())
        hub.background.add(task)  # a reference until it is done
        task.add_done_callback(hub.background.discard)

    def _receivers(self) -> list[tuple[int | None, Conn]]:
        """(seat, connection) of every joined seat, then (None, spectator) of every spectator."""
        out: list[tuple[int | None, Conn]] = [(s, c) for s, c in enumerate(self.conns) if c is not None]
        return out + [(None, c) for c in self.spectators]

    def commit(self, action: _core.Action, timeout: bool = False, standin: bool = False) -> None:
        """Apply a legal action, checkpoint it, then tell every seat what happened."""
        t0, c0 = time.perf_counter(), time.thread_time()
        start = self.game.state.n_events
        seat, decision = action.seat, self.n_decisions
        self.game.step(action)
        ack = {"type": "ack", "decision": decision, "seat": seat, "text": str(action),
               "action": protocol.action_to_json(action)}
        if timeout:
            ack["timeout"] = True
        if standin:
            ack["standin"] = True
        self._publish(start, seat, ack, t0, c0)

    def leave(self, conn: Conn) -> None:
        """``leave``: the seat forfeits the match (R14); the match ends for everyone."""
        seat = conn.seat
        if seat is None:
            raise ProtocolError("not_joined", "a spectator has no seat to leave: just close")
        if self.game.match_over:
            raise ProtocolError("match_over", "the match is over")
        t0, c0 = time.perf_counter(), time.thread_time()
        start = self.game.state.n_events
        self.game.forfeit(seat)
        self._publish(start, seat, None, t0, c0)

    def _publish(self, start: int, seat: int, ack: dict[str, Any] | None, t0: float, c0: float) -> None:
        """After the engine changed: checkpoint the new decisions, then ack, events, views,
        match_over, and the next decision."""
        g = self.game
        new = g.state.events(start)
        decs = protocol.decisions(new)
        self.hub.store.append(self.id, self.n_saved, decs)
        self.n_saved += len(decs)
        self.n_decisions += 1
        self._legal = None
        if g.match_over:
            self.match_id = self.hub.store.finish(
                self.id, g.n_results, {"levels": list(g.levels), "scores": g.scores,
                                       "seats": [p.name for p in self.seats],
                                       "decisions": self.n_decisions}, g.to_record())
        conn = self.conns[seat]
        if conn is not None and ack is not None:
            conn.send(ack)
        self.hub.decisions += 1
        for i, ev in enumerate(new):
            e = protocol.event_to_json(*ev)
            texts: dict[Any, str] = {}  # public events are encoded once for everyone
            for seat_of, conn in self._receivers():
                if conn.events:
                    f = protocol.event_for_seat(e, seat_of)
                    key = "public" if f is e else seat_of  # a filtered form is the seat's own (R16)
                    if key not in texts:
                        texts[key] = protocol.dumps({"type": "event", "index": start + i, "event": f})
                    conn.send_text(texts[key])
        for seat_of, conn in self._receivers():
            if conn.views:
                conn.send({"type": "view", "view": protocol.view_to_json(g, seat_of)})
        if g.match_over:
            msg = self._match_over_message()
            for c in [*self.conns, *self.spectators]:
                if c is not None:
                    c.send(msg)
            self.hub.tables_done(self)
        self.advance()
        self.hub.busy.append(time.perf_counter() - t0)
        self.hub.busy_cpu.append(time.thread_time() - c0)


@dataclass
class Hub:
    """Every table of one server process, and its store."""

    store: Store
    bot_delay: float = 0.0
    rate: float = 50.0
    burst: float = 100.0
    tables: dict[str, Table] = field(default_factory=dict)
    #: finished tables kept in memory (listed, watchable); older ones are answered from the
    #: store only (their match record stays there)
    keep_finished: int = 100
    finished: collections.deque = field(default_factory=collections.deque)
    decisions: int = 0
    #: seconds each recent decision took to apply, store and push (``GET /api/stats``)
    busy: collections.deque = field(default_factory=lambda: collections.deque(maxlen=200_000))
    #: the same in CPU time of the server thread (what preemption by other processes adds
    #: to ``busy`` is left out)
    busy_cpu: collections.deque = field(default_factory=lambda: collections.deque(maxlen=200_000))
    #: hints: seconds between two of one seat, how many run now, how long each took
    hint_interval: float = HINT_INTERVAL
    hints_running: int = 0
    hint_seconds: collections.deque = field(default_factory=lambda: collections.deque(maxlen=10_000))
    executor: concurrent.futures.ThreadPoolExecutor = field(
        default_factory=lambda: concurrent.futures.ThreadPoolExecutor(HINT_CONCURRENCY, "daguai-hint"))
    background: set = field(default_factory=set)

    def stats(self) -> dict[str, Any]:
        """Decisions made and percentiles of the server time per decision (milliseconds)."""
        def summary(values: Any) -> dict[str, Any]:
            xs = sorted(values)
            if not xs:
                return {"n": 0, "p50": None, "p99": None, "max": None}
            at = lambda q: round(1000 * xs[min(len(xs) - 1, int(q * len(xs)))], 3)  # noqa: E731
            return {"n": len(xs), "p50": at(0.5), "p99": at(0.99), "max": at(1.0)}

        return {"decisions": self.decisions, "tables": len(self.tables),
                "open": sum(not t.game.match_over for t in self.tables.values()),
                "decision_ms": summary(self.busy), "decision_cpu_ms": summary(self.busy_cpu),
                "hint_ms": summary(self.hint_seconds)}

    def resume(self) -> int:
        """Rebuild the unfinished tables from their checkpoints; how many."""
        for t in self.store.open_tables():
            seats = [SeatPlan(**s) for s in t["seats"]]
            table = Table(self, t["id"], Rules.from_dict(t["rules"]), t["seed"], t["auto_pass"],
                          seats, self.bot_delay)
            table.restore(t["decisions"])
            self.tables[table.id] = table
        return len(self.tables)

    def start(self) -> None:
        """Resume play at every table (called on the running loop)."""
        for t in list(self.tables.values()):
            t.advance()

    def create(self, doc: Any) -> tuple[Table, list[str | None]]:
        """A new table from a create-table request (schema ``create_table``); its seat tokens
        (None for bots). ValueError naming the problem if the request is bad."""
        error = schema_error("create_table", doc)
        if error is not None:
            raise ValueError(error)
        rules = Rules.from_dict(doc.get("rules") or {})
        if rules.table != "6p3d":  # R18: the web table and its protocol seat six players
            raise ValueError(f"the table server seats 6 players (table '6p3d'); table "
                             f"'{rules.table}' is played through the Python API, not served yet")
        seed = doc.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**63)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise ValueError(f"seed must be an integer in [0, 2**63), got {seed!r}")
        seats_doc = doc.get("seats")
        if not isinstance(seats_doc, list) or len(seats_doc) != 6:
            raise ValueError("seats must be a list of 6 seat plans")
        seats = [SeatPlan.read(d, s) for s, d in enumerate(seats_doc)]
        auto = doc.get("auto_pass", True)
        if not isinstance(auto, bool):
            raise ValueError("auto_pass must be true or false")
        delay = doc.get("bot_delay", self.bot_delay)
        if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not 0 <= delay <= 10:
            raise ValueError("bot_delay must be seconds in [0, 10]")
        tokens: list[str | None] = []
        for p in seats:
            tok = None if p.kind == "bot" else secrets.token_urlsafe(24)
            p.token_hash = None if tok is None else token_hash(tok)
            tokens.append(tok)
        table_id = secrets.token_hex(6)
        table = Table(self, table_id, rules, seed, auto, seats, float(delay))
        self.store.add_table(table_id, rules.to_dict(), seed, auto, [p.to_json() for p in seats])
        self.tables[table_id] = table
        table.advance()
        return table, tokens

    def tables_done(self, table: Table) -> None:
        """A finished table stays in memory while it is one of the ``keep_finished`` newest
        finished tables; then only the store has it (``GET /api/tables/{id}`` still answers)."""
        self.finished.append(table.id)
        while len(self.finished) > self.keep_finished:
            self.tables.pop(self.finished.popleft(), None)

    def listing(self) -> list[dict[str, Any]]:
        """``GET /api/tables``: every table this server's store holds, oldest first; open
        and recently finished ones from memory, older finished ones from the store (so the
        list is the same before and after a restart)."""
        stored = {t["table"]: t for t in self.store.finished_tables()}
        out = []
        for tid in self.store.table_order():
            if tid in self.tables:
                out.append(self.tables[tid].summary())
            elif tid in stored:
                out.append(stored[tid])
        return out

    def table(self, table_id: Any) -> Table:
        if not isinstance(table_id, str) or table_id not in self.tables:
            raise ProtocolError("unknown_table", f"no table {table_id!r}")
        return self.tables[table_id]

    def handle(self, conn: Conn, text: str) -> None:
        """One client message (docs/protocol.md); refusals answer an ``error`` and change
        nothing."""
        try:
            if len(text) > MAX_MESSAGE:
                raise ProtocolError("too_large", f"messages are limited to {MAX_MESSAGE} bytes")
            if not conn.allow():
                raise ProtocolError("rate_limited", f"more than {conn.rate:g} messages/s: dropped")
            msg = read_client_message(text)
            kind = msg["type"]
            if kind == "ping":
                conn.send({"type": "pong"})
            elif kind == "join":
                self._join(conn, msg)
            elif kind == "act":
                if conn.table is None:
                    raise ProtocolError("not_joined", "join a table first")
                conn.table.act(conn, msg)
            elif kind == "resync":
                if conn.table is None:
                    raise ProtocolError("not_joined", "join a table first")
                conn.table.join(conn, conn.seat)
            elif kind in ("check", "hint"):
                if conn.table is None:
                    raise ProtocolError("not_joined", "join a table first")
                getattr(conn.table, kind)(conn, msg)
            elif kind == "leave":
                if conn.table is None:
                    raise ProtocolError("not_joined", "join a table first")
                conn.table.leave(conn)
        except ProtocolError as exc:
            conn.send({"type": "error", "code": exc.code, "message": str(exc)})

    def _join(self, conn: Conn, msg: dict[str, Any]) -> None:
        table = self.table(msg["table"])
        token = msg.get("token")
        seat: int | None = None
        if token is not None:
            h = token_hash(token)
            for s, p in enumerate(table.seats):
                if p.token_hash is not None and secrets.compare_digest(p.token_hash, h):
                    seat = s
            if seat is None:
                raise ProtocolError("bad_token", f"that token opens no seat of table {table.id}")
        if conn.table is not None:
            conn.table.disconnect(conn)
        conn.views = msg.get("views", False)
        conn.events = msg.get("events", True)
        table.join(conn, seat)
