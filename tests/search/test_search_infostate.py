"""One information state (R16): what a seat may know, the observation built from
it, and the determinization sampler (uniform over the hidden cards, constraints exact)."""

from __future__ import annotations

import gc
import math
import random
from collections import Counter

import numpy as np
import pytest
from beliefs_reference import submultisets
from daguai import Game, Hand, Rules, _core, sample_worlds
from daguai._core import _testing
from daguai.learn import encode_observation
from game_helpers import random_steps
from scipy.stats import chisquare

FULL = Counter({f: 3 for f in range(54)})


def counts(h: Hand) -> Counter:
    return Counter(h.cards())


def mid_games():
    """Recorded random games at many points, with auto_pass (forced passes) and refusals."""
    out = []
    for seed, rules, auto in [(1, Rules(), True), (2, Rules(anti_tribute=True), True),
                              (3, Rules(joker_tribute_choice=True), False), (4, Rules(), False)]:
        g = Game(seed, rules, auto_pass=auto)
        rng = random.Random(seed)
        for _ in range(12):
            random_steps(g, rng, 37)
            if g.match_over:
                break
            out.append(g.clone())
    return out


def test_r16_view_accounts_for_every_card():
    for g in mid_games():
        for seat in range(6):
            v = g.view(seat)
            assert v.hand == g.hand(seat)
            assert [v.played[s] for s in range(6)] == [g.played(s) for s in range(6)]
            total = Counter(v.hand.cards()) + Counter(v.unseen.cards())
            for s in range(6):
                total += Counter(v.played[s].cards())
                if s != seat:
                    total += Counter(v.known[s].cards())
                    # what the seat "knows" is true
                    assert not (counts(v.known[s]) - counts(g.hand(s)))
            assert sum(total.values()) == 162 and all(n == 3 for n in total.values())
            assert sum(v.hidden_counts) == len(v.unseen)
            # the true hands are one of the worlds the view allows
            assert _testing.consistent(v, [g.hand(s) for s in range(6)])


def test_played_cards_in_the_state_match_the_log():
    """The cards played this round (now in the state) equal a walk over the log."""
    for g in mid_games():
        played = [Counter() for _ in range(6)]
        for name, s, _, _, payload in g.state.events(g.state.round_events_start):
            if name == "play":
                played[s] += Counter(payload.cards.cards())
        assert [Counter(g.played(s).cards()) for s in range(6)] == played


def test_observation_tensor_is_built_from_the_view():
    for g in mid_games()[::3]:
        for seat in range(6):
            x = encode_observation(g, seat)
            v = g.view(seat)
            for k in range(6):  # played slice by relative seat
                row = x[54 + 54 * k: 108 + 54 * k]
                assert Hand.from_counts(row.astype(np.uint8)) == v.played[(seat + k) % 6]
            assert Hand.from_counts(x[:54].astype(np.uint8)) == v.hand
    g = random_steps(Game(1, record=False), random.Random(1), 50)  # no log needed any more
    h = random_steps(Game(1), random.Random(1), 50)
    assert np.array_equal(encode_observation(g, 2), encode_observation(h, 2))


def test_view_is_the_same_from_any_consistent_world():
    """R16: a seat's view depends only on what it may know: every sampled world gives the
    same view (hand, counts, played, known, unseen, constraints)."""
    fields = ["hand", "phase", "current_player", "round", "dealer", "level", "levels", "played",
              "cards_left", "finish_order", "top", "top_seat", "passed", "scores", "tributes", "known",
              "jokers_known", "unseen", "hidden_counts"]
    for g in mid_games()[::2]:
        seat = g.current_player
        v = g.view(seat)
        for w in sample_worlds(v, 5, seed=9):
            u = _core.game.information_state(w, seat, False)
            for f in fields:
                assert getattr(u, f) == getattr(v, f), f
            assert [(s, str(t)) for s, t, _ in u.forced] == [(s, str(t)) for s, t, _ in v.forced]


def _reachable(obj, depth=0, seen=None):
    """Every object reachable from a view's attributes and gc referents."""
    seen = set() if seen is None else seen
    if id(obj) in seen or depth > 4:
        return
    seen.add(id(obj))
    yield obj
    children = list(gc.get_referents(obj))
    if isinstance(obj, _core.game.InfoState):
        children += [getattr(obj, a) for a in dir(obj) if not a.startswith("__")]
    for c in children:
        if isinstance(c, (type, type(len))):
            continue
        yield from _reachable(c, depth + 1, seen)


def test_no_view_reaches_another_hand():
    for g in mid_games()[::2]:
        seat = g.current_player
        v = g.view(seat)
        reached = list(_reachable(v))
        assert not any(isinstance(x, _core.game.GameState) for x in reached)
        hands = [x for x in reached if isinstance(x, Hand)]
        for s in range(6):
            if s != seat and v.hidden_counts[s] >= 2:
                assert g.hand(s) not in hands, f"seat {s}'s hand is reachable from seat {seat}'s view"


