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
from collections.abc import Callable
from typing import Any

from ._core.core import CardError, IllegalActionError
from ._core.plays import IllegalPlayError

__all__ = ["CardError", "CodecError", "IllegalActionError", "IllegalPlayError", "MissingExtraError",
           "ReplayError", "safe_json_loads"]


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
        raise error(f"{what}: not JSON ({exc})") from None
