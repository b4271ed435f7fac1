"""The match state machine against docs/rules.md, one table test per rule id: R8 (tricks, lead
after a player goes out), R9 (the eight result cases of docs/game.md plus draws) with R13
scores, R10 (dealer), R11 (tribute pairing, tribute card, return, anti_tribute,
joker_tribute_choice), R12 (match end) and R14 (forfeits).

Situations are reached deterministically: a seeded Game driven by a scripted policy
(``play_round``) that makes chosen seats go out in a chosen order (the current target
plays its play with the most cards; everybody else passes when allowed and otherwise
leads their lowest single).  ``SEED_D0`` is a seed whose first dealer is seat 0, so
甲 (the dealer's team) is team A = seats 0 2 4 and 乙 is team B = seats 1 3 5.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import daguai
import pytest
from daguai import Game, Hand, Kind, Rules
from daguai._core.core import face_power

SEED_D0 = 6  # Game(6).dealer == 0 (checked below)
SEED_D3 = 0  # Game(0).dealer == 3
SEED_D1 = 1  # Game(1).dealer == 1


def test_seed_preconditions():
    assert Game(SEED_D0).dealer == 0
    assert Game(SEED_D3).dealer == 3
    assert Game(SEED_D1).dealer == 1


# ---------------------------------------------------------------------------
# Scripted policy
# ---------------------------------------------------------------------------

def lowest_single(g: Game):
    """The current player's legal single of the lowest power (R4) - to be easy to beat."""
    best = None
    for a in g.legal_actions():
        if a.type != "play" or a.play.kind != Kind.SINGLE:
            break  # singles come first (docs/rules.md "Order of legal plays")
        p = face_power(a.cards.faces()[0], g.level)
        if best is None or p < best[0]:
            best = (p, a)
    return best[1]


def most_cards(g: Game):
    """The legal play with the most cards (fives come last in the order), else pass."""
    acts = g.legal_actions()
    if acts[-1].type == "play":
        return acts[-1]
    return acts[-2] if len(acts) > 1 else "pass"


def step_towards(g: Game, targets) -> None:
    """One decision: the seats of `targets` go out in that order (tribute decisions: the
    first legal action)."""
    if g.phase != "play":
        g.step(g.legal_actions()[0])
        return
    out = set(g.finish_order)
    target = next((s for s in targets if s not in out), None)
    if g.current_player == target:
        g.step(most_cards(g))
    elif g.top is not None:
        g.step("pass")
    else:
        g.step(lowest_single(g))


def play_round(g: Game, targets) -> dict:
    """Drive the current round to its end; returns its result."""
    n = g.n_results
    for _ in range(5000):
        if g.n_results > n:
            return g.result(-1)
        step_towards(g, targets)
    raise AssertionError("the round did not end")


def finish_tribute(g: Game) -> None:
    while g.phase in ("tribute", "return", "take"):
        g.step(g.legal_actions()[0])


def round_events(g: Game, rnd: int) -> list:
    """The events of round `rnd`, from its deal to its round_end (inclusive)."""
    out, inside = [], False
    for e in g.state.events():
        if e[0] == "deal":
            inside = e[4]["round"] == rnd
        if inside:
            out.append(e)
            if e[0] in ("round_end", "forfeit"):
                break
    return out


def cards_left_at_end(g: Game, rnd: int) -> list[int]:
    """Cards each seat held when round `rnd` ended (27 minus the cards it played)."""
    left = [27] * 6
    for name, seat, _o, _f, payload in round_events(g, rnd):
        if name == "play":
            left[seat] -= len(payload.cards)
    return left


def expected_rest_order(order_out: list[int], left: list[int]) -> list[int]:
    """docs/game.md: players still holding cards take the remaining positions, fewer cards
    first, ties in play order starting after the last player out."""
    last = order_out[-1]
    rest = [(last + k) % 6 for k in range(1, 6) if (last + k) % 6 not in order_out]
    return sorted(rest, key=lambda s: left[s])  # stable: play order breaks ties


# ---------------------------------------------------------------------------
# R9 with R13: the eight cases of docs/game.md, plus draws
# ---------------------------------------------------------------------------

# (scoring, losers_pay) variants; every case is checked under each, with base 1 and 2.
SCHEMES = [("stake", True), ("stake", False), ("levels", True), ("simple", True)]
SCHEME_IDS = ["stake", "stake_losers_keep", "levels", "simple"]


def _scores(team_a: int, team_b: int) -> list[int]:
    return [team_a if s % 2 == 0 else team_b for s in range(6)]


def _check_case(scheme, base, targets, *, winner, tributers, receivers, levels_after,
                next_dealer, per_scheme, seed=SEED_D0, dealer=0):
    scoring, losers_pay = scheme
    rules = Rules(scoring=scoring, losers_pay=losers_pay, base=base)
    g = Game(seed, rules)
    assert g.dealer == dealer
    r = play_round(g, targets)
    assert r["order"][:len(targets)] == targets
    assert r["players_out"] == len(targets)
    # the players who stopped: fewer cards first, ties in play order after the last out
    assert r["order"][len(targets):] == expected_rest_order(targets, cards_left_at_end(g, 0))
    assert r["winner"] == winner
    assert r["tributers"] == tributers
    assert r["receivers"] == receivers
    assert r["dealer"] == dealer and r["level"] == "2"
    assert r["levels_before"] == ["2", "2"]
    assert r["levels_after"] == levels_after
    assert r["next_dealer"] == next_dealer
    key = scoring if scoring != "stake" or losers_pay else "stake_losers_keep"
    a, b = per_scheme[key]
    expected = [x * base for x in _scores(a, b)]
    assert r["scores"] == expected, f"{key} base {base}"
    assert g.scores == expected  # first round: the totals are this round's scores
    # R9/R10: the next round is dealt by next_dealer at the dealer team's level
    assert g.round == 1 and g.dealer == next_dealer
    assert list(g.levels) == levels_after
    assert g.level == levels_after[next_dealer % 2]
    assert g.phase == ("tribute" if tributers else "play")
    return g, r


