"""The 4-player, 2-deck table (docs/rules.md R18), from the same sides as the 6-player game:
the oracle (tests/reference.py with copies=2) on random hands, perft counts justified by the
oracle, random-play invariants with every round result recomputed from the finishing order
by a table-parameterized checker, and table-driven cases for each R18 bullet.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter

import daguai
import numpy as np
import pytest
import reference as ref
import test_game_invariants as invariants
import test_rules_vs_reference as vs_reference
from daguai import Game, Hand, Rules, replay
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

LEVELS = "23456789TJQKA"
R4 = Rules(table="4p2d")
SEATS, COPIES, HAND = 4, 2, 27  # R18
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------
# The table descriptor (engine/core/table.hpp)
# ---------------------------------------------------------------------------

def test_r18_table_descriptors():
    t4 = daguai._core.core.table_info("4p2d")
    t6 = daguai._core.core.table_info("6p3d")
    assert (t4["seats"], t4["decks"], t4["hand_size"], t4["team_size"]) == (4, 2, 27, 2)
    assert (t6["seats"], t6["decks"], t6["hand_size"], t6["team_size"]) == (6, 3, 27, 3)
    assert t4["seats"] * t4["hand_size"] == 54 * t4["decks"] == 108  # R18: 108 cards
    assert t6["seats"] * t6["hand_size"] == 54 * t6["decks"] == 162  # R2: 162 cards
    assert t4["max_tributers"] == 2 and t6["max_tributers"] == 3
    assert not t4["joker_tribute"] and t6["joker_tribute"]  # R11 / R18
    assert t4["stake"][1:3] == [1, 3] and t6["stake"][1:] == [1, 3, 6]  # R13
    assert (t4["forfeit_leaver"], t6["forfeit_leaver"]) == (12, 18)  # R14
    with pytest.raises(ValueError, match="no table"):
        daguai._core.core.table_info("8p4d")


# ---------------------------------------------------------------------------
# The oracle on random hands (R5-R8 with the copy limit 2)
# ---------------------------------------------------------------------------

def pool_hand(min_size=0, max_size=12):
    """Pool hands of the 6p oracle test with at most 2 copies of a face and 0-4 jokers (R18)."""
    return vs_reference.pool_hand(min_size=min_size, max_size=max_size, copies=COPIES)


@st.composite
def rules4(draw):
    return Rules(table="4p2d", wild=draw(st.sampled_from(["auto", "high", "declare"])),
                 wrap_straights=draw(st.booleans()),
                 joker_pair=draw(st.sampled_from(["tie", "pure_wins"])))


def ref_kwargs(rules: Rules) -> dict:
    return dict(wild=rules.wild, wrap=rules.wrap_straights, joker_pair=rules.joker_pair,
                copies=COPIES)


def engine_set(plays):
    return {(tuple(p.cards.faces()), int(p.kind), p.key) for p in plays}


def play_cards():
    """Candidate plays of the 6p oracle test, from 4p2d pool hands."""
    return vs_reference.play_cards(copies=COPIES)


@SETTINGS
@given(faces=play_cards(), level=st.sampled_from(LEVELS), rules=rules4())
def test_r18_r6_classify_matches_reference(faces, level, rules):
    lv = LEVELS.index(level)
    expect = ref.classify(faces, lv, **ref_kwargs(rules))
    got = daguai.classify(Hand.from_faces(list(faces)), level, rules)
    assert (None if got is None else (int(got.kind), got.key)) == expect
    interps = {(int(p.kind), p.key)
               for p in daguai.interpretations(Hand.from_faces(list(faces)), level, rules)}
    assert interps == ref.interpretations(faces, lv, rules.wrap_straights, rules.joker_pair,
                                          COPIES)


def test_r18_r6_stand_in_faces_use_a_face_at_most_twice_issue_19():
    """R18: a wildcard reading may use a face at most twice. The record's `as` named 2s
    twice beside a natural 2s (three copies); kind and key were right."""
    p = daguai.classify("2s 2h 4c SJ BJ", level="2", rules=Rules(table="4p2d"))
    assert p.kind == daguai.Kind.FOUR_PLUS_ONE and p.jokers_as == ["2s", "2h"]
    assert daguai.classify("2s 2h 4c SJ BJ", level="2").jokers_as == ["2s", "2s"]  # 6p: 3 decks
    assert pickle.loads(pickle.dumps(p)).jokers_as == ["2s", "2h"]


@SETTINGS
@given(faces=play_cards(), level=st.sampled_from(LEVELS), rules=rules4())
def test_r18_r6_every_reading_names_at_most_two_copies(faces, level, rules):
    hand = Hand.from_faces(list(faces))
    for p in daguai.interpretations(hand, level, rules):
        naturals = [c for c in str(p.cards).split() if c not in ("SJ", "BJ")]
        counts = Counter(naturals + list(p.jokers_as))
        assert max(counts.values(), default=0) <= COPIES, (str(p.cards), p.jokers_as)
        if p.jokers_as:  # a single or joker-only play stands for itself (R6)
            assert sorted(str(p.interpreted).split()) == sorted(naturals + list(p.jokers_as))


@settings(SETTINGS, max_examples=80)
@given(hand=pool_hand(max_size=9), level=st.sampled_from(LEVELS), rules=rules4())
def test_r18_r8_legal_leads_match_reference(hand, level, rules):
    lv = LEVELS.index(level)
    plays = daguai.legal_plays(Hand.from_faces(list(hand)), level, None, rules)
    got = engine_set(plays)
    assert len(got) == len(plays), "a play was generated twice"
    assert got == ref.legal_plays(hand, lv, None, **ref_kwargs(rules))
    assert daguai.count_plays(Hand.from_faces(list(hand)), level, None, rules) == len(plays)


@settings(SETTINGS, max_examples=80)
@given(hand=pool_hand(max_size=9), other=play_cards(), level=st.sampled_from(LEVELS),
       rules=rules4())
def test_r18_r8_legal_follows_match_reference(hand, other, level, rules):
    lv = LEVELS.index(level)
    top = daguai.classify(Hand.from_faces(list(other)), level, rules)
    if top is None:
        return
    plays = daguai.legal_plays(Hand.from_faces(list(hand)), level, top, rules)
    assert engine_set(plays) == ref.legal_plays(hand, lv, (top.size, top.key),
                                                **ref_kwargs(rules))


# ---------------------------------------------------------------------------
# R6 + R18: a wildcard reading uses a face at most twice
# ---------------------------------------------------------------------------

def flush_key(powers):
    return (ref.FLUSH - 3) << 20 | ref.flush_sub(powers)


# (cards, level, wild, key at 6p3d, key at 4p2d), powers at level A: 2 -> 0, 3 -> 1, 6 -> 4,
# 9 -> 7, K -> 11, A (level) -> 12.
COPY_LIMIT = [
    # auto: the joker is the lowest heart with a copy left: 2h (a third 2h) at 6p3d, 3h at 4p2d
    ("2h 2h 6h 9h SJ", "A", "auto", flush_key([7, 4, 0, 0, 0]), flush_key([7, 4, 1, 0, 0])),
    # two jokers: 2h 2h at 6p3d (three 2h in all), 2h + 3h at 4p2d
    ("2h 6h 9h SJ BJ", "A", "auto", flush_key([7, 4, 0, 0, 0]), flush_key([7, 4, 1, 0, 0])),
    # high: the joker is the level card of the suit, Ah; at 4p2d Ah is used up: Kh
    ("Ah Ah 6h 9h SJ", "A", "high", flush_key([12, 12, 12, 7, 4]), flush_key([12, 12, 11, 7, 4])),
    # no face is needed a third time: the same reading at both tables
    ("2h 6h 9h Jh SJ", "A", "auto", flush_key([9, 7, 4, 0, 0]), flush_key([9, 7, 4, 0, 0])),
]


@pytest.mark.parametrize("cards, level, wild, key6, key4", COPY_LIMIT)
def test_r18_r6_wildcard_copy_limit(cards, level, wild, key6, key4):
    p6 = daguai.classify(cards, level, Rules(wild=wild))
    p4 = daguai.classify(cards, level, Rules(wild=wild, table="4p2d"))
    assert p6.kind.name.lower() == p4.kind.name.lower() == "flush"
    assert (p6.key, p4.key) == (key6, key4)
    lv = LEVELS.index(level)
    faces = ref.parse(cards)
    assert ref.classify(faces, lv, wild=wild) == (ref.FLUSH, key6)
    assert ref.classify(faces, lv, wild=wild, copies=2) == (ref.FLUSH, key4)
    # the oracle's reduction against the literal definition (52**j assignments)
    if Counter(faces)[52] + Counter(faces)[53] == 1:
        assert ref.interpretations(faces, lv, copies=2) == ref.interpretations_bruteforce(
            faces, lv, copies=2)
    # the generator agrees with the classifier on the whole hand
    plays = [p for p in daguai.legal_plays(cards, level, None, Rules(wild=wild, table="4p2d"))
             if p.size == 5]
    assert [p.key for p in plays] == [key4]


# ---------------------------------------------------------------------------
# Perft (R8 with R5-R7 at 4p2d), every count justified by the oracle
# ---------------------------------------------------------------------------

# 27-card hands with at most 2 copies of a face (R18).
HANDS4 = {
    # the seeded 4p2d deal of Game(7, Rules(table="4p2d")), seat 0 (test_r18_seeded_deal_pinned)
    "deal": "2s 2h 3h 4c 5c 6s 6h 6d 7s 7c 9s 9h 9d Ts Th Td Js Qs Qh Qd Ks Ks Kh Kd Ah Ac SJ",
    # hearts in pairs + 2 jokers: flushes whose jokers meet the copy limit
    "hearts": "2h 2h 3h 4h 4h 6h 6h 7h 8h 8h 9h Th Th Jh Qh Qh Kh Ah Ah 2s 5c 9d Jd Kc SJ SJ BJ",
    # pairs of faces everywhere, 4 jokers
    "pairs": "3s 3s 3h 5d 5d 5c 7h 7h 7c 7c 9s 9s Th Td Td Qs Qc Qc Ks Ks Ah Ah 2d SJ SJ BJ BJ",
}

PERFT4 = [
    # (hand, level, rules, top, kind of top, count); counts from the oracle (asserted below)
    ("deal", "2", {}, None, None, 1434),
    # 99 = power 6 at level 2; natural pairs above: T (3 faces) 3, Q 3, K (KsKs KsKh KsKd
    # KhKd) 4, AhAc 1, 2s2h (level) 1 = 12; SJ + one of the 14 faces above 9 (Ts Th Td Js
    # Qs Qh Qd Ks Kh Kd Ah Ac 2s 2h) = 14; 26
    ("deal", "2", {}, "9s 9h", "pair", 26),
    ("deal", "2", {"wild": "high"}, "5s 6h 7d 8c 9s", "straight", 1247),
    ("hearts", "5", {}, None, None, 5456),
    ("hearts", "5", {}, "3d 5d 8d Jd Kd", "flush", 781),
    # high lifts the jokers' part of a flush (level card of the suit, or the next one when
    # both 5h are used: R18), so more flushes beat the top
    ("hearts", "5", {"wild": "high"}, "3d 5d 8d Jd Kd", "flush", 1807),
    ("hearts", "5", {"wild": "declare"}, "3d 5d 8d Jd Kd", "flush", 9755),
    ("pairs", "7", {}, None, None, 1532),
    ("pairs", "7", {}, "8s 8h 8d 4s 4h", "full_house", 1032),
]


def _hand4(name: str) -> str:
    return HANDS4[name]


def test_r18_seeded_deal_pinned():
    """R17/R18: the 4p2d deal of a seed is fixed (the perft hand "deal" is seat 0's)."""
    assert Game(7, R4).hand(0) == Hand(HANDS4["deal"])


@pytest.mark.parametrize("hand, level, rd, top_text, top_kind, count", PERFT4,
                         ids=[f"{r[0]}-L{r[1]}-{r[2].get('wild', 'auto')}-{r[4] or 'lead'}"
                              for r in PERFT4])
def test_r18_perft(hand, level, rd, top_text, top_kind, count):
    rules = Rules(table="4p2d", **rd)
    text = _hand4(hand)
    faces = ref.parse(text)
    assert len(faces) == HAND and max(Counter(faces).values()) <= COPIES
    lv = LEVELS.index(level)
    top = ref_top = None
    if top_text is not None:
        top = daguai.classify(top_text, level, rules)
        assert top.kind.name.lower() == top_kind
        ref_top = (top.size, top.key)
    expected = ref.legal_plays(faces, lv, ref_top, wild=rules.wild, copies=COPIES)
    assert len(expected) == count, "pinned count disagrees with the oracle"
    assert daguai.count_plays(text, level, top, rules) == count
    plays = daguai.legal_plays(text, level, top, rules)
    assert engine_set(plays) == expected


# ---------------------------------------------------------------------------
# Random-play invariants at 4p2d: a checker that recomputes every result
# ---------------------------------------------------------------------------

def pair_tributes(how: str, tributers: list[int], receivers: list[int]) -> list[int]:
    """R11 at 4 seats: the tributer paying receivers[i] (the 6p reference, seats=4)."""
    return invariants.pair_tributes(how, tributers, receivers, SEATS)


def expected_result(rules: Rules, rnd: int, out: list[int], left: list[int], dealer: int,
                    levels: list[int], failures: list[int]) -> dict:
    """R9-R13 at 4p2d: the 6p reference with the table's seats and stakes (R13/R18: +3b with 2
    tributers, +1b with 1)."""
    return invariants.expected_round_result(rules, rnd, out, left, dealer, levels, failures,
                                            seats=SEATS, stakes={2: 3, 1: 1})


def expected_forfeit(rules: Rules, rounds_done: int, out: list[int], seat: int) -> list[int]:
    """R14 scaled to 4p2d (docs/game.md): -12b for the leaver, or -2b before min_rounds."""
    return invariants.expected_forfeit_scores(rules, rounds_done, out, seat, seats=SEATS, early=2,
                                              late=12)


class Checker4:
    """Follows a 4p2d game through its events: hand sizes, card totals (108), the R8 trick
    (who acts next, when a trick ends and who leads), results, tribute and forfeits."""

    def __init__(self, g: Game) -> None:
        self.g, self.rules, self.idx = g, g.rules, 0
        self.levels, self.failures = [0, 0], [0, 0]
        self.totals = [0] * SEATS
        self.rounds_done = self.forfeits = 0
        self.next_dealer = g.dealer
        self.pending: list[tuple[int, int]] = []
        self.joker_holding_tributers = 0
        self.trick_ends_with_three = 0
        self.process()

    def new_round(self, payload: dict) -> None:
        assert payload["round"] == self.rounds_done
        assert payload["dealer"] == self.next_dealer
        assert payload["levels"] == [LEVELS[x] for x in self.levels]
        hands = payload["hands"]
        assert [len(h) for h in hands] == [HAND] * SEATS  # R18: 27 each
        total = sum(np.asarray(h.counts(), dtype=np.int64) for h in hands)
        assert (total == COPIES).all()  # R18: each face exactly twice, 108 cards
        self.left = [HAND] * SEATS
        self.out: list[int] = []
        self.dealer = payload["dealer"]
        self.pairs = list(self.pending)
        self.top: int | None = None
        self.passed: set[int] = set()
        self.to_act = self.dealer if not self.pairs else None

    def active(self) -> list[int]:
        return [s for s in range(SEATS) if s not in self.out]

    def next_active(self, seat: int) -> int:
        return next((seat + k) % SEATS for k in range(1, SEATS + 1)
                    if (seat + k) % SEATS not in self.out)

    def process(self) -> None:
        for name, seat, other, _flags, payload in self.g.state.events(self.idx):
            self.idx += 1
            if name == "deal":
                self.new_round(payload)
            elif name in ("play", "pass"):
                if self.to_act is None:  # first play after the exchange: the dealer leads
                    self.to_act = self.dealer
                assert seat == self.to_act, (name, seat, self.to_act)  # R8 play order
                if name == "play":
                    self.left[seat] -= len(payload.cards)
                    self.top, self.passed = seat, set()
                    if self.left[seat] == 0:
                        self.out.append(seat)
                        if all(s in self.out for s in range(SEATS) if s % 2 == seat % 2):
                            continue  # R8: the round ends (round_end follows)
                    self.to_act = self.next_active(seat)
                else:
                    assert self.top is not None  # R8: a leader cannot pass
                    self.passed.add(seat)
                    others = [s for s in self.active() if s != self.top]
                    if set(others) <= self.passed:  # R8/R18: the others holding cards passed
                        self.trick_ends_with_three += len(others) == 3
                        lead = self.top
                        if lead in self.out:
                            lead = None
                            if self.rules.lead_after_out == "partner":
                                p = (self.top + 2) % SEATS
                                lead = p if p not in self.out else None
                            if lead is None:
                                lead = self.next_active(self.top)
                        self.top, self.passed, self.to_act = None, set(), lead
                    else:
                        self.to_act = self.next_active(seat)
            elif name == "tribute":
                assert (seat, other) in self.pairs
                assert payload.faces()[0] < 52  # R11/R18: never a joker
                self.left[seat] -= 1
                self.left[other] += 1
            elif name in ("return", "take"):
                sign = 1 if name == "return" else -1
                self.left[seat] -= sign
                self.left[other] += sign
            elif name in ("offer", "anti_tribute"):
                pass
            elif name == "round_end":
                exp = expected_result(self.rules, self.rounds_done, self.out, self.left,
                                      self.dealer, self.levels, self.failures)
                assert payload == exp, f"round {self.rounds_done}: {payload} != {exp}"
                assert sum(payload["scores"]) == 0 or not self.rules.losers_pay or \
                    self.rules.scoring != "stake"
                self.totals = [a + b for a, b in zip(self.totals, payload["scores"], strict=True)]
                self.rounds_done += 1
                self.next_dealer = payload["next_dealer"]
                self.pending = list(zip(payload["tributers"], payload["receivers"], strict=True))
            elif name == "forfeit":
                assert payload["scores"] == expected_forfeit(self.rules, self.rounds_done,
                                                             self.out, seat)
                self.totals = [a + b for a, b in zip(self.totals, payload["scores"], strict=True)]
                self.forfeits += 1
            else:  # pragma: no cover
                raise AssertionError(name)

    def check_state(self) -> None:
        g = self.g
        self.process()
        assert g.scores == self.totals
        assert len(g.scores) == SEATS
        if g.match_over:
            return
        assert g.cards_left == self.left
        assert sum(g.cards_left) + sum(len(g.played(s)) for s in range(SEATS)) == 108
        counts = sum(np.asarray(g.hand(s).counts(), dtype=np.int64) +
                     np.asarray(g.played(s).counts(), dtype=np.int64) for s in range(SEATS))
        assert (counts == COPIES).all()  # R2/R18 conservation
        assert g.finish_order == self.out
        if g.phase == "play":
            # after the exchange the dealer leads the first trick (R8)
            assert g.current_player == (self.dealer if self.to_act is None else self.to_act)
        elif g.phase == "tribute":
            seat = g.current_player
            hand = g.hand(seat)
            tributes = [a.cards.faces()[0] for a in g.legal_actions() if a.type == "tribute"]
            level = g.level
            best = max(daguai._core.core.face_power(f, level) for f in hand.faces() if f < 52)
            assert tributes and all(f < 52 and daguai._core.core.face_power(f, level) == best
                                    for f in tributes)
            if hand.jokers:
                self.joker_holding_tributers += 1


def run_checked(seed: int, rules: Rules, forfeit_at: int | None = None) -> tuple[Game, Checker4]:
    g = Game(seed, rules)
    rng = random.Random(seed * 31 + 7)
    ch = Checker4(g)
    ch.check_state()
    steps = 0
    while not g.match_over:
        if forfeit_at is not None and steps == forfeit_at:
            g.forfeit(rng.randrange(SEATS))
            ch.check_state()
            break
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
        steps += 1
        ch.check_state()
    assert replay(g.to_record()) == g
    assert Game.from_json(g.to_json()) == g
    return g, ch


VARIANTS4 = [
    Rules(table="4p2d", final_level="4"),
    Rules(table="4p2d", wild="declare", wrap_straights=True, lead_after_out="partner",
          dealer="stay", tribute_pairing="previous", anti_tribute=True,
          joker_tribute_choice=True, final_level="3", scoring="levels", base=2, max_rounds=6),
    Rules(table="4p2d", wild="high", tribute_pairing="finish_order", final_level="3",
          scoring="simple", max_final_failures=1, losers_pay=False),
]


@pytest.mark.parametrize("variant", range(len(VARIANTS4)))
@pytest.mark.parametrize("seed", range(6))
def test_r18_random_matches_invariants(variant, seed):
    g, ch = run_checked(seed, VARIANTS4[variant])
    assert ch.rounds_done == g.n_results
    last = g.round_result
    assert last["match_over"]


def test_r18_results_cover_every_case():
    """Across seeded games: 1 and 2 tributers and draws occur; tricks ended with three
    others passing; tributers held jokers and still paid natural cards (R11/R18)."""
    kinds, three, jokers = set(), 0, 0
    for seed in range(12):
        g, ch = run_checked(seed, VARIANTS4[0])
        three += ch.trick_ends_with_three
        jokers += ch.joker_holding_tributers
        for r in g.results:
            kinds.add(len(r["tributers"]) if r["winner"] is not None else "draw")
    assert kinds == {1, 2, "draw"}
    assert three > 0 and jokers > 0


@pytest.mark.parametrize("seed", [21, 22, 23, 24])
def test_r18_r14_random_forfeits(seed):
    rng = random.Random(seed)
    rules = Rules(table="4p2d", min_rounds=rng.choice([0, 1, 2]), base=rng.choice([1, 2]),
                  final_level="3")
    g, ch = run_checked(seed, rules, forfeit_at=rng.randrange(30, 400))
    assert ch.forfeits == 1


@pytest.mark.parametrize("early, base, leaver", [(True, 1, -2), (False, 1, -12), (False, 3, -36)])
def test_r18_r14_forfeit_figures(early, base, leaver):
    g = Game(3, Rules(table="4p2d", base=base, min_rounds=1 if early else 0))
    g.forfeit(1)
    scores = g.round_result["scores"]
    assert scores[1] == leaver
    assert scores[0] == scores[2] == base and scores[3] == 0  # nobody out: +1b each opponent


# ---------------------------------------------------------------------------
# R18 bullets as table-driven cases on the engine's state
# ---------------------------------------------------------------------------

def test_r18_seats_and_deal():
    g = Game(11, R4)
    assert g.seats == 4 and len(g.cards_left) == 4 and g.cards_left == [27] * 4
    assert 0 <= g.dealer < 4
    with pytest.raises(ValueError):
        g.hand(4)
    with pytest.raises(ValueError):
        g.observation(5)
    total = sum(np.asarray(g.hand(s).counts()) for s in range(4))
    assert (total == 2).all()
    # R17: the same seed deals the same hands; the 6p3d deal of the seed is another one
    assert [g.hand(s) for s in range(4)] == [Game(11, R4).hand(s) for s in range(4)]
    assert Game(11, Rules()).seats == 6


def test_r18_trick_ends_after_three_passes():
    """R8/R18: with all four in, a play stands after the three others pass, and its player
    leads the next trick."""
    g = Game(5, R4)
    while g.phase != "play":
        g.step(g.legal_actions()[0])
    leader = g.current_player
    g.step(g.legal_actions()[0])  # lead
    for k in range(1, 4):
        assert g.current_player == (leader + k) % 4
        g.step("pass")
    assert g.top is None and g.current_player == leader


def test_r18_r9_win_needs_both_partners():
    """R9/R18: a round ends when both players of one team are out; F wins if that is its
    team (1 or 2 tributers), else a draw."""
    seen = set()
    for seed in range(40):
        g = Game(seed, Rules(table="4p2d", max_rounds=1))
        rng = random.Random(seed)
        while not g.match_over:
            acts = g.legal_actions()
            g.step(acts[rng.randrange(len(acts))])
        r = g.round_result
        out = r["order"][:r["players_out"]]
        last = out[-1]
        assert sorted(s for s in out if s % 2 == last % 2) == sorted({last % 2, last % 2 + 2})
        if r["winner"] is None:
            assert out[0] % 2 != last % 2
            assert r["scores"] == [0] * 4
            seen.add("draw")
        else:
            n = len(r["tributers"])
            assert n == 4 - r["players_out"] and n in (1, 2)
            assert r["scores"] == [(1 if s % 2 == r["winner"] else -1) * {1: 1, 2: 3}[n]
                                   for s in range(4)]  # R13/R18 stake
            seen.add(n)
    assert seen == {1, 2, "draw"}


def test_r18_r11_no_joker_tribute_position():
    """R11/R18: a tributer holding jokers pays its highest natural card."""
    for seed in range(200):
        g = Game(seed, Rules(table="4p2d"), start="random")
        if g.phase == "tribute" and g.hand(g.current_player).jokers:
            break
    else:  # pragma: no cover
        pytest.fail("no random start with a joker-holding tributer")
    hand = g.hand(g.current_player)
    acts = g.legal_actions()
    level = g.level
    best = max(daguai._core.core.face_power(f, level) for f in hand.faces() if f < 52)
    assert all(a.type == "tribute" for a in acts)
    assert {a.cards.faces()[0] for a in acts} == {
        f for f in hand.faces() if f < 52 and daguai._core.core.face_power(f, level) == best}
    has_sj = 52 in hand.faces()
    joker = "SJ" if has_sj else "BJ"
    with pytest.raises(ValueError, match="jokers excepted"):
        g.step(f"tribute {joker}")
    # the same hand at 6p3d would have to pay the joker (R11)
    assert daguai._core.core.face_power(52 if has_sj else 53, level) > best


def test_r18_r11_two_tributers_next_pairing():
    """R11/R18 "next" with 2 tributers: each pays the receiver at the smaller forward
    distance (the checker's pair_tributes, here on the figures directly)."""
    # tributers 1 (better) and 3, receivers 0 (first out) and 2: distances 1->2 = 1,
    # 3->0 = 1; tie -> the worse tributer (3) first, with the better receiver (0)
    assert pair_tributes("next", [1, 3], [0, 2]) == [3, 1]
    assert pair_tributes("previous", [1, 3], [0, 2]) == [1, 3]
    assert pair_tributes("finish_order", [1, 3], [0, 2]) == [3, 1]


def test_r18_simulate_columns_and_paths_agree():
    """simulate at 4p2d: per-seat columns are 4 wide, tributers 2; the C++ rollout and the
    Python path (decision by decision, the same policy streams) give the same games."""
    res = daguai.simulate(30, "random", rules=R4, seed=3)
    assert res["order"].shape == (30, 4) and res["scores"].shape == (30, 4)
    assert res["tributers"].shape == (30, 2)
    assert (np.sort(res["order"], axis=1) == np.arange(4)).all()
    assert (res["scores"].sum(axis=1) == 0).all()  # stake, losers pay: zero-sum (R13)
    assert set(res["n_tributers"].tolist()) <= {0, 1, 2}
    from daguai.run import simulation as sim
    pols = ["heuristic", "random", "heuristic", "random"]
    run = sim._Run(R4, 9, tuple(pols))
    fast = sim._run_fast(run, 0, 6)
    slow = sim._run_slow(run, 0, 6)
    for name in fast:
        assert (np.asarray(fast[name]) == np.asarray(slow[name])).all(), name
    with pytest.raises(ValueError, match="or 4"):
        daguai.simulate(2, ["random"] * 6, rules=R4)
    ev = daguai.evaluate("heuristic", "random", 10, rules=R4, seed=1)
    assert ev.wins + ev.draws + ev.losses == 20


def test_r18_records_round_trip():
    g = Game(2, Rules(table="4p2d", max_rounds=2))
    rng = random.Random(2)
    while not g.match_over:
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    assert replay(g.to_record()) == g
    assert Game.from_json(g.to_json()) == g
    assert g.to_json() != Game(2, Rules(max_rounds=2)).to_json()


# ---------------------------------------------------------------------------
# Environments, encoder, positions, CLI and server at 4p2d
# ---------------------------------------------------------------------------

def test_r18_encoder_shape_and_empty_slots():
    """The observation keeps its 6p3d shape (OBS_VERSION unchanged); at 4p2d the slots of
    relative seats 4 and 5 stay zero, and seat 3's next seat is seat 0."""
    g = Game(4, R4)
    rng = random.Random(4)
    for _ in range(30):
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    spec = {name: (off, size) for name, off, size, _ in daguai._core.io.obs_slices()}
    for seat in range(4):
        obs = daguai.learn.encode_observation(g, seat)
        assert obs.shape == (daguai.learn.OBS_SIZE,)
        off, size = spec["played"]
        assert not obs[off + 4 * 54:off + size].any()
        for name in ("cards_left", "out", "dealer", "to_act", "passed", "top_seat"):
            off, size = spec[name]
            assert size == 6 and not obs[off + 4:off + 6].any(), name
        off, _ = spec["cards_left"]
        assert list(obs[off:off + 4] * 27) == pytest.approx(
            [g.cards_left[(seat + k) % 4] for k in range(4)])
    with pytest.raises(ValueError, match="0..3"):
        daguai.learn.encode_observation(g, 4)


def test_r18_batch_env_rewards_per_seat():
    env = daguai.learn.BatchEnv(3, R4, seed=2, opponents=["heuristic", None, "heuristic", None])
    obs, mask, rewards, done, to_act = env.reset()
    assert rewards.shape == (3, 4) and set(to_act.tolist()) <= {1, 3}
    total = 0
    for _ in range(2000):
        obs, mask, rewards, done, to_act = env.step(
            np.array([int(np.flatnonzero(m)[0]) for m in mask]))
        total += int(done.sum())
        assert (rewards.sum(axis=1) == 0).all()  # stake, losers pay (R13)
        if total >= 3:
            break
    assert total >= 3
    with pytest.raises(ValueError, match="4 entries"):
        daguai.learn.BatchEnv(1, R4, opponents=["random"] * 6)


def test_r18_pettingzoo_and_gym_envs():
    from daguai.env import raw_env
    from daguai.learn.envs.gym_env import DaGuaiEnv
    e = raw_env(rules=R4)
    e.reset(seed=3)
    assert e.possible_agents == [f"player_{s}" for s in range(4)]
    assert e.state().shape == (4 * daguai.learn.OBS_SIZE,)
    ge = DaGuaiEnv(seat=(1, 3), rules=R4)
    obs, _ = ge.reset(seed=5)
    done, reward = False, 0.0
    while not done:
        obs, reward, term, trunc, _ = ge.step(int(np.flatnonzero(obs["action_mask"])[0]))
        done = term or trunc
    assert reward in (-3.0, -1.0, 0.0, 1.0, 3.0)  # R13/R18 stake, base 1
    with pytest.raises(ValueError, match="0..3"):
        DaGuaiEnv(seat=4, rules=R4)


def test_r18_openspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    import daguai.learn.envs.openspiel_game  # noqa: F401  (registers the games)
    game = pyspiel.load_game("python_daguai_4p2d")
    assert game.num_players() == 4 and game.max_utility() == 3.0
    state = game.new_initial_state()
    rng = random.Random(6)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(256))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    returns = state.returns()
    assert len(returns) == 4 and sum(returns) == 0 and returns[0] == returns[2]


