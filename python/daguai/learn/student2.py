"""The one-pass student with per-candidate features (docs/learning.md "A one-pass student with
per-candidate features"; run: ``training/student2/``).

Student1 (:mod:`daguai.learn.student`) sees the state features and which abstract ids are legal;
the Q-network it learns from sees, for each candidate, the hand left after it and the heuristic's
plan (配牌) of that hand. :class:`CandHeads` gives the student those candidate features too, and
stays one pass per decision: the trunk of :class:`daguai.learn.heads.Heads` over (state, legal ids)
runs once, then each legal id's canonical action adds a score from a small per-candidate layer,
``w2 . relu(C relu(A h + B f_c + b) + c)``, where ``h`` is the trunk's output and ``f_c`` the
candidate's features (``_core.learned.candidate_features``: the canonical action's encoding, the
hand after it, cards left, plays in the heuristic's plan of what is left, going out; the
heuristic's-choice column is always 0). No heuristic choice, no switching margin.

The candidate features of the training positions: distillation shards of version 2
(:mod:`daguai.learn.distil`, field ``cand``) and the expert's labels' sidecars
(:mod:`daguai.learn.label_cands`). Training is student1's two phases (the Q-network's soft
targets, then the expert's choices mixed half and half with distillation positions); the model
may start from a student1 ``heads.pt`` (its trunk and policy layer; the candidate layer's output
weights start at 0, so it starts as that student). The batches are fixed by the seed; ``last.pt``
(written at each evaluation) resumes a killed run where it stopped (``--resume``).

``python -m daguai.learn.student2 {cands,fit,evaluate} --help``.
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
from torch import nn

from .. import _core
from .distil import ACTION_FEATURES, cand_offsets, candidate_rows
from .heads import Heads, fallback_act
from .label_cands import add_cands_command, add_label_arguments, fit_label_inputs, run_cands_command
from .student import evaluate_heads, soft_targets

__all__ = ["CandHeads", "CandHeadsPolicy", "Student2Config", "batch_inputs", "load_cand_heads",
           "train_student2"]


class CandHeads(nn.Module):
    """:class:`Heads` (trunk, policy over the ids, value) plus a per-candidate score."""

    def __init__(self, widths: tuple[int, ...] = (512, 256),
                 cand_widths: tuple[int, ...] = (128, 64)) -> None:
        super().__init__()
        self.base = Heads(widths)
        self.widths, self.cand_widths = tuple(widths), tuple(cand_widths)
        self.cand_state = nn.Linear(widths[-1], cand_widths[0])
        self.cand_feat = nn.Linear(ACTION_FEATURES, cand_widths[0], bias=False)
        self.cand_mid = nn.Linear(cand_widths[0], cand_widths[1])
        self.cand_out = nn.Linear(cand_widths[1], 1)
        with torch.no_grad():
            self.cand_out.weight.zero_()
            self.cand_out.bias.zero_()

    def forward(self, state: torch.Tensor, legal: torch.Tensor, cand: torch.Tensor, seg: torch.Tensor,
                cid: torch.Tensor) -> torch.Tensor:
        """Logits [n, 444] (illegal ids -inf). ``cand`` [m, A]: the candidates' features; ``seg``,
        ``cid`` [m]: each candidate's position (row) and abstract id."""
        h = self.base.trunk(torch.cat([state, legal], dim=1))
        logits = self.base.policy(h)
        u = torch.relu(self.cand_state(h)[seg] + self.cand_feat(cand))
        s = self.cand_out(torch.relu(self.cand_mid(u))).squeeze(1)
        logits = logits.index_put((seg, cid), s, accumulate=True)
        return logits.masked_fill(legal < 0.5, float("-inf"))


def batch_inputs(state: np.ndarray, legal: np.ndarray, cand: np.ndarray, off: np.ndarray,
                 idx: np.ndarray) -> tuple[torch.Tensor, ...]:
    """The inputs of positions ``idx``: (state, legal, cand, seg, cid) tensors."""
    lg = legal[idx]
    seg, cid = np.nonzero(lg)  # row-major: ascending ids within a row, the order of ``cand``
    lens = (off[idx + 1] - off[idx]).astype(np.int64)
    if len(seg) != int(lens.sum()):
        raise ValueError("the candidate rows do not match the legal ids")
    rows = np.repeat(off[idx] - np.concatenate([[0], np.cumsum(lens)[:-1]]), lens) + np.arange(len(seg))
    return (torch.as_tensor(state[idx].astype(np.float32)), torch.as_tensor(lg.astype(np.float32)),
            torch.as_tensor(cand[rows].astype(np.float32)), torch.as_tensor(seg), torch.as_tensor(cid))


#: The heuristic's-choice column of the action features (features.hpp kActionHeuristic).
HEURISTIC_COLUMN = int(_core.learned.ACTION_HEURISTIC)


