"""The hint of a table (docs/protocol.md "Advice for the seat to act"): the engine's
estimate of every choice of the open decision, computed in a worker thread, and computed
ahead for a person at the web table as soon as their decision opens (so the first click
finds it ready: "warm"), within the server's hint budget."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

from ..game import Game
from . import advice
from .messages import ProtocolError

#: The server's own log (docs/server.md "Logs"): never a hand, a seed or a token.
log = logging.getLogger("daguai.server")

__all__ = ["Hints", "HINT_INTERVAL", "HINT_CONCURRENCY"]

#: Seconds between two hints of one seat, and hints computed at once by the whole server.
HINT_INTERVAL = 3.0
HINT_CONCURRENCY = 2


class Hints:
    """The hint part of a :class:`daguai.server.tables.Table` (its base class): the
    attributes below are the table's."""

    hub: Any
    game: Game
    n_decisions: int
    _hint_at: list[float]
    _hinting: list[bool]
    _warm: tuple[int, asyncio.Future[dict[str, Any]]] | None

    def legal(self) -> tuple[Any, list[str]]:
        raise NotImplementedError

    def _own_decision(self, conn: Any, msg: dict[str, Any], what: str) -> int:
        raise NotImplementedError

    def _compute(self) -> asyncio.Future[dict[str, Any]]:
        """The hint of the open decision, computing in the hub's executor on a copy of the
        game (play goes on meanwhile); it counts in the server's ``hints_running``."""
        hub = self.hub
        hub.hints_running += 1
        _, texts = self.legal()
        game = self.game.clone()
        decision, seed = self.n_decisions, secrets.randbits(32)
        loop = asyncio.get_running_loop()

        async def run() -> dict[str, Any]:
            try:
                return await loop.run_in_executor(hub.executor, advice.hint, game, texts, decision, seed)
            finally:
                hub.hints_running -= 1

        task = asyncio.ensure_future(run())
        hub.background.add(task)  # a reference until it is done
        task.add_done_callback(hub.background.discard)
        task.add_done_callback(lambda t: t.cancelled() or t.exception())  # read: no warning
        return task

    def prewarm(self) -> None:
        """Compute the hint of the open decision ahead, when the server has a hint slot to
        spare (one stays free for asked hints): bounded like any hint."""
        if self.game.match_over or (self._warm is not None and self._warm[0] == self.n_decisions):
            return
        if self.hub.hints_running >= HINT_CONCURRENCY - 1:
            return
        self._warm = (self.n_decisions, self._compute())

    def hint(self, conn: Any, msg: dict[str, Any]) -> None:
        """``hint``: the engine's estimate of every choice of the open decision (computed
        ahead if it was warm), at most one per seat per ``hint_interval`` s and
        ``HINT_CONCURRENCY`` computing in the whole server (docs/protocol.md)."""
        seat = self._own_decision(conn, msg, "hint")
        hub = self.hub
        now = time.monotonic()
        if self._hinting[seat] or now - self._hint_at[seat] < hub.hint_interval:
            raise ProtocolError("rate_limited", f"one hint per seat every {hub.hint_interval:g} s")
        warm = self._warm
        if warm is not None and warm[0] == self.n_decisions:
            task = warm[1]
        elif hub.hints_running >= HINT_CONCURRENCY:
            raise ProtocolError("rate_limited", "the server is computing other hints: try again")
        else:
            task = self._compute()
        self._hint_at[seat], self._hinting[seat] = now, True
        t0 = time.perf_counter()

        async def answer() -> None:
            try:
                out = dict(await asyncio.shield(task))
                out["seconds"] = round(time.perf_counter() - t0, 3)
                hub.hint_seconds.append(out["seconds"])
                conn.send(out)
            except Exception as exc:  # noqa: BLE001 - reported to the asker, the table goes on
                conn.send({"type": "error", "code": "unavailable", "message": f"hint failed: {exc}"[:300]})
                log.error("table %s seat %d: hint failed: %s", self.id, seat, type(exc).__name__)
            finally:
                self._hinting[seat] = False

        done = asyncio.ensure_future(answer())
        hub.background.add(done)
        done.add_done_callback(hub.background.discard)
