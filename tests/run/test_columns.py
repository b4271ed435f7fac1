"""The result columns declared once: cpp/engine/run/columns.cpp holds the one
table (name, dtype, width, match-only, doc, fill); the C++ rollouts and the Python slow path
fill rows through it, the bindings allocate from it and daguai.run.results.COLUMNS reads it.

The figures below were computed with the build before the table (commit bbcb041): the same
seeded runs must give the same bytes, dtypes, shapes and column order."""

from __future__ import annotations

import hashlib
import pathlib
import re

import daguai
import numpy as np
import pytest
from daguai import Game, Rules, _core
from daguai.rules import LEVELS
from daguai.run import results
from daguai.run.simulation import _Run, _run_slow, play_game

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "simulation.md"


def frame_hash(res) -> str:
    """Names, dtypes, shapes and bytes of every column, in order."""
    m = hashlib.sha256()
    for k in res:
        a = np.ascontiguousarray(res[k])
        m.update(k.encode())
        m.update(str(a.dtype).encode())
        m.update(str(a.shape).encode())
        m.update(a.tobytes())
    return m.hexdigest()[:16]


def python_policy(view, seat):
    """A deterministic Python policy (the slow path)."""
    acts = view.legal_actions()
    return acts[(len(acts) * 7 + seat) % len(acts)]


def _position() -> Game:
    g = Game(7)
    for _ in range(20):
        g.step(g.legal_actions()[0])
    return g


# (run, frame hash before the column table)
PINNED = [
    (lambda: daguai.simulate(300, ("heuristic", "random"), seed=5, threads=1), "2c0445fe535361f8"),
    (lambda: daguai.simulate(300, ("heuristic", "random"), seed=5, threads=2), "2c0445fe535361f8"),
    (lambda: daguai.simulate(20, ("greedy", "heuristic"), seed=9, matches=True, threads=2),
     "1927724ef215b05a"),
    (lambda: daguai.simulate(200, ("heuristic", "greedy"), seed=3, rules=Rules(table="4p2d")),
     "efcb45bd8c605181"),
    (lambda: daguai.simulate(10, ("heuristic", "random"), seed=3, matches=True,
                             rules=Rules(table="4p2d")), "009b437313fe7efa"),
    (lambda: daguai.simulate(50, ("heuristic", "random"), seed=2, position=_position()),
     "1f6ea3ca6c2f7eb7"),
    (lambda: daguai.simulate(50, ("heuristic", "random"), seed=2, position=_position(), worlds=True),
     "68a53a567ee33306"),
    (lambda: daguai.simulate(15, (python_policy, "heuristic"), seed=4), "8bbf1b30e4103d51"),
    (lambda: daguai.simulate(3, ("greedy", python_policy), seed=4, matches=True), "703b7a4cc3b6cf51"),
    (lambda: daguai.simulate(10, (python_policy, "heuristic"), seed=4, rules=Rules(table="4p2d")),
     "445f62eae0ed228c"),
    (lambda: daguai.simulate(10, (python_policy, "heuristic"), seed=2, position=_position(),
                             worlds=True), "a2f3f9f0db3d9b6d"),
]


@pytest.mark.parametrize("run, want", PINNED, ids=[f"run{i}" for i in range(len(PINNED))])
def test_seeded_results_are_those_before_the_table(run, want):
    assert frame_hash(run()) == want


def test_evaluate_figures_are_those_before_the_table():
    e = daguai.evaluate("heuristic", "greedy", 200, seed=11, threads=2)
    assert (e.wins, e.draws, e.losses) == (326, 67, 7)
    # the bounded interval of a rate in [-1, 1] (daguai.stats.bounded_mean_interval)
    assert e.net_win_ci == pytest.approx((0.7336439697377384, 0.8312977346905215), abs=1e-12)
    assert (e.mean_score_diff, e.score_diff_ci) == (6.72, (6.2198469419236515, 7.220153058076348))


