"""The model-rules refusal at the doors it missed (R18): ``daguai.analyze(game, policy=M)``,
``daguai analyze FILE --policy M`` and ``daguai.bots.Bot(M)(game, seat)`` played a 6p3d model at
the 4p2d table; they refuse it like simulate, evaluate and the environments do, unless
``model_rules="any"`` / ``--any-model-rules``."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import daguai
import pytest
from daguai import Game, Rules, _core
from daguai.bots import Bot

MODELS = Path(daguai.__file__).parent / "models"
SIX = str(MODELS / "learned.dgn")  # trained at 6p3d
FOUR_MODEL = str(MODELS / "learned_4p2d.dgn")  # trained at 4p2d
FOUR = Rules(table="4p2d")
REFUSED = r"trained for .*6p3d.*not for this game's Rules\(table='4p2d'\)"


def test_analyze_refuses_a_model_of_other_rules_as_its_rollout_policy():
    g = Game(1, FOUR)
    with pytest.raises(_core.learned.ModelError, match=REFUSED):
        daguai.analyze(g, policy=SIX, rollouts=4)
    assert daguai.analyze(g, policy=SIX, rollouts=4, model_rules="any").groups
    assert daguai.analyze(Game(1), policy=SIX, rollouts=4).groups  # its own table
    with pytest.raises(ValueError, match="model_rules must be 'same' or 'any'"):
        daguai.analyze(g, policy=SIX, rollouts=4, model_rules="all")


def test_daguai_analyze_refuses_in_one_line_and_has_any_model_rules(tmp_path):
    pos = tmp_path / "pos4.json"
    pos.write_text(json.dumps(Game(1, FOUR).position()))
    cmd = [sys.executable, "-m", "daguai", "analyze", str(pos), "--policy", SIX, "--rollouts", "4", "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr
    # the command line's words (cli/messages.py): the game's rules as its --rule flags
    assert "not for this game's --rule table=4p2d" in p.stderr and "--any-model-rules" in p.stderr
    p = subprocess.run(cmd + ["--any-model-rules"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "best" in p.stdout.lower(), p.stderr


def test_a_bot_of_a_model_file_refuses_a_game_of_other_rules():
    g = Game(1, FOUR)
    bot = Bot(SIX)
    with pytest.raises(_core.learned.ModelError, match=REFUSED):
        bot(g, g.current_player)
    assert Bot(SIX, model_rules="any")(g, g.current_player) in g.legal_actions()
    assert Bot(FOUR_MODEL)(g, g.current_player) in g.legal_actions()
    six_game = Game(1)
    assert bot(six_game, six_game.current_player) in six_game.legal_actions()
    with pytest.raises(ValueError, match="model_rules must be 'same' or 'any'"):
        Bot(SIX, model_rules=None)  # type: ignore[arg-type]
    copy = pickle.loads(pickle.dumps(Bot(SIX, model_rules="any")))
    assert copy.model_rules == "any" and copy(g, g.current_player) in g.legal_actions()
