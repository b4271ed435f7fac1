"""The label shards' format (docs/learning.md "Labels from the search"; made by
:mod:`daguai.learn.labels`): reading and checking a shard, and the labels of many.

Arrays of a shard (one row per labelled decision unless said; ``load_shard``):

==================  ===============  ===========================================================
name                dtype, shape     meaning
==================  ===============  ===========================================================
game                int64 [n]        round index i
ply                 int32 [n]        decisions of the round before this one
seat                int8 [n]         the seat to act
state               float32 [n, S]   the learned network's state features (S = STATE_FEATURES)
legal               uint8 [n, 444]   1 where an abstract id is legal
choice              int16 [n]        the teacher's decision (abstract id)
incumbent           int16 [n]        the incumbent's id (the model's choice; -1 if no race)
searched            bool [n]         the decision was raced (else one group: the choice only)
race_seed           uint64 [n]       the race's seed (``daguai.analyze(seed=...)`` reproduces it)
value               float32 [n]      the round's score change of the seat's team (R13)
outcome             int8 [n]         +1 the seat's team won the round, 0 draw, -1 lost
arm_start           int32 [n + 1]    the decision's arms are arm_* [arm_start[j]:arm_start[j+1]]
arm_id              int16 [m]        an arm's abstract id (the incumbent's first)
arm_n               int32 [m]        worlds the arm was played in
arm_mean            float32 [m]      its mean score change for the seat over those worlds
arm_wl              float32 [m]      its mean of win (+1) / loss (-1) of the seat's team
arm_round           int8 [m]         the last race round it ran in
action              str [n]          the teacher's action (text)
arm_action          str [m]          each arm's action (text)
games               int64 [g]        the shard's rounds
game_decisions      int32 [g]        decisions of each round (labelled or not)
==================  ===============  ===========================================================
"""

from __future__ import annotations

import os
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core
from .coded import RowCoder

__all__ = ["LABEL_VERSION", "LabelError", "LabelSet", "concatenate_popped", "load_labels", "load_shard",
           "shard_path"]

#: The shard format's version (the manifest's and each shard's ``version``).
LABEL_VERSION = 1
NUM_ABSTRACT = int(_core.io.NUM_ABSTRACT)
STATE_FEATURES = int(_core.learned.STATE_FEATURES)

_ROW = ("game", "ply", "seat", "state", "legal", "choice", "incumbent", "searched", "race_seed", "value",
        "outcome", "action")
_ARM = ("arm_id", "arm_n", "arm_mean", "arm_wl", "arm_round", "arm_action")
_DTYPES = {"game": np.int64, "ply": np.int32, "seat": np.int8, "state": np.float32, "legal": np.uint8,
           "choice": np.int16, "incumbent": np.int16, "searched": np.bool_, "race_seed": np.uint64,
           "value": np.float32, "outcome": np.int8, "arm_start": np.int32, "arm_id": np.int16,
           "arm_n": np.int32, "arm_mean": np.float32, "arm_wl": np.float32, "arm_round": np.int8,
           "games": np.int64, "game_decisions": np.int32}


class LabelError(ValueError):
    """A label folder or shard that cannot be used: not a shard, another version, arrays missing
    or inconsistent, or a folder made with other settings. The message names the file."""


def shard_path(folder: str | os.PathLike[str], k: int) -> Path:
    """The file of shard ``k`` of a label folder."""
    return Path(folder) / f"shard-{k:05d}.npz"


