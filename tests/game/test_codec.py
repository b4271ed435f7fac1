"""The one event codec: ``daguai.codec.encode(event, audience)`` against a
plain statement of R16 over many seeded games, every event kind, every audience.

The reference below is written from docs/rules.md alone and shares no code with the codec or
with the engine's audience rule (``cpp/engine/game/audience.hpp``):

R16/R2   a deal shows each seat its own hand only; a spectator sees no hand;
R16/R11  the card returned, the cards offered and the card taken in a tribute pair are seen
         by the pair's two seats only (that the exchange happened, and between whom, is
         public); the tribute card and an anti-tribute's jokers are public;
R16      everything else (plays, passes, results, forfeits, auto_pass changes) is public;
         the record (the referee) holds everything.
"""

from __future__ import annotations

import random

import pytest
from daguai import Game, Rules, _core, codec, protocol

PAIR_PRIVATE = {"return": "card", "offer": "cards", "take": "card"}  # record keys (R11)
VIEW_PRIVATE = {"return": "cards", "offer": "cards", "take": "cards"}  # view keys


def reference_sees_pair(seat: int, to: int, audience) -> bool:
    """R11/R16: the pair's cards are seen by the pair's two seats (and the referee)."""
    if audience == codec.REFEREE:
        return True
    return audience is not None and audience in (seat, to)


def reference_record(entry: dict, audience) -> dict:
    """A whole record entry as ``audience`` may see it, by R16 stated plainly."""
    out = dict(entry)
    if audience == codec.REFEREE:
        return out
    if entry["event"] == "deal":
        out["hands"] = [h if audience == s else None for s, h in enumerate(entry["hands"])]
    elif entry["event"] in PAIR_PRIVATE and not reference_sees_pair(entry["seat"], entry["to"], audience):
        del out[PAIR_PRIVATE[entry["event"]]]
    return out


def reference_view_entry(entry: dict, audience) -> dict:
    out = dict(entry)
    if entry["event"] in VIEW_PRIVATE and not reference_sees_pair(entry["seat"], entry["to"], audience):
        out.pop(VIEW_PRIVATE[entry["event"]], None)
    return out


TABLES = [
    Rules(final_level="3"),
    Rules(final_level="3", anti_tribute=True, joker_tribute_choice=True),
    Rules(final_level="3", table="4p2d"),
    Rules(final_level="3", table="4p2d", anti_tribute=True, joker_tribute_choice=True),
    Rules(final_level="4", wild="declare", joker_tribute_choice=True),
]


def _games(rules: Rules, seeds: range, *, rng: random.Random) -> list[Game]:
    """Whole matches of random legal decisions (tribute rounds included), some with an
    auto_pass change or a forfeit, from fresh and random starts (R17: seeded)."""
    out = []
    for seed in seeds:
        g = Game(seed, rules, start="random" if seed % 3 == 0 else "fresh")
        steps = 0
        while not g.match_over and steps < 4000:
            if steps == 50 and seed % 4 == 1:
                g.auto_pass = not g.auto_pass
            if steps == 300 and seed % 5 == 2:
                g.forfeit(rng.randrange(g.seats))
                break
            legal = g.legal_actions()  # lazy: only the drawn action becomes an object
            anti = ([a for a in legal if a.type == "anti_tribute"]  # rare: take it when offered
                    if g.phase == "tribute" else [])
            g.step(anti[0] if anti else legal[rng.randrange(len(legal))])
            steps += 1
        out.append(g)
    return out


@pytest.fixture(scope="module")
def games() -> list[Game]:
    rng = random.Random(2026)
    return [g for rules in TABLES for g in _games(rules, range(16), rng=rng)]


def test_r16_every_event_kind_occurs(games):
    """The games below exercise every row of the event table (else the next tests prove less)."""
    seen = {ev[0] for g in games for ev in g.state.events()}
    assert seen == set(codec.EVENTS)
    assert {g.seats for g in games} == {4, 6}


def test_r16_encode_equals_the_plain_rule_for_every_audience(games):
    n = 0
    for g in games:
        audiences = [codec.REFEREE, codec.SPECTATOR, *range(g.seats)]
        for ev in g.state.events():
            whole = codec.encode(ev)
            for audience in audiences:
                assert codec.encode(ev, audience) == reference_record(whole, audience), (ev[0], audience)
                assert codec.restrict(whole, audience) == reference_record(whole, audience)
                n += 1
    assert n > 100_000


