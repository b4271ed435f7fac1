"""What the ``daguai`` subcommands share: the :class:`Command` record, the parser with
one-line errors, argument types, the ``--rule`` parser, output checks made before a run, the
Ray connection, the progress bar's delay and printing."""

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

from ..bots import policy_names
from ..checks import check_policy

POLICY_NAMES = policy_names()  # the C++ registry
OUT_EXTS = (".npz", ".csv", ".parquet", ".pq")
# on a terminal, the progress bar appears once a run has lasted this long (measured)
PROGRESS_DELAY = 1.0


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump); --help stays complete."""

    def error(self, message: str) -> NoReturn:
        from .messages import argparse_text, flag_text

        self.exit(2, f"daguai: error: {argparse_text(flag_text(' '.join(message.split())))}\n")


class RuleAction(argparse._AppendAction):
    """``--rule KEY=VALUE`` (repeatable); ``--rule help`` prints every rule with its values
    and default and exits, as ``--help`` does (before the other arguments are checked)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        if isinstance(values, str) and values.strip().lower() == "help":
            print(rules_listing())
            parser.exit(0)
        super().__call__(parser, namespace, values, option_string)


class Fail(Exception):
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


def int_text(text: str) -> int:
    try:
        return int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def positive(text: str) -> int:
    v = int_text(text)
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, got {text}")
    return v


def seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not v > 0 or v != v or v == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return v


def seed_number(text: str) -> int:
    v = int_text(text)
    if not 0 <= v < 2**64:
        raise argparse.ArgumentTypeError(f"must be in [0, 2**64), got {text}")
    return v


def policy_arg(text: str) -> Any:
    """A policy argument, checked by ``daguai.checks.check_policy`` (a built-in name kept as
    text for the C++ fast path, a model path, ``package.module:policy`` or ``file.py:policy``;
    import paths resolve from the working directory)."""
    if os.getcwd() not in sys.path:  # the console script does not put the cwd on sys.path
        sys.path.insert(0, os.getcwd())
    try:
        return check_policy(text)
    except ValueError as exc:
        from .messages import did_you_mean

        message = str(exc)
        known = f"unknown policy {text!r}"
        if message.startswith(known):  # a misspelled name: the closest built-in one
            message = known + did_you_mean(text, POLICY_NAMES) + message[len(known):]
        raise argparse.ArgumentTypeError(message) from None


def _rule_values() -> dict[str, str]:
    """For every rule of daguai.Rules: its accepted values, from the variant table."""
    from ..rules import VARIANTS

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


def rules_epilog() -> str:
    """The one line that ends the help of a command with --rule (the list is long: it is
    printed by ``--rule help``; the rules themselves: ``daguai rules``, docs/rules.md)."""
    return textwrap.fill("rules: --rule KEY=VALUE (repeatable); '--rule help' lists every rule "
                         "with its values and default; the rules of the game: daguai rules",
                         help_width())


def rules_listing() -> str:
    """Every rule variant with its values, default and rule id (``--rule help``)."""
    from ..rules import VARIANTS

    values = _rule_values()
    width = max(len(k) for k in VARIANTS)
    cols = help_width()
    lines = textwrap.wrap(
        "rules (--rule KEY=VALUE, repeatable; names as daguai.Rules; daguai rules variants):", cols
    )
    for key, row in VARIANTS.items():
        default = row["default"]
        shown = str(default).lower() if isinstance(default, bool) else str(default)
        lines += textwrap.wrap(f"{key:{width}s}  {values[key]}  (default {shown})", cols,
                               initial_indent="  ", subsequent_indent=" " * (width + 4))
        lines += textwrap.wrap(f"{row['rule']}: {row['doc']}", cols, initial_indent=" " * 6,
                               subsequent_indent=" " * 6)
    return "\n".join(lines)


def help_width() -> int:
    """Columns for help text: the terminal's (``COLUMNS`` if set), at most 80 and at least
    40, less argparse's margin; a pipe gets 80 (shutil's fallback), so nothing is wider."""
    import shutil

    return max(40, min(80, shutil.get_terminal_size((80, 24)).columns) - 2)


