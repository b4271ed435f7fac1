"""``daguai serve``: the table server (:func:`daguai.server.serve`)."""

from __future__ import annotations

import argparse

from .options import Command, Fail, int_text, positive

#: uvicorn's log levels (daguai.server.LOG_LEVELS, which needs the 'serve' extra to import)
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


def _add_serve(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int_text, default=8000, help="TCP port (default 8000)")
    p.add_argument("--db", default="daguai.sqlite3", metavar="PATH",
                   help="SQLite database (default ./daguai.sqlite3); unfinished tables resume")
    p.add_argument("--rate", type=positive, default=50, metavar="N",
                   help="messages per second allowed per connection (default 50)")
    p.add_argument("--log-level", default="info", choices=LOG_LEVELS, metavar="LEVEL",
                   help="what the server logs to stderr: " + ", ".join(LOG_LEVELS) + " (default "
                        "info: tables created and finished, refused messages, requests, errors)")


def _run_serve(args: argparse.Namespace) -> int:
    if not 0 <= args.port < 65536:
        raise Fail(f"--port must be 0..65535, got {args.port}")
    from ..server import serve

    serve(args.host, args.port, args.db, rate=float(args.rate), burst=2.0 * args.rate,
          log_level=args.log_level)
    return 0


COMMAND = Command("serve", "run the table server: web table, WebSocket protocol, HTTP JSON API",
        "Serve tables over WebSockets (docs/protocol.md) with a web table to play against "
        "bots, persisting matches in SQLite (docs/server.md). Needs the 'serve' extra.",
        _add_serve, _run_serve)
