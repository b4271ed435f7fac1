"""The public apply's fast path (GameState::apply: the play phase's plays and passes tested
inline, the steps inlined, the next seat by a mask) against slow references:

- the bookkeeping: after every decision of random matches (both tables R18, every play
  variant, lead_after_out next and partner, auto_pass on and off), the state equals what
  ``expected_after`` computes from the state before, a plain model of R1 and R8 written as
  the engine wrote it before (the next seat by walking the seats in order, the trick's end,
  the finishing order, forced passes) and the event appended to the log;
- the check: on the same states, plays and passes that are legal or not (cards not in the
  hand, another level, another variant's interpretation, not beating the top, a pass at a
  lead, another seat's action) are accepted by apply exactly when ``GameState.check`` (the full
  check, check_play) accepts them; a refused one raises check's error and message and leaves
  the state unchanged; an accepted one is one of the legal actions.
"""

from __future__ import annotations

import random
from collections import Counter

from daguai import CardError, Game, Rules, plays
from daguai._core.game import GameState
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import play_rules

LEVELS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]


@st.composite
def game_rules(draw) -> Rules:
    """play_rules' variants (R5-R7, R18) with either lead after a player went out (R8)."""
    r = draw(play_rules())
    return Rules(wild=r.wild, wrap_straights=r.wrap_straights, joker_pair=r.joker_pair,
                 table=r.table, lead_after_out=draw(st.sampled_from(["next", "partner"])),
                 final_level="4")


def fields(g: GameState) -> dict:
    """What apply changes in the play phase, and the log's length."""
    seats = g.seats
    return {
        "hands": [g.hand(s) for s in range(seats)],
        "played": [g.played(s) for s in range(seats)],
        "cards_left": g.cards_left,
        "top": g.top,
        "top_seat": g.top_seat,
        "passed": g.passed,
        "finish_order": g.finish_order,
        "current": g.current_player,
        "phase": g.phase,
        "n_events": g.n_events,
    }


def next_active(seat: int, out: set[int], seats: int) -> int:
    """R1: the first seat after ``seat`` in increasing order (wrapping) still holding cards."""
    for k in range(1, seats + 1):
        s = (seat + k) % seats
        if s not in out:
            return s
    raise AssertionError("every seat is out")


def expected_after(g: GameState, action, rules: Rules) -> tuple[dict | None, list[tuple]]:
    """The play-phase fields after ``action`` (a legal play or pass of the seat to act) and
    the events it appends, or (None, events so far) when the round ends (R8: one team out)."""
    f = fields(g)
    seats, level = g.seats, g.level
    out = set(f["finish_order"])
    hands, played, left = list(f["hands"]), list(f["played"]), list(f["cards_left"])
    passed = set(f["passed"])
    top, top_seat, current = f["top"], f["top_seat"], f["current"]
    events: list[tuple] = []

    def pass_by(seat: int, automatic: bool) -> None:
        nonlocal top, top_seat, current
        passed.add(seat)
        events.append(("pass", seat, -1, 1 if automatic else 0, None))
        active = {s for s in range(seats) if s not in out}
        if active - {top_seat} - passed:
            current = next_active(seat, out, seats)
            return
        leader = top_seat
        if top_seat in out:
            leader = None
            if rules.lead_after_out == "partner":  # 接风: the next partner with cards
                for k in range(2, seats, 2):
                    if (top_seat + k) % seats not in out:
                        leader = (top_seat + k) % seats
                        break
            if leader is None:
                leader = next_active(top_seat, out, seats)
        top, top_seat, current = None, None, leader
        passed.clear()

    seat = current
    if action.type == "pass":
        pass_by(seat, False)
    else:
        p = action.play
        hands[seat] = plays_left(hands[seat], p.cards)
        left[seat] = len(hands[seat])
        played[seat] = played[seat] + p.cards
        events.append(("play", seat, -1, 0, p))
        top, top_seat = p, seat
        passed.clear()
        if left[seat] == 0:
            out.add(seat)
            if all(s in out for s in range(seat % 2, seats, 2)):
                return None, events
        current = next_active(seat, out, seats)
    # auto_pass: whoever holds no play beating the top passes at once, logged as automatic
    while g.auto_pass and top is not None and plays.count_plays(hands[current], level, top,
                                                                 rules) == 0:
        pass_by(current, True)
    order = list(f["finish_order"]) + sorted(out - set(f["finish_order"]))  # at most one new
    return {
        "hands": hands, "played": played, "cards_left": left, "top": top,
        "top_seat": top_seat, "passed": sorted(passed), "finish_order": order,
        "current": current, "phase": "play", "n_events": f["n_events"] + len(events),
    }, events


