"""``daguai analyze``: the seat's plays raced over sampled worlds (:func:`daguai.search.analyze`)."""

from __future__ import annotations

import argparse
import sys

from .options import Command, add_model_rules, policy_arg, positive, seconds, seed_number


def _add_analyze(an: argparse.ArgumentParser) -> None:
    from ..search import (
        ANALYZE_INFERENCE,
        ANALYZE_ROLLOUTS,
        INFERENCES,
        MAX_ROLLOUTS,
        MAX_SECONDS,
        MAX_THREADS,
    )

    an.add_argument(
        "source", metavar="FILE", help="a position JSON file, or a record with --line ('-': stdin)"
    )
    an.add_argument("--line", type=positive, default=None, metavar="N",
                    help="the record line to analyze after (required for a record)")
    an.add_argument("--rollouts", type=positive, default=None, metavar="N",
                    help=f"budget of the race in rollouts, at most {MAX_ROLLOUTS:,} "
                         f"(default {ANALYZE_ROLLOUTS:,}; with --time: the first race's, default 1,000)")
    an.add_argument("--time", type=seconds, default=None, metavar="SECONDS",
                    help=f"race with doubled budgets until SECONDS (at most {MAX_SECONDS:g}) are spent")
    an.add_argument("--policy", type=policy_arg, default="heuristic", metavar="NAME",
                    help="rollout policy of every seat (default heuristic)")
    an.add_argument("--inference", choices=INFERENCES, default=ANALYZE_INFERENCE,
                    help="weigh the worlds by the others' plays this round under a model of play: "
                         f"{', '.join(INFERENCES)} (default {ANALYZE_INFERENCE}; docs/search.md "
                         "\"Inference from play\")")
    add_model_rules(an)  # a --policy model.dgn of other rules than the position's
    an.add_argument("--seed", type=seed_number, default=0, help="seed of the worlds and rollouts (default 0)")
    an.add_argument("--threads", type=positive, default=1, metavar="N",
                    help=f"threads, at most {MAX_THREADS} (default 1; results do not depend on it)")
    an.add_argument("--plays", nargs="+", default=None, metavar="ACTION",
                    help="race only the groups of these actions (action text, e.g. \"8h 8c\" pass)")
    an.add_argument("--all", action="store_true", help="show every group (default: the best 15)")
    an.add_argument("--json", action="store_true", help="print JSON instead of a table")
    an.add_argument("--quiet", "-q", action="store_true", help="no progress bar (it draws on stderr)")


def _read_source(source: str) -> str:
    """The text of FILE ('-': stdin), refusing what is not a file before reading it (the
    package's one reader of a path: errors.read_path)."""
    from pathlib import Path

    from ..errors import read_path

    if source == "-":
        return sys.stdin.read()
    return read_path(Path(source), ValueError, "position or record file")


def _check_position_text(name: str, text: str) -> None:
    """A file without --line must be a position JSON document: say what it is otherwise."""
    import json

    first = next((line for line in text.splitlines() if line.strip()), "")
    if first.lstrip().startswith("{") and '"record"' in first:
        return  # a record: analyze asks for --line
    try:
        json.loads(text)
    except RecursionError:
        return  # analyze says "nested too deeply"
    except ValueError:
        looks = ("it looks like CSV" if "," in first and not first.lstrip().startswith(("{", "["))
                 else "it is empty" if not first else "it is not JSON")
        raise ValueError(f"{name}: not a position JSON file ({looks}); a record (JSON Lines) "
                         "needs --line N") from None


def _cmd_analyze(args: argparse.Namespace) -> int:
    import json

    from ..search import analyze
    from .messages import flag_text, os_error_text

    try:
        text = _read_source(args.source)
        if args.line is None:
            _check_position_text("stdin" if args.source == "-" else args.source, text)
        result = analyze(
            text,
            upto=args.line,
            rollouts=args.rollouts,
            time=args.time,
            policy=args.policy,
            seed=args.seed,
            threads=args.threads,
            inference=args.inference,
            model_rules=args.model_rules,
            progress=not args.quiet and sys.stderr.isatty(),
            plays=args.plays,
        )
    except OSError as exc:  # bad input: one line, status 2
        print(f"daguai: error: {os_error_text(exc)}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"daguai: error: {flag_text(' '.join(str(exc).split()))}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        print("\n".join(result.lines(top=None if args.all else 15)))
    return 0


COMMAND = Command("analyze", "which play wins: the seat's plays raced over sampled worlds",
        "The groups of equivalent plays of the seat to act, raced over worlds sampled from "
        "what that seat may know, ranked by the mean change of its score in the round with "
        "95% intervals, the best marked (docs/search.md). Input: a position JSON file, or a "
        "record (JSON Lines) with --line N.",
        _add_analyze, _cmd_analyze)
