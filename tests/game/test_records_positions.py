"""Positions: JSON round trips, continuing identically, from_record(upto=N), and
every kind of inconsistent position rejected with the first problem named."""

from __future__ import annotations

import copy
import json
import pickle
import random
import re

import pytest
from daguai import Game, PositionError, ReplayError, Rules, replay
from game_helpers import random_steps

VARIANTS = [Rules(), Rules(anti_tribute=True, joker_tribute_choice=True, lead_after_out="partner"),
            Rules(max_rounds=3)]


def snapshots(seed: int, rules: Rules, steps: int, every: int, auto_pass: bool = False):
    """A random match, yielding (game, rng) every `every` decisions."""
    g = Game(seed, rules, auto_pass=auto_pass)
    rng = random.Random(seed)
    for k in range(steps):
        if g.match_over:
            return
        if k % every == 0:
            yield g, rng
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])


@pytest.mark.parametrize("rules", VARIANTS)
@pytest.mark.parametrize("auto_pass", [False, True])
def test_position_json_round_trip(rules, auto_pass):
    seen_phases = set()
    for seed in range(3):
        for g, _ in snapshots(seed, rules, 500, 23, auto_pass):
            pos = g.position()
            text = json.dumps(pos)
            h = Game.from_position(text)
            assert h.position() == pos
            assert json.loads(text) == pos
            assert h.phase == g.phase and h.current_player == g.current_player
            assert [h.hand(s) for s in range(6)] == [g.hand(s) for s in range(6)]
            assert [h.played(s) for s in range(6)] == [g.played(s) for s in range(6)]
            assert list(h.legal_actions()) == list(g.legal_actions())
            seen_phases.add(g.phase)
    assert "play" in seen_phases


def test_seeded_game_is_the_position_of_its_deal():
    """The seeded deal is one way to make a position: both give the same game."""
    for seed in range(5):
        g = Game(seed)
        h = Game.from_position(g.position())
        assert h.position() == g.position()
        assert h.state.events() == g.state.events()


@pytest.mark.parametrize("rules", VARIANTS[:2])
def test_game_from_position_continues_identically(rules):
    """Same seed and same decisions => the same later states, across round ends (later
    deals come from the position's seed)."""
    for seed in (4, 5):
        rng = random.Random(seed)
        g = random_steps(Game(seed, rules), rng, 150)
        if g.match_over:
            continue
        h = Game.from_position(g.position())
        start_results = g.n_results
        for _ in range(600):
            if g.match_over:
                break
            acts = g.legal_actions()
            assert list(h.legal_actions()) == list(acts)
            a = acts[rng.randrange(len(acts))]
            g.step(a)
            h.step(a)
            assert h.position() == g.position() if not g.match_over else h.match_over
        assert h.results[start_results:] == g.results[start_results:]
        assert h.scores == g.scores and h.levels == g.levels


