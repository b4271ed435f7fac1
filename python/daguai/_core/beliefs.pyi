"""Type stubs for daguai._core.beliefs: the beliefs layer (cpp/bindings/beliefs/): worlds consistent
with a view.

Hand-written; tests/dev/test_dev_stubs.py compares them with the bindings."""

from __future__ import annotations

from daguai._core.core import CoreRules
from daguai._core.game import GameState, InfoState, Position

def sample_worlds(view: InfoState, n: int, seed: int) -> list[GameState]: ...
def fill_hidden_hands(rules: CoreRules, position: Position, unknown: list[int], seed: int) -> list[str]: ...
