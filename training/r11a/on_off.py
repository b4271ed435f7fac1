"""The value of the R11 decisions alone: a model's weights with the network making the R11
decisions (format 2) against the same weights with the heuristic making them (format 1),
duplicate, every deal from a random start state (docs/learning.md "R11 decisions by the
network").

    python training/r11a/on_off.py MODEL SEED DEALS [TABLE]
"""

import sys
import tempfile
from pathlib import Path

import daguai
from daguai import Rules
from daguai.dgn import read_dgn, write_dgn

src, seed, deals = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
table = sys.argv[4] if len(sys.argv) > 4 else "6p3d"
layers, meta, margin = read_dgn(src)
with tempfile.TemporaryDirectory() as tmp:
    on = write_dgn(Path(tmp) / "on.dgn", layers, meta, margin, r11=True)
    off = write_dgn(Path(tmp) / "off.dgn", layers, meta, margin, r11=False)
    r = daguai.evaluate(str(on), str(off), deals, seed=seed, start="random", threads=2,
                        rules=Rules(table=table))
lo, hi = r.net_win_ci
print(f"{src} ({table}): R11 by the network vs by the heuristic, random starts, {deals} deals of "
      f"seed {seed}: {r.net_win_rate:+.4f} [{lo:+.4f}, {hi:+.4f}] ({r.elapsed:.0f} s)")
