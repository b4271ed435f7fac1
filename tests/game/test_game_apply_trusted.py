"""GameState::apply_trusted, the apply without check that the engine's own loops use (rollouts
in play_out, the search's candidates) for decisions it made itself: after every legal action of
random seeded matches (both tables, R18; random starts, so tribute rounds R11 too; auto_pass on
and off) it leaves the state exactly as the checked apply does. The public apply still refuses an
illegal action with its documented error (R8)."""

from __future__ import annotations

import random

import pytest
from daguai import CardError, Game, IllegalActionError, IllegalPlayError, Rules
from daguai._core import _testing
from daguai._core.game import GameState
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

RULES = [
    Rules(final_level="4"),
    Rules(final_level="4", anti_tribute=True, joker_tribute_choice=True),
    Rules(final_level="4", table="4p2d"),
    Rules(final_level="4", table="4p2d", anti_tribute=True, joker_tribute_choice=True),
]


def full_state(g: GameState) -> tuple:
    """Everything a GameState shows: public state, every hand, the exchange, the logs."""
    seats = g.seats
    return (
        g.phase, g.match_over, g.current_player, g.round, g.dealer, g.levels, g.auto_pass,
        [str(g.hand(s)) for s in range(seats)], [str(g.played(s)) for s in range(seats)],
        g.cards_left, g.finish_order, str(g.top) if g.top is not None else None, g.top_seat,
        g.passed, g.scores, g.final_failures, g.tribute_state, g.results, g.round_events_start,
        g.events(), [str(a) for a in g.legal_actions()],
    )


def play_both(rules: Rules, seed: int, start: str, auto_pass: bool, max_actions: int) -> int:
    """Plays one random match through apply and apply_trusted side by side; returns the actions."""
    checked = Game(seed, rules, start=start, auto_pass=auto_pass)._state
    trusted = GameState(checked)
    pick = random.Random(seed)
    n = 0
    while not checked.match_over and n < max_actions:
        legal = checked.legal_actions()
        i = pick.randrange(len(legal))
        checked.apply(legal[i])
        _testing.apply_trusted(trusted, i)
        assert full_state(trusted) == full_state(checked), (seed, n, str(legal[i]))
        n += 1
    return n


@pytest.mark.parametrize("rules", RULES, ids=["6p3d", "6p3d-choice", "4p2d", "4p2d-choice"])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), start=st.sampled_from(["fresh", "random"]),
       auto_pass=st.booleans())
def test_r8_r11_r18_trusted_apply_gives_the_checked_state(rules: Rules, seed: int, start: str,
                                                          auto_pass: bool) -> None:
    assert play_both(rules, seed, start, auto_pass, 400) > 0


def test_r11_trusted_apply_covers_tribute_rounds() -> None:
    # A random start with tribute pairs: the exchange goes through the trusted path too.
    for seed in range(40):
        g = Game(seed, RULES[1], start="random")._state
        if g.phase == "tribute":
            assert play_both(RULES[1], seed, "random", False, 120) == 120
            return
    pytest.fail("no random start with a tribute in 40 seeds")


def test_r8_public_apply_still_refuses_an_illegal_play() -> None:
    g = Game(7, Rules())._state
    seat = g.current_player
    assert seat is not None and g.phase == "play"
    other = g.hand((seat + 1) % g.seats)
    mine = g.hand(seat)
    card = next(c for c in other if c not in mine)  # a card the player to act does not hold
    before = full_state(g)
    with pytest.raises((CardError, IllegalPlayError)):
        g.apply([str(card)])
    with pytest.raises(IllegalActionError):
        g.apply("pass")  # R8: the leader cannot pass
    with pytest.raises(IllegalPlayError):
        g.apply(["3h", "5s"])  # not a play at all
    assert full_state(g) == before
    with pytest.raises(IllegalActionError):
        _testing.apply_trusted(g, len(g.legal_actions()))
