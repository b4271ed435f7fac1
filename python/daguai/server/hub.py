"""The hub: every table of one server process, its store, the server-wide figures, and the
table of client messages (:data:`HANDLERS`) that :meth:`Hub.handle` routes each message by.

To add a client message: its ``client_<type>`` entry in the protocol schema (and in the
schema's ``client_message``, which ``messages.CLIENT_TYPES`` reads), its row in
:data:`HANDLERS` (usually calling a ``Table`` method) and its lines in docs/protocol.md."""

from __future__ import annotations

import collections
import concurrent.futures
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..codec import short_repr
from ..rules import Rules
from ..table import seats_of
from .hints import HINT_CONCURRENCY, HINT_INTERVAL
from .messages import MAX_MESSAGE, ProtocolError, read_client_message, schema_error
from .seats import SeatPlan, token_hash
from .store import Store
from .tables import Conn, Table

__all__ = ["Hub", "HANDLERS"]

#: Longest message read beyond the rate limit as a possible answer to the open decision.
MAX_ANSWER = 4096
#: The server's own log (docs/server.md "Logs"): never a hand, a seed or a token.
log = logging.getLogger("daguai.server")


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
            log.info("table %s resumed at decision %d (%s)", table.id, table.n_decisions,
                     table.rules.table)
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
        rules = Rules.from_dict(doc.get("rules") or {})  # either table: 6p3d or 4p2d (R18)
        seed = doc.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**63)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise ValueError(f"seed must be an integer in [0, 2**63), got {short_repr(seed)}")
        seats_doc = doc.get("seats")
        n = seats_of(rules)
        if not isinstance(seats_doc, list) or len(seats_doc) != n:
            raise ValueError(f"seats must be a list of {n} seat plans (table '{rules.table}', R18)")
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
        log.info("table %s created (%s): %s", table_id, rules.table,
                 ", ".join(p.kind if p.kind != "bot" else f"bot {p.policy}" for p in seats))
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
        kind = "a"
        try:
            if len(text) > MAX_MESSAGE:
                raise ProtocolError("too_large", f"messages are limited to {MAX_MESSAGE} bytes")
            allowed = conn.allow()
            if not allowed and (conn.grace <= 0 or conn.table is None):
                raise ProtocolError("rate_limited", f"more than {conn.rate:g} messages/s: dropped")
            msg = self._read(conn, text, allowed)
            kind = repr(msg["type"])
            HANDLERS[msg["type"]](self, conn, msg)
        except ProtocolError as exc:
            conn.send({"type": "error", "code": exc.code, "message": str(exc)})
            # the code, not the text: a refused message may hold a token or a seat's cards
            where = "" if conn.table is None else f" at table {conn.table.id} seat {conn.seat}"
            log.log(logging.DEBUG if exc.code == "rate_limited" else logging.INFO,
                    "refused %s message%s: %s", kind, where, exc.code)

    @staticmethod
    def _read(conn: Conn, text: str, allowed: bool) -> dict[str, Any]:
        """The message; beyond the rate only an ``act`` that answers the seat's open decision
        is applied (at most ``ANSWER_GRACE`` per decision), anything else is ``rate_limited``
        (read only if it is at most ``MAX_ANSWER`` characters: a flood costs little)."""
        if allowed:
            return read_client_message(text)
        msg = None
        if len(text) <= MAX_ANSWER:  # an act is short: a longer message is dropped unread
            try:
                msg = read_client_message(text)
            except ProtocolError:
                msg = None
        if msg is None or conn.table is None or not conn.table.answers_open_decision(conn, msg):
            raise ProtocolError("rate_limited", f"more than {conn.rate:g} messages/s: dropped")
        conn.grace -= 1
        return msg

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


def _joined(conn: Conn) -> Table:
    """The table the connection has joined; ``not_joined`` if none."""
    if conn.table is None:
        raise ProtocolError("not_joined", "join a table first")
    return conn.table


#: What each client message does (docs/protocol.md): one row per type of ``CLIENT_TYPES``.
HANDLERS: dict[str, Callable[[Hub, Conn, dict[str, Any]], None]] = {
    "join": lambda hub, conn, msg: hub._join(conn, msg),
    "act": lambda hub, conn, msg: _joined(conn).act(conn, msg),
    "resync": lambda hub, conn, msg: _joined(conn).join(conn, conn.seat),
    "ping": lambda hub, conn, msg: conn.send({"type": "pong"}),
    "check": lambda hub, conn, msg: _joined(conn).check(conn, msg),
    "hint": lambda hub, conn, msg: _joined(conn).hint(conn, msg),
    "leave": lambda hub, conn, msg: _joined(conn).leave(conn),
    "chat": lambda hub, conn, msg: _joined(conn).chat(conn, msg),
}
