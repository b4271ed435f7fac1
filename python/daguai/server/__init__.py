"""``daguai serve``: tables over WebSockets, an HTTP JSON API and a web table (docs/server.md).

Needs the ``serve`` extra (Starlette, uvicorn, websockets, jsonschema): without it, importing
this package raises :class:`daguai.errors.MissingExtraError` (an ``ImportError``) naming the
extra, not a bare ``ModuleNotFoundError`` of whichever module came first."""

from __future__ import annotations

from ..errors import require

require("daguai.server", "serve", "starlette", "uvicorn", "websockets", "jsonschema")

__all__ = ["LOG_LEVELS", "create_app", "serve"]


def create_app(db: str = ":memory:", **kwargs: float):  # type: ignore[no-untyped-def]
    """The ASGI application (see :func:`daguai.server.app.create_app`)."""
    from .app import create_app as _create
    return _create(db, **kwargs)


def _log_levels() -> tuple[str, ...]:
    from uvicorn.config import LOG_LEVELS as UVICORN_LEVELS
    return tuple(UVICORN_LEVELS)


#: uvicorn's log levels, quietest first (``daguai serve --log-level``).
LOG_LEVELS = _log_levels()


def log_config(level: str) -> dict:  # type: ignore[type-arg]
    """uvicorn's logging set-up with the server's own logger (``daguai``, docs/server.md
    "Logs") on the same handler and at the same ``level``."""
    import copy

    from uvicorn.config import LOG_LEVELS as UVICORN_LEVELS
    from uvicorn.config import LOGGING_CONFIG

    if level not in LOG_LEVELS:
        raise ValueError(f"log_level must be one of {', '.join(LOG_LEVELS)}, got {level!r}")
    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["daguai"] = {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    config["handlers"]["daguai"] = {"formatter": "daguai", "class": "logging.StreamHandler",
                                    "stream": "ext://sys.stderr"}
    config["loggers"]["daguai"] = {"handlers": ["daguai"], "level": UVICORN_LEVELS[level],
                                   "propagate": False}
    return config


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "daguai.sqlite3",
          rate: float = 50.0, burst: float = 100.0, announce: bool | None = True,
          log_level: str = "info") -> None:
    """Run the server until interrupted; prints the URL of the web table first. ``log_level``
    (one of :data:`LOG_LEVELS`) is uvicorn's and the server's own: at ``info`` the server logs
    tables created, resumed and finished, refused messages and requests, and errors."""
    import uvicorn

    config = log_config(log_level)
    app = create_app(db, rate=rate, burst=burst)
    if announce:
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        print(f"daguai serve: open http://{shown}:{port}/ (database {db})", flush=True)
    # 1 MiB frames reach the application, which answers `too_large` above 64 KiB
    uvicorn.run(app, host=host, port=port, log_level=log_level, log_config=config,
                ws_max_size=1 << 20, ws_ping_interval=20.0, ws_ping_timeout=20.0)
