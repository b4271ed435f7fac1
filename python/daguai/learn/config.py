"""The trainer's settings and the checks of its paths and numbers, without PyTorch.

``daguai train`` runs every check here before it imports torch (2-12 s), so a bad number or
path gets its one line and exit 2 at once; :mod:`daguai.learn.trainer` runs the same
checks for the Python call.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from .. import _core
from .._core.learned import ModelError
from ..rules import Rules

__all__ = ["CHECKPOINT", "DEFAULT_WIDTHS", "MAX_ACTORS", "MAX_CONTINUATION", "SNAPSHOTS", "TrainConfig",
           "check_widths", "check_continuation", "check_export_path", "check_keep", "check_minutes",
           "check_plot_path", "check_run_dir", "check_step", "config_from_json", "config_json",
           "snapshots"]

CHECKPOINT = "checkpoint.pt"
#: A run's snapshots: ``snapshots/step{N}.dgn``, the model evaluated at step N.
SNAPSHOTS = "snapshots"
_SNAPSHOT = re.compile(r"step([0-9]{1,12})\.dgn")
#: Hidden widths of the shipped model (docs/learning.md "Network").
DEFAULT_WIDTHS = (256, 128)
#: The most actor processes a run may ask for.
MAX_ACTORS = 256
#: The most policies a continuation pool may hold (the engine's bound, run/self_play.hpp).
MAX_CONTINUATION: int = _core.run.MAX_CONTINUATION
# the engine's bounds of a model (cpp/engine/learned/format.hpp)
_MAX_LAYERS, _MAX_WIDTH = _core.learned.MAX_MODEL_LAYERS, _core.learned.MAX_MODEL_WIDTH


def check_widths(widths: Sequence[int]) -> tuple[int, ...]:
    """The hidden widths of a network as a tuple; ``ModelError`` (a ValueError) unless 1..8
    layers of 1..4096 units (``QNet`` asks; :meth:`TrainConfig.check` checks the same bounds)."""
    out = tuple(int(w) for w in widths)
    if not 1 <= len(out) <= _MAX_LAYERS or any(not 1 <= w <= _MAX_WIDTH for w in out):
        raise ModelError(f"widths must be 1..{_MAX_LAYERS} layers of 1..{_MAX_WIDTH} units, got {out}")
    return out


@dataclass(frozen=True)
class TrainConfig:
    """Settings of a training run (docs/learning.md "Training"; ``daguai train --help``)."""

    seed: int = 0
    actors: int = 1
    games_per_task: int = 32
    epsilon: float = 0.02  # the main line plays a random candidate (state diversity)
    branch: float = 1.0  # the share of recorded decisions that are branched (pairs)
    margin: float = 0.05  # the policy's switching rule (learned.hpp learned_pick)
    pair_weight: float = 1.0  # weight of the pair-difference loss
    lr: float = 3e-4
    batch: int = 1024
    widths: tuple[int, ...] = DEFAULT_WIDTHS
    warm_frames: int = 2_000_000  # frames of the warm start (0: none)
    self_play: float = 0.5  # after the warm start: share of self-play tasks (else vs heuristic)
    reward: str = "wl"  # "wl": +1 win / 0 draw / -1 loss (R13 winner); "score": score change / 3
    eval_every: int = 100  # steps between evaluations against heuristic (0: never)
    eval_deals: int = 300
    eval_seed: int = 1_000_003
    threads: int = 1  # the learner's torch threads
    rules: Rules = field(default_factory=Rules)
    # a .dgn model whose weights start a new run ("" = random weights); its widths are the
    # run's. The path is recorded, and the file is read once, when the run starts
    init: str = ""
    # the continuation pool (docs/learning.md "Iterated training"): the policies that play a
    # branch pair's rounds out, one drawn per game and seat; built-in names (not searches) or
    # .dgn paths, e.g. a frozen earlier generation. The files are read when the run starts
    continuation: tuple[str, ...] = ("heuristic",)
    # the network also makes (and learns) the R11 decisions: tribute, return, offer, take
    # (docs/learning.md "R11 decisions by the network"); its models are format-2 files that say so
    r11: bool = False

    def check(self) -> TrainConfig:
        ints = {"seed": (0, 2**64 - 1), "actors": (1, MAX_ACTORS), "games_per_task": (1, 1 << 16),
                "batch": (1, 1 << 20), "warm_frames": (0, 2**62), "eval_every": (0, 1 << 30),
                "eval_deals": (1, 1 << 20), "eval_seed": (0, 2**64 - 1), "threads": (1, 256)}
        for name, (lo, hi) in ints.items():
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {v!r}")
        for name, lo, hi in (("epsilon", 0.0, 1.0), ("self_play", 0.0, 1.0), ("lr", 1e-8, 1.0),
                             ("branch", 0.0, 1.0), ("margin", 0.0, 10.0), ("pair_weight", 0.0, 100.0)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
                raise ValueError(f"{name} must be a number in [{lo}, {hi}], got {v!r}")
        if not isinstance(self.r11, bool):
            raise ValueError(f"r11 must be True or False, got {self.r11!r:.40}")
        if self.reward not in ("wl", "score"):
            raise ValueError(f"reward must be 'wl' or 'score', got {self.reward!r}")
        if not isinstance(self.init, str) or len(self.init) > 4096 or "\0" in self.init:
            raise ValueError(f"init must be the path of a .dgn model (or ''), got {self.init!r:.80}")
        if not isinstance(self.rules, Rules):
            raise ValueError(f"rules must be a daguai.Rules, got {type(self.rules).__name__}")
        continuation = _continuation_names(self.continuation)
        widths = self.widths
        if (not isinstance(widths, (tuple, list)) or not 1 <= len(widths) <= _MAX_LAYERS
                or any(isinstance(w, bool) or not isinstance(w, int) or not 1 <= w <= _MAX_WIDTH
                       for w in widths)):
            raise ValueError(f"widths must be 1..{_MAX_LAYERS} layers of 1..{_MAX_WIDTH} units, "
                             f"got {widths!r}")
        return replace(self, widths=tuple(int(w) for w in widths), continuation=continuation)


def _continuation_names(pool: Any) -> tuple[str, ...]:
    """The continuation pool as a tuple of names, checked without reading a file: 1 to
    :data:`MAX_CONTINUATION` built-in policy names that are not searches, or ``.dgn`` paths
    (``ValueError`` naming the bad entry; :func:`check_continuation` reads the files)."""
    if isinstance(pool, str) or not isinstance(pool, (tuple, list)):
        raise ValueError(f"continuation must be a tuple of policy names or .dgn paths, got {pool!r:.80}")
    if not 1 <= len(pool) <= MAX_CONTINUATION:
        raise ValueError(f"continuation must hold 1..{MAX_CONTINUATION} policies, got {len(pool)}")
    kinds = {e["name"]: e["kind"] for e in _core.catalog.policy_entries()}
    kinds.setdefault("learned", "model")
    playable = sorted(n for n, k in kinds.items() if k != "search")
    for p in pool:
        if not isinstance(p, str) or len(p) > 4096 or "\0" in p:
            raise ValueError(f"continuation: a policy name or .dgn path, got {p!r:.80}")
        if p.endswith(".dgn"):
            continue
        if p not in kinds:
            raise ValueError(f"continuation: unknown policy {p!r:.80} (choose a .dgn path or one of "
                             f"{', '.join(playable)})")
        if kinds[p] == "search":
            raise ValueError(f"continuation: {p!r} is a search policy (too slow to play rounds out; "
                             "choose a model or a rule policy)")
    return tuple(pool)


def check_continuation(cfg: TrainConfig) -> None:
    """Read the continuation pool's model files: each must be a valid model (``ModelError``,
    a ValueError, naming the file) trained for the run's rules (as
    :func:`daguai.checks.check_model_rules`); the engine then knows every name."""
    from ..checks import check_model_rules

    for p in dict.fromkeys(cfg.continuation):
        if p.endswith(".dgn"):
            if not os.path.isfile(p):
                raise ValueError(f"continuation: no model file {p!r:.200}")
            try:
                check_model_rules([p], cfg.rules)
                _core.catalog.policy_id(p)
            except ValueError as exc:
                raise ModelError(f"continuation: {' '.join(str(exc).split())}") from None


def config_json(cfg: TrainConfig) -> dict[str, Any]:
    """The configuration as a JSON dict (the checkpoint's and the exported model's form)."""
    d = {f.name: getattr(cfg, f.name) for f in fields(cfg) if f.name != "rules"}
    d["rules"] = cfg.rules.to_dict()
    d["widths"] = list(cfg.widths)
    d["continuation"] = list(cfg.continuation)
    return d


def config_from_json(d: Any) -> TrainConfig:
    """Inverse of :func:`config_json`, checked (a checkpoint's file is untrusted)."""
    if not isinstance(d, dict):
        raise ValueError(f"the configuration must be a dict, got {type(d).__name__}")
    names = {f.name for f in fields(TrainConfig)}
    unknown = sorted(str(k) for k in d if k not in names)
    if unknown:
        raise ValueError(f"unknown configuration keys {unknown[:5]}")
    values = dict(d)
    if "rules" in values:
        values["rules"] = Rules.from_dict(values["rules"])
    if "widths" in values:
        if not isinstance(values["widths"], (list, tuple)):
            raise ValueError("widths must be a list of integers")
        values["widths"] = tuple(values["widths"])
    if "continuation" in values:
        if not isinstance(values["continuation"], (list, tuple)):
            raise ValueError("continuation must be a list of policy names or .dgn paths")
        values["continuation"] = tuple(values["continuation"])
    return TrainConfig(**values).check()


def check_minutes(name: str, value: Any, *, zero: bool = False) -> float:
    """A finite number of minutes, > 0 (or >= 0 with ``zero``), at most 10^6."""
    ok = (not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
          and (value >= 0 if zero else value > 0) and value <= 1e6)
    if not ok:
        bound = ">= 0" if zero else "> 0"
        raise ValueError(f"{name} must be a finite number of minutes {bound} (at most 1e6), got {value!r}")
    return float(value)


def _whole(name: str, value: Any, top: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
        raise ValueError(f"{name} must be {what} in [0, {top}], got {value!r:.40}")
    return int(value)


def check_keep(name: str, value: Any) -> int:
    """How many snapshots a run keeps: a whole number in [0, 10^4]."""
    return _whole(name, value, 10_000, "a whole number of snapshots")


def check_step(name: str, value: Any) -> int:
    """A training step: a whole number in [0, 10^12]."""
    return _whole(name, value, 10**12, "a step")


def snapshots(run: str | os.PathLike[str]) -> list[tuple[int, Path]]:
    """The run's snapshots as (step, path), by step; files of other names are not snapshots."""
    folder = Path(run) / SNAPSHOTS
    if not folder.is_dir():
        return []
    found = ((m, p) for p in folder.iterdir() if (m := _SNAPSHOT.fullmatch(p.name)) and p.is_file())
    return sorted((int(m[1]), p) for m, p in found)


def _writable_folder(path: Path, what: str) -> None:
    """``path`` is (or can be made) a folder this process may write in: its nearest existing
    ancestor is a folder, not a file, and is writable. Nothing is created."""
    probe = path
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise ValueError(f"{what} {str(path)!r}: {str(probe)!r} is a file, not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise ValueError(f"{what} {str(path)!r}: cannot write in {str(probe)!r}")


def check_run_dir(run: Any) -> Path:
    """The run folder, checked before any work: a non-empty path that is a folder or can be
    made one (not a file, not under a file, not in a place that cannot be written such as
    ``/proc``). Made here, so a later failure cannot leave a half-made run behind."""
    if not isinstance(run, (str, os.PathLike)) or not os.fspath(run).strip():
        raise ValueError(f"RUN must name a folder, got {run!r}")
    path = Path(run)
    if path.exists() and not path.is_dir():
        raise ValueError(f"RUN {str(path)!r} is a file, not a folder")
    _writable_folder(path, "RUN")
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".daguai-write-test-{os.getpid()}"
        probe.touch()
        probe.unlink()
    except OSError as exc:
        raise ValueError(f"RUN {str(path)!r}: cannot write there ({exc.strerror or exc})") from None
    ckpt = path / CHECKPOINT
    if ckpt.exists() and not ckpt.is_file():
        raise ValueError(f"{str(ckpt)!r} is not a file (a checkpoint is one)")
    return path


def check_export_path(path: Any) -> Path:
    """Where ``--export`` writes: a ``.dgn`` path that is not a folder, in an existing folder
    this process can write in (the atomic write's ``.tmp`` goes beside it)."""
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path).endswith(".dgn"):
        raise ValueError(f"--export: a model file ends in .dgn, got {path!r}")
    p = Path(path)
    if p.is_dir():
        raise ValueError(f"--export {str(p)!r} is a folder, not a file")
    parent = p.parent
    if not parent.is_dir():
        raise ValueError(f"--export {str(p)!r}: the folder {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"--export {str(p)!r}: cannot write in {str(parent)!r}")
    return p


def check_plot_path(path: Any) -> Path:
    """Where ``--plot`` draws: a .png/.svg/.pdf path, not a folder, whose folder can be made."""
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"--plot: an image path, got {path!r}")
    p = Path(path)
    if p.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise ValueError(f"--plot: the image must end in .png, .svg or .pdf, got {str(p)!r}")
    if p.is_dir():
        raise ValueError(f"--plot {str(p)!r} is a folder, not a file")
    _writable_folder(p.parent, "--plot")
    return p
