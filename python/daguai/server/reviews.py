"""Game reviews at the server (docs/server.md "Review"): ``POST /api/review`` runs
:func:`daguai.review.review` on a stored record in a worker thread and streams its progress
and its answer as JSON lines.

Who may review what (R16: never a hidden card of a live round): at a table still playing,
a seat's own decisions (the request carries the seat's token) in a round that is over;
in a finished match (whose record is public at ``/api/matches/{id}/record``), any seat's
decisions in any round. The record is read from the store only (the checkpoint of a live
table, the stored record of a finished match). One review at a time per table or match, a
new one at most every ``REVIEW_INTERVAL`` seconds for each, ``REVIEW_CONCURRENCY`` in the
whole server; answers are kept (the newest ``REVIEW_CACHE``), so opening a review again is
immediate and costs nothing.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import json
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any

from .. import protocol
from ..game import Game
from ..review import REVIEW_ROLLOUTS, review
from ..rules import Rules
from .seats import token_hash
from .store import Store

__all__ = ["Reviews", "ReviewRefused", "REVIEW_INTERVAL", "REVIEW_CONCURRENCY", "REVIEW_SEED"]

#: Seconds between two reviews started for one table or match; reviews running at once.
REVIEW_INTERVAL = 2.0
REVIEW_CONCURRENCY = 2
#: Answers kept; the seed of every server review (the same answer as ``daguai.review``'s
#: defaults: ``review(record, seat, rounds=[round])``).
REVIEW_CACHE = 256
REVIEW_SEED = 0


class ReviewRefused(Exception):
    """A review request refused: HTTP ``status``, the error ``code`` and a message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


def _int(doc: dict[str, Any], key: str, lo: int, hi: int) -> int:
    v = doc.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ReviewRefused(400, "bad_request", f"{key} must be an integer in [{lo}, {hi}], got {v!r}")
    return v


def record_of_checkpoint(cp: dict[str, Any]) -> str:
    """The JSON Lines record of a stored table's checkpoint (its decisions replayed)."""
    g = Game(cp["seed"], Rules.from_dict(cp["rules"]), auto_pass=cp["auto_pass"])
    for i, d in enumerate(cp["decisions"]):
        protocol.apply_decision(g, d, f"table {cp['id']} decision {i}")
    return g.to_record()


