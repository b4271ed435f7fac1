"""`analyze(worlds=)` and `daguai analyze --worlds`, the old name of the rollout budget, still
work (the Python keyword with a DeprecationWarning) and give the same analysis as
`rollouts=`."""

from __future__ import annotations

import json
import subprocess
import sys

import daguai
import pytest
from daguai import Game


def _game() -> Game:
    g = Game(seed=7)
    for _ in range(19):
        g.step(g.legal_actions()[0])
    return g


def test_worlds_is_the_old_name_of_rollouts():
    g = _game()
    with pytest.warns(DeprecationWarning, match="rollouts"):
        old = daguai.analyze(g, worlds=64)
    new = daguai.analyze(g, rollouts=64)
    assert old.rollouts == new.rollouts == 64
    assert [x.name for x in old.groups] == [x.name for x in new.groups]
    with pytest.raises(ValueError, match="rollouts= only"):
        daguai.analyze(g, worlds=64, rollouts=64)


def test_cli_worlds(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(_game().position()))
    outs = []
    for flag in ("--worlds", "--rollouts"):
        p = subprocess.run([sys.executable, "-m", "daguai", "analyze", str(path), flag, "64", "--json"],
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        outs.append(p.stdout)
    assert outs[0] == outs[1]
