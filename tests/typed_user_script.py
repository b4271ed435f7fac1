"""A user's script written from the README and docs/: tests/dev/test_dev_types.py runs it and
checks it with `mypy --strict`."""

from __future__ import annotations

import daguai
import gymnasium
import numpy as np
from daguai import Game, Rules


def first_legal(game: Game, seat: int) -> daguai.Action:
    return game.legal_actions()[0]


def learner(game: Game, seat: int) -> daguai.Action:
    x = daguai.learn.encode_observation(game, seat)
    mask = daguai.learn.abstract_mask(game)
    mask2, index = daguai.learn.abstract_mask(game, return_index=True)
    a = int(np.argmax(mask * (1.0 + x[: mask.shape[0]].sum())))
    assert index.shape == mask2.shape
    return daguai.learn.action_from_abstract(game, a)


def main() -> None:
    g = Game(seed=7, rules=Rules(final_level="3"))
    phase: str = g.phase
    seat = g.current_player
    while not g.match_over and seat is not None and phase == "play" and g.round == 0:
        g.step(learner(g, seat) if seat % 2 == 0 else first_legal(g, seat))
        seat = g.current_player
        phase = g.phase
    levels: tuple[str, str] = g.levels
    print(levels, g.scores, g.hand(0), g.observation(0)["phase"])
    view = g.view(g.current_player or 0)
    print(daguai.learn.abstract_mask(view).sum())
    p = daguai.classify("5s 5h SJ", level="2")
    print(p, p.jokers_as if p is not None else None)
    r = daguai.simulate(20, ("heuristic", "random"), seed=1)
    print(r.n)
    e = daguai.evaluate("heuristic", "random", 5, seed=1)
    print(e.net_win_rate, e.net_win_ci)
    env = gymnasium.make("daguai/DaGuai-v0", seat=0, opponents="heuristic")
    obs, info = env.reset(seed=1)
    print(obs["observation"].shape, info)


if __name__ == "__main__":
    main()
