"""Average the weights of several snapshots of one training run into one model.

    python training/average.py OUT.dgn --margin 0.01 --meta RUN/latest.dgn SNAPSHOT.dgn [...]

A thin wrapper of :func:`daguai.dgn.average_models` (docs/learning.md "Weight averaging").
"""

from __future__ import annotations

import argparse
import shlex
import sys

from daguai.dgn import average_models


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", help="the averaged model (.dgn)")
    p.add_argument("models", nargs="+", help="the snapshots (.dgn), of one run")
    p.add_argument("--margin", type=float, default=None,
                   help="switching margin of the result (default: the last snapshot's)")
    p.add_argument("--meta", default=None, metavar="MODEL",
                   help="take the metadata from this model (e.g. the run's latest.dgn, which lists "
                        "its commands and configuration) instead of the last snapshot")
    args = p.parse_args(argv)
    command = "python training/average.py " + shlex.join(sys.argv[1:] if argv is None else argv)
    try:
        path = average_models(args.models, args.out, args.margin, meta_from=args.meta,
                              extra_meta={"averaged_by": command})
    except ValueError as e:  # ModelError is a ValueError
        print(f"average.py: {e}", file=sys.stderr)
        return 2
    print(f"wrote {path}: the mean of {len(args.models)} models")
    return 0


if __name__ == "__main__":
    sys.exit(main())
