"""The per-candidate features of the expert's labels (docs/learning.md "A one-pass student with
per-candidate features"): a label shard (:mod:`daguai.learn.shards`, version 1) keeps the state
features and the legal ids of each labelled decision but not the position itself, so its
candidates' features are made by replaying the shard's rounds.

Replay of round i of a label folder made with ``teacher`` on every seat (``others`` empty, every
seat labelled: ``training/teacher1``): ``Game(seed, rules, game=i, start)``; at a labelled
decision (``ply`` of a row) the recorded action (the legal action whose text is ``action``); at
any other decision the teacher's own decision on its stream (:func:`labels.decision_stream`),
which outside the labelled decisions is forced or not a play (no search). Every replayed
position's state features and legal ids are checked against the shard's (``RuntimeError``
otherwise): the replay is the labelled game.

Two kinds of sidecar, one per feature set (``kind``), written to a temporary name and renamed (a
present one is kept):

- ``student``: ``cand-KKKKK.npz`` of ``shard-KKKKK.npz``, the student's features: per legal id the
  canonical action's (:func:`daguai.learn.distil.candidate_rows`; heuristic column 0);
- ``qnet``: ``qcand-KKKKK.npz``, the Q-network's own candidates, as the learned player scores
  them (:func:`daguai.learn.distil.qnet_rows`: the heuristic's action for its id, its column 1).

=========  ==================  ==============================================================
cand       float16 [m, A]      per label, per legal id (ascending), the candidate's features
games      int64 [g]           the shard's rounds (as the shard's)
version    int32 []            1
=========  ==================  ==============================================================
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core
from ..game import Game
from .coded import CodedRows, RowCoder
from .distil import ACTION_FEATURES, candidate_rows, qnet_rows
from .labels import MANIFEST, LabelConfig, decision_stream
from .shards import LabelError, concatenate_popped, load_shard

__all__ = ["CAND_KINDS", "CAND_VERSION", "add_cands_command", "add_label_arguments", "cand_file",
           "fit_label_inputs", "label_cands", "load_label_cands", "replay_round", "run_cands_command",
           "shard_files", "sidecar_file", "write_sidecar"]

CAND_VERSION = 1
#: kind -> (the sidecar's file prefix, the rows of a position, the command that makes them)
CAND_KINDS: dict[str, tuple[str, Callable[[Any, np.ndarray], np.ndarray], str]] = {
    "student": ("cand-", candidate_rows, "python -m daguai.learn.student2 cands"),
    "qnet": ("qcand-", qnet_rows, "python -m daguai.learn.qfit cands")}


def _kind(kind: str) -> tuple[str, Callable[[Any, np.ndarray], np.ndarray], str]:
    if kind not in CAND_KINDS:
        raise ValueError(f"kind must be one of {', '.join(CAND_KINDS)}, got {kind!r}")
    return CAND_KINDS[kind]


def sidecar_file(shard: str | os.PathLike[str], out: str | os.PathLike[str] | None, prefix: str) -> Path:
    """The sidecar of a label shard named with ``prefix`` for ``shard-`` (in ``out``, or beside
    the shard): the candidates' (:func:`cand_file`), the second look's (``verify.verify_file``)."""
    p = Path(shard)
    return Path(out or p.parent) / p.name.replace("shard-", prefix)


def cand_file(shard: str | os.PathLike[str], out: str | os.PathLike[str] | None = None,
              kind: str = "student") -> Path:
    """The sidecar of a label shard (in ``out``, or beside the shard)."""
    return sidecar_file(shard, out, _kind(kind)[0])


def shard_files(folder: Path, shards: Sequence[int] | None = None,
                part: tuple[int, int] = (0, 1)) -> list[Path]:
    """The label shards of ``folder`` in order: all, or those numbered in ``shards``; of those,
    the ones numbered ``part[0]`` mod ``part[1]``."""
    wanted = None if shards is None else set(shards)
    k, n = part
    numbered = [(int(f.stem.split("-")[1]), f) for f in sorted(folder.glob("shard-*.npz"))]
    return [f for i, f in numbered if (wanted is None or i in wanted) and i % n == k]


def write_sidecar(dest: Path, **arrays: np.ndarray) -> None:
    """``arrays`` as the .npz ``dest``, whole or not at all (a temporary file, then renamed)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + f".tmp{os.getpid()}")
    with open(tmp, "wb") as fh:
        np.savez(fh, **arrays)
    os.replace(tmp, dest)


