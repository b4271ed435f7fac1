"""How often a model's R11 decision differs from the heuristic's, by phase, over the start states
of rounds 0..N-1 of seed 8800 (the heuristic steps the game on).

    python training/r11a/differ.py MODEL TABLE N
"""

import collections
import sys

import daguai
from daguai import Game, Rules, _core

model, table, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
seen: collections.Counter[str] = collections.Counter()
differ: collections.Counter[str] = collections.Counter()
for i in range(n):
    g = Game(seed=8800, game=i, rules=Rules(table=table), start="random")
    while g.phase != "play" and not g.match_over:
        seat = g.current_player
        h = daguai.bots.heuristic(g, seat)
        if len(g.legal_actions()) > 1:
            seen[g.phase] += 1
            differ[g.phase] += _core.run.PolicyRunner(model, 1, i, seat).act(g) != h
        g.step(h)
for k in seen:
    print(f"{table} {k}: {seen[k]} decisions with a choice; the model differs from the heuristic in "
          f"{differ[k]} ({100 * differ[k] / seen[k]:.1f}%)")
