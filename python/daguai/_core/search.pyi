"""Type stubs for daguai._core.search: the search layer (cpp/bindings/search/): the search's figures.

Hand-written; tests/dev/test_dev_stubs.py compares them with the bindings."""

from __future__ import annotations

# m of inference (bind_search.cpp, engine/search/inference.hpp)
INFERENCE_WORLDS: int
MAX_ROLLOUTS: int  # the largest budget of one search
