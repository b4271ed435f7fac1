"""Wrong accepts: a number taken for a flag (`matches=2`) and `True` taken for the number 1
(a position's `version`, a record's `format` in `replay`, a game document's `version`) are refused with
the documented errors."""

from __future__ import annotations

import json

import daguai
import pytest
from daguai import Game, ReplayError
from daguai.positions import PositionError


@pytest.mark.parametrize("name,value", [("matches", 2), ("matches", "yes"), ("auto_pass", 1)])
def test_flags_are_bools(name, value):
    with pytest.raises(ValueError, match=f"{name} must be True or False"):
        daguai.simulate(2, ("random", "random"), **{name: value})
    with pytest.raises(ValueError, match="matches must be True or False"):
        daguai.evaluate("random", "random", 2, matches=2)


def test_true_is_not_version_1():
    g = Game(seed=3)
    pos = g.position()
    assert pos["version"] == 1 and not isinstance(pos["version"], bool)
    Game.from_position(pos)  # the real one still reads
    with pytest.raises(PositionError, match="version"):
        Game.from_position({**pos, "version": True})
    record = g.to_record()
    lines = record.splitlines()
    head = json.loads(lines[0])
    daguai.replay(record)
    with pytest.raises(ReplayError, match="format"):
        daguai.replay("\n".join([json.dumps({**head, "format": True}), *lines[1:]]))
    doc = json.loads(g.to_json())
    Game.from_json(json.dumps(doc))
    with pytest.raises(ReplayError, match="version"):
        Game.from_json(json.dumps({**doc, "version": True}))
