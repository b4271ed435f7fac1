"""Reading a training run's checkpoint safely: PyTorch's weights-only loader, every failure a
``ModelError`` naming the file (a run folder may come from someone else)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import torch

from .config import config_from_json

__all__ = ["load_checkpoint", "checkpoint_part"]


def load_checkpoint(path: Path) -> dict[str, Any]:
    """The checkpoint at ``path``, read with ``torch.load(weights_only=True)``.

    A pickle can run any code when it is loaded, and a run folder may come from someone
    else; PyTorch's weights-only unpickler admits tensors, numbers, text, bytes and
    containers and refuses every other global, so a crafted file raises instead of running.
    That is why the configuration is stored as its JSON dict, not as the dataclass. Every
    failure (a folder, garbage, a crafted or truncated file, another program's checkpoint)
    is a ``ModelError`` naming the file (the command line exits 2 with one line).
    """
    from .._core.learned import ModelError

    if path.is_dir():
        raise ModelError(f"checkpoint {str(path)!r} is a folder, not a file")
    try:
        ckpt = torch.load(path, weights_only=True)
    except OSError as exc:
        raise ModelError(f"checkpoint {str(path)!r}: cannot read it ({exc.strerror})") from None
    except Exception as exc:  # UnpicklingError, RuntimeError (not a zip), EOFError, ...
        lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()] or [type(exc).__name__]
        # PyTorch's refusal is a paragraph; its one informative line names the global
        first = next((ln for ln in lines if "GLOBAL" in ln or "global" in ln), lines[0])
        first = first.replace("WeightsUnpickler error: ", "").split(". Please use")[0][:200]
        raise ModelError(f"checkpoint {str(path)!r} is not a daguai checkpoint (refused by the "
                         f"weights-only loader: {first})") from None
    keys = ("net", "opt", "step", "frames", "rounds", "prev_weights", "frames_issue", "wall",
            "evals", "config", "torch_rng")
    if not isinstance(ckpt, dict) or any(k not in ckpt for k in keys):
        raise ModelError(f"checkpoint {str(path)!r} is not a daguai checkpoint (keys missing)")
    try:
        ckpt["config"] = config_from_json(ckpt["config"])
    except (ValueError, TypeError) as exc:
        raise ModelError(f"checkpoint {str(path)!r}: bad configuration ({exc})") from None
    return ckpt


@contextlib.contextmanager
def checkpoint_part(path: Path) -> Iterator[None]:
    """Weights of the wrong shapes or types in a checkpoint: a ``ModelError`` naming it."""
    from .._core.learned import ModelError

    try:
        yield
    except (RuntimeError, KeyError, TypeError, ValueError, IndexError) as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
        raise ModelError(f"checkpoint {str(path)!r} does not fit its configuration ({first})") from None