def plays_left(hand, cards):
    """The hand without ``cards`` (multisets)."""
    rest = list(hand.faces())
    for face in cards.faces():
        rest.remove(face)
    return type(hand).from_counts([rest.count(x) for x in range(54)])


def candidates(g: GameState, rules: Rules, previous, pick: random.Random) -> list:
    """Plays and passes for the seat to act, legal or not (see the module's docstring)."""
    seat, level = g.current_player, g.level
    legal = list(g.legal_actions())
    out: list = pick.sample(legal, min(4, len(legal))) + ["pass"]
    leads = plays.legal_plays(g.hand(seat), level, None, rules)
    mine = [leads[pick.randrange(len(leads))] for _ in range(3)]  # may not beat the top
    out += mine
    other_level = pick.choice([lv for lv in LEVELS if lv != level])
    variants = [
        rules, Rules(wrap_straights=not rules.wrap_straights, table=rules.table),
        Rules(joker_pair="pure_wins" if rules.joker_pair == "tie" else "tie", table=rules.table),
        Rules(table="4p2d" if rules.table == "6p3d" else "6p3d"),
    ]
    for p in mine:
        for lv, r in ((other_level, rules), *((level, v) for v in variants)):
            try:
                out += plays.interpretations(p.cards, lv, r)
            except CardError:  # three copies of a face under the 4p2d table's rules (R18)
                pass
    other = (seat + 1 + pick.randrange(g.seats - 1)) % g.seats
    if g.cards_left[other]:
        theirs = plays.legal_plays(g.hand(other), level, None, rules)
        out.append(theirs[pick.randrange(len(theirs))])  # mostly cards not in this hand
    if previous:
        out.append(pick.choice(previous))  # the previous seat's action: out of turn
    return out


def outcome(g: GameState, how: str, action) -> tuple:
    """(error type and message, or None) of g.<how>(action)."""
    try:
        getattr(g, how)(action)
    except (ValueError, TypeError) as e:
        return (type(e), str(e))
    return None


#: what check says, by the start of its message (the coverage test wants each)
REFUSALS = ("not in hand", "out of turn", "leads the trick and cannot pass", "was classified at",
            "cannot be played as", "does not beat")


def check_candidates(g: GameState, rules: Rules, previous, pick: random.Random,
                     seen: Counter) -> None:
    before = fields(g)
    legal = list(g.legal_actions())
    for c in candidates(g, rules, previous, pick):
        ref = outcome(GameState(g), "check", c)
        got = GameState(g)
        assert outcome(got, "apply", c) == ref, (str(c), ref)
        seen.update(["accepted"] if ref is None else [r for r in REFUSALS if r in ref[1]])
        if ref is not None:
            assert fields(got) == before, str(c)
        else:
            a = g.to_action(c)
            assert any(a == x for x in legal), str(c)
            want, _ = expected_after(g, a, rules)
            if want is not None:
                assert fields(got) == want, str(c)


