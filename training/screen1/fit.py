"""How well a cheap screen on the first layer picks the candidates worth the full pass
(README.md).

python training/screen1/fit.py DECISIONS.npz [MODEL.dgn]

The float pass of MODEL (default: the shipped 6p3d model) over every candidate gives the
first layer's activations a0 and Q; the player's decision is the switching rule (the highest Q
unless the heuristic's is within the margin). A screen scores each candidate by a linear
function of a0; the full pass then runs only on the screen's K best and the heuristic's
candidate, and the rule decides among them. For three screens and several K, on the last 30%
of the decisions: how often that gives the player's decision, and what share of the full passes
it runs. The screens: least squares on a0 (fitted on the first 70%), W1ᵀ w2 (every second-layer
unit taken as active: no data), and W1ᵀ (w2 ⊙ p), p each second-layer unit's share of active
rows among the first 70%."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from daguai.dgn import parse_dgn, read_model_file

SHIPPED = Path(__file__).resolve().parents[2] / "python" / "daguai" / "models" / "learned.dgn"


def main() -> None:
    data = np.load(sys.argv[1])
    model = sys.argv[2] if len(sys.argv) > 2 else str(SHIPPED)
    layers, _, margin = parse_dgn(read_model_file(model), meta=False)
    (w0, b0), (w1, b1), (w2, b2) = layers
    sizes, heur = data["n"], data["heur"]
    off = np.concatenate([[0], np.cumsum(sizes)])
    rows = np.concatenate([data["state"][np.repeat(np.arange(len(sizes)), sizes)], data["actions"]], axis=1)
    a0 = np.maximum(rows @ w0.T + b0, 0)
    a1 = np.maximum(a0 @ w1.T + b1, 0)
    q = (a1 @ w2.T + b2)[:, 0]

    def choose(qd: np.ndarray, h: int) -> int:
        best = int(np.argmax(qd))
        return best if qd[best] - qd[h] > margin else h

    played = [choose(q[off[i]:off[i + 1]], int(heur[i])) for i in range(len(sizes))]
    train = int(0.7 * len(sizes))
    cut = off[train]
    ones = np.ones((len(a0), 1), np.float32)
    fitted, *_ = np.linalg.lstsq(np.concatenate([a0, ones], axis=1)[:cut], q[:cut], rcond=None)
    active = (a1[:cut] > 0).mean(axis=0)
    screens = {
        "least squares": a0 @ fitted[:-1],
        "W1' w2 (no data)": a0 @ (w1.T @ w2[0]),
        "W1' (w2 * p)": a0 @ (w1.T @ (w2[0] * active)),
    }
    test = sizes[train:]
    print(f"{len(sizes)} decisions ({len(test)} tested), candidates per tested decision: median "
          f"{np.median(test):.0f}, p90 {np.percentile(test, 90):.0f}, mean {test.mean():.2f}")
    print("| screen | K | the player's decision | full passes (share of candidates) |")
    print("|---|---|---|---|")
    for name, s in screens.items():
        for k in (2, 4, 6, 8, 12):
            same = passes = 0
            for i in range(train, len(sizes)):
                lo, hi, h = off[i], off[i + 1], int(heur[i])
                keep = sorted(set(np.argsort(-s[lo:hi], kind="stable")[:k].tolist()) | {h})
                same += keep[choose(q[lo:hi][keep], keep.index(h))] == played[i]
                passes += len(keep)
            print(f"| {name} | {k} | {same / len(test):.4f} | {passes / test.sum():.3f} |")


if __name__ == "__main__":
    main()
