"""Random-play invariants of the match state machine, checked at every step of many seeded
games (R2 conservation, R8 legal actions, R9-R13 results recomputed from the finishing
order, R10 dealer, R11 exchange, R16 observations, R17 determinism, serialization).

A ``Checker`` follows a game through its event log and recomputes, independently of the
engine, the hand sizes, who went out in which order, every round result (winner,
tributers, receivers and their pairing, levels, next dealer, scores, match end) and the
next deal's dealer and levels.
"""

from __future__ import annotations

import copy
import json
import pickle
import random

import daguai
import numpy as np
import pytest
from daguai import Game, Hand, Rules, replay
from daguai.plays import play_counts

LEVELS = "23456789TJQKA"
FULL_DECK = np.full(54, 3, dtype=np.int64)


# ---------------------------------------------------------------------------
# Reference for R9-R14 (docs/game.md "Result of a round", "Match end", "Leaving")
# ---------------------------------------------------------------------------

def pair_tributes(how: str, tributers: list[int], receivers: list[int], seats: int = 6) -> list[int]:
    """Tributer paying receivers[i], for i in order (tributers: better finisher first); ``seats``:
    the table's (R18: 4)."""
    n = len(tributers)
    if how == "finish_order":
        return [tributers[n - 1 - i] for i in range(n)]
    match = [None] * n
    t_free, r_free = set(range(n)), set(range(n))
    while t_free:
        best = None
        # ties: the tributer who finished worse first, then the receiver who finished better
        for ti in sorted(t_free, reverse=True):
            for rj in sorted(r_free):
                if how == "next":
                    d = (receivers[rj] - tributers[ti]) % seats
                else:
                    d = (tributers[ti] - receivers[rj]) % seats
                if best is None or d < best[0]:
                    best = (d, ti, rj)
        _, ti, rj = best
        t_free.discard(ti)
        r_free.discard(rj)
        match[rj] = tributers[ti]
    return match


#: R13 stake: what each winner gains by the number of tributers (R18: the 4p2d table's)
STAKES_6P = {3: 6, 2: 3, 1: 1}


def expected_round_result(rules: Rules, rnd: int, out: list[int], left: list[int], dealer: int,
                          levels: list[int], failures: list[int], seats: int = 6,
                          stakes: dict[int, int] = STAKES_6P) -> dict:
    """The round_end payload docs/game.md prescribes.  Updates `levels` and `failures`.
    ``seats`` and ``stakes``: the table's (R18)."""
    last = out[-1]
    rest = [(last + k) % seats for k in range(1, seats) if (last + k) % seats not in out]
    rest.sort(key=lambda s: left[s])  # fewer cards first, ties in play order after `last`
    order = out + rest
    first_team = order[0] % 2
    winner = first_team if last % 2 == first_team else None
    tributers, receivers = [], []
    if winner is not None:
        losers = [s for s in rest if s % 2 != winner]  # still holding cards
        assert 1 <= len(losers) <= seats // 2
        winners = [s for s in order if s % 2 == winner]
        receivers = winners[:len(losers)]
        tributers = pair_tributes(rules.tribute_pairing, losers, receivers, seats)
    dteam = dealer % 2
    final = LEVELS.index(rules.final_level)
    before = list(levels)
    match_over, match_winner = False, None
    dealer_won = winner == dteam
    if dealer_won:
        if levels[dteam] >= final:
            match_over, match_winner = True, dteam
        else:
            levels[dteam] += 1
    elif levels[dteam] >= final:
        failures[dteam] += 1
        if rules.max_final_failures and failures[dteam] >= rules.max_final_failures:
            levels[dteam], failures[dteam] = 0, 0  # R12: back to level 2, counting again
    if rules.dealer == "stay":
        next_dealer = dealer if dealer_won else (dealer + 1) % seats
    else:
        next_dealer = order[0]
    b = rules.base
    scores = []
    for s in range(seats):
        if rules.scoring == "stake":
            if winner is None:
                d = 0
            else:
                w = stakes[len(tributers)] * b
                d = w if s % 2 == winner else (-w if rules.losers_pay else 0)
        elif rules.scoring == "levels":
            d = (3 * b if s % 2 == dteam else -b) if dealer_won else b
        else:
            d = b if winner is None else (3 * b if s % 2 == winner else -3 * b)
        scores.append(d)
    if rules.max_rounds and rnd + 1 >= rules.max_rounds:
        match_over = True
    if match_over and match_winner is None:
        match_winner = 0 if levels[0] > levels[1] else (1 if levels[1] > levels[0] else None)
    return {
        "round": rnd, "order": order, "players_out": len(out), "winner": winner,
        "dealer": dealer, "next_dealer": next_dealer, "level": LEVELS[before[dteam]],
        "levels_before": [LEVELS[x] for x in before], "levels_after": [LEVELS[x] for x in levels],
        "tributers": tributers, "receivers": receivers, "scores": scores,
        "match_over": match_over, "match_winner": match_winner if match_over else None,
        "forfeit": None,
    }


