"""The ASGI application of ``daguai serve`` (Starlette): HTTP JSON API, WebSocket, web table.

Routes (docs/server.md):

- ``GET /`` the web table, ``GET /replay`` the replay viewer, ``/static/*`` their files,
  ``GET /favicon.ico`` the pages' icon (browsers ask for it unprompted);
- ``GET /api/tables``, ``POST /api/tables``, ``GET /api/tables/{id}``, ``POST /api/play``
  (a table for one human against bots in
  every other seat);
- ``GET /api/matches``, ``GET /api/matches/{id}/record`` (JSON Lines);
- ``POST /api/review`` a game review streamed as JSON lines (``reviews.py``);
- ``GET /api/schema`` the JSON Schema; ``WS /ws`` the table protocol (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import codec, protocol
from ..rules import Rules
from ..table import seats_of
from .hints import HINT_INTERVAL
from .hub import Hub
from .messages import MAX_MESSAGE, ProtocolError, schema_error
from .reviews import ReviewRefused, Reviews
from .store import Store
from .tables import Conn

__all__ = ["create_app"]

STATIC = Path(__file__).parent / "static"

#: The server's own log (docs/server.md "Logs").
log = logging.getLogger("daguai.server")


def _error(status: int, code: str, message: str) -> JSONResponse:
    if status == 400:  # a refused request; the others (404, 413) are in uvicorn's access log
        log.info("refused a request: %s", message[:200])
    return JSONResponse({"error": code, "message": message}, status_code=status)


def create_app(db: str = ":memory:", *, bot_delay: float = 0.0, rate: float = 50.0,
               burst: float = 100.0, keep_finished: int = 100,
               hint_interval: float = HINT_INTERVAL) -> Starlette:
    """The server application over the SQLite database ``db``; unfinished tables found there
    resume when the application starts. The ``keep_finished`` newest finished tables stay in
    memory; older ones are answered from the store. ``hint_interval``: seconds between two
    hints of one seat."""
    store = Store(db)
    hub = Hub(store, bot_delay=bot_delay, rate=rate, burst=burst, keep_finished=keep_finished,
              hint_interval=hint_interval)
    hub.resume()
    reviews = Reviews(store, lambda tid: hub.tables[tid].game.n_results if tid in hub.tables else None)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.start()
        yield
        hub.executor.shutdown(wait=False, cancel_futures=True)
        reviews.executor.shutdown(wait=False, cancel_futures=True)
        store.close()

    async def read_json(request: Request) -> Any:
        body = await request.body()
        if len(body) > MAX_MESSAGE:
            raise HTTPException(413, f"request bodies are limited to {MAX_MESSAGE} bytes")
        if not body.strip():
            return {}
        try:
            return json.loads(body)
        except RecursionError:
            raise HTTPException(400, "not JSON: nested too deeply") from None
        except ValueError as exc:
            raise HTTPException(400, f"not JSON: {exc}") from None

    def created(request: Request, table: Any, tokens: list[str | None]) -> JSONResponse:
        return JSONResponse({"table": table.id, "tokens": tokens, "ws": "/ws"}, status_code=201)

    async def list_tables(request: Request) -> Response:
        return JSONResponse(hub.listing())

    def create(request: Request, doc: Any) -> Response:
        """A table from a create_table document: 201 with the seat tokens, or 400."""
        try:
            table, tokens = hub.create(doc)
        except ValueError as exc:
            return _error(400, "bad_request", str(exc))
        return created(request, table, tokens)

    async def create_table(request: Request) -> Response:
        return create(request, await read_json(request))

    async def play_vs_bots(request: Request) -> Response:
        doc = await read_json(request)
        error = schema_error("play_request", doc)
        if error is not None:
            return _error(400, "bad_request", error)
        bot = {"kind": "bot", "policy": doc.get("policy", "heuristic")}
        try:  # the others of the table's seats are bots: 5 at 6p3d, 3 at 4p2d (R18)
            n = seats_of(Rules.from_dict(doc.get("rules") or {}))
        except ValueError as exc:
            return _error(400, "bad_request", str(exc))
        req = {"rules": doc.get("rules") or {}, "seats": [{"kind": "human", "name": "you"}] + [bot] * (n - 1),
               "bot_delay": doc.get("bot_delay", 0.6)}
        if "seed" in doc:
            req["seed"] = doc["seed"]
        return create(request, req)

    async def get_table(request: Request) -> Response:
        try:
            t = hub.table(request.path_params["table"])
        except ProtocolError as exc:
            match = store.match_of_table(request.path_params["table"])
            if match is not None:  # finished and no longer in memory: the store answers
                return JSONResponse({"table": request.path_params["table"], "status": "finished",
                                     "match": match})
            return _error(404, exc.code, str(exc))
        return JSONResponse({**t.summary(), "view": t.view(codec.SPECTATOR)})

    async def list_matches(request: Request) -> Response:
        return JSONResponse(store.matches())

    async def match_record(request: Request) -> Response:
        text = request.path_params["match"]
        rec = store.record(int(text)) if text.isdigit() and len(text) < 18 else None
        if rec is None:
            return _error(404, "unknown_match", f"no finished match {text!r}")
        return PlainTextResponse(rec, media_type="application/x-ndjson")

    async def post_review(request: Request) -> Response:
        """A review (docs/server.md "Review"): JSON lines of progress, then the answer."""
        try:
            lines = reviews.start(await read_json(request))
        except ReviewRefused as exc:
            return _error(exc.status, exc.code, str(exc))
        return StreamingResponse(lines, media_type="application/x-ndjson")

    async def get_stats(request: Request) -> Response:
        return JSONResponse(hub.stats())

    async def get_schema(request: Request) -> Response:
        return JSONResponse(protocol.schema())

    async def page(request: Request) -> Response:
        name = "replay.html" if request.url.path.startswith("/replay") else "index.html"
        return FileResponse(STATIC / name)

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.ico", media_type="image/x-icon")

    async def ws_endpoint(ws: WebSocket) -> None:
        await ws.accept()
        conn = Conn(ws.send_text, hub.rate, hub.burst)
        writer = asyncio.create_task(conn.writer())
        try:
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None:
                    try:
                        text = (msg.get("bytes") or b"").decode("utf-8")
                    except UnicodeDecodeError:
                        conn.send({"type": "error", "code": "bad_json", "message": "not UTF-8 text"})
                        continue
                hub.handle(conn, text)
        except WebSocketDisconnect:
            pass
        finally:
            if conn.table is not None:
                conn.table.disconnect(conn)
            conn.closed = True
            conn.queue.put_nowait(None)
            try:
                await asyncio.wait_for(writer, 1.0)
            except (asyncio.TimeoutError, Exception):  # the socket is gone: nothing to flush
                writer.cancel()

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _error(exc.status_code, "http", str(exc.detail))

    routes = [
        Route("/", page), Route("/replay", page), Route("/favicon.ico", favicon),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table}", get_table, methods=["GET"]),
        Route("/api/play", play_vs_bots, methods=["POST"]),
        Route("/api/matches", list_matches, methods=["GET"]),
        Route("/api/matches/{match}/record", match_record, methods=["GET"]),
        Route("/api/review", post_review, methods=["POST"]),
        Route("/api/schema", get_schema, methods=["GET"]),
        Route("/api/stats", get_stats, methods=["GET"]),
        WebSocketRoute("/ws", ws_endpoint),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: http_error})
    app.state.hub = hub
    app.state.reviews = reviews
    return app