def _inputs(data: tuple[np.ndarray, ...], idx: np.ndarray, drop: tuple[int, ...] = (),
            heur: np.ndarray | None = None) -> tuple[torch.Tensor, ...]:
    """:func:`batch_inputs` with the columns ``drop`` zeroed and, for the diagnostic run only,
    the heuristic's-choice column set from ``heur`` (the heuristic's id of each position)."""
    x = batch_inputs(*data, idx)
    if drop:
        x[2][:, list(drop)] = 0.0
    if heur is not None:
        x[2][:, HEURISTIC_COLUMN] = (x[4] == torch.as_tensor(heur[idx].astype(np.int64))[x[3]]).float()
    return x


@dataclass(frozen=True)
class Student2Config:
    widths: tuple[int, ...] = (512, 256)
    cand_widths: tuple[int, ...] = (128, 64)
    start: str = ""  # a student1 heads.pt (its Heads) or a student2 heads.pt / last.pt ("" : none)
    temperature: float = 0.025
    choice_weight: float = 0.5
    distil_epochs: float = 1.0
    expert_epochs: int = 2
    expert_mix: float = 0.5
    batch: int = 512
    lr: float = 1e-3
    finetune_lr: float = 3e-4
    holdout_every: int = 10
    eval_every: int = 200_000
    seed: int = 0
    drop_columns: tuple[int, ...] = ()  # candidate feature columns zeroed (an ablation; the player too)
    heuristic_flag: bool = False  # DIAGNOSTIC only: the heuristic's choice as an input (distillation only)


def _top1(model: CandHeads, data: tuple[np.ndarray, ...], idx: np.ndarray, want: np.ndarray,
          drop: tuple[int, ...] = (), heur: np.ndarray | None = None, chunk: int = 4096) -> float:
    model.eval()
    hit = 0
    with torch.no_grad():
        for i in range(0, len(idx), chunk):
            logits = model(*_inputs(data, idx[i:i + chunk], drop, heur))
            hit += int((logits.argmax(dim=1).numpy() == want[idx[i:i + chunk]]).sum())
    model.train()
    return hit / max(len(idx), 1)


def _start(model: CandHeads, path: str) -> None:
    ckpt = torch.load(path, weights_only=True)
    if "cand_widths" in ckpt:
        model.load_state_dict(ckpt["state_dict"])
    else:  # a student1 Heads
        model.base.load_state_dict(ckpt["state_dict"])


