"""Instructions per decision of the per-candidate features (training/student2/README.md "Cost"):
200 play-phase positions of heuristic games (2+ legal actions, one sampled world each), then
FN called once on each, then REPS more times; the figure is the difference of REPS=5 and REPS=0
under callgrind, divided by 1,000 calls (the Python call and the arrays' making included).

for fn in cand learn mask; do for r in 0 5; do
  PYTHONPATH=python valgrind --tool=callgrind --callgrind-out-file=cg.$fn.$r \
      "$(python -c 'import sys; print(sys.executable)')" training/student2/feature_cost.py $fn $r
done; done
grep -h '^summary:' cg.*   # (cg.FN.5 - cg.FN.0) / 1000
"""

from __future__ import annotations

import sys

import daguai
from daguai import _core


def main(fn: str, reps: int) -> None:
    g = daguai.Game(seed=2026)
    s = g.state
    pos = []
    while len(pos) < 200:
        if s.match_over:
            g = daguai.Game(seed=2026 + len(pos))
            s = g.state
        if s.phase == "play" and len(s.legal_actions()) > 1:
            view = _core.game.information_state(s, int(s.current_player), True, True)
            pos.append(_core.beliefs.sample_worlds(view, 1, 0)[0])
        s.apply(_core.run.PolicyRunner("heuristic", 1, 0, int(s.current_player)).act(s))
    f = {"cand": _core.learned.candidate_features, "learn": _core.learned.learn_features,
         "mask": _core.io.abstract_mask}[fn]
    for p in pos:
        f(p)
    for _ in range(reps):
        for p in pos:
            f(p)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
