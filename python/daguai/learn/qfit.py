"""The search teaches the Q-network (docs/learning.md "The search teaches the Q-network"; runs:
``training/qfit1/``).

``expert`` races the learned network's choice against its next best groups and departs from it
only on evidence from the rollouts (docs/search.md), so its labels (:mod:`daguai.learn.labels`)
are the network's own decisions, corrected where the search found better. This module fine-tunes
the network on those labels through the player's own decision rule. Per label, over the network's
candidates exactly as the player scores them (one per legal abstract id, the heuristic's action
for its id: the ``qnet`` sidecars of :mod:`daguai.learn.label_cands`):

    z(a) = Q(s, a) + margin * [a is the heuristic's choice]      (the player plays the argmax of z)

and one of three losses (``loss``):

- ``ce``: the cross-entropy of the softmax of ``z / T`` to the expert's choice;
- ``hinge``: ``max(0, max of z over the other candidates - z(choice) + hinge)``, zero where the
  choice already leads by ``hinge``: it reads only the decision rule's argmax;
- ``arms``: the cross-entropy, over the groups the expert raced, of the softmax of their ``z / T``
  to the softmax of their mean score changes in the race divided by ``arm_temperature``;

``min_gap`` keeps a departure (the expert's choice where it left the network's) as its label only
where the race's mean score change of the choice beats the network's choice's by at least that
much; elsewhere the label is the network's own choice. 0 keeps every departure (the race departs
only for a better mean); a value above every gap (1e9) labels every position with the network's
own choice: the control that tells what the search adds from what the fine-tuning does alone.
``departure_weight`` weighs the departures kept (their label is not the network's choice) that
much more than the other labels in the loss's mean. ``verify_z`` and ``verify_min`` keep a
departure only where its second look (:mod:`daguai.learn.verify`, ``--verified``) is above that
many standard errors and at least that many points. What they gave: training/qfit3/README.md.

Each loss is plus ``anchor * mean((Q - Q0)^2)`` over the same rows, ``Q0`` the starting network's values, so
that Q keeps its scale (the switching margin, the inference's model of play and the search's
ranking read it) where the labels say nothing. What they gave: training/qfit1/README.md. The
result is a ``.dgn`` of the same shape and margin, played by the engine as any model
(``daguai evaluate RUN/qfit.dgn learned``; ``expert@RUN/qfit.dgn`` searches over it).

Rounds with index ``= 0 (mod holdout_every)`` are held out; the curve gives, at each evaluation,
the held-out share of labels where the player's rule (argmax of Q, kept to the heuristic's
choice unless beaten by more than the margin: ``distil.distil_round``'s rule) picks the expert's
choice, and where it picks the starting network's (the search's incumbent). The batches are fixed
by the seed; ``last.pt`` (written at each evaluation, read weights-only) resumes a killed run where
it stopped (``--resume``), with the same settings and labels only (another is refused by name).

``python -m daguai.learn.qfit {cands,fit} --help``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from .. import _core
from .coded import CodedRows
from .distil import cand_offsets, legal_index, model_path
from .label_cands import add_cands_command, add_label_arguments, fit_label_inputs, run_cands_command
from .model import QNet
from .shards import load_labels

__all__ = ["QFitConfig", "QRows", "fit_qnet", "player_picks", "q_of_rows"]

HEURISTIC_COLUMN = int(_core.learned.ACTION_HEURISTIC)  # docs/learning.md "Features": the heuristic's choice


@dataclass(frozen=True)
class QFitConfig:
    model: str = "learned"  # the network to start from: "learned" (the shipped model) or a .dgn path
    temperature: float = 0.05
    anchor: float = 1.0
    epochs: int = 1
    batch: int = 256
    lr: float = 1e-4
    holdout_every: int = 10
    eval_every: int = 100_000  # labels between evaluations
    seed: int = 0
    play_deals: int = 0  # > 0: each evaluation plays the start model (duplicate); the best is by play
    play_seed: int = 4300
    loss: str = "ce"  # "ce", "hinge" or "arms" (module docstring)
    hinge: float = 0.005  # "hinge": every other candidate's value must trail the target's by this much
    arm_temperature: float = 0.5  # "arms": the target is a softmax of the raced groups' mean scores / this
    min_gap: float = 0.0  # a departure is the label only where its race's gap is at least this (docstring)
    departure_weight: float = 1.0  # a taught departure's weight in the loss (every other label: 1)
    verify_z: float = 0.0  # > 0: a departure is taught only where its second look is above z s.e.
    verify_min: float = 0.0  # > 0: ... and its second look's gap is at least this (points)

    def __post_init__(self) -> None:
        if self.loss not in ("ce", "hinge", "arms"):
            raise ValueError(f"loss must be ce, hinge or arms, got {self.loss!r}")
        for name in ("temperature", "arm_temperature", "lr", "departure_weight"):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and 0 < v < float("inf")):
                raise ValueError(f"{name} must be a positive number, got {v!r}")
        for name in ("anchor", "hinge", "min_gap", "verify_z", "verify_min"):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and 0 <= v < float("inf")):
                raise ValueError(f"{name} must be a number >= 0, got {v!r}")
        for name in ("epochs", "batch", "holdout_every", "eval_every"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{name} must be a positive integer, got {v!r}")
        if isinstance(self.play_deals, bool) or not isinstance(self.play_deals, int) or self.play_deals < 0:
            raise ValueError(f"play_deals must be an integer >= 0, got {self.play_deals!r}")


@dataclass
class QRows:
    """Labelled positions with their candidates' rows: position j's candidates are rows
    ``off[j]:off[j + 1]`` of ``act`` (ascending abstract ids); ``target[j]`` is the expert's
    choice's index among them, ``incumbent[j]`` the searched-over network's (-1: none)."""

    state: np.ndarray | CodedRows  # float32 [n, S]: an array, or coded (the command line's; the same values)
    act: np.ndarray | CodedRows  # float16 [m, A]: likewise
    off: np.ndarray  # int64 [n + 1]
    target: np.ndarray  # int64 [n]
    incumbent: np.ndarray  # int64 [n]
    game: np.ndarray  # int64 [n]
    arm_start: np.ndarray  # int64 [n + 1]: position j's raced groups are arm_*[arm_start[j]:arm_start[j+1]]
    arm_col: np.ndarray  # int64 [r]: a raced group's index among its position's candidates
    arm_mean: np.ndarray  # float32 [r]: its mean score change for the seat over the race's worlds
    # the second look at the departures (daguai.learn.verify): float64 [n] each, NaN elsewhere
    vgap: np.ndarray | None = None
    vse: np.ndarray | None = None

    @classmethod
    def of_labels(cls, arrays: dict[str, Any], act: np.ndarray | CodedRows) -> QRows:
        legal = arrays["legal"]
        off = cand_offsets(legal)
        if len(act) != off[-1]:
            raise ValueError(f"{len(act)} candidate rows for {off[-1]} legal ids")
        rows = np.arange(len(legal))
        inc = arrays["incumbent"].astype(np.int64)
        arm_start = arrays["arm_start"].astype(np.int64)
        target, inc_col, arm_col = legal_index(legal, (rows, arrays["choice"]), (rows, np.maximum(inc, 0)),
                                               (np.repeat(rows, np.diff(arm_start)), arrays["arm_id"]))
        incumbent = np.where(inc >= 0, inc_col, -1)
        return cls(arrays["state"], act, off, target, incumbent, arrays["game"].astype(np.int64), arm_start,
                   arm_col, arrays["arm_mean"].astype(np.float32))

    def departure_gaps(self) -> np.ndarray:
        """float64 [n]: where the expert left the network's choice, its choice's mean score change
        in the race minus the network's choice's (a candidate raced twice: its best arm, as
        ``LabelSet.scores`` reads them); NaN elsewhere (or where either was not raced)."""
        n = len(self.target)
        pos = np.repeat(np.arange(n), np.diff(self.arm_start))
        mean = {}
        for name, col in (("choice", self.target), ("incumbent", self.incumbent)):
            m = np.full(n, -np.inf)
            hit = self.arm_col == col[pos]
            np.maximum.at(m, pos[hit], self.arm_mean[hit].astype(np.float64))
            mean[name] = np.where(np.isfinite(m), m, np.nan)
        gap = mean["choice"] - mean["incumbent"]
        gap[(self.target == self.incumbent) | (self.incumbent < 0)] = np.nan
        return gap

    def with_min_gap(self, min_gap: float) -> QRows:
        """These rows with a departure whose gap is below ``min_gap`` labelled with the network's
        own choice instead (a departure whose gap is unknown is kept)."""
        if min_gap <= 0:
            return self
        gap = self.departure_gaps()
        target = np.where(gap < min_gap, self.incumbent, self.target)  # NaN < x is False: kept
        return replace(self, target=target)

    def with_verified(self, z: float, least: float = 0.0) -> QRows:
        """These rows with a departure whose second look (``vgap``, ``vse``) is not above ``z``
        standard errors, or below ``least`` points, labelled with the network's own choice
        instead (a departure without one, NaN: the two actions in one group, is kept); ``z`` and
        ``least`` 0: unchanged."""
        if z <= 0 and least <= 0:
            return self
        if self.vgap is None or self.vse is None or len(self.vgap) != len(self.target):
            raise ValueError("verify_z and verify_min need the second look's sidecars of every label "
                             "(--verified)")
        weak = ~((self.vgap > z * self.vse) & (self.vgap >= least)) & np.isfinite(self.vgap)
        return replace(self, target=np.where(weak, self.incumbent, self.target))

    def batch(self, idx: np.ndarray) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
                                             np.ndarray]:
        """(state [B, S], act [R, A], seg [R], col [R], row indices into ``act``) of positions ``idx``."""
        rows, seg, col = _segments(self.off[idx], self.off[idx + 1])
        return (torch.from_numpy(self.state[idx].astype(np.float32)),
                torch.from_numpy(self.act[rows].astype(np.float32)),
                torch.from_numpy(seg), torch.from_numpy(col), rows)


def _segments(starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows ``starts[b]:ends[b]`` of every b, concatenated, with each row's b (``seg``) and
    its index within its b (``col``)."""
    counts = ends - starts
    rows = np.concatenate([np.arange(a, b) for a, b in zip(starts, ends, strict=True)])
    seg = np.repeat(np.arange(len(starts)), counts)
    col = np.arange(len(rows)) - np.repeat(np.cumsum(counts) - counts, counts)
    return rows, seg, col


