"""``daguai.positions.fill_hidden_hands``: the engine's sampler dealing the unknown hands of a
position (cpp/engine/beliefs/hidden_hands.hpp) against the slow reference it replaced, the
rejection sampler once written in Python (kept here only).

The reference deals the unseen cards (the decks minus the given hands minus the cards played)
by size, uniformly as physical cards, until the engine accepts the position. The engine deals
from the view the position gives, the same target except for the cards the history shows an
unknown hand holds (R11: the tribute a receiver kept, the card a tributer got back): the
engine holds that physical card fixed, as it does in every view (docs/search.md "Sampling
worlds"), the reference merely requires one copy. The exact targets below are enumerated
(every assignment, weighted as a uniform physical deal, kept if the validator accepts it);
where no unknown hand must hold an exchanged card the two are one.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from pathlib import Path

import beliefs_reference as ref
import numpy as np
import pytest
from daguai import Game, Hand, _core, codec
from daguai.positions import PositionError, _json_copy, _parse_position, fill_hidden_hands
from daguai.rules import Rules
from daguai.table import seats_of, table_info
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

POSITIONS = json.loads((Path(__file__).parent / "golden" / "beliefs_positions.json").read_text())


def _fail(msg: str) -> PositionError:
    return PositionError(f"inconsistent position: {msg}")


# ---- the reference: the Python sampler fill_hidden_hands was before the engine served it ----

def _all_faces() -> list[str]:
    return [r + s for r in "23456789TJQKA" for s in "shdc"] + ["SJ", "BJ"]


def _deal_plan(position):
    """(a JSON copy, the unknown seats, the unseen cards, the size of each hand) of a position,
    as the reference read them; PositionError for what it refused."""
    doc = _json_copy(position)  # the JSON copy, and its errors, are the function's
    try:
        table = seats_of(Rules.from_dict(doc.get("rules", {})))
        copies = table_info(Rules.from_dict(doc.get("rules", {})).table)["decks"]
    except (TypeError, ValueError) as exc:
        raise _fail(f"bad rules: {exc}") from None
    hands = doc.get("hands")
    if not isinstance(hands, list) or len(hands) != table:
        raise _fail(f"'hands' must list {table} entries (card text, or null for an unknown hand)")
    unknown = [s for s in range(table) if hands[s] is None]
    pairs_raw = doc.get("tribute", [])
    if not isinstance(pairs_raw, list) or any(
        not isinstance(p, list) or len(p) != 2 or any(type(x) is not int or not 0 <= x < table for x in p)
        for p in pairs_raw
    ):
        raise _fail("'tribute' must be a list of [tributer, receiver] seat pairs")
    pairs = {t: r for t, r in pairs_raw}
    receivers = {r: t for t, r in pairs.items()}
    size = {s: 27 for s in range(table)}
    played: list[str] = []
    history_raw = doc.get("history", [])
    if not isinstance(history_raw, list):
        raise _fail("'history' must be a list")
    for i, e in enumerate(history_raw):
        d = codec.read_decision(e, f"history entry {i}", position=True, error=_fail)
        if not 0 <= d.seat < table:
            raise _fail(f"history entry {i}: seat {d.seat} is not a seat (0..{table - 1})")
        seat, kind = d.seat, d.type
        cards = d.cards.split() if d.cards else []
        if kind == "play":
            size[seat] -= len(cards)
            played += cards
        elif kind == "tribute" and seat in pairs:
            size[seat] -= 1
            size[pairs[seat]] += 1
        elif kind == "return" and seat in receivers:
            size[seat] -= 1
            size[receivers[seat]] += 1
        elif kind == "take" and seat in pairs:
            size[seat] += 1
            size[pairs[seat]] -= 1
    pool = [c for f in _all_faces() for c in [f] * copies]
    try:
        given = [str(Hand(hands[s])).split() for s in range(table) if hands[s] is not None]
        played = [str(Hand(c)) for c in played]
    except ValueError as exc:
        raise _fail(str(exc)) from None
    for c in [c for h in given for c in h] + played:
        if c not in pool:
            raise _fail(f"card totals (R2): too many {c} in the given hands and plays")
        pool.remove(c)
    if sum(size[s] for s in unknown) != len(pool):
        raise _fail(f"the unknown hands need {sum(size[s] for s in unknown)} cards but {len(pool)} are left")
    return doc, unknown, pool, size


def fill_reference(position, seed: int = 0, tries: int = 5000) -> dict:
    """The old fill_hidden_hands: deal the unseen cards by size (a Fisher-Yates shuffle from
    ``seed``) until the engine accepts the position, at most ``tries`` times."""
    doc, unknown, pool, size = _deal_plan(position)
    if not unknown:
        return doc
    rng = _core.core.Rng(seed)
    last = None
    for _ in range(tries):
        for i in range(len(pool) - 1, 0, -1):
            j = rng.bounded(i + 1)
            pool[i], pool[j] = pool[j], pool[i]
        k = 0
        for s in unknown:
            doc["hands"][s] = " ".join(pool[k:k + size[s]])
            k += size[s]
        try:
            rules, core_pos = _parse_position(doc)
            _core.game.GameState(rules._core, core_pos, False)
            return doc
        except PositionError as exc:
            last = exc
    raise _fail(f"no consistent filling of the unknown hands found in {tries} draws (last: {last})")


# ---- the exact targets --------------------------------------------------------------------

def _faces(text: str) -> Counter:
    return Counter(Hand(text).faces())


def _shown_held(doc: dict, seat: int) -> Counter:
    """The cards the history shows ``seat`` holds (R11): a receiver the tribute it got and the
    offer cards it kept, a tributer the card that came back, minus the copies played since."""
    need: Counter = Counter()
    hist = doc["history"]
    for t, r in doc.get("tribute", []):
        x = [_faces(e[2]) for e in hist if e[0] == t and e[1] == "tribute"]
        if not x:
            continue
        y = [_faces(e[2]) for e in hist if e[1] in ("return", "take") and e[0] in (t, r)]
        offer = [_faces(e[2]) for e in hist if e[0] == r and e[1] == "offer"]
        if seat == t and y:
            need |= y[0]
        if seat == r:
            kept = (offer[0] if offer else Counter()) | x[0]
            need |= kept - (y[0] if y else Counter())
    played = sum((_faces(e[2]) for e in hist if e[0] == seat and e[1] == "play"), Counter())
    return need - played


def exact_targets(doc: dict):
    """{assignment: (reference probability, engine probability)} over the fillings the
    validator accepts; an assignment is a tuple of sorted face lists, one per unknown seat."""
    _doc, unknown, pool, size = _deal_plan(doc)
    cards = Counter(Hand(" ".join(pool)).faces())
    held = {s: _shown_held(doc, s) for s in unknown}
    base = math.prod(math.factorial(n) for n in cards.values())
    out = {}

    def rec(i, left, acc):
        if i == len(unknown) - 1:
            yield acc + [left]
            return
        for sub in ref.submultisets(left, size[unknown[i]], sorted(left)):
            yield from rec(i + 1, left - sub, acc + [sub])

    for parts in rec(0, cards, []):
        w_ref = base
        w_eng = 1
        for s, p in zip(unknown, parts, strict=True):
            w_ref //= math.prod(math.factorial(n) for n in p.values())
            for f, k in held[s].items():  # the engine holds these physical cards fixed
                w_eng *= math.perm(p[f], k)
        filled = dict(doc, hands=list(doc["hands"]))
        for s, p in zip(unknown, parts, strict=True):
            filled["hands"][s] = " ".join(str(Hand.from_faces([f])) for f in sorted(p.elements()))
        try:
            Game.from_position(filled)
        except PositionError:
            continue
        out[tuple(tuple(sorted(p.elements())) for p in parts)] = (w_ref, w_ref * w_eng)
    z_ref = sum(a for a, _ in out.values())
    z_eng = sum(b for _, b in out.values())
    return {k: (a / z_ref, b / z_eng) for k, (a, b) in out.items()}, unknown, held


def _partial(entry, keep=None) -> dict:
    """The golden position with only the entry's seat's hand given (or the seats of keep)."""
    pos = entry["position"]
    keep = {entry["seat"]} if keep is None else keep
    return dict(pos, hands=[h if s in keep else None for s, h in enumerate(pos["hands"])])


def _key(doc: dict, unknown: list[int]) -> tuple:
    return tuple(tuple(sorted(Hand(doc["hands"][s]).faces())) for s in unknown)


IDS = [e["name"] for e in POSITIONS]


# ---- every filling is a position the engine accepts ---------------------------------------

@pytest.mark.parametrize("entry", POSITIONS, ids=IDS)
def test_each_filling_is_accepted_and_keeps_the_known_parts(entry):
    full = entry["position"]
    partial = _partial(entry)
    for seed in range(12):
        filled = fill_hidden_hands(partial, seed=seed)
        Game.from_position(filled)  # the validator accepts it
        assert {k: v for k, v in filled.items() if k != "hands"} == \
            {k: v for k, v in partial.items() if k != "hands"}
        assert filled["hands"][entry["seat"]] == full["hands"][entry["seat"]]
        assert [len(h.split()) for h in filled["hands"]] == [len(h.split()) for h in full["hands"]]
        # the reference accepts the same kind of position (its fillings are accepted too)
    reference = fill_reference(partial, seed=1)
    Game.from_position(reference)


@pytest.mark.parametrize("entry", POSITIONS[:4], ids=IDS[:4])
def test_every_hand_unknown(entry):
    """No hand given: the view of no seat; every hand is dealt."""
    partial = _partial(entry, keep=set())
    filled = fill_hidden_hands(partial, seed=3)
    Game.from_position(filled)
    assert [len(h.split()) for h in filled["hands"]] == \
        [len(h.split()) for h in entry["position"]["hands"]]


def test_the_same_seed_the_same_filling_r17():
    entry = POSITIONS[0]
    partial = _partial(entry)
    a = [fill_hidden_hands(partial, seed=s)["hands"] for s in range(8)]
    assert a == [fill_hidden_hands(partial, seed=s)["hands"] for s in range(8)]
    assert len({json.dumps(h) for h in a}) > 1  # the seed matters (else this could not fail)
    assert fill_hidden_hands(partial)["hands"] == fill_hidden_hands(partial, seed=0)["hands"]


def test_a_position_without_unknown_hands_is_returned_as_it_is():
    pos = POSITIONS[1]["position"]
    out = fill_hidden_hands(pos, seed=4)
    assert out == pos and out is not pos


def test_mid_game_positions_of_both_tables():
    for rules, seeds in ((Rules(), range(6)), (Rules(table="4p2d"), range(6))):
        for seed in seeds:
            g = Game(seed, rules)
            rng = random.Random(seed)
            for _ in range(rng.randrange(5, 60)):
                if g.match_over:
                    break
                acts = g.legal_actions()
                g.step(acts[rng.randrange(len(acts))])
            if g.match_over:
                continue
            doc = g.position()
            seat = g.current_player
            partial = dict(doc, hands=[h if s == seat else None for s, h in enumerate(doc["hands"])])
            filled = fill_hidden_hands(partial, seed=seed)
            h = Game.from_position(filled)
            assert h.current_player == seat and str(h.hand(seat)) == str(g.hand(seat))
            assert [str(a) for a in h.legal_actions()] == [str(a) for a in g.legal_actions()]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), steps=st.integers(0, 30), unknown=st.integers(1, 63),
       table=st.sampled_from(["6p3d", "4p2d"]), auto_pass=st.booleans(), to_act=st.booleans())
def test_any_position_of_a_random_start_fills(seed, steps, unknown, table, auto_pass, to_act):
    """Random start states (round 0 with tribute: exchanges, refusals, joker offers and takes),
    any set of unknown hands: the filling is accepted, the given hands and sizes are kept, and
    the reference accepts the same position (it finds a filling or runs out of draws)."""
    rules = Rules(table=table, anti_tribute=True, joker_tribute_choice=True)
    g = Game(seed, rules, start="random", auto_pass=auto_pass)
    rng = random.Random(seed)
    for _ in range(steps):
        acts = g.legal_actions()
        if g.match_over or g.round > 0 or not acts:
            break
        g.step(acts[rng.randrange(len(acts))])
    if g.match_over or g.round > 0:
        return
    doc = g.position()
    if not to_act:
        doc["to_act"] = None
    seats = len(doc["hands"])
    partial = dict(doc, hands=[None if (unknown >> s) & 1 else h for s, h in enumerate(doc["hands"][:seats])])
    filled = fill_hidden_hands(partial, seed=seed)
    Game.from_position(filled)
    assert [len(h.split()) for h in filled["hands"]] == [len(h.split()) for h in doc["hands"]]
    assert all(filled["hands"][s] == doc["hands"][s] for s in range(seats) if not (unknown >> s) & 1)


# ---- the distribution ---------------------------------------------------------------------

N = 3000
QUICK = {"trib4-44", "forced-12", "refused-16"}
DIST = [pytest.param(e, id=e["name"], marks=() if e["name"] in QUICK else pytest.mark.slow)
        for e in POSITIONS]


@pytest.mark.parametrize("entry", DIST)
def test_fillings_follow_the_exact_target(entry):
    """N fillings (seeds 0..N-1) against the exact target: chi-square over every consistent
    assignment, and none outside it; where no unknown hand must hold an exchanged card the
    target is the reference's."""
    partial = _partial(entry)
    target, unknown, held = exact_targets(partial)
    assert len(target) >= 2, "the test needs a choice"
    observed = Counter(_key(fill_hidden_hands(partial, seed=s), unknown) for s in range(N))
    outside = sum(c for k, c in observed.items() if k not in target)
    assert outside == 0, f"{outside} of {N} fillings are outside the consistent set"
    keys = sorted(target)
    f_obs = np.array([observed[k] for k in keys], dtype=float)
    f_exp = np.array([target[k][1] * N for k in keys])
    _stat, p = chisquare(f_obs, f_exp)
    assert p > 1e-4, (p, len(keys))
    if not any(held.values()):
        assert all(math.isclose(a, b) for a, b in target.values())


