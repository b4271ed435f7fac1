"""Diagnostic (training/student1/README.md): how much of the gap between the one-pass student and
the Q-network is the heuristic's choice, which the Q-network reads as an action feature and the
student does not see? The same student and distillation phase as ``python -m daguai.learn.student
fit`` (trunk from the Q-network, the same targets), once with a one-hot of the heuristic's id
appended to the legal ids, and its agreement with the network's choice on the same held-out
distillation rounds, every 200,000 frames.

    PYTHONPATH=python python training/student1/heuristic_input.py /tmp/student/distil [frames]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import daguai
import numpy as np
import torch
from daguai.learn.distil import load_distil
from daguai.learn.heads import Heads
from daguai.learn.shards import NUM_ABSTRACT, STATE_FEATURES
from daguai.learn.student import init_from_qnet, soft_targets


class HeurHeads(Heads):
    """Heads whose trunk also reads a one-hot of the heuristic's id (444 more inputs)."""

    def __init__(self, widths: tuple[int, ...]) -> None:
        super().__init__(widths)
        first = self.trunk[0]
        wider = torch.nn.Linear(first.in_features + NUM_ABSTRACT, first.out_features)
        with torch.no_grad():
            wider.weight[:, :first.in_features] = first.weight
            wider.weight[:, first.in_features:] = 0.0
            wider.bias.copy_(first.bias)
        self.trunk[0] = wider

    def forward(self, state, legal, heur):  # type: ignore[override]
        h = self.trunk(torch.cat([state, legal, heur], dim=1))
        return self.policy(h).masked_fill(legal < 0.5, float("-inf"))


def main() -> None:
    folder = sys.argv[1]
    total = int(sys.argv[2]) if len(sys.argv) > 2 else 800_000
    torch.manual_seed(0)
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    d = load_distil(folder)
    held = d["game"] % 10 == 0
    tr, va = np.flatnonzero(~held), np.flatnonzero(held)[:20_000]
    model = HeurHeads((512, 256))
    init_from_qnet(model, Path(daguai.__file__).parent / "models" / "learned.dgn")
    assert model.trunk[0].in_features == STATE_FEATURES + 2 * NUM_ABSTRACT
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def inputs(idx):
        heur = np.zeros((len(idx), NUM_ABSTRACT), np.float32)
        heur[np.arange(len(idx)), d["heur"][idx]] = 1.0
        return (torch.as_tensor(d["state"][idx].astype(np.float32)),
                torch.as_tensor(d["legal"][idx].astype(np.float32)), torch.as_tensor(heur))

    def top1():
        with torch.no_grad():
            hit = 0
            for i in range(0, len(va), 4096):
                idx = va[i:i + 4096]
                hit += int((model(*inputs(idx)).argmax(dim=1).numpy() == d["choice"][idx]).sum())
        return hit / len(va)

    started, frames, order = time.perf_counter(), 0, rng.permutation(tr)
    print(json.dumps({"frames": 0, "val_network_top1": top1()}), flush=True)
    while frames < total:
        if len(order) < 512:
            order = rng.permutation(tr)
        b, order = order[:512], order[512:]
        logp = torch.log_softmax(model(*inputs(b)), dim=1)
        t = torch.as_tensor(soft_targets(d["q"][b], d["legal"][b], d["choice"][b], 0.025, 0.5))
        loss = -(t * torch.where(t > 0, logp, torch.zeros_like(logp))).sum(dim=1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        frames += len(b)
        if frames % 200_192 < 512 or frames >= total:
            print(json.dumps({"frames": frames, "seconds": round(time.perf_counter() - started, 1),
                              "val_network_top1": top1()}), flush=True)


if __name__ == "__main__":
    main()