def q_of_rows(net: QNet, state: torch.Tensor, act: torch.Tensor, seg: torch.Tensor) -> torch.Tensor:
    """``net(state[seg], act)`` with the first layer's state part computed once per position."""
    first = net.hidden[0]
    s = state.shape[1]
    x = torch.relu((state @ first.weight[:, :s].T)[seg] + act @ first.weight[:, s:].T + first.bias)
    for layer in net.hidden[1:]:
        x = torch.relu(layer(x))
    return net.out(x).squeeze(1)


def _dense(values: torch.Tensor, seg: torch.Tensor, col: torch.Tensor, n: int, fill: float) -> torch.Tensor:
    kmax = int(col.max()) + 1 if len(col) else 1
    return torch.full((n, kmax), fill, dtype=values.dtype).index_put((seg, col), values)


def player_picks(q: torch.Tensor, heur: torch.Tensor, seg: torch.Tensor, col: torch.Tensor, n: int,
                 margin: float) -> np.ndarray:
    """The learned player's decision per position (index among its candidates): the argmax of Q
    (the first of equal values), kept to the heuristic's candidate unless beaten by more than
    ``margin`` (``distil.distil_round``'s rule)."""
    dense = _dense(q, seg, col, n, -np.inf)
    best_q, best = dense.max(dim=1)
    h = _dense(heur, seg, col, n, 0.0).argmax(dim=1)
    qh = dense[torch.arange(n), h]
    return torch.where(best_q > qh + margin, best, h).numpy()


