"""Labels from the search (docs/learning.md "Labels from the search"): self-play rounds in which
a search policy (the teacher, ``expert`` by default) decides for the labelled seats, and each of
its play-phase decisions is kept with the position's features, the legal abstract ids, the
teacher's choice, its race's per-group scores and the round's result for the seat's team.

The rounds are ``Game(seed, rules with max_rounds=1, game=i, start=...)`` for i = 0 .. games-1
(R17): round i depends only on (seed, i) and the settings. Each decision of a labelled seat is
the teacher's, taken through the engine's own policy path with its race recorded
(``_core.catalog._traced_decision``, search.hpp ``SearchTrace``) on the stream
(seed, (i << 16) + ply, policy, seat) (:func:`decision_stream`): the labels are exactly what
the teacher plays from that stream. Other seats play ``others`` (a built-in policy's
``PolicyRunner`` on the stream (seed, i, policy, seat)).

Shards: ``shard-KKKKK.npz`` holds rounds K*N .. K*N+N-1 (N = ``shard_games``), written to a
temporary name and renamed, so a shard file is complete or absent; ``manifest.json`` keeps the
settings, the code's commit, and per shard its rounds, decisions, wall and CPU seconds. A
killed run resumes where it stopped: the shards present are kept (and checked), the missing
ones are made; no round is labelled twice. A folder made with other settings is refused.

The shards' arrays: :mod:`daguai.learn.shards`.
"""

from __future__ import annotations

import io
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core
from ..game import Game
from ..rules import Rules
from .provenance import code_commit, network_change, network_digests
from .shards import (
    _ARM,
    _DTYPES,
    _ROW,
    LABEL_VERSION,
    NUM_ABSTRACT,
    STATE_FEATURES,
    LabelError,
    LabelSet,
    load_labels,
    load_shard,
    shard_path,
)
from .stopping import StopRequest, ignore_interrupt, interrupts_ignored

MANIFEST = "manifest.json"
_TABLES = ("6p3d", "4p2d")

__all__ = [
    "LABEL_VERSION",
    "LabelConfig",
    "LabelError",
    "LabelSet",
    "decision_stream",
    "label",
    "label_round",
    "label_shard",
    "load_labels",
    "load_shard",
    "shard_path",
]


@dataclass(frozen=True)
class LabelConfig:
    """The settings of a labelling run (all in the manifest; a resumed run must match).

    ``seats``: the labelled seats (all when empty). ``others``: the policy of the other seats
    (default: the teacher too, so every seat plays the teacher). ``start``: "random" (a random
    point of a match: levels and tribute, docs/game.md "Start states") or "fresh"."""

    games: int = 1000
    seed: int = 0
    table: str = "6p3d"
    teacher: str = "expert"
    others: str = ""
    seats: tuple[int, ...] = ()
    shard_games: int = 50
    start: str = "random"
    version: int = field(default=LABEL_VERSION)

    def __post_init__(self) -> None:
        for name in ("games", "shard_games"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{name} must be a positive integer, got {v!r}")
        if self.games > 1 << 40:
            raise ValueError(f"games must be at most 2**40, got {self.games}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed < 1 << 64:
            raise ValueError(f"seed must be an integer in 0 .. 2**64 - 1, got {self.seed!r}")
        if self.table not in _TABLES:
            raise ValueError(f"table must be one of {', '.join(_TABLES)}, got {self.table!r}")
        if self.start not in ("random", "fresh"):
            raise ValueError(f"start must be 'random' or 'fresh', got {self.start!r}")
        seats = 6 if self.table == "6p3d" else 4  # R18
        if any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < seats for s in self.seats):
            raise ValueError(f"seats must be seat numbers 0..{seats - 1}, got {list(self.seats)!r}")
        entries = {e["name"]: e["kind"] for e in _core.catalog.policy_entries()}
        if entries.get(self.teacher) != "search" and "@" not in self.teacher:
            names = ", ".join(n for n, k in entries.items() if k == "search")
            raise ValueError(f"the teacher must be a search policy ({names}), got {self.teacher!r}")
        if self.others and self.others not in entries and self.others != "learned":
            raise ValueError(f"others must be a built-in policy, got {self.others!r}")

    def rules(self) -> Rules:
        return Rules(table=self.table).replace(max_rounds=1)

    def labelled(self, seat: int) -> bool:
        return not self.seats or seat in self.seats

    def shards(self) -> int:
        return -(-self.games // self.shard_games)

    def roles(self) -> dict[str, str]:
        return {"teacher": self.teacher, **({"others": self.others} if self.others else {})}

    def networks(self) -> dict[str, str | None]:
        """The SHA-256 of the network file each role's policy reads (None: none), recorded with
        every shard, so that a folder never mixes two networks under one name."""
        return network_digests(self.roles(), self.table)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["seats"] = list(self.seats)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any], where: str) -> LabelConfig:
        try:
            d = dict(d)
            d["seats"] = tuple(d.get("seats", ()))
            return cls(**d)
        except (TypeError, ValueError) as exc:
            raise LabelError(f"{where}: bad settings ({exc})") from None


