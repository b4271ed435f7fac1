"""Deep Monte-Carlo self-play (docs/learning.md "Training"): actors play rounds in C++ and
record branch pairs (the state features, the seat's choice and one alternative, each with the
outcome of the round played out from it); the learner fits ``Q(s, a)`` to the outcomes by
mean squared error (DouZero's DMC) plus the error of the pair's difference (the paired
outcomes share the deal, the hands and the continuation, so their difference estimates the
alternative's advantage with far less noise than two separate rounds).

The schedule is a deterministic pipeline. Step ``k`` trains on the frames of ``actors``
tasks; those tasks were issued with the weights after step ``k - 2`` (one step stale, so
actors and learner work at the same time), and every task's frames depend only on the task
(:mod:`daguai.learn.actors`). With the same seed and configuration a resumed run trains on
exactly the frames of an uninterrupted one, and on one machine with the same thread count its
weights are the same (tests/learn/test_learn_trainer.py checks both); across machines PyTorch's
float kernels may differ in the last bits.

Phases: for the first ``warm_frames`` frames (the warm start) every seat plays the heuristic,
so the network learns the value of each alternative to the heuristic's play; after them the
recorded seats play the network (with its switching ``margin``), each task either self-play
(all seats the network) or the network's team against the heuristic, by ``self_play``.
"""

from __future__ import annotations

import json
import shlex
import sys
import time
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ..rules import Rules
from .actors import LocalActors, RayActors, Task
from .model import DEFAULT_WIDTHS, QNet

__all__ = ["TrainConfig", "TrainSummary", "train", "export"]


def splitmix64(x: int) -> int:
    """SplitMix64's output for state x (R17, cpp/engine/core/rng.hpp mix64): task hashing."""
    z = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31)

