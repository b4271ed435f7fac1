"""One run loop and one pool: play_out (cpp/engine/players/play_out.hpp) plays the
rollouts, the search's rollouts and the seat driver; parallel_for (workers.hpp) runs the
rollouts and the search; a registry entry carries its kind and its search budget, so nothing
reads the name prefix "pimc"; a decision from a view runs on the caller's world (seed, game).

Pinned figures were computed with the build before these changes (commit bbcb041): same seeds,
same games and decisions (R17)."""

from __future__ import annotations

import hashlib
import json
import pickle

import daguai
import pytest
from daguai import Game, Rules, _core
from test_columns import frame_hash


def test_registry_entries_carry_kind_and_budget():
    entries = {e["name"]: e for e in _core.catalog.policy_entries()}
    assert [e["name"] for e in _core.catalog.policy_entries()] == _core.catalog.policy_names()
    search = {name: e["rollouts"] for name, e in entries.items() if e["kind"] == "search"}
    assert search == {"pimc": 256, "pimc24": 24, "pimc48": 48, "pimc192": 192, "expert": 256,
                      "pimc24_inf": 24, "pimc24_inf_learned": 24, "expert416": 416, "expert_net8": 256}
    for name in ("random", "greedy", "heuristic", "heuristic_exact"):
        assert entries[name] == {"name": name, "kind": "rule", "rollouts": None, "model": None}
    assert {e["kind"] for e in entries.values()} <= {"rule", "search", "model"}


def test_a_search_policy_cannot_roll_out():
    g = Game(3)
    with pytest.raises(ValueError, match="rollout policy must be one of") as info:
        daguai.analyze(g, rollouts=8, policy="pimc24")
    named = str(info.value).split("one of ", 1)[1]
    assert "heuristic" in named and "pimc" not in named.split(", got")[0]


def test_search_policies_keep_their_decisions():
    r = daguai.simulate(3, ("pimc24", "heuristic"), seed=1, threads=1)
    assert frame_hash(r) == "731539cb232f6b86"
    assert frame_hash(daguai.simulate(3, ("pimc24", "heuristic"), seed=1, threads=2)) == "731539cb232f6b86"
    e = daguai.evaluate("pimc24", "heuristic", 2, seed=11, threads=1)
    # the bounded interval of a net win rate (daguai.stats.bounded_mean_interval, docs/simulation.md)
    assert (e.wins, e.draws, e.losses) == (1, 2, 1)
    assert e.net_win_ci == pytest.approx((-0.699108551659889, 0.699108551659889))
    assert frame_hash(daguai.simulate(30, ("heuristic_exact", "heuristic"), seed=1, threads=1)) == \
        "246cdd7766926fbc"


@pytest.mark.parametrize("threads", [1, 2])
def test_analyze_keeps_its_race(threads):
    g = Game(7)
    while len(g.legal_actions()) < 8 or g.state.phase != "play":
        g.step(g.legal_actions()[0])
    a = daguai.analyze(g, rollouts=200, seed=3, threads=threads)
    text = json.dumps(a.to_dict(), sort_keys=True, default=str)
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == "8cbebbfb1fa60207"
    assert (a.rollouts, a.budget, a.rounds, a.n_groups) == (1464, 200, 10, 717)


def _positions():
    for seed in range(6):
        g = Game(seed)
        for _ in range(seed * 3):
            g.step(g.legal_actions()[-1])
        yield seed, g


# hash of the decisions of PolicyRunner(policy, seed, 0, seat) from the view, then the game
PINNED_ACTS = {"random": "9e754da2b1c27920", "heuristic": "700804a9288d24ec",
               "greedy": "e4bca68503123961", "pimc24": "700804a9288d24ec"}


@pytest.mark.parametrize("policy", sorted(PINNED_ACTS))
def test_decisions_from_views_and_games_are_those_before(policy):
    acts = []
    for seed, g in _positions():
        seat = g.current_player
        acts.append(str(_core.run.PolicyRunner(policy, seed, 0, seat).act(g.view(seat))))
        acts.append(str(_core.run.PolicyRunner(policy, seed, 0, seat).act(g)))
    assert hashlib.sha256("|".join(acts).encode()).hexdigest()[:16] == PINNED_ACTS[policy]


