"""The learned player's play decisions of self-play, for the screen study (README.md).

python training/screen1/collect.py SEED ROUNDS OUT.npz [MODEL]

Rounds i = 0 .. ROUNDS-1 of ``Game(SEED, max_rounds=1, game=i, start="random")`` (R17: the same
for the same seed), every seat playing MODEL (default: the shipped ``learned``); every play
decision with two or more candidates is kept: the state features, the candidates' action rows
and the heuristic's candidate (``daguai.learn.learn_features``)."""

from __future__ import annotations

import sys

import numpy as np
from daguai import Game, Rules
from daguai._core.run import PolicyRunner
from daguai.learn import learn_features


def main() -> None:
    seed, rounds, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    model = sys.argv[4] if len(sys.argv) > 4 else "learned"
    states, actions, heuristic, sizes = [], [], [], []
    for i in range(rounds):
        g = Game(seed, Rules().replace(max_rounds=1), game=i, start="random")
        runners: dict[int, PolicyRunner] = {}
        while not g.match_over:
            seat = g.current_player
            if g.phase == "play":
                state, cands, rows, h = learn_features(g)
                if len(cands) >= 2:
                    states.append(state)
                    actions.append(rows)
                    heuristic.append(h)
                    sizes.append(len(cands))
            if seat not in runners:
                runners[seat] = PolicyRunner(model, seed, i, seat)
            g.step(runners[seat].act(g.state))
    np.savez_compressed(out, state=np.stack(states), actions=np.concatenate(actions),
                        heur=np.array(heuristic), n=np.array(sizes))
    print(f"{len(sizes)} decisions, {sum(sizes)} candidates")


if __name__ == "__main__":
    main()