scheme_params = pytest.mark.parametrize("scheme", SCHEMES, ids=SCHEME_IDS)
base_params = pytest.mark.parametrize("base", [1, 2])


@scheme_params
@base_params
def test_r9_case_1_dealer_team_takes_1_2_3(scheme, base):
    # 甲 (A) out 1st 2nd 3rd: 甲 wins, 乙 x3 pay. "next" pairing: 1->2, 3->4, 5->0.
    # stake: 3 tributers -> +6b / -6b (losers keep: 0); levels: dealer's team won -> A +3b,
    # B -1b; simple: +3b / -3b.  A levels up 2 -> 3; 0 (first out) deals next.
    _check_case(scheme, base, [0, 2, 4], winner=0, tributers=[5, 1, 3], receivers=[0, 2, 4],
                levels_after=["3", "2"], next_dealer=0,
                per_scheme={"stake": (6, -6), "stake_losers_keep": (6, 0),
                            "levels": (3, -1), "simple": (3, -3)})


@scheme_params
@base_params
def test_r9_case_2_dealer_team_first_opponents_5th_6th(scheme, base):
    # order 0 1 2 4 | 3 5: 甲 wins, 3 and 5 pay.  Pairing "next": forward distances
    # 5->0 = 1 (smallest), then 3->2.  stake: 2 tributers -> +3b / -3b.
    _check_case(scheme, base, [0, 1, 2, 4], winner=0, tributers=[5, 3], receivers=[0, 2],
                levels_after=["3", "2"], next_dealer=0,
                per_scheme={"stake": (3, -3), "stake_losers_keep": (3, 0),
                            "levels": (3, -1), "simple": (3, -3)})


@scheme_params
@base_params
def test_r9_case_3_dealer_team_first_opponent_6th(scheme, base):
    # order 0 1 3 2 4 | 5: 甲 wins, 5 pays 0.  stake: 1 tributer -> +1b / -1b.
    _check_case(scheme, base, [0, 1, 3, 2, 4], winner=0, tributers=[5], receivers=[0],
                levels_after=["3", "2"], next_dealer=0,
                per_scheme={"stake": (1, -1), "stake_losers_keep": (1, 0),
                            "levels": (3, -1), "simple": (3, -3)})


@scheme_params
@base_params
def test_r9_case_4_dealer_team_first_and_last_draw(scheme, base):
    # order 0 1 2 3 5 | 4: 乙 went out completely first -> draw, no tribute, no level.
    # stake: 0; levels: dealer's team did not win -> everyone +1b; simple: draw +1b each.
    _check_case(scheme, base, [0, 1, 2, 3, 5], winner=None, tributers=[], receivers=[],
                levels_after=["2", "2"], next_dealer=0,
                per_scheme={"stake": (0, 0), "stake_losers_keep": (0, 0),
                            "levels": (1, 1), "simple": (1, 1)})


@scheme_params
@base_params
def test_r9_case_5_opponent_first_and_last_draw(scheme, base):
    # order 1 0 2 3 4 | 5: 甲 out completely first -> draw; 1 (first out) deals next.
    _check_case(scheme, base, [1, 0, 2, 3, 4], winner=None, tributers=[], receivers=[],
                levels_after=["2", "2"], next_dealer=1,
                per_scheme={"stake": (0, 0), "stake_losers_keep": (0, 0),
                            "levels": (1, 1), "simple": (1, 1)})


@scheme_params
@base_params
def test_r9_case_6_opponents_win_dealer_team_6th(scheme, base):
    # order 1 0 3 2 5 | 4: 乙 wins, 4 pays 1. No level changes (the winner is not the
    # dealer's team). stake: +1b / -1b; levels: dealer's team did not win -> all +1b;
    # simple: 乙 +3b, 甲 -3b.
    _check_case(scheme, base, [1, 0, 3, 2, 5], winner=1, tributers=[4], receivers=[1],
                levels_after=["2", "2"], next_dealer=1,
                per_scheme={"stake": (-1, 1), "stake_losers_keep": (0, 1),
                            "levels": (1, 1), "simple": (-3, 3)})


@scheme_params
@base_params
def test_r9_case_7_opponents_win_dealer_team_5th_6th(scheme, base):
    # order 1 0 3 5 | 2 4: 乙 wins, 2 and 4 pay.  "next": 2->3 = 1 (smallest), then 4->1.
    # stake: +3b / -3b.
    _check_case(scheme, base, [1, 0, 3, 5], winner=1, tributers=[4, 2], receivers=[1, 3],
                levels_after=["2", "2"], next_dealer=1,
                per_scheme={"stake": (-3, 3), "stake_losers_keep": (0, 3),
                            "levels": (1, 1), "simple": (-3, 3)})


@scheme_params
@base_params
def test_r9_case_8_opponents_take_1_2_3(scheme, base):
    # order 1 3 5 | 0 2 4: 乙 wins, 甲 x3 pay: 0->1, 2->3, 4->5.  stake +6b / -6b.
    _check_case(scheme, base, [1, 3, 5], winner=1, tributers=[0, 2, 4], receivers=[1, 3, 5],
                levels_after=["2", "2"], next_dealer=1,
                per_scheme={"stake": (-6, 6), "stake_losers_keep": (0, 6),
                            "levels": (1, 1), "simple": (-3, 3)})


@scheme_params
@base_params
def test_r9_draw_after_four_out_dealer_team_first(scheme, base):
    # order 0 1 3 5 | 2 4: 乙 out completely while 甲 holds two hands -> draw.
    _check_case(scheme, base, [0, 1, 3, 5], winner=None, tributers=[], receivers=[],
                levels_after=["2", "2"], next_dealer=0,
                per_scheme={"stake": (0, 0), "stake_losers_keep": (0, 0),
                            "levels": (1, 1), "simple": (1, 1)})


@scheme_params
@base_params
def test_r9_draw_after_four_out_opponent_first(scheme, base):
    # order 1 0 2 4 | 3 5: 甲 out completely first -> draw; 1 deals next.
    _check_case(scheme, base, [1, 0, 2, 4], winner=None, tributers=[], receivers=[],
                levels_after=["2", "2"], next_dealer=1,
                per_scheme={"stake": (0, 0), "stake_losers_keep": (0, 0),
                            "levels": (1, 1), "simple": (1, 1)})


