"""The ``daguai`` command: simulate, evaluate, bench (docs/simulation.md "Command line").

Bad arguments print one line ``daguai: error: ...`` on stderr and exit with status 2;
a failure while running exits with status 1 the same way.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from typing import Any, NoReturn, Optional, Sequence

__all__ = ["main", "build_parser"]

_POLICIES = ("random", "greedy", "heuristic")
_OUT_EXTS = (".npz", ".csv", ".parquet", ".pq")
# rough single-thread speed used only to decide whether a progress bar is worth showing
_ROUNDS_PER_SECOND_GUESS = 1500.0
_ROUNDS_PER_MATCH_GUESS = 15


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump); --help stays complete."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"daguai: error: {message}\n")


class _Fail(Exception):
    """A bad argument found after parsing (exit 2)."""


# ---- argument types ---------------------------------------------------------------------


def _int_text(text: str) -> int:
    try:
        return int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def _positive(text: str) -> int:
    v = _int_text(text)
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, got {text}")
    return v


def _seed(text: str) -> int:
    v = _int_text(text)
    if not 0 <= v < 2**64:
        raise argparse.ArgumentTypeError(f"must be in [0, 2**64), got {text}")
    return v


def _policy(text: str) -> str:
    name = text.strip().lower()
    if name not in _POLICIES:
        raise argparse.ArgumentTypeError(f"unknown policy {text!r} (choose {', '.join(_POLICIES)})")
    return name


def _parse_rules(items: Optional[Sequence[str]]) -> Any:
    from .rules import Rules

    if not items:
        return Rules()
    defaults = Rules().to_dict()
    values: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise _Fail(f"--rules: expected KEY=VALUE, got {item!r}")
        if key not in defaults:
            raise _Fail(f"--rules: unknown rule {key!r} (known: {', '.join(defaults)})")
        value = value.strip()
        default = defaults[key]
        if isinstance(default, bool):
            low = value.lower()
            if low in ("true", "yes", "on", "1"):
                values[key] = True
            elif low in ("false", "no", "off", "0"):
                values[key] = False
            else:
                raise _Fail(f"--rules {item}: {key} must be true or false")
        elif isinstance(default, int):
            try:
                values[key] = int(value)
            except ValueError:
                raise _Fail(f"--rules {item}: {key} must be a whole number") from None
        else:
            values[key] = value
    try:
        return Rules(**values)
    except ValueError as exc:
        raise _Fail(f"--rules: {exc}") from None


def _check_outputs(outs: Sequence[str], plot: Optional[str]) -> None:
    for path in outs:
        ext = os.path.splitext(path)[1].lower()
        if ext not in _OUT_EXTS:
            raise _Fail(f"--out {path}: unknown format {ext or '(no extension)'!r} "
                        "(use .npz, .csv or .parquet)")
        if ext in (".parquet", ".pq") and importlib.util.find_spec("pyarrow") is None:
            raise _Fail(f"--out {path}: parquet needs pyarrow (pip install 'daguai[parquet]')")
    if plot is not None and importlib.util.find_spec("matplotlib") is None:
        raise _Fail(f"--plot {plot}: needs matplotlib (pip install 'daguai[plot]')")
    for path in list(outs) + ([plot] if plot else []):
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise _Fail(f"cannot write {path}: no such directory {folder}")


def _ray_address(value: Optional[str]) -> tuple[str, Optional[str]]:
    if value is None:
        return "local", None
    if importlib.util.find_spec("ray") is None:
        raise _Fail("--ray needs Ray (pip install 'daguai[ray]')")
    return "ray", (None if value in ("", "local") else value)


def _want_progress(args: argparse.Namespace, rounds_expected: float, threads: int) -> bool:
    if args.quiet:
        return False
    if args.progress:
        return True
    if not sys.stderr.isatty():
        return False
    long = rounds_expected / (_ROUNDS_PER_SECOND_GUESS * max(1, threads)) > 2.0
    return long or rounds_expected > 20_000 or args.ray is not None


# ---- the parser ---------------------------------------------------------------------------


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=_seed, default=0, metavar="S",
                   help="seed of the run: game i depends only on (S, i) (default 0)")
    p.add_argument("--threads", type=_positive, default=None, metavar="T",
                   help="C++ threads (default: all CPUs; with --ray: threads per task, default 1)")
    p.add_argument("--rules", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                   help="rule variants, e.g. --rules wild=high dealer=stay (names as daguai.Rules); "
                        "put it after the positional arguments")
    p.add_argument("--auto-pass", action="store_true",
                   help="apply forced passes automatically (not counted as passes)")
    p.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                   help="run on Ray: a local instance, or the cluster at ADDRESS (HOST:6379)")
    p.add_argument("--progress", action="store_true",
                   help="always show the progress bar (default: on long runs when stderr is a terminal)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar and no notes on stderr")


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = _Parser(
        prog="daguai",
        description="大怪路子 (Da Guai Lu Zi) engine: Monte Carlo rollouts, policy evaluation, benchmarks.",
        epilog="See docs/simulation.md. 'daguai COMMAND --help' for each command.")
    parser.add_argument("--version", action="version", version=f"daguai {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")

    sim = sub.add_parser(
        "simulate", help="play many rounds or matches with built-in policies and summarize",
        description="Play N rounds (or matches) in C++, team A (seats 0 2 4) against team B "
                    "(seats 1 3 5), print a summary table, optionally save the columns and a plot.")
    n = sim.add_mutually_exclusive_group()
    n.add_argument("--rounds", type=_positive, default=None, metavar="N",
                   help="play N single rounds (default 10,000)")
    n.add_argument("--matches", type=_positive, default=None, metavar="N",
                   help="play N whole matches instead")
    sim.add_argument("--policy-a", type=_policy, default="heuristic", metavar="NAME",
                     help=f"policy of team A: {', '.join(_POLICIES)} (default heuristic)")
    sim.add_argument("--policy-b", type=_policy, default="random", metavar="NAME",
                     help="policy of team B (default random)")
    _add_common(sim)
    sim.add_argument("--out", action="append", default=[], metavar="PATH",
                     help="save the columns: .npz, .csv or .parquet (pyarrow); may be repeated")
    sim.add_argument("--plot", default=None, metavar="PATH",
                     help="save a figure (.png, .pdf, .svg; needs matplotlib)")

    ev = sub.add_parser(
        "evaluate", help="duplicate evaluation of policy A against policy B",
        description="Play every deal twice with the teams swapped (A on even seats, then on odd "
                    "seats) and report A's win / draw / loss rates, the mean score difference "
                    "and 95% confidence intervals over the deals.")
    ev.add_argument("policy_a", type=_policy, metavar="A", help=f"policy A: {', '.join(_POLICIES)}")
    ev.add_argument("policy_b", type=_policy, metavar="B", help="policy B")
    ev.add_argument("--deals", type=_positive, default=1000, metavar="N", help="deals (default 1000)")
    ev.add_argument("--matches", action="store_true", help="each deal is a whole match (default: a round)")
    _add_common(ev)

    bench = sub.add_parser(
        "bench", help="print the engine's speed figures",
        description="Core figures (classification, comparison, legal plays) and rollout speed "
                    "(rounds/s per built-in policy, 2 threads vs 1). About 30 s; --quick a few.")
    bench.add_argument("--quick", action="store_true", help="fewer hands and shorter timings")
    bench.add_argument("--hands", type=_positive, default=None, metavar="N",
                       help="random 27-card hands for the core figures (default 400, --quick 60)")
    bench.add_argument("--no-rollouts", action="store_true", help="only the core figures")
    bench.add_argument("--markdown", action="store_true", help="print a markdown table")
    return parser


# ---- commands -----------------------------------------------------------------------------


def _note(args: argparse.Namespace, text: str) -> None:
    if not args.quiet:
        print(text, file=sys.stderr)


def _cmd_simulate(args: argparse.Namespace) -> int:
    from .sim import ProgressBar, simulate

    rules = _parse_rules(args.rules)
    _check_outputs(args.out, args.plot)
    backend, address = _ray_address(args.ray)
    matches = args.matches is not None
    n = args.matches if matches else (args.rounds if args.rounds is not None else 10_000)
    threads = args.threads or (1 if backend == "ray" else os.cpu_count() or 1)
    expected = n * (_ROUNDS_PER_MATCH_GUESS if matches else 1)
    bar = ProgressBar("matches" if matches else "rounds") if _want_progress(args, expected, threads) else None
    result = simulate(n, (args.policy_a, args.policy_b), seed=args.seed, rules=rules, matches=matches,
                      threads=args.threads, backend=backend, ray_address=address, progress=bar,
                      auto_pass=args.auto_pass)
    print(result.summary())
    for path in args.out:
        result.save(path)
        _note(args, f"wrote {path}")
    if args.plot:
        result.plot(args.plot)
        _note(args, f"wrote {args.plot}")
    return 0


def _cmd_evaluate(args: argparse.Namespace) -> int:
    from .sim import ProgressBar, evaluate

    rules = _parse_rules(args.rules)
    backend, address = _ray_address(args.ray)
    threads = args.threads or (1 if backend == "ray" else os.cpu_count() or 1)
    expected = 2 * args.deals * (_ROUNDS_PER_MATCH_GUESS if args.matches else 1)
    bar = ProgressBar("matches" if args.matches else "rounds") if _want_progress(args, expected, threads) else None
    result = evaluate(args.policy_a, args.policy_b, args.deals, seed=args.seed, rules=rules,
                      matches=args.matches, threads=args.threads, backend=backend,
                      ray_address=address, progress=bar, auto_pass=args.auto_pass)
    print(result.summary())
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from .bench import format_rows, header, run

    n_hands = args.hands if args.hands is not None else (60 if args.quick else 400)
    print(header(n_hands), flush=True)
    rows = run(quick=args.quick, hands=n_hands, rollouts=not args.no_rollouts)
    print(format_rows(rows, markdown=args.markdown))
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the ``daguai`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.error("no command given (choose simulate, evaluate, bench; see daguai --help)")
    commands = {"simulate": _cmd_simulate, "evaluate": _cmd_evaluate, "bench": _cmd_bench}
    try:
        return commands[args.command](args)
    except _Fail as exc:
        parser.error(str(exc))
    except KeyboardInterrupt:
        print("\ndaguai: interrupted", file=sys.stderr)
        return 130
    except (ValueError, TypeError, OverflowError, MemoryError) as exc:  # bad input: exit 2
        message = " ".join(str(exc).split()) or type(exc).__name__
        if isinstance(exc, MemoryError):
            message = f"out of memory{': ' + message if message != 'MemoryError' else ''} (ask for fewer games)"
        print(f"daguai: error: {message}", file=sys.stderr)
        return 2
    except (ImportError, OSError, RuntimeError) as exc:
        message = " ".join(str(exc).split()) or type(exc).__name__
        print(f"daguai: error: {message}", file=sys.stderr)
        return 1
    return 0  # pragma: no cover


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
