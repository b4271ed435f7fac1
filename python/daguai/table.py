"""The table a match is played at (docs/rules.md R1, R18), read from the engine's descriptor
(``cpp/engine/core/table.hpp``): seats, decks, hand size, teams, tribute limit, stakes, forfeits.

``Rules.table`` names the table ("6p3d", the default, or "4p2d"); everything in Python that
depends on the number of seats asks here instead of writing 6.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from . import _core

__all__ = ["table_info", "seats_of", "TABLES", "MAX_SEATS"]


@cache
def _info(name: str) -> dict[str, Any]:
    return dict(_core.core.table_info(name))


def table_info(name: str = "6p3d") -> dict[str, Any]:
    """The descriptor of table ``name`` ("6p3d" or "4p2d") as a dict: ``seats``, ``decks``,
    ``hand_size``, ``team_size``, ``max_tributers``, ``joker_tribute``, ``stake`` (winners'
    gain in b by tributer count 0..3), ``forfeit_leaver``, ``early_leaver``."""
    return dict(_info(name))


def seats_of(rules: Any = None) -> int:
    """How many seats the table of ``rules`` (a ``Rules``, or None for the default) has."""
    return int(_info(getattr(rules, "table", "6p3d") if rules is not None else "6p3d")["seats"])


#: The tables' names, from the engine's variant table (the choices of ``Rules.table``).
TABLES: tuple[str, ...] = next(tuple(v["choices"]) for v in _core.core.RULE_VARIANTS if v["name"] == "table")
#: The most seats any table has: the bound of a seat number read before its table is known
#: (an event's seat or audience in the codec).
MAX_SEATS: int = max(int(_info(name)["seats"]) for name in TABLES)
