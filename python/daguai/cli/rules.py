"""``daguai rules``: the rules of the game (:func:`daguai.rulebook.rules_text`), whole or one
rule, in English or 中文. On a terminal the Markdown is drawn by rich (headings, lists,
tables); into a pipe or a file it is the Markdown text itself, so it can be searched and
saved."""

from __future__ import annotations

import argparse
import sys

from ..rulebook import LANGS, rules_text
from .options import Command, Fail


def _add_rules(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "rule_id",
        metavar="RULE",
        nargs="?",
        default=None,
        help="one rule: R1 … R18, or 'variants' for the table of every variant (default: all of them)",
    )
    p.add_argument(
        "--lang", choices=tuple(LANGS), default="en", help="en (English, the default) or zh (中文)"
    )


def _run_rules(args: argparse.Namespace) -> int:
    try:
        text = rules_text(args.rule_id, lang=args.lang)
    except ValueError as exc:
        raise Fail(str(exc)) from None
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console(soft_wrap=False).print(Markdown(text))
    else:
        sys.stdout.write(text)
    return 0


COMMAND = Command(
    "rules",
    "print the rules of the game (R1-R18), or one rule",
    "The rules of 大怪路子 as daguai plays them: every rule, R1 to R18, with its variants, in "
    "English or 中文 (--lang zh); RULE prints one of them. The text is the project's "
    "docs/rules.md and docs/rules.zh.md, shipped in the package.",
    _add_rules,
    _run_rules,
)
