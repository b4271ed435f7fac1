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


def mid_game(seed: int = 5, steps: int = 60) -> Game:
    """A game ``steps`` random decisions into seed ``seed``'s match (the search tests' position)."""
    return random_steps(Game(seed), random.Random(seed), steps)
