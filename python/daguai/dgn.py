"""The ``.dgn`` weights file of the learned player, read and written with numpy alone.

Layout (every number little-endian; the engine's reader is ``cpp/engine/learned/network.cpp``)::

    char[4]  "DGNN"
    u32      format (1, or 2 for a network that also makes the R11 decisions)
    u32      feature version (daguai.learn.LEARN_VERSION)
    u32      state_dim, action_dim
    u32      L, the number of hidden layers (1..8), then u32 width[L]
    float32  margin: the switching rule (the policy deviates from the heuristic's choice
             only for a Q higher by more than this; >= 0)
    u32      format 2 only: decides, bit 0 set: the network also makes the R11 decisions
             (tribute, return, offer, take); no other bit
    u32      meta_len, then meta_len bytes of UTF-8 JSON (how the model was made)
    float32  per layer, PyTorch's Linear layout: weight [out][in] row-major, then bias [out];
             layer 0 reads [state features, action features]; the last layer has out = 1
    u64      FNV-1a hash of every byte before it

Hidden layers are ReLU, the output is linear: ``Q(s, a)``.
"""

from __future__ import annotations

import json
import os
import stat
import struct
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from . import _core
from ._core.learned import ModelError
from .rules import Rules

__all__ = ["FORMAT", "FORMAT_R11", "MAX_DGN_BYTES", "SHIPPED_MODELS", "decides_r11",
           "Layers", "read_dgn", "write_dgn", "dgn_bytes", "parse_dgn",
           "check_model_path", "read_model_file", "average_models", "models_digest", "MODEL_RULES",
           "check_model_rules"]

FORMAT = 1
#: The format of a network that also makes the R11 decisions (its ``decides`` word).
FORMAT_R11 = 2
_MAGIC = b"DGNN"
# the engine's bounds of a file (cpp/engine/learned/format.hpp)
_MAX_LAYERS, _MAX_WIDTH = _core.learned.MAX_MODEL_LAYERS, _core.learned.MAX_MODEL_WIDTH
_MAX_META = _core.learned.MAX_MODEL_META
_IN0 = int(_core.learned.STATE_FEATURES) + int(_core.learned.ACTION_FEATURES)

#: The shipped models behind the policy name "learned", one file per table (R18), in the
#: package's models/ folder: the package registers those present at import, and a table without
#: its own plays the 6p3d one (cpp/engine/learned/models.hpp).
SHIPPED_MODELS: dict[str, Path] = {"6p3d": Path(__file__).resolve().parent / "models" / "learned.dgn",
                                   "4p2d": Path(__file__).resolve().parent / "models" / "learned_4p2d.dgn"}


def _margin_offset(n_hidden: int) -> int:
    """Where the margin is: after the magic, format, feature version, state and action sizes,
    the layer count and the ``n_hidden`` widths."""
    return 4 + 4 * 5 + 4 * n_hidden


def _decides_bytes(fmt: int) -> int:
    """The size of the ``decides`` word after the margin: 4 in format 2, none in format 1."""
    return 4 if fmt >= FORMAT_R11 else 0


def _decides_word(data: bytes, n_hidden: int) -> int:
    """The ``decides`` word of a valid file's bytes (0 in format 1)."""
    if struct.unpack_from("<I", data, 4)[0] < FORMAT_R11:
        return 0
    return int(struct.unpack_from("<I", data, _margin_offset(n_hidden) + 4)[0])


def _file_bytes(widths: Sequence[int], meta_len: int, fmt: int = FORMAT) -> int:
    """The exact size of a ``.dgn`` file with these hidden widths and metadata length."""
    floats, prev = 0, _IN0
    for out in [*widths, 1]:
        floats += out * prev + out
        prev = out
    return _margin_offset(len(widths)) + 4 + _decides_bytes(fmt) + 4 + meta_len + 4 * floats + 8


#: No valid ``.dgn`` file is larger (8 layers of 4096 units and 1 MiB of metadata: ~470 MB);
#: a path to anything larger is refused by its size alone.
MAX_DGN_BYTES = _file_bytes([_MAX_WIDTH] * _MAX_LAYERS, _MAX_META, FORMAT_R11)
#: (weight [out, in], bias [out]) per layer, input layer first, output layer last.
Layers = list[tuple[np.ndarray, np.ndarray]]