@scheme_params
def test_r9_case_1_with_dealer_on_team_b(scheme):
    # dealer 3 (team B = 甲): order 3 5 1 -> B wins and levels up 2 -> 3; "next": 4->5,
    # 0->1, 2->3 (receivers in finishing order 3 5 1 -> tributers 2 4 0).
    _check_case(scheme, 1, [3, 5, 1], winner=1, tributers=[2, 4, 0], receivers=[3, 5, 1],
                levels_after=["2", "3"], next_dealer=3, seed=SEED_D3, dealer=3,
                per_scheme={"stake": (-6, 6), "stake_losers_keep": (0, 6),
                            "levels": (-1, 3), "simple": (-3, 3)})


@scheme_params
def test_r9_case_6_with_dealer_on_team_b(scheme):
    # dealer 3 (甲 = B); 乙 (A) wins: order 0 1 2 3 4 | 5 -> 5 pays 0; no level changes;
    # levels scoring: the dealer's team did not win -> everyone +1.
    _check_case(scheme, 1, [0, 1, 2, 3, 4], winner=0, tributers=[5], receivers=[0],
                levels_after=["2", "2"], next_dealer=0, seed=SEED_D3, dealer=3,
                per_scheme={"stake": (1, -1), "stake_losers_keep": (1, 0),
                            "levels": (1, 1), "simple": (3, -3)})


def test_r9_stopped_players_ordered_by_cards_left():
    # 0 goes out (all pass, 1 leads one single), then 2 goes out (3 leads one single),
    # then 4: team A is out.  Stopped: 1 (26 cards), 3 (26), 5 (27).  In play order after
    # the last out (4) they would be 5 1 3; fewer cards first gives 1 3 5.
    g = Game(SEED_D0)
    for seat in (0, 2):
        _go_out_unbeaten(g, seat)
        _pass_round(g)
        assert g.current_player == seat + 1
    _go_out_unbeaten(g, 4)
    r = g.round_result
    left = cards_left_at_end(g, 0)
    assert left == [0, 26, 0, 26, 0, 27]
    assert r["order"] == [0, 2, 4, 1, 3, 5]
    assert r["order"][3:] == expected_rest_order([0, 2, 4], left)


def test_r9_levels_carry_over_and_only_dealer_team_levels():
    # round 0: A (dealer 0) wins -> A 3; round 1: dealer 0 again, B wins -> no change;
    # round 2: dealer 1 (B, first out) wins -> B 2 -> 3.
    g = Game(SEED_D0, Rules(final_level="A"))
    play_round(g, [0, 2, 4])
    assert list(g.levels) == ["3", "2"] and g.dealer == 0 and g.level == "3"
    r = play_round(g, [1, 3, 5])
    assert r["levels_before"] == ["3", "2"] and r["levels_after"] == ["3", "2"]
    assert r["level"] == "3" and r["winner"] == 1 and r["next_dealer"] == 1
    assert g.level == "2"  # B deals: its level is the level rank (R3, R10)
    r = play_round(g, [1, 3, 5])
    assert r["levels_after"] == ["3", "3"]
    assert g.dealer == 1 and g.level == "3"


@pytest.mark.parametrize("scoring, per_round", [
    # round 0: A (dealer 0) wins 0 2 4; round 1: dealer 0, B wins 1 3 5 (3 tributers);
    # round 2: dealer 1, draw (A out first after 1).
    # stake b=2: (+12 / -12), (-12 / +12), (0 / 0) -> totals A 0, B 0
    ("stake", [(12, -12), (-12, 12), (0, 0)]),
    # levels b=2: dealer's team won -> +6 / -2; dealer's team lost -> all +2; draw -> all +2
    # -> totals A 10, B 2
    ("levels", [(6, -2), (2, 2), (2, 2)]),
    # simple b=2: +6 / -6, -6 / +6, draw +2 each -> totals A 2, B 2
    ("simple", [(6, -6), (-6, 6), (2, 2)]),
])
def test_r13_scores_accumulate_over_rounds(scoring, per_round):
    g = Game(SEED_D0, Rules(scoring=scoring, base=2))
    totals = [0] * 6
    for targets, (a, b) in zip(([0, 2, 4], [1, 3, 5], [1, 0, 2, 3, 4]), per_round, strict=False):
        finish_tribute(g)
        r = play_round(g, targets)
        assert r["scores"] == _scores(a, b)
        totals = [t + x for t, x in zip(totals, r["scores"], strict=False)]
        assert g.scores == totals
    assert [r["next_dealer"] for r in g.results] == [0, 1, 1]


# ---------------------------------------------------------------------------
# R11 tribute and return
# ---------------------------------------------------------------------------

def _power(face: int, level: str) -> int:
    """docs/rules.md: natural ladder without L numbered 0..11, level cards 12, SJ 13, BJ 14."""
    if face == 53:
        return 14
    if face == 52:
        return 13
    ranks = "23456789TJQKA"
    r, lv = face // 4, ranks.index(level)
    if r == lv:
        return 12
    return r if r < lv else r - 1


def _highest_faces(hand: Hand, level: str) -> list[int]:
    faces = sorted(set(hand.faces()))
    top = max(_power(f, level) for f in faces)
    return [f for f in faces if _power(f, level) == top]


def test_r4_power_helper_agrees_with_engine():
    for level in "23456789TJQKA":
        for f in range(54):
            assert _power(f, level) == face_power(f, level)


