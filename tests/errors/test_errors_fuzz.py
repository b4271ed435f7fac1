"""Fuzz every public entry point: only the project's documented errors may escape.

Each case calls one function of ``daguai.__all__`` or one public method of Game, Hand, Play,
Action, BatchEnv or Rules with junk: wrong types, ints beyond every C range, numpy scalars,
lone surrogates, JSON nested 100 000 deep, nested lists and dicts, and real objects in the
wrong place. The call may succeed or raise; what it raises must be documented
(docs/errors.md): a ``ValueError`` (CardError, IllegalPlayError, IllegalActionError,
ReplayError or the Python face's own), an ``IndexError`` from sequence indexing, a
``MemoryError`` when a valid count asks for more than the machine has, or one of
Python's own ``TypeError`` s for operators between unrelated types. pybind11's raw messages
("incompatible function arguments" with a signature dump, "Unable to cast") and
``RuntimeError`` (``RecursionError`` included) are failures. A game that refuses a
decision must be left unchanged.

The number of examples per case is small in CI; set ``DAGUAI_FUZZ=long`` (2000 per case)
or ``DAGUAI_FUZZ_EXAMPLES=N`` for a longer local run (docs/development.md).
"""

from __future__ import annotations

import inspect
import os
import re
from collections.abc import Callable
from typing import Any

import daguai
import numpy as np
import pytest
from daguai import Game, Hand, Rules
from daguai.learn import BatchEnv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

settings.register_profile(
    "daguai-fuzz-ci", max_examples=20, deadline=None, derandomize=True, database=None,
    suppress_health_check=list(HealthCheck))
settings.register_profile(
    "daguai-fuzz-long", max_examples=2000, deadline=None, database=None,
    suppress_health_check=list(HealthCheck))
_PROFILE = settings.get_profile(
    "daguai-fuzz-long" if os.environ.get("DAGUAI_FUZZ") == "long" else "daguai-fuzz-ci")
if os.environ.get("DAGUAI_FUZZ_EXAMPLES"):
    _PROFILE = settings(_PROFILE, max_examples=int(os.environ["DAGUAI_FUZZ_EXAMPLES"]))

# ---- junk --------------------------------------------------------------------------------
_GAME0 = Game(seed=0)
_OBJECTS: list[Any] = [
    Hand("As Ah"), Hand(), daguai.classify("7s 7h"), daguai.classify("SJ BJ"),
    _GAME0.legal_actions()[0], Rules(), Rules(wild="declare"), daguai.Kind.PAIR, object(),
    np.zeros(3), np.array([[1, 2], [3, 4]]), np.zeros(0, dtype=daguai.PLAY_DTYPE),
    np.array(["As"]), 1.5j, range(3), print, Hand, type,
]
_deep: list[Any] = []
for _ in range(200):  # deep, yet within what repr() itself can print
    _deep = [_deep]
_OBJECTS.append(_deep)

_TEXT = st.sampled_from([
    "\ud800", "As \udfff", "\udc00\ud800", "As", "As Ah", "As As As As", "SJ BJ", "SJ SJ SJ SJ",
    "3h 4s 5d 6c 7h", "SJ As As As", "pass", "anti_tribute", "2", "T", "10", "A", "Z", "declare",
    "random", "heuristic", "greedy", "000", "[" * 100000, '{"a":' * 3000, "", " ", "\x00",
    "♠A", "As,Ah", "1e400",
])
_HUGE = st.one_of(st.integers(min_value=2**40, max_value=2**80),
                  st.integers(min_value=-2**80, max_value=-2**40),
                  st.sampled_from([2**31, 2**32, 2**63, 2**64, -2**31 - 1, -2**63 - 1, 10**12]))
_NUMPY = st.one_of(
    st.integers(-2**63, 2**63 - 1).map(np.int64), st.integers(0, 2**64 - 1).map(np.uint64),
    st.integers(-128, 127).map(np.int8), st.floats(width=32).map(np.float32),
    st.booleans().map(np.bool_))
_NOT_INT = st.one_of(st.none(), st.floats(allow_nan=True), st.text(max_size=6), _TEXT,
                     st.binary(max_size=4), st.sampled_from(_OBJECTS), st.floats(width=32).map(np.float32))
_SCALAR = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 60), _HUGE, st.floats(allow_nan=True),
    st.text(max_size=12), _TEXT, st.binary(max_size=6), _NUMPY, st.sampled_from(_OBJECTS))
JUNK = st.recursive(
    _SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                                     st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=8)