@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic", "heuristic_exact"])
def test_a_view_decides_as_the_game_whatever_the_callers_world(policy):
    """Built-in policies read only the view (R16): the world the runner's (seed, game) makes of
    the hidden hands does not change the decision."""
    for seed, g in _positions():
        seat = g.current_player
        want = str(_core.run.PolicyRunner(policy, seed, 0, seat).act(g))
        for world_game in (0, 1, 977):
            runner = _core.run.PolicyRunner(policy, seed, world_game, seat)
            runner_game = _core.run.PolicyRunner(policy, seed, world_game, seat)
            assert str(runner.act(g.view(seat))) == str(runner_game.act(g))
        assert want  # a decision was made


def test_policy_runner_pickles_its_world_seed():
    r = _core.run.PolicyRunner("heuristic", 41, 7, 2)
    f, args = r.__reduce__()
    assert f is _core.run._policy_runner_from_state and len(args) == 7 and args[0] == "heuristic"
    assert args[5:] == (41, 7)
    old = f(*args[:5])  # a state pickled by an older engine (no seed, game) still loads
    assert old.name == "heuristic"
    assert pickle.loads(pickle.dumps(r)).__reduce__()[1] == args


def _driven(pols, seed, game, rules):
    """Game `game` of `seed` played by the seat driver alone (every seat built in)."""
    g = Game(seed, rules, game=game, record=False)
    driver = _core.run._SeatDriver(list(pols), seed, game)
    assert driver.advance(g.state, 1) == -1
    return g, driver.plays, driver.passes


@pytest.mark.parametrize("rules", [Rules(), Rules(table="4p2d")])
def test_seat_driver_and_rollouts_play_the_same_games(rules):
    pols = ["heuristic", "random", "greedy", "heuristic", "random", "greedy"]
    pols = pols[:4] if rules.table == "4p2d" else pols
    fast = daguai.simulate(12, pols, seed=8, rules=rules, threads=2)
    for i in range(12):
        g, plays, passes = _driven(pols, 8, i, rules)
        assert g.result(-1)["order"] == fast["order"][i].tolist()
        assert (plays, passes) == (fast["plays"][i], fast["passes"][i])
        assert list(g.scores) == fast["scores"][i].tolist()


def test_seat_driver_stops_at_the_callers_seat():
    g = Game(4, record=False)
    pols = ["heuristic", None, "heuristic", "heuristic", "heuristic", "heuristic"]
    driver = _core.run._SeatDriver(pols, 4, 0)
    seat = driver.advance(g.state, 1)
    assert seat == 1 and g.current_player == 1
    with pytest.raises(ValueError, match="one entry per seat"):
        _core.run._SeatDriver(["heuristic"] * 5, 4, 0)


def test_results_do_not_depend_on_threads_or_batches():
    """parallel_for hands out games in chunks: any thread count gives the same rows."""
    base = frame_hash(daguai.simulate(70, ("heuristic", "greedy"), seed=21, threads=1))
    for threads, batch in ((2, None), (3, 7), (5, 1)):
        assert frame_hash(daguai.simulate(70, ("heuristic", "greedy"), seed=21, threads=threads,
                                          batch=batch)) == base


@pytest.mark.parametrize(("n", "threads", "chunk", "spread"),
                         [(2, 2, 16, 2), (16, 2, 16, 2), (5, 3, 16, 3), (1000, 2, 16, 2), (1, 2, 16, 1),
                          (3, 3, 1, 3)])
def test_few_slow_indices_still_use_every_thread(n, threads, chunk, spread):
    """A call of a few slow games (a search policy's; simulate sizes its calls to CHUNK_SECONDS)
    runs on every thread: the chunk shrinks to about n / (4 threads), at least 1. With the
    chunk of 16 alone, two games went to one thread and the other stayed idle."""
    assert _core._testing.parallel_spread(n, threads, chunk, wait_seconds=5.0) == spread


def test_rollout_settings_are_checked_by_the_engine():
    with pytest.raises(ValueError, match=r"simulate needs 6 policies \(one per seat\), got 5"):
        _core.run.simulate(Rules()._core, 0, 1, ["random"] * 5)
    with pytest.raises(ValueError, match="simulate: n must be >= 0"):
        _core.run.simulate(Rules()._core, 0, -1, ["random"] * 6)
    with pytest.raises(ValueError, match="simulate: threads must be >= 1"):
        _core.run.simulate(Rules()._core, 0, 1, ["random"] * 6, threads=0)
    with pytest.raises(ValueError, match="simulate: no seat 4"):
        _core.run.simulate(Rules(table="4p2d")._core, 0, 1, ["random"] * 4,
                       start=Game(1, Rules(table="4p2d")).state, view_seat=4)