def test_the_reference_and_the_engine_cover_the_same_fillings():
    """Small enough to enumerate: the fillings the reference finds in many draws are the
    engine's consistent set, and every consistent assignment is one the validator accepts."""
    entry = next(e for e in POSITIONS if e["name"] == "trib4-44")
    partial = _partial(entry)
    target, unknown, _held = exact_targets(partial)
    seen_ref = {_key(fill_reference(partial, seed=s), unknown) for s in range(300)}
    seen_eng = {_key(fill_hidden_hands(partial, seed=s), unknown) for s in range(300)}
    assert seen_ref <= set(target) and seen_eng <= set(target)
    assert seen_ref == set(target) == seen_eng


# ---- bad input: what the reference refused, the engine path refuses ------------------------

def _mid() -> dict:
    g = Game(5)
    rng = random.Random(5)
    for _ in range(40):
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    doc = g.position()
    seat = g.current_player
    return dict(doc, hands=[h if s == seat else None for s, h in enumerate(doc["hands"])])


def _with(**fields):
    return lambda d: {**d, **fields}


def _deep():
    x: list = []
    for _ in range(3000):
        x = [x]
    return {"format": "daguai-position", "hands": x}


def _seat_of(d) -> int:
    return next(s for s, h in enumerate(d["hands"]) if h is not None)


