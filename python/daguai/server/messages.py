"""Client messages of the table server: the size limit, the types, the checks against the
shipped JSON Schema (docs/protocol.md) and the refusal every check raises."""

from __future__ import annotations

import json
from typing import Any

import jsonschema

from .. import codec, protocol

#: Largest client message (bytes of text) the server reads; larger ones get ``too_large``.
MAX_MESSAGE = 64 * 1024
#: The client message types; each is the schema's ``client_<type>`` entry and a row of the
#: hub's handler table (``hub.HANDLERS``).
CLIENT_TYPES = ("join", "act", "resync", "ping", "check", "hint", "leave")


class ProtocolError(Exception):
    """A client message the server refuses: ``code`` (docs/protocol.md) and a message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _validators() -> dict[str, Any]:
    """One compiled validator per client message type, from the shipped schema: the server
    reads exactly what ``client_message`` allows, so the two cannot disagree."""
    schema = protocol.schema()
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    names = [f"client_{kind}" for kind in CLIENT_TYPES] + ["create_table", "play_request"]
    return {name: cls({**schema, "$ref": f"#/$defs/{name}"}) for name in names}


_VALIDATORS = _validators()


def schema_error(name: str, doc: Any) -> str | None:
    """Why ``doc`` is not what the schema's ``$defs/name`` allows, or None if it is.

    A value the validator cannot walk is refused with a message too: JSON nested close to
    Python's recursion limit (json reads it; the validator's recursion is several frames per
    level: RecursionError) and, given a Python value, an int past the int-to-text limit that
    the validator's message would print (ValueError)."""
    try:
        error = jsonschema.exceptions.best_match(_VALIDATORS[name].iter_errors(doc))
    except RecursionError:
        return f"nested too deeply to check (schema {name})"
    except ValueError:
        return f"a value the schema cannot check (schema {name})"
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path)
    message = error.message
    if type(error.instance) in (int, str):  # the value itself, cut short (a seed of 400 digits)
        shown = repr(error.instance)
        if message.startswith(shown):
            message = codec.short_repr(error.instance) + message[len(shown):]
    return f"{where + ': ' if where else ''}{message[:200]} (schema {name})"


def read_client_message(text: str) -> dict[str, Any]:
    """A client message checked against the shipped JSON Schema (docs/protocol.md), or a
    ProtocolError: ``bad_json`` (not JSON), ``bad_message`` (not an object with a text
    ``type``, or not what the schema allows), ``unknown_type``.

    JSON Schema counts ``1.0`` as an integer; such a ``decision`` or ``index`` is read as
    the integer it equals, so the server and the schema agree on every value."""
    try:
        msg = json.loads(text)
    except RecursionError:
        raise ProtocolError("bad_json", "not JSON: nested too deeply") from None
    except ValueError as exc:
        raise ProtocolError("bad_json", f"not JSON: {exc}") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ProtocolError("bad_message", "a message is a JSON object with a text 'type'")
    kind = msg["type"]
    if kind not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r} "
                            f"(the types are {', '.join(CLIENT_TYPES)})")
    error = schema_error(f"client_{kind}", msg)
    if error is not None:
        raise ProtocolError("bad_message", f"{kind}: {error}")
    for key in ("decision", "index"):
        if isinstance(msg.get(key), float):
            msg[key] = int(msg[key])
    return msg
