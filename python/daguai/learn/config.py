"""The settings of a training run (:class:`TrainConfig`), apart from the trainer so that
reading them needs no PyTorch: ``daguai train`` takes its options' defaults from here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from .. import _core
from ..rules import Rules

__all__ = ["TrainConfig", "DEFAULT_WIDTHS", "MAX_ACTORS", "check_widths"]

#: Hidden widths of the shipped model (docs/learning.md "Network").
DEFAULT_WIDTHS = (256, 128)
#: The most actor processes a run may ask for.
MAX_ACTORS = 256


def check_widths(widths: Sequence[int]) -> tuple[int, ...]:
    """The hidden widths of a network as a tuple; ``ModelError`` unless 1..8 layers of
    1..4096 units (``QNet`` and :meth:`TrainConfig.check` both ask)."""
    out = tuple(int(w) for w in widths)
    if not 1 <= len(out) <= 8 or any(not 1 <= w <= 4096 for w in out):
        raise _core.ModelError(f"widths must be 1..8 layers of 1..4096 units, got {out}")
    return out


@dataclass(frozen=True)
class TrainConfig:
    """Settings of a training run (docs/learning.md "Training"; ``daguai train --help``)."""

    seed: int = 0
    actors: int = 1
    games_per_task: int = 32
    epsilon: float = 0.02  # the main line plays a random candidate (state diversity)
    branch: float = 1.0  # the share of recorded decisions that are branched (pairs)
    margin: float = 0.05  # the policy's switching rule (learned.hpp learned_pick)
    pair_weight: float = 1.0  # weight of the pair-difference loss
    lr: float = 3e-4
    batch: int = 1024
    widths: tuple[int, ...] = DEFAULT_WIDTHS
    warm_frames: int = 2_000_000  # frames of the warm start (0: none)
    self_play: float = 0.5  # after the warm start: share of self-play tasks (else vs heuristic)
    reward: str = "wl"  # "wl": +1 win / 0 draw / -1 loss (R13 winner); "score": score change / 3
    eval_every: int = 100  # steps between evaluations against heuristic (0: never)
    eval_deals: int = 300
    eval_seed: int = 1_000_003
    threads: int = 1  # the learner's torch threads
    rules: Rules = field(default_factory=Rules)

    def check(self) -> TrainConfig:
        ints = {"seed": (0, 2**64 - 1), "actors": (1, MAX_ACTORS), "games_per_task": (1, 1 << 16),
                "batch": (1, 1 << 20), "warm_frames": (0, 2**62), "eval_every": (0, 1 << 30),
                "eval_deals": (1, 1 << 20), "eval_seed": (0, 2**64 - 1), "threads": (1, 256)}
        for name, (lo, hi) in ints.items():
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {v!r}")
        for name, lo, hi in (("epsilon", 0.0, 1.0), ("self_play", 0.0, 1.0), ("lr", 1e-8, 1.0),
                             ("branch", 0.0, 1.0), ("margin", 0.0, 10.0), ("pair_weight", 0.0, 100.0)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
                raise ValueError(f"{name} must be a number in [{lo}, {hi}], got {v!r}")
        if self.reward not in ("wl", "score"):
            raise ValueError(f"reward must be 'wl' or 'score', got {self.reward!r}")
        if not isinstance(self.rules, Rules):
            raise ValueError(f"rules must be a daguai.Rules, got {type(self.rules).__name__}")
        return replace(self, widths=check_widths(self.widths))