class Reviews:
    """The server's reviews: checks, the worker thread, the answers kept."""

    def __init__(self, store: Store, rounds_of: Any) -> None:
        self.store = store
        self.rounds_of = rounds_of  # table id -> rounds finished at that table (or None)
        self.executor = concurrent.futures.ThreadPoolExecutor(1, "daguai-review")
        self.running: set[str] = set()
        self.started: dict[str, float] = {}
        self.cache: collections.OrderedDict[tuple[Any, ...], dict[str, Any]] = collections.OrderedDict()

    def plan(self, doc: Any) -> tuple[tuple[Any, ...], Any, dict[str, Any]]:
        """(cache key, a function returning the record, what the answer says about it) for a
        request ``{"match", "seat", "round"}`` or ``{"table", "token", "round"}``;
        :class:`ReviewRefused` if it is malformed or not allowed."""
        if not isinstance(doc, dict) or set(doc) - {"table", "token", "match", "seat", "round"}:
            raise ReviewRefused(400, "bad_request", "a review request is {match, seat, round} or "
                                "{table, token, round}")
        rnd = _int(doc, "round", 0, 10_000)
        if "match" in doc:
            mid = _int(doc, "match", 0, 2**62)
            info = next((m for m in self.store.matches() if m["match"] == mid), None)
            if info is None:
                raise ReviewRefused(404, "unknown_match", f"no finished match {mid}")
            seat = _int(doc, "seat", 0, len(info["seats"]) - 1)
            if rnd >= info["rounds"]:
                raise ReviewRefused(400, "bad_request", f"match {mid} has rounds 0..{info['rounds'] - 1}")
            about = {"match": mid, "table": info["table"], "names": info["seats"], "seat": seat,
                     "round": rnd}
            return ("m", mid, seat, rnd), lambda: self.store.record(mid), about
        return self._plan_table(doc, rnd)

    def _plan_table(self, doc: dict[str, Any], rnd: int) -> tuple[tuple[Any, ...], Any, dict[str, Any]]:
        tid, token = doc.get("table"), doc.get("token")
        cp = self.store.checkpoint(tid) if isinstance(tid, str) else None
        if cp is None:
            raise ReviewRefused(404, "unknown_table", f"no table {tid!r}")
        names = [p["name"] for p in cp["seats"]]
        if cp["status"] == "finished":  # the whole record is public now
            mid = self.store.match_of_table(str(tid))
            return self.plan({"match": mid, "seat": _int(doc, "seat", 0, len(names) - 1), "round": rnd})
        if not isinstance(token, str):
            raise ReviewRefused(403, "bad_token", "a live table's review needs the seat's token")
        h = token_hash(token)
        seat = next((s for s, p in enumerate(cp["seats"])
                     if p.get("token_hash") and secrets.compare_digest(p["token_hash"], h)), None)
        if seat is None or doc.get("seat", seat) != seat:
            raise ReviewRefused(403, "bad_token", "a seat may review only its own decisions while "
                                "the match is played")
        done = self.rounds_of(tid) or 0
        if rnd >= done:
            raise ReviewRefused(400, "bad_request", f"round {rnd} is not over (rounds over: {done})")
        about = {"match": None, "table": tid, "names": names, "seat": seat, "round": rnd}
        key = ("t", tid, seat, rnd)
        return key, lambda: record_of_checkpoint(self.store.checkpoint(str(tid)) or cp), about

    def start(self, doc: Any) -> AsyncIterator[str]:
        """Check a request and start its review: the answer's lines, ``{"type": "progress",
        "done", "total"}`` …, then ``{"type": "review", "review": {...}}`` or ``{"type":
        "error", "code", "message"}``. :class:`ReviewRefused` before anything runs if the
        request is malformed, not allowed or too soon."""
        key, record, about = self.plan(doc)
        if key in self.cache:
            return self._cached(self.cache[key])
        what = f"{key[0]}{key[1]}"
        now = time.monotonic()
        if what in self.running or now - self.started.get(what, -1e9) < REVIEW_INTERVAL:
            raise ReviewRefused(429, "rate_limited", f"one review at a time and one every "
                                f"{REVIEW_INTERVAL:g} s for each table: try again")
        if len(self.running) >= REVIEW_CONCURRENCY:
            raise ReviewRefused(429, "rate_limited", "the server is computing other reviews: try again")
        self.running.add(what)
        self.started[what] = now
        return self._run(key, record, about, what)

    @staticmethod
    async def _cached(answer: dict[str, Any]) -> AsyncIterator[str]:
        yield json.dumps({"type": "review", "review": answer}) + "\n"

    async def _run(self, key: tuple[Any, ...], record: Any, about: dict[str, Any],
                   what: str) -> AsyncIterator[str]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, float]] = asyncio.Queue()

        def progress(done: float, total: float) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, (done, total))

        def work() -> dict[str, Any]:
            r = review(record(), about["seat"], rounds=[about["round"]], rollouts=REVIEW_ROLLOUTS,
                       seed=REVIEW_SEED, progress=progress)
            return {**r.to_dict(), **about}

        fut = loop.run_in_executor(self.executor, work)
        try:
            while not fut.done() or not queue.empty():
                try:
                    done, total = await asyncio.wait_for(queue.get(), 0.25)
                except asyncio.TimeoutError:
                    continue
                yield json.dumps({"type": "progress", "done": round(done, 3), "total": total}) + "\n"
            try:
                answer = fut.result()
            except Exception as exc:  # noqa: BLE001 - told to the asker, the server goes on
                yield json.dumps({"type": "error", "code": "unavailable",
                                  "message": f"review failed: {exc}"[:300]}) + "\n"
                return
            self.cache[key] = answer
            while len(self.cache) > REVIEW_CACHE:
                self.cache.popitem(last=False)
            yield json.dumps({"type": "review", "review": answer}) + "\n"
        finally:
            self.running.discard(what)
