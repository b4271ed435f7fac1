"""``daguai bench``: the engine's speed figures (:mod:`daguai.bench`)."""

from __future__ import annotations

import argparse

from .options import Command, Fail, positive, print_json, show


def _add_bench(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quick", action="store_true", help="fewer hands and shorter timings")
    p.add_argument("--hands", type=positive, default=None, metavar="N",
                   help="random 27-card hands for the core figures, at most 100,000 "
                        "(default 400, --quick 60)")
    p.add_argument("--no-rollouts", action="store_true", help="only the core figures")
    p.add_argument("--targets", action="store_true",
                   help="also show the project's speed targets and whether each is met")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--markdown", action="store_true", help="print a markdown table")
    form.add_argument("--json", action="store_true", help="print the figures as JSON")


def _run_bench(args: argparse.Namespace) -> int:
    from ..bench import MAX_HANDS, format_rows, header, rows_as_dicts, rows_table, run

    n_hands = args.hands if args.hands is not None else (60 if args.quick else 400)
    if n_hands > MAX_HANDS:
        raise Fail(f"--hands must be at most {MAX_HANDS:,}, got {n_hands:,}")
    if not args.json:
        print(header(n_hands), flush=True)
    rows = run(quick=args.quick, hands=n_hands, rollouts=not args.no_rollouts)
    if args.json:
        print_json({"header": header(n_hands), "rows": rows_as_dicts(rows, targets=args.targets)})
    elif args.markdown:
        print(format_rows(rows, markdown=True, targets=args.targets))
    else:
        show([rows_table(rows, targets=args.targets)])
    return 0


COMMAND = Command("bench", "print the engine's speed figures",
        "Core figures (classification, comparison, legal plays), game, learning and "
        "rollout speed (rounds/s per built-in policy, 2 threads vs 1). About 30 s; "
        "--quick a few.",
        _add_bench, _run_bench)
