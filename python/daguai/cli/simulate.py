"""``daguai simulate`` and ``daguai evaluate``: many games in bulk (:func:`daguai.run.simulate`,
:func:`daguai.run.evaluate`), a summary on stdout, the columns and figures saved."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from .options import (
    POLICY_NAMES,
    Command,
    add_common,
    check_outputs,
    note,
    parse_rules,
    plot_paths,
    policy_arg,
    positive,
    print_json,
    progress_delay,
    ray_backend,
    show,
)

EVAL_OUT_EXTS = (".json", ".csv")


def _add_simulate(p: argparse.ArgumentParser) -> None:
    n = p.add_mutually_exclusive_group()
    n.add_argument("--rounds", type=positive, default=None, metavar="N",
                   help="play N single rounds (default 10,000)")
    n.add_argument("--matches", type=positive, default=None, metavar="N",
                   help="play N whole matches instead")
    p.add_argument("--policy-a", type=policy_arg, default="heuristic", metavar="POLICY",
                   help=f"policy of team A: {', '.join(POLICY_NAMES)}, a model path/to/model.dgn, "
                        "an import path package.module:policy or a file path/to/file.py:policy "
                        "(default heuristic)")
    p.add_argument("--policy-b", type=policy_arg, default="random", metavar="POLICY",
                   help="policy of team B (default random)")
    add_common(p)
    p.add_argument("--out", action="append", default=[], metavar="PATH",
                   help="save the columns: .npz, .csv or .parquet (pyarrow); repeatable")
    p.add_argument("--plot", action="append", default=[], metavar="PATH",
                   help="save a figure (.png, .pdf, .svg; needs matplotlib); repeatable")


def _make_bar(args: argparse.Namespace, unit: str) -> Any:
    from ..progress import ProgressBar

    delay = progress_delay(args)
    return None if delay is None else ProgressBar(unit, stream=sys.stderr, delay=delay)


def _run_and_report(args: argparse.Namespace, unit: str, run: Callable[[Any], Any],
                    figures: Callable[[Any], Any] = lambda result: result.figures()) -> Any:
    """Run with a progress bar when wanted, print the result (table or ``figures(result)``
    with --json) and save every --out; returns the result (simulate and evaluate alike)."""
    bar = _make_bar(args, unit)
    try:
        result = run(bar)
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        print_json(figures(result))
    else:
        show(result.renderables())
    for path in args.out:
        result.save(path)
        note(args, f"wrote {path}")
    return result


def _run_simulate(args: argparse.Namespace) -> int:
    from ..run import simulate

    rules = parse_rules(args.rules)
    plots = plot_paths(args.plot)
    check_outputs(args.out, plots)
    backend, address = ray_backend(args)
    matches = args.matches is not None
    n = args.matches if matches else (args.rounds if args.rounds is not None else 10_000)
    result = _run_and_report(
        args, "matches" if matches else "rounds",
        lambda bar: simulate(n, (args.policy_a, args.policy_b), seed=args.seed, rules=rules,
                             matches=matches, threads=args.threads, backend=backend,
                             ray_address=address, progress=bar, auto_pass=args.auto_pass,
                             model_rules=args.model_rules, start=args.start))
    for path in plots:
        result.plot(path)
        note(args, f"wrote {path}")
    return 0



def _add_evaluate(p: argparse.ArgumentParser) -> None:
    p.add_argument("policy_a", type=policy_arg, metavar="A",
                   help=f"policy A: {', '.join(POLICY_NAMES)}, a model path/to/model.dgn, an "
                        "import path package.module:policy or a file path/to/file.py:policy")
    p.add_argument("policy_b", type=policy_arg, metavar="B", help="policy B (the same choices)")
    p.add_argument("--deals", type=positive, default=1000, metavar="N", help="deals (default 1000)")
    p.add_argument("--matches", action="store_true", help="each deal is a whole match (default: a round)")
    add_common(p)
    p.add_argument("--out", action="append", default=[], metavar="PATH",
                   help="save the result: .json (every figure, EvalResult.load) or .csv "
                        "(one row per deal); repeatable")
    p.add_argument("--per-deal", action="store_true",
                   help="with --json, also print the per-deal values (deal_net_win, deal_score_diff)")


def _run_evaluate(args: argparse.Namespace) -> int:
    from ..run import evaluate

    rules = parse_rules(args.rules)
    check_outputs(args.out, [], EVAL_OUT_EXTS)
    backend, address = ray_backend(args)
    _run_and_report(
        args, "matches" if args.matches else "rounds",
        lambda bar: evaluate(args.policy_a, args.policy_b, args.deals, seed=args.seed, rules=rules,
                             matches=args.matches, threads=args.threads, backend=backend,
                             ray_address=address, progress=bar, auto_pass=args.auto_pass,
                             model_rules=args.model_rules, start=args.start),
        lambda result: result.figures(per_deal=args.per_deal))
    return 0


SIMULATE = Command("simulate", "play many rounds or matches and summarize",
        "Play N rounds (or matches), team A (seats 0 2 4) against team B (seats 1 3 5), "
        "print a summary table, optionally save the columns and plots. Built-in policies "
        "run in C++; a package.module:policy callable takes the Python path.",
        _add_simulate, _run_simulate)

EVALUATE = Command("evaluate", "duplicate evaluation of policy A against policy B",
        "Play every deal twice with the teams swapped (A on even seats, then on odd seats) "
        "and report A's win / draw / loss rates, the mean score difference and 95% "
        "Student-t confidence intervals over the deals.",
        _add_evaluate, _run_evaluate)