def decision_stream(game: int, ply: int) -> int:
    """The stream index of decision ``ply`` of round ``game`` (the teacher's random stream is
    ``(seed, decision_stream(game, ply), policy, seat)``)."""
    return (game << 16) + ply


def _policy_names() -> set[str]:
    return {e["name"] for e in _core.catalog.policy_entries()}


def label_round(cfg: LabelConfig, i: int) -> tuple[list[dict[str, Any]], int]:
    """Play round ``i`` of ``cfg`` and label its play-phase decisions of labelled seats with more
    than one legal action: ``(records, decisions)`` (decisions: every decision of the round)."""
    g = Game(cfg.seed, cfg.rules(), game=i, start=cfg.start)
    state = g.state
    others = cfg.others or cfg.teacher
    runners: dict[int, Any] = {}
    records: list[dict[str, Any]] = []
    ply = 0
    while not state.match_over:
        seat = int(state.current_player)
        legal = state.legal_actions()
        if cfg.labelled(seat) or others == cfg.teacher:
            action, searched, race_seed, rows, best, _ = _core.catalog._traced_decision(
                state, cfg.teacher, cfg.seed, decision_stream(i, ply))
            if cfg.labelled(seat) and len(legal) > 1 and state.phase == "play":
                records.append(_record(state, i, ply, seat, action, searched, race_seed, rows))
        else:
            if seat not in runners:
                runners[seat] = _core.run.PolicyRunner(others, cfg.seed, i, seat)
            action = runners[seat].act(state)
        state.apply(action)
        ply += 1
    result = state.result(-1)
    for r in records:
        r["value"], r["outcome"] = _team_result(result, r["seat"])
    return records, ply


def _team_result(result: dict[str, Any], seat: int) -> tuple[float, int]:
    """The round's score change of ``seat`` (R13; the same for its partners: the team's) and its
    team's outcome (+1 won, 0 draw, -1 lost; R1: seats 0, 2, 4 are team 0)."""
    winner = result.get("winner")
    outcome = 0 if winner is None or winner < 0 else (1 if winner == seat % 2 else -1)
    return float(result["scores"][seat]), outcome


def _record(state: Any, i: int, ply: int, seat: int, action: Any, searched: bool, race_seed: int,
            rows: list[Any]) -> dict[str, Any]:
    level = state.level
    features = _core.learned.learn_features(state)[0]
    mask = _core.io.abstract_mask(state)[0]

    def aid(a: Any) -> int:
        play = a.play
        return int(_core.io.abstract_id(a, play.level if play is not None else (level or "2")))

    arms = []
    for arm, n, wins, _draws, losses, score, rnd, _values in rows:
        arms.append((aid(arm), n, score / n if n else 0.0, (wins - losses) / n if n else 0.0, rnd, str(arm)))
    return {"game": i, "ply": ply, "seat": seat, "state": features, "legal": mask, "choice": aid(action),
            "incumbent": arms[0][0] if arms else -1, "searched": bool(searched), "race_seed": race_seed,
            "action": str(action), "arms": arms}


