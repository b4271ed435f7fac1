"""``POST /api/review`` (docs/server.md "Review"): a game review computed off the event
loop from the stored record, its progress streamed, the answer equal to ``daguai.review``;
a seat reviews only its own decisions of rounds that are over while the match is played
(R16: no hidden card of a live round), any seat once the match is finished; bounded."""

from __future__ import annotations

import collections
import json
from typing import Any

import pytest

pytest.importorskip("starlette")
from daguai.review import review  # noqa: E402
from daguai.server import create_app  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

BOTS = [{"kind": "bot", "policy": "heuristic"}] * 5


def _play_until(c: TestClient, rounds: int, seed: int = 4) -> tuple[str, str]:
    """A remote seat 0 with five instant bots (max_rounds 2); plays index 0 until round
    ``rounds`` has begun (or the match is over)."""
    r = c.post("/api/tables", json={"seed": seed, "bot_delay": 0,
                                    "rules": {"final_level": "3", "max_rounds": 2},
                                    "seats": [{"kind": "remote", "name": "Ann"}] + BOTS})
    tid, tok = r.json()["table"], r.json()["tokens"][0]
    with c.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": tid, "token": tok, "events": False})
        while True:
            m = ws.receive_json()
            if m["type"] == "match_over" or (m["type"] == "decide" and m["view"]["round"] >= rounds):
                break
            if m["type"] == "decide":
                ws.send_json({"type": "act", "decision": m["decision"], "index": 0})
    return tid, tok


def _lines(r: Any) -> list[dict[str, Any]]:
    assert r.status_code == 200, r.text
    return [json.loads(x) for x in r.text.splitlines()]


def _review_of(lines: list[dict[str, Any]]) -> dict[str, Any]:
    assert lines[-1]["type"] == "review", lines[-1]
    return lines[-1]["review"]


def test_review_of_a_finished_round_at_a_live_table():
    with TestClient(create_app(":memory:")) as c:
        tid, tok = _play_until(c, 1)
        game = c.app.state.hub.tables[tid].game  # type: ignore[attr-defined]
        assert not game.match_over and game.n_results == 1
        lines = _lines(c.post("/api/review", json={"table": tid, "token": tok, "round": 0}))
        got = _review_of(lines)
        progress = [x for x in lines if x["type"] == "progress"]
        assert progress and progress[-1]["done"] == progress[-1]["total"]
        want = review(game.to_record(), 0, rounds=[0]).to_dict()
        assert {k: got[k] for k in want} == want
        assert got["names"][0] == "Ann" and got["seat"] == 0 and got["round"] == 0
        dealt = collections.Counter(json.loads(game.to_record().splitlines()[1])["hands"][0].split())
        for d in got["decisions"]:  # only the seat's own cards (R16)
            assert not collections.Counter(d["hand"].split()) - dealt
        # the same again: kept, immediate, no progress
        again = _lines(c.post("/api/review", json={"table": tid, "token": tok, "round": 0}))
        assert len(again) == 1 and _review_of(again) == got


REFUSALS = [
    (None, {"round": 0}, 403, "bad_token"),  # no token: no review while the match is played
    ("nope", {"round": 0}, 403, "bad_token"),
    ("own", {"round": 0, "seat": 3}, 403, "bad_token"),  # another seat with one's own token
    ("own", {"round": 1}, 400, "bad_request"),  # not over
    ("own", {"round": -1}, 400, "bad_request"),
    ("own", {"round": 0, "colour": 1}, 400, "bad_request"),
]


def test_review_refusals_at_a_live_table():
    with TestClient(create_app(":memory:")) as c:
        tid, tok = _play_until(c, 1)
        for token, doc, status, code in REFUSALS:
            body = {"table": tid, **doc}
            if token is not None:
                body["token"] = tok if token == "own" else token
            r = c.post("/api/review", json=body)
            assert (r.status_code, r.json()["error"]) == (status, code), (doc, r.text)
        assert c.post("/api/review", json={"table": "nope", "token": tok, "round": 0}).status_code == 404
        assert c.post("/api/review", content=b"[1]").status_code == 400


@pytest.mark.slow
def test_review_of_a_finished_match_any_seat_and_rate_limited(monkeypatch):
    from daguai.server import reviews

    monkeypatch.setattr(reviews, "REVIEW_INTERVAL", 60.0)
    with TestClient(create_app(":memory:")) as c:
        tid, _ = _play_until(c, 99)
        mid = c.get("/api/matches").json()[0]["match"]
        record = c.get(f"/api/matches/{mid}/record").text
        got = _review_of(_lines(c.post("/api/review", json={"match": mid, "seat": 3, "round": 1})))
        assert {k: got[k] for k in ("decisions", "seat", "rounds")} == {
            k: v for k, v in review(record, 3, rounds=[1]).to_dict().items()
            if k in ("decisions", "seat", "rounds")}
        r = c.post("/api/review", json={"match": mid, "seat": 2, "round": 1})  # at once: too soon
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"
        monkeypatch.setattr(reviews, "REVIEW_INTERVAL", 0.0)
        by_table = c.post("/api/review", json={"table": tid, "seat": 2, "round": 0})
        assert _review_of(_lines(by_table))["seat"] == 2
        assert c.post("/api/review", json={"match": mid, "seat": 2, "round": 7}).status_code == 400
        assert c.post("/api/review", json={"match": 99, "seat": 2, "round": 0}).status_code == 404