def expected_forfeit_scores(rules: Rules, rounds_done: int, out: list[int], seat: int,
                            seats: int = 6, early: int = 3, late: int = 18) -> list[int]:
    """R14: the leaver pays ``early`` b before min_rounds, else ``late`` b (R18: the table's
    figures, 2 and 12 at 4p2d); opponents +3b / +2b / +1b by who went out first."""
    b = rules.base
    opp = 1 - seat % 2
    if rounds_done < rules.min_rounds:
        leaver, bonus = -early * b, b
    else:
        leaver = -late * b
        first = len(out) >= 1 and out[0] % 2 == opp
        second = len(out) >= 2 and out[1] % 2 == opp
        bonus = (3 if first and second else 2 if first else 1) * b
    return [leaver if s == seat else (bonus if s % 2 == opp else 0) for s in range(seats)]


# ---------------------------------------------------------------------------
# The checker
# ---------------------------------------------------------------------------

class Checker:
    def __init__(self, g: Game) -> None:
        self.g = g
        self.rules = g.rules
        self.idx = 0
        self.levels = [0, 0]
        self.failures = [0, 0]
        self.totals = [0] * 6
        self.rounds_done = 0
        self.next_dealer = g.dealer
        self.pending_pairs: list[tuple[int, int]] = []
        self.left = [27] * 6
        self.played = np.zeros(54, dtype=np.int64)
        self.out: list[int] = []
        self.dealer = g.dealer
        self.plays_this_round = 0
        self.rounds_checked = 0
        self.forfeits = 0
        self.tribute_pairs_seen: list[tuple[int, int]] = []
        self.process()

    # -- the event log --------------------------------------------------------------
    def process(self) -> None:
        g = self.g
        for name, seat, other, flags, payload in g.state.events(self.idx):
            self.idx += 1
            if name == "deal":
                assert payload["round"] == self.rounds_done
                assert payload["dealer"] == self.next_dealer  # R9 / R10
                assert payload["levels"] == [LEVELS[x] for x in self.levels]
                assert [len(h) for h in payload["hands"]] == [27] * 6  # R2
                total = sum(np.asarray(h.counts(), dtype=np.int64) for h in payload["hands"])
                assert (total == FULL_DECK).all()
                self.left = [27] * 6
                self.played[:] = 0
                self.out = []
                self.dealer = payload["dealer"]
                self.plays_this_round = 0
                self.tribute_pairs_seen = list(self.pending_pairs)
            elif name == "play":
                self.left[seat] -= len(payload.cards)
                self.played += np.asarray(payload.cards.counts(), dtype=np.int64)
                self.plays_this_round += 1
                assert self.left[seat] >= 0
                if self.left[seat] == 0:
                    self.out.append(seat)
            elif name == "tribute":
                assert (seat, other) in self.tribute_pairs_seen
                assert len(payload) == 1
                self.left[seat] -= 1
                self.left[other] += 1
            elif name == "return":
                assert (other, seat) in self.tribute_pairs_seen
                self.left[seat] -= 1
                self.left[other] += 1
            elif name == "take":
                assert (seat, other) in self.tribute_pairs_seen
                self.left[seat] += 1
                self.left[other] -= 1
            elif name == "offer":
                assert (other, seat) in self.tribute_pairs_seen
            elif name == "anti_tribute":
                assert (seat, other) in self.tribute_pairs_seen
                assert self.rules.anti_tribute and len(payload) >= 3 and payload.jokers == len(payload)
            elif name == "pass":
                if flags:
                    assert g.auto_pass
            elif name == "round_end":
                exp = expected_round_result(self.rules, self.rounds_done, self.out, self.left,
                                            self.dealer, self.levels, self.failures)
                assert payload == exp, f"round {self.rounds_done}: {payload} != {exp}"
                self.totals = [a + b for a, b in zip(self.totals, payload["scores"], strict=False)]
                self.rounds_done += 1
                self.next_dealer = payload["next_dealer"]
                self.pending_pairs = list(zip(payload["tributers"], payload["receivers"], strict=False))
                self.rounds_checked += 1
            elif name == "forfeit":
                assert payload["forfeit"] == seat
                assert payload["scores"] == expected_forfeit_scores(
                    self.rules, self.rounds_done, self.out, seat)
                assert payload["match_over"] and payload["match_winner"] == 1 - seat % 2
                assert payload["levels_after"] == payload["levels_before"]
                self.totals = [a + b for a, b in zip(self.totals, payload["scores"], strict=False)]
                self.forfeits += 1
            else:  # pragma: no cover
                raise AssertionError(f"unknown event {name}")

    # -- the state after a step ---------------------------------------------------
    def check_state(self) -> None:
        g = self.g
        self.process()
        assert g.scores == self.totals
        assert g.n_results == self.rounds_done + self.forfeits
        if g.match_over:
            assert g.current_player is None and len(g.legal_actions()) == 0
            return
        # R2: 162 cards: the hands plus the cards played since the deal
        assert g.cards_left == self.left
        assert sum(g.cards_left) + int(self.played.sum()) == 162
        counts = np.zeros(54, dtype=np.int64)
        for s in range(6):
            counts += np.asarray(g.hand(s).counts(), dtype=np.int64)
        assert (counts + self.played == FULL_DECK).all()
        assert g.finish_order == self.out
        assert g.dealer == self.dealer and g.level == LEVELS[self.levels[self.dealer % 2]]
        assert list(g.levels) == [LEVELS[x] for x in self.levels]
        if g.phase == "play":
            if self.plays_this_round == 0:
                # R11: after the exchange (or without tribute) every hand holds 27 cards
                assert g.cards_left == [27] * 6
                if g.top is None:
                    assert g.current_player == self.dealer  # R8: the dealer leads
            self.check_play_actions()
        else:
            assert g.phase in ("tribute", "return", "take")
            assert [(t["from"], t["to"]) for t in g.tribute_state] == self.tribute_pairs_seen
            self.check_tribute_actions()

    def check_play_actions(self) -> None:
        g = self.g
        seat = g.current_player
        assert seat not in self.out
        hand = g.hand(seat)
        acts = g.legal_actions()
        top = g.top
        if top is None:
            assert g.top_seat is None
            assert acts[len(acts) - 1].type == "play"  # R8: a leader cannot pass
            rows = g.state.legal_plays_array()
            assert len(rows) == len(acts) > 0
            assert ((play_counts(rows) <= np.asarray(hand.counts())[None, :]).all())
            assert set(np.unique(rows["size"]).tolist()) <= {1, 2, 3, 5}
        else:
            assert acts[len(acts) - 1].type == "pass"
            plays = [acts[i] for i in range(len(acts) - 1)]
            for a in plays:
                assert a.type == "play" and a.seat == seat
                assert a.play.beats(top), (a, top)  # R7
                assert a.cards <= hand
            if g.auto_pass:
                # a follower without a legal play is never asked
                assert plays, "auto_pass game asks a player who can only pass"

    def check_tribute_actions(self) -> None:
        g = self.g
        seat = g.current_player
        acts = list(g.legal_actions())
        assert acts
        hand = g.hand(seat)
        for a in acts:
            assert a.seat == seat
            if a.type in ("tribute", "return", "offer"):
                assert a.cards <= hand
        if g.phase == "tribute":
            tributes = [a for a in acts if a.type == "tribute"]
            powers = {daguai._core.core.face_power(f, g.level) for f in hand.faces()}
            best = max(powers)
            assert tributes and all(
                daguai._core.core.face_power(a.cards.faces()[0], g.level) == best for a in tributes)
            assert len(tributes) == len({f for f in hand.faces()
                                         if daguai._core.core.face_power(f, g.level) == best})


