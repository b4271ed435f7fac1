"""Helpers shared by the plays test files."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import daguai
from daguai import Play, Rules


def fixed_positions(hands: Iterable[str], tops: Iterable[str | None], rule_sets: Iterable[dict],
                    levels: str) -> Iterator[tuple[str, str, Play | None, str | None, Rules, dict]]:
    """``(hand, level, top, top_text, rules, options)`` for every rule set, hand, level and top
    (None: a lead), leaving out a top that is no play under those rules and, at 4p2d (R18), a
    hand holding some face more than twice."""
    tops = list(tops)
    for options in rule_sets:
        rules = Rules(**options)
        for hand in hands:
            faces = hand.split()
            if rules.table == "4p2d" and any(faces.count(f) > 2 for f in set(faces)):
                continue
            for level in levels:
                for top_text in tops:
                    top = None if top_text is None else daguai.classify(top_text, level, rules)
                    if top_text is None or top is not None:
                        yield hand, level, top, top_text, rules, options
