"""The race (cpp/engine/search/search.hpp): sequential halving over the groups of
plays, checked against a slow, obvious Python reference of the documented schedule, and
independent of thread count and deterministic per seed (R17)."""

from __future__ import annotations

import math
import random
import re

import pytest
from daguai import Game, _core
from daguai.search import analyze
from game_helpers import mid_game, random_steps


def ceil_log2(n):
    return max(0, math.ceil(math.log2(n))) if n > 1 else 0


def reference_race(value, n, budget, incumbent):
    """docs/search.md "The race", written plainly. value(i, k): candidate i in world k."""
    challengers = [i for i in range(n) if i != incumbent]
    rounds = ceil_log2(max(1, len(challengers))) + 1 if incumbent >= 0 else ceil_log2(n)
    worlds_of, round_of = [0] * n, [0] * n
    used = worlds = 0
    for r in range(rounds):
        alive = ([incumbent] if incumbent >= 0 else []) + challengers
        last = r == rounds - 1
        t = max(1, (budget - used) // len(alive)) if last else max(1, budget // (len(alive) * rounds))
        worlds += t
        used += t * len(alive)
        for i in alive:
            worlds_of[i], round_of[i] = worlds, r
        if incumbent < 0 or not last:
            mean = {i: sum(value(i, k) for k in range(worlds)) / worlds for i in challengers}
            challengers = sorted(sorted(challengers, key=lambda i: -mean[i])[:(len(challengers) + 1) // 2])
    if incumbent < 0:
        best = challengers[0]
    else:
        best = incumbent
        c = challengers[0] if challengers else -1
        if c >= 0 and worlds >= 4:
            d = [value(c, k) - value(incumbent, k) for k in range(worlds)]
            m = sum(d) / worlds
            sd = math.sqrt(max(0.0, (sum(x * x for x in d) - worlds * m * m) / (worlds - 1)))
            if m > 0 and m > 2.0 * sd / math.sqrt(worlds):
                best = c
    return worlds_of, round_of, best, used


@pytest.mark.parametrize("budget,incumbent,keep", [(96, 0, 16), (300, -1, 0), (40, 2, 6), (1000, -1, 12)])
def test_race_matches_the_reference(budget, incumbent, keep):
    g = mid_game()
    rows, best, worlds, rounds, used, done_budget, _groups = _core.catalog._search(
        g, budget, 0.0, 1, "heuristic", 11, keep, incumbent)
    values = [r[7] for r in rows]

    def value(i, k):
        assert k < len(values[i]), "the reference needs a world the race did not play"
        return values[i][k]

    ref_worlds, ref_rounds, ref_best, ref_used = reference_race(value, len(rows), budget,
                                                                0 if incumbent >= 0 else -1)
    assert [r[1] for r in rows] == ref_worlds
    assert [r[6] for r in rows] == ref_rounds
    assert best == ref_best and used == ref_used and done_budget == budget
    assert worlds == max(ref_worlds) and rounds == max(ref_rounds) + 1
    for r in rows:  # the counts and the score are those of the values
        n, w, d, lo, score = r[1:6]
        assert w + d + lo == n == len(r[7]) and score == sum(r[7])


def test_a_world_gives_the_same_value_whatever_the_race():
    """Common random numbers: candidate i in world k depends only on (view, seed, i, k), so
    a bigger budget replays the same worlds first."""
    g = mid_game()
    small = _core.catalog._search(g, 100, 0.0, 1, "heuristic", 5)[0]
    big = _core.catalog._search(g, 800, 0.0, 1, "heuristic", 5)[0]
    for a, b in zip(small, big, strict=True):
        assert [str(x) for x in a[0]] == [str(x) for x in b[0]]
        m = min(len(a[7]), len(b[7]))
        assert m >= 1 and a[7][:m] == b[7][:m]
    other_seed = _core.catalog._search(g, 100, 0.0, 1, "heuristic", 6)[0]
    assert [r[7] for r in other_seed] != [r[7] for r in small]


@pytest.mark.parametrize("threads", [2, 3])
def test_independent_of_threads(threads):
    g = mid_game(seed=8)
    for budget, inc in ((120, -1), (200, 0)):
        one = _core.catalog._search(g, budget, 0.0, 1, "heuristic", 7, 10, inc)
        many = _core.catalog._search(g, budget, 0.0, threads, "heuristic", 7, 10, inc)
        assert [r[1:] for r in one[0]] == [r[1:] for r in many[0]]
        assert one[1:] == many[1:]


def test_a_forced_decision_costs_no_search():
    for seed in range(40):
        g = random_steps(Game(seed, auto_pass=False), random.Random(seed), 25)
        if len(g.legal_actions()) == 1:
            rows, best, worlds, *_ = _core.catalog._search(g, 100, 0.0, 1, "heuristic", 1)
            assert worlds == 0 and rows[0][1] == 0 and best == 0
            a = analyze(g, rollouts=100)
            assert a.forced and str(a).count("\n") == 0 and "forced" in str(a)
            return
    pytest.skip("no single-action decision found")


def test_time_mode_reports_a_whole_race():
    """With a time budget the result is the last race that finished, which is the race of
    that budget run without a clock."""
    g = mid_game()
    timed = analyze(g, time=0.3, rollouts=200)
    assert timed.rounds > 0 and timed.budget >= 200 and (timed.budget // 200) & (timed.budget // 200 - 1) == 0
    fixed = analyze(g, rollouts=timed.budget)
    assert timed.groups == fixed.groups and timed.rollouts == fixed.rollouts


def test_pimc_is_deterministic_and_thread_independent():
    import daguai
    r = daguai.simulate(2, ("pimc24", "heuristic"), seed=3, threads=1)
    assert r == daguai.simulate(2, ("pimc24", "heuristic"), seed=3, threads=2)


@pytest.mark.parametrize("rules", [{"table": "4p2d"}, {"wild": "declare"},
                                   {"wild": "high", "wrap_straights": True}])
def test_the_race_at_every_table_and_wild_rule(rules):
    """R6 variants and the 4p2d table (R18): groups cover the legal actions, threads do not
    matter, and pimc plays whole rounds."""
    import daguai
    from daguai import Rules
    g = Game(3, rules=Rules(**rules))
    for _ in range(30):
        g.step(daguai.bots.heuristic(g, g.current_player))
    one = _core.catalog._search(g, 300, 0.0, 1, "heuristic", 2)
    two = _core.catalog._search(g, 300, 0.0, 2, "heuristic", 2)
    assert [r[1:] for r in one[0]] == [r[1:] for r in two[0]] and one[1:] == two[1:]
    assert sum(len(r[0]) for r in one[0]) == len(g.legal_actions())
    r = daguai.simulate(2, ("pimc24", "heuristic"), seed=2, rules=Rules(**rules), threads=1)
    assert r.n == 2


def test_a_race_of_chosen_plays_races_their_groups_over_the_same_worlds():
    """``plays``: only the groups holding the actions asked for race, all of them, as the
    reference race of that many candidates; a group's value in world k is its value in the
    race of every group (the worlds and rollout streams depend on (seed, k) only)."""
    g = mid_game()
    legal = g.legal_actions()
    full_rows = _core.catalog._search(g, 2000, 0.0, 1, "heuristic", 3, 0, -1)[0]
    full = {tuple(str(a) for a in r[0]): r[7] for r in full_rows}
    for asked in ([legal[0], legal[3]], [str(legal[5]), legal[0], str(legal[-1])], [legal[2]] * 2):
        rows, best, worlds, rounds, used, budget, n_groups = _core.catalog._search(
            g, 300, 0.0, 1, "heuristic", 3, 0, -1, plays=asked)
        want = {str(a) for a in asked}
        assert n_groups == len(full_rows)  # the groups of every legal action, as before
        assert len(rows) == len({tuple(str(a) for a in r[0]) for r in rows})
        # each raced group holds an asked action, and each asked action is in a raced group
        assert all(want & {str(a) for a in r[0]} for r in rows)
        assert want <= {str(a) for r in rows for a in r[0]}
        if len(rows) == 1:  # one group: nothing to race, as a forced move (no rollouts)
            assert rows[0][1] == 0 and used == 0
            continue
        values = [r[7] for r in rows]
        ref_worlds, _, _, ref_used = reference_race(lambda i, k, v=values: v[i][k], len(rows), 300, -1)
        assert [r[1] for r in rows] == ref_worlds and used == ref_used == budget == 300
        for r in rows:
            same = full[tuple(str(a) for a in r[0])]
            m = min(len(same), len(r[7]))
            assert m >= 1 and r[7][:m] == same[:m]


@pytest.mark.parametrize("plays,error,words", [
    ([], "IllegalActionError", "1 to"),
    ("pass", "TypeError", "sequence of actions"),
    (5, "TypeError", "sequence of actions"),
    (["9z"], "CardError", "bad card '9z'"),
    (["pass"], "IllegalActionError", "cannot pass (R8)"),
    (["BJ BJ BJ BJ"], "CardError", "too many copies of BJ"),
])
def test_a_race_of_chosen_plays_refuses_what_is_not_a_legal_action(plays, error, words):
    from daguai.search import analyze

    g = mid_game()
    assert g.top is None  # a lead: the seat cannot pass
    before = g.clone()
    with pytest.raises((ValueError, TypeError), match=re.escape(words)) as e:
        analyze(g, rollouts=10, plays=plays)
    assert type(e.value).__name__ == error
    assert g == before  # the game is unchanged
    with pytest.raises(ValueError, match="1 to"):  # more actions than the legal ones
        analyze(g, rollouts=10, plays=[g.legal_actions()[0]] * (len(g.legal_actions()) + 1))