# counts that say how much work to do: small, absurd, or not integers at all
# (absurd = beyond every documented bound: a count within bounds is work, not bad input)
COUNT = st.one_of(st.integers(-2, 3), st.integers(min_value=2**33, max_value=2**80),
                  st.integers(max_value=-2**31, min_value=-2**80), st.sampled_from([2**64, -2**63]),
                  st.integers(-3, 3).map(np.int64), _NOT_INT)
RULES = st.one_of(st.none(), st.just(Rules()), st.just(Rules(wild="declare", wrap_straights=True)),
                  JUNK)
LEVEL = st.one_of(st.sampled_from(["2", "T", "A", "10"]), JUNK)
NAMES = Rules.names()


def _junk_policy(value: Any) -> Callable[[Any, int], Any]:
    return lambda game, seat: value


POLICY = st.one_of(st.sampled_from(["random", "greedy", "heuristic"]), JUNK,
                   JUNK.map(_junk_policy))

# ---- the cases -----------------------------------------------------------------------------
Draw = Callable[[Any], Any]
CASES: dict[str, Callable[[Draw], Any]] = {}


def case(name: str) -> Callable[[Callable[[Draw], Any]], Callable[[Draw], Any]]:
    def register(fn: Callable[[Draw], Any]) -> Callable[[Draw], Any]:
        CASES[name] = fn
        return fn
    return register


def _fresh_game(d: Draw) -> Game:
    g = Game(seed=d(st.integers(0, 5)), rules=d(st.sampled_from([Rules(), Rules(wild="declare")])),
             auto_pass=d(st.booleans()))
    for _ in range(d(st.integers(0, 40))):
        if g.match_over:
            break
        g.step(g.legal_actions()[0])
    return g


# module functions (daguai.__all__)
for _fn in ("classify", "interpretations", "legal_plays", "legal_plays_array", "min_plays"):
    @case(_fn)
    def _cards_level_rules(d: Draw, _name: str = _fn) -> Any:
        fn = getattr(daguai, _name)
        args = [d(JUNK), d(LEVEL)]
        if _name in ("legal_plays", "legal_plays_array"):
            args.append(d(JUNK))  # top
        if _name == "min_plays":
            return fn(*args, rules=d(RULES))
        args.append(d(RULES))
        if _name == "classify":
            args.append(d(JUNK))  # jokers_as
        return fn(*args)

for _fn in ("beats", "compare"):
    @case(_fn)
    def _two_plays(d: Draw, _name: str = _fn) -> Any:
        return getattr(daguai, _name)(d(JUNK), d(JUNK), d(LEVEL), d(RULES))


for _fn in ("count_plays", "count_plays_by_family"):
    @case(_fn)
    def _count(d: Draw, _name: str = _fn) -> Any:
        return getattr(daguai, _name)(d(JUNK), d(LEVEL), d(JUNK), d(RULES))


@case("play_at")
def _play_at(d: Draw) -> Any:
    return daguai.play_at(d(JUNK), d(JUNK), d(LEVEL), d(JUNK), d(RULES))


@case("sample_play")
def _sample_play(d: Draw) -> Any:
    rng = daguai.Rng(d(st.integers(0, 9))) if d(st.booleans()) else d(JUNK)
    return daguai.sample_play(d(JUNK), rng, d(LEVEL), d(JUNK), d(RULES))


@case("Rng")
def _rng(d: Draw) -> Any:
    return daguai.Rng(d(JUNK))


@case("LegalPlays")
def _legal_plays_seq(d: Draw) -> Any:
    seq = daguai.legal_plays(d(st.sampled_from(["3s 3h 4d SJ", "As Ah Ad Ac BJ", ""])), "2")
    return seq[d(JUNK)]


@case("sample_worlds")
def _sample_worlds(d: Draw) -> Any:
    g = _fresh_game(d)
    view = g.view(g.current_player) if not g.match_over and d(st.booleans()) else d(JUNK)
    return daguai.sample_worlds(view, d(st.one_of(st.integers(-3, 3), JUNK)), d(JUNK))


@case("analyze")
def _analyze(d: Draw) -> Any:
    source = _fresh_game(d) if d(st.booleans()) else d(JUNK)
    return daguai.analyze(source, upto=d(st.one_of(st.none(), st.integers(-2, 5), JUNK)),
                          rollouts=d(st.one_of(st.none(), st.integers(-1, 30), JUNK)),
                          time=d(st.one_of(st.none(), JUNK)),
                          threads=d(st.one_of(st.integers(-1, 2), JUNK)),
                          policy=d(st.one_of(st.just("random"), JUNK)), seed=d(JUNK))