PAIRING_TABLE = [
    # (targets = finishing order of those who go out, pairing, tributers, receivers)
    # Three tributers, order 0 2 4 | 5 1 3 (the stopped all hold 27: play order after 4).
    # next: each pays the next seat (1->2, 3->4, 5->0); previous: the seat before
    # (1->0, 3->2, 5->4); finish_order: last-placed 3 pays 0, then 1 pays 2, 5 pays 4.
    ([0, 2, 4], "next", [5, 1, 3], [0, 2, 4]),
    ([0, 2, 4], "previous", [1, 3, 5], [0, 2, 4]),
    ([0, 2, 4], "finish_order", [3, 1, 5], [0, 2, 4]),
    # Three tributers, receivers 2 0 4, order 2 0 4 | 5 1 3.
    ([2, 0, 4], "next", [1, 5, 3], [2, 0, 4]),
    ([2, 0, 4], "previous", [3, 1, 5], [2, 0, 4]),
    ([2, 0, 4], "finish_order", [3, 1, 5], [2, 0, 4]),
    # Two tributers, order 4 1 0 2 | 3 5, receivers 4 0.
    # next: forward 3->4 = 1, 5->0 = 1 (3->0 = 3, 5->4 = 5) -> 3 pays 4, 5 pays 0.
    # previous: backward 5->4 = 1 first, then 3->0 (3) -> 5 pays 4, 3 pays 0.
    # finish_order: 5 (6th) pays 4 (first receiver), 3 pays 0.
    ([4, 1, 0, 2], "next", [3, 5], [4, 0]),
    ([4, 1, 0, 2], "previous", [5, 3], [4, 0]),
    ([4, 1, 0, 2], "finish_order", [5, 3], [4, 0]),
    # Two tributers, order 0 1 4 2 | 3 5, receivers 0 4.
    # next: 5->0 = 1, 3->4 = 1; previous: 5->4 = 1, then 3->0 = 3; finish_order: 5 pays 0.
    ([0, 1, 4, 2], "next", [5, 3], [0, 4]),
    ([0, 1, 4, 2], "previous", [3, 5], [0, 4]),
    ([0, 1, 4, 2], "finish_order", [5, 3], [0, 4]),
    # One tributer: 5 pays the first finisher 0 under every pairing.
    ([0, 1, 3, 2, 4], "next", [5], [0]),
    ([0, 1, 3, 2, 4], "previous", [5], [0]),
    ([0, 1, 3, 2, 4], "finish_order", [5], [0]),
    # Team B wins with 2 tributers: order 1 0 3 5 | 2 4, receivers 1 3.
    # next: 2->3 = 1 then 4->1 (3); previous: 2->1 = 1, 4->3 = 1; finish_order: 4 pays 1.
    ([1, 0, 3, 5], "next", [4, 2], [1, 3]),
    ([1, 0, 3, 5], "previous", [2, 4], [1, 3]),
    ([1, 0, 3, 5], "finish_order", [4, 2], [1, 3]),
]


@pytest.mark.parametrize("targets, pairing, tributers, receivers", PAIRING_TABLE,
                         ids=[f"{''.join(map(str, t))}-{p}" for t, p, _, _ in PAIRING_TABLE])
def test_r11_tribute_pairing(targets, pairing, tributers, receivers):
    g = Game(SEED_D0, Rules(tribute_pairing=pairing))
    r = play_round(g, targets)
    assert r["order"][:len(targets)] == targets
    assert r["tributers"] == tributers and r["receivers"] == receivers
    # the pairs are applied in the next round: tributers[i] pays receivers[i]
    state = g.tribute_state
    assert [(t["from"], t["to"]) for t in state] == list(zip(tributers, receivers, strict=False))
    paid = []
    while g.phase == "tribute":
        seat = g.current_player
        g.step(g.legal_actions()[0])
        name, s, other, _f, card = g.state.events()[-1]
        assert name == "tribute" and s == seat
        paid.append((s, other))
    assert paid == list(zip(tributers, receivers, strict=False))


def _won_round(seed, targets, rules=None):
    g = Game(seed, rules or Rules())
    r = play_round(g, targets)
    assert r["order"][:len(targets)] == targets
    return g, r


def test_r11_tribute_is_highest_power_under_new_level():
    # Round 0 (level 2): A wins 0 2 4 -> A at 3, dealer 0: round 1's level rank is 3.
    g, r = _won_round(SEED_D0, [0, 2, 4])
    assert g.level == "3" and g.phase == "tribute"
    hands = {s: Hand(g.hand(s)) for s in range(6)}
    # seat 5 holds BJ: the only tribute is BJ
    assert g.current_player == 5 and hands[5].count("BJ") >= 1
    assert [str(a) for a in g.legal_actions()] == ["tribute BJ"]
    g.step("BJ")
    # seat 1 holds SJ and no BJ: SJ
    assert g.current_player == 1 and hands[1].count("SJ") >= 1 and hands[1].count("BJ") == 0
    assert [str(a) for a in g.legal_actions()] == ["tribute SJ"]
    g.step("SJ")
    # seat 3 holds no joker, an A and a 3: at the new level 3 the level card 3d (power 12)
    # is above the A (power 11), so 3d is the only tribute.
    assert g.current_player == 3
    assert hands[3].jokers == 0 and hands[3].count("Ad") >= 1
    assert [str(a) for a in g.legal_actions()] == ["tribute 3d"]
    assert face_power(Hand("3d").faces()[0], "3") > face_power(Hand("Ad").faces()[0], "3")
    before = g.to_json()
    with pytest.raises(daguai.IllegalActionError):
        g.step("Ad")  # highest power at the old level 2, not at the new level 3
    assert g.to_json() == before
    g.step("3d")
    assert g.phase == "return"


def test_r11_tribute_choices_are_every_face_of_the_highest_power():
    # SEED_D3: dealer 3, B wins 3 5 1 -> level 3 for round 1; tributers 2 4 0.
    g, r = _won_round(SEED_D3, [3, 5, 1])
    assert g.level == "3"
    seen = []
    while g.phase == "tribute":
        seat = g.current_player
        expected = _highest_faces(g.hand(seat), g.level)
        acts = list(g.legal_actions())
        assert all(a.type == "tribute" and a.seat == seat for a in acts)
        assert [a.cards.faces()[0] for a in acts] == expected  # face id order
        seen.append(len(acts))
        g.step(acts[-1])
    # seat 4 holds 3s and 3d (two level-card faces) and no joker: two choices
    assert max(seen) >= 2


