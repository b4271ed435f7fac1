"""daguai.review (docs/search.md "Game review"): a seat's decisions in a match record, what
each cost, checked against rollouts computed directly in Python (R16: worlds from the seat's
view only; R17: deterministic for a seed, whatever the threads)."""

from __future__ import annotations

import json
import math

import pytest
from daguai import _core
from daguai.errors import ReplayError
from daguai.game import Game
from daguai.review import review
from daguai.rules import Rules
from daguai.search import sample_worlds
from daguai.stats import Z95 as _Z95


def _match(seed: int = 5) -> str:
    g = Game(seed, Rules.from_dict({"final_level": "3", "max_rounds": 2}), auto_pass=True)
    n = 0
    while not g.match_over:
        g.step(_core.run.PolicyRunner("heuristic", seed, n, g.current_player).act(g))
        n += 1
    return g.to_record()


@pytest.fixture(scope="module")
def record() -> str:
    return _match()


def _reference_values(game: Game, action: _core.game.Action, worlds: int, seed: int) -> list[tuple[int, int]]:
    """(score change of the seat, outcome) of ``action`` in worlds 0..worlds-1, played out
    with the heuristic at every seat: the search's rollouts, one by one (search.hpp: world k
    from sample_worlds(view, ·, seed)[k], every seat's stream (seed, game k, seat))."""
    seat = game.current_player
    out = []
    for k, w in enumerate(sample_worlds(game.view(seat), worlds, seed)):
        before = w.n_results
        w.step(action)
        runners = {}
        while w.n_results == before and not w.match_over:
            s = w.current_player
            runners.setdefault(s, _core.run.PolicyRunner("heuristic", seed, k, s))
            w.step(runners[s].act(w))
        r = w.result(w.n_results - 1)
        won = r["forfeit"] is None and r["winner"] is not None
        out.append((r["scores"][seat], 0 if not won else (1 if r["winner"] == seat % 2 else -1)))
        assert k < worlds
    return out


def test_review_two_choices_equals_direct_rollouts(record: str) -> None:
    """R16/R17: a decision with two choices (two groups): the engine race with the seat's
    choice as incumbent gives both the whole budget on worlds 0..n-1, so the review's cost is
    the paired mean of the same rollouts computed directly here, and its verdict the search
    policies' (switch only for an advantage above two standard errors over >= 4 worlds)."""
    budget, seed = 64, 11
    rev = review(record, 0, rollouts=budget, seed=seed)
    two = [d for d in rev.decisions if d.groups == 2 and d.legal == 2]
    assert two, "the match has a decision of seat 0 with exactly two legal actions"
    checked = 0
    for d in two[:3]:
        g = Game.from_record(record, upto=d.line - 1)
        legal = list(g.legal_actions())
        mine = [a for a in legal if str(a) == d.choice][0]
        other = [a for a in legal if a != mine][0]
        n = budget // 2
        vm = _reference_values(g, mine, n, (seed + d.decision) % 2**64)
        vo = _reference_values(g, other, n, (seed + d.decision) % 2**64)
        assert d.worlds == n
        assert d.choice_win == pytest.approx(sum(o == 1 for _, o in vm) / n)
        diffs = [b[0] - a[0] for a, b in zip(vm, vo, strict=True)]
        mean = sum(diffs) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1))
        switch = mean > 0 and mean > 2 * sd / math.sqrt(n)
        assert d.agrees == (not switch)
        if switch:
            assert d.best == str(other)
            assert d.points == pytest.approx(mean)
            assert d.points_ci == pytest.approx(
                (mean - _Z95 * sd / math.sqrt(n), mean + _Z95 * sd / math.sqrt(n))
            )
            assert d.best_win == pytest.approx(sum(o == 1 for _, o in vo) / n)
        else:
            assert d.points == 0.0 and d.best == d.choice
        checked += 1
    assert checked


def test_review_ranked_deterministic_and_thread_independent(record: str) -> None:
    """R17: the same seed gives the same review, the costliest decision is the same with 1
    and 3 threads, and the decisions are ranked by cost."""
    a = review(record, 3, rollouts=48, seed=2, threads=1)
    b = review(record, 3, rollouts=48, seed=2, threads=3)
    assert a.to_dict() == b.to_dict()
    assert a.costliest is not None and a.costliest == b.costliest
    costs = [d.points for d in a.decisions]
    assert costs == sorted(costs, reverse=True)
    assert all(d.seat == 3 for d in a.decisions)
    assert len(a.decisions) + a.forced > 0


