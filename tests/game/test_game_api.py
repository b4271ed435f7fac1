"""daguai.Game wraps the C++ GameState: only the names documented in
docs/game.md "The Game API" are public on it, the engine-level state is ``game.state``,
and every _core function that takes a game accepts a Game (cpp/bindings/game/game_args.hpp)."""

from __future__ import annotations

import pathlib
import re

import pytest
from daguai import Game, _core, protocol

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "game.md"

# docs/game.md "The Game API", written out: the test fails when the class and this list
# (or the page) disagree.
PUBLIC = {
    "from_json", "from_position", "from_record",
    "legal_actions", "step", "forfeit", "auto_pass",
    "seed", "game_index", "rules", "start", "seats", "phase", "match_over", "current_player", "round",
    "dealer", "level", "levels", "initial_auto_pass", "hand", "cards_left", "finish_order",
    "top", "top_seat", "passed", "played", "scores", "final_failures", "tribute_state",
    "recording",
    "results", "result", "n_results", "round_result", "titles",
    "observation", "view",
    "clone", "to_json", "position", "record_lines", "to_record", "render", "state",
}


def _documented() -> set[str]:
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## The Game API", 1)[1].split("\n## ", 1)[0]
    table = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    names: set[str] = set()
    for line in table[1:]:  # the header row names no methods
        cells = line.split("|")[2]
        names |= {m.group(1) for m in re.finditer(r"`(?:Game\()?([a-z_]+)", cells)} - {"Game"}
    return names


def test_game_public_names_are_exactly_the_documented_ones():
    public = {n for n in dir(Game) if not n.startswith("_")}
    assert public == PUBLIC
    assert _documented() == PUBLIC


def test_raw_engine_methods_are_not_on_game_but_on_its_state():
    g = Game(1)
    for raw in ("apply", "check", "to_action", "_apply_forced_pass", "events", "n_events",
                "round_events_start", "start_kind", "legal_plays_array"):
        assert not hasattr(Game, raw), raw
        with pytest.raises(AttributeError):
            getattr(g, raw)
        assert hasattr(g.state, raw), raw
    assert isinstance(g.state, _core.game.GameState) and not isinstance(g, _core.game.GameState)


def test_every_core_function_takes_a_game_or_its_state():
    g = Game(4, start="random")
    s = g.state
    assert (_core.io.encode_observation(g, 2) == _core.io.encode_observation(s, 2)).all()
    assert (_core.io.encode_candidates(g) == _core.io.encode_candidates(s)).all()
    assert _core.game.information_state(g, 3).hand == _core.game.information_state(s, 3).hand
    mg, ig = _core.io.abstract_mask(g)
    ms, is_ = _core.io.abstract_mask(s)
    assert (mg == ms).all() and (ig == is_).all()
    a = str(g.legal_actions()[0])
    assert _core.game.parse_action(g, a) == _core.game.parse_action(s, a)
    seat = g.current_player
    assert (_core.run.PolicyRunner("heuristic", 1, 0, seat).act(g)
            == _core.run.PolicyRunner("heuristic", 1, 0, seat).act(s))
    # a mutation through the Game's state is the Game's (no copy in the conversion)
    before = s.n_events
    _core.run._SeatDriver(["random"] * 6, 1, 0).advance(g, 1)
    assert g.state is s and s.n_events > before and g.n_results == 1
    with pytest.raises(TypeError):
        _core.io.encode_candidates(object())


def test_copies_pickles_and_json_keep_working():
    import copy
    import pickle

    g = Game(9)
    for _ in range(30):
        g.step(g.legal_actions()[-1])
    for h in (g.clone(), copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g)),
              Game.from_json(g.to_json())):
        assert h == g and h.state is not g.state
    c = g.clone()
    c.step(c.legal_actions()[0])
    assert c != g
    r = Game.from_record(g.to_record())
    assert protocol.decisions(g.state.events()) == protocol.decisions(r.state.events())


def test_a_game_made_without_init_raises_type_error():
    g = Game.__new__(Game)
    with pytest.raises(TypeError, match="not initialized"):
        g.phase  # noqa: B018
    with pytest.raises(TypeError, match="not initialized"):
        g.step("pass")
