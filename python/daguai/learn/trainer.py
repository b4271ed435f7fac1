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

The branches are played out by the ``continuation`` pool (default the heuristic; a frozen
earlier generation for iterated training, docs/learning.md "Iterated training").
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from .actors import LocalActors, RayActors, Task
from .checkpoint import checkpoint_part as _checkpoint_part
from .checkpoint import load_checkpoint as _load_checkpoint
from .config import (
    CHECKPOINT,
    TrainConfig,
    check_continuation,
    check_keep,
    check_minutes,
    check_run_dir,
    config_json,
    snapshots,
)
from .model import QNet
from .runfiles import export, keep_snapshot, snapshots_to_keep
from .stopping import StopRequest

# TrainConfig: from .config; export: from .runfiles (the run's files beside the loop)
__all__ = ["TrainConfig", "TrainSummary", "train", "export"]


def splitmix64(x: int) -> int:
    """SplitMix64's output for state x (R17, cpp/engine/core/rng.hpp mix64): task hashing."""
    z = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31)


_CHECKPOINT = CHECKPOINT


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
                cfg.branch, cfg.rules, cfg.continuation, cfg.r11)


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


#: Seconds between progress lines when stderr is not a terminal (``progress="lines"``).
LINE_SECONDS = 30.0


def eval_due(step: int, every: int) -> bool:
    """Whether step ``step`` evaluates: every ``every`` steps, and before the first of those
    at steps 1, 2, 4, 8, ... as well, so that a short run (a 2-minute one is ~100 steps)
    draws a curve, not one dot. A function of the step alone: the same steps in a resumed
    run as in an uninterrupted one."""
    if every <= 0 or step <= 0:
        return False
    return step % every == 0 or (step < every and step & (step - 1) == 0)


class _Display:
    """Progress on stderr: ``"live"``, rich's live table (frames/s, rounds, loss, the latest
    evaluation) for a terminal; ``"lines"``, one plain line every :data:`LINE_SECONDS` and
    at each evaluation, for a log file or a pipe (which a live display would leave empty
    until the end); ``False``/``None``, nothing."""

    def __init__(self, mode: bool | str | None, out: Path) -> None:
        self.live: Any = None
        self.mode = "live" if mode is True else (mode or None)
        if self.mode not in (None, "live", "lines"):
            raise ValueError(f"progress must be True, False, 'live' or 'lines', got {mode!r}")
        self.out = out
        self.last_line = float("-inf")
        if self.mode != "live":
            return
        from rich.console import Console
        from rich.live import Live

        self.live = Live(console=Console(stderr=True), refresh_per_second=2, transient=False)
        self.live.start()

    def update(self, row: dict[str, Any], evaluated: bool = False) -> None:
        ev = row.get("eval")
        ev_text = f"{ev['mean']:+.3f} [{ev['lo']:+.3f}, {ev['hi']:+.3f}]" if ev else "-"
        if self.mode == "lines":
            now = time.monotonic()
            if evaluated or now - self.last_line >= LINE_SECONDS:
                self.last_line = now
                print(f"daguai train {self.out}: step {row['step']}, {row['frames']:,} frames, "
                      f"{row['fps']:,.0f} frames/s, {row['rounds']:,} rounds, loss {row['loss']:.4f}, "
                      f"eval vs heuristic {ev_text}, "
                      f"wall {time.strftime('%H:%M:%S', time.gmtime(row['wall']))}",
                      file=sys.stderr, flush=True)
            return
        if self.live is None:
            return
        from rich.table import Table

        t = Table(title=f"daguai train → {self.out}", show_header=True)
        for name in ("step", "frames", "frames/s", "rounds", "loss", "eval vs heuristic", "wall"):
            t.add_column(name, justify="right")
        t.add_row(str(row["step"]), f"{row['frames']:,}", f"{row['fps']:,.0f}", f"{row['rounds']:,}",
                  f"{row['loss']:.4f}", ev_text, time.strftime("%H:%M:%S", time.gmtime(row["wall"])))
        self.live.update(t)

    def close(self) -> None:
        if self.live is not None:
            self.live.stop()


@dataclass
class _RunState:
    """What a checkpoint holds of a run besides its configuration: the network, the
    optimiser, the counters, the weights its pending tasks were issued with, the evaluations
    and every call's command."""

    net: QNet
    opt: torch.optim.Optimizer
    step: int = 0
    frames: int = 0
    rounds: int = 0
    wall: float = 0.0  # of the earlier calls
    prev: bytes = b""  # the weights step ``step``'s tasks were issued with
    frames_issue: tuple[int, int] = (0, 0)  # frames when steps step and step + 1 were issued
    evals: list[dict[str, Any]] = field(default_factory=list)
    commands: list[dict[str, Any]] = field(default_factory=list)

    def save(self, path: Path, cfg: TrainConfig, wall_now: float) -> None:
        _save(path, {"net": self.net.state_dict(), "opt": self.opt.state_dict(), "step": self.step,
                     "frames": self.frames, "rounds": self.rounds, "prev_weights": self.prev,
                     "frames_issue": self.frames_issue, "wall": wall_now, "evals": self.evals,
                     "commands": self.commands, "config": config_json(cfg),
                     "torch_rng": torch.get_rng_state()})