def test_r18_positions_round_trip():
    from daguai import positions
    g = Game(8, R4)
    rng = random.Random(8)
    for _ in range(25):
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    doc = g.position()
    assert doc == positions.position_of(g)
    assert len(doc["hands"]) == 4 and len(doc["scores"]) == 4
    h = Game.from_position(doc)
    assert [h.hand(s) for s in range(4)] == [g.hand(s) for s in range(4)]
    assert h.current_player == g.current_player
    hidden = dict(doc, hands=[doc["hands"][0], None, None, None])
    filled = positions.fill_hidden_hands(hidden, seed=1)
    assert filled["hands"][0] == doc["hands"][0] and all(filled["hands"])


def test_r18_cli_simulate_and_evaluate(capsys):
    from daguai.cli import main
    assert main(["simulate", "--rounds", "40", "--rules", "table=4p2d", "--threads", "1",
                 "--json"]) == 0
    out = capsys.readouterr().out
    import json
    fig = json.loads(out)
    assert [t["seats"] for t in fig["teams"]] == [[0, 2], [1, 3]]
    assert all(len(p["positions_pct"]) == 4 for p in fig["per_policy"])
    assert main(["evaluate", "heuristic", "random", "--deals", "20", "--rules", "table=4p2d",
                 "--threads", "1", "--quiet"]) == 0


