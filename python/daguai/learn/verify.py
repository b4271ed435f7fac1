"""A second look at the search's departures (docs/learning.md "Departures checked again").

Where the expert left the network's choice, its race compared a handful of groups over 20-90
worlds and kept the best: its gap is the winner's, so it is biased up, and many small ones are
noise (training/qfit2/README.md). This module races the two actions alone again, over fresh
worlds (:func:`daguai.search.analyze`'s ``plays``: the expert's action and the network's, every
rollout the heuristic, ``rollouts`` in all, paired world by world), and keeps per label the
paired mean difference (expert's minus network's, in points of the seat's round score) and its
standard error. ``python -m daguai.learn.qfit fit --verified DIR --verify-z Z`` then teaches a
departure only where that difference is above ``Z`` standard errors.

The sidecar of label shard ``shard-K.npz`` is ``vcheck-K.npz`` (arrays ``gap``, ``se``,
``worlds``: one per label, NaN / 0 where the label is not a departure or the two actions share
a group; ``games``; ``version``; the ``rollouts`` and ``seed`` it was made with). The positions
are reached by replaying the labelled rounds (:func:`daguai.learn.label_cands.replay_round`,
every position checked against the shard); label j of round i races on the stream
``(seed, decision_stream(i, ply))`` (R17: the same sidecar on every machine).

``python -m daguai.learn.verify LABELS --out DIR --rollouts 512 --seed S [--part K/N]``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core
from .distil import ACTION_FEATURES
from .label_cands import _config, replay_round, shard_files, sidecar_file, write_sidecar
from .labels import decision_stream
from .shards import LabelError, load_shard

__all__ = ["VCHECK_VERSION", "load_verified", "paired_gap", "verified_rows", "verify_file", "verify_labels"]

VCHECK_VERSION = 1
MAX_ROLLOUTS = 1 << 16


def verify_file(shard: str | os.PathLike[str], out: str | os.PathLike[str] | None = None) -> Path:
    """The sidecar of a label shard (in ``out``, or beside the shard)."""
    return sidecar_file(shard, out, "vcheck-")


def paired_gap(rows: Sequence[Any], expert: str, network: str) -> tuple[float, float, int]:
    """(mean, standard error, worlds) of the expert's action's value minus the network's over
    the worlds both played, from a race's rows (``_core.catalog._search``); NaN, NaN, 0 when
    the two are in one group (nothing to compare) or shared fewer than two worlds."""
    def row_of(text: str) -> Any:
        return next(r for r in rows if text in {str(a) for a in r[0]})

    e, n = row_of(expert), row_of(network)
    if e is n:
        return float("nan"), float("nan"), 0
    k = min(len(e[7]), len(n[7]))
    if k < 2:
        return float("nan"), float("nan"), k
    d = np.asarray(e[7][:k], np.float64) - np.asarray(n[7][:k], np.float64)
    return float(d.mean()), float(d.std(ddof=1) / np.sqrt(k)), k


def _verify_shard(cfg: Any, a: dict[str, np.ndarray], rollouts: int, seed: int) -> dict[str, np.ndarray]:
    n = len(a["choice"])
    gap = np.full(n, np.nan, np.float32)
    se = np.full(n, np.nan, np.float32)
    worlds = np.zeros(n, np.int32)
    for i in a["games"].tolist():
        sel = np.flatnonzero(a["game"] == i)
        rows = {k: a[k][sel] for k in ("ply", "legal", "state", "action")}
        at = iter(sel.tolist())

        def visit(state: Any, legal: np.ndarray, at: Any = at, i: int = i) -> np.ndarray:
            j = next(at)
            inc, choice = int(a["incumbent"][j]), int(a["choice"][j])
            if a["searched"][j] and inc >= 0 and choice != inc:  # a departure: race the two again
                network = str(a["arm_action"][int(a["arm_start"][j])])  # the incumbent's arm: its action
                expert = str(a["action"][j])
                race = _core.catalog._search(state, rollouts, 0.0, 1, "heuristic",
                                             int(decision_stream(i, int(a["ply"][j])) ^ seed), 0, -1,
                                             plays=[expert, network])
                gap[j], se[j], worlds[j] = paired_gap(race[0], expert, network)
            return np.zeros((0, ACTION_FEATURES), np.float16)

        replay_round(cfg, i, rows, visit)
    return {"gap": gap, "se": se, "worlds": worlds}


def verify_labels(folder: str | os.PathLike[str], out: str | os.PathLike[str] | None = None, *,
                  rollouts: int = 512, seed: int = 0, shards: Sequence[int] | None = None,
                  part: tuple[int, int] = (0, 1), teacher: str | None = None, log: Any = None) -> int:
    """Make the missing ``vcheck`` sidecars of the label shards of ``folder`` (all, or
    ``shards``; of those, the ones with index = ``part[0]`` mod ``part[1]``) in ``out``
    (default: beside them); returns the number made. ``teacher``: as for
    :func:`daguai.learn.label_cands.label_cands`."""
    if isinstance(rollouts, bool) or not isinstance(rollouts, int) or not 2 <= rollouts <= MAX_ROLLOUTS:
        raise ValueError(f"rollouts must be an integer in [2, {MAX_ROLLOUTS}], got {rollouts!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ValueError(f"seed must be an integer in [0, 2**63), got {seed!r}")
    k, n = part
    if not 0 <= k < n:
        raise ValueError(f"part must be K/N with 0 <= K < N, got {k}/{n}")
    folder = Path(folder)
    cfg = _config(folder, teacher)
    made = 0
    for f in shard_files(folder, shards, part):
        dest = verify_file(f, out)
        if dest.exists():
            continue
        a = load_shard(f)
        arrays = _verify_shard(cfg, a, rollouts, seed)
        write_sidecar(dest, **arrays, games=a["games"], version=np.array(VCHECK_VERSION, np.int32),
                      rollouts=np.array(rollouts, np.int64), seed=np.array(seed, np.int64))
        made += 1
        if log:
            d = np.isfinite(arrays["gap"])
            log(f"{dest.name}: {len(a['choice'])} labels, {int(d.sum())} departures raced again, "
                f"{int((arrays['gap'][d] > 2 * arrays['se'][d]).sum())} above 2 standard errors")
    return made


def load_verified(shard_files: Sequence[str | os.PathLike[str]],
                  out: str | os.PathLike[str] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(gap, se) of the labels of ``shard_files``, in that order, from their sidecars in ``out``
    (or beside them); ``LabelError`` if one is missing, damaged or of another version."""
    gaps, ses = [], []
    for f in shard_files:
        p = verify_file(f, out)
        if not p.exists():
            raise LabelError(f"no second look {str(p)!r} for {str(f)!r} (python -m daguai.learn.verify)")
        try:
            with open(p, "rb") as fh, np.load(fh, allow_pickle=False) as z:
                version = int(z["version"])
                gap, se = z["gap"].astype(np.float64), z["se"].astype(np.float64)
        except (OSError, ValueError, KeyError, EOFError) as exc:
            raise LabelError(f"{str(p)!r} is not a second look's sidecar: {exc}") from None
        if version != VCHECK_VERSION:
            raise LabelError(f"{str(p)!r} has version {version}, not {VCHECK_VERSION}")
        if gap.ndim != 1 or gap.shape != se.shape:
            raise LabelError(f"{str(p)!r}: gap and se are not one row per label")
        gaps.append(gap)
        ses.append(se)
    return (np.concatenate(gaps), np.concatenate(ses)) if gaps else (np.zeros(0), np.zeros(0))


