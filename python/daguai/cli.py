"""The ``daguai`` command: simulate, evaluate, bench (docs/simulation.md "Command line").

Every subcommand is one :class:`Command` in :data:`COMMANDS`: a function adding its
arguments and a function running it. To add a subcommand, write those two functions and
append a ``Command`` to the table.

Bad arguments print one line ``daguai: error: ...`` on stderr and exit with status 2;
a failure while running exits with status 1 the same way; Ctrl-C exits with 130; a closed
output pipe (``daguai ... | head``) ends the command quietly.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

__all__ = ["COMMANDS", "Command", "build_parser", "main"]

from .checks import check_policy, policy_names

_POLICIES = policy_names()  # the C++ registry (cpp/engine/policy.cpp)
_OUT_EXTS = (".npz", ".csv", ".parquet", ".pq")
_EVAL_OUT_EXTS = (".json", ".csv")
# on a terminal, the progress bar appears once a run has lasted this long (measured)
_PROGRESS_DELAY = 1.0


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump); --help stays complete."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"daguai: error: {' '.join(message.split())}\n")


class _Fail(Exception):
    """A bad argument found after parsing (exit 2)."""


@dataclass(frozen=True)
class Command:
    """One subcommand: ``add_arguments(parser)`` declares its options, ``run(args)`` runs
    it and returns the exit status."""

    name: str
    help: str
    description: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


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


def _seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not v > 0 or v != v or v == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return v


def _seed(text: str) -> int:
    v = _int_text(text)
    if not 0 <= v < 2**64:
        raise argparse.ArgumentTypeError(f"must be in [0, 2**64), got {text}")
    return v


def _policy(text: str) -> Any:
    """A policy argument, checked by ``daguai.checks.check_policy`` (a built-in name kept as
    text for the C++ fast path, a model path, ``package.module:policy`` or ``file.py:policy``;
    import paths resolve from the working directory)."""
    if os.getcwd() not in sys.path:  # the console script does not put the cwd on sys.path
        sys.path.insert(0, os.getcwd())
    try:
        return check_policy(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _rule_values() -> dict[str, str]:
    """For every rule of daguai.Rules: its accepted values, from the variant table."""
    from .rules import VARIANTS

    out = {}
    for key, row in VARIANTS.items():
        if row["kind"] == "choice":
            values = " | ".join(row["choices"])
        elif row["kind"] == "bool":
            values = "true | false"
        elif row["kind"] == "int":
            values = f"integer {row['lo']}..{row['hi']}"
        else:
            values = " ".join(row["choices"])
        out[key] = values
    return out


def _rules_epilog() -> str:
    from .rules import VARIANTS

    values = _rule_values()
    width = max(len(k) for k in VARIANTS)
    lines = ["rules (--rule KEY=VALUE, repeatable; names as daguai.Rules, docs/rules.md):"]
    for key, row in VARIANTS.items():
        default = row["default"]
        shown = str(default).lower() if isinstance(default, bool) else str(default)
        lines.append(f"  {key:{width}s}  {values[key]}  (default {shown})")
        lines += textwrap.wrap(f"{row['rule']}: {row['doc']}", 100, initial_indent=" " * (width + 6),
                               subsequent_indent=" " * (width + 6))
    return "\n".join(lines)


def _parse_rules(items: Sequence[str] | None) -> Any:
    from .rules import Rules

    defaults = Rules().to_dict()
    values: dict[str, Any] = {}
    for group in items or ():
        for item in group.split(","):
            if not item.strip():
                continue
            key, sep, value = item.partition("=")
            key = key.strip().replace("-", "_")
            if not sep or not key:
                raise _Fail(f"--rule: expected KEY=VALUE, got {item!r}")
            if key not in defaults:
                raise _Fail(f"--rule: unknown rule {key!r} (known: {', '.join(defaults)})")
            value = value.strip()
            default = defaults[key]
            if isinstance(default, bool):
                low = value.lower()
                if low in ("true", "yes", "on", "1"):
                    values[key] = True
                elif low in ("false", "no", "off", "0"):
                    values[key] = False
                else:
                    raise _Fail(f"--rule {item}: {key} must be true or false")
            elif isinstance(default, int):
                try:
                    values[key] = int(value)
                except ValueError:
                    raise _Fail(f"--rule {item}: {key} must be a whole number") from None
            else:
                values[key] = value
    try:
        return Rules(**values)
    except (ValueError, TypeError, OverflowError) as exc:
        raise _Fail(f"--rule: {' '.join(str(exc).split())}") from None


def _plot_formats() -> dict[str, str]:
    """The figure formats matplotlib can write ({extension: description})."""
    from matplotlib.backend_bases import FigureCanvasBase

    return dict(FigureCanvasBase.get_supported_filetypes())


def _plot_paths(plots: Sequence[str]) -> list[str]:
    """The files ``--plot`` will write, checked before the run: a known format's extension,
    or none (then ``.png`` is added, and the note names that file)."""
    if not plots:
        return []
    if importlib.util.find_spec("matplotlib") is None:
        raise _Fail(f"--plot {plots[0]}: needs matplotlib (pip install 'daguai[plot]')")
    formats = _plot_formats()
    out = []
    for path in plots:
        ext = os.path.splitext(path)[1].lower().lstrip(".")
        if not ext:
            path += ".png"
        elif ext not in formats:
            raise _Fail(f"--plot {path}: unknown figure format {'.' + ext!r} "
                        f"(use {', '.join('.' + e for e in sorted(formats))})")
        out.append(path)
    return out


def _check_outputs(outs: Sequence[str], plots: Sequence[str], exts: Sequence[str] = _OUT_EXTS) -> None:
    for path in outs:
        ext = os.path.splitext(path)[1].lower()
        if ext not in exts:
            raise _Fail(f"--out {path}: unknown format {ext or '(no extension)'!r} "
                        f"(use {', '.join(e for e in exts if e != '.pq')})")
        if ext in (".parquet", ".pq") and importlib.util.find_spec("pyarrow") is None:
            raise _Fail(f"--out {path}: parquet needs pyarrow (pip install 'daguai[parquet]')")
        if ext == ".csv" and importlib.util.find_spec("pandas") is None:
            raise _Fail(f"--out {path}: CSV needs pandas (pip install 'daguai[pandas]')")
    for path in list(outs) + list(plots):
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise _Fail(f"cannot write {path}: no such directory {folder}")
        if not os.access(folder, os.W_OK) or os.path.isdir(path):
            raise _Fail(f"cannot write {path}: " + ("it is a directory" if os.path.isdir(path)
                                                   else f"{folder} is not writable"))


def _ray_backend(args: argparse.Namespace) -> tuple[str, str | None]:
    """Backend and address; with --ray, connect now (bounded by --ray-timeout)."""
    if args.ray is None:
        return "local", None
    if importlib.util.find_spec("ray") is None:
        raise _Fail("--ray needs Ray (pip install 'daguai[ray]')")
    address = None if args.ray in ("", "local") else args.ray
    from .run.cluster import ray_init

    def give_up(message: str) -> None:  # from the watchdog thread: Ray may be stuck in C++
        sys.stderr.write(f"daguai: error: {message}\n")
        sys.stderr.flush()
        os._exit(2)

    ray_init(address, args.ray_timeout, quiet=args.quiet, on_timeout=give_up)
    return "ray", address


def _progress_delay(args: argparse.Namespace) -> float | None:
    """Seconds a run must last before its bar is drawn (on stderr), or None for no bar:
    ``--progress`` draws at once, a terminal after :data:`_PROGRESS_DELAY` seconds of the run
    itself (no guess of its speed), ``--quiet`` and ``--json`` never."""
    if args.quiet or getattr(args, "json", False):
        return None
    if args.progress:
        return 0.0
    return _PROGRESS_DELAY if sys.stderr.isatty() else None


# ---- output -------------------------------------------------------------------------------


def _print(items: Sequence[Any]) -> None:
    """Rich renderables (tables, text) on stdout, sized to the terminal (80 columns when
    stdout is not a terminal and COLUMNS is not set)."""
    if not sys.stdout.isatty():  # files and pipes: plain text without trailing blanks
        from .run.results import render_text

        sys.stdout.write(render_text(items) + "\n")
        return
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:  # rich would exit 1: let main() end quietly
            raise BrokenPipeError

    console = _Console(highlight=False, markup=False, emoji=False, soft_wrap=False)
    for item in items:
        console.print(item)


def _print_json(data: Any) -> None:
    from .codec import nan_to_none

    sys.stdout.write(json.dumps(nan_to_none(data), indent=2) + "\n")


def _note(args: argparse.Namespace, text: str) -> None:
    if not args.quiet:
        print(text, file=sys.stderr)


# ---- simulate -----------------------------------------------------------------------------


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=_seed, default=0, metavar="S",
                   help="seed of the run: game i depends only on (S, i) (default 0)")
    p.add_argument("--threads", type=_positive, default=None, metavar="T",
                   help="C++ threads (default: all CPUs; with --ray: threads per task, default 1)")
    p.add_argument("--rule", "--rules", dest="rules", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule variant, e.g. --rule wild=high --rule dealer=stay (repeatable; "
                        "or comma-separated: --rule wild=high,dealer=stay); every rule below")
    p.add_argument("--auto-pass", action="store_true",
                   help="apply forced passes automatically (not counted as passes)")
    p.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                   help="run on Ray: a local instance, or the cluster at ADDRESS (HOST:6379)")
    p.add_argument("--ray-timeout", type=_seconds, default=30.0, metavar="SECONDS",
                   help="give up when Ray does not start or connect within SECONDS (default 30)")
    p.add_argument("--json", action="store_true",
                   help="print the figures as JSON on stdout instead of the tables")
    p.add_argument("--progress", action="store_true",
                   help="always show the progress bar (default: on long runs when stderr is a terminal)")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="no progress bar, no notes and no Ray warnings on stderr")


def _add_simulate(p: argparse.ArgumentParser) -> None:
    n = p.add_mutually_exclusive_group()
    n.add_argument("--rounds", type=_positive, default=None, metavar="N",
                   help="play N single rounds (default 10,000)")
    n.add_argument("--matches", type=_positive, default=None, metavar="N",
                   help="play N whole matches instead")
    p.add_argument("--policy-a", type=_policy, default="heuristic", metavar="POLICY",
                   help=f"policy of team A: {', '.join(_POLICIES)} or package.module:policy "
                        "(default heuristic)")
    p.add_argument("--policy-b", type=_policy, default="random", metavar="POLICY",
                   help="policy of team B (default random)")
    _add_common(p)
    p.add_argument("--out", action="append", default=[], metavar="PATH",
                   help="save the columns: .npz, .csv or .parquet (pyarrow); repeatable")
    p.add_argument("--plot", action="append", default=[], metavar="PATH",
                   help="save a figure (.png, .pdf, .svg; needs matplotlib); repeatable")


def _make_bar(args: argparse.Namespace, unit: str) -> Any:
    from .progress import ProgressBar

    delay = _progress_delay(args)
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
        _print_json(figures(result))
    else:
        _print(result.renderables())
    for path in args.out:
        result.save(path)
        _note(args, f"wrote {path}")
    return result


def _run_simulate(args: argparse.Namespace) -> int:
    from .run import simulate

    rules = _parse_rules(args.rules)
    plots = _plot_paths(args.plot)
    _check_outputs(args.out, plots)
    backend, address = _ray_backend(args)
    matches = args.matches is not None
    n = args.matches if matches else (args.rounds if args.rounds is not None else 10_000)
    result = _run_and_report(
        args, "matches" if matches else "rounds",
        lambda bar: simulate(n, (args.policy_a, args.policy_b), seed=args.seed, rules=rules,
                             matches=matches, threads=args.threads, backend=backend,
                             ray_address=address, progress=bar, auto_pass=args.auto_pass))
    for path in plots:
        result.plot(path)
        _note(args, f"wrote {path}")
    return 0


# ---- evaluate -----------------------------------------------------------------------------


def _add_evaluate(p: argparse.ArgumentParser) -> None:
    p.add_argument("policy_a", type=_policy, metavar="A",
                   help=f"policy A: {', '.join(_POLICIES)} or package.module:policy")
    p.add_argument("policy_b", type=_policy, metavar="B", help="policy B (the same choices)")
    p.add_argument("--deals", type=_positive, default=1000, metavar="N", help="deals (default 1000)")
    p.add_argument("--matches", action="store_true", help="each deal is a whole match (default: a round)")
    _add_common(p)
    p.add_argument("--out", action="append", default=[], metavar="PATH",
                   help="save the result: .json (every figure, EvalResult.load) or .csv "
                        "(one row per deal); repeatable")
    p.add_argument("--per-deal", action="store_true",
                   help="with --json, also print the per-deal values (deal_net_win, deal_score_diff)")


def _run_evaluate(args: argparse.Namespace) -> int:
    from .run import evaluate

    rules = _parse_rules(args.rules)
    _check_outputs(args.out, [], _EVAL_OUT_EXTS)
    backend, address = _ray_backend(args)
    _run_and_report(
        args, "matches" if args.matches else "rounds",
        lambda bar: evaluate(args.policy_a, args.policy_b, args.deals, seed=args.seed, rules=rules,
                             matches=args.matches, threads=args.threads, backend=backend,
                             ray_address=address, progress=bar, auto_pass=args.auto_pass),
        lambda result: result.figures(per_deal=args.per_deal))
    return 0


# ---- train --------------------------------------------------------------------------------


def _widths(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(w) for w in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"widths are comma-separated whole numbers, got {text!r}") from None


def _fraction(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError(f"must be in [0, 1], got {text}")
    return v


def _add_train(p: argparse.ArgumentParser) -> None:
    from .learn.dgn import FORMAT  # noqa: F401  (numpy only: the parser needs no torch)

    p.add_argument("run", metavar="RUN", help="the run directory (checkpoint, logs, latest.dgn)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--plot", metavar="IMAGE",
                      help="draw the run's learning curve (.png/.svg/.pdf) and stop")
    what.add_argument("--export", metavar="MODEL", help="write the run's network as a .dgn file and stop")
    p.add_argument("--minutes", type=float, default=10.0, metavar="M",
                   help="wall time of this call (default 10); the checkpoint is written at the end")
    p.add_argument("--max-frames", type=_positive, default=None, metavar="N",
                   help="stop once the run has N frames")
    p.add_argument("--fresh", action="store_true",
                   help="start over even if RUN has a checkpoint (default: resume from it)")
    p.add_argument("--actors", type=_positive, default=1, metavar="N", help="actor processes (default 1)")
    p.add_argument("--ray", metavar="ADDRESS",
                   help="run the actors on Ray at ADDRESS ('local', 'auto', host:port)")
    p.add_argument("--seed", type=_seed, default=0, help="seed of the run (default 0)")
    p.add_argument("--games-per-task", type=_positive, default=32, metavar="N",
                   help="rounds per actor task (default 32)")
    p.add_argument("--epsilon", type=_fraction, default=0.05, help="exploration rate (default 0.05)")
    p.add_argument("--lr", type=float, default=3e-4, help="Adam learning rate (default 3e-4)")
    p.add_argument("--batch", type=_positive, default=1024, help="minibatch size (default 1024)")
    p.add_argument("--widths", type=_widths, default=(256, 128), metavar="W1,W2",
                   help="hidden layer widths (default 256,128)")
    p.add_argument("--warm-frames", type=_int_text, default=2_000_000, metavar="N",
                   help="frames of the heuristic warm start (default 2,000,000; 0: none)")
    p.add_argument("--self-play", type=_fraction, default=0.5, metavar="F",
                   help="after the warm start, the share of self-play tasks (default 0.5; the "
                        "rest: the network's team against heuristic)")
    p.add_argument("--branch", type=_fraction, default=1.0, metavar="F",
                   help="share of recorded decisions branched into a pair (default 1)")
    p.add_argument("--margin", type=float, default=None, metavar="Q",
                   help="switching margin of the policy (default 0.05; with --export: the "
                        "exported model's, default the run's)")
    p.add_argument("--pair-weight", type=float, default=1.0, metavar="W",
                   help="weight of the pair-difference loss (default 1)")
    p.add_argument("--reward", choices=("wl", "score"), default="wl",
                   help="target: round win/draw/loss (wl, default) or score change / 3")
    p.add_argument("--eval-every", type=_int_text, default=100, metavar="STEPS",
                   help="steps between evaluations against heuristic (default 100; 0: never)")
    p.add_argument("--eval-deals", type=_positive, default=300, metavar="N",
                   help="deals per evaluation (duplicate: 2N rounds; default 300)")
    p.add_argument("--threads", type=_positive, default=1, help="the learner's torch threads (default 1)")
    p.add_argument("--checkpoint-minutes", type=float, default=5.0, metavar="M",
                   help="minutes between checkpoints (default 5)")
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", dest="progress", action="store_true", default=None,
                     help="show progress on stderr (the default): a live table on a terminal, "
                          "else a line every 30 s and at each evaluation")
    bar.add_argument("--no-progress", dest="progress", action="store_false", help="no progress output")


def _run_train(args: argparse.Namespace) -> int:
    import shlex
    from pathlib import Path

    # every check that needs no PyTorch first (importing it takes 2-12 s): paths, numbers
    from .learn.config import (CHECKPOINT, TrainConfig, check_export_path, check_minutes,
                               check_plot_path, check_run_dir)

    if not args.run.strip():
        raise _Fail(f"RUN must name a folder, got {args.run!r}")
    if args.plot:
        check_plot_path(args.plot)
        from .learn.curve import plot_curve

        print(f"wrote {plot_curve(args.run, args.plot)}")
        return 0
    if args.export:
        check_export_path(args.export)
        if not (Path(args.run) / CHECKPOINT).exists():
            raise _Fail(f"no checkpoint in {args.run!r}")
        if args.margin is not None and not 0 <= args.margin <= 10:
            raise _Fail(f"--margin must be a number in [0, 10], got {args.margin}")
    else:
        check_minutes("--minutes", args.minutes)
        check_minutes("--checkpoint-minutes", args.checkpoint_minutes)
        cfg = TrainConfig(seed=args.seed, actors=args.actors, games_per_task=args.games_per_task,
                          epsilon=args.epsilon, lr=args.lr, batch=args.batch, widths=args.widths,
                          warm_frames=args.warm_frames, self_play=args.self_play, reward=args.reward,
                          branch=args.branch, pair_weight=args.pair_weight,
                          margin=TrainConfig.margin if args.margin is None else args.margin,
                          eval_every=args.eval_every, eval_deals=args.eval_deals,
                          threads=args.threads).check()
        check_run_dir(args.run)
        if args.ray and args.ray != "local":
            from .run.cluster import _probe

            _probe(args.ray, 10.0)  # an address nothing answers at: one line now, not a hang
    try:
        from .learn.trainer import export, train
    except ImportError as exc:
        if exc.name == "torch":
            raise _Fail("daguai train needs PyTorch: pip install 'daguai[train]'") from None
        raise
    command = "daguai " + " ".join(shlex.quote(a) for a in args._argv)
    if args.export:
        print(f"wrote {export(args.run, args.export, command=command, margin=args.margin)}")
        return 0
    resume = not args.fresh and (Path(args.run) / CHECKPOINT).exists()
    # a terminal gets the live table; a pipe or a log file a plain line every 30 s and at
    # every evaluation (a live display writes nothing there until the run ends)
    progress: bool | str = "live" if sys.stderr.isatty() else "lines"
    if args.progress is not None:
        progress = ("live" if sys.stderr.isatty() else "lines") if args.progress else False
    s = train(args.run, None if resume else cfg, minutes=args.minutes, max_frames=args.max_frames,
              resume=resume, ray=args.ray, progress=progress,
              checkpoint_minutes=args.checkpoint_minutes, command=command)
    last = s.evals[-1] if s.evals else None
    ev = f"; last evaluation {last['mean']:+.3f} [{last['lo']:+.3f}, {last['hi']:+.3f}]" if last else ""
    print(f"{s.out}: step {s.step}, {s.frames:,} frames, {s.rounds:,} rounds, "
          f"{s.frames_per_second:,.0f} frames/s this call, {s.total_wall_seconds / 60:.1f} min in all{ev}; "
          f"wrote {s.out / 'latest.dgn'}")
    return 0


# ---- bench --------------------------------------------------------------------------------


def _add_bench(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quick", action="store_true", help="fewer hands and shorter timings")
    p.add_argument("--hands", type=_positive, default=None, metavar="N",
                   help="random 27-card hands for the core figures, at most 100,000 "
                        "(default 400, --quick 60)")
    p.add_argument("--no-rollouts", action="store_true", help="only the core figures")
    p.add_argument("--targets", action="store_true",
                   help="also show the project's speed targets and whether each is met")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--markdown", action="store_true", help="print a markdown table")
    form.add_argument("--json", action="store_true", help="print the figures as JSON")


def _run_bench(args: argparse.Namespace) -> int:
    from .bench import MAX_HANDS, format_rows, header, rows_as_dicts, rows_table, run

    n_hands = args.hands if args.hands is not None else (60 if args.quick else 400)
    if n_hands > MAX_HANDS:
        raise _Fail(f"--hands must be at most {MAX_HANDS:,}, got {n_hands:,}")
    if not args.json:
        print(header(n_hands), flush=True)
    rows = run(quick=args.quick, hands=n_hands, rollouts=not args.no_rollouts)
    if args.json:
        _print_json({"header": header(n_hands), "rows": rows_as_dicts(rows, targets=args.targets)})
    elif args.markdown:
        print(format_rows(rows, markdown=True, targets=args.targets))
    else:
        _print([rows_table(rows, targets=args.targets)])
    return 0


def _add_serve(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_int_text, default=8000, help="TCP port (default 8000)")
    p.add_argument("--db", default="daguai.sqlite3", metavar="PATH",
                   help="SQLite database (default ./daguai.sqlite3); unfinished tables resume")
    p.add_argument("--rate", type=_positive, default=50, metavar="N",
                   help="messages per second allowed per connection (default 50)")


def _run_serve(args: argparse.Namespace) -> int:
    if not 0 <= args.port < 65536:
        raise _Fail(f"--port must be 0..65535, got {args.port}")
    from .server import serve

    serve(args.host, args.port, args.db, rate=float(args.rate), burst=2.0 * args.rate)
    return 0


def _add_analyze(an: argparse.ArgumentParser) -> None:
    from .search import ANALYZE_ROLLOUTS, MAX_ROLLOUTS, MAX_SECONDS, MAX_THREADS

    an.add_argument(
        "source", metavar="FILE", help="a position JSON file, or a record with --line ('-': stdin)"
    )
    an.add_argument("--line", type=_positive, default=None, metavar="N",
                    help="the record line to analyze after (required for a record)")
    an.add_argument("--rollouts", "--worlds", type=_positive, default=None, metavar="N",
                    help=f"budget of the race in rollouts, at most {MAX_ROLLOUTS:,} "
                         f"(default {ANALYZE_ROLLOUTS:,}; with --time: the first race's, default 1,000); "
                         "--worlds is its old name")
    an.add_argument("--time", type=_seconds, default=None, metavar="SECONDS",
                    help=f"race with doubled budgets until SECONDS (at most {MAX_SECONDS:g}) are spent")
    an.add_argument("--policy", type=_policy, default="heuristic", metavar="NAME",
                    help="rollout policy of every seat (default heuristic)")
    an.add_argument("--seed", type=_seed, default=0, help="seed of the worlds and rollouts (default 0)")
    an.add_argument("--threads", type=_positive, default=1, metavar="N",
                    help=f"threads, at most {MAX_THREADS} (default 1; results do not depend on it)")
    an.add_argument("--all", action="store_true", help="show every group (default: the best 15)")
    an.add_argument("--json", action="store_true", help="print JSON instead of a table")
    an.add_argument("--quiet", "-q", action="store_true", help="no progress bar (it draws on stderr)")


def _cmd_analyze(args: argparse.Namespace) -> int:
    import json

    from .search import analyze

    try:
        text = sys.stdin.read() if args.source == "-" else open(args.source, encoding="utf-8").read()
        result = analyze(
            text,
            upto=args.line,
            rollouts=args.rollouts,
            time=args.time,
            policy=args.policy,
            seed=args.seed,
            threads=args.threads,
            progress=not args.quiet and sys.stderr.isatty(),
        )
    except (ValueError, OSError) as exc:  # bad input: one line, status 2
        print(f"daguai: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        print("\n".join(result.lines(top=None if args.all else 15)))
    return 0


#: The subcommands, in the order of ``daguai --help``.
COMMANDS: list[Command] = [
    Command("simulate", "play many rounds or matches and summarize",
            "Play N rounds (or matches), team A (seats 0 2 4) against team B (seats 1 3 5), "
            "print a summary table, optionally save the columns and plots. Built-in policies "
            "run in C++; a package.module:policy callable takes the Python path.",
            _add_simulate, _run_simulate),
    Command("evaluate", "duplicate evaluation of policy A against policy B",
            "Play every deal twice with the teams swapped (A on even seats, then on odd seats) "
            "and report A's win / draw / loss rates, the mean score difference and 95% "
            "Student-t confidence intervals over the deals.",
            _add_evaluate, _run_evaluate),
    Command("bench", "print the engine's speed figures",
            "Core figures (classification, comparison, legal plays), game, learning and "
            "rollout speed (rounds/s per built-in policy, 2 threads vs 1). About 30 s; "
            "--quick a few.",
            _add_bench, _run_bench),
    Command("serve", "run the table server: web table, WebSocket protocol, HTTP JSON API",
            "Serve tables over WebSockets (docs/protocol.md) with a web table to play against "
            "bots, persisting matches in SQLite (docs/server.md). Needs the 'serve' extra.",
            _add_serve, _run_serve),
    Command("train", "train the learned player by self-play (Deep Monte-Carlo)",
            "Deep Monte-Carlo self-play training of the learned player in RUN (docs/learning.md): "
            "actors play in C++, a PyTorch learner fits Q(s, a) to the rounds' outcomes; "
            "checkpoints, resume, TensorBoard logs and periodic evaluation against heuristic. "
            "--plot draws the curve, --export writes a .dgn model. Needs the 'train' extra.",
            _add_train, _run_train),
    Command("analyze", "which play wins: the seat's plays raced over sampled worlds",
            "The groups of equivalent plays of the seat to act, raced over worlds sampled from "
            "what that seat may know, ranked by the mean change of its score in the round with "
            "95% intervals, the best marked (docs/search.md). Input: a position JSON file, or a "
            "record (JSON Lines) with --line N.",
            _add_analyze, _cmd_analyze),
]


def build_parser() -> argparse.ArgumentParser:
    from ._core import __version__

    parser = _Parser(
        prog="daguai",
        description="大怪路子 (Da Guai Lu Zi) engine: Monte Carlo rollouts, policy evaluation, benchmarks.",
        epilog="See docs/simulation.md. 'daguai COMMAND --help' for each command.")
    parser.add_argument("--version", action="version", version=f"daguai {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for command in COMMANDS:
        p = sub.add_parser(command.name, help=command.help, description=command.description,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        command.add_arguments(p)
        if any(a.dest == "rules" for a in p._actions):
            p.epilog = _rules_epilog()
        p.set_defaults(_run=command.run)
    return parser


def _main(argv: Sequence[str] | None) -> int:
    from .run import RayConnectionError

    parser = build_parser()
    args = parser.parse_args(argv)
    args._argv = list(sys.argv[1:] if argv is None else argv)  # as typed (daguai train records it)
    if args.command is None:
        names = ", ".join(c.name for c in COMMANDS)
        parser.error(f"no command given (choose {names}; see daguai --help)")
    try:
        return int(args._run(args))
    except _Fail as exc:
        parser.error(str(exc))
    except RayConnectionError as exc:
        parser.error(str(exc))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``daguai`` console script; returns the exit status."""
    try:
        status = _main(argv)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        print("\ndaguai: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (daguai ... | head): stop quietly; point stdout at devnull
        # so that the interpreter's final flush does not complain again
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    except (ValueError, TypeError, OverflowError, MemoryError) as exc:  # bad input: exit 2
        message = " ".join(str(exc).split()) or type(exc).__name__
        if isinstance(exc, MemoryError):
            message = (
                f"out of memory{': ' + message if message != 'MemoryError' else ''} (ask for fewer games)"
            )
        print(f"daguai: error: {message}", file=sys.stderr)
        return 2
    except (ImportError, OSError, RuntimeError) as exc:
        message = " ".join(str(exc).split()) or type(exc).__name__
        print(f"daguai: error: {message}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
