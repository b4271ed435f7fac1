"""Type stubs for daguai._core.learned: the learned layer (cpp/bindings/learned/): the network of a
.dgn file, its features.

Hand-written; tests/dev/test_dev_stubs.py compares them with the bindings."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from daguai._core.game import Action, _GameLike

class ModelError(ValueError): ...
LEARN_VERSION: int
STATE_FEATURES: int
ACTION_FEATURES: int
ACTION_HEURISTIC: int
MAX_MODELS: int
MAX_MODEL_LAYERS: int  # the bounds of a .dgn file (format.hpp)
MAX_MODEL_WIDTH: int
MAX_MODEL_META: int
class Network:
    @staticmethod
    def from_bytes(data: bytes) -> Network: ...
    @staticmethod
    def from_file(path: str) -> Network: ...
    def to_bytes(self) -> bytes: ...
    @property
    def widths(self) -> list[int]: ...
    @property
    def meta(self) -> str: ...
    @property
    def margin(self) -> float: ...
    @property
    def parameters(self) -> int: ...
    def evaluate(self, state: npt.ArrayLike, actions: npt.ArrayLike, *,
                 quantized: bool = ...) -> npt.NDArray[np.float32]: ...
def learn_features(
    game: _GameLike,
) -> tuple[npt.NDArray[np.float32], list[Action], npt.NDArray[np.float32], int]: ...
def candidate_features(
    game: _GameLike,
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.float32]]: ...
def _dgn_hash(data: bytes) -> int: ...
def _set_builtin_model(path: str, table: str = "6p3d") -> None: ...
