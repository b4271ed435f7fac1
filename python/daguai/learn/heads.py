"""A policy head and a value head trained on labels from the search (docs/learning.md "Labels from
the search"; the labels: :mod:`daguai.learn.labels`).

The network: the learned player's state features and the legal abstract ids in, a shared trunk,
then a policy over the :data:`NUM_ABSTRACT` abstract ids (illegal ids masked out) and a value, the
expected round score change of the seat's team (R13). Losses: cross-entropy to the teacher's
choice (``target="choice"``) or to a softmax of the race's per-group mean scores at
``temperature`` (``target="scores"``; ids not raced get no mass, a decision without a race its
choice), plus ``value_weight`` times the squared error of the value: to the round's result
(``value_target="result"``) or to the search's estimate, the mean score change of the chosen
arm over its worlds (``"search"``, the default; the result where nothing was raced), which has
far less noise: all decisions of a round share one result. Held out: every round whose index is 0
modulo ``holdout_every`` (a round's decisions are never split). The curve (``curve.json`` in
the run folder): per epoch the training loss, the held-out policy loss, top-1 agreement with
the teacher, value MSE to the target and to the round's result, and fixed references: how
often the teacher's choice is the incumbent's (the searched-over network's own choice), and
the MSE of predicting the mean. ``heads.pt`` holds the weights of the epoch with the lowest
held-out policy loss (``best_epoch``).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from .shards import NUM_ABSTRACT, STATE_FEATURES, LabelSet, load_labels

__all__ = ["FitConfig", "Heads", "HeadsPolicy", "fit", "heads_inputs", "load_heads", "search_values"]


@dataclass(frozen=True)
class FitConfig:
    """Settings of :func:`fit`."""

    epochs: int = 20
    batch: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-5
    widths: tuple[int, ...] = (512, 256)
    target: str = "choice"  # or "scores"
    temperature: float = 0.25  # "scores": softmax of mean score change / temperature
    value_weight: float = 0.25
    value_target: str = "search"  # or "result"
    holdout_every: int = 10
    seed: int = 0
    threads: int = 1  # torch's CPU threads (the labeller and other jobs share the machine)

    def __post_init__(self) -> None:
        if self.target not in ("choice", "scores"):
            raise ValueError(f"target must be 'choice' or 'scores', got {self.target!r}")
        if self.value_target not in ("result", "search"):
            raise ValueError(f"value_target must be 'result' or 'search', got {self.value_target!r}")
        if not (self.epochs >= 1 and self.batch >= 1 and self.holdout_every >= 2 and self.temperature > 0):
            raise ValueError("epochs and batch must be positive, holdout_every at least 2, temperature > 0")


class Heads(nn.Module):
    """Trunk over (state features, legal ids), a policy head over the abstract ids, a value head."""

    def __init__(self, widths: Sequence[int] = (512, 256)) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        n = STATE_FEATURES + NUM_ABSTRACT
        for w in widths:
            layers += [nn.Linear(n, w), nn.ReLU()]
            n = w
        self.trunk = nn.Sequential(*layers)
        self.policy = nn.Linear(n, NUM_ABSTRACT)
        self.value = nn.Linear(n, 1)
        self.widths = tuple(widths)

    def forward(self, state: torch.Tensor, legal: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(logits, value)``: logits with illegal ids at -inf, value of shape ``(n,)``."""
        h = self.trunk(torch.cat([state, legal], dim=1))
        logits = self.policy(h).masked_fill(legal < 0.5, float("-inf"))
        return logits, self.value(h).squeeze(1)


def heads_inputs(labels: LabelSet) -> tuple[np.ndarray, np.ndarray]:
    """The network's inputs of each label: ``(state float32 [n, S], legal float32 [n, 444])``."""
    return labels.arrays["state"].astype(np.float32), labels.arrays["legal"].astype(np.float32)


def _policy_targets(labels: LabelSet, cfg: FitConfig) -> np.ndarray:
    """Target distributions over the ids, float32 [n, 444]."""
    a = labels.arrays
    n = len(labels)
    target = np.zeros((n, NUM_ABSTRACT), np.float32)
    if cfg.target == "choice":
        target[np.arange(n), a["choice"]] = 1.0
        return target
    score, raced = labels.scores()
    z = np.where(raced, score / cfg.temperature, -np.inf)
    best = z.max(axis=1, keepdims=True)
    has = np.isfinite(best[:, 0])
    e = np.where(raced, np.exp(z - np.where(np.isfinite(best), best, 0.0)), 0.0)
    p = e[has] / e[has].sum(axis=1, keepdims=True)
    p[p < 1e-6] = 0.0  # no denormal floats in the loss (slow on CPUs); renormalized
    target[has] = (p / p.sum(axis=1, keepdims=True)).astype(np.float32)
    target[~has, a["choice"][~has]] = 1.0
    return target


