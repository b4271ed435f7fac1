"""The JSON documents of daguai beside the event codec: positions (docs/records.md
"Positions"), evaluation results, analyses and the table server's summaries, each one
``$defs`` entry of the shipped schema ``daguai/schemas/documents-v1.schema.json``
(:func:`documents_schema`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from .codec import position_entry

__all__ = ["nan_to_none", "position_to_json", "evaluation_to_json", "group_to_json",
           "analysis_to_json", "table_summary", "match_summary", "documents_schema",
           "POSITION_FORMAT", "DOCUMENTS_VERSION", "DOCUMENTS_SCHEMA"]

#: Version of the documents' JSON Schema (``daguai/schemas/documents-v1.schema.json``).
DOCUMENTS_VERSION = 1
DOCUMENTS_SCHEMA = f"documents-v{DOCUMENTS_VERSION}.schema.json"
#: Version of the position JSON form (docs/records.md "Positions").
POSITION_FORMAT = 1


def nan_to_none(x: Any) -> Any:
    """``x`` with every float NaN (in dicts and lists) replaced by ``None``: JSON has no NaN."""
    if isinstance(x, float) and x != x:
        return None
    if isinstance(x, dict):
        return {k: nan_to_none(v) for k, v in x.items()}
    if isinstance(x, list):
        return [nan_to_none(v) for v in x]
    return x


def position_to_json(game: Any, *, at_deal: bool = False) -> dict[str, Any]:
    """The position of ``game`` (a Game) now, or at this round's deal (docs/records.md
    "Positions"; ``$defs/position`` of :func:`documents_schema`). Its history entries are
    :func:`position_entry`'s; the referee's audience (every hand)."""
    if game.match_over:
        raise ValueError("the match is over: it has no position")
    if not game.recording:
        raise ValueError("a position needs a game created with record=True (the round's history "
                         "comes from the log)")
    events = game.state.events(game.state.round_events_start)
    deal = events[0][4]
    return {
        "format": "daguai-position", "version": POSITION_FORMAT,
        "rules": game.rules.to_dict(), "seed": game.seed, "game": game.game_index,
        "auto_pass": game.auto_pass, **({"start": game.start} if game.start != "fresh" else {}),
        "round": game.round, "dealer": game.dealer,
        "levels": list(deal["levels"]), "scores": list(game.scores),
        "final_failures": list(game.final_failures),
        "tribute": [[t["from"], t["to"]] for t in game.tribute_state],
        "hands": ([str(h) for h in deal["hands"]] if at_deal
                  else [str(game.hand(s)) for s in range(game.seats)]),
        "history": [] if at_deal else [h for h in map(position_entry, events) if h is not None],
        "finish_order": [] if at_deal else list(game.finish_order),
        "to_act": None if at_deal else game.current_player,
    }


def evaluation_to_json(figures: Mapping[str, Any]) -> str:
    """An evaluation's figures (``EvalResult.figures()``) as JSON text, NaN (a single deal's
    interval) as ``null`` (``$defs/evaluation``)."""
    return json.dumps(nan_to_none(dict(figures)))


def group_to_json(g: Any) -> dict[str, Any]:
    """One group of an analysis (``daguai.search.Group``; ``$defs/group``)."""
    return {"name": g.name, "plays": list(g.plays), "worlds": g.rollouts,
            "points": g.points, "points_ci": list(g.points_ci) if g.points_ci else None,
            "win": g.win, "draw": g.draw, "lose": g.lose,
            "win_ci": list(g.win_ci), "round": g.round,
            "best": g.best, "tie": g.tie}


def analysis_to_json(a: Any) -> dict[str, Any]:
    """An analysis (``daguai.search.Analysis``, ``daguai analyze --json``; ``$defs/analysis``)."""
    return {"seat": a.seat, "phase": a.phase, "hand": a.hand,
            "to_beat": (None if a.to_beat is None
                        else {"play": a.to_beat, "seat": a.to_beat_seat}),
            "policy": a.policy, "seed": a.seed, "forced": a.forced, "legal": a.legal,
            "n_groups": a.n_groups, "rollouts": a.rollouts, "budget": a.budget,
            "rounds": a.rounds, "measure": a.measure, "best": group_to_json(a.best),
            "groups": [group_to_json(g) for g in a.groups]}


def table_summary(*, table: str, finished: bool, rules: Mapping[str, Any], seats: list[Any],
                  round: int, levels: Iterable[str], scores: list[int], decisions: int,
                  match: Any, spectators: int) -> dict[str, Any]:
    """A server table's summary (``GET /api/tables``; ``$defs/table_summary``)."""
    return {"table": table, "status": "finished" if finished else "open",
            "rules": dict(rules), "seats": seats, "round": round,
            "levels": list(levels), "scores": scores, "decisions": decisions,
            "match": match, "spectators": spectators}


def match_summary(*, levels: Iterable[str], scores: list[int], seats: list[str],
                  decisions: int) -> dict[str, Any]:
    """The summary the server stores with a finished match (``$defs/match_summary``)."""
    return {"levels": list(levels), "scores": scores, "seats": seats, "decisions": decisions}


def documents_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the documents above, shipped as package data; one
    ``$defs`` entry per document (position, evaluation, analysis, group, table_summary,
    match_summary). The table protocol's messages have theirs in ``protocol.schema()``."""
    from importlib import resources
    text = resources.files(__package__).joinpath("schemas", DOCUMENTS_SCHEMA).read_text(encoding="utf-8")
    return json.loads(text)