def _config(folder: Path, teacher: str | None = None) -> LabelConfig:
    """The folder's settings; ``teacher``, when given, replaces its teacher for the replay."""
    doc = json.loads((folder / MANIFEST).read_text())
    cfg = LabelConfig.from_json(doc["config"], str(folder / MANIFEST))
    if cfg.others or cfg.seats:
        raise LabelError(f"{str(folder)!r}: replay needs every seat labelled by the teacher")
    if teacher is not None:
        cfg = LabelConfig.from_json({**cfg.to_json(), "teacher": teacher}, str(folder / MANIFEST))
    return cfg


def replay_round(cfg: LabelConfig, i: int, rows: dict[str, np.ndarray],
                 features: Callable[[Any, np.ndarray], np.ndarray] = candidate_rows) -> list[np.ndarray]:
    """The candidate rows (``features(state, legal)``) of round ``i``'s labels (``rows``: the
    shard's arrays of that round, in order), by replaying it; checks each labelled position
    against the shard."""
    g = Game(cfg.seed, cfg.rules(), game=i, start=cfg.start)
    state = g.state
    plies = rows["ply"].tolist()
    out: list[np.ndarray] = []
    ply, j = 0, 0
    while not state.match_over and j < len(plies):
        if ply == plies[j]:
            legal = _core.io.abstract_mask(state)[0]
            if (not np.array_equal(legal, rows["legal"][j])
                    or not np.array_equal(_core.learned.learn_features(state)[0], rows["state"][j])):
                raise RuntimeError(f"round {i}, decision {ply}: the replay is not the labelled position")
            out.append(features(state, legal))
            text = str(rows["action"][j])
            action = next((a for a in state.legal_actions() if str(a) == text), None)
            if action is None:
                raise RuntimeError(f"round {i}, decision {ply}: {text!r} is not legal in the replay")
            j += 1
        else:
            action = _core.catalog._traced_decision(state, cfg.teacher, cfg.seed, decision_stream(i, ply))[0]
        state.apply(action)
        ply += 1
    if j != len(plies):
        raise RuntimeError(f"round {i}: {len(plies) - j} labels not reached in the replay")
    return out


def label_cands(folder: str | os.PathLike[str], out: str | os.PathLike[str] | None = None,
                shards: Sequence[int] | None = None, log: Any = None, kind: str = "student",
                teacher: str | None = None) -> int:
    """Make the missing sidecars (of ``kind``) of the label shards of ``folder`` (all, or
    ``shards``) in ``out`` (default: beside them); returns the number made. The replay plays the
    unlabelled decisions as the folder's teacher; ``teacher`` names it when the policy of that
    name has changed since (a search over the network the labels were made with, e.g.
    ``expert@training/gen5b/gen4.dgn`` for ``training/teacher1``: the shipped model now also
    makes the R11 decisions, which the replay meets before play)."""
    folder = Path(folder)
    features = _kind(kind)[1]
    cfg = _config(folder, teacher)
    made = 0
    for f in shard_files(folder, shards):
        dest = cand_file(f, out, kind)
        if dest.exists():
            continue
        a = load_shard(f)
        parts: list[np.ndarray] = []
        for i in a["games"].tolist():
            sel = np.flatnonzero(a["game"] == i)
            rows = {k: a[k][sel] for k in ("ply", "legal", "state", "action")}
            parts += replay_round(cfg, i, rows, features)
        cand = np.concatenate(parts) if parts else np.zeros((0, ACTION_FEATURES), np.float16)
        write_sidecar(dest, cand=cand, games=a["games"], version=np.array(CAND_VERSION, np.int32))
        made += 1
        if log:
            log(f"{dest.name}: {len(a['game'])} labels, {len(cand)} candidates")
    return made


