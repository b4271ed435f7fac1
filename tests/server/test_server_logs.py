"""The server's own log (docs/server.md "Logs"): tables created and finished, refused messages
and requests, at the level ``daguai serve --log-level`` sets; never a token or a hand."""

from __future__ import annotations

import logging
import time
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
from daguai.cli import serve as cli_serve  # noqa: E402
from daguai.server import LOG_LEVELS, create_app, log_config  # noqa: E402
from server_helpers import ServerProcess  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

BOTS = [{"kind": "bot", "policy": "random"}] * 5
ONE_ROUND = {"max_rounds": 1}


def recv(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(5000):
        m = ws.receive_json()
        if m["type"] == kind:
            return m
    raise AssertionError(f"no {kind} message")


def test_server_logs_tables_refusals_and_finished_matches(caplog):
    caplog.set_level(logging.INFO, logger="daguai.server")
    with TestClient(create_app(":memory:")) as c:
        assert c.post("/api/tables", json={"seats": BOTS}).status_code == 400
        r = c.post("/api/tables", json={"rules": ONE_ROUND, "seed": 3, "seats": [{"kind": "remote"}] + BOTS})
        tid, token = r.json()["table"], r.json()["tokens"][0]
        with c.websocket_connect("/ws") as ws:
            ws.send_text("{not json")
            assert recv(ws, "error")["code"] == "bad_json"
            ws.send_json({"type": "join", "table": tid, "token": "not-" + token})
            assert recv(ws, "error")["code"] == "bad_token"
            ws.send_json({"type": "join", "table": tid, "token": token})
            hand = recv(ws, "view")["view"]["hand"]
            ws.send_json({"type": "act", "text": " ".join(hand[:2]) + " SJ BJ BJ"})
            assert recv(ws, "error")["code"] == "illegal_action"
            ws.send_json({"type": "resync"})  # the decide skipped above comes again
            while True:  # play the seat out: the first legal action each time
                m = ws.receive_json()
                if m["type"] == "decide":
                    ws.send_json({"type": "act", "decision": m["decision"], "index": 0})
                elif m["type"] == "match_over":
                    break
    text = "\n".join(r.getMessage() for r in caplog.records if r.name == "daguai.server")
    assert "refused a request: seats must be a list of 6 seat plans" in text
    assert f"table {tid} created (6p3d): remote, bot random, bot random" in text
    assert "refused a message: bad_json" in text
    assert "refused 'join' message: bad_token" in text
    assert f"refused 'act' message at table {tid} seat 0: illegal_action" in text
    assert f"table {tid} finished: match 1, 1 rounds" in text
    assert token not in caplog.text and " ".join(hand[:2]) not in caplog.text  # no secrets


def test_log_levels_are_uvicorns_and_the_cli_choices():
    from uvicorn.config import LOG_LEVELS as UVICORN_LEVELS

    assert LOG_LEVELS == tuple(UVICORN_LEVELS) == cli_serve.LOG_LEVELS
    config = log_config("warning")
    assert config["loggers"]["daguai"]["level"] == logging.WARNING
    with pytest.raises(ValueError, match="log_level must be one of critical, error, "):
        log_config("loud")


def test_cli_refuses_an_unknown_log_level(capsys):
    from daguai.cli.main import main

    with pytest.raises(SystemExit) as exc:
        main(["serve", "--log-level", "loud"])
    assert exc.value.code == 2
    assert "--log-level" in capsys.readouterr().err


def finished_table(srv: ServerProcess) -> str:
    r = httpx.post(srv.base + "/api/tables", json={"rules": ONE_ROUND, "seed": 4, "seats": BOTS + BOTS[:1]},
                   timeout=10)
    assert r.status_code == 201, r.text
    tid = r.json()["table"]
    deadline = time.monotonic() + 60
    while httpx.get(f"{srv.base}/api/tables/{tid}", timeout=10).json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' match did not finish"
        time.sleep(0.1)
    return str(tid)


@pytest.mark.slow  # two server processes (seconds): CI runs it
@pytest.mark.parametrize("level, shown", [("info", True), ("warning", False)])
def test_serve_process_logs_at_its_level(tmp_path, level, shown):
    """``daguai serve --log-level info`` logs a match of six bots on 127.0.0.1 from creation to
    the end; ``warning`` keeps those lines out (uvicorn's own ``info`` lines too)."""
    srv = ServerProcess(str(tmp_path / "s.sqlite3"), log_level=level)
    try:
        tid = finished_table(srv)
    finally:
        out = srv.stop()
    assert (f"daguai.server: table {tid} created (6p3d)" in out) is shown
    assert (f"daguai.server: table {tid} finished: match 1" in out) is shown
    assert ('"GET /api/tables/' in out) is shown  # uvicorn's access log follows the same level