def _open(out: Path, config: TrainConfig | None, resume: bool) -> tuple[TrainConfig, dict[str, Any] | None]:
    """The run's checked configuration and its checkpoint (None for a new run, whose logs and
    snapshots of an earlier run in ``out`` are removed)."""
    ckpt_path = out / _CHECKPOINT
    if not (resume and ckpt_path.exists()):
        import shutil

        shutil.rmtree(out / "tb", ignore_errors=True)
        (out / "evals.jsonl").unlink(missing_ok=True)
        for _, old in snapshots(out):
            old.unlink()
        return (config or TrainConfig()).check(), None
    ckpt = _load_checkpoint(ckpt_path)
    saved = ckpt["config"]
    if config is not None and config != saved:
        raise ValueError(f"{ckpt_path} was made with another configuration; resume with the "
                         "same settings or train into a new directory")
    return saved.check(), ckpt


def _state(cfg: TrainConfig, ckpt: dict[str, Any] | None, path: Path) -> _RunState:
    """A new run's network (seeded from the run's seed) or the checkpoint's, with its torch
    random state, so a resumed run goes on exactly as an uninterrupted one."""
    if ckpt is None:
        torch.manual_seed(int(splitmix64(cfg.seed) >> 1))
        net = QNet(cfg.widths)
        if cfg.init:  # warm start from a model (another table's, or an earlier generation)
            net = QNet.from_dgn(cfg.init)
            if tuple(net.widths) != tuple(cfg.widths):
                raise ValueError(f"init model {cfg.init!r} has widths {tuple(net.widths)}, the run "
                                 f"{tuple(cfg.widths)}")
        opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
        return _RunState(net, opt, prev=net.to_dgn(margin=cfg.margin, r11=cfg.r11))
    net = QNet(cfg.widths)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    with _checkpoint_part(path):
        net.load_state_dict(ckpt["net"])
        opt.load_state_dict(ckpt["opt"])
        torch.set_rng_state(ckpt["torch_rng"])
    return _RunState(net, opt, ckpt["step"], ckpt["frames"], ckpt["rounds"], ckpt["wall"],
                     ckpt["prev_weights"], ckpt["frames_issue"], ckpt["evals"],
                     ckpt.get("commands", []))


class _Issuer:
    """Issues a step's tasks to the actors; whether a step is in the warm start is decided by
    the frames seen when its tasks were issued (so it is deterministic)."""

    def __init__(self, cfg: TrainConfig, backend: Any) -> None:
        self.cfg, self.backend = cfg, backend

    def __call__(self, k: int, weights: bytes, frames_then: int) -> None:
        warm = frames_then < self.cfg.warm_frames
        for j in range(self.cfg.actors):
            self.backend.submit(_task(self.cfg, k, j, warm), None if warm else weights)


def _evaluate_now(s: _RunState, cfg: TrainConfig, out: Path, writer: Any, wall: float,
                  keep: int) -> dict[str, Any]:
    """Evaluate the network against the heuristic; log it to TensorBoard and evals.jsonl; keep
    the evaluated model as the step's snapshot (the last ``keep`` of them)."""
    path = s.net.save_dgn(out / "eval.dgn", {"step": s.step, "frames": s.frames,
                                             "rules": cfg.rules.to_dict()}, cfg.margin, r11=cfg.r11)
    keep_snapshot(out, path, s.step, keep)
    ev = _evaluate(path, cfg)
    ev.update(step=s.step, frames=s.frames, wall=wall)
    s.evals.append(ev)
    for key in ("mean", "lo", "hi"):
        writer.add_scalar(f"eval/heuristic_{key}", ev[key], s.step)
    with open(out / "evals.jsonl", "a") as fh:
        fh.write(json.dumps(ev) + "\n")
    return ev


def _log_step(writer: Any, s: _RunState, loss: float, fps: float) -> None:
    writer.add_scalar("train/loss", loss, s.step)
    writer.add_scalar("train/frames", s.frames, s.step)
    writer.add_scalar("train/frames_per_second", fps, s.step)
    writer.add_scalar("train/rounds", s.rounds, s.step)


