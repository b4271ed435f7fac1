"""Float rows kept exactly in a byte an entry: a table of the distinct values and a code each.

A fit's label states (``STATE_FEATURES`` floats a position) and candidate rows
(``ACTION_FEATURES`` a candidate) hold about a hundred distinct values between them (counts,
flags, small fractions), so one byte an entry names each exactly (two bytes past 256 distinct
values, four past 65,536). Reading rows back gives the stored bits, so a fit over coded rows
computes what it computes over the arrays themselves (tests/learn/test_learn_coded.py), in a
quarter of the memory of float32 states and half that of float16 candidate rows
(docs/learning.md "Labels held coded").
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["CodedRows", "RowCoder"]

_BITS = {np.dtype(np.float16): np.uint16, np.dtype(np.float32): np.uint32, np.dtype(np.float64): np.uint64}


class CodedRows:
    """Rows read as ``table[codes[i]]``: indexed like the array they stand for (an integer, a
    slice, an index array), with its ``dtype``, ``shape`` and length."""

    def __init__(self, table: np.ndarray, codes: np.ndarray) -> None:
        if table.ndim != 1 or codes.dtype.kind != "u":
            raise TypeError("CodedRows takes a 1-d table and unsigned integer codes")
        if codes.size and int(codes.max()) >= len(table):
            raise ValueError(f"a code ({int(codes.max())}) beyond the table of {len(table)} values")
        self.table, self.codes = table, codes

    @property
    def dtype(self) -> np.dtype[Any]:
        return self.table.dtype

    @property
    def shape(self) -> tuple[int, ...]:
        return self.codes.shape

    @property
    def nbytes(self) -> int:
        return int(self.codes.nbytes + self.table.nbytes)

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, index: Any) -> np.ndarray:
        return self.table[self.codes[index]]


class RowCoder:
    """Codes the arrays of one float dtype into one shared table: :meth:`encode` each part as it
    is read (its codes stay valid as the table grows: codes are never reassigned), then
    :meth:`rows` over their concatenation. Values are told apart by their bits (``-0.0`` and
    ``0.0`` are two values, a NaN keeps its payload)."""

    def __init__(self, dtype: Any) -> None:
        self.dtype = np.dtype(dtype)
        if self.dtype not in _BITS:
            raise TypeError(f"RowCoder codes float16, float32 or float64, not {self.dtype}")
        self._bits = np.dtype(_BITS[self.dtype])
        self._values = np.zeros(0, self._bits)  # the bits of code k at k
        self._sorted = np.zeros(0, self._bits)  # the same bits ascending
        self._sorted_code = np.zeros(0, np.int64)  # and their codes

    def __len__(self) -> int:
        """The distinct values seen so far."""
        return len(self._values)

    def _code_dtype(self) -> np.dtype[Any]:
        n = len(self._values)
        return np.dtype(np.uint8 if n <= 1 << 8 else np.uint16 if n <= 1 << 16 else np.uint32)

    def encode(self, x: np.ndarray) -> np.ndarray:
        """The codes of ``x`` (of this coder's dtype), of its shape: the smallest unsigned dtype
        that holds the table so far."""
        if not isinstance(x, np.ndarray) or x.dtype != self.dtype:
            raise TypeError(f"RowCoder({self.dtype}) encodes {self.dtype} arrays, not "
                            f"{getattr(x, 'dtype', type(x).__name__)}")
        bits = np.ascontiguousarray(x).view(self._bits).ravel()
        pos, hit = self._find(bits)
        if not hit.all():  # values not seen before: their codes follow the table's
            new = np.unique(bits[~hit])
            self._values = np.concatenate([self._values, new])
            order = np.argsort(self._values, kind="stable")
            self._sorted, self._sorted_code = self._values[order], order
            pos, hit = self._find(bits)
        return self._sorted_code[pos].astype(self._code_dtype()).reshape(x.shape)

    def _find(self, bits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Where each of ``bits`` stands in the sorted table, and whether it is there."""
        if not len(self._sorted):
            return np.zeros(len(bits), np.int64), np.zeros(len(bits), bool)
        pos = np.minimum(np.searchsorted(self._sorted, bits), len(self._sorted) - 1)
        return pos, self._sorted[pos] == bits

    def table(self) -> np.ndarray:
        """The values, code k's at k."""
        return self._values.view(self.dtype).copy()

    def rows(self, codes: np.ndarray) -> CodedRows:
        """The rows these codes (of this coder's parts, concatenated) stand for."""
        return CodedRows(self.table(), codes)
