"""A one-pass student (docs/learning.md "A one-pass student"): the policy head of
:class:`daguai.learn.heads.Heads` (state features and legal ids in, a softmax over the 444 abstract
ids out, one pass per decision), taught first by the Q-network (distillation positions of
:mod:`daguai.learn.distil`: a target mixing the network's own choice with a softmax of its
Q-values over the legal ids) and then by the search (the expert's choices of
:mod:`daguai.learn.labels`), with distillation batches mixed in so it does not forget.

Its first hidden layers may start from the Q-network's (``init``): the state columns of the
network's first layer fill the first units of the trunk's first layer, its second layer the
first units of the trunk's second; the rest starts at PyTorch's default.

Run it with ``python -m daguai.learn.student`` (``--help``); the run folder gets ``heads.pt``
(loadable by :func:`daguai.learn.heads.load_heads`, playable by ``HeadsPolicy``) and
``curve.json`` (per evaluation: frames, seconds, agreement with the network's choice on held-out
distillation rounds, agreement with the expert on held-out label rounds, losses).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from .heads import Heads
from .shards import NUM_ABSTRACT, STATE_FEATURES

__all__ = ["StudentConfig", "init_from_qnet", "soft_targets", "train_student"]


@dataclass(frozen=True)
class StudentConfig:
    widths: tuple[int, ...] = (512, 256)
    init: str = ""  # a .dgn Q-network whose first layers start the trunk ("" : none)
    start: str = ""  # a student's heads.pt / last.pt to go on from (overrides init; "" : none)
    temperature: float = 0.025  # softmax of Q / temperature
    choice_weight: float = 0.5  # the target: w * one-hot(network's choice) + (1 - w) * softmax(Q / T)
    distil_epochs: float = 2.0
    expert_epochs: float = 3.0
    expert_mix: float = 0.5  # in the expert phase, the share of each batch from the distillation set
    batch: int = 512
    lr: float = 1e-3
    finetune_lr: float = 3e-4
    holdout_every: int = 10
    eval_every: int = 200_000  # frames between evaluations in the distillation phase
    seed: int = 0


def init_from_qnet(model: Heads, dgn: str | Path) -> None:
    """Copy the Q-network's state columns (first layer) and second layer into the trunk's first
    units (widths permitting); the legal-id columns of those units start at 0."""
    from ..dgn import read_dgn

    layers, _, _ = read_dgn(dgn)
    lin = [m for m in model.trunk if isinstance(m, torch.nn.Linear)]
    (w0, b0), (w1, b1) = layers[0], layers[1]
    n0 = min(w0.shape[0], lin[0].out_features)
    with torch.no_grad():
        lin[0].weight[:n0, :STATE_FEATURES] = torch.from_numpy(w0[:n0, :STATE_FEATURES])
        lin[0].weight[:n0, STATE_FEATURES:] = 0.0
        lin[0].bias[:n0] = torch.from_numpy(b0[:n0])
        if len(lin) > 1 and len(layers) > 2:
            n1 = min(w1.shape[0], lin[1].out_features)
            lin[1].weight[:n1, :n0] = torch.from_numpy(w1[:n1, :n0])
            lin[1].weight[:n1, n0:] = 0.0
            lin[1].bias[:n1] = torch.from_numpy(b1[:n1])


def soft_targets(q: np.ndarray, legal: np.ndarray, choice: np.ndarray, temperature: float,
                 choice_weight: float) -> np.ndarray:
    """``choice_weight`` * one-hot(choice) + the rest * softmax(q / temperature) over the legal ids
    (float32 [n, 444]; every row sums to 1 and puts no mass on an illegal id)."""
    z = np.where(legal > 0, q.astype(np.float32) / temperature, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    p = e / e.sum(axis=1, keepdims=True)
    p *= 1.0 - choice_weight
    p[np.arange(len(p)), choice.astype(np.int64)] += choice_weight
    p[p < 1e-6] = 0.0
    return (p / p.sum(axis=1, keepdims=True)).astype(np.float32)


def _loss(model: Heads, state: torch.Tensor, legal: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    logits, _ = model(state, legal)
    logp = torch.log_softmax(logits, dim=1)
    return -(target * torch.where(target > 0, logp, torch.zeros_like(logp))).sum(dim=1).mean()


def _step(model: Heads, opt: torch.optim.Optimizer, state: torch.Tensor, legal: torch.Tensor,
          target: torch.Tensor) -> float:
    """One optimiser step on a batch; its mean loss."""
    loss = _loss(model, state, legal, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return float(loss.detach())


def _top1(model: Heads, state: np.ndarray, legal: np.ndarray, want: np.ndarray, chunk: int = 4096) -> float:
    model.eval()
    hit = 0
    with torch.no_grad():
        for i in range(0, len(want), chunk):
            s = torch.as_tensor(state[i:i + chunk].astype(np.float32))
            lg = torch.as_tensor(legal[i:i + chunk].astype(np.float32))
            logits, _ = model(s, lg)
            hit += int((logits.argmax(dim=1).numpy() == want[i:i + chunk]).sum())
    model.train()
    return hit / max(len(want), 1)


def train_student(distil: dict[str, np.ndarray], labels: Any, run: str | Path,
                  cfg: StudentConfig = StudentConfig(), log: Any = None) -> dict[str, Any]:
    """Train the student (see the module docstring) into ``run``; returns the curve document."""
    run = Path(run)
    run.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(cfg.seed)
    model = Heads(cfg.widths)
    if cfg.start:
        ckpt = torch.load(cfg.start, weights_only=True)
        if tuple(ckpt["widths"]) != tuple(cfg.widths):
            raise ValueError(f"{cfg.start!r} has widths {ckpt['widths']}, not {list(cfg.widths)}")
        model.load_state_dict(ckpt["state_dict"])
    elif cfg.init:
        init_from_qnet(model, cfg.init)
    d_held = distil["game"] % cfg.holdout_every == 0
    d_tr, d_va = np.flatnonzero(~d_held), np.flatnonzero(d_held)[:20_000]
    la = labels.arrays
    l_held = la["game"] % cfg.holdout_every == 0
    l_tr, l_va = np.flatnonzero(~l_held), np.flatnonzero(l_held)
    refs = {"distil_train": int(len(d_tr)), "distil_held_out": int(len(d_va)), "label_train": int(len(l_tr)),
            "label_held_out": int(len(l_va)),
            "val_incumbent_agreement": float(np.mean(la["incumbent"][l_va] == la["choice"][l_va])),
            "distil_val_heuristic_is_choice": float(np.mean(distil["heur"][d_va] == distil["choice"][d_va]))}
    curve: list[dict[str, Any]] = []
    started = time.perf_counter()
    frames = 0

    def evaluate(phase: str, loss: float) -> None:
        row = {"phase": phase, "frames": frames, "seconds": round(time.perf_counter() - started, 1),
               "train_loss": round(loss, 4),
               "val_network_top1": _top1(model, distil["state"][d_va], distil["legal"][d_va],
                                         distil["choice"][d_va]),
               "val_expert_top1": _top1(model, la["state"][l_va], la["legal"][l_va], la["choice"][l_va])}
        curve.append(row)
        if log:
            log(row)

    def distil_batch(idx: np.ndarray) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        t = soft_targets(distil["q"][idx], distil["legal"][idx], distil["choice"][idx], cfg.temperature,
                         cfg.choice_weight)
        return (torch.as_tensor(distil["state"][idx].astype(np.float32)),
                torch.as_tensor(distil["legal"][idx].astype(np.float32)), torch.as_tensor(t))

    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    evaluate("start", float("nan"))
    steps = int(cfg.distil_epochs * len(d_tr) / cfg.batch)
    order = np.concatenate([rng.permutation(d_tr) for _ in range(int(np.ceil(cfg.distil_epochs)) or 1)])
    total, seen, next_eval = 0.0, 0, cfg.eval_every
    for s in range(steps):
        b = order[s * cfg.batch:(s + 1) * cfg.batch]
        loss = _step(model, opt, *distil_batch(b))
        frames += len(b)
        total += loss * len(b)
        seen += len(b)
        if frames >= next_eval or s == steps - 1:
            evaluate("distil", total / max(seen, 1))
            total, seen, next_eval = 0.0, 0, next_eval + cfg.eval_every
    for g in opt.param_groups:
        g["lr"] = cfg.finetune_lr
    n_mix = int(round(cfg.batch * cfg.expert_mix))
    n_exp = cfg.batch - n_mix
    exp_state = la["state"].astype(np.float32)
    best = (curve[-1]["val_expert_top1"], len(curve) - 1,
            {k: v.clone() for k, v in model.state_dict().items()})
    for epoch in range(int(np.ceil(cfg.expert_epochs))):
        perm = rng.permutation(l_tr)
        if epoch + 1 > cfg.expert_epochs:
            perm = perm[:int((cfg.expert_epochs - epoch) * len(perm))]
        total, seen = 0.0, 0
        for i in range(0, len(perm), n_exp):
            b = perm[i:i + n_exp]
            t = np.zeros((len(b), NUM_ABSTRACT), np.float32)
            t[np.arange(len(b)), la["choice"][b]] = 1.0
            st = torch.as_tensor(exp_state[b])
            lg = torch.as_tensor(la["legal"][b].astype(np.float32))
            tt = torch.as_tensor(t)
            if n_mix:
                ds, dl, dt = distil_batch(rng.choice(d_tr, n_mix))
                st, lg, tt = torch.cat([st, ds]), torch.cat([lg, dl]), torch.cat([tt, dt])
            loss = _step(model, opt, st, lg, tt)
            frames += len(st)
            total += loss * len(st)
            seen += len(st)
        evaluate(f"expert {epoch + 1}", total / max(seen, 1))
        if curve[-1]["val_expert_top1"] > best[0]:
            best = (curve[-1]["val_expert_top1"], len(curve) - 1,
                    {k: v.clone() for k, v in model.state_dict().items()})
    doc = {"config": asdict(cfg), "references": refs, "best": curve[best[1]], "curve": curve,
           "wall_s": round(time.perf_counter() - started, 1)}
    torch.save({"state_dict": best[2], "widths": list(cfg.widths)}, run / "heads.pt")
    torch.save({"state_dict": model.state_dict(), "widths": list(cfg.widths)}, run / "last.pt")
    (run / "curve.json").write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def evaluate_heads(policy: Any, label: str, against: list[str], deals: int, seed: int) -> None:
    """Duplicate evaluations of a student's Python ``policy`` against each built-in policy of
    ``against`` (one thread), one JSON line each: net wins per round and its 95% interval."""
    from ..run.evaluation import evaluate

    for opp in against:
        t0 = time.perf_counter()
        r = evaluate(policy, opp, deals, seed=seed, threads=1)
        lo, hi = r.net_win_ci
        print(json.dumps({"heads": label, "against": opp, "deals": deals, "seed": seed,
                          "net": round(r.net_win_rate, 4), "ci": [round(lo, 4), round(hi, 4)],
                          "wall_s": round(time.perf_counter() - t0, 1)}), flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m daguai.learn.student", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("distil", help="make distillation positions from the Q-network's self-play")
    d.add_argument("folder")
    d.add_argument("--games", type=int, required=True)
    d.add_argument("--seed", type=int, required=True)
    d.add_argument("--shard-games", type=int, default=200)
    d.add_argument("--model", default="learned")
    d.add_argument("--minutes", type=float)
    f = sub.add_parser("fit", help="train the student")
    f.add_argument("run")
    f.add_argument("--distil", required=True, help="a folder of distillation shards")
    f.add_argument("--distil-shards", type=int, help="use only the first N shards")
    f.add_argument("--labels", nargs="+", required=True, help="label shards or folders (the expert's)")
    for k, v in asdict(StudentConfig()).items():
        if k == "widths":
            f.add_argument("--widths", type=int, nargs="+", default=list(v))
        else:
            f.add_argument("--" + k.replace("_", "-"), type=type(v), default=v)
    e = sub.add_parser("evaluate", help="duplicate evaluation of a student (HeadsPolicy) against policies")
    e.add_argument("heads")
    e.add_argument("--against", nargs="+", default=["heuristic", "learned"])
    e.add_argument("--deals", type=int, default=200)
    e.add_argument("--seed", type=int, default=4100)
    a = p.parse_args(argv)
    if a.cmd == "evaluate":
        from .heads import HeadsPolicy

        evaluate_heads(HeadsPolicy(a.heads), a.heads, a.against, a.deals, a.seed)
        return 0
    if a.cmd == "distil":
        from .distil import distil

        n = distil(a.folder, games=a.games, seed=a.seed, shard_games=a.shard_games, model=a.model,
                   minutes=a.minutes, log=print)
        print(f"{n} shards")
        return 0
    from .distil import load_distil
    from .shards import load_labels

    cfg = StudentConfig(**{k: (tuple(getattr(a, k)) if k == "widths" else getattr(a, k))
                           for k in asdict(StudentConfig())})
    doc = train_student(load_distil(a.distil, a.distil_shards), load_labels(a.labels), a.run, cfg,
                        log=lambda r: print(json.dumps(r), flush=True))
    print(json.dumps(doc["best"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
