"""One table of the server: a match, its seats and connections (docs/protocol.md,
docs/server.md).

Everything runs on one asyncio loop: a decision is validated, applied to the engine,
checkpointed in SQLite (committed) and only then pushed to the seats, each event filtered
for its receiver (R16). Built-in bots act from ``loop.call_later`` callbacks
(``standins.py``); the hub routes each client message to a method here (``hub.py``).
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from .. import _core, codec, documents, protocol, tricks
from ..game import Game
from ..rules import Rules
from ..table import seats_of
from . import advice
from .hints import Hints
from .messages import ProtocolError
from .seats import SeatPlan
from .standins import BotSeats
from .store import Store

#: Acts a seat may send for one open decision beyond the connection's rate limit (an
#: illegal answer may be corrected; more than that is a flood again).
ANSWER_GRACE = 3
#: Seconds between two chat messages of one seat (more often: ``rate_limited``).
CHAT_INTERVAL = 1.0
#: The server's own log (docs/server.md "Logs"): never a hand, a seed or a token.
log = logging.getLogger("daguai.server")


class Host(Protocol):
    """What a table needs of the hub that holds it (:class:`daguai.server.hub.Hub`): the
    store, the server-wide hint budget and the figures of ``GET /api/stats``."""

    store: Store
    decisions: int
    busy: collections.deque
    busy_cpu: collections.deque
    hint_interval: float
    hints_running: int
    hint_seconds: collections.deque
    executor: concurrent.futures.ThreadPoolExecutor
    background: set

    def tables_done(self, table: Table) -> None: ...


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
        #: acts that may answer the open decision beyond the rate limit: set when a
        #: ``decide`` is sent (an answer to a decision is never dropped as a flood)
        self.grace = 0
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


class Table(BotSeats, Hints):
    """One match at a table (R12): the engine game, the seat plan and who is connected."""

    def __init__(self, hub: Host, table_id: str, rules: Rules, seed: int, auto_pass: bool,
                 seats: list[SeatPlan], bot_delay: float) -> None:
        self.hub, self.id, self.rules, self.seed = hub, table_id, rules, seed
        self.auto_pass = auto_pass
        self.seats = seats
        self.bot_delay = bot_delay
        self.game = Game(seed, rules, auto_pass=auto_pass)
        n = seats_of(rules)
        self.n_decisions = 0      # decisions made (the id of the next one)
        self.n_saved = 0          # decisions checkpointed (auto_pass changes included)
        self.conns: list[Conn | None] = [None] * n
        self.spectators: set[Conn] = set()
        self.match_id: int | None = None
        self._legal: Any | None = None
        self._legal_text: list[str] = []
        self._timer: asyncio.TimerHandle | None = None
        self._bot: asyncio.TimerHandle | None = None
        self._hint_at = [-1e9] * n  # when each seat last asked for a hint (monotonic)
        self._hinting = [False] * n
        self._warm: tuple[int, asyncio.Future[dict[str, Any]]] | None = None  # (decision, its hint computing)
        self._chat_at = [-1e9] * n  # when each seat last chatted (monotonic)
        # since when each seat has had no connection (monotonic; None: connected)
        now = time.monotonic()
        self.away_since: list[float | None] = [now] * n
        self._standin: asyncio.TimerHandle | None = None

    # ---- state ----------------------------------------------------------------------
    def restore(self, decisions: list[Any]) -> None:
        """Replay checkpointed decisions (the table as it stood before a restart)."""
        for i, d in enumerate(decisions):
            protocol.apply_decision(self.game, d, f"table {self.id} decision {i}")
            if d[1] != "auto_pass":
                self.n_decisions += 1
        self.n_saved = len(decisions)

    def seat_info(self) -> list[dict[str, Any]]:
        return [{"seat": s, "kind": p.kind, "name": p.name, "connected": self.conns[s] is not None,
                 "bot_playing": self.standing_in(s)}
                for s, p in enumerate(self.seats)]

    def summary(self) -> dict[str, Any]:
        g = self.game
        return documents.table_summary(
            table=self.id, finished=g.match_over, rules=self.rules.to_dict(), seats=self.seat_info(),
            round=g.round, levels=g.levels, scores=g.scores, decisions=self.n_decisions,
            match=self.match_id, spectators=len(self.spectators))

    def view(self, seat: int | None) -> dict[str, Any]:
        """The seat's view (R16) with its history by trick (``trick_starts``, ``last_trick``)."""
        return tricks.with_tricks(protocol.view_to_json(self.game, seat))

    def legal(self) -> tuple[Any, list[str]]:
        if self._legal is None:
            self._legal = self.game.legal_actions()
            self._legal_text = [str(a) for a in self._legal]
        return self._legal, self._legal_text

    # ---- connections ----------------------------------------------------------------
    def _connected(self, seat: int) -> bool:
        return self.conns[seat] is not None

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
            # The one stand-in timer is for the seat to act: cancel it only if that is this
            # seat (a join of another seat used to cancel the acting seat's stand-in, and the
            # table then waited for nobody: tests/server/test_server_friends_standin.py).
            if self._standin is not None and self.game.current_player == seat:
                self._standin.cancel()
                self._standin = None
        conn.table, conn.seat = self, seat
        seats = [{**i, "time_limit": p.time_limit} if p.time_limit is not None else i
                 for i, p in zip(self.seat_info(), self.seats, strict=True)]  # the page's time bars
        conn.send({"type": "welcome", "protocol": protocol.PROTOCOL_VERSION, "table": self.id,
                   "seat": seat, "rules": self.rules.to_dict(), "seats": seats,
                   **({"match": self.match_id} if self.match_id is not None else {})})
        conn.send({"type": "view", "view": self.view(seat)})
        if self.game.match_over:
            conn.send(self._match_over_message())
        elif seat is not None and self.game.current_player == seat:
            self._send_decide(conn, seat)

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

    # ---- decisions ------------------------------------------------------------------
    def _decide_message(self, seat: int) -> dict[str, Any]:
        _, texts = self.legal()
        msg = {"type": "decide", "decision": self.n_decisions, "seat": seat,
               "phase": self.game.phase, "legal": texts,
               "time_limit": self.seats[seat].time_limit,
               "view": self.view(seat)}
        found = advice.combos(self.game, seat) if self.game.phase == "play" else []
        if found:  # the straights, flushes and bombs the page marks in the hand
            msg["combos"] = found
        return msg

    def _send_decide(self, conn: Conn, seat: int) -> None:
        conn.grace = ANSWER_GRACE
        conn.send(self._decide_message(seat))
        if conn.views and self.seats[seat].kind == "human":  # a person at the web table
            self.prewarm()

    def answers_open_decision(self, conn: Conn, msg: dict[str, Any]) -> bool:
        """Whether ``msg`` is an ``act`` of the seat to act for the open decision (it then
        passes the rate limit: docs/protocol.md "Rate limit")."""
        return (msg["type"] == "act" and conn.seat is not None and not self.game.match_over
                and self.game.current_player == conn.seat and self.conns[conn.seat] is conn
                and msg.get("decision", self.n_decisions) == self.n_decisions)

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
            self._send_decide(conn, seat)
        else:
            self._schedule_standin(seat)
        if plan.time_limit is not None:
            self._timer = loop.call_later(plan.time_limit, self._timeout, self.n_decisions)

    def _cancel_timers(self) -> None:
        for h in (self._timer, self._bot, self._standin):
            if h is not None:
                h.cancel()
        self._timer = self._bot = self._standin = None

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

    def chat(self, conn: Conn, msg: dict[str, Any]) -> None:
        """``chat``: a seat's short message or emote, to everyone at the table (seats and
        spectators), at most one per seat every ``CHAT_INTERVAL`` s; its text (1 to 200
        characters, the schema) is passed on as text, control characters removed: the
        page shows it as text, never as HTML."""
        text = "".join(ch for ch in msg["text"] if ch.isprintable()).strip()
        if not text:
            raise ProtocolError("bad_message", "chat: the text is empty")
        seat = conn.seat
        if seat is None:
            raise ProtocolError("not_joined", "a spectator cannot chat: join a seat")
        now = time.monotonic()
        if now - self._chat_at[seat] < CHAT_INTERVAL:
            raise ProtocolError("rate_limited", f"one chat message per seat every {CHAT_INTERVAL:g} s")
        self._chat_at[seat] = now
        out = codec.dumps({"type": "chat", "seat": seat, "text": text})
        for _, c in self._receivers():
            c.send_text(out)

    def _receivers(self) -> list[tuple[int | None, Conn]]:
        """(seat, connection) of every joined seat, then (None, spectator) of every spectator."""
        out: list[tuple[int | None, Conn]] = [(s, c) for s, c in enumerate(self.conns) if c is not None]
        return out + [(None, c) for c in self.spectators]

    def commit(self, action: _core.game.Action, timeout: bool = False, standin: bool = False) -> None:
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
        log.info("table %s: seat %d left, forfeiting the match (R14)", self.id, seat)
        self._publish(start, seat, None, t0, c0)

    def _publish(self, start: int, seat: int, ack: dict[str, Any] | None, t0: float, c0: float) -> None:
        """After the engine changed: checkpoint the new decisions, then ack, events, views,
        match_over, and the next decision."""
        g = self.game
        new = g.state.events(start)
        decs = codec.decisions(new)
        self.hub.store.append(self.id, self.n_saved, decs)
        self.n_saved += len(decs)
        self.n_decisions += 1
        self._legal = None
        if g.match_over:
            self.match_id = self.hub.store.finish(
                self.id, g.n_results,
                documents.match_summary(levels=g.levels, scores=g.scores, seats=[p.name for p in self.seats],
                                    decisions=self.n_decisions), g.to_record())
            log.info("table %s finished: match %d, %d rounds, %d decisions, levels %s, scores %s",
                     self.id, self.match_id, g.n_results, self.n_decisions, g.levels, g.scores)
        conn = self.conns[seat]
        if conn is not None and ack is not None:
            conn.send(ack)
        self.hub.decisions += 1
        for i, ev in enumerate(new):
            e = codec.encode(ev)
            texts: dict[Any, str] = {}  # public events are encoded once for everyone
            for seat_of, conn in self._receivers():
                if conn.events:
                    f = codec.restrict(e, seat_of)  # R16, the engine's audience rule
                    key = "public" if f is e else seat_of  # a filtered form is the seat's own (R16)
                    if key not in texts:
                        texts[key] = codec.dumps({"type": "event", "index": start + i, "event": f})
                    conn.send_text(texts[key])
        for seat_of, conn in self._receivers():
            if conn.views:
                conn.send({"type": "view", "view": self.view(seat_of)})
        if g.match_over:
            msg = self._match_over_message()
            for c in [*self.conns, *self.spectators]:
                if c is not None:
                    c.send(msg)
            self.hub.tables_done(self)
        self.advance()
        self.hub.busy.append(time.perf_counter() - t0)
        self.hub.busy_cpu.append(time.thread_time() - c0)
