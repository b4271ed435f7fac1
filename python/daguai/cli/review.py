"""``daguai review``: what each of one seat's decisions in a match record cost it
(:func:`daguai.review.review`)."""

from __future__ import annotations

import argparse
import sys

from .options import Command, policy_arg, positive, seed_number


def _add_review(p: argparse.ArgumentParser) -> None:
    from ..review import REVIEW_ROLLOUTS
    from ..search import MAX_ROLLOUTS, MAX_THREADS

    p.add_argument("record", metavar="RECORD", help="a match record, JSON Lines ('-': stdin)")
    p.add_argument("--seat", type=int, required=True, metavar="S", help="the seat to review (0-based)")
    p.add_argument(
        "--round",
        type=positive,
        action="append",
        default=None,
        metavar="R",
        help="only round R, numbered from 1 as the table shows them (repeatable; default every round)",
    )
    p.add_argument(
        "--rollouts",
        type=positive,
        default=REVIEW_ROLLOUTS,
        metavar="N",
        help=f"search budget per decision, at most {MAX_ROLLOUTS:,} (default {REVIEW_ROLLOUTS})",
    )
    p.add_argument(
        "--policy",
        type=policy_arg,
        default="heuristic",
        metavar="NAME",
        help="rollout policy of every seat (default heuristic)",
    )
    p.add_argument("--seed", type=seed_number, default=0, help="seed of the worlds and rollouts (default 0)")
    p.add_argument(
        "--threads",
        type=positive,
        default=1,
        metavar="N",
        help=f"threads, at most {MAX_THREADS} (default 1; results do not depend on it)",
    )
    p.add_argument("--all", action="store_true", help="show every decision (default: the 10 costliest)")
    p.add_argument("--json", action="store_true", help="print JSON (docs/search.md 'Game review')")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar (it draws on stderr)")


def _cmd_review(args: argparse.Namespace) -> int:
    import json

    from ..progress import ProgressBar
    from ..review import review
    from .options import show

    bar = ProgressBar("decisions", label="reviewing") if not args.quiet and sys.stderr.isatty() else None
    try:
        if args.record == "-":
            text = sys.stdin.read()
        else:
            with open(args.record, encoding="utf-8") as f:
                text = f.read()
        result = review(
            text,
            args.seat,
            rounds=None if args.round is None else [r - 1 for r in args.round],
            rollouts=args.rollouts,
            policy=args.policy,
            seed=args.seed,
            threads=args.threads,
            progress=None if bar is None else (lambda d, t: bar(int(d), int(t))),
        )
    except (ValueError, OSError) as exc:  # bad input: one line, status 2
        print(f"daguai: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        show([result.table(top=None if args.all else 10)])
    return 0


COMMAND = Command(
    "review",
    "what each of a seat's decisions in a match record cost it",
    "For each decision of the seat in a match record (JSON Lines), the engine's search "
    "from that seat's view (never the hidden cards) with the seat's choice as the one to "
    "beat: the preferred choice, and what the seat's choice cost in the round's points and "
    "in the chance to win the round, with 95% intervals, the costliest first "
    "(docs/search.md 'Game review'). Deterministic for a seed.",
    _add_review,
    _cmd_review,
)
