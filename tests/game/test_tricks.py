"""A round's history by trick (daguai.tricks, R7/R8): trick boundaries from a view's history
equal the engine's (a trick begins where the engine has no play to beat), and the forced
passes the engine makes (auto_pass) are exactly the passes that were the only legal action."""

from __future__ import annotations

import json

import pytest
from daguai import _core, protocol, tricks
from daguai.game import Game
from daguai.rules import Rules


@pytest.mark.parametrize("table", ["6p3d", "4p2d"])
def test_r7_r8_trick_starts_equal_the_engines(table):
    g = Game(3, Rules.from_dict({"final_level": "3", "max_rounds": 2, "table": table}), auto_pass=False)
    n, starts, rnd, checked = 0, [], g.round, 0
    while not g.match_over:
        if g.round != rnd:
            rnd, starts = g.round, []
        v = protocol.view_to_json(g, 0)
        if g.phase == "play":
            assert tricks.trick_starts(v["history"], v["cards_left"]) == starts
            last = tricks.last_trick(v["history"], v["cards_left"])
            if len(starts) >= (2 if g.top is not None else 1):  # a trick is over this round
                k = len(starts) - (2 if g.top is not None else 1)
                end = starts[k + 1] if k + 1 < len(starts) else len(v["history"])
                assert last == v["history"][starts[k]:end]
            else:
                assert last is None
            if g.top is None:
                starts.append(len(v["history"]))  # the play about to be made leads a trick
            checked += 1
        g.step(_core.run.PolicyRunner("heuristic", 3, n, g.current_player).act(g))
        n += 1
    assert checked > 100


def test_r8_forced_passes_are_marked_auto():
    """The same decisions at an auto_pass table and at one without: each pass the engine made
    itself is one whose only legal action was pass, and it reads auto: true."""
    rules = Rules.from_dict({"final_level": "3", "max_rounds": 1})
    manual, auto = Game(8, rules, auto_pass=False), Game(8, rules, auto_pass=True)
    forced: list[bool] = []  # per pass of the round, in order
    n = 0
    while not manual.match_over:
        legal = list(manual.legal_actions())
        a = _core.run.PolicyRunner("heuristic", 8, n, manual.current_player).act(manual)
        n += 1
        if manual.phase == "play" and a.type == "pass":
            forced.append(len(legal) == 1)
        manual.step(a)
        if not (len(legal) == 1 and a.type == "pass" and manual.phase == "play"):
            auto.step(a)
    assert manual.match_over and auto.match_over  # one round: both ended it
    hist = [json.loads(x) for x in auto.to_record().splitlines()[1:] if '"event":"pass"' in x]
    assert [e["auto"] for e in hist] == forced
    assert any(forced) and not all(forced)