@pytest.mark.parametrize("targets", [[0, 2, 4], [0, 1, 2, 4], [1, 0, 3, 2, 5], [1, 3, 5]])
def test_r11_every_tributer_pays_highest_and_hands_stay_27(targets):
    g, r = _won_round(SEED_D0, targets)
    n = len(r["tributers"])
    dealt = {s: Hand(g.hand(s)) for s in range(6)}
    paid, returned = {}, {}
    order = []
    while g.phase == "tribute":
        seat = g.current_player
        order.append(seat)
        acts = list(g.legal_actions())
        assert [a.cards.faces()[0] for a in acts] == _highest_faces(g.hand(seat), g.level)
        g.step(acts[0])
        paid[seat] = acts[0].cards
    assert order == r["tributers"]  # every tributer pays first, pair by pair
    order = []
    while g.phase == "return":
        seat = g.current_player
        order.append(seat)
        acts = list(g.legal_actions())
        # a return is any card of the hand (one action per distinct face)
        assert [a.cards.faces()[0] for a in acts] == sorted(set(g.hand(seat).faces()))
        assert all(a.type == "return" for a in acts)
        choice = acts[len(acts) // 2]
        g.step(choice)
        returned[seat] = choice.cards
    assert order == r["receivers"]  # then every receiver returns, pair by pair
    assert g.phase == "play" and g.current_player == g.dealer  # R8: the dealer leads
    assert g.cards_left == [27] * 6
    for t, rcv in zip(r["tributers"], r["receivers"], strict=False):
        assert g.hand(t) == dealt[t] - paid[t] + returned[rcv]
        assert g.hand(rcv) == dealt[rcv] + paid[t] - returned[rcv]
    assert len(paid) == len(returned) == n


def test_r11_return_of_any_card_including_a_low_one():
    g, r = _won_round(SEED_D0, [0, 1, 3, 2, 4])  # 5 pays 0
    dealt5, dealt0 = Hand(g.hand(5)), Hand(g.hand(0))
    g.step("BJ")
    assert g.phase == "return" and g.current_player == 0
    low = g.hand(0).cards()[0]  # the lowest face id: a 2
    g.step(low)
    assert g.hand(5) == dealt5 - Hand("BJ") + Hand(low)
    assert g.hand(0) == dealt0 + Hand("BJ") - Hand(low)
    assert len(g.hand(5)) == len(g.hand(0)) == 27
    # R16: the returned card is seen only by the two players
    for seat in range(6):
        obs = g.observation(seat)
        t = obs["tributes"][0]
        assert t["card"] == "BJ"  # the tribute card is public
        if seat in (0, 5):
            assert t["returned"] == low
        else:
            assert t["returned"] is None
        ev = [e for e in obs["history"] if e["event"] == "return"]
        assert len(ev) == 1 and ("cards" in ev[0]) == (seat in (0, 5))


def test_r11_return_not_in_hand_is_rejected():
    g, r = _won_round(SEED_D0, [0, 1, 3, 2, 4])
    g.step("BJ")
    missing = next(f for f in range(52) if g.hand(0).count(f) == 0)
    before = g.to_json()
    with pytest.raises(daguai.CardError):
        g.step(Hand.from_faces([missing]))
    with pytest.raises(ValueError):
        g.step(Hand(g.hand(0).cards()[:2]))  # two cards: a return is one card
    assert g.to_json() == before


def test_r11_anti_tribute_off_by_default():
    # SEED_D3, B wins 3 5 1: seat 2 pays first and holds SJ BJ BJ (3 jokers).
    g, r = _won_round(SEED_D3, [3, 5, 1])
    assert g.current_player == 2 and g.hand(2).jokers >= 3
    assert [a.type for a in g.legal_actions()] == ["tribute"]
    before = g.to_json()
    with pytest.raises(daguai.IllegalActionError):
        g.step("anti_tribute")
    assert g.to_json() == before


def test_r11_anti_tribute_refusal_means_no_return():
    g, r = _won_round(SEED_D3, [3, 5, 1], Rules(anti_tribute=True))
    assert r["tributers"] == [2, 4, 0] and r["receivers"] == [3, 5, 1]
    dealt = {s: Hand(g.hand(s)) for s in range(6)}
    jokers = Hand([c for c in dealt[2].cards() if c in ("SJ", "BJ")])
    assert len(jokers) >= 3
    acts = list(g.legal_actions())
    assert [a.type for a in acts][-1] == "anti_tribute"  # offered last (docs/game.md)
    g.step("anti_tribute")
    name, seat, other, _f, shown = g.state.events()[-1]
    assert (name, seat, other) == ("anti_tribute", 2, 3)
    assert shown == jokers  # the jokers shown
    assert g.tribute_state[0]["refused"] and g.tribute_state[0]["card"] is None
    # seat 4 holds fewer than 3 jokers: no anti_tribute for it, and refusing is illegal
    assert g.current_player == 4 and g.hand(4).jokers < 3
    assert "anti_tribute" not in [a.type for a in g.legal_actions()]
    before = g.to_json()
    with pytest.raises(daguai.IllegalActionError):
        g.step("anti_tribute")
    assert g.to_json() == before
    g.step(g.legal_actions()[0])
    g.step(g.legal_actions()[0])  # seat 0 pays 1
    # returns: receiver 3 (refused pair) is skipped: 5 then 1
    assert g.phase == "return"
    returners = []
    while g.phase == "return":
        returners.append(g.current_player)
        g.step(g.legal_actions()[0])
    assert returners == [5, 1]
    assert g.hand(2) == dealt[2] and g.hand(3) == dealt[3]  # nothing paid, nothing returned
    assert g.cards_left == [27] * 6
    assert not any(e[0] == "return" and e[1] == 3 for e in g.state.events())


def _sub_multisets(hand: Hand, k: int) -> set[tuple[int, ...]]:
    faces = sorted(set(hand.faces()))
    out = set()
    for combo in combinations_with_replacement(faces, k):
        if all(combo.count(f) <= hand.count(f) for f in combo):
            out.add(combo)
    return out


def test_r11_joker_tribute_choice_offer_and_take():
    # SEED_D0, A wins 0 2 4: 5 pays BJ to 0 (0 offers 3), 1 pays SJ to 2 (2 offers 2),
    # 3 pays 3d to 4 (an ordinary return).
    g, r = _won_round(SEED_D0, [0, 2, 4], Rules(joker_tribute_choice=True))
    dealt = {s: Hand(g.hand(s)) for s in range(6)}
    g.step("BJ")
    g.step("SJ")
    g.step("3d")
    # pair 0: BJ paid -> receiver 0 offers every 3-card sub-multiset of its hand
    assert g.phase == "return" and g.current_player == 0
    acts = list(g.legal_actions())
    assert {a.type for a in acts} == {"offer"}
    assert {tuple(a.cards.faces()) for a in acts} == _sub_multisets(g.hand(0), 3)
    assert len(acts) == len(_sub_multisets(g.hand(0), 3))
    before = g.to_json()
    with pytest.raises(daguai.IllegalActionError):
        g.step(Hand(g.hand(0).cards()[:2]))  # 2 cards for a BJ tribute
    assert g.to_json() == before
    offer0 = Hand(g.hand(0).cards()[:3])
    g.step(offer0)
    assert g.phase == "take" and g.current_player == 5
    assert [a.cards.faces()[0] for a in g.legal_actions()] == sorted(set(offer0.faces()))
    not_offered = next(c for c in g.hand(0).cards() if offer0.count(c) == 0)
    before = g.to_json()
    with pytest.raises(daguai.CardError):
        g.step(not_offered)
    assert g.to_json() == before
    take0 = offer0.cards()[-1]
    g.step(take0)
    # pair 1: SJ paid -> receiver 2 offers 2 cards
    assert g.phase == "return" and g.current_player == 2
    acts = list(g.legal_actions())
    assert {tuple(a.cards.faces()) for a in acts} == _sub_multisets(g.hand(2), 2)
    offer2 = Hand(g.hand(2).cards()[-2:])  # may include the SJ just received
    g.step(offer2)
    assert g.phase == "take" and g.current_player == 1
    take2 = offer2.cards()[0]
    g.step(take2)
    # pair 2: 3d paid -> an ordinary return
    assert g.phase == "return" and g.current_player == 4
    assert {a.type for a in g.legal_actions()} == {"return"}
    ret4 = g.hand(4).cards()[0]
    g.step(ret4)
    assert g.phase == "play"
    assert g.cards_left == [27] * 6
    assert g.hand(5) == dealt[5] - Hand("BJ") + Hand(take0)
    assert g.hand(0) == dealt[0] + Hand("BJ") - Hand(take0)
    assert g.hand(1) == dealt[1] - Hand("SJ") + Hand(take2)
    assert g.hand(2) == dealt[2] + Hand("SJ") - Hand(take2)
    assert g.hand(3) == dealt[3] - Hand("3d") + Hand(ret4)
    # R16: an offer is seen only by the pair
    state = g.observation(3)["tributes"]
    assert state[0]["offer"] is None and state[0]["returned"] is None
    assert g.observation(5)["tributes"][0]["offer"] == str(offer0)


# ---------------------------------------------------------------------------
# R8 play of a round
# ---------------------------------------------------------------------------

def test_r8_leader_cannot_pass():
    g = Game(SEED_D0)
    assert g.current_player == g.dealer == 0 and g.top is None
    assert "pass" not in [a.type for a in g.legal_actions()]
    before = g.to_json()
    with pytest.raises(daguai.IllegalActionError):
        g.step("pass")
    assert g.to_json() == before and g.current_player == 0


def test_r8_passed_player_may_play_again_and_trick_end():
    g = Game(SEED_D0)
    g.step(lowest_single(g))  # 0 leads its lowest single
    g.step("pass")  # 1 passes
    assert g.passed == [1] and g.current_player == 2
    beat = [a for a in g.legal_actions() if a.type == "play"][0]
    g.step(beat)  # 2 beats it (the lowest beating single)
    assert g.top_seat == 2 and g.passed == []
    for seat in (3, 4, 5, 0):
        assert g.current_player == seat
        g.step("pass")
    assert g.current_player == 1  # the turn comes back to 1, who passed before
    plays = [a for a in g.legal_actions() if a.type == "play"]
    assert plays and all(a.play.beats(g.top) for a in plays)
    g.step(plays[-1])
    assert g.top_seat == 1
    # the trick ends only when all five others have passed since 1's play
    for _seat in (2, 3, 4, 5):
        g.step("pass")
        assert g.top_seat == 1
    g.step("pass")  # 0: the fifth pass
    assert g.top is None and g.current_player == 1 and g.passed == []


def _go_out_unbeaten(g: Game, seat: int) -> None:
    """Make `seat` go out with nobody beating its plays (the others pass, or lead their
    lowest single); stop right after its last play (or the round's end)."""
    rnd = g.round
    while seat not in g.finish_order and g.round == rnd:
        if g.current_player == seat:
            g.step(most_cards(g))
        elif g.top is not None:
            g.step("pass")
        else:
            g.step(lowest_single(g))


def _pass_round(g: Game) -> None:
    """Everyone still holding cards passes once (ends the trick if nobody plays)."""
    while g.top is not None:
        g.step("pass")


@pytest.mark.parametrize("lead_after_out, leaders", [
    # 2 goes out, then 4, then 0 would end team A: each goes out on an unbeaten last play.
    # next: the next seat holding cards (2 -> 3, 4 -> 5).
    ("next", [3, 5]),
    # partner (接风): the next partner holding cards (2 -> 4, 4 -> 0).
    ("partner", [4, 0]),
])
def test_r8_lead_after_out_unbeaten(lead_after_out, leaders):
    g = Game(SEED_D0, Rules(lead_after_out=lead_after_out))
    got = []
    for seat in (2, 4):
        _go_out_unbeaten(g, seat)
        assert g.finish_order[-1] == seat and g.top_seat == seat
        # all five (then four) others pass; the trick ends only at the last of them
        active = [s for s in range(6) if s not in g.finish_order]
        for _k in range(len(active)):
            assert g.top is not None
            g.step("pass")
        assert g.top is None
        got.append(g.current_player)
    assert got == leaders


def test_r8_lead_after_out_partner_skips_an_out_partner():
    # partner: 0 goes out (-> 2 leads), then 2 goes out with 0 already out: the next
    # partner holding cards after 2 is 4 (2 + 2 = 4).  With "next": 1 then 3.
    for variant, expected in (("partner", [2, 4]), ("next", [1, 3])):
        g = Game(SEED_D0, Rules(lead_after_out=variant))
        got = []
        for seat in (0, 2):
            _go_out_unbeaten(g, seat)
            _pass_round(g)
            got.append(g.current_player)
        assert got == expected, variant


def test_r8_lead_after_out_next_skips_out_players():
    # "next": 1 goes out (-> 2 leads); then 0 goes out: the next seat holding cards after
    # 0 is 2 (1 is out).
    g = Game(SEED_D0, Rules(lead_after_out="next"))
    _go_out_unbeaten(g, 1)
    _pass_round(g)
    assert g.current_player == 2
    _go_out_unbeaten(g, 0)
    _pass_round(g)
    assert g.current_player == 2


@pytest.mark.parametrize("lead_after_out", ["next", "partner"])
def test_r8_last_play_beaten_then_beater_leads(lead_after_out):
    # 0 plays only singles, highest first, so its last card is its lowest; seat 3 beats that
    # last card: then 3's play is the unbeaten one and 3 leads (either variant).
    g = Game(SEED_D0, Rules(lead_after_out=lead_after_out))
    while True:
        if g.current_player == 0:
            singles = [a for a in g.legal_actions()
                       if a.type == "play" and a.play.kind == Kind.SINGLE]
            g.step(max(singles, key=lambda a: face_power(a.cards.faces()[0], g.level)))
            if 0 in g.finish_order:
                break
        else:
            g.step("pass")
    assert g.finish_order == [0] and g.top_seat == 0
    g.step("pass")  # 1
    g.step("pass")  # 2
    assert g.current_player == 3
    beat = [a for a in g.legal_actions() if a.type == "play"]
    assert beat
    g.step(beat[0])
    for seat in (4, 5, 1, 2):
        assert g.current_player == seat
        g.step("pass")
    assert g.top is None and g.current_player == 3


def test_r8_round_ends_when_a_team_is_out():
    g = Game(SEED_D0)
    r = play_round(g, [0, 1, 2, 4])
    assert r["players_out"] == 4  # 3 and 5 stop holding cards
    left = cards_left_at_end(g, 0)
    assert left[3] > 0 and left[5] > 0
    assert [left[s] for s in (0, 1, 2, 4)] == [0, 0, 0, 0]


# ---------------------------------------------------------------------------
# R10 dealer
# ---------------------------------------------------------------------------

def test_r10_first_dealer_from_seed():
    # the first dealer depends on the seed only (not on the rules) and leads (R8)
    for seed in range(12):
        d = Game(seed).dealer
        assert Game(seed, Rules(dealer="stay", scoring="simple")).dealer == d
        g = Game(seed)
        assert g.current_player == d and g.level == "2"
    assert [Game(s).dealer for s in range(6)] == [3, 1, 5, 4, 4, 2]


def test_r10_dealer_first_out_default():
    g = Game(SEED_D0)
    r = play_round(g, [2, 0, 4])  # A wins, 2 first out
    assert r["next_dealer"] == 2 and g.dealer == 2 and g.level == "3"


@pytest.mark.parametrize("targets, next_dealer", [
    ([2, 0, 4], 0),  # the dealer's team wins: 0 keeps the deal (first_out would give 2)
    ([1, 3, 5], 1),  # the dealer's team loses: the next seat deals (an opponent)
    ([0, 1, 2, 3, 5], 1),  # draw (not a win): the next seat deals
])
def test_r10_dealer_stay(targets, next_dealer):
    g = Game(SEED_D0, Rules(dealer="stay"))
    r = play_round(g, targets)
    assert r["next_dealer"] == next_dealer and g.dealer == next_dealer
    assert g.level == g.levels[next_dealer % 2]


def test_r10_dealer_stay_from_odd_dealer():
    g = Game(SEED_D3, Rules(dealer="stay"))
    r = play_round(g, [0, 2, 4])  # dealer 3's team loses -> 4 deals
    assert r["next_dealer"] == 4


# ---------------------------------------------------------------------------
# R12 match end
# ---------------------------------------------------------------------------

def test_r12_match_ends_when_dealer_team_wins_at_final_level():
    g = Game(SEED_D0, Rules(final_level="3"))
    r = play_round(g, [0, 2, 4])  # A 2 -> 3
    assert not r["match_over"] and list(g.levels) == ["3", "2"]
    finish_tribute(g)
    r = play_round(g, [0, 2, 4])  # dealer 0's team wins at level 3 = final
    assert r["match_over"] and r["match_winner"] == 0
    assert r["levels_after"] == ["3", "2"]  # no level beyond the final one
    assert g.match_over and g.phase == "match_over" and g.current_player is None
    assert len(g.legal_actions()) == 0


def test_r12_non_dealer_team_at_final_level_does_not_end_match():
    # final_level 2: both teams start at the final level.  Round 0: dealer 0's team (A)
    # loses to B -> not over (B is not the dealer's team); A failed once at the final level.
    g = Game(SEED_D0, Rules(final_level="2"))
    r = play_round(g, [1, 3, 5])
    assert not r["match_over"] and g.dealer == 1
    finish_tribute(g)
    r = play_round(g, [1, 3, 5])  # now B deals and wins at 2 -> B wins the match
    assert r["match_over"] and r["match_winner"] == 1


def test_r12_max_rounds():
    g = Game(SEED_D0, Rules(max_rounds=2))
    r = play_round(g, [0, 2, 4])  # A 3
    assert not r["match_over"]
    finish_tribute(g)
    r = play_round(g, [0, 1, 2, 3, 5])  # a draw; 2 rounds played
    assert r["match_over"] and g.match_over
    assert r["match_winner"] == 0  # ended by a limit: the higher level (A 3 > B 2)


def test_r12_max_rounds_equal_levels_is_a_draw():
    g = Game(SEED_D0, Rules(max_rounds=1))
    r = play_round(g, [0, 1, 2, 3, 5])  # draw, levels 2 / 2
    assert r["match_over"] and r["match_winner"] is None


def test_r12_max_final_failures_sends_the_failing_team_back_to_level_2():
    # final 3: A reaches 3 in round 0, then fails as the dealer's team at the final level
    # in round 1 (B wins) -> with max_final_failures=1, A goes back to level 2 (docs/rules.md
    # R12, 打A三次不过回2); the match goes on and the failing team is not rewarded
    # (the match used to end and go to A, the team that failed).
    g = Game(SEED_D0, Rules(final_level="3", max_final_failures=1))
    play_round(g, [0, 2, 4])
    finish_tribute(g)
    assert g.levels == ("3", "2") and g.dealer % 2 == 0
    r = play_round(g, [1, 3, 5])
    assert not r["match_over"] and r["match_winner"] is None and not g.match_over
    assert r["levels_before"] == ["3", "2"] and r["levels_after"] == ["2", "2"]
    assert g.final_failures == (0, 0)  # the count starts again
    # without the limit A stays at 3 and its failure is counted
    g = Game(SEED_D0, Rules(final_level="3"))
    play_round(g, [0, 2, 4])
    finish_tribute(g)
    r = play_round(g, [1, 3, 5])
    assert not r["match_over"] and not g.match_over
    assert r["levels_after"] == ["3", "2"] and g.final_failures == (1, 0)


def test_r12_max_final_failures_two_counts_draws_and_never_ends_the_match():
    # a draw as the dealer's team at the final level also counts as a failure
    g = Game(SEED_D0, Rules(final_level="3", max_final_failures=2))
    play_round(g, [0, 2, 4])  # A wins round 0 as dealer: level 3 (the final level)
    finish_tribute(g)
    assert g.levels == ("3", "2")
    r = play_round(g, [0, 1, 2, 3, 5])  # A deals at 3 = final: draw -> failure 1
    assert not r["match_over"] and g.final_failures == (1, 0) and g.levels == ("3", "2")
    assert g.dealer == 0
    r = play_round(g, [0, 1, 2, 3, 5])  # failure 2 -> back to 2, the match goes on
    assert not r["match_over"] and g.final_failures == (0, 0) and g.levels == ("2", "2")


def test_r12_match_over_rejects_actions():
    g = Game(SEED_D0, Rules(max_rounds=1))
    play_round(g, [0, 2, 4])
    assert g.match_over
    with pytest.raises(daguai.IllegalActionError):
        g.step("pass")
    with pytest.raises(daguai.IllegalActionError):
        g.forfeit(0)


# ---------------------------------------------------------------------------
# R14 forfeits
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("base", [1, 2])
def test_r14_forfeit_before_min_rounds(base):
    # round 0 < min_rounds 3: leaver -3b, each opponent +1b, partners 0.
    g = Game(SEED_D0, Rules(base=base))
    g.step(g.legal_actions()[0])
    g.forfeit(1)
    r = g.round_result
    assert r["forfeit"] == 1 and r["match_over"] and r["match_winner"] == 0
    assert r["scores"] == [base, -3 * base, base, 0, base, 0]
    assert g.scores == r["scores"] and g.match_over
    assert g.state.events()[-1][0] == "forfeit" and g.state.events()[-1][1] == 1
    assert r["levels_after"] == r["levels_before"] == ["2", "2"]


def _at_round_1(rules: Rules) -> Game:
    g = Game(SEED_D0, rules)
    play_round(g, [0, 1, 2, 3, 5])  # a draw: no scores under stake, 0 deals again
    assert g.round == 1 and g.scores == [0] * 6 and g.phase == "play"
    return g


@pytest.mark.parametrize("base", [1, 2])
@pytest.mark.parametrize("out_first, leaver, bonus", [
    ([], 1, 1),         # nobody out yet: opponents +1b
    ([1], 3, 1),        # the leaver's partner is 1st: +1b
    ([0], 1, 2),        # an opponent (0) holds 1st only: +2b
    ([0, 1], 3, 2),     # 1st opponent, 2nd partner: +2b
    ([0, 2], 1, 3),     # opponents hold 1st and 2nd: +3b
    ([1, 3], 0, 3),     # team B holds 1st and 2nd, team A's 0 leaves: B +3b
])
def test_r14_forfeit_after_min_rounds(base, out_first, leaver, bonus):
    # min_rounds 1, one round completed: leaver -18b, opponents +bonus*b, partners 0.
    g = _at_round_1(Rules(min_rounds=1, base=base))
    for seat in out_first:
        _go_out_unbeaten(g, seat)
    assert g.finish_order == out_first
    g.forfeit(leaver)
    r = g.round_result
    expected = [0] * 6
    for s in range(6):
        if s == leaver:
            expected[s] = -18 * base
        elif s % 2 != leaver % 2:
            expected[s] = bonus * base
    assert r["scores"] == expected
    assert r["match_over"] and r["match_winner"] == 1 - leaver % 2 and r["forfeit"] == leaver
    assert g.match_over


def test_r14_forfeit_min_rounds_boundary():
    # min_rounds 2: after one completed round it is still an early forfeit (-3b / +1b).
    g = _at_round_1(Rules(min_rounds=2))
    g.forfeit(2)
    assert g.round_result["scores"] == [0, 1, -3, 1, 0, 1]


def test_r14_forfeit_during_tribute():
    g = Game(SEED_D0, Rules(min_rounds=0))
    play_round(g, [0, 2, 4])  # +6 / -6
    assert g.phase == "tribute"
    g.forfeit(4)
    r = g.round_result
    # round 1 has nobody out: opponents +1 each, leaver -18
    assert r["scores"] == [0, 1, 0, 1, -18, 1]
    assert g.scores == [6, -5, 6, -5, -12, -5]
