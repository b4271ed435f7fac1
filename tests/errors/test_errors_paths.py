"""Paths (docs/errors.md "Paths"): a ``pathlib.Path`` (any ``os.PathLike``) is a file to
read wherever a record, a position or a game document is taken; a ``str`` is always the
text, and a ``str`` that is not JSON but reads as a file name gets an error that says so
(pass ``pathlib.Path(...)``), not "not JSON" alone."""

from __future__ import annotations

import json
import os
from pathlib import Path

import daguai
import pytest
from daguai import Game, ReplayError
from daguai.positions import PositionError


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    g = Game(seed=3)
    g.step(g.legal_actions()[0])
    Path("pos.json").write_text(json.dumps(g.position()))
    Path("game.jsonl").write_text(g.to_record())
    Path("g.json").write_text(g.to_json())
    Path("latin1.json").write_bytes(b"\xff\xfe{}")
    return g


def test_a_path_is_a_file_to_read(files):
    g = files
    assert daguai.replay(Path("game.jsonl")).position() == g.position()
    assert Game.from_record(Path("game.jsonl"), upto=2).phase == "play"
    assert len(daguai.read_record(Path("game.jsonl"))) == len(g.to_record().splitlines())
    assert Game.from_position(Path("pos.json")).position() == g.position()
    assert Game.from_json(Path("g.json")).position() == g.position()
    a = daguai.analyze(Path("pos.json"), rollouts=40, threads=1)
    assert a.seat == g.current_player and a.rollouts == daguai.analyze(g, rollouts=40).rollouts
    before = Game.from_record(g.to_record(), upto=2)
    assert daguai.analyze(Path("game.jsonl"), upto=2, rollouts=40).seat == before.current_player


@pytest.mark.parametrize("call, error", [
    (lambda p: daguai.replay(p), ReplayError),
    (lambda p: daguai.read_record(p), ReplayError),
    (lambda p: Game.from_position(p), PositionError),
    (lambda p: Game.from_json(p), ReplayError),
    (lambda p: daguai.analyze(p, rollouts=10), PositionError),
])
@pytest.mark.parametrize("name", ["game.jsonl", "pos.json", "missing.json", "sub/dir/file"])
def test_a_file_name_given_as_text_says_to_pass_a_path(files, call, error, name):
    with pytest.raises(error, match=r"looks like a file name; pass pathlib\.Path\("):
        call(name)


def test_text_that_is_no_file_name_is_still_just_not_json(files):
    with pytest.raises(ReplayError, match="not JSON") as info:
        daguai.replay("hello")
    assert "pathlib" not in str(info.value)


def test_a_path_that_is_not_a_file_is_refused_before_reading(files):
    os.mkfifo("fifo.json")
    with pytest.raises(PositionError, match="is a FIFO"):
        Game.from_position(Path("fifo.json"))  # opening a FIFO would block
    with pytest.raises(ReplayError, match="is a folder"):
        daguai.replay(Path("."))
    with pytest.raises(ReplayError, match="not UTF-8"):
        Game.from_json(Path("latin1.json"))
    with pytest.raises(FileNotFoundError):  # as open() does
        daguai.replay(Path("missing.jsonl"))
