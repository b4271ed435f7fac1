"""Bad inputs found by review and fuzzing, one test each, with the answer
docs/errors.md documents. Each failed before its fix (a crash, RuntimeError, RecursionError,
a pybind11 signature dump, a message without the argument or bounds, or a wrong card)."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import daguai
import numpy as np
import pytest
from daguai import CardError, Game, Hand, IllegalActionError, ReplayError, Rules, _core
from daguai.learn import BatchEnv

USES = {  # a zero-argument use of each bound class
    Game: lambda o: o.state.events(), _core.game.GameState: lambda o: o.phase, Hand: str,
    daguai.Play: lambda o: o.describe(), daguai.Action: repr, daguai.ActionList: len,
    _core.core.CoreRules: lambda o: o.wild, _core.run.BatchEnv: lambda o: o.candidates(),
    _core.run.PolicyRunner: lambda o: o.name,
}


@pytest.mark.parametrize("cls", list(USES), ids=lambda c: c.__name__)
def test_uninitialized_objects_are_unusable(cls):
    """Game.__new__(Game).events() segfaulted (when Game subclassed GameState); Play / Hand read
    garbage."""
    obj = cls.__new__(cls)
    with pytest.raises(TypeError, match="not initialized"):
        USES[cls](obj)


def test_uninitialized_game_python_side_is_unusable_too():
    """Found by the fuzz test: Game.__new__(Game).rules was AttributeError."""
    g = Game.__new__(Game)
    for use in (lambda: g.rules, lambda: g == Game(seed=1), lambda: g.titles(), lambda: g.clone()):
        with pytest.raises(TypeError, match="not initialized"):
            use()


def test_uninitialized_then_initialized_is_valid():
    """Game.clone() makes an instance with __new__ and then initializes it: still fine."""
    g = Game(seed=4)
    g.step(g.legal_actions()[0])
    assert g.clone() == g


@pytest.mark.parametrize("make", [
    lambda: Hand("\ud800"), lambda: Hand(["As", "\ud800"]), lambda: Hand.parse("As \udfff"),
    lambda: Hand("As").count("\ud800"), lambda: "\ud800" in Hand("As"),
    lambda: daguai.classify("As", "\ud800"), lambda: daguai.legal_plays("\ud800"),
    lambda: daguai.beats("As", "\ud800"), lambda: _core.core.parse_face("\ud800"),
    lambda: Game(seed=1).step("\ud800"),
])
def test_lone_surrogate_is_card_error(make):
    """Was RuntimeError: Unable to cast Python instance of type <class 'str'> to C++ type '?'."""
    with pytest.raises(CardError, match="lone surrogate"):
        make()


def test_lone_surrogate_inside_documents_is_replay_error():
    g = Game(seed=1)
    first = g.legal_actions()[0]
    g.step(first)
    doc = g.to_json().replace(str(first.cards), "\\ud800", 1)
    with pytest.raises(ReplayError, match="action 0: .*lone surrogate"):
        Game.from_json(doc)
    lines = g.to_record().splitlines()
    k = next(i for i, line in enumerate(lines) if str(first.cards) in line and '"deal"' not in line)
    lines[k] = lines[k].replace(str(first.cards), "\\ud800", 1)
    with pytest.raises(ReplayError, match=f"line {k + 1}: .*lone surrogate"):
        daguai.replay("\n".join(lines))


@pytest.mark.parametrize("reader", [Game.from_json, daguai.read_record, daguai.replay])
@pytest.mark.parametrize("text", ["[" * 100000, '{"a":' * 100000, b"[" * 100000])
def test_deep_nesting_is_replay_error(reader, text):
    """Was RecursionError from json."""
    if isinstance(text, bytes) and reader is not Game.from_json:
        text = text.decode()
    with pytest.raises(ReplayError, match="nested too deeply"):
        reader(text)


@pytest.mark.parametrize("call, match", [
    (lambda: Rules(max_rounds=2**31), r"Rules\.max_rounds must be an integer in \[0, 1073741824\]"),
    (lambda: Rules(base=2**21), r"Rules\.base must be an integer in \[1, 1048576\]"),
    (lambda: Rules(min_rounds=-1), r"Rules\.min_rounds must be an integer in \[0, 1073741824\]"),
    (lambda: daguai.learn.action_from_abstract(Game(seed=1), 2**31),
     r"abstract action id must be an integer in \[0, 443\], got 2147483648"),
    (lambda: daguai.simulate(1, threads=2**40), r"threads must be an integer in \[1, 1024\]"),
    (lambda: daguai.simulate(10**12), r"n must be an integer in \[0, 4294967295\]"),
    (lambda: daguai.evaluate("random", "random", 2**40), r"n_deals must be an integer in \[1, 4294967295\]"),
    (lambda: BatchEnv(2**40), r"BatchEnv needs n >= 1 environments, at most 1048576"),
    (lambda: Game(seed=1).hand(2**63), r"seat must be an integer in \[0, 5\]"),
    (lambda: Game(seed=1).forfeit(2**64), r"seat must be an integer in \[0, 5\]"),
    (lambda: Game(seed=1).state.events(2**64), r"start must be an integer"),
    (lambda: Hand("As").count(2**70), r"face must be an integer in \[0, 53\]"),
    (lambda: Hand.from_faces([2**64]), r"face id must be an integer in \[0, 53\]"),
    (lambda: Hand.from_bits(2**64, 0), r"not a 64-bit word"),
    (lambda: Hand.from_faces([np.array([[1, 2]])]), r"face id must be an integer in \[0, 53\]"),
    (lambda: Hand("As").count(np.array([48, 1])), r"face must be an integer in \[0, 53\]"),
    (lambda: _core.core.face_text(-1), r"face must be an integer in \[0, 53\]"),
])
def test_integers_beyond_c_ranges_name_argument_and_bounds(call, match):
    """Were pybind11 signature dumps (TypeError: incompatible function arguments ...)."""
    with pytest.raises(ValueError, match=match) as info:
        call()
    assert "incompatible" not in str(info.value) and "\n" not in str(info.value)


def test_core_rules_messages_name_the_public_argument():
    """Was 'CoreRules: base out of range' (an internal class, no bounds). The bounds are the
    rule table's [lo, hi] (the binding's own check said [0, hi], but base's
    lowest value is 1)."""
    with pytest.raises(CardError, match=r"Rules\.base must be in \[1, 1048576\], got 2097152"):
        _core.core.CoreRules(base=2**21)


def _cli(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    pkg = str(Path(daguai.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([pkg] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return subprocess.run([sys.executable, "-m", "daguai", *args], capture_output=True, text=True,
                          env=env, timeout=120, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("args, needle", [
    (["--threads", "99999999999"], "threads must be an integer in [1, 1024]"),
    (["--rounds", str(10**12)], "must be an integer in [0, 4294967295]"),
    (["--rules", "max_rounds=99999999999"], "Rules.max_rounds must be an integer in [0, 1073741824]"),
])
def test_cli_out_of_range_is_exit_2_and_one_line(args, needle):
    """Were 20-26 line tracebacks (and a MemoryError for --rounds 10**12)."""
    p = _cli("simulate", *args, "--quiet")
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith("daguai: error: ") and needle in lines[0]


@pytest.mark.parametrize("face", [np.int64(48), np.int32(48), np.uint8(48), np.int16(48)])
def test_numpy_integers_are_face_ids(face):
    """Hand.count(np.int64(48)) was RuntimeError; np.int64(48) in hand was CardError."""
    hand = Hand("As As 2s")  # face 48 is As
    assert _core.core.face_text(48) == "As"
    assert hand.count(face) == 2
    assert face in hand
    assert Hand("2s").count(face) == 0 and face not in Hand("2s")
    assert Rules(max_rounds=np.int64(7)).max_rounds == 7


def test_jokers_as_fourth_copy_names_the_card():
    """Was "declared cards 'Ah' must be ..." (As + As overflowed into the next face)."""
    declare = Rules(wild="declare")
    with pytest.raises(CardError, match=r"cannot stand for As: the play has 3 natural As") as info:
        daguai.classify("SJ As As As 7c", "2", declare, jokers_as="As")
    assert "Ah" not in str(info.value)
    assert daguai.classify("SJ As As As 7c", "2", declare, jokers_as="7c").describe() == "full house AAA77"


@pytest.mark.parametrize("protocol", [0, 1, 2, pickle.HIGHEST_PROTOCOL])
def test_unpicklable_objects_raise_instead_of_aborting(protocol):
    """Found by the fuzz test: pickle protocols 0/1 of Action, ActionList, CoreRules,
    GameState, BatchEnv and PolicyRunner reached pybind11's base type and aborted.
    PolicyRunner pickles (its stream goes along, through __reduce__), and so
    does BatchEnv (its decisions go along and are replayed: tests/learn/test_env_pickle.py)."""
    g = Game(seed=1)
    for obj in (g.legal_actions()[0], g.legal_actions(), Rules()._core,
                _core.game.GameState(Rules()._core, 1)):
        with pytest.raises(TypeError, match="cannot pickle"):
            pickle.dumps(obj, protocol)
    env = BatchEnv(1)._env
    assert pickle.loads(pickle.dumps(env, protocol)).observe()[0].tolist() == env.observe()[0].tolist()
    runner = _core.run.PolicyRunner("random", 1, 0, 0)
    assert pickle.loads(pickle.dumps(runner, protocol)).name == "random"
    assert pickle.loads(pickle.dumps(g, protocol)) == g  # Game pickles itself
    assert pickle.loads(pickle.dumps(Hand("As SJ"), protocol)) == Hand("As SJ")


def test_auto_pass_setter_rejects_non_bool_and_keeps_the_game():
    """Was a pybind11 signature dump."""
    g = Game(seed=1)
    with pytest.raises(IllegalActionError, match="auto_pass must be True or False"):
        g.auto_pass = "yes"
    assert g.auto_pass is False and g.state.n_events == 1
    g.auto_pass = np.bool_(True)
    assert g.auto_pass is True