def test_columns_are_the_engines_table():
    table = _core.run.result_columns()
    assert results.COLUMNS == tuple((c["name"], c["dtype"], c["width"], c["matches_only"])
                                    for c in table)
    assert [c["name"] for c in table] == ["seed", "game", "dealer", "level", "order", "winner",
                                          "n_tributers", "tributers", "levels", "scores", "plays",
                                          "passes", "rounds", "draws", "wins"]
    assert all(c["doc"] for c in table)
    for rules, seats in ((Rules(), 6), (Rules(table="4p2d"), 4)):  # R18: widths follow the table
        widths = {c["name"]: c["width"] for c in _core.run.result_columns(rules._core)}
        assert (widths["order"], widths["scores"], widths["tributers"], widths["wins"]) == (
            seats, seats, seats // 2, 2)
        for matches in (False, True):
            r = daguai.simulate(3, ("heuristic", "random"), seed=1, rules=rules, matches=matches)
            assert list(r) == results.column_names(matches)
            for c in _core.run.result_columns(rules._core):
                if c["name"] in r:
                    a = r[c["name"]]
                    assert a.dtype == np.dtype(c["dtype"])
                    assert a.shape == ((3, c["width"]) if c["width"] else (3,)), c["name"]


def test_docs_list_the_tables_columns():
    """docs/simulation.md "Columns" lists the table's columns, in order, with their dtypes."""
    text = DOCS.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| (\w+) \| \(n,[^|]*\) \|", text, re.M)
    assert rows == [(c["name"], c["dtype"]) for c in _core.run.result_columns()]


def reference_row(g: Game, seed: int, game: int, dealer: int, level: int, plays: int,
                  passes: int, matches: bool) -> dict:
    """A row computed from the game's public results in Python (the slow path's own fill
    before the table: slow and obvious)."""
    rank = {text: i for i, text in enumerate(LEVELS)}
    last = g.result(-1)
    row = {"seed": seed, "game": game, "dealer": dealer, "level": level, "order": last["order"]}
    if matches:
        over = last["match_over"] and last["match_winner"] is not None
        row["winner"] = last["match_winner"] if over else -1
    else:
        row["winner"] = -1 if last["winner"] is None else last["winner"]
    trib = list(last["tributers"])
    row["n_tributers"] = len(trib)
    row["tributers"] = trib + [-1] * (g.seats // 2 - len(trib))
    row["levels"] = [rank[x] for x in g.levels]
    row["scores"] = list(g.scores)
    row["plays"], row["passes"], row["rounds"] = plays, passes, g.n_results
    if matches:
        played = [r for r in g.results if r["forfeit"] is None]
        row["draws"] = sum(r["winner"] is None for r in played)
        row["wins"] = [sum(r["winner"] == t for r in played) for t in (0, 1)]
    return row


@pytest.mark.parametrize("rules, matches", [(Rules(), False), (Rules(), True),
                                            (Rules(table="4p2d"), False),
                                            (Rules(table="4p2d", scoring="levels"), True)])
def test_fill_row_equals_the_reference(rules, matches):
    seed, n = 12, 6
    pols = ["heuristic", "random", "greedy", "heuristic", "random", "greedy"]
    pols = pols[:4] if rules.table == "4p2d" else pols
    fast = daguai.simulate(n, pols, seed=seed, rules=rules, matches=matches, threads=1)
    for i in range(n):
        g, plays, passes = play_game(seed, i, pols, rules=rules, matches=matches)
        first = Game(seed, rules, game=i)
        ref = reference_row(g, seed, i, first.dealer, LEVELS.index(first.level), plays, passes, matches)
        assert list(ref) == list(fast)
        for k, v in ref.items():
            assert np.array_equal(fast[k][i], np.asarray(v, dtype=fast[k].dtype)), (i, k)


def test_slow_path_fills_through_the_table():
    rules = Rules(table="4p2d")
    slow = _run_slow(_Run(rules, 3, ("greedy", "random", "heuristic", "random"), matches=True), 5, 4)
    fast = daguai.simulate(9, ["greedy", "random", "heuristic", "random"], seed=3, rules=rules,
                           matches=True)
    assert list(slow) == list(fast)
    for k, a in slow.items():
        assert a.dtype == fast[k].dtype and np.array_equal(a, fast[k][5:9]), k


def test_result_rows_refuse_a_row_out_of_range_and_an_unfinished_game():
    rows = _core.run._ResultRows(Rules()._core, 2, False)
    g = Game(1)
    with pytest.raises(ValueError, match="no row 2"):
        rows.fill(2, g.state, 0, 0, 0, 0, 0, 0)
    with pytest.raises(ValueError, match="the game has no result"):
        rows.fill(0, g.state, 0, 0, 0, 0, 0, 0)
    with pytest.raises(ValueError, match="n must be >= 0"):
        _core.run._ResultRows(Rules()._core, -1, False)
