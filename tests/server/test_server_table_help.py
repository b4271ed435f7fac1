"""What the web table's help reads from the server: the hint's rows merged by family (plays
that differ only by a kicker or a suit, R5), the straights, flushes and bombs of a hand in
``decide.combos`` (the engine's classification, R5), the seats' time limits in ``welcome``,
and the ``chat`` message (schema-checked, length-bounded, rate-limited, passed on as text
to every seat and spectator). Every message on the way is checked against the schema."""

from __future__ import annotations

import collections

import pytest

pytest.importorskip("starlette")
import daguai  # noqa: E402
from daguai.plays import legal_plays  # noqa: E402
from daguai.protocol import parse_action  # noqa: E402
from daguai.server import advice  # noqa: E402
from test_server import BOTS, expect_error, new_table, recv  # noqa: E402

PEOPLE = [{"kind": "human", "name": "Ann", "time_limit": 30}, {"kind": "human", "name": "Bo"}] + BOTS[:4]


def test_families_merge_kickers_and_suits_only_r5():
    """A four-plus-one's kicker and a pair's suits do not make new families; a different
    rank, a different kind or a joker spent does."""
    game = daguai.Game(1)
    legal = [str(a) for a in game.legal_actions()]
    fam = dict(zip(legal, advice.families(game, legal), strict=True))
    fours = [t for t in legal if fam[t][0] == "four_plus_one"]
    by_four: dict[str, set[int]] = {}
    for t in fours:
        a = parse_action(game, t)
        cards = str(a.cards).split()
        four = max(set(c[0] for c in cards), key=lambda r: sum(c[0] == r for c in cards))
        jokers = sum(c in ("SJ", "BJ") for c in cards)
        if jokers == 0:
            by_four.setdefault(four, set()).add(fam[t][1])
    assert by_four and all(len(f) == 1 for f in by_four.values()), by_four  # kickers merged
    assert len({next(iter(f)) for f in by_four.values()}) == len(by_four)  # ranks apart
    pairs = [t for t in legal if fam[t][0] == "pair"]
    ranks: dict[str, set[int]] = {}
    for t in pairs:
        if "SJ" in t or "BJ" in t:
            continue
        ranks.setdefault(t[0], set()).add(fam[t][1])
    assert ranks and all(len(f) == 1 for f in ranks.values()), ranks  # suits merged
    kinds = {fam[t][1]: fam[t][0] for t in legal}
    assert all(kinds[fam[t][1]] == fam[t][0] for t in legal)  # one kind per family


def test_the_hint_rows_carry_kind_and_family(client):
    table, tokens = new_table(client, [{"kind": "remote"}] + BOTS, seed=1)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": table, "token": tokens[0]})
        d = recv(ws, "decide")
        ws.send_json({"type": "hint", "decision": d["decision"]})
        h = recv(ws, "hint")
    fams = [c["family"] for c in h["candidates"]]
    assert fams[0] == 0 and max(fams) < len(fams)
    # families are numbered in the order of the hint's rows: the first of each is best first
    first = [fams.index(f) for f in sorted(set(fams))]
    assert first == sorted(first)
    for c in h["candidates"]:
        assert ("kind" in c) == (c["text"] != "pass"), c


def test_decide_lists_the_hands_combinations_and_welcome_the_time_limits(client):
    table, tokens = new_table(client, [{"kind": "remote", "time_limit": 30}] + BOTS, seed=1)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": table, "token": tokens[0]})
        w = recv(ws, "welcome")
        assert w["seats"][0]["time_limit"] == 30 and "time_limit" not in w["seats"][1]
        d = recv(ws, "decide")
    # seat 0 follows a five-card play here: the hand's combinations are listed all the same
    assert d["seat"] == 0 and d["view"]["top"] is not None and d["combos"], d.get("combos")
    hand = d["view"]["hand"]
    kinds = {c["kind"] for c in d["combos"]}
    assert kinds <= set(advice.COMBO_KINDS) and "straight" in kinds, kinds
    lead = [str(p.cards) for p in legal_plays(" ".join(hand), d["view"]["level"])]  # as a leader (R8)
    for c in d["combos"]:
        assert not collections.Counter(c["cards"].split()) - collections.Counter(hand), c
        assert c["cards"] in lead, c
        assert daguai.classify(c["cards"], d["view"]["level"]).kind.name.lower() == c["kind"], c


def test_chat_reaches_everyone_as_text_rate_limited_and_bounded(client):
    table, tokens = new_table(client, PEOPLE, seed=2)
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b, \
            client.websocket_connect("/ws") as watcher:
        a.send_json({"type": "join", "table": table, "token": tokens[0]})
        recv(a, "welcome")
        b.send_json({"type": "join", "table": table, "token": tokens[1]})
        recv(b, "welcome")
        watcher.send_json({"type": "join", "table": table})
        recv(watcher, "welcome")
        text = "<img src=x onerror=alert(1)> 好牌!\u0007"
        a.send_json({"type": "chat", "text": text})
        for ws in (a, b, watcher):
            m = recv(ws, "chat")
            assert m == {"type": "chat", "seat": 0, "text": "<img src=x onerror=alert(1)> 好牌!"}, m
        a.send_json({"type": "chat", "text": "again"})  # sooner than a second later
        expect_error(a, "rate_limited")
        b.send_json({"type": "chat", "text": "x" * 201})
        expect_error(b, "bad_message")
        b.send_json({"type": "chat", "text": ""})
        expect_error(b, "bad_message")
        b.send_json({"type": "chat", "text": "\u0007\u0008"})
        expect_error(b, "bad_message")
        watcher.send_json({"type": "chat", "text": "hi"})
        expect_error(watcher, "not_joined")
        b.send_json({"type": "chat", "text": "👍"})
        assert recv(a, "chat") == {"type": "chat", "seat": 1, "text": "👍"}
