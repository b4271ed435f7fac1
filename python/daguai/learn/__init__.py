"""The learned player (docs/learning.md "The learned player"): Deep Monte-Carlo self-play
training, the ``.dgn`` weights file, and native inference in the engine.

Using a model needs only numpy: ``daguai.simulate("learned", "heuristic")`` plays the shipped
model, ``"path/to/model.dgn"`` any other. Training needs PyTorch (the ``train`` extra):
:func:`train`, :func:`export` and :class:`QNet` import it on first use (:class:`TrainConfig`,
the settings, needs no PyTorch and imports at once).

The environments for other people's learners (BatchEnv, Gymnasium, PettingZoo, OpenSpiel)
are :mod:`daguai.learn.envs`, apart from this trainer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _core
from .._core.game import Action
from .._core.learned import ACTION_FEATURES, LEARN_VERSION, STATE_FEATURES, ModelError, Network
from ..dgn import dgn_bytes, parse_dgn, read_dgn, write_dgn
from ..game import Game
from .config import TrainConfig
from .envs.batch_env import BatchEnv
from .tensors import (
    CAND_FEATURES,
    NUM_ABSTRACT,
    OBS_SIZE,
    OBS_VERSION,
    abstract_id,
    abstract_mask,
    action_from_abstract,
    encode_candidates,
    encode_observation,
    obs_meanings,
    obs_spec,
)

if TYPE_CHECKING:
    from .model import QNet
    from .runfiles import export
    from .trainer import TrainSummary, train

__all__ = [
    "ACTION_FEATURES",
    "BatchEnv",
    "CAND_FEATURES",
    "NUM_ABSTRACT",
    "OBS_SIZE",
    "OBS_VERSION",
    "abstract_id",
    "abstract_mask",
    "action_from_abstract",
    "encode_candidates",
    "encode_observation",
    "obs_meanings",
    "obs_spec",
    "pettingzoo_env",
    "LEARN_VERSION",
    "STATE_FEATURES",
    "ModelError",
    "Network",
    "QNet",
    "TrainConfig",
    "TrainSummary",
    "dgn_bytes",
    "export",
    "learn_features",
    "parse_dgn",
    "read_dgn",
    "train",
    "write_dgn",
]

def learn_features(game: Game | _core.game.GameState, *,
                   r11: bool = False) -> tuple[np.ndarray, list[Action], np.ndarray, int]:
    """The learned player's inputs for the seat to act (docs/learning.md "Features").

    Returns ``(state, candidates, actions, heuristic)``: ``float32[STATE_FEATURES]``, the
    play-phase candidates (one legal action per abstract id; none in other phases, unless
    ``r11``: then the R11 decisions' candidates too, as a network that makes them sees them), their
    ``float32[n, ACTION_FEATURES]`` rows, and the index of the heuristic's own action (-1
    when there are no candidates). Raises ``IllegalActionError`` when the match is over and
    ``ValueError`` for anything but a Game.
    """
    if not isinstance(game, (Game, _core.game.GameState)):
        raise ValueError(f"learn_features needs a daguai.Game, got {type(game).__name__}")
    if not isinstance(r11, bool):
        raise TypeError(f"r11 must be True or False, got {type(r11).__name__}")
    state, actions, feats, heuristic = _core.learned.learn_features(game, r11)
    return state, list(actions), feats, int(heuristic)


def pettingzoo_env(**kwargs: Any) -> Any:
    """The PettingZoo AEC environment (:func:`daguai.env.env`; keyword arguments of
    :class:`daguai.env.raw_env`). Needs ``pip install 'daguai[rl]'``; imported on first use,
    so ``import daguai.learn`` does not need PettingZoo. See docs/learning.md."""
    from .envs.pettingzoo_env import env as _env

    return _env(**kwargs)


_TORCH = {"QNet": "model", "TrainSummary": "trainer", "train": "trainer", "export": "runfiles"}


def __getattr__(name: str) -> Any:
    if name in _TORCH:
        import importlib

        try:
            module = importlib.import_module(f".{_TORCH[name]}", __name__)
        except ImportError as exc:
            if exc.name == "torch":
                raise ImportError("training needs PyTorch: pip install 'daguai[train]'") from None
            raise
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
