"""A round's history by trick (R7, R8): where each trick begins in a view's ``history``,
and the last trick that is over, for the web table's history and its "last trick" recall
(docs/protocol.md "The view"; ``static/tricks.js`` does the same in the page).

A trick begins with a play when no trick is open and ends when, after its last play, every
other seat still holding cards has passed (a seat that has gone out is skipped, R8). The
history's passes carry ``auto``: true for a forced pass the engine made (``auto_pass``: the
seat had no play that beats the top), shown as "no play possible" (要不起).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["trick_starts", "last_trick", "with_tricks"]


def _ends(history: Sequence[dict[str, Any]], cards_left: Sequence[int]) -> tuple[list[int], bool]:
    """(the index of each trick's first play, whether the last trick is still open)."""
    left = list(cards_left)
    for e in history:  # the counts when the history began (its plays given back)
        if e.get("event") == "play":
            left[e["seat"]] += len(e["cards"].split())
    starts: list[int] = []
    open_, last, passes = False, -1, 0
    for i, e in enumerate(history):
        kind = e.get("event")
        if kind == "play":
            if not open_:
                starts.append(i)
                open_ = True
            left[e["seat"]] -= len(e["cards"].split())
            last, passes = e["seat"], 0
        elif kind == "pass" and open_:
            passes += 1
            if passes >= sum(1 for s, n in enumerate(left) if s != last and n > 0):
                open_ = False
    return starts, open_


def trick_starts(history: Sequence[dict[str, Any]], cards_left: Sequence[int]) -> list[int]:
    """The index in ``history`` of each trick's first play (a view's ``history`` and
    ``cards_left``)."""
    return _ends(history, cards_left)[0]


def last_trick(history: Sequence[dict[str, Any]], cards_left: Sequence[int]) -> list[dict[str, Any]] | None:
    """The events (plays and passes) of the last trick of the round that is over, or None."""
    starts, open_ = _ends(history, cards_left)
    done = starts[:-1] if open_ else starts
    if not done:
        return None
    k = len(done) - 1
    end = starts[k + 1] if k + 1 < len(starts) else len(history)
    return [e for e in history[done[k]:end] if e.get("event") in ("play", "pass")]


def with_tricks(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` with ``trick_starts`` and ``last_trick`` added (the web table's history by
    trick and its last-trick recall)."""
    history, left = view.get("history") or [], view.get("cards_left") or []
    view["trick_starts"] = trick_starts(history, left)
    view["last_trick"] = last_trick(history, left)
    return view