def verified_rows(folders: Sequence[str | os.PathLike[str]], files: Sequence[Path],
                  used: Sequence[dict[str, Any]], n: int) -> dict[str, np.ndarray]:
    """``vgap`` and ``vse`` (:class:`daguai.learn.qfit.QRows`) of the labels of ``files`` (``used``:
    the shards of each label folder, in order, as ``fit_label_inputs`` gives them) from the sidecar
    folders, one per label folder; ``ValueError`` when they are not one each or not one row per
    label."""
    if len(folders) != len(used):
        raise ValueError(f"--verified names {len(folders)} folders for {len(used)} label folders: one each")
    gaps, ses, at = [], [], 0
    for folder, u in zip(folders, used, strict=True):
        g, e = load_verified(files[at:at + u["shards"]], folder)
        gaps.append(g)
        ses.append(e)
        at += u["shards"]
    vgap, vse = np.concatenate(gaps), np.concatenate(ses)
    if len(vgap) != n:
        raise ValueError(f"the second look has {len(vgap)} rows for {n} labels")
    return {"vgap": vgap, "vse": vse}


def _part(text: str) -> tuple[int, int]:
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected K/N, got {text!r}") from None
    return k, n


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m daguai.learn.verify", description=__doc__.split("\n\n")[0])
    p.add_argument("labels", help="a label folder")
    p.add_argument("--out", help="folder of the sidecars (default: beside the shards)")
    p.add_argument("--rollouts", type=int, default=512, help="rollouts of each second race (default 512)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--label-shards", type=int, help="only the first N shards")
    p.add_argument("--part", type=_part, default=(0, 1), metavar="K/N",
                   help="only the shards with index = K mod N (run N processes, one per part)")
    p.add_argument("--teacher", default=None, metavar="POLICY",
                   help="the policy that made the labels, when its name now plays otherwise")
    a = p.parse_args(argv)
    shards = None if a.label_shards is None else range(a.label_shards)
    try:
        made = verify_labels(a.labels, a.out, rollouts=a.rollouts, seed=a.seed, shards=shards, part=a.part,
                             teacher=a.teacher, log=lambda s: print(s, flush=True))
    except ValueError as exc:
        p.error(str(exc))
    print(f"{made} made")
    return 0


if __name__ == "__main__":
    sys.exit(main())