def dgn_bytes(layers: Sequence[tuple[np.ndarray, np.ndarray]], meta: dict[str, Any] | None = None,
              margin: float = 0.0, *, r11: bool = False) -> bytes:
    """The ``.dgn`` bytes of ``layers`` (see the module docstring) with ``meta`` as JSON;
    ``r11``: the network also makes the R11 decisions (a format-2 file; else format 1)."""
    if not (isinstance(margin, (int, float)) and np.isfinite(margin) and margin >= 0):
        raise ModelError(f"margin must be a finite number >= 0, got {margin!r}")
    if not isinstance(r11, bool):
        raise ModelError(f"r11 must be True or False, got {r11!r:.40}")
    state_dim, action_dim = int(_core.learned.STATE_FEATURES), int(_core.learned.ACTION_FEATURES)
    if len(layers) < 2:
        raise ModelError("a model needs at least one hidden layer and an output layer")
    widths = [int(np.asarray(w).shape[0]) for w, _ in layers[:-1]]
    prev = state_dim + action_dim
    for k, (w, b) in enumerate(layers):
        w, b = np.asarray(w), np.asarray(b)
        out = widths[k] if k < len(widths) else 1
        if w.shape != (out, prev) or b.shape != (out,):
            raise ModelError(f"layer {k}: weight {w.shape} / bias {b.shape}, expected "
                                   f"({out}, {prev}) / ({out},)")
        prev = out
    meta_text = json.dumps(meta or {}, sort_keys=True).encode()
    head = _MAGIC + struct.pack("<6I", FORMAT_R11 if r11 else FORMAT, int(_core.learned.LEARN_VERSION),
                                state_dim, action_dim, len(widths), widths[0])
    head += struct.pack(f"<{len(widths) - 1}I", *widths[1:]) if len(widths) > 1 else b""
    head += struct.pack("<f", float(margin))
    if r11:
        head += struct.pack("<I", 1)  # decides: bit 0, the R11 decisions
    head += struct.pack("<I", len(meta_text)) + meta_text
    body = b"".join(np.ascontiguousarray(w, dtype="<f4").tobytes()
                    + np.ascontiguousarray(b, dtype="<f4").tobytes() for w, b in layers)
    data = head + body
    return data + struct.pack("<Q", _core.learned._dgn_hash(data))


def write_dgn(path: str | Path, layers: Sequence[tuple[np.ndarray, np.ndarray]],
              meta: dict[str, Any] | None = None, margin: float = 0.0, *, r11: bool = False) -> Path:
    """Write a ``.dgn`` file atomically (a reader never sees half a file); returns its path."""
    path = Path(path)
    data = dgn_bytes(layers, meta, margin, r11=r11)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError as exc:  # a folder at path, a full disk: no .tmp left behind
        tmp.unlink(missing_ok=True)
        raise ModelError(f"model file: cannot write {str(path)!r} ({exc.strerror or exc})") from None
    return path