def load_shard(path: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """The arrays of one shard, checked (names, dtypes, shapes, ranges). Raises
    :class:`LabelError` naming the file for anything else (not an .npz, another version, a
    truncated or damaged file, arrays missing or inconsistent)."""
    name = str(path)
    try:
        with open(name, "rb") as fh, np.load(fh, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except FileNotFoundError:
        raise LabelError(f"label shard {name!r}: no such file") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error, KeyError) as exc:
        raise LabelError(f"label shard {name!r} is not a label shard: {exc}") from None
    _check_shard(arrays, name)
    return arrays


def _check_shard(a: dict[str, np.ndarray], name: str) -> None:
    def bad(why: str) -> LabelError:
        return LabelError(f"label shard {name!r}: {why}")

    if "version" not in a or a["version"].shape != () or int(a["version"]) != LABEL_VERSION:
        raise bad(f"not a label shard of version {LABEL_VERSION}")
    for k in (*_ROW, *_ARM, "arm_start", "games", "game_decisions"):
        if k not in a:
            raise bad(f"array {k!r} missing")
        if k in _DTYPES and a[k].dtype != _DTYPES[k]:
            raise bad(f"array {k!r} has dtype {a[k].dtype}, not {np.dtype(_DTYPES[k])}")
        if k in ("action", "arm_action") and a[k].dtype.kind != "U":
            raise bad(f"array {k!r} is not text")
    n, m = len(a["choice"]), len(a["arm_id"])
    for k in _ROW:
        if a[k].shape[:1] != (n,):
            raise bad(f"array {k!r} has {a[k].shape[:1]} rows, not {n}")
    if a["state"].shape != (n, STATE_FEATURES) or a["legal"].shape != (n, NUM_ABSTRACT):
        raise bad("state or legal has the wrong width")
    for k in _ARM:
        if a[k].shape != (m,):
            raise bad(f"array {k!r} has shape {a[k].shape}, not ({m},)")
    s = a["arm_start"]
    if s.shape != (n + 1,) or s[0] != 0 or s[-1] != m or np.any(np.diff(s) < 0):
        raise bad("arm_start is not the arms' offsets")
    if len(a["games"]) != len(a["game_decisions"]) or len(a["games"]) == 0:
        raise bad("games and game_decisions differ or are empty")
    if np.any(np.diff(a["games"]) != 1) or (n and not np.isin(a["game"], a["games"]).all()):
        raise bad("games are not consecutive rounds, or a label's round is not among them")
    if n:
        ids = np.concatenate([a["choice"], a["arm_id"]])
        if ids.min() < 0 or ids.max() >= NUM_ABSTRACT:
            raise bad("an abstract id is out of range")
        if not a["legal"][np.arange(n), a["choice"]].all():
            raise bad("a choice is not a legal abstract id")
        if not np.isfinite(a["state"]).all() or not np.isfinite(a["value"]).all():
            raise bad("non-finite features or values")


@dataclass
class LabelSet:
    """Labels of several shards, concatenated (:func:`load_labels`)."""

    arrays: dict[str, Any]  # np.ndarray each, or CodedRows where load_labels was asked to code
    files: list[str]

    def __len__(self) -> int:
        return int(len(self.arrays["choice"]))

    def scores(self, temperature: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Per label, the arms' mean score change by abstract id: ``(score, raced)``, float32 and
        bool of shape ``(n, NUM_ABSTRACT)`` (ids raced more than once: the best arm's)."""
        n = len(self)
        score = np.full((n, NUM_ABSTRACT), -np.inf, np.float32)
        start = self.arrays["arm_start"]
        row = np.repeat(np.arange(n), np.diff(start))
        np.maximum.at(score, (row, self.arrays["arm_id"]), self.arrays["arm_mean"])
        return score, np.isfinite(score)


def load_labels(paths: Iterable[str | os.PathLike[str]], coded: Iterable[str] = (),
                texts: bool = True) -> LabelSet:
    """The labels of shard files or label folders (every ``shard-*.npz`` in a folder), checked.

    ``coded`` names float arrays (``state``, ``value``, ``arm_mean``, ``arm_wl``) to keep as
    :class:`~daguai.learn.coded.CodedRows`, coded shard by shard as each is read: the same values
    in a quarter of the memory (a fit's states are gigabytes). ``texts=False`` leaves out
    ``action`` and ``arm_action`` (the texts a fit does not read)."""
    coders = {}
    for k in coded:
        if k not in _DTYPES or np.dtype(_DTYPES[k]).kind != "f":
            raise ValueError(f"only the float arrays of a shard can be coded, not {k!r}")
        coders[k] = RowCoder(_DTYPES[k])
    keys = [k for k in (*_ROW, *_ARM, "games", "game_decisions")
            if texts or k not in ("action", "arm_action")]
    files: list[Path] = []
    for p in paths:
        p = Path(p)
        files += sorted(p.glob("shard-*.npz")) if p.is_dir() else [p]
    parts = []
    for f in files:
        a = load_shard(f)
        for k, coder in coders.items():
            a[k] = coder.encode(a[k])
        parts.append({k: a[k] for k in (*keys, "arm_start")})
    if not parts:
        raise LabelError("no label shards given")
    out: dict[str, Any] = {}
    offset = 0
    starts = []
    for a in parts:
        starts.append(a["arm_start"][:-1] + offset)
        offset += len(a["arm_id"])
    for k in keys:
        out[k] = _concatenate_popped(parts, k)
    for k, coder in coders.items():
        out[k] = coder.rows(out[k])
    out["arm_start"] = np.concatenate([*starts, [offset]]).astype(np.int32)
    return LabelSet(out, [str(f) for f in files])


def _concatenate_popped(parts: list[dict[str, np.ndarray]], key: str) -> np.ndarray:
    """:func:`concatenate_popped` of every part's ``key``, popped from the part."""
    return concatenate_popped([a.pop(key) for a in parts])


def concatenate_popped(arrays: list[np.ndarray]) -> np.ndarray:
    """``np.concatenate(arrays)``, emptying ``arrays`` as each is copied, so that the result and the
    parts together need little more than the result's size, not twice it (a fit's states are
    gigabytes; the pages of ``np.empty`` are taken as they are written)."""
    dtype = np.result_type(*(a.dtype for a in arrays))  # texts: the longest
    out = np.empty((sum(len(a) for a in arrays), *arrays[0].shape[1:]), dtype)
    i = 0
    arrays.reverse()
    while arrays:
        x = arrays.pop()
        out[i:i + len(x)] = x
        i += len(x)
    return out