def _loss(net: QNet, data: QRows, idx: np.ndarray, q0: np.ndarray, cfg: QFitConfig,
          margin: float) -> tuple[torch.Tensor, torch.Tensor]:
    state, act, seg, col, rows = data.batch(idx)
    q = q_of_rows(net, state, act, seg)
    z = q + margin * act[:, HEURISTIC_COLUMN]
    target = torch.from_numpy(data.target[idx])
    rows_b = torch.arange(len(idx))
    if cfg.loss == "arms":
        dense = _dense(z, seg, col, len(idx), -np.inf)
        arms, aseg_np, acol_np = _segments(data.arm_start[idx], data.arm_start[idx + 1])
        aseg, acol = torch.from_numpy(aseg_np), torch.from_numpy(acol_np)
        za = dense[aseg, torch.from_numpy(data.arm_col[arms])]
        logp = torch.log_softmax(_dense(za / cfg.temperature, aseg, acol, len(idx), -np.inf), dim=1)
        means = torch.from_numpy(data.arm_mean[arms]) / cfg.arm_temperature
        want = torch.softmax(_dense(means, aseg, acol, len(idx), -np.inf), dim=1)
        per = -(want * torch.where(want > 0, logp, torch.zeros_like(logp))).sum(dim=1)
    elif cfg.loss == "hinge":
        dense = _dense(z, seg, col, len(idx), -np.inf)
        zt = dense[rows_b, target]
        others = dense.index_put((rows_b, target), torch.tensor(-np.inf))
        per = torch.relu(others.max(dim=1).values - zt + cfg.hinge)
    else:
        logp = torch.log_softmax(_dense(z / cfg.temperature, seg, col, len(idx), -np.inf), dim=1)
        per = -logp[rows_b, target]
    if cfg.departure_weight == 1:
        ce = per.mean()
    else:  # a weighted mean: the taught departures (the label is not the network's choice) weigh more
        departs = (data.target[idx] != data.incumbent[idx]) & (data.incumbent[idx] >= 0)
        w = torch.from_numpy(np.where(departs, cfg.departure_weight, 1.0).astype(np.float32))
        ce = (w * per).sum() / w.sum()
    anchor = ((q - torch.from_numpy(q0[rows])) ** 2).mean()
    return ce, anchor


