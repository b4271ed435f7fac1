"""``check`` and ``hint`` (issue 19, items 1 and 3): why a selection is or is not a legal
action, every declare reading named and the strongest first (R6, R7), and the engine's
estimate of each choice for the seat to act only (R16), bounded and rate-limited per seat."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("starlette")
from daguai import Game, Rules  # noqa: E402
from daguai.server import create_app  # noqa: E402
from daguai.server.advice import HINT_MAX_WORLDS, HINT_SECONDS, check, hint_worlds  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from test_server import BOTS, expect_error, new_table, recv  # noqa: E402

SEATS = [{"kind": "remote"}] + BOTS


def until_decide(ws: Any) -> dict[str, Any]:
    return recv(ws, "decide")


def ask(ws: Any, msg: dict[str, Any], kind: str) -> dict[str, Any]:
    ws.send_json(msg)
    return recv(ws, kind)


@pytest.fixture
def client():
    with TestClient(create_app(":memory:", hint_interval=1.0)) as c:
        yield c


# ---- check ---------------------------------------------------------------------------------
def test_check_names_the_readings_or_the_reason(client):
    tid, tokens = new_table(client, SEATS, seed=5)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": tid, "token": tokens[0]})
        d = until_decide(ws)
        hand = d["view"]["hand"]
        empty = ask(ws, {"type": "check", "cards": ""}, "checked")
        assert empty["reason"]["code"] == "empty" and empty["decision"] == d["decision"]
        first = next(t for t in d["legal"] if t != "pass")
        cards = first.split(" as ")[0]
        ok = ask(ws, {"type": "check", "cards": cards}, "checked")
        assert ok["reason"] is None and ok["readings"]
        assert all(d["legal"][r["index"]] == r["text"] for r in ok["readings"])
        jokers = ask(ws, {"type": "check", "cards": "BJ BJ BJ BJ"}, "checked")
        assert jokers["reason"]["code"] == "not_in_hand"
        four = " ".join(hand[:4])
        assert ask(ws, {"type": "check", "cards": four}, "checked")["reason"]["code"] in ("size", "size_top")
        ws.send_json({"type": "check", "cards": "2x"})
        expect_error(ws, "bad_message")


def test_check_reasons_against_a_top_play_r7():
    """A follow must have the top's size (size_top) and beat it (does_not_beat), R7."""
    g = Game(3, Rules())
    lead = max((a for a in g.legal_actions() if a.play is not None and a.play.size == 2
                and not a.play.jokers), key=lambda a: a.play.key)  # a high natural pair
    g.step(lead)
    seat = g.current_player
    hand = str(g.hand(seat)).split()
    legal = list(g.legal_actions())
    single = check(g, seat, hand[0], legal, 1)
    assert single["reason"] == {"code": "size_top", "size": 1, "top_size": 2}
    naturals = [c for c in hand if c not in ("SJ", "BJ")]
    by_rank: dict[str, list[str]] = {}
    for c in naturals:
        by_rank.setdefault(c[0], []).append(c)
    pairs = [v[:2] for v in by_rank.values() if len(v) >= 2]
    codes = {" ".join(p): check(g, seat, " ".join(p), legal, 1) for p in pairs}
    for text, out in codes.items():  # each pair either beats the top or is told it does not
        assert bool(out["readings"]) != (out["reason"] is not None), text
        if out["reason"] is not None:
            assert out["reason"]["code"] == "does_not_beat" and out["reason"]["top_kind"] == "pair"
    assert any(out["reason"] for out in codes.values())
    mixed = next((a, b) for a in naturals for b in naturals if a[0] != b[0])
    assert check(g, seat, " ".join(mixed), legal, 1)["reason"]["code"] == "no_combination"


def test_declare_readings_are_all_named_strongest_first_r6():
    """Under wild="declare" one selection has several readings; the check lists each with
    its combination, the strongest (highest key, R7) first."""
    rules = Rules(wild="declare")
    for seed in range(40):
        g = Game(seed, rules)
        seat = g.current_player
        legal = list(g.legal_actions())
        by_cards: dict[str, list[Any]] = {}
        for a in legal:
            if a.play is not None and a.play.jokers and a.play.size == 5:
                by_cards.setdefault(str(a.cards), []).append(a)
        multi = [v for v in by_cards.values() if len({p.play.kind for p in v}) > 1]
        if not multi:
            continue
        group = multi[0]
        out = check(g, seat, str(group[0].cards), legal, 0)
        keys = [r["key"] for r in out["readings"]]
        assert len(out["readings"]) == len(group) and keys == sorted(keys, reverse=True)
        assert out["readings"][0]["kind"] == max(group, key=lambda a: a.play.key).play.kind.name.lower()
        assert all("as" in r for r in out["readings"])
        return
    pytest.fail("no declare selection with readings of two kinds in 40 deals")


# ---- hint ----------------------------------------------------------------------------------
def test_hint_worlds_bound_the_time():
    """worlds x legal actions x seconds per rollout stays within HINT_SECONDS (1 world at
    the least: a hint always answers)."""
    for cost in (1e-5, 3e-4, 2e-3):
        for n in (1, 2, 10, 63, 64, 65, 500, 4000, 10_000):
            w = hint_worlds(n, cost)
            assert 1 <= w <= HINT_MAX_WORLDS and (w == 1 or w * n * cost <= HINT_SECONDS + 1e-9)
    assert hint_worlds(10, 1e-3) < hint_worlds(10, 1e-4)  # slower rollouts, fewer worlds


def test_hint_for_the_seat_to_act_only_rate_limited_and_stale_aware(client):
    tid, tokens = new_table(client, [{"kind": "remote"}, {"kind": "remote"}] + BOTS[:4], seed=7)
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b, \
            client.websocket_connect("/ws") as spec:
        a.send_json({"type": "join", "table": tid, "token": tokens[0]})
        b.send_json({"type": "join", "table": tid, "token": tokens[1]})
        spec.send_json({"type": "join", "table": tid})
        recv(spec, "welcome")
        spec.send_json({"type": "hint"})
        expect_error(spec, "not_joined")
        spec.send_json({"type": "check", "cards": ""})
        expect_error(spec, "not_joined")
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = hub.tables[tid]
        while table.game.current_player not in (0, 1):
            time.sleep(0.01)
        mover, idle = (a, b) if table.game.current_player == 0 else (b, a)
        d = until_decide(mover)
        idle.send_json({"type": "hint"})
        expect_error(idle, "not_your_turn")
        mover.send_json({"type": "hint", "decision": d["decision"] + 5})
        expect_error(mover, "stale_decision")
        t0 = time.monotonic()
        h = ask(mover, {"type": "hint", "decision": d["decision"]}, "hint")
        assert time.monotonic() - t0 < 30
        assert h["decision"] == d["decision"] and h["seat"] == d["seat"]
        assert 1 <= h["worlds"] <= HINT_MAX_WORLDS or len(d["legal"]) == 1
        texts = [c["text"] for c in h["candidates"]]
        assert sorted(texts) == sorted(d["legal"])  # every choice, nothing else (R16)
        for c in h["candidates"]:
            assert d["legal"][c["index"]] == c["text"]
            assert abs(c["win"] + c["draw"] + c["lose"] - 1) < 1e-9 or c["n"] == 0
            assert c["win_ci"][0] <= c["win"] <= c["win_ci"][1]
        mover.send_json({"type": "hint"})
        m = expect_error(mover, "rate_limited")
        assert "every" in m["message"]
        assert hub.stats()["hint_ms"]["n"] == 1
