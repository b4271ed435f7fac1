"""Type stubs for daguai._core.io: the io layer (cpp/bindings/io/): encoders for learners and the
abstract action space.

Hand-written; tests/dev/test_dev_stubs.py compares them with the bindings."""

from __future__ import annotations

from typing import SupportsIndex, overload

import numpy as np
import numpy.typing as npt
from daguai._core.game import Action, InfoState, _GameLike

OBS_VERSION: int
OBS_SIZE: int
NUM_ABSTRACT: int
CAND_FEATURES: int
def obs_slices() -> list[tuple[str, int, int, str]]: ...
def encode_view(view: InfoState) -> npt.NDArray[np.float32]: ...
def encode_observation(game: _GameLike, seat: int) -> npt.NDArray[np.float32]: ...
def encode_candidates(game: _GameLike) -> npt.NDArray[np.float32]: ...
def abstract_id(action: Action, level: str) -> int: ...
@overload
def abstract_mask(game: _GameLike) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]]: ...
@overload
def abstract_mask(view: InfoState) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]]: ...
@overload
def action_from_abstract(game: _GameLike, id: SupportsIndex) -> Action: ...
@overload
def action_from_abstract(view: InfoState, id: SupportsIndex) -> Action: ...
