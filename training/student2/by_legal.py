"""Agreement with the Q-network's choice on the held-out distillation positions by the number of
legal ids, student1 against student2 (training/student2/README.md "Where it misses").

PYTHONPATH=python python training/student2/by_legal.py /tmp/student2/distil
"""

from __future__ import annotations

import json
import sys

import numpy as np
import torch
from daguai.learn.distil import cand_offsets, load_distil
from daguai.learn.heads import load_heads
from daguai.learn.student2 import batch_inputs, load_cand_heads


def main(folder: str) -> None:
    torch.set_num_threads(1)
    d = load_distil(folder)
    held = np.flatnonzero(d["game"] % 10 == 0)[:20_000]
    off = cand_offsets(d["legal"])
    s1, s2 = load_heads("training/student1/heads.pt"), load_cand_heads("training/student2/heads.pt")
    p1, p2 = [], []
    with torch.no_grad():
        for i in range(0, len(held), 4096):
            idx = held[i:i + 4096]
            x = batch_inputs(d["state"], d["legal"], d["cand"], off, idx)
            p1.append(s1(x[0], x[1])[0].argmax(1).numpy())
            p2.append(s2(*x).argmax(1).numpy())
    a1, a2 = np.concatenate(p1), np.concatenate(p2)
    want, heur = d["choice"][held], d["heur"][held]
    n = d["legal"][held].sum(1)
    rows = []
    for name, sel in (("all", n > 0), ("2-3 legal ids", n <= 3), ("4-20", (n > 3) & (n <= 20)),
                      (">20", n > 20), ("network keeps the heuristic's id", want == heur),
                      ("network deviates", want != heur)):
        rows.append({"positions": name, "n": int(sel.sum()),
                     "student1": round(float(np.mean(a1[sel] == want[sel])), 3),
                     "student2": round(float(np.mean(a2[sel] == want[sel])), 3)})
    for r in rows:
        print(json.dumps(r))


if __name__ == "__main__":
    main(sys.argv[1])
