"""Distillation positions from the Q-network (docs/learning.md "A one-pass student"): self-play
rounds of a model (``learned`` by default) in which every play-phase decision with more than one
legal action is kept with the network's state features, the legal abstract ids, the network's
Q-value of every candidate (one per legal id, the integer pass the player plays), the
heuristic's id and the network's own choice (argmax with its switching margin).

Round i is ``Game(seed, rules with max_rounds=1, game=i, start="random")`` (R17: it depends only
on (seed, i)); every seat plays the model through ``PolicyRunner(model, seed, i, seat)``, so the
positions are those of the model's own games. A shard ``distil-KKKKK.npz`` holds rounds
K*N .. K*N+N-1, written to a temporary name and renamed; a present shard is kept (resumable).

Arrays of a shard (n positions):

=========  ==================  ==============================================================
name       dtype, shape        meaning
=========  ==================  ==============================================================
game       int64 [n]           round index i
seat       int8 [n]            the seat to act
state      float16 [n, S]      the state features (small counts and fractions: exact enough)
legal      uint8 [n, 444]      1 where an abstract id is legal
q          float16 [n, 444]    the network's Q of each legal id's candidate (0 where illegal)
heur       int16 [n]           the heuristic's id
choice     int16 [n]           the network's choice (the heuristic's unless beaten by > margin)
cand       float16 [m, A]      version 2: per position, per legal id (ascending), the action
                               features of the id's canonical action with no heuristic column
                               (``_core.learned.candidate_features``, A = ACTION_FEATURES);
                               position j's rows follow those of positions < j
                               (:func:`cand_offsets`)
version    int32 []            2 (absent: version 1, no ``cand``)
=========  ==================  ==============================================================

Version 1 shards (student1's) stay readable; :func:`load_distil` gives ``cand`` only when every
shard has it.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core
from ..dgn import SHIPPED_MODELS
from ..game import Game
from ..rules import Rules
from .shards import NUM_ABSTRACT, STATE_FEATURES

__all__ = ["DISTIL_VERSION", "cand_offsets", "candidate_ids", "candidate_rows", "distil", "distil_round",
           "legal_index", "load_distil", "model_path", "qnet_rows", "shard_file"]

#: The shard format written now (1: without ``cand``).
DISTIL_VERSION = 2
ACTION_FEATURES = int(_core.learned.ACTION_FEATURES)


def shard_file(folder: str | os.PathLike[str], k: int) -> Path:
    return Path(folder) / f"distil-{k:05d}.npz"


def candidate_rows(state: Any, legal: np.ndarray) -> np.ndarray:
    """The per-candidate features of the seat to act (float16 [legal ids, A], ascending ids): what
    a shard stores and what the student's player computes (the same function, the same rounding).
    Raises ``RuntimeError`` if the candidates' ids are not the legal ids."""
    ids, feats = _core.learned.candidate_features(state)
    if not np.array_equal(ids.astype(np.int64), np.flatnonzero(legal)):
        raise RuntimeError("the candidates' ids are not the legal ids")
    return feats.astype(np.float16)


def candidate_ids(state: Any, cands: Any) -> np.ndarray:
    """int64 abstract ids of the learned player's candidates (``learn_features``'s actions)."""
    level = state.level or "2"
    return np.array([_core.io.abstract_id(a, a.play.level if a.play is not None else level) for a in cands],
                    np.int64)


def qnet_rows(state: Any, legal: np.ndarray) -> np.ndarray:
    """The Q-network's action features of its candidates (float16 [legal ids, A], ascending ids):
    exactly the rows the learned player scores, the heuristic's own action for its id with the
    heuristic column set. Raises ``RuntimeError`` if the candidates' ids are not the legal ids."""
    _, cands, feats, _ = _core.learned.learn_features(state)
    ids = candidate_ids(state, cands)
    order = np.argsort(ids, kind="stable")
    if not np.array_equal(ids[order], np.flatnonzero(legal)):
        raise RuntimeError("the candidates' ids are not the legal ids")
    return feats[order].astype(np.float16)


def cand_offsets(legal: np.ndarray) -> np.ndarray:
    """int64 [n + 1]: position j's ``cand`` rows are ``cand[off[j]:off[j + 1]]``."""
    return np.concatenate([[0], np.cumsum(legal.sum(axis=1, dtype=np.int64))])


def legal_index(legal: np.ndarray, *queries: tuple[np.ndarray, np.ndarray],
                block: int = 1 << 16) -> list[np.ndarray]:
    """For each query ``(row, ids)`` (``row`` ascending), int64 [k]: the index of abstract id
    ``ids[i]`` among row ``row[i]``'s legal ids (ascending). The rows' running counts are made a
    ``block`` of rows at a time (all n x 444 at once is gigabytes for a generation's labels), once
    for all the queries."""
    queries = tuple((np.asarray(row, np.int64), np.asarray(ids, np.int64)) for row, ids in queries)
    outs = [np.empty(len(row), np.int64) for row, _ in queries]
    for a in range(0, len(legal), block):
        spans = [np.searchsorted(row, [a, a + block]) for row, _ in queries]
        if all(hi == lo for lo, hi in spans):
            continue
        rank = np.cumsum(legal[a:a + block], axis=1, dtype=np.int16)
        for (row, ids), out, (lo, hi) in zip(queries, outs, spans, strict=True):
            out[lo:hi] = rank[row[lo:hi] - a, ids[lo:hi]] - 1
    return outs


