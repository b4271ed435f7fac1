"""The learned player (docs/learning.md "The learned player"): Deep Monte-Carlo self-play
training, the ``.dgn`` weights file, and native inference in the engine.

Using a model needs only numpy: ``daguai.simulate("learned", "heuristic")`` plays the shipped
model, ``"path/to/model.dgn"`` any other. Training needs PyTorch (the ``train`` extra):
:func:`train`, :class:`TrainConfig`, :func:`export` and :class:`QNet` import it on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._core import ACTION_FEATURES, LEARN_VERSION, STATE_FEATURES, ModelError, Network, learn_features
from .dgn import dgn_bytes, parse_dgn, read_dgn, write_dgn

if TYPE_CHECKING:
    from .model import QNet
    from .trainer import TrainConfig, TrainSummary, export, train

__all__ = [
    "ACTION_FEATURES",
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

_TORCH = {"QNet": "model", "TrainConfig": "trainer", "TrainSummary": "trainer", "train": "trainer",
          "export": "trainer"}


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
