"""The command line's error lines speak its flags, not Python: the library's keyword names
become the flags that set them (``upto=N`` is ``--line N``), an ``OSError`` becomes what
happened to which file ("no such file: PATH", never ``[Errno 2] ...``), and a misspelled
command or policy name gets a "did you mean" (:mod:`difflib`)."""

from __future__ import annotations

import difflib
import errno
import re
from collections.abc import Iterable

#: Python phrases of the library's messages and the flags the command line says instead,
#: in order (the longer phrases first).
_FLAGS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"model_rules='any' \(command line: --any-model-rules\)", "--any-model-rules"),
    (r"\(?model_rules=\"any\"\)?|\(?model_rules='any'\)?", "--any-model-rules"),
    (r"upto=N \(--line N\)", "--line N"),
    (r"\bupto=(\d+|N)", r"--line \1"),
    (r"\bupto\b", "--line"),
    (r"\bn_deals\b", "--deals"),
    (r"^(rollouts|threads|time|seed|inference|policy|plays) must\b", r"--\1 must"),
    (r"^plays: ", "--plays: "),
))


_RULES = re.compile(r"Rules\(([^()]*)\)(?: \(the default rules, (\w+)\))?")


def _rules_flags(found: re.Match[str]) -> str:
    """``Rules(table='4p2d', wild='high')`` as ``--rule table=4p2d --rule wild=high``."""
    if not found.group(1).strip():
        return f"default rules ({found.group(2)})" if found.group(2) else "default rules"
    items = [item.strip().replace("'", "") for item in found.group(1).split(",") if item.strip()]
    return " ".join(f"--rule {item}" for item in items)


def flag_text(message: str) -> str:
    """``message`` with the library's keyword names replaced by the command line's flags."""
    for pattern, flag in _FLAGS:
        message = pattern.sub(flag, message)
    return _RULES.sub(_rules_flags, message)


_WHAT = {errno.ENOENT: "no such file", errno.EACCES: "permission denied", errno.EPERM: "permission denied",
         errno.EISDIR: "a folder, not a file", errno.ENOTDIR: "not a folder in the path",
         errno.ENOSPC: "no space left on the device", errno.EROFS: "a read-only file system"}


def os_error_text(exc: OSError) -> str:
    """An ``OSError`` as one line naming the file: "no such file: PATH"."""
    what = _WHAT.get(exc.errno or 0) or (exc.strerror or type(exc).__name__).lower()
    name = exc.filename if exc.filename is not None else None
    return f"{what}: {name}" if name is not None else what


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``choices`` to ``word``, or ``""``."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


_INVALID_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)")


def argparse_text(message: str) -> str:
    """argparse's error text with a "did you mean" for an invalid choice (a command)."""
    found = _INVALID_CHOICE.search(message)
    if found is None:
        return message
    choices = re.findall(r"'([^']*)'", found.group(2))
    cut = found.start(2) - len(" (choose from ")
    return message[:cut] + did_you_mean(found.group(1), choices) + message[cut:]
