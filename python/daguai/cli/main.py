"""The ``daguai`` command's table of subcommands, its parser and its entry point (exit
statuses: see :mod:`daguai.cli`)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from . import analyze, bench, gate, label, ladder, review, rules, serve, simulate, train
from .messages import flag_text, os_error_text
from .options import Command, Fail, Parser, rules_epilog, wrap_paragraphs

#: The subcommands, in the order of ``daguai --help``: one module of this folder each.
COMMANDS: list[Command] = [simulate.SIMULATE, simulate.EVALUATE, bench.COMMAND, serve.COMMAND,
                           train.COMMAND, gate.COMMAND, label.COMMAND, analyze.COMMAND, ladder.COMMAND,
                           review.COMMAND, rules.COMMAND]


def _documentation_url() -> str | None:
    """The Documentation address of the installed package's metadata ([project.urls]), if any."""
    from importlib import metadata

    try:
        urls = metadata.metadata("daguai").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "documentation" and url.strip():
            return url.strip()
    return None


def _epilog() -> str:
    """Where to read on: what a pip install has (the rules, each command's help) and, when
    the package metadata names it, the documentation's address."""
    lines = [
        "The rules: daguai rules (one rule: daguai rules R11; 中文: --lang zh).",
        "Each command's options: daguai COMMAND --help.",
    ]
    url = _documentation_url()
    if url:
        lines.append(f"Documentation: {url}")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    from .._core import __version__

    parser = Parser(
        prog="daguai",
        # one line of 80 columns (each character of the name takes two)
        description="大怪路子: simulate, evaluate, bench, serve, train, gate, analyze, ladder, rules.",
        epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"daguai {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for command in COMMANDS:
        p = sub.add_parser(command.name, help=command.help, description=wrap_paragraphs(command.description),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        command.add_arguments(p)
        if any(a.dest == "rules" for a in p._actions):
            p.epilog = rules_epilog()
        p.set_defaults(_run=command.run)
    return parser


def _main(argv: Sequence[str] | None) -> int:
    from ..run import RayConnectionError

    parser = build_parser()
    args = parser.parse_args(argv)
    args._argv = list(sys.argv[1:] if argv is None else argv)  # as typed (daguai train records it)
    if args.command is None:
        names = ", ".join(c.name for c in COMMANDS)
        parser.error(f"no command given (choose {names}; see daguai --help)")
    try:
        return int(args._run(args))
    except Fail as exc:
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
        message = flag_text(" ".join(str(exc).split())) or type(exc).__name__
        if isinstance(exc, MemoryError):
            message = (
                f"out of memory{': ' + message if message != 'MemoryError' else ''} (ask for fewer games)"
            )
        print(f"daguai: error: {message}", file=sys.stderr)
        return 2
    except (ImportError, OSError, RuntimeError) as exc:
        message = os_error_text(exc) if isinstance(exc, OSError) else " ".join(str(exc).split())
        message = message or type(exc).__name__
        print(f"daguai: error: {message}", file=sys.stderr)
        return 1