def wrap_paragraphs(text: str) -> str:
    """A description for RawDescriptionHelpFormatter (kept raw for the rules table),
    wrapped to :func:`help_width` paragraph by paragraph."""
    return "\n\n".join(textwrap.fill(" ".join(par.split()), help_width()) for par in text.split("\n\n"))


def parse_rules(items: Sequence[str] | None) -> Any:
    from ..rules import Rules

    defaults = Rules().to_dict()
    values: dict[str, Any] = {}
    for group in items or ():
        for item in group.split(","):
            if not item.strip():
                continue
            key, sep, value = item.partition("=")
            key = key.strip().replace("-", "_")
            if not sep or not key:
                raise Fail(f"--rule: expected KEY=VALUE, got {item!r}")
            if key not in defaults:
                from .messages import did_you_mean

                raise Fail(f"--rule: unknown rule {key!r}{did_you_mean(key, defaults)} (known: "
                           f"{', '.join(defaults)}; --rule help lists them)")
            value = value.strip()
            default = defaults[key]
            if isinstance(default, bool):
                low = value.lower()
                if low in ("true", "yes", "on", "1"):
                    values[key] = True
                elif low in ("false", "no", "off", "0"):
                    values[key] = False
                else:
                    raise Fail(f"--rule {item}: {key} must be true or false")
            elif isinstance(default, int):
                try:
                    values[key] = int(value)
                except ValueError:
                    raise Fail(f"--rule {item}: {key} must be a whole number") from None
            else:
                values[key] = value
    try:
        return Rules(**values)
    except (ValueError, TypeError, OverflowError) as exc:
        raise Fail(f"--rule: {' '.join(str(exc).split())}") from None


def _plot_formats() -> dict[str, str]:
    """The figure formats matplotlib can write ({extension: description})."""
    from matplotlib.backend_bases import FigureCanvasBase

    return dict(FigureCanvasBase.get_supported_filetypes())


def plot_paths(plots: Sequence[str]) -> list[str]:
    """The files ``--plot`` will write, checked before the run: a known format's extension,
    or none (then ``.png`` is added, and the note names that file)."""
    if not plots:
        return []
    if importlib.util.find_spec("matplotlib") is None:
        raise Fail(f"--plot {plots[0]}: needs matplotlib (pip install 'daguai[plot]')")
    formats = _plot_formats()
    out = []
    for path in plots:
        ext = os.path.splitext(path)[1].lower().lstrip(".")
        if not ext:
            path += ".png"
        elif ext not in formats:
            raise Fail(f"--plot {path}: unknown figure format {'.' + ext!r} "
                        f"(use {', '.join('.' + e for e in sorted(formats))})")
        out.append(path)
    return out


def check_outputs(outs: Sequence[str], plots: Sequence[str], exts: Sequence[str] = OUT_EXTS) -> None:
    for path in outs:
        ext = os.path.splitext(path)[1].lower()
        if ext not in exts:
            raise Fail(f"--out {path}: unknown format {ext or '(no extension)'!r} "
                        f"(use {', '.join(e for e in exts if e != '.pq')})")
        if ext in (".parquet", ".pq") and importlib.util.find_spec("pyarrow") is None:
            raise Fail(f"--out {path}: parquet needs pyarrow (pip install 'daguai[parquet]')")
        if ext == ".csv" and importlib.util.find_spec("pandas") is None:
            raise Fail(f"--out {path}: CSV needs pandas (pip install 'daguai[pandas]')")
    for path in list(outs) + list(plots):
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise Fail(f"cannot write {path}: no such directory {folder}")
        if not os.access(folder, os.W_OK) or os.path.isdir(path):
            raise Fail(f"cannot write {path}: " + ("it is a directory" if os.path.isdir(path)
                                                   else f"{folder} is not writable"))