def _q_all(net: QNet, data: QRows, chunk: int = 4096) -> np.ndarray:
    out = np.zeros(len(data.act), np.float32)
    with torch.no_grad():
        for a in range(0, len(data.target), chunk):
            idx = np.arange(a, min(a + chunk, len(data.target)))
            state, act, seg, _, rows = data.batch(idx)
            out[rows] = q_of_rows(net, state, act, seg).numpy()
    return out


def _agreement(net: QNet, data: QRows, idx: np.ndarray, margin: float, chunk: int = 4096) -> dict[str, float]:
    picks = []
    with torch.no_grad():
        for a in range(0, len(idx), chunk):
            part = idx[a:a + chunk]
            state, act, seg, col, _ = data.batch(part)
            q = q_of_rows(net, state, act, seg)
            picks.append(player_picks(q, act[:, HEURISTIC_COLUMN], seg, col, len(part), margin))
    pick = np.concatenate(picks) if picks else np.zeros(0, np.int64)
    raced = data.incumbent[idx] >= 0
    return {"val_expert_top1": round(float(np.mean(pick == data.target[idx])), 4),
            "val_incumbent_top1": round(float(np.mean(pick[raced] == data.incumbent[idx][raced])), 4)}


def _play(net: QNet, start: Path, folder: Path, margin: float, r11: bool, cfg: QFitConfig) -> dict[str, Any]:
    """Duplicate evaluation of ``net`` (as its .dgn, making the R11 decisions if ``r11``) against
    the start model: wins - losses per round and its 95% interval."""
    from ..run.evaluation import evaluate

    path = net.save_dgn(folder / "eval.dgn", {}, margin, r11=r11)
    r = evaluate(str(path), str(start), cfg.play_deals, seed=cfg.play_seed, threads=1)
    lo, hi = r.net_win_ci
    return {"play_vs_start": round(float(r.net_win_rate), 4),
            "play_ci": [round(float(lo), 4), round(float(hi), 4)]}


