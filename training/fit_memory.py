"""How much memory a fit's labels take: load them as ``python -m daguai.learn.qfit fit`` does.

    python training/fit_memory.py --labels FOLDER [...] --cands CANDS [...] [--dense]

Reads the label folders and their ``qnet`` sidecars into the fit's rows (``load_fit_rows``),
and prints the labels, the candidate rows, the seconds it took and the process's maximum resident
size; ``--dense`` keeps them as arrays, as fits did before coded rows (docs/learning.md "Labels
held coded").
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

from daguai.learn.qfit import load_fit_rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--labels", required=True, nargs="+", metavar="FOLDER")
    p.add_argument("--cands", required=True, nargs="+", metavar="FOLDER")
    p.add_argument("--dense", action="store_true", help="arrays, not coded rows")
    a = p.parse_args(argv)
    a.label_shards = None
    start = time.monotonic()
    try:
        data = load_fit_rows(a, coded=not a.dense)[0]
    except ValueError as e:
        p.error(str(e))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB on Linux
    kind = "dense" if a.dense else "coded"
    print(f"{kind}: {len(data.target):,} labels, {len(data.act):,} candidate rows, "
          f"{time.monotonic() - start:.0f} s, maximum resident {peak:.2f} GiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
