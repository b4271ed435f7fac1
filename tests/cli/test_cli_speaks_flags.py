"""The command line answers in its own words: flags, not Python keywords (``--line N``, not
``upto=N``; ``--any-model-rules``, not ``model_rules='any'``), files by what happened to them
("no such file: PATH", never ``[Errno 2]``), a file that is not a position by what it is,
"did you mean" for a misspelled command, policy or rule, and ``--rule help`` instead of the
list of rules at the end of every help."""

from __future__ import annotations

import json
import os
from pathlib import Path

import daguai
import pytest
from daguai.cli import main

MODEL_4P2D = str(Path(daguai.__file__).parent / "models" / "learned_4p2d.dgn")


def error_of(capsys, *argv: str) -> str:
    """The one error line of ``daguai ARGV`` (exit status 2)."""
    try:
        status = main(list(argv))
    except SystemExit as exc:  # argparse's own errors
        status = exc.code
    err = capsys.readouterr().err
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("daguai: error: "), err
    assert "Errno" not in err and "Traceback" not in err
    return lines[0]


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    g = daguai.Game(seed=3)
    g.step(g.legal_actions()[0])
    Path("pos.json").write_text(json.dumps(g.position()))
    Path("game.jsonl").write_text(g.to_record())
    Path("table.csv").write_text("seat,cards\n0,3s 4h\n")
    Path("empty.json").write_text("")
    return tmp_path


def test_analyze_names_the_flags_not_the_keywords(capsys, files):
    line = error_of(capsys, "analyze", "game.jsonl")
    assert "--line N" in line and "upto" not in line
    line = error_of(capsys, "analyze", "game.jsonl", "--line", "99")
    assert line.startswith("daguai: error: --line 99 is past") and "upto" not in line
    assert "--threads must be an integer in [1, 256]" in error_of(capsys, "analyze", "pos.json",
                                                                  "--threads", "300")
    assert "--rollouts must be an integer" in error_of(capsys, "analyze", "pos.json", "--rollouts",
                                                       "99999999")
    many = ["pass"] * 200  # more than the legal actions: refused before any is read
    assert "--plays must name 1 to" in error_of(capsys, "analyze", "pos.json", "--plays", *many)
    assert "bad card '9z'" in error_of(capsys, "analyze", "pos.json", "--plays", "9z")


def test_analyze_races_the_plays_asked_for(capsys, files):
    g = daguai.Game(seed=3)
    g.step(g.legal_actions()[0])
    a, b = (str(x) for x in g.legal_actions()[:2])
    assert main(["analyze", "pos.json", "--plays", a, b, "--rollouts", "200", "--json", "-q"]) == 0
    doc = json.loads(capsys.readouterr().out)
    plays = [p for gr in doc["groups"] for p in gr["plays"]]
    assert a in plays and b in plays and 1 <= len(doc["groups"]) <= 2 and doc["rollouts"] <= 200


def test_a_model_for_other_rules_names_the_flag(capsys, files):
    line = error_of(capsys, "simulate", "--rounds", "2", "--policy-a", MODEL_4P2D)
    assert "--any-model-rules" in line and "model_rules" not in line
    assert "--rule table=4p2d" in line and "Rules(" not in line


def test_files_are_named_by_what_happened_to_them(capsys, files):
    assert error_of(capsys, "analyze", "missing.json") == "daguai: error: no such file: missing.json"
    line = error_of(capsys, "analyze", "table.csv")
    assert "table.csv: not a position JSON file (it looks like CSV)" in line
    assert "inconsistent position" not in line
    assert "empty.json: not a position JSON file (it is empty)" in error_of(capsys, "analyze", "empty.json")
    assert "is a folder" in error_of(capsys, "analyze", ".")
    os.mkfifo("fifo.json")
    assert "is a FIFO" in error_of(capsys, "analyze", "fifo.json")  # never opened: no hang


def test_did_you_mean_for_a_command_a_policy_and_a_rule(capsys):
    line = error_of(capsys, "simulat")
    assert "invalid choice: 'simulat' (did you mean 'simulate'?) (choose from" in line
    assert "did you mean 'heuristic'?" in error_of(capsys, "simulate", "--policy-a", "heurstic")
    assert "did you mean 'greedy'?" in error_of(capsys, "ladder", "greedyy", "random")
    assert "did you mean 'table'?" in error_of(capsys, "simulate", "--rule", "tabel=4p2d")
    assert "did you mean" not in error_of(capsys, "simulate", "--policy-a", "zzzzzz")


@pytest.mark.parametrize("command", ["simulate", "evaluate", "train", "gate", "ladder"])
def test_help_ends_with_one_line_about_the_rules(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    tail = out[out.rindex("rules: --rule"):]
    assert "--rule help" in tail and "daguai rules" in tail and len(tail.splitlines()) <= 3
    assert "wrap_straights" not in out  # the list is --rule help's
    with pytest.raises(SystemExit) as exit_:
        main([command, "--rule", "help"])  # before the command's required arguments
    assert exit_.value.code == 0
    listing = capsys.readouterr().out
    assert "wrap_straights" in listing and "(default auto)" in listing


def test_schema_errors_over_http_are_words_not_python():
    pytest.importorskip("jsonschema")
    from daguai.server.messages import schema_error

    line = schema_error("create_table", {"seats": [{"kind": "remote"}]})
    assert line == "seats: must have at least 4 entries, got 1 (schema create_table)"
    assert "'kind'" not in line and "too short" not in line
    line = schema_error("create_table", {"seats": [{"kind": "remot"}] * 6})
    assert 'must be one of "human", "bot", "remote"' in line and "['" not in line
    assert schema_error("create_table", {"seats": "x"}).startswith("seats: must be of type array, got text")
    assert schema_error("create_table", {}).startswith('missing the field "seats"')
    line = schema_error("client_act", {"type": "act"})
    assert "{'type'" not in line and "not valid under any" not in line