def search_values(labels: LabelSet) -> np.ndarray:
    """Per label, the search's value: the mean score change of the teacher's chosen arm over its
    worlds (float32 [n]); the round's result where the decision was not raced."""
    a = labels.arrays
    out = a["value"].astype(np.float32).copy()
    start = a["arm_start"]
    for j in np.flatnonzero(a["searched"]):
        lo, hi = start[j], start[j + 1]
        hit = np.flatnonzero(a["arm_action"][lo:hi] == a["action"][j])
        if len(hit):
            out[j] = a["arm_mean"][lo + hit[0]]
    return out


def _evaluate(model: Heads, state: torch.Tensor, legal: torch.Tensor, target: torch.Tensor,
              choice: torch.Tensor, value: torch.Tensor, result: torch.Tensor,
              batch: int = 4096) -> dict[str, float]:
    model.eval()
    pl = vm = vr = top = 0.0
    n = len(choice)
    with torch.no_grad():
        for i in range(0, n, batch):
            s = slice(i, i + batch)
            logits, v = model(state[s], legal[s])
            logp = torch.log_softmax(logits, dim=1)
            pl += float(-(target[s] * torch.where(target[s] > 0, logp, torch.zeros_like(logp))).sum())
            top += float((logits.argmax(dim=1) == choice[s]).sum())
            vm += float(((v - value[s]) ** 2).sum())
            vr += float(((v - result[s]) ** 2).sum())
    model.train()
    return {"policy_loss": pl / max(n, 1), "top1": top / max(n, 1), "value_mse": vm / max(n, 1),
            "value_mse_result": vr / max(n, 1)}