def _pack(records: list[dict[str, Any]], games: Sequence[int], decisions: Sequence[int]) -> dict[str, Any]:
    n = len(records)
    out: dict[str, Any] = {}
    for k in _ROW:
        if k == "action":
            out[k] = np.array([r[k] for r in records], dtype=str) if n else np.zeros(0, dtype="<U1")
        elif k == "state":
            out[k] = (np.stack([r[k] for r in records]).astype(np.float32) if n
                      else np.zeros((0, STATE_FEATURES), np.float32))
        elif k == "legal":
            out[k] = (np.stack([r[k] for r in records]).astype(np.uint8) if n
                      else np.zeros((0, NUM_ABSTRACT), np.uint8))
        else:
            out[k] = np.array([r[k] for r in records], dtype=_DTYPES[k])
    arms = [a for r in records for a in r["arms"]]
    out["arm_start"] = np.concatenate([[0], np.cumsum([len(r["arms"]) for r in records])]).astype(np.int32)
    for j, k in enumerate(_ARM):
        if k == "arm_action":
            out[k] = np.array([a[j] for a in arms], dtype=str) if arms else np.zeros(0, dtype="<U1")
        else:
            out[k] = np.array([a[j] for a in arms], dtype=_DTYPES[k])
    out["games"] = np.asarray(games, dtype=np.int64)
    out["game_decisions"] = np.asarray(decisions, dtype=np.int32)
    out["version"] = np.array(LABEL_VERSION, dtype=np.int32)
    return out


def label_shard(cfg: LabelConfig, k: int) -> tuple[dict[str, Any], bytes]:
    """Label the rounds of shard ``k``: its manifest entry and its file's bytes (a compressed
    ``.npz``). Depends only on (``cfg``, ``k``), wherever it runs (a local process, a Ray
    actor on another machine); the caller writes the file (:func:`make_shard`)."""
    wall, cpu = time.perf_counter(), time.process_time()
    first = k * cfg.shard_games
    games = list(range(first, min(first + cfg.shard_games, cfg.games)))
    records: list[dict[str, Any]] = []
    decisions = []
    for i in games:
        rec, n = label_round(cfg, i)
        records += rec
        decisions.append(n)
    buf = io.BytesIO()
    np.savez_compressed(buf, **_pack(records, games, decisions))
    data = buf.getvalue()
    return ({"shard": k, "file": shard_path(".", k).name, "games": [games[0], games[-1] + 1],
             "labels": len(records), "decisions": int(sum(decisions)),
             "wall_s": round(time.perf_counter() - wall, 3), "cpu_s": round(time.process_time() - cpu, 3),
             "bytes": len(data), "networks": cfg.networks()}, data)


def _write_shard(folder: str | os.PathLike[str], k: int, data: bytes) -> Path:
    """Write shard ``k``'s bytes to its file atomically (a temporary name, then renamed)."""
    path = shard_path(folder, k)
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    return path


def make_shard(cfg: LabelConfig, k: int, folder: str | os.PathLike[str]) -> dict[str, Any]:
    """Label the rounds of shard ``k`` and write its file (atomically); its manifest entry."""
    entry, data = label_shard(cfg, k)
    _write_shard(folder, k, data)
    return entry


def _read_manifest(folder: Path) -> dict[str, Any] | None:
    path = folder / MANIFEST
    if not path.exists():
        return None
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise LabelError(f"{str(path)!r} is not a label manifest: {exc}") from None
    if (not isinstance(doc, dict) or doc.get("version") != LABEL_VERSION
            or not isinstance(doc.get("config"), dict) or not isinstance(doc.get("shards"), dict)):
        raise LabelError(f"{str(path)!r} is not a label manifest of version {LABEL_VERSION}")
    return doc