def parse_dgn(data: bytes, *, meta: bool = True) -> tuple[Layers, dict[str, Any], float]:
    """Layers, metadata and margin of ``.dgn`` bytes, checked by the engine's reader first.

    The engine ignores the metadata; here it must be a JSON object (``ModelError`` otherwise,
    never a ``UnicodeDecodeError`` / ``JSONDecodeError`` / ``RecursionError``), unless
    ``meta=False`` (then ``{}`` is returned: what ``QNet.from_dgn`` asks, to load every file
    the engine loads)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ModelError(f"model bytes must be bytes, got {type(data).__name__}")
    data = bytes(data)
    net = _core.learned.Network.from_bytes(data)  # ModelError names the first problem
    widths = list(net.widths)
    n_hidden = len(widths)
    off = _margin_offset(n_hidden)
    (margin,) = struct.unpack_from("<f", data, off)
    off += 4 + _decides_bytes(struct.unpack_from("<I", data, 4)[0])  # the margin, [decides]
    (meta_len,) = struct.unpack_from("<I", data, off)
    off += 4
    info: dict[str, Any] = {}
    if meta and meta_len:
        from .errors import safe_json_loads

        info = safe_json_loads(data[off:off + meta_len], ModelError, "model file metadata")
        if not isinstance(info, dict):
            raise ModelError("model file metadata: not a JSON object, got "
                                   f"{type(info).__name__}")
    off += meta_len
    layers: Layers = []
    prev = _IN0
    for out in [*widths, 1]:
        w = np.frombuffer(data, dtype="<f4", count=out * prev, offset=off).reshape(out, prev)
        off += 4 * out * prev
        b = np.frombuffer(data, dtype="<f4", count=out, offset=off)
        off += 4 * out
        layers.append((w.astype(np.float32), b.astype(np.float32)))
        prev = out
    return layers, info, float(margin)


def decides_r11(data: bytes) -> bool:
    """Whether the ``.dgn`` bytes are of a network that also makes the R11 decisions (tribute,
    return, offer, take: a format-2 file's ``decides`` bit); ``ModelError`` if not a model."""
    return bool(_core.learned.Network.from_bytes(bytes(data)).decides_r11)


def check_model_path(path: str | os.PathLike[str]) -> tuple[str, os.stat_result]:
    """The path's text and ``stat`` if it may be a ``.dgn`` file: a regular file (after
    symlinks) of at most :data:`MAX_DGN_BYTES`; ``ModelError`` naming it otherwise. Only
    ``stat``: nothing is opened, so a FIFO or a device never blocks or streams."""
    if not isinstance(path, (str, os.PathLike)):
        raise ModelError(f"model file: a path is text, got {type(path).__name__}")
    name = os.fspath(path)
    try:
        st = os.stat(name)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        why = getattr(exc, "strerror", None) or str(exc)
        raise ModelError(f"model file: cannot read {name!r} ({why})") from None
    if not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise ModelError(f"model file {name!r} is {kind}")
    if st.st_size > MAX_DGN_BYTES:
        raise ModelError(f"model file {name!r}: {st.st_size:,} bytes, larger than any .dgn "
                               f"file ({MAX_DGN_BYTES:,} at most)")
    return name, st


def read_model_file(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a ``.dgn`` file, checked before any work its size does not bound.

    ``stat`` first: anything but a regular file (a folder, a FIFO that would block the read,
    a symlink to ``/dev/zero`` that would never end) and any file larger than
    :data:`MAX_DGN_BYTES` is refused; then the header alone is read, and a file whose size is
    not the header's (bad magic, a 1 GiB file named ``.dgn``) is refused before the rest is.
    Every refusal is a ``ModelError`` naming the path."""
    name, st = check_model_path(path)
    try:
        # O_NONBLOCK: should the path become a FIFO after the stat, the open does not wait
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise ModelError(f"model file {name!r} is not a regular file")
            head = fh.read(24)  # magic, format, version, state_dim, action_dim, L
            if len(head) < 24 or head[:4] != _MAGIC:
                raise ModelError(f"model file {name!r}: not a .dgn file (bad magic or too short)")
            fmt, n_hidden = struct.unpack_from("<I", head, 4)[0], struct.unpack_from("<I", head, 20)[0]
            if fmt not in (FORMAT, FORMAT_R11):
                raise ModelError(f"model file {name!r}: format {fmt}, this engine reads format "
                                 f"{FORMAT} to {FORMAT_R11}")
            if not 1 <= n_hidden <= _MAX_LAYERS:
                raise ModelError(f"model file {name!r}: {n_hidden} hidden layers "
                                       f"(1..{_MAX_LAYERS} allowed)")
            fields = 4 * n_hidden + 8 + _decides_bytes(fmt)  # widths, margin, [decides,] meta_len
            more = fh.read(fields)
            if len(more) < fields:
                raise ModelError(f"model file {name!r}: too short to be a .dgn file")
            widths = struct.unpack_from(f"<{n_hidden}I", more, 0)
            (meta_len,) = struct.unpack_from("<I", more, fields - 4)
            if fmt == FORMAT_R11 and (decides := struct.unpack_from("<I", more, fields - 8)[0]) & ~1:
                raise ModelError(f"model file {name!r}: unknown decision bits {decides} (bit 0, the "
                                 "R11 decisions, is the only one)")
            if any(not 1 <= w <= _MAX_WIDTH for w in widths):
                raise ModelError(f"model file {name!r}: layer widths {list(widths)} "
                                       f"(1..{_MAX_WIDTH} allowed)")
            if meta_len > _MAX_META:
                raise ModelError(f"model file {name!r}: metadata longer than 1 MiB")
            expected = _file_bytes(widths, meta_len, fmt)
            if st.st_size > expected:
                raise ModelError(f"model file {name!r}: {st.st_size - expected:,} bytes left over "
                                       f"after the {expected:,} its header describes")
            if st.st_size < expected:
                raise ModelError(f"model file {name!r}: {st.st_size:,} bytes, but its header "
                                       f"describes {expected:,} (truncated or corrupt)")
            data = head + more + fh.read(expected - len(head) - len(more) + 1)
            if len(data) != expected:
                raise ModelError(f"model file {name!r} changed while it was read")
            return data
    except OSError as exc:
        raise ModelError(f"model file: cannot read {name!r} ({exc.strerror})") from None


def read_dgn(path: str | Path) -> tuple[Layers, dict[str, Any], float]:
    """Layers, metadata and margin of a ``.dgn`` file (ModelError if it is not a valid one;
    the path is checked first, see :func:`read_model_file`)."""
    return parse_dgn(read_model_file(path))


def model_rules(path: str | Path) -> dict[str, Any]:
    """The rules a ``.dgn`` model was trained for, as a :meth:`daguai.Rules.to_dict`: its
    metadata's ``"rules"`` (written by ``daguai train --export``), else its training
    configuration's, else the default rules (6p3d): every model made before the rules were
    recorded came from a trainer whose rules were the defaults. ``ModelError`` if the file is
    not a valid model or its recorded rules are not valid rules."""
    try:
        _, meta, _ = parse_dgn(read_model_file(path))
    except ModelError:
        parse_dgn(read_model_file(path), meta=False)  # the weights are bad: that error
        meta = {}  # metadata that is not a JSON object records no rules (the engine ignores it)
    return _recorded_rules(meta, path)


def _recorded_rules(meta: dict[str, Any], path: str | os.PathLike[str]) -> dict[str, Any]:
    """The rules a model's parsed metadata records (:func:`model_rules`)."""
    from .rules import Rules

    recorded = meta.get("rules")
    if recorded is None and isinstance(meta.get("config"), dict):
        recorded = meta["config"].get("rules")
    if recorded is None:
        return Rules().to_dict()
    try:
        return Rules.from_dict(recorded).to_dict()
    except (ValueError, TypeError) as exc:
        raise ModelError(f"model file {str(path)!r}: its recorded rules are not valid rules "
                               f"({' '.join(str(exc).split())})") from None


def average_models(paths: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str],
                   margin: float | None = None, meta_from: str | os.PathLike[str] | None = None,
                   extra_meta: dict[str, Any] | None = None) -> Path:
    """Write the weight average of several models of one run to ``out`` (docs/learning.md
    "Weight averaging"): each weight and bias is the plain mean, in float64, of the models'
    float32 values, rounded once to float32. Snapshots of one training run a few minutes
    apart lie close together, and their mean plays better than any of them (SGD noise
    averages out, as in stochastic weight averaging).

    Every file must be a valid model (``ModelError`` naming it otherwise) with the same
    widths and the same rules (a ``ModelError`` naming both). ``margin``: the switching
    margin of the result (default: the last model's). The metadata is the last model's, or
    that of the model ``meta_from`` (e.g. the run's ``latest.dgn``, whose metadata lists the
    run's commands and configuration; it must be a model of the same rules), updated with
    ``extra_meta`` and ``"averaged"``: each input's file name and SHA-256."""
    import hashlib

    if isinstance(paths, (str, bytes, os.PathLike)):
        raise TypeError("average_models: paths is a list of model files, got one path")
    paths = list(paths)
    if not paths:
        raise ValueError("average_models: no models to average")
    if len(paths) > 1024:
        raise ValueError(f"average_models: {len(paths)} models, at most 1024")
    if margin is not None and (isinstance(margin, bool) or not isinstance(margin, (int, float))
                               or not 0 <= margin < float("inf")):
        raise ValueError(f"average_models: margin must be a finite number >= 0, got {margin!r:.40}")
    first_rules: dict[str, Any] | None = None
    sums: list[tuple[np.ndarray, np.ndarray]] = []
    inputs = []
    meta: dict[str, Any] = {}
    last_margin = 0.0
    r11: bool | None = None
    for p in paths:  # each file read and parsed once: its weights, metadata and rules
        data = read_model_file(p)
        layers, meta, last_margin = parse_dgn(data)
        this = bool(_decides_word(data, len(layers) - 1) & 1)  # parse_dgn checked the file
        if r11 is not None and this != r11:
            raise ModelError(f"average_models: {os.fspath(p)!r} {'makes' if not r11 else 'does not make'} "
                             f"the R11 decisions, the first model {'does' if r11 else 'does not'}")
        r11 = this
        if sums and [w.shape for w, _ in layers] != [w.shape for w, _ in sums]:
            raise ModelError(f"average_models: {os.fspath(p)!r} has widths "
                                   f"{[w.shape[0] for w, _ in layers[:-1]]}, the first model "
                                   f"{[w.shape[0] for w, _ in sums[:-1]]}")
        rules = _recorded_rules(meta, p)
        first_rules = rules if first_rules is None else first_rules
        if rules != first_rules:
            raise ModelError(f"average_models: {os.fspath(p)!r} is a model of the rules "
                                   f"{rules}, the first model of {first_rules}")
        if not sums:
            sums = [(w.astype(np.float64), b.astype(np.float64)) for w, b in layers]
        else:
            sums = [(sw + w, sb + b) for (sw, sb), (w, b) in zip(sums, layers, strict=True)]
        inputs.append({"file": Path(p).name, "sha256": hashlib.sha256(data).hexdigest()})
    if meta_from is not None:
        meta = read_dgn(meta_from)[1]
        if (rules := _recorded_rules(meta, meta_from)) != first_rules:
            raise ModelError(f"average_models: meta_from {os.fspath(meta_from)!r} is a model of "
                                   f"the rules {rules}, the models of {first_rules}")
    n = float(len(paths))
    mean = [((w / n).astype(np.float32), (b / n).astype(np.float32)) for w, b in sums]
    meta = {**meta, **(extra_meta or {}), "averaged": inputs}
    return write_dgn(out, mean, meta, margin=last_margin if margin is None else float(margin),
                     r11=bool(r11))


def models_digest(folder: str | os.PathLike[str]) -> str:
    """SHA-256 over the names and bytes of the ``.dgn`` files in ``folder`` (the shipped
    models: part of the identity of the built-in players that play them in the ladder's
    cache)."""
    import hashlib

    h = hashlib.sha256()
    for f in sorted(Path(folder).glob("*.dgn")):
        h.update(f.name.encode() + b"\0")
        h.update(hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()


#: What a game does with a ``.dgn`` model trained for other rules (:func:`check_model_rules`).
MODEL_RULES = ("same", "any")


def _rules_text(rules: Mapping[str, Any]) -> str:
    default = Rules().to_dict()
    changed = [f"{k}={v!r}" for k, v in rules.items() if v != default[k]]
    return f"Rules({', '.join(changed)})" if changed else "Rules() (the default rules, 6p3d)"


_rules_of_file = model_rules  # check_model_rules's argument below takes the name


def check_model_rules(policies: Any, rules: Rules, model_rules: Any = "same") -> None:
    """Refuse a ``.dgn`` model among ``policies`` that was trained for other rules than the
    game's (``ModelError``, a ValueError naming both rule sets), unless ``model_rules`` is
    ``"any"``. A model's rules are its file's (:func:`model_rules`); the built-in
    name ``learned`` plays the model of the game's table and is never refused (R18). A search
    over a model (``"expert@m.dgn"``, docs/search.md) is its model's file."""
    if not isinstance(model_rules, str) or model_rules not in MODEL_RULES:
        raise ValueError(f"model_rules must be 'same' or 'any', got {model_rules!r:.80}")
    if model_rules == "any":
        return
    game = rules.to_dict()
    # each model file once, however many seats play it (reading one parses its whole file)
    for p in dict.fromkeys(p.rpartition("@")[2] for p in policies if isinstance(p, str)):
        if p.endswith(".dgn"):
            trained = _rules_of_file(p)
            if trained != game:
                raise _core.learned.ModelError(
                    f"model {p!r} was trained for {_rules_text(trained)}, not for this game's "
                    f"{_rules_text(game)}; play it anyway with model_rules='any' "
                    "(command line: --any-model-rules)")
