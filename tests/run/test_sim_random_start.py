"""``simulate(start="random")`` and ``evaluate(start="random")``: seeded games that begin at
``Game(start="random")``'s start state (random levels, and the R11 tribute exchange in 60% of
them, docs/learning.md "Start states") instead of a match's first deal."""

from __future__ import annotations

import json
import subprocess
import sys

import daguai
import numpy as np
import pytest
from daguai import Rules, evaluate, simulate
from daguai.rules import LEVELS
from daguai.run.simulation import _ray_task, _Run, play_game


def _heuristic(view, seat):
    return daguai.bots.heuristic(view, seat)


def test_random_starts_are_the_games_of_game_start_random():
    """The C++ run, the Python path and a replay of each game from Game(start="random") give
    the same rows (R17), with one thread or two."""
    fast = simulate(30, ("heuristic", "greedy"), seed=21, start="random", threads=1)
    two = simulate(30, ("heuristic", "greedy"), seed=21, start="random", threads=2)
    slow = simulate(30, (_heuristic, "greedy"), seed=21, start="random")
    assert fast.start == two.start == slow.start == "random"
    for k in fast:
        assert np.array_equal(fast[k], two[k]), k
        assert np.array_equal(fast[k], slow[k]), k
    for i in (0, 7, 29):
        g, _, _ = play_game(21, i, ("heuristic", "greedy"), start="random")
        assert g.start == "random"
        res = g.results[0]
        assert LEVELS.index(res["level"]) == fast["level"][i] and res["dealer"] == fast["dealer"][i]
        assert res["winner"] == fast["winner"][i] and res["order"] == list(fast["order"][i])
        assert res["scores"] == list(fast["scores"][i])


def test_random_starts_differ_from_fresh_ones():
    fresh = simulate(200, ("heuristic", "heuristic"), seed=22)
    rand = simulate(200, ("heuristic", "heuristic"), seed=22, start="random")
    assert fresh.start == "fresh" and len(set(fresh["level"].tolist())) == 1  # level 2 (R3)
    assert len(set(rand["level"].tolist())) > 5  # levels 2..A
    assert not np.array_equal(fresh["scores"], rand["scores"])
    # the tribute exchange of the start states (R11): 60% of them over the 720 orders
    tributes = sum(daguai.Game(seed=22, game=i, start="random").phase == "tribute" for i in range(200))
    assert 90 <= tributes <= 150


def test_ray_task_passes_the_start():
    local = simulate(8, ("heuristic", "random"), seed=23, start="random", threads=1)
    _, cols = _ray_task(_Run(Rules(), 23, ("heuristic", "random") * 3, random_start=True), 0, 8)
    for k in local:
        assert np.array_equal(local[k], cols[k]), k


def test_evaluate_random_starts_play_each_deal_from_one_state():
    r = evaluate("heuristic", "greedy", 40, seed=24, start="random", threads=2)
    a, b = r.results
    assert r.start == a.start == b.start == "random"
    assert np.array_equal(a["level"], b["level"]) and np.array_equal(a["dealer"], b["dealer"])
    assert r.net_win_rate > 0.3
    figures = r.figures(per_deal=False)
    assert figures["start"] == "random"
    from daguai.documents import documents_schema

    jsonschema = pytest.importorskip("jsonschema")
    schema = documents_schema()
    ev = {"$ref": "#/$defs/evaluation", "$defs": schema["$defs"]}
    jsonschema.validate(json.loads(r.to_json()), ev)


def test_random_start_refusals():
    with pytest.raises(ValueError, match="start must be 'fresh' or 'random'"):
        simulate(2, start="middle")
    with pytest.raises(ValueError, match="start must be 'fresh' or 'random'"):
        simulate(2, start=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="start='random' goes with seeded games"):
        simulate(2, position=daguai.Game(seed=1), start="random")


def test_cli_start_option():
    run = [sys.executable, "-m", "daguai", "evaluate", "heuristic", "random", "--deals", "5",
           "--start", "random", "--json", "--quiet"]
    out = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["start"] == "random"
    bad = subprocess.run(run[:-3] + ["--start", "middle"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "--start" in bad.stderr