def _write_manifest(folder: Path, doc: dict[str, Any]) -> None:
    path = folder / MANIFEST
    tmp = path.with_name(MANIFEST + f".tmp{os.getpid()}")
    tmp.write_text(json.dumps(doc, indent=1) + "\n")
    os.replace(tmp, path)


def _shard_job(args: tuple[dict[str, Any], int]) -> tuple[dict[str, Any], bytes]:
    """One shard in a worker (a local process or a Ray task): its entry and bytes."""
    return label_shard(LabelConfig.from_json(args[0], "label settings"), args[1])


def _on_ray(address: str, jobs: list[tuple[dict[str, Any], int]], stop: Callable[[], bool],
            timeout: float | None) -> Iterator[tuple[dict[str, Any], bytes]]:
    """Each job's result as it is done, the jobs run as Ray tasks of one CPU each (Ray runs as
    many at a time as the cluster has CPUs); the ones not done when ``stop()`` turns true, or
    when the caller stops, are cancelled."""
    from .actors import ray_connect

    ray = ray_connect(address, timeout)
    remote = ray.remote(num_cpus=1, max_retries=1)(_shard_job)
    pending = [remote.remote(job) for job in jobs]
    try:
        while pending and not stop():
            ready, pending = ray.wait(pending, num_returns=1)
            yield ray.get(ready[0])
    finally:
        for ref in pending:
            ray.cancel(ref)


