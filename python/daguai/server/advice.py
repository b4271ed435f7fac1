"""What the web table asks the server about the open decision of its own seat: why a
selection is or is not a legal action (``check``), and the engine's estimate of each choice
(``hint``, through :func:`daguai.analyze`). Both use only what the seat may know (R16): its
own hand, the public state, and for the hint the seat's view (analyze re-deals the other
hands in every world). docs/protocol.md "Advice for the seat to act".
"""

from __future__ import annotations

import collections
from typing import Any

from ..game import Game
from ..plays import interpretations

__all__ = ["check", "hint", "hint_worlds", "HINT_SECONDS", "HINT_MAX_WORLDS", "REASONS"]

#: The time a hint aims at: its worlds are sized from the measured cost of recent rollouts.
HINT_SECONDS = 0.4
#: Most worlds a hint samples (fewer when there are many legal actions or rollouts are slow).
HINT_MAX_WORLDS = 64
#: Seconds per rollout (one candidate played out in one world), measured by every hint
#: (a moving average; the start value is a loaded 2-core machine's).
_cost = [3e-4]
#: Why a selection is not a legal action (``checked.reason.code``), for the page to say.
REASONS = ("empty", "not_in_hand", "size", "size_top", "no_combination", "does_not_beat",
           "one_card", "offer_count", "tribute_highest", "not_legal", "not_your_turn")


def _cards(text: str) -> list[str]:
    return text.split() if text else []


def _reading(index: int, a: Any) -> dict[str, Any]:
    p = a.play
    d: dict[str, Any] = {"index": index, "text": str(a), "kind": p.kind.name.lower(), "key": p.key}
    if p.jokers_as:
        d["as"] = " ".join(p.jokers_as)
    return d


def check(game: Game, seat: int, cards: str, legal: list[Any], decision: int | None
          ) -> dict[str, Any]:
    """The ``checked`` message for ``cards`` (card text, R2) selected by ``seat``: the legal
    actions with exactly these cards (under ``wild="declare"`` every reading, strongest
    first, R6), or the reason there is none (``REASONS``, R5, R7, R11)."""
    sel = _cards(cards)
    out: dict[str, Any] = {"type": "checked", "cards": cards, "decision": decision,
                           "readings": [], "reason": None}
    hand = collections.Counter(str(game.hand(seat)).split())
    mine = game.current_player == seat and decision is not None
    phase = game.phase if mine else "play"
    top = game.top
    if not sel:
        out["reason"] = {"code": "empty", "phase": phase,
                         **({"top_kind": top.kind.name.lower(), "top_size": top.size} if top else {})}
        return out
    if collections.Counter(sel) - hand:
        out["reason"] = {"code": "not_in_hand"}
        return out
    if mine:
        want = collections.Counter(sel)
        for i, a in enumerate(legal):
            if a.type in ("pass", "anti_tribute"):
                continue
            if collections.Counter(str(a.cards).split()) == want:
                if a.type == "play":
                    out["readings"].append(_reading(i, a))
                else:
                    out["readings"].append({"index": i, "text": str(a), "kind": a.type})
        out["readings"].sort(key=lambda r: -r.get("key", 0))  # strongest reading first (R7)
        if out["readings"]:
            return out
    out["reason"] = _why_not(game, phase, sel, top, mine)
    return out


def _why_not(game: Game, phase: str, sel: list[str], top: Any, mine: bool) -> dict[str, Any]:
    n = len(sel)
    if phase in ("tribute", "return", "take"):
        if n != 1:
            return {"code": "one_card"}
        return {"code": "tribute_highest" if phase == "tribute" else "not_legal"}
    if phase == "offer":
        return {"code": "offer_count"}
    if n not in (1, 2, 3, 5):
        return {"code": "size", "size": n}
    if top is not None and n != top.size:
        return {"code": "size_top", "size": n, "top_size": top.size}
    plays = interpretations(" ".join(sel), game.level, game.rules)
    if not plays:
        return {"code": "no_combination", "size": n}
    best = max(plays, key=lambda p: p.key)
    if top is not None and not any(p.key > top.key for p in plays):
        return {"code": "does_not_beat", "kind": best.kind.name.lower(), "top_kind": top.kind.name.lower()}
    if not mine:
        return {"code": "not_your_turn", "kind": best.kind.name.lower()}
    return {"code": "not_legal", "kind": best.kind.name.lower()}


def hint_worlds(n_legal: int, cost: float | None = None) -> int:
    """Worlds for a hint over ``n_legal`` candidates: every candidate is played in every
    world, so a hint takes about worlds × n_legal × ``cost`` seconds (default: the measured
    seconds per rollout); sized to :data:`HINT_SECONDS`, at least 1 world and at most
    :data:`HINT_MAX_WORLDS`."""
    c = _cost[0] if cost is None else cost
    return max(1, min(HINT_MAX_WORLDS, int(HINT_SECONDS / (max(1e-7, c) * max(1, n_legal)))))


def hint(game: Game, legal_texts: list[str], decision: int, seed: int,
         worlds: int | None = None, inference: str = "none") -> dict[str, Any]:
    """The ``hint`` message: :func:`daguai.analyze` of the seat to act (its view only, R16:
    every world re-deals the hidden hands, so the answer is the same whatever they are) with
    a budget of ``worlds`` (default :func:`hint_worlds`) × the legal actions in rollouts.
    The groups of equivalent plays race for it (docs/search.md): a group that falls behind
    early stops, so each group has its own number of rollouts ``n``. Each choice carries its
    group's (``group``: the group's rank, 0 = best first, analyze's order; ``best``: the
    race's winner) estimated win / draw / loss of the round for the seat's team with 95%
    Wilson intervals. ``inference``: :func:`daguai.analyze`'s (``"none"`` by default: at the
    hint's budget of time, more rollouts are worth more than inference; docs/search.md)."""
    import time

    from ..search import _wilson, analyze

    if worlds is None:
        worlds = hint_worlds(len(legal_texts))
    t0 = time.perf_counter()
    a = analyze(game, rollouts=max(1, worlds * len(legal_texts)), seed=seed, inference=inference)
    if a.rollouts:  # the measured cost sizes the next hints (a forced choice runs nothing)
        _cost[0] = 0.7 * _cost[0] + 0.3 * (time.perf_counter() - t0) / a.rollouts
    index = {t: i for i, t in enumerate(legal_texts)}
    cands = []
    for k, g in enumerate(a.groups):
        n = g.rollouts
        for text in g.plays:
            cands.append({"index": index.get(text), "text": text, "group": k, "best": g.best,
                          "n": n, "win": g.win, "draw": g.draw, "lose": g.lose,
                          "win_ci": list(_wilson(g.wins, n)), "draw_ci": list(_wilson(g.draws, n)),
                          "lose_ci": list(_wilson(g.losses, n))})
    return {"type": "hint", "decision": decision, "seat": a.seat, "worlds": worlds,
            "policy": a.policy, "candidates": cands}
