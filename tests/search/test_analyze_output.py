"""What ``analyze`` prints agrees with itself: the rows are in the order the header says
(the race: the round a group reached, then its points), the best mark is the first row, and
the rollouts reported are the rollouts played, with a note when they differ from the
budget asked (docs/search.md "The race", "daguai analyze")."""

from __future__ import annotations

import daguai
import pytest
from daguai import Game


def readme_game() -> Game:
    """The README's example: a follow where a group stopped early has the higher mean."""
    g = Game(seed=7)
    for _ in range(19):
        g.step(g.legal_actions()[0])
    return g


def lead_game() -> Game:
    g = Game(seed=0)
    while g.phase != "play":
        g.step(g.legal_actions()[0])
    return g


def test_the_rows_follow_the_ranking_the_header_states():
    a = daguai.analyze(readme_game(), rollouts=2000)
    lines = a.lines()
    assert "ranked by the race: the round a group reached (later first), then points" in lines
    rows = [line for line in lines if line[:4].strip().rstrip("*≈").isdigit()]
    assert rows[0][3] == "*" and a.groups[0].best
    # pass (+0.45) below BJ (+0.41): it stopped a round earlier, and the round is shown
    keys = [(-g.round, -g.points) for g in a.groups[1:]]
    assert keys == sorted(keys)
    pass_row = next(r for r in rows if " pass " in r)
    best_row = rows[0]
    assert pass_row.split()[2] == "1" and best_row.split()[2] == "2"
    assert max(len(line) for line in lines) <= 80


@pytest.mark.parametrize("budget", [2000, 2001, 37])
def test_the_rollouts_reported_are_the_rollouts_played(budget):
    for g in (readme_game(), lead_game()):
        a = daguai.analyze(g, rollouts=budget)
        assert a.rollouts == sum(gr.rollouts for gr in a.groups)  # every rollout counted once
        assert a.budget == budget
        n, rounds = a.n_groups, a.rounds
        if budget >= n * rounds:  # whole worlds: at most one short of the budget
            assert budget - 1 <= a.rollouts <= budget
        text = "\n".join(a.lines())
        if a.rollouts < budget:
            assert f"(of {budget:,} asked: the last round splits what is left evenly)" in text
        elif a.rollouts > budget:
            assert f"(over the {budget:,} asked: each group plays one rollout a round at least)" in text
        else:
            assert "asked" not in text