@case("pettingzoo_env")
def _pettingzoo_env(d: Draw) -> Any:
    pytest.importorskip("pettingzoo")
    return daguai.learn.pettingzoo_env(rules=d(JUNK))


@case("check_play")
def _check_play(d: Draw) -> Any:
    return daguai.check_play(d(JUNK), d(JUNK), d(LEVEL), d(JUNK), d(RULES))


@case("classify_many")
def _classify_many(d: Draw) -> Any:
    return daguai.classify_many(d(JUNK), d(LEVEL), d(RULES))


@case("beats_many")
def _beats_many(d: Draw) -> Any:
    return daguai.beats_many(d(JUNK), d(JUNK), d(LEVEL), d(RULES))


for _fn in ("play_counts", "plays_from_array", "plays_to_array", "read_record", "replay"):
    @case(_fn)
    def _one_arg(d: Draw, _name: str = _fn) -> Any:
        return getattr(daguai, _name)(d(JUNK))


@case("replay.document")
def _replay_document(d: Draw) -> Any:
    """A real record with one entry's field replaced by junk."""
    g = Game(seed=1)
    g.step(g.legal_actions()[0])
    lines = list(g.record_lines())
    i = d(st.integers(0, len(lines) - 1))
    key = d(st.sampled_from(sorted(lines[i])))
    lines[i] = {**lines[i], key: d(JUNK)}
    return daguai.replay(lines)


@case("Game.from_json.document")
def _from_json_document(d: Draw) -> Any:
    import json
    g = Game(seed=2)
    g.step(g.legal_actions()[0])
    doc = json.loads(g.to_json())
    where = d(st.sampled_from(["rules", "seed", "game", "auto_pass", "actions", "action"]))
    if where == "rules":
        doc["rules"] = {**doc["rules"], d(st.sampled_from(NAMES)): d(JUNK)}
    elif where == "action" and doc["actions"]:
        doc["actions"][0] = [doc["actions"][0][0], doc["actions"][0][1], d(JUNK)]
    else:
        doc[where] = d(JUNK)
    return Game.from_json(json.dumps(doc, default=repr))  # bytes, objects: their repr


@case("title")
def _title(d: Draw) -> Any:
    return daguai.title(d(JUNK), d(st.one_of(st.just("000"), JUNK)))


@case("review")
def _review(d: Draw) -> Any:
    """A short real record (a few decisions) with junk seats, rounds, budgets and policies."""
    g = Game(seed=2)
    for _ in range(4):
        g.step(g.legal_actions()[0])
    record = d(st.one_of(st.just(list(g.record_lines())), JUNK))
    return daguai.review(record, d(st.one_of(st.integers(-2, 7), JUNK)),
                         rounds=d(st.one_of(st.none(), st.just([0]), JUNK)),
                         rollouts=d(st.one_of(st.integers(-3, 4), JUNK)),
                         policy=d(st.one_of(st.sampled_from(["heuristic", "random", "pimc", "nope"]), JUNK)),
                         seed=d(st.one_of(st.integers(0, 3), JUNK)))


@case("rules_text")
def _rules_text(d: Draw) -> Any:
    topic = st.one_of(st.none(), st.sampled_from(["R1", "r18", "11", "R0", "R19", "variants", "encodings"]),
                      JUNK)
    return daguai.rules_text(d(topic), lang=d(st.one_of(st.sampled_from(["en", "zh", "fr"]), JUNK)))


for _fn in ("encode_observation", "abstract_mask", "encode_candidates", "action_from_abstract",
            "abstract_id"):
    @case(_fn)
    def _learning(d: Draw, _name: str = _fn) -> Any:
        fn = getattr(daguai.learn, _name)
        game = d(st.one_of(st.just(None), JUNK)) if d(st.booleans()) else _fresh_game(d)
        if _name == "abstract_id":
            return fn(d(st.one_of(st.sampled_from(_OBJECTS), JUNK)), d(st.one_of(st.none(), LEVEL)))
        if _name in ("abstract_mask", "encode_candidates"):
            return fn(game)
        return fn(game, d(JUNK))


@case("simulate")
def _simulate(d: Draw) -> Any:
    kw = {k: d(v) for k, v in {
        "seed": JUNK, "rules": RULES, "matches": st.booleans(), "threads": COUNT,
        "batch": COUNT, "backend": st.one_of(st.just("local"), JUNK), "auto_pass": JUNK,
    }.items() if d(st.booleans())}
    policies = d(st.one_of(st.lists(POLICY, max_size=7), POLICY))
    return daguai.simulate(d(COUNT), policies, **kw)