def play_match(rules: Rules, seed: int, auto_pass: bool, start: str, max_actions: int,
               seen: Counter | None = None) -> int:
    """Random decisions of one match, each checked against the model (and, with ``seen``,
    the candidates at each play-phase state against check); returns the plays made."""
    g = Game(seed, rules, start=start, auto_pass=auto_pass)._state
    pick = random.Random(seed)
    previous = None
    plays_seen = 0
    for _ in range(max_actions):
        if g.match_over:
            break
        legal = list(g.legal_actions())
        if g.phase == "play":
            if seen is not None:
                check_candidates(g, rules, previous, pick, seen)
            a = legal[pick.randrange(len(legal))]
            want, events = expected_after(g, a, rules)
            start_events, n_results = g.n_events, g.n_results
            g.apply(a)
            got = g.events(start_events)
            assert [(e[0], e[1], e[2], e[3]) for e in got[:len(events)]] == \
                [(e[0], e[1], e[2], e[3]) for e in events]
            if events[0][0] == "play":
                assert got[0][4] == a.play
                plays_seen += 1
            if want is None:
                assert g.n_results == n_results + 1  # R8: the round ended
            else:
                assert g.n_results == n_results and fields(g) == want
        else:
            a = legal[pick.randrange(len(legal))]
            g.apply(a)
        previous = legal
    return plays_seen


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=game_rules(), seed=st.integers(0, 2**32 - 1), auto_pass=st.booleans(),
       start=st.sampled_from(["fresh", "random"]))
def test_r1_r8_apply_bookkeeping_equals_the_model(rules: Rules, seed: int, auto_pass: bool,
                                                   start: str) -> None:
    assert play_match(rules, seed, auto_pass, start, 500) > 0


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=game_rules(), seed=st.integers(0, 2**32 - 1), auto_pass=st.booleans())
def test_r5_r8_apply_accepts_exactly_what_check_accepts(rules: Rules, seed: int,
                                                        auto_pass: bool) -> None:
    assert play_match(rules, seed, auto_pass, "random", 40, Counter()) > 0


def test_r5_r8_candidates_cover_every_refusal() -> None:
    # The comparison above meets legal actions and every error of check's play phase.
    seen: Counter = Counter()
    for seed, rules in ((1, Rules(final_level="4")), (2, Rules(wild="declare", table="4p2d"))):
        play_match(rules, seed, False, "fresh", 40, seen)
    assert seen["accepted"] > 100
    assert all(seen[r] > 0 for r in REFUSALS), seen


def test_r8_model_sees_rounds_end_and_leads_after_out() -> None:
    # The model's branches are exercised: rounds end, and a trick whose last player went out
    # is led by the partner (接风) or by the next seat with cards.
    for lead in ("next", "partner"):
        rules = Rules(lead_after_out=lead, final_level="4")
        g = Game(11, rules)._state
        pick = random.Random(11)
        led_after_out = 0
        while g.n_results == 0:
            legal = list(g.legal_actions())
            a = legal[pick.randrange(len(legal))]
            want, _ = expected_after(g, a, rules)
            top_seat = g.top_seat
            g.apply(a)
            if want is not None and want["top"] is None and top_seat in g.finish_order:
                led_after_out += 1
                assert fields(g) == want
        assert led_after_out > 0, lead




@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=game_rules(), seed=st.integers(0, 2**32 - 1))
def test_r5_r6_apply_refuses_legal_cards_with_another_kind_or_key(rules: Rules, seed: int) -> None:
    # apply never trusts a play's kind and key: the cards of legal plays with jokers, as every
    # other interpretation (another kind or key at the same level: a play a user can build),
    # meet exactly check's answer (its error and message, the state unchanged; under wild =
    # declare an interpretation is accepted), and the legal play itself is accepted.
    g = Game(seed, rules)._state
    pick = random.Random(seed)
    forged = refused = 0
    wilds = [Rules(wild=w, wrap_straights=ws, table=rules.table)
             for w in ("auto", "high") for ws in (False, True)]
    for _ in range(80):
        if g.match_over:
            break
        legal = list(g.legal_actions())
        if g.phase == "play":
            jokered = [a.play for a in legal if a.type == "play" and a.play.jokers and len(a.play.cards) == 5]
            for p in pick.sample(jokered, min(4, len(jokered))):
                assert outcome(GameState(g), "apply", p) is None
                others = {str(q) + repr(q.key): q for r in wilds
                          for q in plays.interpretations(p.cards, g.level, r) if q != p}
                for q in others.values():
                    ref = outcome(GameState(g), "check", q)
                    got = GameState(g)
                    before = fields(got)
                    assert outcome(got, "apply", q) == ref, str(q)
                    if ref is not None:
                        assert fields(got) == before
                        refused += 1
                    forged += 1
        g.apply(legal[pick.randrange(len(legal))])
    if rules.wild != "declare":
        assert refused == forged
