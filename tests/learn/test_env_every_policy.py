"""Every environment takes every policy `simulate` takes: the Gymnasium environment's
opponents may be any built-in (pimc, learned), a model path.dgn or an import path, as
`BatchEnv` and `simulate` accept them."""

from __future__ import annotations

from pathlib import Path

import daguai
import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
import daguai.learn.envs.gym_env  # noqa: E402,F401  (registers the ids)

MODEL = str(Path(daguai.__file__).parent / "models" / "learned.dgn")
EXAMPLE = str(Path(__file__).resolve().parents[2] / "examples" / "reinforce.py") + ":policy"


@pytest.mark.parametrize("opponents", ["learned", "pimc24", MODEL, "heuristic_exact", EXAMPLE,
                                       daguai.bots.greedy])
def test_gym_opponents(opponents):
    env = gymnasium.make("daguai/DaGuai-v0", opponents=opponents)
    obs, info = env.reset(seed=1)
    for _ in range(3):
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, term, trunc, info = env.step(int(legal[0]))
        if term or trunc:
            obs, info = env.reset()
    env.close()


def test_an_unknown_name_names_the_seat():
    with pytest.raises(ValueError, match="seat 1.*unknown policy"):
        gymnasium.make("daguai/DaGuai-v0", opponents="nope")