@case("evaluate")
def _evaluate(d: Draw) -> Any:
    return daguai.evaluate(d(POLICY), d(POLICY), d(COUNT), seed=d(st.one_of(st.just(0), JUNK)),
                           rules=d(RULES), threads=d(st.one_of(st.none(), COUNT)))


@case("obs_spec")
def _obs_spec(d: Draw) -> Any:
    return daguai.learn.obs_spec(), daguai.learn.obs_meanings()


# classes: construction
@case("Hand")
def _hand(d: Draw) -> Any:
    return Hand(d(JUNK))


@case("Hand.static")
def _hand_static(d: Draw) -> Any:
    which = d(st.sampled_from(["parse", "from_counts", "from_faces", "from_bits"]))
    if which == "from_bits":
        return Hand.from_bits(d(JUNK), d(JUNK))
    return getattr(Hand, which)(d(JUNK))


@case("Rules")
def _rules(d: Draw) -> Any:
    kw = {d(st.sampled_from(NAMES + ("bogus",))): d(JUNK) for _ in range(d(st.integers(1, 3)))}
    which = d(st.sampled_from(["init", "replace", "from_dict"]))
    if which == "init":
        return Rules(**kw)
    if which == "replace":
        return Rules().replace(**kw)
    return Rules.from_dict(d(st.one_of(st.just(kw), JUNK)))


@case("Game")
def _game(d: Draw) -> Any:
    return Game(d(JUNK), d(RULES), auto_pass=d(JUNK), game=d(st.one_of(st.just(0), JUNK)),
                record=d(JUNK))


@case("BatchEnv")
def _batch_env(d: Draw) -> Any:
    return BatchEnv(d(COUNT), d(RULES), d(st.one_of(st.just(0), JUNK)),
                    matches=d(JUNK), auto_pass=d(JUNK), abstract=d(JUNK))


@case("no constructor")
def _no_constructor(d: Draw) -> Any:
    cls = d(st.sampled_from([daguai.Play, daguai.Action, daguai.ActionList]))
    return cls(*d(st.lists(JUNK, max_size=2)))


@case("uninitialized")
def _uninitialized(d: Draw) -> Any:
    """Objects made with __new__ and no __init__ are unusable (TypeError), never garbage."""
    cls = d(st.sampled_from([Game, daguai._core.game.GameState, Hand, daguai.Play, daguai.Action,
                             daguai.ActionList, daguai._core.core.CoreRules, daguai._core.run.BatchEnv,
                             daguai._core.run.PolicyRunner]))
    obj = cls.__new__(cls)
    names = [n for n in dir(cls) if not n.startswith(("__", "_pybind11")) or n in (
        "__str__", "__repr__", "__len__", "__iter__", "__hash__", "__reduce__", "__bool__")]
    name = d(st.sampled_from(sorted(names)))
    return _call_junk(d, obj, name)  # properties raise in getattr


# classes: public methods with junk arguments
def _methods(cls: type) -> list[str]:
    return sorted(n for n, _ in inspect.getmembers(cls) if not n.startswith("_"))


_DUNDERS = ["__contains__", "__eq__", "__ne__", "__add__", "__sub__", "__le__", "__lt__",
            "__ge__", "__gt__"]