def model_path(model: str) -> Path:
    """The file of a model name: ``learned`` is the shipped 6p3d model, anything else a path."""
    if model == "learned":
        return SHIPPED_MODELS["6p3d"]
    return Path(model)


def _network(model: str) -> Any:
    return _core.learned.Network.from_file(str(model_path(model)))


def distil_round(seed: int, i: int, net: Any, model: str = "learned") -> list[tuple[Any, ...]]:
    """The positions of round ``i``: ``(seat, state, legal, q, heur, choice, cand)`` per kept
    decision.

    Raises ``RuntimeError`` if the player's own decision is not the id this module computes
    from the network's Q-values (the data would not be the player's)."""
    g = Game(seed, Rules().replace(max_rounds=1), game=i, start="random")
    state = g.state
    runners: dict[int, Any] = {}
    out: list[tuple[Any, ...]] = []
    margin = float(net.margin)
    while not state.match_over:
        seat = int(state.current_player)
        if seat not in runners:
            runners[seat] = _core.run.PolicyRunner(model, seed, i, seat)
        action = runners[seat].act(state)
        if state.phase == "play" and len(state.legal_actions()) > 1:
            feats, cands, afeats, h = _core.learned.learn_features(state)
            q = net.evaluate(feats, afeats, quantized=True)
            level = state.level or "2"
            ids = candidate_ids(state, cands)
            best = int(np.argmax(q))
            pick = best if q[best] > q[h] + margin else h
            legal = np.zeros(NUM_ABSTRACT, np.uint8)
            legal[ids] = 1
            qrow = np.zeros(NUM_ABSTRACT, np.float32)
            qrow[ids] = q
            played = _core.io.abstract_id(action, action.play.level if action.play is not None else level)
            if played != ids[pick]:
                raise RuntimeError(f"round {i}: the player played id {played}, the network picks {ids[pick]}")
            out.append((seat, feats, legal, qrow, int(ids[h]), int(ids[pick]), candidate_rows(state, legal)))
        state.apply(action)
    return out


def _pack(games: list[int], rows: list[list[tuple[Any, ...]]]) -> dict[str, np.ndarray]:
    flat = [(g, *r) for g, rs in zip(games, rows, strict=True) for r in rs]
    n = len(flat)
    return {
        "game": np.array([r[0] for r in flat], np.int64),
        "seat": np.array([r[1] for r in flat], np.int8),
        "state": (np.stack([r[2] for r in flat]) if n else np.zeros((0, STATE_FEATURES))).astype(np.float16),
        "legal": (np.stack([r[3] for r in flat]) if n else np.zeros((0, NUM_ABSTRACT))).astype(np.uint8),
        "q": (np.stack([r[4] for r in flat]) if n else np.zeros((0, NUM_ABSTRACT))).astype(np.float16),
        "heur": np.array([r[5] for r in flat], np.int16),
        "choice": np.array([r[6] for r in flat], np.int16),
        "cand": (np.concatenate([r[7] for r in flat]) if n
                 else np.zeros((0, ACTION_FEATURES))).astype(np.float16),
        "version": np.array(DISTIL_VERSION, np.int32),
    }


def distil(folder: str | os.PathLike[str], *, games: int, seed: int, shard_games: int = 50,
           model: str = "learned", minutes: float | None = None, log: Any = None) -> int:
    """Make (or resume) the distillation shards of rounds 0 .. games-1 of ``seed`` in ``folder``;
    returns the number of shards present. ``minutes``: no new shard is begun after that."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    net = _network(model)
    start = time.perf_counter()
    shards = -(-games // shard_games)
    for k in range(shards):
        path = shard_file(folder, k)
        if path.exists():
            continue
        if minutes is not None and time.perf_counter() - start > 60 * minutes:
            break
        t0, c0 = time.perf_counter(), time.process_time()
        idx = list(range(k * shard_games, min((k + 1) * shard_games, games)))
        arrays = _pack(idx, [distil_round(seed, i, net, model) for i in idx])
        tmp = path.with_name(path.name + f".tmp{os.getpid()}")
        with open(tmp, "wb") as fh:
            np.savez(fh, **arrays)
        os.replace(tmp, path)
        if log:
            log(f"{path.name}: {len(arrays['game'])} positions, {time.perf_counter() - t0:.1f} s wall, "
                f"{time.process_time() - c0:.1f} s CPU")
    return sum(shard_file(folder, k).exists() for k in range(shards))


def load_distil(folder: str | os.PathLike[str], limit: int | None = None) -> dict[str, np.ndarray]:
    """The concatenated arrays of the first ``limit`` shards of ``folder`` (all by default)."""
    files = sorted(Path(folder).glob("distil-*.npz"))[:limit]
    if not files:
        raise ValueError(f"no distillation shards in {str(folder)!r}")
    parts = [dict(np.load(f)) for f in files]
    keys = set.intersection(*(set(p) for p in parts)) - {"version"}
    return {k: np.concatenate([p[k] for p in parts]) for k in sorted(keys)}
