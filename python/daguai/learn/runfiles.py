"""A run's files beside the trainer's loop (docs/learning.md "Training"): the snapshots it keeps
at each evaluation, and the run's network written as a ``.dgn`` model, alone or as the weight
average of its last snapshots."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from .checkpoint import checkpoint_part as _checkpoint_part
from .checkpoint import load_checkpoint as _load_checkpoint
from .config import (
    CHECKPOINT,
    SNAPSHOTS,
    TrainConfig,
    check_export_path,
    check_keep,
    check_step,
    config_json,
    snapshots,
)
from .model import QNet

__all__ = ["export", "keep_snapshot", "snapshots_to_keep"]

#: The number of snapshots a run keeps, written by every call (a resumed call keeps it).
KEEP_FILE = "snapshots.keep"


def snapshots_to_keep(out: Path, keep: int | None, resuming: bool) -> int:
    """How many snapshots this call keeps: ``keep`` when given (the caller checked it), else the
    run's own setting when it resumes (``out/snapshots.keep``), else 8; written back to
    ``out/snapshots.keep``. A damaged file raises ``ValueError`` naming it."""
    path = out / KEEP_FILE
    if keep is None:
        keep = 8
        if resuming and path.exists():
            text = path.read_text(encoding="utf-8", errors="replace").strip()
            keep = check_keep(str(path), int(text) if text.isdigit() and len(text) <= 6 else text)
    path.write_text(f"{keep}\n", encoding="utf-8")
    return keep


def keep_snapshot(out: Path, model: Path, step: int, keep: int) -> None:
    """Copy the evaluation model to ``snapshots/step{step}.dgn`` and delete the oldest
    snapshots beyond the last ``keep`` (0: keep none, write none)."""
    if keep <= 0:
        return
    folder = out / SNAPSHOTS
    folder.mkdir(exist_ok=True)
    tmp = folder / f"step{step}.dgn.tmp"
    shutil.copyfile(model, tmp)
    os.replace(tmp, folder / f"step{step}.dgn")
    for _, old in snapshots(out)[:-keep]:
        old.unlink()


def export(run: str | Path, path: str | Path, command: str | None = None,
           margin: float | None = None, average_from: int | None = None) -> Path:
    """Write the run's current network (its checkpoint) as a ``.dgn`` file with its history
    (command, seed, step, frames, wall time) in the metadata; ``margin``: the switching rule
    (default: the run's).

    ``average_from``: write instead the weight average (:func:`daguai.dgn.average_models`) of
    the run's snapshots of step ``average_from`` and later and its current network (counted once
    when the last snapshot is of its step), as the shipped generations were made
    (docs/learning.md "Weight averaging"); ``ValueError`` if no snapshot is that late."""
    path = check_export_path(path)
    ckpt_path = Path(run) / CHECKPOINT
    if not ckpt_path.exists():
        raise ValueError(f"no checkpoint in {str(run)!r}")
    chosen: list[tuple[int, Path]] = []
    if average_from is not None:
        average_from = check_step("average_from", average_from)
        chosen = [(k, p) for k, p in snapshots(run) if k >= average_from]
        if not chosen:
            raise ValueError(f"average_from: no snapshot of step {average_from} or later in "
                             f"{str(Path(run) / SNAPSHOTS)!r}")
    ckpt = _load_checkpoint(ckpt_path)
    cfg: TrainConfig = ckpt["config"]
    net = QNet(cfg.widths)
    with _checkpoint_part(ckpt_path):
        net.load_state_dict(ckpt["net"])
    meta = {"commands": ckpt.get("commands", []),
            "export": command or " ".join(shlex.quote(a) for a in sys.argv), "seed": cfg.seed,
            "step": ckpt["step"], "frames": ckpt["frames"], "rounds": ckpt["rounds"],
            "wall_seconds": round(ckpt["wall"], 1), "widths": list(cfg.widths),
            "config": config_json(cfg), "rules": cfg.rules.to_dict(), "evals": ckpt["evals"][-3:]}
    margin = cfg.margin if margin is None else margin
    if not chosen:
        return net.save_dgn(path, meta, margin, r11=cfg.r11)
    from ..dgn import average_models

    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".export-") as tmp:
        models = [p for _, p in chosen]
        final = net.save_dgn(Path(tmp) / f"final-step{ckpt['step']}.dgn", meta, margin, r11=cfg.r11)
        if chosen[-1][0] != ckpt["step"]:
            models.append(final)
        return average_models(models, path, margin, meta_from=final,
                              extra_meta={"average_from": average_from})