def _given(d, text):
    hands = list(d["hands"])
    hands[_seat_of(d)] = text
    return dict(d, hands=hands)


BAD = {
    "not a dict": (lambda d: [d], "a position is a dict"),
    "not JSON-ready": (lambda d: {**d, "x": {1, 2}}, "not a JSON-ready"),
    "nested too deeply": (lambda d: _deep(), "nested too deeply"),
    "bad rules": (_with(rules={"table": "9p9d"}), "bad rules"),
    "hands too short": (lambda d: {**d, "hands": d["hands"][:3]}, "'hands' must list 6"),
    "hands not a list": (_with(hands="AS"), "'hands' must list 6"),
    "tribute malformed": (_with(tribute=[[0]]), "'tribute' must be a list"),
    "history not a list": (_with(history=7), "'history' must be a list"),
    "history entry malformed": (_with(history=[["x"]]), "history entry 0"),
    "history seat": (lambda d: {**d, "history": [[9, "pass"]] + d["history"]}, "not a seat"),
    "not cards": (lambda d: _given(d, "XX"), "inconsistent position"),
    "too many copies": (lambda d: _given(d, d["hands"][_seat_of(d)] + " BJ BJ BJ BJ"),
                        "card totals|too many copies"),
    "a card too many": (lambda d: _given(d, d["hands"][_seat_of(d)] + " " + _spare(d)),
                        "the unknown hands need"),
}


