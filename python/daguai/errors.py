"""The project's error types in one place, and the one JSON reader of untrusted text.

Every bad input raises a ``ValueError`` subclass naming what was wrong (docs/errors.md):

- :class:`CardError` — card, face or level text / ids (bad token, 4th copy, lone surrogate);
- :class:`IllegalPlayError` — cards that form no play, or a play that does not beat the top;
- :class:`IllegalActionError` — a decision the game does not allow now, a seat or id out of
  range, bad arguments to the learning interfaces;
- :class:`CodecError` — a value the event codec cannot read or write: an event, an entry,
  an audience, a view of the wrong shape or type (``daguai.codec``);
- :class:`ReplayError` — a corrupt or tampered game document or record (a ``CodecError``);
- ``ValueError`` itself for bad options of the Python face (``Rules``, ``simulate``).

Wrong argument *types* raise one of the above as well (the bound C++ functions take any
object and convert it); a ``TypeError`` is only Python's own (wrong number of arguments,
an operator between unrelated types) or an uninitialized native object.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from typing import Any

from ._core.core import CardError, IllegalActionError
from ._core.plays import IllegalPlayError

__all__ = ["CardError", "CodecError", "IllegalActionError", "IllegalPlayError", "MissingExtraError",
           "ReplayError", "looks_like_path", "read_path", "safe_json_loads"]


class CodecError(ValueError):
    """A value the codec (``daguai.codec``, ``daguai.protocol``) cannot encode or decode:
    an engine event, record entry, view, audience or game of the wrong shape or type."""


class ReplayError(CodecError):
    """A record or game JSON that is corrupt, tampered with, or not legal."""


class MissingExtraError(ImportError):
    """An optional feature whose packages are not installed; the message names the extra
    that brings them (``pip install 'daguai[serve]'``), ``extra`` holds its name and
    ``name`` the module that was missing (as in ``ImportError``)."""

    def __init__(self, feature: str, extra: str, missing: str | None = None) -> None:
        what = f" ({missing} is not installed)" if missing else ""
        super().__init__(f"{feature} needs the '{extra}' extra{what}: pip install 'daguai[{extra}]'",
                         name=missing)
        self.extra = extra


def require(feature: str, extra: str, *modules: str) -> None:
    """Raise :class:`MissingExtraError` naming ``extra`` unless every module imports."""
    import importlib

    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError:
            raise MissingExtraError(feature, extra, module) from None


def safe_json_loads(text: str | bytes | bytearray, error: Callable[[str], Exception],
                    what: str = "document") -> Any:
    """``json.loads`` for untrusted text: every failure raises ``error(message)``.

    Besides syntax errors this covers deep nesting (``"[" * 100000``, which ``json`` answers
    with ``RecursionError``), non-text input and bytes that are not UTF-8. Lone surrogates
    (``"\\ud800"``) parse as in ``json``; the card and level readers reject them with
    :class:`CardError` where they are used, so the caller's error names the entry.
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise error(f"{what} must be JSON text, got {type(text).__name__}")
    try:
        return json.loads(text)
    except RecursionError:
        raise error(f"{what}: not JSON of this format (nested too deeply)") from None
    except (ValueError, TypeError) as exc:  # JSONDecodeError, UnicodeDecodeError
        if isinstance(text, str) and looks_like_path(text):
            raise error(f"{what}: not JSON: {text.strip()!r} looks like a file name; pass "
                        f"pathlib.Path({text.strip()!r}) to read the file, or its text") from None
        raise error(f"{what}: not JSON ({exc})") from None


#: Endings of the files a document is read from (records, positions, game documents).
_DOCUMENT_SUFFIXES = (".json", ".jsonl", ".ndjson", ".txt", ".csv")


def looks_like_path(text: str) -> bool:
    """Whether text that is not JSON reads as a file name rather than a document: one line,
    not starting like JSON, holding a path separator or ending like a document file
    (``pos.json``, ``game.jsonl``). Decided by the text alone: the file system is never
    asked (the text may come from the network, and the answer must not tell what exists)."""
    name = text.strip()
    if not name or len(name) > 4096 or "\n" in name or name[0] in "{[\"":
        return False
    return os.sep in name or "/" in name or name.lower().endswith(_DOCUMENT_SUFFIXES)


def read_path(source: Any, error: Callable[[str], Exception], what: str) -> Any:
    """``source`` itself, or for an ``os.PathLike`` (``pathlib.Path``) the text of the file
    it names (docs/errors.md "Paths"): a file that cannot be opened raises Python's own
    ``OSError`` (``FileNotFoundError``, ``PermissionError``), as ``open`` does; a path that
    is not a regular file (a folder, a FIFO, a device) and bytes that are not UTF-8 raise
    ``error(message)`` naming the file, before any read for the former."""
    if not isinstance(source, os.PathLike):
        return source
    path = os.fspath(source)
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else ("a FIFO" if stat.S_ISFIFO(mode) else "a device")
        raise error(f"{what} {path} is {kind}, not a regular file")
    with open(path, "rb") as f:
        data = f.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{what} {path}: not UTF-8 text") from None