def test_from_record_upto_each_line_is_the_game_then():
    rng = random.Random(11)
    g = Game(11, Rules(anti_tribute=True), auto_pass=True)
    states = {}  # record length in lines -> position at that moment
    for _ in range(400):
        if g.match_over:
            break
        n_lines = len(g.to_record().splitlines())
        if g.phase != "match_over":
            states[n_lines] = g.position()
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    record = g.to_record()
    checked = 0
    for n, pos in list(states.items())[::7]:
        h = Game.from_record(record, upto=n)
        assert h.position() == pos, n
        checked += 1
    assert checked > 10
    # a game loaded from the record continues exactly as the original did
    n, pos = list(states.items())[len(states) // 2]
    h = Game.from_record(record, upto=n)
    assert replay(record).to_json() == g.to_json()
    k = h.state.n_events
    for name, _s, _other, flags, payload in g.state.events(k):  # continue with the original's decisions
        if name == "play":
            h.step(payload)
        elif name == "pass" and not flags:
            h.step("pass")
        elif name in ("tribute", "return", "take", "offer"):
            h.step(payload)
        elif name == "anti_tribute":
            h.step("anti_tribute")
    assert h.to_json() == g.to_json()


def test_from_record_bad_upto():
    record = Game(1).to_record()
    with pytest.raises(ReplayError, match="upto"):
        Game.from_record(record, upto=0)
    with pytest.raises(ReplayError, match="past the record"):
        Game.from_record(record, upto=99)


def test_game_from_position_serializes_and_pickles():
    rng = random.Random(2)
    g = random_steps(Game(2), rng, 60)
    h = Game.from_position(g.position())
    random_steps(h, rng, 30)
    assert Game.from_json(h.to_json()) == h
    assert pickle.loads(pickle.dumps(h)) == h
    assert replay(h.to_record()).to_json() == h.to_json()
    assert h.clone().to_json() == h.to_json()


# ---- inconsistent positions ------------------------------------------------------------

def base_position():
    rng = random.Random(8)
    g = random_steps(Game(8), rng, 40)
    assert g.phase == "play" and g.round == 0 and len(g.position()["history"]) > 10
    return g.position()


def tribute_position():
    for seed in range(40):
        g = Game(seed)
        rng = random.Random(seed)
        while not g.match_over and not (g.round == 1 and g.phase == "return"):
            acts = g.legal_actions()
            g.step(acts[rng.randrange(len(acts))])
        if g.phase == "return":
            return g.position()
    raise AssertionError("no tribute round found")


def chosen_pass(pos):
    """Index of a history pass made while a play was possible (base_position is seed 8's game)."""
    g = Game(8)
    for i, e in enumerate(pos["history"]):
        if e[1] == "pass" and len(g.legal_actions()) > 1:
            return i
        g.step(e[2] if e[1] == "play" else e[1])
    raise AssertionError("every pass was forced")


def broken(kind):
    pos = base_position()
    hands, hist = pos["hands"], pos["history"]
    if kind == "card totals":  # one card too many: move nothing, add a face
        hands[0] = hands[0] + " BJ"
    elif kind == "hand size":  # swap a card between hands: totals fine, sizes not
        cards = hands[0].split()
        hands[1] = hands[1] + " " + cards[0]
        hands[0] = " ".join(cards[1:])
    elif kind == "illegal":  # a pass by the leader of the first trick
        hist.insert(0, [hist[0][0], "pass"])
    elif kind == "wrong seat":  # a pass by the wrong seat (cards unchanged)
        i = next(i for i, e in enumerate(hist) if e[1] == "pass")
        hist[i] = [(hist[i][0] + 1) % 6] + hist[i][1:]
    elif kind == "to act":
        pos["to_act"] = (pos["to_act"] + 1) % 6
    elif kind == "finish order":
        pos["finish_order"] = [0]
    elif kind == "dealer":
        pos["dealer"] = 6
    elif kind == "forced pass":  # a pass marked forced that was a choice
        i = chosen_pass(pos)
        hist[i] = hist[i][:2] + ["auto"]
    return pos


@pytest.mark.parametrize("kind, message", [
    ("card totals", "card totals"),
    ("hand size", "hand size: seat"),
    ("illegal", "history entry 0 .* is illegal: seat .* leads the trick and cannot pass"),
    ("wrong seat", "wrong seat to act, it is seat"),
    ("to act", "wrong seat to act: the position says seat"),
    ("finish order", "finishing order"),
    ("dealer", "dealer 6 is not a seat"),
    ("forced pass", "not forced"),
])
def test_inconsistent_position_names_the_problem(kind, message):
    pos = broken(kind)
    before = copy.deepcopy(pos)
    with pytest.raises(PositionError, match=message):
        Game.from_position(pos)
    with pytest.raises(ValueError, match=message):  # a ValueError; JSON text too
        Game.from_position(json.dumps(pos))
    assert pos == before  # the input is not touched


def test_first_problem_is_named():
    """Two problems: the card totals come before the seat to act."""
    pos = broken("card totals")
    pos["to_act"] = (pos["to_act"] + 1) % 6
    with pytest.raises(PositionError, match="card totals"):
        Game.from_position(pos)


def test_tribute_positions():
    pos = tribute_position()
    g = Game.from_position(pos)
    assert g.phase == "return" and g.position() == pos
    bad = copy.deepcopy(pos)
    t, _r = bad["tribute"][0]
    bad["tribute"][0] = [t, (t + 2) % 6]
    with pytest.raises(PositionError, match="partners|repeats|not a (tributer|receiver)"):
        Game.from_position(bad)
    bad = copy.deepcopy(pos)
    bad["round"] = 0
    with pytest.raises(PositionError, match="round 0 has no tribute"):
        Game.from_position(bad)
    bad = copy.deepcopy(pos)  # the received tribute card vanished from the receiver's hand
    i = next(i for i, e in enumerate(bad["history"]) if e[1] == "tribute")
    seat, card = bad["history"][i][0], bad["history"][i][2]
    recv = {a: b for a, b in bad["tribute"]}[seat]
    cards = bad["hands"][recv].split()
    if card in cards:
        cards.remove(card)
        bad["hands"][recv] = " ".join(cards)
        bad["hands"][seat] += " " + card
        with pytest.raises(PositionError):
            Game.from_position(bad)


@pytest.mark.parametrize("doc, message", [
    ("not json", "not JSON"),
    ({"format": "x"}, "not a daguai position"),
    ({"format": "daguai-position", "version": 9}, "unsupported position version"),
])
def test_malformed_position_documents(doc, message):
    with pytest.raises(PositionError, match=message):
        Game.from_position(doc)


def test_malformed_fields():
    for key, value, message in [("hands", ["2s"] * 5, "6 card texts"), ("levels", ["Z", "2"], "not a level"),
                                ("history", [[0, "jump"]], "unknown action"), ("to_act", 9, "to_act"),
                                ("scores", [0], "scores")]:
        pos = base_position()
        pos[key] = value
        with pytest.raises(PositionError, match=message):
            Game.from_position(pos)
    pos = base_position()
    pos["hands"][0] = "Xx Yy"
    with pytest.raises(ValueError, match="Xx|card"):
        Game.from_position(pos)


# A position with no history (a fresh deal) has its card totals checked word-parallel
# (position.cpp fresh_deal_ok) and, when that check fails, face by face: the same verdicts and
# messages as for a position with history (R2: every face tb.decks times; R18: the table's
# seats and hand size).
def fresh_broken(seed: int, table: str, kind: str, rng: random.Random) -> tuple[dict, str | None]:
    """A fresh deal's position broken as `kind` says, with the message expected (None: fine)."""
    pos = Game(seed, Rules(table=table)).position()
    assert pos["history"] == []
    decks = 3 if table == "6p3d" else 2
    hands = [h.split() for h in pos["hands"]]
    message = None
    if kind == "card totals":  # a card of seat 2 becomes a big joker: its face is short first
        i = rng.randrange(len(hands[2]))
        while hands[2][i] == "BJ":
            i = rng.randrange(len(hands[2]))
        short = [c for c in sorted({c for h in hands for c in h}, key=FACE_ORDER.index)
                 if c == hands[2][i] or sum(h.count(c) for h in hands) != decks][0]
        hands[2][i] = "BJ"
        message = f"card totals (R2): {short} appears {decks - 1} times"
    elif kind == "hand size":  # a card moves from seat 0 to seat 1: totals fine
        hands[1].append(hands[0].pop(rng.randrange(len(hands[0]))))
        message = f"hand size: seat 0 holds {len(hands[0])} cards"
    else:  # the same cards dealt again among the seats: a fine position
        cards = [c for h in hands for c in h]
        rng.shuffle(cards)
        n = len(hands[0])
        hands = [cards[k * n:(k + 1) * n] for k in range(len(hands))]
    pos["hands"] = [" ".join(h) for h in hands]
    return pos, message


# faces in the engine's order: rank-major 2..A, suits s h d c, then the jokers
FACE_ORDER = [r + s for r in "23456789TJQKA" for s in "shdc"] + ["SJ", "BJ"]


@pytest.mark.parametrize("table", ["6p3d", "4p2d"])
@pytest.mark.parametrize("kind", ["card totals", "hand size", "dealt anew"])
def test_fresh_deal_position_checked_R2_R18(table, kind):
    for seed in range(12):
        pos, message = fresh_broken(seed, table, kind, random.Random(seed))
        if message is None:
            g = Game.from_position(pos)
            assert [sorted(h.split()) for h in g.position()["hands"]] == \
                [sorted(h.split()) for h in pos["hands"]]
            continue
        with pytest.raises(PositionError, match=re.escape(message)):
            Game.from_position(pos)


def test_fresh_deal_seat_beyond_the_table_R18():
    pos = Game(5, Rules(table="4p2d")).position()
    pos["hands"] = pos["hands"] + ["3s"]  # a fifth seat at the 4-player table
    with pytest.raises((PositionError, ValueError)):
        Game.from_position(pos)