def test_r18_server_refuses_4p2d_clearly():
    from daguai.server.app import create_app
    from starlette.testclient import TestClient
    with TestClient(create_app(":memory:")) as c:
        r = c.post("/api/tables", json={"rules": {"table": "4p2d"},
                                        "seats": [{"kind": "bot", "policy": "random"}] * 6})
        assert r.status_code == 400 and "4p2d" in r.json()["message"]


def test_r18_r16_views_and_sampled_worlds():
    """R16 at 4p2d: a view lists 4 seats, hides the other hands, and the worlds sampled from
    it (the determinization the search uses) keep the seat's hand and the 108 cards."""
    from daguai.search import sample_worlds
    g = Game(12, R4)
    rng = random.Random(12)
    checked = 0
    for step in range(400):
        if g.match_over:
            break
        if step % 41 == 5 and g.phase == "play":
            hands = [g.hand(s) for s in range(4)]
            for seat in range(4):
                obs = g.observation(seat)
                assert obs["seat"] == seat and obs["hand"] == hands[seat].cards()
                assert obs["cards_left"] == [len(h) for h in hands]
                v = g.view(seat)
                assert len(v.played) == len(v.hidden_counts) == len(v.known) == 4
                assert len(v.unseen) == sum(v.hidden_counts)
                assert len(v.unseen) + len(hands[seat]) + sum(len(g.played(s)) for s in range(4)) \
                    + sum(len(v.known[s]) for s in range(4) if s != seat) == 108
            seat = g.current_player
            for w in sample_worlds(g.view(seat), 3, seed=step):
                assert w.seats == 4 and w.hand(seat) == hands[seat]
                assert [len(w.hand(s)) for s in range(4)] == [len(h) for h in hands]
                total = sum(np.asarray(w.hand(s).counts()) + np.asarray(w.played(s).counts())
                            for s in range(4))
                assert (total == COPIES).all()
            checked += 1
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    assert checked >= 3
