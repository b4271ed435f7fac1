"""Client messages of the table server: the size limit, the types, the checks against the
shipped JSON Schema (docs/protocol.md) and the refusal every check raises."""

from __future__ import annotations

import json
from typing import Any

import jsonschema

from .. import protocol

#: Largest client message (bytes of text) the server reads; larger ones get ``too_large``.
MAX_MESSAGE = 64 * 1024
#: The client message types, read from the shipped schema's ``client_message`` (the one list:
#: each is a ``client_<type>`` entry there, and a row of the hub's handler table,
#: ``hub.HANDLERS``).
CLIENT_TYPES: tuple[str, ...] = tuple(
    ref["$ref"].removeprefix("#/$defs/client_")
    for ref in protocol.schema()["$defs"]["client_message"]["oneOf"])


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
    while error.validator in ("oneOf", "anyOf") and error.context:  # the closest form's reason
        error = jsonschema.exceptions.best_match(error.context)
    where = "/".join(str(p) for p in error.absolute_path)
    return f"{where + ': ' if where else ''}{_readable(error)} (schema {name})"


_JSON_TYPES = {dict: "an object", list: "a list", str: "text", bool: "true or false",
               int: "a whole number", float: "a number", type(None): "null"}


def _json_value(value: Any) -> str:
    """A short JSON text of a schema's own value (names, bounds), never a Python repr."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = _JSON_TYPES.get(type(value), "a value")
    return text if len(text) <= 80 else text[:77] + "..."


def _readable(error: Any) -> str:
    """What a schema error means in words, from its kind and the schema's figures; the
    client's value is named by its JSON type only (never echoed as a Python repr)."""
    kind, want, got = error.validator, error.validator_value, error.instance
    what = _JSON_TYPES.get(type(got), "a value")
    count = len(got) if isinstance(got, (list, dict, str)) else 0
    if kind == "required":
        missing = next((k for k in want if isinstance(got, dict) and k not in got), want[0])
        return f"missing the field {_json_value(missing)}"
    if kind == "additionalProperties":
        known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        extra = sorted(str(k) for k in got if k not in known) if isinstance(got, dict) else []
        return f"unknown field {_json_value(extra[0])}" if extra else "unknown field"
    if kind == "type":
        names = want if isinstance(want, list) else [want]
        return f"must be of type {' or '.join(names)}, got {what}"
    if kind in ("enum", "const"):
        allowed = want if kind == "enum" else [want]
        return f"must be one of {', '.join(_json_value(v) for v in allowed)}"
    if kind in ("minItems", "maxItems"):
        return f"must have {'at least' if kind == 'minItems' else 'at most'} {want} entries, got {count}"
    if kind in ("minLength", "maxLength"):
        most = "at least" if kind == "minLength" else "at most"
        return f"must be {most} {want} characters long, got {count}"
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        word = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}[kind]
        return f"must be {word} {want}"
    if kind in ("oneOf", "anyOf"):
        return f"is not one of the forms the schema allows ({what})"
    if kind == "pattern":
        return f"does not match the pattern {_json_value(want)}"
    return f"is not what the schema allows ({kind})"


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
