"""The rule variants of docs/rules.md as one immutable, hashable value.

``Rules`` is derived at import time from the engine's variant table
(``_core.core.RULE_VARIANTS``, ``cpp/engine/core/rules.cpp``): its fields, defaults, validation, the
``Parameters`` section of its docstring and its ``__init__`` signature. Adding a variant is
one row of that table (docs/development.md "Adding a rule variant"); nothing here changes.
"""

from __future__ import annotations

import dataclasses
import inspect
import operator
import textwrap
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from . import _core
from .codec import short_repr

__all__ = ["Rules", "LEVELS", "VARIANTS"]

#: The variant table, read-only: name -> record (kind, choices, default, lo/hi, rule id, doc,
#: enum), in declaration order.
VARIANTS: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {row["name"]: MappingProxyType(dict(row)) for row in _core.core.RULE_VARIANTS})

# The choices of each choice variant, derived from the table
# (tests/cli/test_cli_outputs_policies_and_ray.py reads it).
_CHOICES = {name: row["choices"] for name, row in VARIANTS.items() if row["kind"] == "choice"}

#: Level texts in rank order (R3).
LEVELS: tuple[str, ...] = tuple(_core.core.level_text(rank) for rank in range(13))

_TYPES = {"choice": str, "bool": bool, "int": int, "level": str}


def _check(name: str, value: Any) -> Any:
    """The value of variant ``name`` as stored (ints as int, levels upper-case), or ValueError."""
    row = VARIANTS[name]
    kind = row["kind"]
    if kind == "choice":
        if not isinstance(value, str) or value not in row["choices"]:
            raise ValueError(
                f"Rules.{name}={short_repr(value)} is not one of {', '.join(map(repr, row['choices']))}")
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"Rules.{name} must be True or False, got {short_repr(value)}")
        return value
    if kind == "int":
        lowest, highest = row["lo"], row["hi"]
        try:  # numpy integers too (stored as int); an array of several has no index
            number = None if isinstance(value, bool) else operator.index(value)
        except TypeError:
            number = None
        if number is None or not lowest <= number <= highest:
            raise ValueError(f"Rules.{name} must be an integer in [{lowest}, {highest}], "
                             f"got {short_repr(value)}")
        return number
    level = "T" if isinstance(value, str) and value == "10" else value
    if not isinstance(level, str) or level.upper() not in row["choices"]:
        raise ValueError(f"Rules.{name}={short_repr(value)} is not a level ({' '.join(row['choices'])})")
    return level.upper()


def _values_text(row: Mapping[str, Any]) -> str:
    """The accepted values of a variant, for the docstring's and the CLI's type column."""
    if row["kind"] in ("choice", "level"):
        return "{" + ", ".join(f'"{c}"' for c in row["choices"]) + "}"
    return row["kind"]


def _docstring() -> str:
    lines = [
        "Every rule variant of docs/rules.md (R5-R18), with the documented defaults.",
        "",
        "Immutable and hashable; ``Rules.from_dict(r.to_dict()) == r``. Unknown names or",
        "values raise ``ValueError``.",
        "",
        "Parameters",
        "----------",
    ]
    for name, row in VARIANTS.items():
        lines.append(f"{name} : {_values_text(row)}")
        lines += textwrap.wrap(f"{row['rule']}: {row['doc']} (default {row['default']!r}).", 92,
                               initial_indent="    ", subsequent_indent="    ")
    return "\n".join(lines) + "\n"


class _Methods:
    """The methods of Rules (its fields are added from the table by make_dataclass)."""

    def __init__(self, **values: Any) -> None:
        unknown = [name for name in values if name not in VARIANTS]
        if unknown:
            raise ValueError(f"unknown rule name(s): {', '.join(sorted(unknown))} "
                             f"(known: {', '.join(VARIANTS)})")
        for name, row in VARIANTS.items():
            object.__setattr__(self, name, _check(name, values.get(name, row["default"])))
        object.__setattr__(self, "_core", _core.core.CoreRules(**self.to_dict()))

    def __repr__(self) -> str:
        changed = [f"{name}={getattr(self, name)!r}" for name, row in VARIANTS.items()
                   if getattr(self, name) != row["default"]]
        return f"Rules({', '.join(changed)})"

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated like the constructor)."""
        return Rules(**{**self.to_dict(), **changes})

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The rule names, in declaration order."""
        return tuple(VARIANTS)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of every rule (JSON-serializable)."""
        return {name: getattr(self, name) for name in VARIANTS}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`; missing names take their defaults."""
        if not isinstance(data, Mapping):
            raise ValueError(f"Rules.from_dict needs a mapping, got {type(data).__name__}")
        if not all(isinstance(k, str) for k in data):
            raise ValueError("Rules.from_dict: rule names must be strings")
        return Rules(**dict(data))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rules_from_dict, (self.to_dict(),))


def _make_rules() -> type:
    fields: list[Any] = [
        (name, _TYPES[row["kind"]], dataclasses.field(default=row["default"]))
        for name, row in VARIANTS.items()]
    fields.append(("_core", Any, dataclasses.field(init=False, repr=False, compare=False,
                                                   hash=False)))
    namespace = {k: v for k, v in vars(_Methods).items() if k not in ("__dict__", "__weakref__")}
    for key, value in namespace.items():  # Rules.replace, not _Methods.replace, in help()
        if inspect.isfunction(func := getattr(value, "__func__", value)):
            func.__qualname__ = f"Rules.{key}"
    namespace["__doc__"] = _docstring()
    namespace["__module__"] = __name__
    cls = dataclasses.make_dataclass("Rules", fields, namespace=namespace, init=False,
                                     repr=False, frozen=True)
    # The real keyword-only parameters, for inspect.signature, help() and IDEs.
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    params += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=row["default"],
                                 annotation=_TYPES[row["kind"]])
               for name, row in VARIANTS.items()]
    cls.__init__.__signature__ = inspect.Signature(params, return_annotation=None)
    return cls


Rules: Any = _make_rules()


def _rules_from_dict(data: Mapping[str, Any]) -> Any:
    return Rules.from_dict(data)