def _same_settings(last: Path, recorded: Any, settings: dict[str, Any]) -> None:
    """ValueError naming the first setting (or the data) in which a resume differs from the run of
    ``last`` (a checkpoint written before settings were recorded is taken as it is)."""
    if recorded is None:
        return
    if not isinstance(recorded, dict):
        raise ValueError(f"{str(last)!r}: a bad settings record: {recorded!r:.80}")
    for key, value in settings.items():
        if recorded.get(key) != value:
            raise ValueError(f"{str(last)!r} was made with {key} = {recorded.get(key)!r:.80}, this run has "
                             f"{value!r:.80}: resume with the same settings and labels, or in a new folder")


def fit_qnet(data: QRows, run: str | Path, cfg: QFitConfig = QFitConfig(), resume: bool = False,
             log: Any = None, stop_steps: int | None = None,
             meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """Fine-tune ``cfg.model`` on ``data`` into ``run`` (``qfit.dgn``: the evaluation of best
    held-out agreement with the expert, or with ``play_deals`` of best play against the start
    model; ``last.pt``; ``curve.json``). ``resume``: go on from
    ``run/last.pt`` (the same batches: the uninterrupted run's result). ``stop_steps``: stop at the
    first evaluation after that many steps (``last.pt`` written, ``qfit.dgn`` not)."""
    from ..dgn import decides_r11, parse_dgn, read_model_file

    run = Path(run)
    run.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(1)
    raw = read_model_file(model_path(cfg.model))
    _, start_meta, margin = parse_dgn(raw)
    r11 = decides_r11(raw)  # a start that makes the R11 decisions gives a result that does too
    net = QNet.from_dgn(raw)
    # the labels taught; the curve reads the expert's own
    taught = data.with_min_gap(cfg.min_gap).with_verified(cfg.verify_z, cfg.verify_min)
    held = data.game % cfg.holdout_every == 0
    tr, va = np.flatnonzero(~held), np.flatnonzero(held)
    q0 = _q_all(net, data)
    per_epoch = -(-len(tr) // cfg.batch)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    curve: list[dict[str, Any]] = []
    best: dict[str, Any] = {"score": -2.0, "row": None, "state": None}
    step, spent = 0, 0.0
    last = run / "last.pt"
    refs = {"label_train": int(len(tr)), "label_held_out": int(len(va)), "candidate_rows": int(len(data.act)),
            "margin": margin, "model_sha256": hashlib.sha256(raw).hexdigest()}
    # what a resume must share with the run it goes on from: every setting and the data taught
    # (the start by its digest, not its path)
    settings = {**{k: v for k, v in asdict(cfg).items() if k != "model"}, **refs,
                "targets_sha256": hashlib.sha256(taught.target.tobytes()).hexdigest()}
    if resume and last.exists():
        ck = torch.load(last, weights_only=True)
        _same_settings(last, ck.get("settings"), settings)
        net.load_state_dict(ck["state_dict"])
        opt.load_state_dict(ck["opt"])
        step, spent, curve, best = ck["step"], ck["seconds"], ck["curve"], ck["best"]
    started = time.perf_counter() - spent

    def evaluate(loss: tuple[float, float] | None, next_step: int) -> None:
        row = {"step": next_step, "epoch": round(next_step / per_epoch, 3), "labels": next_step * cfg.batch,
               "seconds": round(time.perf_counter() - started, 1),
               "train_ce": None if loss is None else round(float(loss[0]), 4),
               "train_anchor": None if loss is None else round(float(loss[1]), 6),
               **_agreement(net, data, va, margin)}
        if cfg.play_deals:
            row.update(_play(net, model_path(cfg.model), run, margin, r11, cfg))
        curve.append(row)
        score = row["play_vs_start"] if cfg.play_deals else row["val_expert_top1"]
        if score > best["score"]:
            best.update(score=score, row=row,
                        state={k: v.clone() for k, v in net.state_dict().items()})
        if log:
            log(row)
        torch.save({"state_dict": net.state_dict(), "opt": opt.state_dict(), "step": next_step,
                    "seconds": row["seconds"], "curve": curve, "best": best, "settings": settings}, last)

    if not curve:
        evaluate(None, 0)
    total = np.zeros(2)
    seen = 0
    every = max(1, cfg.eval_every // cfg.batch)
    for s in range(step, cfg.epochs * per_epoch):
        epoch, k = divmod(s, per_epoch)
        order = np.random.default_rng([cfg.seed, epoch]).permutation(tr)
        idx = order[k * cfg.batch:(k + 1) * cfg.batch]
        ce, anchor = _loss(net, taught, idx, q0, cfg, margin)
        opt.zero_grad()
        (ce + cfg.anchor * anchor).backward()
        opt.step()
        total += (float(ce.detach()), float(anchor.detach()))
        seen += 1
        if (s + 1) % every == 0 or s + 1 == cfg.epochs * per_epoch:
            evaluate((total[0] / seen, total[1] / seen), s + 1)
            total[:] = 0
            seen = 0
            if stop_steps is not None and s + 1 >= stop_steps and s + 1 < cfg.epochs * per_epoch:
                return {"config": asdict(cfg), "references": refs, "curve": curve, "stopped": s + 1}
    net.load_state_dict(best["state"])
    doc = {"config": asdict(cfg), "references": refs, "best": best["row"], "curve": curve,
           "wall_s": round(time.perf_counter() - started, 1)}
    info = {"trained_by": "daguai.learn.qfit", "config": asdict(cfg), "references": refs, "best": best["row"],
            **(meta or {})}
    for key in ("rules", "widths"):
        if key in start_meta:
            info[key] = start_meta[key]
    net.save_dgn(run / "qfit.dgn", info, margin, r11=r11)
    (run / "curve.json").write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def load_fit_rows(args: Any, coded: bool = True) -> tuple[QRows, list[Path], list[dict[str, Any]]]:
    """A parsed ``fit`` command's rows (coded unless ``coded`` is false), shard files and folders."""
    files, cand_rows, used = fit_label_inputs(args, "qnet", coded=coded)
    labels = load_labels(files, coded=("state",) if coded else (), texts=not coded)
    return QRows.of_labels(labels.arrays, cand_rows), files, used


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m daguai.learn.qfit", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    add_cands_command(sub, "the Q-network's candidate rows of a label folder's shards (replayed)")
    f = sub.add_parser("fit", help="fine-tune the Q-network on the labels")
    f.add_argument("run")
    add_label_arguments(f)
    f.add_argument("--verified", nargs="+", metavar="FOLDER",
                   help="the second look's sidecars (python -m daguai.learn.verify), one per label folder")
    for k, v in asdict(QFitConfig()).items():
        f.add_argument("--" + k.replace("_", "-"), type=type(v), default=v)
    a = p.parse_args(argv)
    if a.cmd == "cands":
        return run_cands_command(a, "qnet")
    from .verify import verified_rows

    try:
        data, files, used = load_fit_rows(a)
        if a.verified:
            data = replace(data, **verified_rows(a.verified, files, used, len(data.target)))
        cfg = QFitConfig(**{k: getattr(a, k) for k in asdict(QFitConfig())})
        if (cfg.verify_z > 0 or cfg.verify_min > 0) and not a.verified:
            raise ValueError("--verify-z and --verify-min need --verified (the second look's sidecars)")
    except ValueError as e:
        p.error(str(e))
    meta = {"command": "python -m daguai.learn.qfit " + " ".join(argv if argv is not None else sys.argv[1:]),
            "labels": {"folders": used, "shards": len(files), "labels": len(data.target)}}
    doc = fit_qnet(data, a.run, cfg, resume=a.resume, meta=meta,
                   log=lambda r: print(json.dumps(r), flush=True))
    print(json.dumps(doc.get("best")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