def ray_backend(args: argparse.Namespace) -> tuple[str, str | None]:
    """Backend and address; with --ray, connect now (bounded by --ray-timeout)."""
    if args.ray is None:
        return "local", None
    if importlib.util.find_spec("ray") is None:
        raise Fail("--ray needs Ray (pip install 'daguai[ray]')")
    address = None if args.ray in ("", "local") else args.ray
    from ..run.cluster import ray_init

    def give_up(message: str) -> None:  # from the watchdog thread: Ray may be stuck in C++
        sys.stderr.write(f"daguai: error: {message}\n")
        sys.stderr.flush()
        os._exit(2)

    ray_init(address, args.ray_timeout, quiet=args.quiet, on_timeout=give_up)
    return "ray", address


def progress_delay(args: argparse.Namespace) -> float | None:
    """Seconds a run must last before its bar is drawn (on stderr), or None for no bar:
    ``--progress`` draws at once, a terminal after :data:`PROGRESS_DELAY` seconds of the run
    itself (no guess of its speed), ``--quiet`` and ``--json`` never."""
    if args.quiet or getattr(args, "json", False):
        return None
    if args.progress:
        return 0.0
    return PROGRESS_DELAY if sys.stderr.isatty() else None


# ---- output -------------------------------------------------------------------------------


def show(items: Sequence[Any]) -> None:
    """Rich renderables (tables, text) on stdout, sized to the terminal (80 columns when
    stdout is not a terminal and COLUMNS is not set)."""
    if not sys.stdout.isatty():  # files and pipes: plain text without trailing blanks
        from ..run.results import render_text

        sys.stdout.write(render_text(items) + "\n")
        return
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:  # rich would exit 1: let main() end quietly
            raise BrokenPipeError

    console = _Console(highlight=False, markup=False, emoji=False, soft_wrap=False)
    for item in items:
        console.print(item)


def print_json(data: Any) -> None:
    from ..documents import nan_to_none

    sys.stdout.write(json.dumps(nan_to_none(data), indent=2) + "\n")


def note(args: argparse.Namespace, text: str) -> None:
    if not args.quiet:
        print(text, file=sys.stderr)


def add_model_rules(p: argparse.ArgumentParser) -> None:
    p.add_argument("--any-model-rules", dest="model_rules", action="store_const", const="any",
                   default="same", help="play a .dgn model trained for other rules than --rule "
                                        "(default: refused, naming both)")


def add_start(p: argparse.ArgumentParser) -> None:
    p.add_argument("--start", choices=("fresh", "random"), default="fresh",
                   help="how each game begins: fresh (a match's first deal: level 2, no tribute; the "
                        "default) or random (random levels, and the tribute exchange in 60%% of games)")


def add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=seed_number, default=0, metavar="S",
                   help="seed of the run: game i depends only on (S, i) (default 0)")
    p.add_argument("--threads", type=positive, default=None, metavar="T",
                   help="C++ threads (default: all CPUs; with --ray: threads per task, default 1)")
    p.add_argument("--rule", "--rules", dest="rules", action=RuleAction, default=[], metavar="KEY=VALUE",
                   help="a rule variant, e.g. --rule wild=high --rule dealer=stay (repeatable; "
                        "or comma-separated: --rule wild=high,dealer=stay); every rule below")
    p.add_argument("--auto-pass", action="store_true",
                   help="apply forced passes automatically (not counted as passes)")
    add_start(p)
    add_model_rules(p)
    p.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                   help="run on Ray: a local instance, or the cluster at ADDRESS (HOST:6379)")
    p.add_argument("--ray-timeout", type=seconds, default=30.0, metavar="SECONDS",
                   help="give up when Ray does not start or connect within SECONDS (default 30)")
    p.add_argument("--json", action="store_true",
                   help="print the figures as JSON on stdout instead of the tables")
    p.add_argument("--progress", action="store_true",
                   help="always show the progress bar (default: on long runs when stderr is a terminal)")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="no progress bar, no notes and no Ray warnings on stderr")
