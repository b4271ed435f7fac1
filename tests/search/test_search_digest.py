"""Same seed, same search decisions (R17): `pimc24`, `pimc` and `expert` choose at seeded
decision points exactly what they chose when these digests were pinned. A speed-up of the
engine under the search (its rollouts' apply, the heuristic, the catalog's dispatch, the
rollout's end of round) must not move any of them; a change that means to change the search
regenerates them:

    PYTHONPATH=python python tests/search/test_search_digest.py --regenerate

and says why in its commit.

A digest is the sha256 of the chosen actions' texts, one a line, at the decision points of
``decision_points`` (seeded heuristic rounds at both tables, tribute rounds included, each
stopped at a drawn decision with more than one legal action), each decided by a fresh
``PolicyRunner(policy, 2031, point, seat)``.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys

import pytest
from daguai import Game, Rules, _core

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden", "search_digests.json")
SEED = 2031
#: (case name, policy, table, points): the quick cases run by default, the long one is slow.
CASES = (
    ("pimc24-6p3d", "pimc24", "6p3d", 40, False),
    ("pimc24-4p2d", "pimc24", "4p2d", 30, False),
    ("pimc-6p3d", "pimc", "6p3d", 12, False),
    ("expert-6p3d", "expert", "6p3d", 12, False),
    ("expert-6p3d-long", "expert", "6p3d", 60, True),
)


def decision_points(table: str, n: int) -> list[Game]:
    """n positions of seeded heuristic play (random starts: tribute rounds among them), each at a
    decision with more than one legal action."""
    rng = random.Random(SEED)
    out: list[Game] = []
    game = 0
    while len(out) < n:
        g = Game(SEED, Rules(table=table), game=game, start="random" if game % 2 else "fresh")
        runners = {s: _core.run.PolicyRunner("heuristic", SEED, game, s) for s in range(6)}
        for _ in range(rng.randrange(0, 120)):
            if g.match_over or g.n_results:
                break
            g.step(runners[g.current_player].act(g))
        game += 1
        if not g.match_over and not g.n_results and len(g.legal_actions()) > 1:
            out.append(g)
    return out


def digest(policy: str, table: str, n: int) -> str:
    lines = []
    for point, g in enumerate(decision_points(table, n)):
        a = _core.run.PolicyRunner(policy, SEED, point, g.current_player).act(g)
        lines.append(str(a))
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def _golden() -> dict[str, str]:
    with open(GOLDEN, encoding="utf-8") as f:
        return json.load(f)


@pytest.mark.parametrize(
    "name,policy,table,n",
    [pytest.param(c[0], c[1], c[2], c[3], marks=[pytest.mark.slow] if c[4] else [], id=c[0]) for c in CASES],
)
def test_search_decisions_are_pinned_R17(name, policy, table, n):
    assert digest(policy, table, n) == _golden()[name]


if __name__ == "__main__" and sys.argv[1:] == ["--regenerate"]:
    pins = {c[0]: digest(c[1], c[2], c[3]) for c in CASES}
    with open(GOLDEN, "w", encoding="utf-8") as f:
        json.dump(pins, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps(pins, indent=1))
