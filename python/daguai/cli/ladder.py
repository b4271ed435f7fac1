"""``daguai ladder``: a round-robin of duplicate matches among a pool of players, rated
together (:func:`daguai.run.ladder.ladder`, docs/ladder.md)."""

from __future__ import annotations

import argparse
import sys

from .options import (
    Command,
    Fail,
    RuleAction,
    add_model_rules,
    note,
    parse_rules,
    plot_paths,
    policy_arg,
    positive,
    print_json,
    seed_number,
    show,
)


def _add(p: argparse.ArgumentParser) -> None:
    p.add_argument("players", nargs="*", type=policy_arg, metavar="PLAYER",
                   help="built-in names and .dgn model files (default: every built-in player "
                        "kind: random greedy heuristic heuristic_exact pimc learned, and expert "
                        "when the engine has it)")
    p.add_argument("--deals", type=positive, default=200, metavar="N",
                   help="deals per pair, each played twice with the teams swapped (default 200)")
    p.add_argument("--seed", type=seed_number, default=0, metavar="S",
                   help="seed of the deals, the same for every pair (default 0)")
    p.add_argument("--threads", type=positive, default=None, metavar="T",
                   help="C++ threads (default: all CPUs)")
    p.add_argument("--rule", "--rules", dest="rules", action=RuleAction, default=[],
                   metavar="KEY=VALUE", help="a rule variant, e.g. --rule table=4p2d (repeatable)")
    p.add_argument("--auto-pass", action="store_true", help="apply forced passes automatically")
    add_model_rules(p)
    p.add_argument("--cache", default=None, metavar="FILE",
                   help="SQLite file of played pairs (default $DAGUAI_CACHE/ladder.sqlite or "
                        "~/.cache/daguai/ladder.sqlite); a pair found there is not played again")
    p.add_argument("--no-cache", action="store_true", help="play every pair, store nothing")
    p.add_argument("--no-cross-play", action="store_true",
                   help="leave out the rows of each player with heuristic partners")
    p.add_argument("--plot", action="append", default=[], metavar="PATH",
                   help="draw the ratings with their intervals (.png, .pdf, .svg); repeatable")
    p.add_argument("--json", action="store_true", help="print the figures as JSON on stdout")
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="always show the progress bar over the pairs (default: when stderr is a "
                        "terminal)")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress bar")
    p.add_argument("--quiet", "-q", action="store_true", help="no notes and no bar on stderr")


def _run(args: argparse.Namespace) -> int:
    from ..errors import MissingExtraError, require
    from ..progress import ProgressBar
    from ..run.ladder import ladder

    try:  # before anything is played
        require("daguai ladder", "ladder", "statsmodels")
    except MissingExtraError as exc:
        raise Fail(str(exc)) from None
    rules = parse_rules(args.rules)
    plots = plot_paths(args.plot)
    if args.no_cache and args.cache is not None:
        raise Fail("--cache and --no-cache exclude each other")
    cache = False if args.no_cache else (args.cache if args.cache is not None else True)
    if not all(isinstance(p, str) for p in args.players):
        raise Fail("ladder players are built-in names or .dgn files, not Python callables")
    players = list(args.players) or None

    show_bar = not args.quiet and args.progress is not False and (args.progress or sys.stderr.isatty())
    bar = ProgressBar("pairs", label="ladder", min_interval=0.0) if show_bar else None

    def notes(line: str) -> None:
        if bar is not None:
            bar.note(line)
        else:
            note(args, line)

    try:
        result = ladder(players, args.deals, seed=args.seed, rules=rules, cache=cache,
                        threads=args.threads, cross_play=() if args.no_cross_play else None,
                        auto_pass=args.auto_pass, progress=bar, notes=notes,
                        model_rules=args.model_rules)
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        print_json(result.figures())
    else:
        show(result.renderables())
    for path in plots:
        result.plot(path)
        note(args, f"wrote {path}")
    sys.stdout.flush()
    return 0


COMMAND = Command("ladder", "rate a pool of players by a round-robin of duplicate matches",
                  "Play every pair of players in a duplicate match on the same deals, fit "
                  "Bradley-Terry ratings to all pairs at once (Elo scale, heuristic = 0, 95% "
                  "intervals), and print the ratings, the pairs and the cross-play rows (one "
                  "player with heuristic partners against heuristics). Pairs are cached, so "
                  "adding a player plays only its own pairs.",
                  _add, _run)
