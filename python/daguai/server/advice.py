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

__all__ = ["check", "combos", "families", "hint", "hint_worlds", "COMBO_KINDS", "HINT_SECONDS",
           "HINT_MAX_WORLDS", "REASONS"]

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


#: The five-card combinations the web table points out in a hand (R5): the straights, flushes
#: and the bombs (four-plus-one, straight flush, five of a kind).
COMBO_KINDS = ("straight", "flush", "four_plus_one", "straight_flush", "five_of_a_kind")
#: Most combinations of one kind listed in one ``decide`` (a hand can hold hundreds).
MAX_COMBOS = 30


def combos(game: Game, seat: int) -> list[dict[str, Any]]:
    """The plays of :data:`COMBO_KINDS` the seat's hand holds, as the engine lists a
    leader's legal plays (R5, R8: whatever the play to beat), one per set of cards, at most
    :data:`MAX_COMBOS` of each kind, lowest first, as ``{kind, cards}``: what the web table
    marks in the hand. Only the engine classifies; the page draws."""
    from .._core.plays import Kind
    from ..plays import legal_plays

    seen: set[tuple[str, ...]] = set()
    count: collections.Counter[str] = collections.Counter()
    out: list[dict[str, Any]] = []
    for p in legal_plays(game.hand(seat), game.level, None, game.rules):
        kind = Kind(p.kind).name.lower()
        if kind not in COMBO_KINDS or count[kind] >= MAX_COMBOS:
            continue
        cards = str(p.cards).split()
        key = tuple(sorted(cards))
        if key in seen:
            continue
        seen.add(key)
        count[kind] += 1
        out.append({"kind": kind, "cards": " ".join(cards)})
    return out


def _family(a: Any) -> tuple[Any, ...]:
    """What a play is apart from its suits and its kicker (R5): its kind, the ranks of its
    main part (the four of a four-plus-one, the three of a full house, every card of the
    others; a joker counts as the face it stands for, R6) and how many jokers it spends.
    Plays with the same family differ only by a suit or a kicker."""
    if a.type != "play":
        return (a.type, str(a))
    cards = str(a.cards).split()
    faces = [c[0] for c in cards if c not in ("SJ", "BJ")]
    jokers = [c for c in cards if c in ("SJ", "BJ")]
    faces += [f[0] for f in a.play.jokers_as] if a.play.jokers_as else jokers
    count = collections.Counter(faces)
    kind = a.play.kind.name.lower()
    if kind in ("four_plus_one", "full_house"):
        need = 4 if kind == "four_plus_one" else 3
        main = tuple(sorted(r for r, n in count.items() if n >= need))
    else:
        main = tuple(sorted(faces))
    return (kind, main, len(jokers))


def families(game: Game, texts: list[str]) -> list[tuple[str | None, int]]:
    """For each action text: its combination (``kind``, None for a pass or a tribute) and
    its family number, 0, 1, ... in the order families first appear (:func:`_family`)."""
    from ..protocol import parse_action

    numbers: dict[tuple[Any, ...], int] = {}
    out: list[tuple[str | None, int]] = []
    for text in texts:
        try:
            a = parse_action(game, text)
        except ValueError:
            out.append((None, numbers.setdefault(("?", text), len(numbers))))
            continue
        kind = a.play.kind.name.lower() if a.type == "play" else None
        out.append((kind, numbers.setdefault(_family(a), len(numbers))))
    return out


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

    from ..search import analyze
    from ..stats import wilson_interval as _wilson

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
    # rows a player reads as one: plays that differ only by a kicker or a suit (docs/server.md)
    for c, (kind, family) in zip(cands, families(game, [c["text"] for c in cands]), strict=True):
        c["family"] = family
        if kind is not None:
            c["kind"] = kind
    return {"type": "hint", "decision": decision, "seat": a.seat, "worlds": worlds,
            "policy": a.policy, "candidates": cands}