def train(out: str | Path, config: TrainConfig | None = None, *, minutes: float = 10.0,
          max_frames: int | None = None, resume: bool = True, ray: str | None = None,
          progress: bool | str = False, checkpoint_minutes: float = 5.0,
          command: str | None = None, keep_snapshots: int | None = None) -> TrainSummary:
    """Train (or go on training) the learned player in run directory ``out``.

    Runs for ``minutes`` of wall time (or until the run has ``max_frames`` frames), then
    writes the checkpoint (also every ``checkpoint_minutes``) and ``latest.dgn``. With
    ``resume`` and a checkpoint in ``out``, the run goes on from it with the checkpoint's
    configuration (``config`` must then be None or equal to it). ``ray``: run the actors on
    a Ray cluster at that address instead of local processes. Evaluations (duplicate, against
    ``heuristic``) are logged to TensorBoard event files in ``out/tb`` and to
    ``out/evals.jsonl``; ``daguai train --plot out`` draws the curve. Each evaluated model is
    kept as ``out/snapshots/step{N}.dgn``, the last ``keep_snapshots`` of them (older ones are
    deleted; 0: none kept), for :func:`export`'s ``average_from``; None: the run's own setting
    when it resumes (the last call's, ``out/snapshots.keep``), else 8.
    """
    minutes = check_minutes("minutes", minutes)
    if keep_snapshots is not None:
        keep_snapshots = check_keep("keep_snapshots", keep_snapshots)
    checkpoint_minutes = check_minutes("checkpoint_minutes", checkpoint_minutes)
    out = check_run_dir(out)
    cfg, ckpt = _open(out, config, resume)
    keep_snapshots = snapshots_to_keep(out, keep_snapshots, ckpt is not None)
    check_continuation(cfg)  # the pool's model files, before any actor starts
    torch.set_num_threads(cfg.threads)
    s = _state(cfg, ckpt, out / _CHECKPOINT)
    # every call of the run, with the frames it started from (the history in exported models)
    s.commands.append({"command": command or "daguai.learn.train", "from_frames": s.frames,
                       "from_step": s.step, "minutes": minutes,
                       "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(out / "tb"))
    backend: Any = RayActors(ray) if ray else LocalActors(cfg.actors)
    display = _Display(progress, out)
    issue = _Issuer(cfg, backend)
    cur = s.net.to_dgn(margin=cfg.margin, r11=cfg.r11)
    issue(s.step, s.prev, s.frames_issue[0])
    issue(s.step + 1, cur, s.frames_issue[1])
    start = last_ckpt = time.monotonic()
    call_frames = 0
    loss = float("nan")
    stop = StopRequest()
    try:
        while (time.monotonic() - start < minutes * 60 and (max_frames is None or s.frames < max_frames)
               and not stop.requested):
            data = backend.collect(s.step, cfg.actors)
            loss, n = _learn(s.net, s.opt, data, cfg, s.step)
            s.frames += n
            call_frames += n
            s.rounds += sum(int(f["rounds"]) for f in data)
            s.step += 1
            s.prev, cur = cur, s.net.to_dgn(margin=cfg.margin, r11=cfg.r11)
            # pending: step (issued with prev's predecessor); issue step + 1 with the new weights
            s.frames_issue = (s.frames_issue[1], s.frames)
            issue(s.step + 1, cur, s.frames)
            wall = s.wall + time.monotonic() - start
            fps = call_frames / max(1e-9, time.monotonic() - start)
            _log_step(writer, s, loss, fps)
            row: dict[str, Any] = {"step": s.step, "frames": s.frames, "fps": fps, "rounds": s.rounds,
                                   "loss": loss, "wall": wall, "eval": s.evals[-1] if s.evals else None}
            evaluated = eval_due(s.step, cfg.eval_every)
            if evaluated:
                row["eval"] = _evaluate_now(s, cfg, out, writer, wall, keep_snapshots)
            writer.flush()
            display.update(row, evaluated)
            if time.monotonic() - last_ckpt >= checkpoint_minutes * 60:
                s.save(out / _CHECKPOINT, cfg, s.wall + time.monotonic() - start)
                last_ckpt = time.monotonic()
    finally:
        stop.restore()
        display.close()
        backend.close()
        writer.close()
    if stop.requested:
        s.commands[-1]["stopped"] = (f"{stop.requested} at "
                                     f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}, after the step")
    wall_call = time.monotonic() - start
    s.save(out / _CHECKPOINT, cfg, s.wall + wall_call)
    meta = {"commands": s.commands, "seed": cfg.seed, "step": s.step,
            "frames": s.frames, "rounds": s.rounds, "wall_seconds": round(s.wall + wall_call, 1),
            "widths": list(cfg.widths), "config": config_json(cfg), "rules": cfg.rules.to_dict()}
    s.net.save_dgn(out / "latest.dgn", meta, cfg.margin, r11=cfg.r11)
    return TrainSummary(out, s.step, s.frames, s.rounds, wall_call, s.wall + wall_call,
                        call_frames / max(1e-9, wall_call), list(s.evals))