def _spare(d) -> str:
    """A card of an unknown hand, given too (so the totals hold but the unknown hands lack
    one card)."""
    g = Game(5)
    rng = random.Random(5)
    for _ in range(40):
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    other = next(s for s, h in enumerate(d["hands"]) if h is None)
    return str(g.hand(other)).split()[0]


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_raises_a_position_error_as_the_reference_did(case):
    make, match = BAD[case]
    doc = make(_mid())
    with pytest.raises(PositionError, match=match):
        fill_hidden_hands(doc, seed=1)
    with pytest.raises(PositionError):
        fill_reference(doc, seed=1, tries=3)


# refused-16: seat 0 is to act over a 6s under auto_pass, seat 5 holds 5h 5h 6c
UNFILLABLE = {
    # seat 0's SJ traded for a 5h of seat 5: the SJ is then an unknown hand's, and every seat
    # that could hold it passed automatically over a top the SJ beats (R8)
    "no filling": ("2s 2c 5h", "no filling of the unknown hands agrees"),
    # seat 0 given 5h 5h 6c: it would have passed automatically, whatever the others hold;
    # the engine names that fact before it deals anything
    "a given hand breaks a fact": ("5h 5h 6c", "seat 0 is to act under auto_pass but holds no play"),
}


@pytest.mark.parametrize("case", sorted(UNFILLABLE))
def test_a_position_no_filling_agrees_with(case):
    """A PositionError saying why; the reference found no filling either."""
    hand, match = UNFILLABLE[case]
    pos = next(e for e in POSITIONS if e["name"] == "refused-16")["position"]
    assert pos["auto_pass"] and pos["to_act"] == 0 and pos["hands"][0] == "2s 2c SJ"
    fill_hidden_hands(dict(pos, hands=[pos["hands"][0]] + [None] * 5), seed=0)  # as it is: fine
    bad = dict(pos, hands=[hand] + [None] * 5)
    with pytest.raises(PositionError, match=match):
        fill_hidden_hands(bad, seed=0)
    with pytest.raises(PositionError):
        fill_reference(bad, seed=0, tries=50)