def train_student2(distil: dict[str, np.ndarray], labels: Any, label_cand: np.ndarray, run: str | Path,
                   cfg: Student2Config = Student2Config(), resume: bool = False, log: Any = None,
                   stop_steps: int | None = None) -> dict[str, Any]:
    """Train into ``run`` (``heads.pt``: the best expert agreement; ``last.pt``; ``curve.json``).
    ``resume``: go on from ``run/last.pt`` if there is one (the same schedule: the result is the
    uninterrupted run's). ``stop_steps``: stop at the first evaluation after that many steps
    (``last.pt`` written; the curve document is returned, ``heads.pt`` not written)."""
    run = Path(run)
    run.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(1)
    model = CandHeads(cfg.widths, tuple(cfg.cand_widths))
    if cfg.start:
        _start(model, cfg.start)
    if cfg.heuristic_flag and cfg.expert_epochs:
        raise ValueError("heuristic_flag is a diagnostic of the distillation phase: expert_epochs must be 0")
    drop, heur = tuple(cfg.drop_columns), (distil["heur"] if cfg.heuristic_flag else None)
    dd = (distil["state"], distil["legal"], distil["cand"], cand_offsets(distil["legal"]))
    la = labels.arrays
    ld = (la["state"], la["legal"], label_cand, cand_offsets(la["legal"]))
    if len(label_cand) != ld[3][-1]:
        raise ValueError(f"{len(label_cand)} label candidate rows for {ld[3][-1]} legal ids")
    d_held = distil["game"] % cfg.holdout_every == 0
    d_tr, d_va = np.flatnonzero(~d_held), np.flatnonzero(d_held)[:20_000]
    l_held = la["game"] % cfg.holdout_every == 0
    l_tr, l_va = np.flatnonzero(~l_held), np.flatnonzero(l_held)
    l_va106, l_va61 = l_va[la["game"][l_va] < 2120], l_va[la["game"][l_va] < 1220]  # student1's sets
    refs = {"distil_train": int(len(d_tr)), "distil_held_out": int(len(d_va)), "label_train": int(len(l_tr)),
            "label_held_out": int(len(l_va)), "label_held_out_shards_0_105": int(len(l_va106)),
            "val_incumbent_agreement": float(np.mean(la["incumbent"][l_va] == la["choice"][l_va]))}
    # the schedule, fixed by the seed: (phase, positions of each step)
    steps: list[tuple[str, np.ndarray, np.ndarray]] = []
    n_d = int(cfg.distil_epochs * len(d_tr) / cfg.batch)
    order = np.concatenate([np.random.default_rng([cfg.seed, 1, e]).permutation(d_tr)
                            for e in range(int(np.ceil(cfg.distil_epochs)) or 1)])
    steps += [("distil", order[s * cfg.batch:(s + 1) * cfg.batch], order[:0]) for s in range(n_d)]
    n_mix = int(round(cfg.batch * cfg.expert_mix))
    n_l = cfg.batch - n_mix
    for e in range(cfg.expert_epochs):
        perm = np.random.default_rng([cfg.seed, 2, e]).permutation(l_tr)
        k = -(-len(perm) // n_l)
        mix = np.random.default_rng([cfg.seed, 3, e]).choice(d_tr, (k, n_mix))
        steps += [(f"expert {e + 1}", mix[s], perm[s * n_l:(s + 1) * n_l]) for s in range(k)]
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    curve: list[dict[str, Any]] = []
    best: dict[str, Any] = {"score": -1.0, "row": None, "state": None}
    step, frames, spent = 0, 0, 0.0
    last = run / "last.pt"
    if resume and last.exists():
        ck = torch.load(last, weights_only=True)
        model.load_state_dict(ck["state_dict"])
        opt.load_state_dict(ck["opt"])
        step, frames, spent, curve, best = ck["step"], ck["frames"], ck["seconds"], ck["curve"], ck["best"]
    started = time.perf_counter() - spent

    def evaluate(phase: str, loss: float, next_step: int) -> None:
        row = {"phase": phase, "frames": frames, "seconds": round(time.perf_counter() - started, 1),
               "train_loss": round(loss, 4),
               "val_network_top1": _top1(model, dd, d_va, distil["choice"], drop, heur)}
        if heur is None:  # the labels have no heuristic's id
            row.update({"val_expert_top1": _top1(model, ld, l_va, la["choice"], drop),
                        "val_expert_top1_shards_0_105": _top1(model, ld, l_va106, la["choice"], drop),
                        "val_expert_top1_shards_0_60": _top1(model, ld, l_va61, la["choice"], drop)})
        curve.append(row)
        if phase.startswith("expert") and row["val_expert_top1"] > best["score"]:
            best.update(score=row["val_expert_top1"], row=row,
                        state={k: v.clone() for k, v in model.state_dict().items()})
        if log:
            log(row)
        torch.save({"state_dict": model.state_dict(), "opt": opt.state_dict(), "step": next_step,
                    "frames": frames, "seconds": row["seconds"], "curve": curve, "best": best,
                    "widths": list(cfg.widths), "cand_widths": list(cfg.cand_widths), "drop": list(drop)},
                   last)

    if not curve:
        evaluate("start", float("nan"), 0)
    total, seen, next_eval = 0.0, 0, (frames // cfg.eval_every + 1) * cfg.eval_every
    for s in range(step, len(steps)):
        phase, d_idx, l_idx = steps[s]
        if phase != "distil":
            for g in opt.param_groups:
                g["lr"] = cfg.finetune_lr
        parts = []
        if len(d_idx):
            t = soft_targets(distil["q"][d_idx], distil["legal"][d_idx], distil["choice"][d_idx],
                             cfg.temperature, cfg.choice_weight)
            parts.append((_inputs(dd, d_idx, drop, heur), t))
        if len(l_idx):
            t = np.zeros((len(l_idx), la["legal"].shape[1]), np.float32)
            t[np.arange(len(l_idx)), la["choice"][l_idx].astype(np.int64)] = 1.0
            parts.append((_inputs(ld, l_idx, drop), t))
        loss = 0.0
        opt.zero_grad()
        n = sum(len(t) for _, t in parts)
        for inputs, t in parts:
            logp = torch.log_softmax(model(*inputs), dim=1)
            tt = torch.as_tensor(t)
            part = -(tt * torch.where(tt > 0, logp, torch.zeros_like(logp))).sum() / n
            part.backward()
            loss += float(part.detach())
        opt.step()
        frames += n
        total += loss * n
        seen += n
        end_of_phase = s == len(steps) - 1 or steps[s + 1][0] != phase
        if (phase == "distil" and frames >= next_eval) or end_of_phase:
            evaluate(phase, total / max(seen, 1), s + 1)
            total, seen = 0.0, 0
            while next_eval <= frames:
                next_eval += cfg.eval_every
            if stop_steps is not None and s + 1 >= stop_steps and s < len(steps) - 1:
                return {"config": asdict(cfg), "references": refs, "curve": curve, "stopped": s + 1}
    if best["state"] is None:
        best.update(row=curve[-1], state=model.state_dict())
    doc = {"config": asdict(cfg), "references": refs, "best": best["row"], "curve": curve,
           "wall_s": round(time.perf_counter() - started, 1)}
    torch.save({"state_dict": best["state"], "widths": list(cfg.widths), "cand_widths": list(cfg.cand_widths),
                "drop": list(drop), "heuristic_flag": cfg.heuristic_flag}, run / "heads.pt")
    (run / "curve.json").write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def load_cand_heads(path: str | Path) -> CandHeads:
    """The :class:`CandHeads` of a ``heads.pt`` or ``last.pt``, read weights-only."""
    return _cand_heads_of(torch.load(str(path), weights_only=True))


def _cand_heads_of(ck: dict[str, Any]) -> CandHeads:
    """The model of a loaded ``heads.pt`` or ``last.pt``."""
    model = CandHeads(tuple(ck["widths"]), tuple(ck["cand_widths"]))
    model.load_state_dict(ck["state_dict"])
    model.eval()
    return model


class CandHeadsPolicy:
    """A Python policy ``policy(view, seat)`` playing :class:`CandHeads`' best legal id (its
    canonical action); outside the play phase and for a single legal action ``fallback`` decides
    (as student1's ``HeadsPolicy``). The state and candidate features are computed from one world
    consistent with the view (they read only what the seat may know, R16), rounded to float16 as
    the training shards store them."""

    def __init__(self, path: str | Path, fallback: str = "heuristic") -> None:
        ck = torch.load(str(path), weights_only=True)
        if ck.get("heuristic_flag"):
            raise ValueError(f"{str(path)!r} is the diagnostic with the heuristic's choice as an input, "
                             "not a player")
        self.drop = tuple(ck.get("drop", ()))
        self.model = _cand_heads_of(ck)
        self.fallback = fallback
        self._runners: dict[tuple[int, int], Any] = {}
        torch.set_num_threads(1)

    def features(self, view: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(state float16 [S], legal uint8 [444], cand float16 [legal ids, A]) of the seat to act."""
        world = _core.beliefs.sample_worlds(view, 1, 0)[0]
        legal = _core.io.abstract_mask(view)[0]
        state = _core.learned.learn_features(world)[0].astype(np.float16)
        return state, legal, candidate_rows(world, legal)

    def __call__(self, view: Any, seat: int) -> Any:
        if (action := fallback_act(self, view, seat)) is not None:
            return action
        state, legal, cand = self.features(view)
        off = np.array([0, len(cand)], np.int64)
        with torch.no_grad():
            logits = self.model(*_inputs((state[None], legal[None], cand, off), np.array([0]), self.drop))
        return _core.io.action_from_abstract(view, int(logits[0].argmax()))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m daguai.learn.student2", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    add_cands_command(sub, "the candidate features of a label folder's shards (replayed)")
    f = sub.add_parser("fit", help="train the student")
    f.add_argument("run")
    f.add_argument("--distil", required=True, help="a folder of version-2 distillation shards")
    f.add_argument("--distil-shards", type=int, help="use only the first N shards")
    add_label_arguments(f)
    for k, v in asdict(Student2Config()).items():
        if k in ("widths", "cand_widths", "drop_columns"):
            f.add_argument("--" + k.replace("_", "-"), type=int, nargs="*", default=list(v))
        elif isinstance(v, bool):
            f.add_argument("--" + k.replace("_", "-"), action="store_true")
        else:
            f.add_argument("--" + k.replace("_", "-"), type=type(v), default=v)
    e = sub.add_parser("evaluate", help="duplicate evaluation (CandHeadsPolicy) against policies")
    e.add_argument("heads")
    e.add_argument("--against", nargs="+", default=["heuristic", "learned"])
    e.add_argument("--deals", type=int, default=500)
    e.add_argument("--seed", type=int, default=4200)
    a = p.parse_args(argv)
    if a.cmd == "cands":
        return run_cands_command(a, "student")
    if a.cmd == "evaluate":
        evaluate_heads(CandHeadsPolicy(a.heads), a.heads, a.against, a.deals, a.seed)
        return 0
    from .distil import load_distil
    from .shards import load_labels

    try:
        files, cand_rows, _ = fit_label_inputs(a, "student")
    except ValueError as e:
        p.error(str(e))
    labels = load_labels(files)
    cfg = Student2Config(**{k: (tuple(getattr(a, k)) if k in ("widths", "cand_widths", "drop_columns")
                                else getattr(a, k))
                            for k in asdict(Student2Config())})
    doc = train_student2(load_distil(a.distil, a.distil_shards), labels, cand_rows,
                         a.run, cfg, resume=a.resume, log=lambda r: print(json.dumps(r), flush=True))
    print(json.dumps(doc["best"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
