"""Helpers shared by the game test files."""

from __future__ import annotations

import random

from daguai import Game


def random_steps(g: Game, rng: random.Random, n: int) -> Game:
    """Up to n uniformly random legal decisions (fewer if the match ends)."""
    for _ in range(n):
        if g.match_over:
            break
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    return g