def load_label_cands(shard_files: Sequence[str | os.PathLike[str]],
                     cand_dir: str | os.PathLike[str] | None = None, kind: str = "student",
                     coder: RowCoder | None = None) -> np.ndarray:
    """The concatenated ``cand`` rows of the sidecars (of ``kind``) of ``shard_files`` (in that
    order, the order :func:`daguai.learn.shards.load_labels` concatenates them); ``LabelError`` if
    one is missing or of another version. With a ``coder`` (float16), their codes instead, each
    sidecar coded as it is read (``coder.rows`` of the result gives the rows)."""
    parts = []
    maker = _kind(kind)[2]
    for f in shard_files:
        p = cand_file(f, cand_dir, kind)
        if not p.exists():
            raise LabelError(f"no candidate features {str(p)!r} for {str(f)!r} ({maker})")
        with np.load(p) as z:
            if int(z["version"]) != CAND_VERSION:
                raise LabelError(f"{str(p)!r} has version {int(z['version'])}, not {CAND_VERSION}")
            cand = z["cand"]
            parts.append(cand if coder is None else coder.encode(cand))
    if not parts:
        empty = np.zeros((0, ACTION_FEATURES), np.float16)
        return empty if coder is None else coder.encode(empty)
    return concatenate_popped(parts)


def add_cands_command(sub: Any, help: str) -> Any:  # noqa: A002 - argparse's name
    """The ``cands`` subcommand of a training module's command line (student2, qfit)."""
    c = sub.add_parser("cands", help=help)
    c.add_argument("labels")
    c.add_argument("--out", help="folder of the sidecars (default: beside the shards)")
    c.add_argument("--label-shards", type=int, help="only the first N shards")
    c.add_argument("--teacher", default=None, metavar="POLICY",
                   help="the policy that made the labels, when its name now plays otherwise "
                        "(e.g. expert@training/gen5b/gen4.dgn for training/teacher1)")
    return c


def run_cands_command(args: Any, kind: str) -> int:
    """Run a parsed ``cands`` subcommand: make the missing sidecars of ``kind``."""
    shards = None if args.label_shards is None else range(args.label_shards)
    print(f"{label_cands(args.labels, args.out, shards, log=print, kind=kind, teacher=args.teacher)} made")
    return 0


def add_label_arguments(fit: Any) -> None:
    """The label arguments of a training module's ``fit`` subcommand (student2, qfit)."""
    fit.add_argument("--labels", required=True, nargs="+", metavar="FOLDER",
                     help="label folders (the expert's), their shards taken in this order")
    fit.add_argument("--label-shards", type=int, help="use only the first N label shards of each folder")
    fit.add_argument("--cands", nargs="+", metavar="FOLDER",
                     help="the sidecars' folders, one per label folder (default: the label folders)")
    fit.add_argument("--resume", action="store_true", help="go on from RUN/last.pt")


def fit_label_inputs(args: Any, kind: str,
                     coded: bool = False) -> tuple[list[Path], np.ndarray | CodedRows, list[dict[str, Any]]]:
    """The shard files of a parsed ``fit`` subcommand's label folders (the first
    ``--label-shards`` of each), their candidate rows of ``kind`` in the same order (``coded``:
    as :class:`~daguai.learn.coded.CodedRows`, the same values in half the memory), and per folder
    its name and shards used; ``LabelError`` for a folder without shards, ``ValueError`` when the
    sidecar folders are not one per label folder."""
    coder = RowCoder(np.float16) if coded else None
    folders = [Path(f) for f in args.labels]
    cands = args.cands or [None] * len(folders)
    if len(cands) != len(folders):
        raise ValueError(f"--cands names {len(cands)} folders for {len(folders)} label folders: one each")
    if args.label_shards is not None and args.label_shards < 1:
        raise ValueError(f"--label-shards must be at least 1, got {args.label_shards}")
    files: list[Path] = []
    rows = []
    used = []
    for folder, cand_dir in zip(folders, cands, strict=True):
        fs = sorted(folder.glob("shard-*.npz"))[:args.label_shards]
        if not fs:
            raise LabelError(f"no label shards in {str(folder)!r}")
        files += fs
        rows.append(load_label_cands(fs, cand_dir, kind, coder))
        used.append({"folder": str(folder), "shards": len(fs)})
    out = concatenate_popped(rows)
    return files, (out if coder is None else coder.rows(out)), used
