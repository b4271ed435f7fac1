"""The observation dict of a seat (``Game.observation``, ``InfoState.observation()``): one
R16 layer for the game, its views and the protocol, built from an information state."""

from __future__ import annotations

from typing import Any

from . import _core, codec, protocol


def observation(v: _core.game.InfoState) -> dict[str, Any]:
    """The observation dict (``Game.observation``) of an information state: one R16 layer for
    the game, its views and the protocol."""
    seat = v.seat
    history = []
    for event in v.history:  # already filtered for this seat by the information state
        ev = codec.encode(event, seat, form="view")
        if ev is not None:
            history.append(ev)
    top = v.top
    return {
        "seat": seat,
        "team": seat % 2,
        "phase": v.phase,
        "current_player": v.current_player,
        "round": v.round,
        "dealer": v.dealer,
        "level": v.level,
        "levels": list(v.levels),
        "hand": v.hand.cards(),
        "cards_left": v.cards_left,
        "finish_order": v.finish_order,
        "top": None if top is None else {"seat": v.top_seat, **protocol.play_to_json(top)},
        "passed": v.passed,
        "scores": v.scores,
        "tributes": v.tributes,
        "history": history,
        "last_result": v.last_result,
        "played": [h.cards() for h in v.played],
    }


def _view_observation(view: _core.game.InfoState, seat: int | None = None) -> dict[str, Any]:
    """``view.observation()`` (bound in C++, built here): what ``Game.observation(view.seat)``
    gives, from the view alone (a Python policy receives a view; this is the dict a learner
    trained on)."""
    if seat is not None and seat != view.seat:
        raise ValueError(f"this view is seat {view.seat}'s; seat {seat!r} is not in it (R16)")
    return observation(view)


_core.game._set_observation_encoder(_view_observation)