def _split_params(text: str) -> list[str]:
    """Parameters of a pybind11 signature line, split at top-level commas."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "[(" and 1 or (ch in "])" and -1 or 0)
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return out + ([cur.strip()] if cur.strip() else [])


def _arity(fn: Any) -> tuple[int, int]:
    """(required, total) positional parameters: a call of the right shape (a wrong one is
    Python's own TypeError, not a bad value)."""
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        return sum(p.default is p.empty for p in params), len(params)
    except (TypeError, ValueError):  # a pybind11 function: its docstring's first line
        m = re.match(r"\w+\((.*)\) ->", (fn.__doc__ or "").splitlines()[0] if fn.__doc__ else "")
        params = [p for p in _split_params(m.group(1)) if not p.startswith("self")] if m else []
        params = [p for p in params if p not in ("*", "/")]
        return sum("=" not in p for p in params), len(params)


def _call_junk(d: Draw, obj: Any, name: str) -> Any:
    attr = getattr(obj, name)
    if not callable(attr):
        return attr
    low, high = _arity(attr)
    return attr(*d(st.lists(JUNK, min_size=low, max_size=high)))


for _cls, _make in ((Hand, lambda d: d(st.sampled_from([Hand("As As Ah SJ 7c"), Hand()]))),
                    (daguai.Play, lambda d: d(st.sampled_from(_OBJECTS[2:4]))),
                    (daguai.Action, lambda d: _fresh_game(d).legal_actions()[0]),
                    (Rules, lambda d: Rules())):
    @case(f"{_cls.__name__}.methods")
    def _value_methods(d: Draw, _cls: type = _cls, _make: Any = _make) -> Any:
        name = d(st.sampled_from(_methods(_cls) + [n for n in _DUNDERS if hasattr(_cls, n)]))
        if name.startswith("__"):
            return getattr(_make(d), name)(d(JUNK))
        return _call_junk(d, _make(d), name)


@case("Game.methods")
def _game_methods(d: Draw) -> Any:
    g = _fresh_game(d)
    before = g.to_json()
    name = d(st.sampled_from(_methods(Game) + ["auto_pass="]))
    try:
        if name == "auto_pass=":
            g.auto_pass = d(JUNK)
            return None
        return _call_junk(d, g, name)
    except Exception:
        assert g.to_json() == before, f"Game.{name} raised but changed the game"
        raise


@case("BatchEnv.methods")
def _batch_env_methods(d: Draw) -> Any:
    env = BatchEnv(d(st.integers(1, 3)), seed=d(st.integers(0, 3)), abstract=d(st.booleans()))
    env.reset()
    name = d(st.sampled_from(_methods(BatchEnv)))
    if name == "step" and d(st.booleans()):  # arrays of the right shape, junk values
        values = d(st.lists(st.one_of(st.integers(-2**70, 2**70), st.floats()), min_size=env.n,
                            max_size=env.n))
        dtype = d(st.sampled_from([object, np.int64, np.uint64, np.int8, np.float64]))
        try:
            arr = np.array(values, dtype=dtype)
        except (OverflowError, ValueError):
            arr = np.array(values, dtype=object)
        return env.step(arr)
    return _call_junk(d, env, name)


# ---- the checks --------------------------------------------------------------------------
_PYBIND_RAW = re.compile(r"incompatible (function|constructor) arguments|Unable to cast|"
                         r"SupportsInt|The following argument types are supported")
_PYTHON_TYPE_ERRORS = re.compile(r"not supported between instances of|is not initialized|cannot pickle|"
                                 r"No constructor defined")


def documented(exc: BaseException) -> bool:
    """Whether an exception is one docs/errors.md lists for bad input."""
    message = str(exc)
    if _PYBIND_RAW.search(message) or isinstance(exc, RuntimeError):
        return False
    if isinstance(exc, ValueError):
        return bool(message.strip())
    if isinstance(exc, (IndexError, MemoryError)):  # MemoryError: more than the machine has
        return True
    return isinstance(exc, TypeError) and bool(_PYTHON_TYPE_ERRORS.search(message))


#: The entry points of daguai.learn's environments and encoders (the rest needs PyTorch).
LEARN_ENTRY_POINTS = ("BatchEnv", "abstract_id", "abstract_mask", "action_from_abstract",
                      "encode_candidates", "encode_observation", "obs_spec", "obs_meanings",
                      "pettingzoo_env")


def test_every_public_entry_point_is_fuzzed():
    """New entry points must get a case here (constants and exception types excepted)."""
    covered = {name.split(".")[0] for name in CASES}
    names = [(daguai, n) for n in daguai.__all__] + [(daguai.learn, n) for n in LEARN_ENTRY_POINTS]
    for module, name in names:
        obj = getattr(module, name)
        if not callable(obj) or (isinstance(obj, type) and issubclass(obj, BaseException)):
            continue
        if name in ("SimResult", "EvalResult", "Kind"):  # results and an enum: no input to parse
            continue
        if name in ("obs_meanings",):
            continue  # no arguments: called by the obs_spec case
        if name in ("Play", "Action", "ActionList"):
            assert "no constructor" in CASES
            continue
        assert name in covered, f"{module.__name__}.{name} has no fuzz case"


@pytest.mark.parametrize("name", sorted(CASES))
def test_only_documented_errors_escape(name):
    @_PROFILE
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        try:
            CASES[name](data.draw)
        except BaseException as exc:
            if not documented(exc):
                raise AssertionError(
                    f"{name}: undocumented {type(exc).__name__}: {str(exc)[:300]}") from exc

    run()
