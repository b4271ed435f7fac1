"""The check that a model's weights are the mean of its parts (training/average.py,
daguai.dgn.average_models): each weight the float64 mean of the parts' weights, rounded once to
float32, exactly."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def assert_weight_mean(layers: Sequence[tuple[np.ndarray, np.ndarray]],
                       parts: Sequence[Sequence[tuple[np.ndarray, np.ndarray]]]) -> None:
    """``layers`` (a ``read_dgn`` model's (weight, bias) pairs) are the mean of ``parts``."""
    assert parts and all(len(p) == len(layers) for p in parts)
    for k, (w, b) in enumerate(layers):
        for got, i in ((w, 0), (b, 1)):
            mean = sum(p[k][i].astype(np.float64) for p in parts) / len(parts)
            assert got.dtype == np.float32 and np.array_equal(got, mean.astype(np.float32)), (k, i)
