"""The ``.dgn`` weights file of the learned player, read and written with numpy alone.

Layout (every number little-endian; the engine's reader is ``cpp/engine/learned/network.cpp``)::

    char[4]  "DGNN"
    u32      format (1)
    u32      feature version (daguai.learn.LEARN_VERSION)
    u32      state_dim, action_dim
    u32      L, the number of hidden layers (1..8), then u32 width[L]
    float32  margin: the switching rule (the policy deviates from the heuristic's choice
             only for a Q higher by more than this; >= 0)
    u32      meta_len, then meta_len bytes of UTF-8 JSON (how the model was made)
    float32  per layer, PyTorch's Linear layout: weight [out][in] row-major, then bias [out];
             layer 0 reads [state features, action features]; the last layer has out = 1
    u64      FNV-1a hash of every byte before it

Hidden layers are ReLU, the output is linear: ``Q(s, a)``.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core

__all__ = ["FORMAT", "Layers", "read_dgn", "write_dgn", "dgn_bytes", "parse_dgn"]

FORMAT = 1
_MAGIC = b"DGNN"
#: (weight [out, in], bias [out]) per layer, input layer first, output layer last.
Layers = list[tuple[np.ndarray, np.ndarray]]


def dgn_bytes(layers: Sequence[tuple[np.ndarray, np.ndarray]], meta: dict[str, Any] | None = None,
              margin: float = 0.0) -> bytes:
    """The ``.dgn`` bytes of ``layers`` (see the module docstring) with ``meta`` as JSON."""
    if not (isinstance(margin, (int, float)) and np.isfinite(margin) and margin >= 0):
        raise _core.ModelError(f"margin must be a finite number >= 0, got {margin!r}")
    state_dim, action_dim = int(_core.STATE_FEATURES), int(_core.ACTION_FEATURES)
    if len(layers) < 2:
        raise _core.ModelError("a model needs at least one hidden layer and an output layer")
    widths = [int(np.asarray(w).shape[0]) for w, _ in layers[:-1]]
    prev = state_dim + action_dim
    for k, (w, b) in enumerate(layers):
        w, b = np.asarray(w), np.asarray(b)
        out = widths[k] if k < len(widths) else 1
        if w.shape != (out, prev) or b.shape != (out,):
            raise _core.ModelError(f"layer {k}: weight {w.shape} / bias {b.shape}, expected "
                                   f"({out}, {prev}) / ({out},)")
        prev = out
    meta_text = json.dumps(meta or {}, sort_keys=True).encode()
    head = _MAGIC + struct.pack("<6I", FORMAT, int(_core.LEARN_VERSION), state_dim, action_dim,
                                len(widths), widths[0])
    head += struct.pack(f"<{len(widths) - 1}I", *widths[1:]) if len(widths) > 1 else b""
    head += struct.pack("<f", float(margin))
    head += struct.pack("<I", len(meta_text)) + meta_text
    body = b"".join(np.ascontiguousarray(w, dtype="<f4").tobytes()
                    + np.ascontiguousarray(b, dtype="<f4").tobytes() for w, b in layers)
    data = head + body
    return data + struct.pack("<Q", _core._dgn_hash(data))


def write_dgn(path: str | Path, layers: Sequence[tuple[np.ndarray, np.ndarray]],
              meta: dict[str, Any] | None = None, margin: float = 0.0) -> Path:
    """Write a ``.dgn`` file atomically (a reader never sees half a file); returns its path."""
    path = Path(path)
    data = dgn_bytes(layers, meta, margin)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return path


def parse_dgn(data: bytes) -> tuple[Layers, dict[str, Any], float]:
    """Layers, metadata and margin of ``.dgn`` bytes, checked by the engine's reader first."""
    net = _core.Network.from_bytes(bytes(data))  # ModelError names the first problem
    widths = list(net.widths)
    n_hidden = len(widths)
    off = 4 + 4 * 6 + 4 * (n_hidden - 1)
    (margin,) = struct.unpack_from("<f", data, off)
    (meta_len,) = struct.unpack_from("<I", data, off + 4)
    off += 8
    meta = json.loads(data[off:off + meta_len].decode()) if meta_len else {}
    off += meta_len
    layers: Layers = []
    prev = int(_core.STATE_FEATURES) + int(_core.ACTION_FEATURES)
    for out in [*widths, 1]:
        w = np.frombuffer(data, dtype="<f4", count=out * prev, offset=off).reshape(out, prev)
        off += 4 * out * prev
        b = np.frombuffer(data, dtype="<f4", count=out, offset=off)
        off += 4 * out
        layers.append((w.astype(np.float32), b.astype(np.float32)))
        prev = out
    return layers, meta, float(margin)


def read_dgn(path: str | Path) -> tuple[Layers, dict[str, Any], float]:
    """Layers, metadata and margin of a ``.dgn`` file (ModelError if it is not a valid one)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise _core.ModelError(f"model file: cannot read {str(path)!r} ({exc.strerror})") from None
    return parse_dgn(data)