def fit(sources: Sequence[str | Path] | LabelSet, run: str | Path, cfg: FitConfig = FitConfig(),
        *, log: Any = None) -> dict[str, Any]:
    """Train :class:`Heads` on label shards (files or folders) into the folder ``run``
    (``heads.pt``: the weights and settings; ``curve.json``: the figures by epoch). Returns the
    figures (``curve``, ``train``, ``held_out``, the references)."""
    labels = sources if isinstance(sources, LabelSet) else load_labels(sources)
    run = Path(run)
    run.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    rng = np.random.default_rng(cfg.seed)
    a = labels.arrays
    state_np, legal_np = heads_inputs(labels)
    target_np = _policy_targets(labels, cfg)
    held = a["game"] % cfg.holdout_every == 0
    if held.all() or not held.any():  # tiny sets: hold out one round in holdout_every by order
        games = np.unique(a["game"])
        held = np.isin(a["game"], games[:: cfg.holdout_every])
        if held.all():
            held = np.zeros(len(labels), bool)
            held[-max(1, len(labels) // cfg.holdout_every):] = True
    tr, va = np.flatnonzero(~held), np.flatnonzero(held)

    def t(x: np.ndarray, idx: np.ndarray, dtype: torch.dtype = torch.float32) -> torch.Tensor:
        return torch.as_tensor(x[idx]).to(dtype)

    choice_all = a["choice"].astype(np.int64)
    result_all = a["value"].astype(np.float32)
    value_all = result_all if cfg.value_target == "result" else search_values(labels)
    data = {name: (t(state_np, idx), t(legal_np, idx), t(target_np, idx), t(choice_all, idx, torch.int64),
                   t(value_all, idx), t(result_all, idx)) for name, idx in (("train", tr), ("val", va))}
    refs = {
        "val_incumbent_agreement": float(np.mean(a["incumbent"][va] == a["choice"][va]))
        if len(va) else math.nan,
        "val_value_mse_of_mean": float(np.mean((value_all[va] - value_all[tr].mean()) ** 2))
        if len(va) and len(tr) else math.nan,
        "val_result_mse_of_mean": float(np.mean((result_all[va] - result_all[tr].mean()) ** 2))
        if len(va) and len(tr) else math.nan,
        "val_searched": float(np.mean(a["searched"][va])) if len(va) else math.nan,
    }
    model = Heads(cfg.widths)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    S, L, T, C, V, _ = data["train"]
    curve = []
    best: tuple[float, int, dict[str, torch.Tensor]] | None = None
    started = time.perf_counter()
    for epoch in range(1, cfg.epochs + 1):
        order = torch.as_tensor(rng.permutation(len(tr)))
        total, seen = 0.0, 0
        for i in range(0, len(tr), cfg.batch):
            b = order[i:i + cfg.batch]
            logits, v = model(S[b], L[b])
            logp = torch.log_softmax(logits, dim=1)
            pol = -(T[b] * torch.where(T[b] > 0, logp, torch.zeros_like(logp))).sum(dim=1).mean()
            loss = pol + cfg.value_weight * ((v - V[b]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(b)
            seen += len(b)
        row: dict[str, Any] = {"epoch": epoch, "train_loss": total / max(seen, 1)}
        tr_fig = _evaluate(model, *data["train"])
        row.update({f"train_{k}": x for k, x in tr_fig.items()})
        if len(va):
            row.update({f"val_{k}": x for k, x in _evaluate(model, *data["val"]).items()})
        row["seconds"] = round(time.perf_counter() - started, 2)
        curve.append(row)
        score = row.get("val_policy_loss", row["train_policy_loss"])
        if best is None or score < best[0]:
            best = (score, epoch, {k: x.detach().clone() for k, x in model.state_dict().items()})
        if log:
            log(row)
    assert best is not None
    result = {"config": asdict(cfg), "train": int(len(tr)), "held_out": int(len(va)),
              "files": labels.files, "references": refs, "best_epoch": best[1], "curve": curve}
    torch.save({"state_dict": best[2], "widths": list(cfg.widths)}, run / "heads.pt")
    (run / "curve.json").write_text(json.dumps(result, indent=1) + "\n")
    return result


def load_heads(path: str | Path) -> Heads:
    """The :class:`Heads` saved by :func:`fit` (``RUN/heads.pt``), read weights-only."""
    ckpt = torch.load(str(path), weights_only=True)
    model = Heads(tuple(int(w) for w in ckpt["widths"]))
    model.load_state_dict(ckpt["state_dict"])
    model.eval()
    return model


def fallback_act(policy: Any, view: Any, seat: int) -> Any:
    """The decision of ``policy.fallback`` (a built-in policy, one runner per game and seat in
    ``policy._runners``) when the view is outside the play phase or has one legal action, else
    None: the network decides. Shared by the students' Python policies."""
    from .. import _core

    if view.phase == "play" and len(view.legal_actions()) > 1:
        return None
    key = (int(view.game_index), seat)
    if key not in policy._runners:
        policy._runners = {k: r for k, r in policy._runners.items() if k[0] == key[0]}
        policy._runners[key] = _core.run.PolicyRunner(policy.fallback, 0, key[0], seat)
    return policy._runners[key].act(view)


class HeadsPolicy:
    """A Python policy ``policy(view, seat)`` (docs/simulation.md) playing the policy head's best
    legal abstract id (its canonical action, ``action_from_abstract``); outside the play phase,
    and for a single legal action, ``fallback`` (a built-in policy) decides. The state features
    are the learned player's, computed from one world consistent with the view (they read only
    what the seat may know, R16, so any such world gives the same features). A first
    measurement tool: one torch pass per decision from Python."""

    def __init__(self, path: str | Path, fallback: str = "heuristic") -> None:
        self.model = load_heads(path)
        self.fallback = fallback
        self._runners: dict[tuple[int, int], Any] = {}
        torch.set_num_threads(1)

    def features(self, view: Any) -> tuple[np.ndarray, np.ndarray]:
        from .. import _core

        world = _core.beliefs.sample_worlds(view, 1, 0)[0]
        return _core.learned.learn_features(world)[0], _core.io.abstract_mask(view)[0]

    def __call__(self, view: Any, seat: int) -> Any:
        from .. import _core

        if (action := fallback_act(self, view, seat)) is not None:
            return action
        state, legal = self.features(view)
        with torch.no_grad():
            legal_in = torch.as_tensor(legal.astype(np.float32))[None]
            logits, _ = self.model(torch.as_tensor(state)[None], legal_in)
        return _core.io.action_from_abstract(view, int(logits[0].argmax()))
