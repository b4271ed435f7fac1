"""Type stubs for daguai._core.catalog: the catalog layer (cpp/bindings/catalog/): every policy by
name and kind; analyze.

Hand-written; tests/dev/test_dev_stubs.py compares them with the bindings."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypedDict

from daguai._core.game import Action, _GameLike

def policy_names() -> list[str]: ...
class _PolicyEntry(TypedDict):
    name: str
    kind: str  # "rule", "search" or "model"
    rollouts: int | None
    model: str | None  # the model it reads ("learned": the table's shipped one), or None
def policy_entries() -> list[_PolicyEntry]: ...
def _search(game: _GameLike, rollouts: int, ms: float, threads: int, rollout: str, seed: int,
            max_candidates: int = ..., incumbent: int = ...,
            progress: Callable[[float, float], Any] | None = ..., inference: str = ...,
            inference_worlds: int = ..., inference_noise: float = ...,
            inference_temperature: float = ..., value_plies: int = ...,
            plays: Sequence[Any] | None = ...,
            ) -> tuple[list[tuple[list[Action], int, int, int, int, float, int, list[int]]],
                       int, int, int, int, int, int]: ...
# (action, searched, race seed, [(arm, n, wins, draws, losses, score, round, values)], best,
# rollouts): search.hpp SearchTrace
def _traced_decision(
    game: _GameLike, policy: str, seed: int, game_index: int
) -> tuple[Action, bool, int, list[tuple[Action, int, int, int, int, float, int, list[int]]], int, int]: ...
def policy_id(name: str) -> int: ...