def test_a_tribute_pair_off_the_table():
    """A pair naming seat 9 in a position with exchanges and unknown hands: the validator's
    PositionError (the history is read without reaching past the table's seats)."""
    entry = next(e for e in POSITIONS if e["name"] == "trib6-3")
    partial = _partial(entry)
    for pairs in ([[2, 9], [0, 1]], [[9, 3], [0, 1]], [[2, -4], [0, 1]]):
        with pytest.raises(PositionError, match="tribute pair|not a tributer|not a receiver"):
            fill_hidden_hands(dict(partial, tribute=pairs), seed=0)


def test_the_engine_refuses_an_unknown_seat_off_the_table():
    """The binding only converts: the engine checks the unknown seats (R18: 4 at 4p2d)."""
    entry = next(e for e in POSITIONS if e["name"] == "trib4-44")
    rules, core_pos = _parse_position(_partial(entry), unknown_ok=True)
    for seat in (4, 6, -1, 40):
        with pytest.raises(PositionError, match="unknown hand of seat"):
            _core.beliefs.fill_hidden_hands(rules._core, core_pos, [0, seat], 0)


def test_a_bad_seed_is_a_value_error():
    partial = _mid()
    for seed in (-1, 2**64, 1.5, True, "1"):
        with pytest.raises(ValueError, match="seed must be"):
            fill_hidden_hands(partial, seed=seed)
