"""REINFORCE with numpy only: a masked linear-softmax policy over the 444 abstract ids,
trained through the Gymnasium environment against the built-in ``heuristic`` bots.

Train (bounded and seeded; writes ``examples/reinforce_weights.npz``)::

    python -m examples.reinforce --episodes 300 --seed 0

Evaluate the saved policy by duplicate evaluation (from the repository root)::

    daguai evaluate examples.reinforce:policy heuristic --deals 200

or from Python: ``daguai.evaluate(examples.reinforce.policy, "heuristic", 200)``.

The learner plays seat 0 of ``daguai/DaGuai-v0`` (its partners and opponents are
``heuristic``), one round per episode from random start states (so it meets every level
and the tribute / return decisions). The model: ``logits = W @ x + b`` over the legal ids
of the observation ``x`` (float32[633]), softmax over the legal ids only. The update:
REINFORCE with a running-mean baseline, ``W += lr * (G - baseline) * grad log pi(a | x)``,
where ``G`` is the round's score change of the learner's team (R13) — every decision of
the episode shares it (one reward at the end, no discount).

``policy`` is a plain callable ``policy(game, seat) -> action`` (what ``daguai.simulate``
and ``daguai.evaluate`` call): it loads ``reinforce_weights.npz`` next to this file when it
exists, else starts from zero weights (uniform over the legal ids). It reads the
observation tensor, which needs a recorded game (the evaluation's Python path records).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import daguai
import numpy as np
from daguai.learn import NUM_ABSTRACT, OBS_SIZE

WEIGHTS = Path(__file__).with_name("reinforce_weights.npz")


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Softmax over the ids where ``mask`` is 1 (0 elsewhere)."""
    legal = mask != 0
    z = np.where(legal, logits, -np.inf)
    z = z - z[legal].max()
    p = np.exp(z)
    out: np.ndarray = p / p.sum()
    return out


class LinearPolicy:
    """``logits = W x + b`` over the abstract ids, softmax over the legal ones.

    Calling it as ``policy(game, seat)`` returns the action of the most probable legal id
    (``greedy=True``, the default for evaluation) or a sampled one.
    """

    def __init__(self, weights: np.ndarray | None = None, bias: np.ndarray | None = None,
                 greedy: bool = True, seed: int = 0) -> None:
        self.W = np.zeros((NUM_ABSTRACT, OBS_SIZE)) if weights is None else np.asarray(weights, float)
        self.b = np.zeros(NUM_ABSTRACT) if bias is None else np.asarray(bias, float)
        self.greedy = greedy
        self.rng = np.random.default_rng(seed)
        self.__name__ = "reinforce"  # the name reports use for callables

    # ---- the model ---------------------------------------------------------------------
    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return masked_softmax(self.W @ x + self.b, mask)

    def grad_log_prob(self, x: np.ndarray, mask: np.ndarray, a: int) -> tuple[np.ndarray, np.ndarray]:
        """(dW, db) of log pi(a | x): (onehot(a) - p) outer x, and onehot(a) - p."""
        g = -self.probabilities(x, mask)
        g[a] += 1.0
        return np.outer(g, x), g

    def choose(self, x: np.ndarray, mask: np.ndarray, greedy: bool | None = None) -> int:
        p = self.probabilities(x, mask)
        if self.greedy if greedy is None else greedy:
            return int(np.argmax(p))
        return int(self.rng.choice(NUM_ABSTRACT, p=p))

    # ---- the daguai policy interface ---------------------------------------------------
    def __call__(self, game: daguai.Game, seat: int) -> daguai.Action:
        x = daguai.learn.encode_observation(game, seat)
        a = self.choose(x.astype(float), daguai.learn.abstract_mask(game))
        return daguai.learn.action_from_abstract(game, a)

    # ---- files -------------------------------------------------------------------------
    def save(self, path: Path = WEIGHTS) -> None:
        np.savez_compressed(path, W=self.W.astype(np.float32), b=self.b.astype(np.float32))

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> LinearPolicy:
        with np.load(path) as f:
            return cls(f["W"], f["b"])


def train(episodes: int = 300, seed: int = 0, lr: float = 0.01, opponents: str = "heuristic",
          policy: LinearPolicy | None = None) -> tuple[LinearPolicy, list[float]]:
    """REINFORCE through ``daguai/DaGuai-v0``; returns the policy and every episode's return.

    Deterministic for a given seed: the environment plays ``Game(seed, game=k)`` in episode
    k, and the sampling of actions uses ``numpy.random.default_rng(seed)``.
    """
    import daguai.learn.envs.gym_env  # noqa: F401 - registers daguai/DaGuai-v0
    import gymnasium

    if policy is None:
        policy = LinearPolicy(seed=seed)
    policy.rng = np.random.default_rng(seed)
    env = gymnasium.make("daguai/DaGuai-v0", seat=0, opponents=opponents)
    baseline = 0.0
    returns: list[float] = []
    obs, _ = env.reset(seed=seed)
    for _ in range(episodes):
        steps: list[tuple[np.ndarray, np.ndarray, int]] = []
        done, ret = False, 0.0
        while not done:
            x = obs["observation"].astype(float)
            mask = obs["action_mask"]
            a = policy.choose(x, mask, greedy=False)
            steps.append((x, mask, a))
            obs, reward, terminated, truncated, _ = env.step(a)
            ret += float(reward)
            done = terminated or truncated
        advantage = ret - baseline
        baseline += 0.05 * (ret - baseline)  # running mean of the returns
        if advantage != 0.0:
            for x, mask, a in steps:
                dW, db = policy.grad_log_prob(x, mask, a)
                policy.W += lr * advantage * dW
                policy.b += lr * advantage * db
        returns.append(ret)
        obs, _ = env.reset()
    env.close()
    return policy, returns


def _load_default() -> LinearPolicy:
    return LinearPolicy.load() if WEIGHTS.exists() else LinearPolicy()


#: The policy ``daguai evaluate examples.reinforce:policy heuristic`` evaluates.
policy: Any = _load_default()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--deals", type=int, default=100, help="deals of the final evaluation")
    args = parser.parse_args(argv)
    trained, returns = train(args.episodes, args.seed, args.lr)
    trained.save()
    tail = returns[-min(len(returns), 100):]
    print(f"trained {args.episodes} episodes; mean return of the last {len(tail)}: "
          f"{np.mean(tail):+.3f}; weights in {WEIGHTS}")
    result = daguai.evaluate(trained, "heuristic", args.deals, seed=args.seed + 1)
    print(result)


if __name__ == "__main__":
    main()