def check_observations(g: Game) -> None:
    """R16: each seat sees its own hand, never another seat's hand or another pair's
    private returned / offered / taken cards."""
    hands = [g.hand(s) for s in range(6)]
    for seat in range(6):
        obs = g.observation(seat)
        assert obs["seat"] == seat and obs["hand"] == hands[seat].cards()
        assert obs["cards_left"] == [len(h) for h in hands]
        # no other seat's hand, as a list or as text (hands of 6+ cards cannot be a play)
        text = json.dumps({k: v for k, v in obs.items() if k != "hand"}, ensure_ascii=False)
        for o in range(6):
            if o != seat and len(hands[o]) >= 6:
                assert json.dumps(hands[o].cards(), ensure_ascii=False) not in text, (seat, o)
                assert json.dumps(str(hands[o]), ensure_ascii=False) not in text, (seat, o)
        for t in obs["tributes"]:
            if seat not in (t["from"], t["to"]):
                assert t["returned"] is None and t["offer"] is None
        for e in obs["history"]:
            if e["event"] in ("return", "offer", "take"):
                assert ("cards" in e) == (seat in (e["seat"], e["to"]))


def check_clone_independent(g: Game, rng: random.Random) -> None:
    snap_json, snap_events = g.to_json(), len(g.state.events())
    snap_hands = [g.hand(s) for s in range(6)]
    c = g.clone()
    assert c == g
    for _ in range(rng.randrange(1, 8)):
        if c.match_over:
            break
        acts = c.legal_actions()
        c.step(acts[rng.randrange(len(acts))])
    assert g.to_json() == snap_json
    assert len(g.state.events()) == snap_events
    assert [g.hand(s) for s in range(6)] == snap_hands
    # and the other way round: stepping the original leaves the clone alone
    c2 = g.clone()
    c2_json = c2.to_json()
    if not g.match_over:
        probe = g.clone()
        acts = probe.legal_actions()
        probe.step(acts[0])
        assert c2.to_json() == c2_json and len(c2.state.events()) == snap_events


