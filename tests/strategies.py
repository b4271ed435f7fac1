"""Hypothesis strategies the property tests share."""

from __future__ import annotations

from daguai import Rules
from hypothesis import strategies as st

BOTH_TABLES = ("6p3d", "4p2d")


@st.composite
def play_rules(draw, tables: tuple[str, ...] = BOTH_TABLES) -> Rules:
    """Rules drawn over the variants that change what a play is and what it beats: `wild`
    (R6), `wrap_straights` (R5), `joker_pair` (R7) and the table (R18)."""
    return Rules(
        wild=draw(st.sampled_from(["auto", "high", "declare"])),
        wrap_straights=draw(st.booleans()),
        joker_pair=draw(st.sampled_from(["tie", "pure_wins"])),
        table=draw(st.sampled_from(tables)),
    )
