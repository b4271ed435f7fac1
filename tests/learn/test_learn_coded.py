"""Coded rows (daguai.learn.coded): a table of the distinct values and a code an entry give back
the stored bits exactly, whatever the parts, the values (signed zeros, NaN payloads, infinities)
or their number (one, two or four bytes a code), and bad input is refused by name."""

from __future__ import annotations

import numpy as np
import pytest
from daguai.learn.coded import CodedRows, RowCoder
from daguai.learn.shards import concatenate_popped
from hypothesis import given, settings
from hypothesis import strategies as st

_SPECIAL = [0.0, -0.0, np.inf, -np.inf, 1e-40, 1 / 3, 2 / 27, 0.3, 65504.0]


def _bits(x: np.ndarray) -> np.ndarray:
    return x.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[x.dtype.itemsize])


@settings(max_examples=60, deadline=None)
@given(dtype=st.sampled_from([np.float16, np.float32, np.float64]),
       pool=st.lists(st.floats(allow_nan=False, width=16) | st.sampled_from(_SPECIAL), min_size=1,
                     max_size=40),
       sizes=st.lists(st.integers(0, 30), min_size=1, max_size=5), cols=st.integers(1, 7),
       seed=st.integers(0, 2**32 - 1))
def test_coded_parts_read_back_the_stored_bits(dtype, pool, sizes, cols, seed):
    rng = np.random.default_rng(seed)
    values = np.array(pool, dtype)
    parts = [values[rng.integers(0, len(values), (n, cols))] for n in sizes]
    parts[0][:1, :1] = np.array(np.nan, dtype)  # a NaN too: told apart by its bits
    coder = RowCoder(dtype)
    codes = [coder.encode(p) for p in parts]
    want = np.concatenate(parts)
    rows = coder.rows(concatenate_popped(codes))
    assert codes == [] and rows.shape == want.shape and rows.dtype == want.dtype and len(rows) == len(want)
    assert rows.codes.dtype == np.uint8 and len(coder) == len(np.unique(_bits(want)))
    assert np.array_equal(_bits(rows[:]), _bits(want))
    idx = rng.integers(0, len(want), 9) if len(want) else np.zeros(0, np.int64)
    assert np.array_equal(_bits(rows[idx]), _bits(want[idx]))
    if len(want):
        assert np.array_equal(_bits(rows[len(want) - 1]), _bits(want[-1]))


def test_more_distinct_values_take_wider_codes_and_earlier_codes_stay_valid():
    coder = RowCoder(np.float32)
    small = np.arange(200, dtype=np.float32).reshape(100, 2)
    wide = np.arange(70_000, dtype=np.float32).reshape(-1, 2) + 0.5
    c1 = coder.encode(small)
    c2, c3 = coder.encode(np.arange(300, dtype=np.float32)[:, None]), coder.encode(wide)
    assert (c1.dtype, c2.dtype, c3.dtype) == (np.uint8, np.uint16, np.uint32)
    rows = coder.rows(np.concatenate([c1.ravel(), c2.ravel(), c3.ravel()]))
    want = np.concatenate([small.ravel(), np.arange(300, dtype=np.float32), wide.ravel()])
    assert np.array_equal(rows[:], want) and len(coder) == 300 + 35_000 * 2


def test_bad_input_is_refused_by_name():
    with pytest.raises(TypeError, match="float16, float32 or float64, not int32"):
        RowCoder(np.int32)
    coder = RowCoder(np.float32)
    with pytest.raises(TypeError, match="encodes float32 arrays, not float64"):
        coder.encode(np.zeros(3))
    with pytest.raises(TypeError, match="not list"):
        coder.encode([1.0])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a code \\(5\\) beyond the table of 2 values"):
        CodedRows(np.zeros(2, np.float32), np.array([0, 5], np.uint8))
    with pytest.raises(TypeError, match="unsigned integer codes"):
        CodedRows(np.zeros(2, np.float32), np.array([0, 1], np.int64))