def test_view_bad_seat():
    g = Game(1)
    for bad in (-1, 6, True, "1"):
        with pytest.raises(ValueError):
            g.view(bad)
    with pytest.raises(ValueError, match="seats are 0..5"):
        _core.game.information_state(g, 7)


# ---- sampler --------------------------------------------------------------------------

def test_sampler_deterministic_and_consistent():
    for g in mid_games()[::3]:
        v = g.view(g.current_player)
        a = sample_worlds(v, 6, seed=3)
        b = sample_worlds(v, 6, seed=3)
        assert [[w.hand(s) for s in range(6)] for w in a] == [[w.hand(s) for s in range(6)] for w in b]
        # world k does not depend on n
        c = sample_worlds(v, 2, seed=3)
        assert [[w.hand(s) for s in range(6)] for w in c] == [[w.hand(s) for s in range(6)] for w in a[:2]]
        for w in a:
            assert _testing.consistent(v, [w.hand(s) for s in range(6)])
            assert w.phase == g.phase and w.current_player == g.current_player
            random_steps(w, random.Random(0), 30)  # a world plays on legally


def test_sampler_bad_input():
    v = Game(1).view(0)
    for n in (0, -3):
        with pytest.raises(ValueError, match=r"n must be an integer in \[1, 65536\]"):
            sample_worlds(v, n, 1)
    with pytest.raises(ValueError):
        sample_worlds(v, 1.5, 1)
    with pytest.raises(ValueError, match="view"):
        sample_worlds(Game(1), 1, 1)


def exact_distribution(v):
    """Every assignment of the unseen cards to the other seats, with its probability under
    a uniform deal of the physical cards, conditioned on the view's constraints."""
    pool = Counter(v.unseen.cards())
    seats = [s for s in range(6) if s != v.seat and v.hidden_counts[s] > 0]
    out = {}

    def rec(i, left, acc):
        if i == len(seats) - 1:
            yield acc + [left]
            return
        for sub in submultisets(left, v.hidden_counts[seats[i]], sorted(left)):
            yield from rec(i + 1, left - sub, acc + [sub])

    for parts in rec(0, pool, []):
        weight = math.prod(math.factorial(n) for n in pool.values())
        for p in parts:
            weight //= math.prod(math.factorial(n) for n in p.values())
        hands = []
        for s in range(6):
            h = Counter(v.known[s].cards())
            if s == v.seat:
                h = Counter(v.hand.cards())
            elif s in seats:
                h += parts[seats.index(s)]
            hands.append(Hand(" ".join(sorted(h.elements()))))
        if _testing.consistent(v, hands):
            out[tuple(tuple(sorted(p.items())) for p in parts)] = weight
    total = sum(out.values())
    return seats, {k: w / total for k, w in out.items()}


def small_view(seed, rules, auto_pass, max_hidden):
    g = Game(seed, rules, auto_pass=auto_pass)
    rng = random.Random(seed)
    while not g.match_over:
        if g.phase == "play":
            v = g.view(g.current_player)
            if len(v.unseen) <= max_hidden and sum(1 for c in v.hidden_counts if c) >= 2:
                return g, v
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    return None, None


def exact_unconstrained(v):
    """The number of assignments before the constraints (the sampler must reject some)."""
    original = _testing.consistent
    try:
        _testing.consistent = lambda view, hands: True
        return len(exact_distribution(v)[1])
    finally:
        _testing.consistent = original


@pytest.mark.parametrize("seed, auto_pass, max_hidden", [(6, True, 8), (7, False, 7)])
def test_sampler_is_uniform_chi_square(seed, auto_pass, max_hidden):
    """Sampled worlds against the exact distribution, enumerated; with auto_pass, forced
    passes exclude most assignments (1680 -> 212 for seed 6), so rejection is exercised."""
    _g, v = small_view(seed, Rules(), auto_pass, max_hidden)
    seats, exact = exact_distribution(v)
    assert 4 <= len(exact) <= 400
    if auto_pass:
        assert v.forced and len(exact) < exact_unconstrained(v)
    n = 20000
    arr = _testing.sample_hands_array(v, n, 12345)
    observed = Counter()
    for k in range(n):
        key = []
        for st in seats:
            hidden = Counter(Hand.from_counts(arr[k, st]).cards()) - Counter(v.known[st].cards())
            key.append(tuple(sorted(hidden.items())))
        observed[tuple(key)] += 1
    assert set(observed) <= set(exact), "a sampled world is not a consistent assignment"
    keys = sorted(exact)
    f_obs = np.array([observed[k] for k in keys], dtype=float)
    f_exp = np.array([exact[k] * n for k in keys])
    stat, p = chisquare(f_obs, f_exp)
    assert p > 1e-3, (stat, p, len(keys))
