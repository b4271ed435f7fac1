"""A built-in policy decides the same from the game and from the seat's view (R16, R17).

``PolicyRunner.act(game)`` is what ``simulate`` plays; ``act(view)`` is what the server's bots
and Python policies play. The view holds exactly what the seat may know, so a policy that
reads only that must answer the same from either, at every decision point: plays, passes,
tribute, return, offer and take, with and without ``auto_pass``, at both tables (R18).
A search with inference from play reads the round's public history, which a world made from
the view does not record: the view's own history must reach it.
"""

from __future__ import annotations

import itertools

import daguai
import pytest
from daguai import _core

CHEAP = ("random", "greedy", "heuristic", "heuristic_exact", "learned")
SEARCH = tuple(p for p in daguai.bots.policy_names() if p not in CHEAP)


def _points(table: str, games: int, every: int):
    """Decision points of heuristic games (fresh and random starts, auto_pass on and off):
    every `every`-th decision, as (game, seat)."""
    rules = daguai.Rules(table=table)
    k = 0
    for i in range(games):
        g = daguai.Game(
            seed=880_000 + i, rules=rules, auto_pass=bool(i % 2), start="random" if i % 3 == 0 else "fresh"
        )
        while not g.match_over and g.round <= 2:
            seat = g.current_player
            if k % every == 0:
                yield g.clone(), seat
            k += 1
            g.step(daguai.bots.heuristic(g, seat))


def _disagreements(policies, points) -> list[str]:
    out = []
    for (g, seat), name in itertools.product(points, policies):
        from_game = _core.run.PolicyRunner(name, 4242, 0, seat).act(g.state)
        from_view = _core.run.PolicyRunner(name, 4242, 0, seat).act(g.view(seat))
        if from_game != from_view:
            out.append(f"{name} seat {seat} {g.phase} round {g.round}: {from_game} vs {from_view}")
    return out


@pytest.mark.parametrize("table", ["6p3d", "4p2d"])
def test_every_cheap_policy_agrees_on_game_and_view_R16(table):
    points = list(_points(table, games=6, every=1))
    phases = {g.phase for g, _ in points}
    assert len(points) > 1000 and {"play", "tribute"} <= phases, (len(points), phases)
    assert _disagreements(CHEAP, points) == []


@pytest.mark.parametrize("table", ["6p3d", "4p2d"])
def test_every_search_policy_agrees_on_game_and_view_R16(table):
    points = list(_points(table, games=3, every=150))
    assert len(points) >= 5
    assert _disagreements(SEARCH, points) == []


@pytest.mark.slow
@pytest.mark.parametrize("table", ["6p3d", "4p2d"])
def test_every_search_policy_agrees_over_many_points_R16(table):
    points = list(_points(table, games=8, every=24))
    assert len(points) >= 60
    assert _disagreements(SEARCH, points) == []


def test_the_issue_positions_agree_for_inference_players_R16():
    # the positions where the inference players used to differ (a view's world had no log)
    cases = [(500024, "6p3d", 92, "Js Jd"), (500039, "4p2d", 2, None)]
    for seed, table, steps, expected in cases:
        g = daguai.Game(seed=seed, rules=daguai.Rules(table=table))
        for _ in range(steps):
            g.step(daguai.bots.heuristic(g, g.current_player))
        seat = g.current_player
        for name in ("pimc24_inf", "pimc24_inf_learned"):
            a = _core.run.PolicyRunner(name, 777, 0, seat).act(g.state)
            b = _core.run.PolicyRunner(name, 777, 0, seat).act(g.view(seat))
            assert a == b, (seed, name, a, b)
            if expected and name == "pimc24_inf":
                assert str(a).endswith(expected) or expected in str(a), a