def test_review_rounds_progress_and_json(record: str) -> None:
    """One round only (0-based), a progress callback that reaches the total, the JSON form."""
    seen: list[tuple[float, float]] = []
    r = review(record, 1, rounds=[1], rollouts=16, progress=lambda d, t: seen.append((d, t)))
    assert {d.round for d in r.decisions} <= {1} and r.rounds == (1,)
    assert seen and seen[-1][0] == seen[-1][1] > 0
    assert all(0 <= d <= t for d, t in seen)
    doc = json.loads(json.dumps(r.to_dict()))
    assert doc["review"] == 1 and doc["seat"] == 1 and doc["rounds"] == [1]
    assert set(doc["decisions"][0]) >= {
        "decision",
        "line",
        "round",
        "hand",
        "to_beat",
        "choice",
        "best",
        "agrees",
        "points",
        "points_ci",
        "win",
        "win_ci",
    }


def test_review_work_is_bounded_under_declare() -> None:
    """A leader under wild="declare" has hundreds of groups (every reading of the jokers):
    the review races at most REVIEW_GROUPS of them, so its rollouts stay bounded."""
    from daguai.review import REVIEW_GROUPS

    rules = Rules.from_dict({"final_level": "3", "wild": "declare", "max_rounds": 1})
    g = Game(11, rules, auto_pass=True)
    n = 0
    while not g.match_over:
        g.step(_core.run.PolicyRunner("heuristic", 11, n, g.current_player).act(g))
        n += 1
    r = review(g.to_record(), 0, rollouts=16)
    assert max(d.groups for d in r.decisions) > REVIEW_GROUPS  # such a decision was reviewed
    assert all(d.played <= 16 + 3 * REVIEW_GROUPS for d in r.decisions), [d.played for d in r.decisions]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"seat": 6}, "seat"),
        ({"seat": -1}, "seat"),
        ({"seat": 0, "rollouts": 0}, "rollouts"),
        ({"seat": 0, "policy": "pimc24"}, "policy"),
        ({"seat": 0, "rounds": [40]}, "no round"),
        ({"seat": 0, "threads": 0}, "threads"),
    ],
)
def test_review_bad_input(record: str, kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        review(record, **kwargs)


def test_review_bad_record() -> None:
    with pytest.raises(ReplayError):
        review('{"event": "deal"}\n', 0)
    with pytest.raises(ReplayError):
        review("", 0)


def test_cli_review(record: str, tmp_path, capsys) -> None:
    from daguai.cli.main import main

    path = tmp_path / "m.jsonl"
    path.write_text(record)
    assert main(["review", str(path), "--seat", "0", "--round", "1", "--rollouts", "16", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc == review(record, 0, rounds=[0], rollouts=16).to_dict()
    assert main(["review", str(path), "--seat", "0", "--round", "1", "--rollouts", "16", "-q"]) == 0
    assert "cost" in capsys.readouterr().out
    assert main(["review", str(path), "--seat", "7"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_r16_review_never_reads_the_hidden_cards(record: str) -> None:
    """R16: a decision judged in the true game and in another deal of the cards the seat
    could not see (a world sampled from its view) gets the same verdict and cost."""
    from daguai.review import _judge, _Moment, _moments

    moments, _ = _moments(record, 2, {0})
    checked = 0
    for m in moments[:4]:
        seat = m.game.current_player
        world = sample_worlds(m.game.view(seat), 1, 99)[0]
        assert str(world.hand(seat)) == str(m.game.hand(seat))
        others = [str(world.hand(s)) for s in range(6) if s != seat]
        if others == [str(m.game.hand(s)) for s in range(6) if s != seat]:
            continue  # the same deal by chance: nothing to compare
        twin = _Moment(m.decision, m.line, m.seat, world, m.index)
        a = _judge(m, 48, "heuristic", 5, 1, lambda d, t: True)
        b = _judge(twin, 48, "heuristic", 5, 1, lambda d, t: True)
        assert a == b
        checked += 1
    assert checked