def test_r16_view_form_equals_the_plain_rule(games):
    for g in games[::3]:
        for ev in g.state.events():
            whole = codec.encode(ev, codec.REFEREE, form="view")
            if ev[0] in ("deal", "round_end", "forfeit"):
                assert whole is None
                continue
            for audience in [codec.SPECTATOR, *range(g.seats)]:
                assert codec.encode(ev, audience, form="view") == reference_view_entry(whole, audience)


def test_r16_the_engine_rule_is_the_plain_rule():
    """``_core.game.audience_sees`` (cpp/engine/game/audience.hpp) over every kind, pair and audience."""
    for name, _secret, _ in _core.game.EVENT_KINDS:
        for seat in range(6):
            for to in range(-1, 6):
                for code in (_core.game.REFEREE, _core.game.SPECTATOR, *range(6)):
                    audience = codec.REFEREE if code == _core.game.REFEREE else (None if code < 0 else code)
                    if name in PAIR_PRIVATE:
                        want = reference_sees_pair(seat, to, audience)
                    elif name == "deal":
                        want = audience == codec.REFEREE or audience == seat
                    else:
                        want = True
                    assert _core.game.audience_sees(name, seat, to, code) is want, (name, seat, to, code)


def test_r16_each_seat_and_a_spectator_see_exactly_what_r16_allows(games):
    """The information state's history (the engine's filter), ``Game.observation`` and the
    spectator's view each against the plain rule, at many points of many games."""
    for g in games[::2]:
        rng = random.Random(g.seed)
        h = Game(g.seed, g.rules, start="random" if g.seed % 3 == 0 else "fresh")
        decs = codec.decisions(g.state.events())
        stops = sorted(rng.sample(range(len(decs) + 1), min(6, len(decs) + 1)))
        done = 0
        for stop in stops:
            for d in decs[done:stop]:
                protocol.apply_decision(h, d)
            done = stop
            if h.match_over:
                break
            round_events = h.state.events(h.state.round_events_start)
            for seat in range(h.seats):
                v = _core.game.information_state(h.state, seat, True, False)
                for full, mine in zip(round_events, v.history, strict=True):
                    assert mine[0] == full[0]
                    if full[0] in PAIR_PRIVATE:
                        assert (mine[4] is not None) == reference_sees_pair(full[1], full[2], seat)
                obs = h.observation(seat)
                want = [reference_view_entry(codec.encode(e, codec.REFEREE, form="view"), seat)
                        for e in round_events if e[0] not in ("deal", "round_end", "forfeit")]
                assert obs["history"] == want
                assert obs["hand"] == h.hand(seat).cards()
                for t in obs["tributes"]:
                    if not reference_sees_pair(t["from"], t["to"], seat):
                        assert t["returned"] is None and t["offer"] is None
            pub = protocol.public_view(h)
            assert "hand" not in pub and pub["seat"] is None and pub["team"] is None
            assert all(t["returned"] is None and t["offer"] is None for t in pub["tributes"])
            assert pub["history"] == [
                reference_view_entry(codec.encode(e, codec.REFEREE, form="view"), None)
                for e in round_events if e[0] not in ("deal", "round_end", "forfeit")]
            assert not any(k in e for e in pub["history"] if e["event"] in VIEW_PRIVATE
                           for k in ("card", "cards"))
            # every other public fact is seat 0's
            zero = h.observation(0)
            assert {k: v for k, v in pub.items() if k not in ("seat", "team", "tributes", "history")} == \
                {k: v for k, v in zero.items() if k not in ("seat", "team", "tributes", "history", "hand")}


def test_decisions_read_back_through_the_codec(games):
    """decision(event) == entry_decision(record entry) for every event (one mapping)."""
    for g in games[::4]:
        for ev in g.state.events():
            assert codec.decision(ev) == codec.entry_decision(codec.encode(ev))


def test_the_codec_table_matches_the_engine_table():
    engine = {name: decision for name, _, decision in _core.game.EVENT_KINDS}
    assert list(engine) == list(codec.EVENTS)  # the same order: EventType's
    assert all((codec.EVENTS[n].decision is not None) == d for n, d in engine.items())
    assert {n for n, k in codec.EVENTS.items() if k.secret == "pair"} == set(PAIR_PRIVATE)
    assert {n for n, k in codec.EVENTS.items() if k.secret == "owner"} == {"deal"}
