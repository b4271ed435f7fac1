"""``daguai serve``: tables over WebSockets, an HTTP JSON API and a web table (docs/server.md).

Needs the ``serve`` extra (Starlette, uvicorn, websockets, jsonschema): without it, importing
this package raises :class:`daguai.errors.MissingExtraError` (an ``ImportError``) naming the
extra, not a bare ``ModuleNotFoundError`` of whichever module came first."""

from __future__ import annotations

from ..errors import require

require("daguai.server", "serve", "starlette", "uvicorn", "websockets", "jsonschema")

__all__ = ["create_app", "serve"]


def create_app(db: str = ":memory:", **kwargs: float):  # type: ignore[no-untyped-def]
    """The ASGI application (see :func:`daguai.server.app.create_app`)."""
    from .app import create_app as _create
    return _create(db, **kwargs)


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "daguai.sqlite3",
          rate: float = 50.0, burst: float = 100.0, announce: bool | None = True) -> None:
    """Run the server until interrupted; prints the URL of the web table first."""
    import uvicorn

    app = create_app(db, rate=rate, burst=burst)
    if announce:
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        print(f"daguai serve: open http://{shown}:{port}/ (database {db})", flush=True)
    # 1 MiB frames reach the application, which answers `too_large` above 64 KiB
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=1 << 20,
                ws_ping_interval=20.0, ws_ping_timeout=20.0)