def run_checked_game(seed: int, rules: Rules, *, auto_pass: bool = False, json_every_step: bool = False,
                     forfeit_at: int | None = None, obs_prob: float = 0.02,
                     max_steps: int = 200_000) -> tuple[Game, Checker]:
    """Random play from `seed`, every step checked.  The costlier checks (JSON round trip,
    observations, clone, pickle) run at random steps, a bounded number of times per game
    (they are O(game length)), or at every step with `json_every_step`."""
    g = Game(seed, rules, auto_pass=auto_pass)
    rng = random.Random(seed * 7919 + 1)
    checker = Checker(g)
    checker.check_state()
    budget = {"json": 12, "obs": 25, "private": 25, "clone": 6}
    steps = 0
    while not g.match_over:
        if forfeit_at is not None and steps == forfeit_at:
            g.forfeit(rng.randrange(6))
            checker.check_state()
            break
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
        steps += 1
        assert steps < max_steps
        checker.check_state()
        if json_every_step or (budget["json"] and rng.random() < 0.01):
            budget["json"] -= 1
            assert Game.from_json(g.to_json()) == g
        if budget["obs"] and rng.random() < obs_prob:
            budget["obs"] -= 1
            check_observations(g)
        elif budget["private"] and g.phase in ("return", "take"):
            budget["private"] -= 1  # private cards are around: check who sees them
            check_observations(g)
        if budget["clone"] and rng.random() < 0.005:
            budget["clone"] -= 1
            check_clone_independent(g, rng)
            assert pickle.loads(pickle.dumps(g)) == g
    # at the end
    assert g.match_over
    assert replay(g.to_record()) == g
    assert Game.from_json(g.to_json()) == g
    assert pickle.loads(pickle.dumps(g)) == g
    assert copy.deepcopy(g) == g
    check_observations(g)
    return g, checker


# ---------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(30))
def test_random_matches_final_level_4(seed):
    g, checker = run_checked_game(seed, Rules(final_level="4"))
    assert checker.rounds_checked == g.n_results
    last = g.round_result
    assert last["match_over"] and last["match_winner"] in (0, 1)
    # R12: the winner is the dealer's team of the last round, at the final level
    assert last["match_winner"] == last["dealer"] % 2 and last["level"] == "4"