_CHECKPOINT = "checkpoint.pt"
_MAX_ACTORS = 256


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

    def check(self) -> TrainConfig:
        ints = {"seed": (0, 2**64 - 1), "actors": (1, _MAX_ACTORS), "games_per_task": (1, 1 << 16),
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
        if self.reward not in ("wl", "score"):
            raise ValueError(f"reward must be 'wl' or 'score', got {self.reward!r}")
        if not isinstance(self.rules, Rules):
            raise ValueError(f"rules must be a daguai.Rules, got {type(self.rules).__name__}")
        QNet(self.widths)  # checks the widths
        return replace(self, widths=tuple(int(w) for w in self.widths))


@dataclass
class TrainSummary:
    """What a call of :func:`train` did (the run's totals are in its checkpoint)."""

    out: Path
    step: int
    frames: int
    rounds: int
    wall_seconds: float  # of this call
    total_wall_seconds: float  # of the run, over every resumed call
    frames_per_second: float  # of this call
    evals: list[dict[str, Any]]


def _task(cfg: TrainConfig, step: int, j: int, warm: bool) -> Task:
    """Task j of a step: its games, seats and recording (a function of the config only)."""
    k = step * cfg.actors + j
    seats = 6 if cfg.rules.table == "6p3d" else 4
    first = k * cfg.games_per_task
    if warm:
        policies, record = ("heuristic",) * seats, (True,) * seats
    else:
        u = splitmix64(cfg.seed ^ splitmix64(k)) / 2**64
        if u < cfg.self_play:
            policies, record = ("model",) * seats, (True,) * seats
        else:  # the network's team against the heuristic; which team alternates
            team = k % 2
            policies = tuple("model" if s % 2 == team else "heuristic" for s in range(seats))
            record = tuple(s % 2 == team for s in range(seats))
    return Task(step, j, cfg.seed, first, cfg.games_per_task, policies, record, cfg.epsilon,
                cfg.branch, cfg.rules)


def _learn(net: QNet, opt: torch.optim.Optimizer, frames: list[dict[str, np.ndarray]],
           cfg: TrainConfig, step: int) -> tuple[float, int]:
    """One pass over the step's pairs in shuffled minibatches; (mean loss, frames).

    Loss per pair (m = the seat's choice, a = the alternative, G their outcomes):
    ``(Q_m - G_m)^2 + (Q_a - G_a)^2 + pair_weight * ((Q_a - Q_m) - (G_a - G_m))^2``, halved.
    """
    state = torch.from_numpy(np.concatenate([f["state"] for f in frames]))
    action = torch.from_numpy(np.concatenate([f["action"] for f in frames]))
    key = "target" if cfg.reward == "wl" else "score"
    target = torch.from_numpy(np.concatenate([f[key] for f in frames]))
    if cfg.reward == "score":
        target = target / 3.0
    n = int(target.shape[0])
    if n == 0:
        return float("nan"), 0
    pairs = n // 2
    gen = torch.Generator().manual_seed(int(splitmix64(cfg.seed ^ 0x5EED ^ step) >> 1))
    order = torch.randperm(pairs, generator=gen)
    per_batch = max(1, cfg.batch // 2)
    total, count = 0.0, 0
    for lo in range(0, pairs, per_batch):
        p = order[lo:lo + per_batch]
        idx = torch.stack([2 * p, 2 * p + 1], dim=1).reshape(-1)
        q = net(state[idx], action[idx]).reshape(-1, 2)
        g = target[idx].reshape(-1, 2)
        value = torch.mean((q - g) ** 2)
        diff = torch.mean(((q[:, 1] - q[:, 0]) - (g[:, 1] - g[:, 0])) ** 2)
        loss = value + 0.5 * cfg.pair_weight * diff
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 10.0)
        opt.step()
        total += float(loss.detach()) * len(p)
        count += len(p)
    return total / count, n


def _save(path: Path, obj: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    torch.save(obj, tmp)
    tmp.replace(path)


def _evaluate(model_path: Path, cfg: TrainConfig, opponent: str = "heuristic") -> dict[str, float]:
    from ..run.evaluation import evaluate

    r = evaluate(str(model_path), opponent, cfg.eval_deals, seed=cfg.eval_seed, rules=cfg.rules,
                 threads=1)
    lo, hi = r.net_win_ci
    return {"mean": float(r.net_win_rate), "lo": float(lo), "hi": float(hi),
            "deals": cfg.eval_deals, "seed": cfg.eval_seed, "opponent": opponent}


class _Display:
    """The rich progress display (stderr): frames/s, rounds, loss, the latest evaluation."""

    def __init__(self, enabled: bool, out: Path) -> None:
        self.live: Any = None
        if not enabled:
            return
        from rich.console import Console
        from rich.live import Live

        self.out = out
        self.live = Live(console=Console(stderr=True), refresh_per_second=2, transient=False)
        self.live.start()

    def update(self, row: dict[str, Any]) -> None:
        if self.live is None:
            return
        from rich.table import Table

        t = Table(title=f"daguai train → {self.out}", show_header=True)
        for name in ("step", "frames", "frames/s", "rounds", "loss", "eval vs heuristic", "wall"):
            t.add_column(name, justify="right")
        ev = row.get("eval")
        ev_text = f"{ev['mean']:+.3f} [{ev['lo']:+.3f}, {ev['hi']:+.3f}]" if ev else "-"
        t.add_row(str(row["step"]), f"{row['frames']:,}", f"{row['fps']:,.0f}", f"{row['rounds']:,}",
                  f"{row['loss']:.4f}", ev_text, time.strftime("%H:%M:%S", time.gmtime(row["wall"])))
        self.live.update(t)

    def close(self) -> None:
        if self.live is not None:
            self.live.stop()


def train(out: str | Path, config: TrainConfig | None = None, *, minutes: float = 10.0,
          max_frames: int | None = None, resume: bool = True, ray: str | None = None,
          progress: bool = False, checkpoint_minutes: float = 5.0,
          command: str | None = None) -> TrainSummary:
    """Train (or go on training) the learned player in run directory ``out``.

    Runs for ``minutes`` of wall time (or until the run has ``max_frames`` frames), then
    writes the checkpoint (also every ``checkpoint_minutes``) and ``latest.dgn``. With
    ``resume`` and a checkpoint in ``out``, the run goes on from it with the checkpoint's
    configuration (``config`` must then be None or equal to it). ``ray``: run the actors on
    a Ray cluster at that address instead of local processes. Evaluations (duplicate, against
    ``heuristic``) are logged to TensorBoard event files in ``out/tb`` and to
    ``out/evals.jsonl``; ``daguai train --plot out`` draws the curve.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    ckpt_path = out / _CHECKPOINT
    ckpt: dict[str, Any] | None = None
    if not (resume and ckpt_path.exists()):  # a new run: no logs of an earlier one
        import shutil

        shutil.rmtree(out / "tb", ignore_errors=True)
        (out / "evals.jsonl").unlink(missing_ok=True)
    if resume and ckpt_path.exists():
        ckpt = torch.load(ckpt_path, weights_only=False)
        saved = ckpt["config"]
        if config is not None and config != saved:
            raise ValueError(f"{ckpt_path} was made with another configuration; resume with the "
                             "same settings or train into a new directory")
        config = saved
    cfg = (config or TrainConfig()).check()
    if not (isinstance(minutes, (int, float)) and 0 < minutes <= 1e6):
        raise ValueError(f"minutes must be a positive number, got {minutes!r}")
    torch.set_num_threads(cfg.threads)
    if ckpt is None:
        torch.manual_seed(int(splitmix64(cfg.seed) >> 1))
        net = QNet(cfg.widths)
        opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
        step = frames = rounds = 0
        total_wall = 0.0
        prev = net.to_dgn(margin=cfg.margin)
        evals: list[dict[str, Any]] = []
        commands: list[dict[str, Any]] = []
    else:
        net = QNet(cfg.widths)
        net.load_state_dict(ckpt["net"])
        opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
        opt.load_state_dict(ckpt["opt"])
        step, frames, rounds = ckpt["step"], ckpt["frames"], ckpt["rounds"]
        total_wall, prev, evals = ckpt["wall"], ckpt["prev_weights"], ckpt["evals"]
        commands = ckpt.get("commands", [])
        torch.set_rng_state(ckpt["torch_rng"])

    # every call of the run, with the frames it started from (the history in exported models)
    commands.append({"command": command or "daguai.learn.train", "from_frames": frames,
                     "from_step": step, "minutes": minutes,
                     "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(out / "tb"))
    backend: Any = RayActors(ray) if ray else LocalActors(cfg.actors)
    display = _Display(progress, out)
    # frames seen when a step's tasks were issued decide the warm start (deterministic)
    warm_at: dict[int, bool] = {}

    def issue(k: int, weights: bytes, frames_then: int) -> None:
        warm_at[k] = frames_then < cfg.warm_frames
        for j in range(cfg.actors):
            t = _task(cfg, k, j, warm_at[k])
            backend.submit(t, None if warm_at[k] else weights)

    cur = net.to_dgn(margin=cfg.margin)
    frames_issue = ckpt["frames_issue"] if ckpt else (0, 0)
    issue(step, prev, frames_issue[0])
    issue(step + 1, cur, frames_issue[1])
    start = last_ckpt = time.monotonic()
    call_frames = 0
    loss = float("nan")

    def checkpoint() -> None:
        nonlocal last_ckpt
        _save(ckpt_path, {"net": net.state_dict(), "opt": opt.state_dict(), "step": step,
                          "frames": frames, "rounds": rounds, "prev_weights": prev,
                          "frames_issue": frames_issue,
                          "wall": total_wall + time.monotonic() - start, "evals": evals,
                          "commands": commands,
                          "config": cfg, "torch_rng": torch.get_rng_state()})
        last_ckpt = time.monotonic()

    try:
        while True:
            if time.monotonic() - start >= minutes * 60:
                break
            if max_frames is not None and frames >= max_frames:
                break
            data = backend.collect(step, cfg.actors)
            loss, n = _learn(net, opt, data, cfg, step)
            frames += n
            call_frames += n
            rounds += sum(int(f["rounds"]) for f in data)
            step += 1
            prev, cur = cur, net.to_dgn(margin=cfg.margin)
            # pending: step (issued with prev's predecessor); issue step + 1 with the new weights
            frames_issue = (frames_issue[1], frames)
            issue(step + 1, cur, frames)
            wall = total_wall + time.monotonic() - start
            fps = call_frames / max(1e-9, time.monotonic() - start)
            writer.add_scalar("train/loss", loss, step)
            writer.add_scalar("train/frames", frames, step)
            writer.add_scalar("train/frames_per_second", fps, step)
            writer.add_scalar("train/rounds", rounds, step)
            row: dict[str, Any] = {"step": step, "frames": frames, "fps": fps, "rounds": rounds,
                                   "loss": loss, "wall": wall, "eval": evals[-1] if evals else None}
            if cfg.eval_every and step % cfg.eval_every == 0:
                path = net.save_dgn(out / "eval.dgn", {"step": step, "frames": frames}, cfg.margin)
                ev = _evaluate(path, cfg)
                ev.update(step=step, frames=frames, wall=wall)
                evals.append(ev)
                for key in ("mean", "lo", "hi"):
                    writer.add_scalar(f"eval/heuristic_{key}", ev[key], step)
                with open(out / "evals.jsonl", "a") as fh:
                    fh.write(json.dumps(ev) + "\n")
                row["eval"] = ev
            writer.flush()
            display.update(row)
            if time.monotonic() - last_ckpt >= checkpoint_minutes * 60:
                checkpoint()
    finally:
        display.close()
        backend.close()
        writer.close()
    checkpoint()
    wall_call = time.monotonic() - start
    meta = {"commands": commands, "seed": cfg.seed, "step": step,
            "frames": frames, "rounds": rounds, "wall_seconds": round(total_wall + wall_call, 1),
            "widths": list(cfg.widths), "config": _config_json(cfg)}
    net.save_dgn(out / "latest.dgn", meta, cfg.margin)
    return TrainSummary(out, step, frames, rounds, wall_call, total_wall + wall_call,
                        call_frames / max(1e-9, wall_call), list(evals))


def _config_json(cfg: TrainConfig) -> dict[str, Any]:
    d = {f.name: getattr(cfg, f.name) for f in fields(cfg) if f.name != "rules"}
    d["rules"] = cfg.rules.to_dict()
    d["widths"] = list(cfg.widths)
    return d


def export(run: str | Path, path: str | Path, command: str | None = None,
           margin: float | None = None) -> Path:
    """Write the run's current network (its checkpoint) as a ``.dgn`` file with its history
    (command, seed, step, frames, wall time) in the metadata; ``margin``: the switching rule
    (default: the run's)."""
    ckpt_path = Path(run) / _CHECKPOINT
    if not ckpt_path.exists():
        raise ValueError(f"no checkpoint in {str(run)!r}")
    ckpt = torch.load(ckpt_path, weights_only=False)
    cfg: TrainConfig = ckpt["config"]
    net = QNet(cfg.widths)
    net.load_state_dict(ckpt["net"])
    meta = {"commands": ckpt.get("commands", []),
            "export": command or " ".join(shlex.quote(a) for a in sys.argv), "seed": cfg.seed,
            "step": ckpt["step"], "frames": ckpt["frames"], "rounds": ckpt["rounds"],
            "wall_seconds": round(ckpt["wall"], 1), "widths": list(cfg.widths),
            "config": _config_json(cfg), "evals": ckpt["evals"][-3:]}
    return net.save_dgn(path, meta, cfg.margin if margin is None else margin)
