"""``daguai gate``: the promotion gate of iterated training (:func:`daguai.learn.gate.gate`):
a duplicate evaluation of a candidate model against the incumbent; exit status 0 when the
candidate is promoted, 1 when it is not."""

from __future__ import annotations

import argparse
import sys

from .options import (
    PROGRESS_DELAY,
    Command,
    RuleAction,
    add_model_rules,
    add_start,
    parse_rules,
    positive,
    print_json,
    seed_number,
)


def tolerance_value(text: str) -> float:
    """--tolerance: a number in [0, 1)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number in [0, 1), got {text!r:.40}") from None
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"must be a number in [0, 1), got {text!r:.40}")
    return value


def _add_gate(p: argparse.ArgumentParser) -> None:
    p.add_argument("candidate", metavar="CANDIDATE",
                   help="the new generation: a .dgn model (or a policy name)")
    p.add_argument("incumbent", metavar="INCUMBENT", help="the generation it must beat: a .dgn model "
                                                          "(or a policy name)")
    p.add_argument("--deals", type=positive, default=2000, metavar="N",
                   help="deals, each played twice with the teams swapped (default 2000)")
    p.add_argument("--seed", type=seed_number, default=0, metavar="S",
                   help="seed of the deals: deal i depends only on (S, i) (default 0)")
    p.add_argument("--threads", type=positive, default=None, metavar="T",
                   help="C++ threads (default: all CPUs)")
    p.add_argument("--rule", "--rules", dest="rules", action=RuleAction, default=[], metavar="KEY=VALUE",
                   help="the rules of the games (repeatable); a model trained for others is refused")
    add_model_rules(p)
    add_start(p)
    p.add_argument("--tolerance", type=tolerance_value, default=0.0, metavar="D",
                   help="promote a candidate shown no worse than D wins - losses per round (the "
                        "interval's lower end above -D): a change meant to play as well, not "
                        "better (default 0: it must be shown better)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON on stdout")
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="always show the progress bar (default: on long runs when stderr is a terminal)")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")


def _run_gate(args: argparse.Namespace) -> int:
    from ..learn.gate import gate
    from ..progress import ProgressBar

    rules = parse_rules(args.rules)
    delay = 0.0 if args.progress else (PROGRESS_DELAY if args.progress is None and sys.stderr.isatty()
                                       else None)
    bar = None if delay is None else ProgressBar("rounds", delay=delay, label="gate")
    try:
        r = gate(args.candidate, args.incumbent, args.deals, args.seed, rules,
                 threads=args.threads, model_rules=args.model_rules, progress=bar, start=args.start,
                 tolerance=args.tolerance)
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        print_json(r.figures())
    else:
        print(r.line())
    return 0 if r.promoted else 1


COMMAND = Command("gate", "promote a new model generation only if it beats the incumbent",
        "Duplicate evaluation of CANDIDATE against INCUMBENT (as daguai evaluate): the candidate "
        "is promoted when the lower end of the 95% interval of its net win rate is above zero (above "
        "-D with --tolerance D). "
        "Prints the figure, the interval and the verdict; exit status 0 promoted, 1 not "
        "promoted (or a failure), 2 bad arguments (docs/learning.md \"Iterated training\").",
        _add_gate, _run_gate)