ALL_VARIANTS = [
    Rules(wild="declare", wrap_straights=True, joker_pair="pure_wins", lead_after_out="partner",
          dealer="stay", tribute_pairing="previous", anti_tribute=True, joker_tribute_choice=True,
          final_level="4", scoring="levels", base=2, losers_pay=False, min_rounds=1,
          max_rounds=8, max_final_failures=2),
    Rules(wild="high", wrap_straights=True, lead_after_out="partner", tribute_pairing="finish_order",
          anti_tribute=True, joker_tribute_choice=True, final_level="5", scoring="simple", base=3,
          max_rounds=6),
    Rules(wild="auto", joker_pair="pure_wins", dealer="stay", tribute_pairing="next",
          joker_tribute_choice=True, final_level="3", scoring="stake", base=5, losers_pay=False,
          max_final_failures=1),
]


@pytest.mark.parametrize("variant", range(len(ALL_VARIANTS)))
@pytest.mark.parametrize("seed", [101, 202, 303, 404])
def test_random_matches_every_variant(variant, seed):
    g, checker = run_checked_game(seed, ALL_VARIANTS[variant])
    assert checker.rounds_checked == g.n_results


@pytest.mark.parametrize("seed", [5, 6, 7, 8])
def test_random_matches_auto_pass(seed):
    g, checker = run_checked_game(seed, Rules(final_level="3"), auto_pass=True)
    forced = [e for e in g.state.events() if e[0] == "pass" and e[3]]
    assert forced  # forced passes happened, were applied by the engine
    # forced passes are not listed among the decisions (docs/records.md)
    n_passes = sum(1 for e in g.state.events() if e[0] == "pass")
    n_json_passes = sum(1 for a in json.loads(g.to_json())["actions"] if a[1] == "pass")
    assert n_json_passes == n_passes - len(forced)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_json_round_trip_every_step(seed):
    rules = Rules(max_rounds=2, anti_tribute=True, joker_tribute_choice=True,
                  wild="declare" if seed == 13 else "auto")
    run_checked_game(seed, rules, json_every_step=True, obs_prob=0.1)


@pytest.mark.parametrize("seed", [21, 22, 23, 24])
def test_random_forfeits(seed):
    rng = random.Random(seed)
    rules = Rules(min_rounds=rng.choice([0, 1, 2]), base=rng.choice([1, 2]), final_level="3")
    run_checked_game(seed, rules, forfeit_at=rng.randrange(50, 700))


def test_checker_sees_every_result_kind():
    # Across the fixed seeds above, every number of tributers and draws occur (so the
    # reference comparisons were not vacuous).
    kinds = set()
    for seed in range(30):
        g = Game(seed, Rules(final_level="4"))
        rng = random.Random(seed * 7919 + 1)
        while not g.match_over:
            acts = g.legal_actions()
            g.step(acts[rng.randrange(len(acts))])
        for r in g.results:
            kinds.add(len(r["tributers"]) if r["winner"] is not None else "draw")
    assert kinds == {1, 2, 3, "draw"}


def test_clone_is_independent_through_a_whole_round():
    g = Game(3, Rules(final_level="3"))
    rng = random.Random(3)
    for _ in range(40):
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    c = g.clone()
    ev_g = [str(e) for e in g.state.events()]
    hands = [Hand(g.hand(s)) for s in range(6)]
    while not c.match_over:  # play the clone to the end of the match
        acts = c.legal_actions()
        c.step(acts[rng.randrange(len(acts))])
    assert [str(e) for e in g.state.events()] == ev_g
    assert [g.hand(s) for s in range(6)] == hands
    assert g.n_results == 0 and not g.match_over
    # and the original can still go on, independently of the clone
    ev_c = [str(e) for e in c.state.events()]
    while g.n_results == 0:
        acts = g.legal_actions()
        g.step(acts[0])
    assert [str(e) for e in c.state.events()] == ev_c
    assert [str(e) for e in c.state.events()][:len(ev_g)] == ev_g


@pytest.mark.parametrize("before, after", [(False, True), (True, False)])
def test_auto_pass_switched_mid_game_round_trips(before, after):
    # Game.auto_pass is settable.  docs/records.md: Game.from_json(g.to_json()) and
    # replay(g.to_record()) rebuild an equal game, whatever decisions were taken.
    g = Game(5, Rules(max_rounds=2), auto_pass=before)
    rng = random.Random(5)
    for _ in range(120):
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    g.auto_pass = after
    for _ in range(40):
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    assert not g.match_over
    manual = [e for e in g.state.events() if e[0] == "pass" and not e[3]]
    forced = [e for e in g.state.events() if e[0] == "pass" and e[3]]
    assert manual and forced
    assert Game.from_json(g.to_json()) == g
    assert replay(g.to_record()) == g
