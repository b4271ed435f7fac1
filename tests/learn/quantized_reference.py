"""A slow, plain reading of the integer pass (cpp/engine/learned/quantized.hpp), the reference
the native one must equal exactly: numpy int64 sums, layer 0 reduced modulo 2^32 at the end,
no swizzle, no cache, no split of the hand, one candidate at a time."""

from __future__ import annotations

import numpy as np

IN_SHIFT, ACT_SHIFT, ACT_MAX = 10, 9, 32767
_ACC_LIMIT = 2147483647.0 * 0.98


def quantize_inputs(x: np.ndarray) -> np.ndarray:
    s = np.asarray(x, np.float32) * np.float32(1 << IN_SHIFT)
    s = np.where(np.isnan(s), np.float32(0), s).astype(np.float32)
    s = np.minimum(np.maximum(s, np.float32(-32767)), np.float32(32767)).astype(np.float32)
    s = (s + np.copysign(np.float32(0.5), s)).astype(np.float32)
    return np.trunc(s).astype(np.int64)


def _layer0_shift(w: np.ndarray, b: np.ndarray) -> int:
    largest = float(np.abs(w).max()) if w.size else 0.0
    bias = float(np.abs(b).max()) if b.size else 0.0
    for s0 in range(24, -1, -1):
        if np.rint(largest * 2.0**s0) <= 32767 and bias * 2.0 ** (s0 + IN_SHIFT) <= 2147483647.0 * 0.5:
            return s0
    raise ValueError("layer 0 weights too large")


def _later_shift(w: np.ndarray, b: np.ndarray) -> int:
    """w: (out, in) float32."""
    w64, b64 = w.astype(np.float64), b.astype(np.float64)
    for shift in range(24, -1, -1):
        q = np.rint(w64 * 2.0**shift)
        if np.abs(q).max() > 32767:
            continue
        rows = np.abs(np.rint(b64 * 2.0**shift * (1 << ACT_SHIFT))) + np.abs(q).sum(axis=1) * ACT_MAX
        if rows.max() <= _ACC_LIMIT:
            return shift
    raise ValueError("layer too large")


def _wrap32(v: np.ndarray) -> np.ndarray:
    return ((v + 2**31) % 2**32) - 2**31


def integer_q(layers, state: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """layers: [(w (out, in), b (out,)), ...] as daguai.dgn.read_dgn gives them."""
    (w0, b0), rest = layers[0], layers[1:]
    w0 = np.asarray(w0, np.float32).astype(np.float64)
    b0 = np.asarray(b0, np.float32).astype(np.float64)
    s0 = _layer0_shift(w0, b0)
    w0q = np.rint(w0 * 2.0**s0).astype(np.int64)  # (h0, inputs)
    b0q = np.rint(b0 * 2.0**s0 * (1 << IN_SHIFT)).astype(np.int64)
    shift0 = IN_SHIFT + s0 - ACT_SHIFT
    later = []
    for w, b in rest:
        w, b = np.asarray(w, np.float32), np.asarray(b, np.float32)
        shift = _later_shift(w, b)
        later.append((np.rint(w.astype(np.float64) * 2.0**shift).astype(np.int64),
                      np.rint(b.astype(np.float64) * 2.0**shift * (1 << ACT_SHIFT)).astype(np.int64), shift))
    xs = quantize_inputs(state)
    out = []
    for a in np.asarray(actions, np.float32):
        x = np.concatenate([xs, quantize_inputs(a)])
        acc = _wrap32(b0q + w0q @ x)
        h = np.clip(acc >> shift0, 0, ACT_MAX)
        for k, (wq, bq, shift) in enumerate(later):
            y = bq + wq @ h
            if k + 1 == len(later):
                out.append(np.float32(y[0]) * np.float32(2.0 ** -(ACT_SHIFT + shift)))
            else:
                h = np.clip(y >> shift, 0, ACT_MAX)
    return np.asarray(out, np.float32)
