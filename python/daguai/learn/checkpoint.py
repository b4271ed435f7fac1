"""Reading a training run's checkpoint safely: PyTorch's weights-only loader, every failure a
``ModelError`` naming the file (a run folder may come from someone else)."""

from __future__ import annotations

import contextlib
import math
import os
import re
import stat
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import torch

from ..codec import short_repr
from ..dgn import MAX_DGN_BYTES
from .config import config_from_json

__all__ = ["load_checkpoint", "checkpoint_part", "MAX_CHECKPOINT_BYTES"]

#: The largest checkpoint read: the network, Adam's two moments of it, the previous
#: weights as a ``.dgn`` (each at most a .dgn file's size) and the logs.
MAX_CHECKPOINT_BYTES = 4 * MAX_DGN_BYTES + (64 << 20)
_MAX_COUNT = 2**62  # steps, frames, rounds
_ZIP = b"PK\x03\x04"  # torch.save writes a zip archive


def load_checkpoint(path: Path) -> dict[str, Any]:
    """The checkpoint at ``path``, read with ``torch.load(weights_only=True)``.

    A pickle can run any code when it is loaded, and a run folder may come from someone
    else; PyTorch's weights-only unpickler admits tensors, numbers, text, bytes and
    containers and refuses every other global, so a crafted file raises instead of running.
    That is why the configuration is stored as its JSON dict, not as the dataclass. The file
    must be a regular file of at most :data:`MAX_CHECKPOINT_BYTES` (a FIFO, a device such as
    a symlink to ``/dev/zero`` or a folder is refused before anything is read), and every
    field is checked before it is used. Every failure (a folder, garbage, a crafted or
    truncated file, another program's checkpoint, a field of the wrong type or range) is one
    ``ModelError`` naming the file and the field (the command line exits 2 with one line).
    """
    from .._core.learned import ModelError

    name = str(path)
    with _open(name) as fh:
        if fh.read(4) != _ZIP:
            raise ModelError(f"checkpoint {name!r} is not a daguai checkpoint: not a PyTorch archive "
                             "(daguai train writes a zip file)")
        fh.seek(0)
        try:
            with warnings.catch_warnings():  # torch's warnings about the file: the error says it
                warnings.simplefilter("ignore")
                ckpt = torch.load(fh, weights_only=True)
        except OSError as exc:
            raise ModelError(f"checkpoint {name!r}: cannot read it ({exc.strerror or exc})") from None
        except Exception as exc:  # UnpicklingError, RuntimeError (a corrupt zip), EOFError, ...
            raise ModelError(f"checkpoint {name!r} is not a daguai checkpoint: {_refusal(exc)}") from None
    _check_fields(ckpt, name)
    return ckpt


