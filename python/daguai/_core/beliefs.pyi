"""Type stubs for daguai._core.beliefs: the beliefs layer (cpp/bindings/beliefs/): worlds consistent
with a view.

Hand-written; tests/dev/test_dev_stubs.py compares them with the bindings."""

from __future__ import annotations

from daguai._core.game import GameState, InfoState

def sample_worlds(view: InfoState, n: int, seed: int) -> list[GameState]: ...