def label(folder: str | os.PathLike[str], cfg: LabelConfig, *, workers: int = 1,
          stop_after: float | None = None, log: Callable[[str], None] | None = None,
          ray: str | None = None, ray_timeout: float | None = None) -> dict[str, Any]:
    """Make (or resume) the label folder of ``cfg``; returns the manifest.

    Shards already in the folder are checked (:func:`load_shard`) and kept; the missing ones
    are labelled, ``workers`` local processes at a time, or with ``ray`` (an address: "auto",
    host:port, "local") as Ray tasks of one CPU each, as many at a time as the cluster has
    CPUs. Each shard is made by one worker and written here by this process; the shards do not
    depend on where they were made. ``stop_after``: seconds, after which no new shard is
    begun (the run is resumable); SIGTERM or SIGINT stops it the same way. Raises
    :class:`LabelError` for a folder of other settings or a damaged shard."""
    if ray is not None and workers != 1:
        raise ValueError("label: workers are local processes; with ray the cluster's CPUs decide")
    networks = cfg.networks()  # a bad network file is refused before the folder is touched
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    doc = _read_manifest(folder)
    if doc is None:
        doc = {"version": LABEL_VERSION, "config": cfg.to_json(), "commits": [], "shards": {},
               "rules": cfg.rules().to_dict()}
    elif LabelConfig.from_json(doc["config"], str(folder / MANIFEST)) != cfg:
        raise LabelError(f"{str(folder / MANIFEST)!r} was made with other settings: "
                         f"{doc['config']} (asked: {cfg.to_json()})")
    for k, entry in sorted(doc["shards"].items(), key=lambda kv: int(kv[0])):
        _same_networks(folder, f"shard {k}", entry, networks, cfg)
    commit = code_commit()
    if commit not in doc["commits"]:
        doc["commits"].append(commit)
    # the shards present on disk (a shard written before the manifest was too) are checked and kept
    for k in range(cfg.shards()):
        path = shard_path(folder, k)
        if path.exists():
            arrays = load_shard(path)
            games = arrays["games"].tolist()
            first = k * cfg.shard_games
            last = min(first + cfg.shard_games, cfg.games) - 1
            if games != list(range(first, last + 1)):
                raise LabelError(f"label shard {str(path)!r} holds rounds {games[0]} .. {games[-1]}, "
                                 f"not {first} .. {last}")
        if str(k) not in doc["shards"] and path.exists():
            doc["shards"][str(k)] = {"shard": k, "file": path.name, "games": [games[0], games[-1] + 1],
                                     "labels": int(len(arrays["choice"])),
                                     "decisions": int(arrays["game_decisions"].sum()),
                                     "wall_s": None, "cpu_s": None, "bytes": path.stat().st_size}
        elif str(k) in doc["shards"] and not path.exists():
            del doc["shards"][str(k)]  # removed by hand: made again
    _write_manifest(folder, doc)
    todo = [k for k in range(cfg.shards()) if str(k) not in doc["shards"]]
    start = time.perf_counter()

    def done(entry: dict[str, Any]) -> None:
        entry["commit"] = commit
        doc["shards"][str(entry["shard"])] = entry
        _summarize(doc)
        _write_manifest(folder, doc)
        if log:
            log(f"shard {entry['shard']}: {entry['labels']} labels, {entry['decisions']} decisions, "
                f"{entry['cpu_s']} CPU s")

    stop = StopRequest()  # SIGTERM or Ctrl-C: no new shard, the ones made are kept

    def late() -> bool:
        return bool(stop.requested) or (stop_after is not None and time.perf_counter() - start > stop_after)

    made_by = f"ray {ray}" if ray is not None else "this process" if workers <= 1 else "local processes"

    def keep(entry: dict[str, Any], data: bytes) -> None:
        _same_networks(folder, f"shard {entry['shard']} (made by {made_by})", entry, networks, cfg)
        _write_shard(folder, entry["shard"], data)
        done({**entry, "made_by": made_by})

    jobs = [(cfg.to_json(), k) for k in todo]
    with stop:
        if ray is not None:
            for entry, data in _on_ray(ray, jobs, late, ray_timeout):
                keep(entry, data)
        elif workers <= 1:
            for k in todo:
                if late():
                    break
                keep(*label_shard(cfg, k))
        else:
            import multiprocessing as mp

            with interrupts_ignored():  # the workers start with Ctrl-C ignored
                pool = mp.get_context("spawn").Pool(workers, initializer=ignore_interrupt)
            with pool:
                for entry, data in pool.imap_unordered(_shard_job, jobs):
                    keep(entry, data)
                    if late():
                        pool.terminate()
                        break
    if stop.requested and log:
        log(f"stopped by {stop.requested}: the shards made are kept; the same command resumes")
    _summarize(doc)
    _write_manifest(folder, doc)
    return doc


def _same_networks(folder: Path, what: str, entry: dict[str, Any], networks: dict[str, str | None],
                   cfg: LabelConfig) -> None:
    """LabelError unless ``entry`` was labelled over ``networks`` (a shard made before the
    networks were recorded is taken as it is)."""
    if "networks" not in entry:
        return
    recorded = entry["networks"]
    if not isinstance(recorded, dict) or not all(v is None or isinstance(v, str) for v in recorded.values()):
        raise LabelError(f"{str(folder / MANIFEST)!r}: {what} has a bad networks record: {recorded!r:.80}")
    change = network_change(recorded, networks, cfg.roles())
    if change:
        raise LabelError(f"{str(folder / MANIFEST)!r}: {what} was labelled with other networks: "
                         f"{change}; label into a new folder, or name the network by its file "
                         f"(--teacher expert@FILE) in one")


def _summarize(doc: dict[str, Any]) -> None:
    shards = doc["shards"].values()
    doc["summary"] = {
        "shards": len(doc["shards"]),
        "games": sum(s["games"][1] - s["games"][0] for s in shards),
        "labels": sum(s["labels"] for s in shards),
        "decisions": sum(s["decisions"] for s in shards),
        "cpu_s": round(sum(s["cpu_s"] or 0.0 for s in shards), 3),
        "wall_s": round(sum(s["wall_s"] or 0.0 for s in shards), 3),
        "bytes": sum(s["bytes"] for s in shards),
    }
