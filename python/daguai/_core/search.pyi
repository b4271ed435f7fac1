"""Type stubs for daguai._core.search: the search layer (cpp/bindings/search/): the search's figures,
and a search policy's decision with its race.

Hand-written; tests/dev/test_dev_stubs.py compares them with the bindings."""

from __future__ import annotations

from daguai._core.game import Action, _GameLike

# m of inference (bind_search.cpp, engine/search/inference.hpp)
INFERENCE_WORLDS: int
MAX_ROLLOUTS: int  # the largest budget of one search
# (action, searched, race seed, [(arm, n, wins, draws, losses, score, round, values)], best,
# rollouts): search.hpp SearchTrace
def _traced_decision(
    game: _GameLike, policy: str, seed: int, game_index: int
) -> tuple[Action, bool, int, list[tuple[Action, int, int, int, int, float, int, list[int]]], int, int]: ...
