"""A shipped model's weights, unchanged, as a model that also makes the R11 decisions."""
import hashlib
import sys
from pathlib import Path

from daguai.dgn import read_dgn, write_dgn

src, out, gate = sys.argv[1], sys.argv[2], sys.argv[3]
layers, meta, margin = read_dgn(src)
meta = {**meta, "r11": {
    "since": "2026-12-06",
    "weights_of": {"file": Path(src).name, "sha256": hashlib.sha256(Path(src).read_bytes()).hexdigest()},
    "what": "the same weights and margin; a format-2 file whose decides bit 0 is set, so the network "
            "also makes the R11 decisions (docs/learning.md 'R11 decisions by the network')",
    "made_by": "python training/r11a/ship_r11.py SRC OUT GATE", "gate": gate}}
print(write_dgn(out, layers, meta, margin, r11=True))