def _open(name: str) -> IO[bytes]:
    """The file, opened only if it is a regular file no larger than any checkpoint."""
    from .._core.learned import ModelError

    try:
        st = os.stat(name)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        why = getattr(exc, "strerror", None) or exc
        raise ModelError(f"checkpoint {name!r}: cannot read it ({why})") from None
    if stat.S_ISDIR(st.st_mode):
        raise ModelError(f"checkpoint {name!r} is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise ModelError(f"checkpoint {name!r} is not a regular file (a FIFO, a device or a socket): "
                         "refused before reading")
    if st.st_size > MAX_CHECKPOINT_BYTES:
        raise ModelError(f"checkpoint {name!r}: {st.st_size:,} bytes, larger than any daguai checkpoint "
                         f"({MAX_CHECKPOINT_BYTES:,} at most)")
    # O_NONBLOCK: should the path become a FIFO after the stat, the open does not wait
    fh = os.fdopen(os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb")
    if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
        fh.close()
        raise ModelError(f"checkpoint {name!r} is not a regular file: refused before reading")
    return fh


def _refusal(exc: Exception) -> str:
    """Why the weights-only loader refused a file, in our words: its own message is a
    paragraph that ends by suggesting the unsafe loader, which a crafted file must not get."""
    text = str(exc)
    found = re.search(r"GLOBAL ([\w.]+)", text)
    if found:
        return f"it holds {found.group(1)}, a global the safe (weights-only) loader refuses"
    if "zip" in text.lower() or "archive" in text.lower() or isinstance(exc, EOFError):
        return "a corrupt or truncated archive"
    found = re.search(r"WeightsUnpickler error:\s*(\S[^\n]*)", text)
    if found:  # e.g. "Unsupported operand 149": a pickle the safe loader cannot read
        return f"the safe (weights-only) loader refused it ({found.group(1).strip()[:120]})"
    return f"the safe (weights-only) loader refused it ({type(exc).__name__})"


def _count(v: Any) -> bool:
    return type(v) is int and 0 <= v <= _MAX_COUNT


def _scalar(v: Any) -> bool:
    """A value that goes into a model's JSON metadata as it is."""
    return v is None or type(v) in (str, bool, int) or (type(v) is float and math.isfinite(v))


def _record_problem(v: Any, needs: tuple[str, ...]) -> str | None:
    """What is wrong with a list of log records (dicts of JSON scalars having ``needs``)."""
    if not isinstance(v, list):
        return f"must be a list, got {type(v).__name__}"
    for i, e in enumerate(v):
        if not isinstance(e, dict) or not all(isinstance(k, str) and _scalar(x) for k, x in e.items()):
            return f"entry {i} must be a dict of numbers and text, got {short_repr(e)}"
        for key in needs:
            text = key == "command"
            if type(e.get(key)) not in ((str,) if text else (int, float)):  # finite: _scalar
                return f"entry {i} has no {'text' if text else 'finite number'} {key!r}"
    return None


_FIELDS: dict[str, tuple[Any, str]] = {
    "net": (lambda v: isinstance(v, Mapping) and all(isinstance(k, str) and isinstance(t, torch.Tensor)
                                                     for k, t in v.items()), "a state dict of tensors"),
    "opt": (lambda v: isinstance(v, dict), "an optimizer state dict"),
    "step": (_count, f"an integer in [0, {_MAX_COUNT}]"),
    "frames": (_count, f"an integer in [0, {_MAX_COUNT}]"),
    "rounds": (_count, f"an integer in [0, {_MAX_COUNT}]"),
    "prev_weights": (lambda v: type(v) is bytes and len(v) > 0, "the bytes of a .dgn model"),
    "frames_issue": (lambda v: isinstance(v, (tuple, list)) and len(v) == 2 and all(map(_count, v)),
                     "two frame counts"),
    "wall": (lambda v: type(v) in (int, float) and math.isfinite(v) and v >= 0, "seconds (a number >= 0)"),
    "evals": (lambda v: _record_problem(v, ("mean", "lo", "hi")) is None,
              "a list of evaluations with finite 'mean', 'lo' and 'hi'"),
    "config": (lambda v: isinstance(v, dict), "a configuration (a dict)"),
    "torch_rng": (lambda v: isinstance(v, torch.Tensor) and v.dtype == torch.uint8 and v.dim() == 1,
                  "a torch random state (a uint8 tensor)"),
}


def _check_fields(ckpt: Any, name: str) -> None:
    """Every field of a loaded checkpoint, in place (the configuration becomes a
    ``TrainConfig``); the first bad one is a ``ModelError`` naming it."""
    from .._core.learned import ModelError, Network

    if not isinstance(ckpt, dict):
        raise ModelError(f"checkpoint {name!r} is not a daguai checkpoint: a {type(ckpt).__name__}, "
                         "not a dict")
    missing = [k for k in _FIELDS if k not in ckpt]
    if missing:
        raise ModelError(f"checkpoint {name!r} is not a daguai checkpoint: no field {missing[0]!r}")

    def bad(field: str, why: str) -> ModelError:
        return ModelError(f"checkpoint {name!r}: field {field!r} {why}")

    for field, (ok, what) in _FIELDS.items():
        if not ok(ckpt[field]):
            why = _record_problem(ckpt[field], ("mean", "lo", "hi")) if field == "evals" else None
            raise bad(field, why or f"must be {what}, got {short_repr(ckpt[field])}")
    why = _record_problem(ckpt.get("commands", []), ("command",))
    if why:
        raise bad("commands", why)
    try:
        ckpt["config"] = config_from_json(ckpt["config"])
    except (ValueError, TypeError) as exc:
        raise bad("config", f"is not a training configuration ({exc})") from None
    try:
        widths = tuple(Network.from_bytes(ckpt["prev_weights"]).widths)
    except ValueError as exc:
        raise bad("prev_weights", f"is not a .dgn model ({' '.join(str(exc).split())[:200]})") from None
    if widths != tuple(ckpt["config"].widths):
        raise bad("prev_weights", f"has widths {widths}, the run {tuple(ckpt['config'].widths)}")


@contextlib.contextmanager
def checkpoint_part(path: Path) -> Iterator[None]:
    """Weights of the wrong shapes or types in a checkpoint: a ``ModelError`` naming it."""
    from .._core.learned import ModelError

    try:
        yield
    except (RuntimeError, KeyError, TypeError, ValueError, IndexError) as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
        raise ModelError(f"checkpoint {str(path)!r} does not fit its configuration ({first})") from None


