"""The native perft tool (cpp/tools/perft.cpp, CMake option DAGUAI_TOOLS), built here with CMake
into a temporary directory:

- ``daguai_perft game SEED DEPTH``: the leaves of the game tree DEPTH actions below a seeded
  deal (R2, R8, R10; every legal action applied, passes included), with ``--divide`` per first
  action, equal to the same walk through the Python API (``Game.clone`` / ``legal_actions`` /
  ``step``) and to the counts pinned below;
- ``daguai_perft hand CARDS LEVEL``: the legal-play counts pinned in tests/plays/test_rules_perft.py (the
  oracle justifies them there), row by row;
- bad arguments exit 2 with one line on stderr.

``DAGUAI_PERFT_EXE=/path/to/daguai_perft`` uses a tool already built from this checkout
instead of building one (several minutes).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess

import pytest
import test_rules_perft
from cmake_helpers import cmake_exe
from daguai import Game, Rules

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

pytestmark = pytest.mark.slow

# (seed, depth, rules, start, leaves): every number is checked against the Python walk below
# (in full for depth <= 2, through a sample of the divide lines for deeper rows). Seed 2 with
# start="random" begins with three tribute pairs (R11): tribute, return, tribute, return.
GAME_PERFT = [
    (1, 1, {}, "fresh", 535),
    (1, 2, {}, "fresh", 155_977),
    (2, 2, {"wrap_straights": True}, "fresh", 520_880),
    (3, 1, {"wild": "declare"}, "fresh", 3_676),
    (5, 2, {"wild": "high"}, "random", 374_062),
    (2, 4, {}, "random", 1_587),
    (4, 3, {}, "fresh", 17_573_404),
]


@pytest.fixture(scope="module")
def perft_exe(tmp_path_factory) -> str:
    prebuilt = os.environ.get("DAGUAI_PERFT_EXE")  # a daguai_perft built from this checkout
    if prebuilt:
        return prebuilt
    if not os.path.exists(os.path.join(ROOT, "CMakeLists.txt")):
        pytest.skip("not a source checkout")
    cmake = cmake_exe("the perft tool")
    build = tmp_path_factory.mktemp("perft_build")
    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    _run(cmake, "-S", ROOT, "-B", str(build), *gen, "-DCMAKE_BUILD_TYPE=Release", "-DDAGUAI_TOOLS=ON")
    _run(cmake, "--build", str(build), "--target", "daguai_perft", "--parallel", "2")
    return str(build / "daguai_perft")


def _run(*args: str) -> str:
    p = subprocess.run(list(args), capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, f"{' '.join(args)}\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return p.stdout


def _rule_args(rd: dict) -> list[str]:
    out = []
    for k, v in rd.items():
        out += ["--rules", f"{k}={int(v) if isinstance(v, bool) else v}"]
    return out


def _divide(out: str) -> tuple[list[tuple[str, int]], int]:
    lines = out.strip().splitlines()
    assert lines[-1].startswith("leaves: ")
    rows = []
    for line in lines[:-1]:
        text, n = line.rsplit(": ", 1)
        rows.append((text, int(n)))
    return rows, int(lines[-1].split(": ")[1])


def action_text(a) -> str:
    """The tool's name of an action: "<type>[ <cards>][ <kind> <key>]"."""
    s = a.type
    if len(a.cards):
        s += f" {a.cards}"
    if a.type == "play":
        s += f" {a.play.kind.name.lower()} {a.play.key}"
    return s


def python_perft(g: Game, depth: int) -> int:
    """Leaves `depth` actions below g through the Python API (slow, obviously the definition)."""
    if depth == 0:
        return 1
    actions = g.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        child = g.clone()
        child.step(a)
        total += python_perft(child, depth - 1)
    return total


@pytest.mark.parametrize("seed, depth, rd, start, leaves", GAME_PERFT,
                         ids=[f"seed{r[0]}-d{r[1]}-{r[3]}-{'+'.join(r[2]) or 'auto'}" for r in GAME_PERFT])
def test_game_perft_equals_the_python_walk(perft_exe, seed, depth, rd, start, leaves):
    out = _run(perft_exe, "game", str(seed), str(depth), "--divide", "--start", start, *_rule_args(rd))
    rows, total = _divide(out)
    assert total == leaves  # pinned, like chess perft
    assert sum(n for _, n in rows) == total
    root = Game(seed=seed, rules=Rules(**rd), record=False, start=start)
    actions = root.legal_actions()
    # divide: one line per legal action, in legal_actions order
    assert [t for t, _ in rows] == [action_text(a) for a in actions]
    if depth <= 2:
        assert python_perft(root, depth) == leaves
        picks = range(len(actions))
    else:  # a sample of the first actions, each walked in full below
        picks = random.Random(seed).sample(range(len(actions)), min(12, len(actions)))
    for i in picks:
        child = root.clone()
        child.step(actions[i])
        assert rows[i][1] == python_perft(child, depth - 1), rows[i][0]
    # without --divide the tool prints the total only
    assert _run(perft_exe, "game", str(seed), str(depth), "--start", start,
                *_rule_args(rd)) == f"leaves: {leaves}\n"


# Rules the tool reads through the engine's variant table (every variant, not a list of its
# own): the count must be the Python walk's under the same rules (R18's table among them).
ENGINE_RULES = [
    {"table": "4p2d"},
    {"table": "4p2d", "wild": "declare"},
    {"tribute_pairing": "finish_order", "anti_tribute": True},
    {"dealer": "stay", "final_level": "5", "base": 3},
]


@pytest.mark.parametrize("rd", ENGINE_RULES,
                         ids=["+".join(f"{k}={v}" for k, v in r.items()) for r in ENGINE_RULES])
def test_game_perft_reads_every_rule_variant(perft_exe, rd):
    for start in ("fresh", "random"):
        out = _run(perft_exe, "game", "3", "2", "--start", start, *_rule_args(rd))
        root = Game(seed=3, rules=Rules(**rd), record=False, start=start)
        assert out == f"leaves: {python_perft(root, 2)}\n", (rd, start)


@pytest.mark.parametrize("hand, level, rd, top_text, top_kind, count", test_rules_perft.PERFT,
                         ids=[test_rules_perft._row_id(r) for r in test_rules_perft.PERFT])
def test_hand_perft_equals_the_pinned_counts(perft_exe, hand, level, rd, top_text, top_kind, count):
    args = [perft_exe, "hand", test_rules_perft.HANDS[hand], level, "--divide", *_rule_args(rd)]
    if top_text is not None:
        args += ["--top", top_text]
    rows, total = _divide(_run(*args))
    assert total == count
    assert sum(n for _, n in rows) == count
    assert [name for name, _ in rows] == ["singles", "pairs", "triples", "five_of_a_kind",
                                          "two_rank", "sequences", "flushes"]


@pytest.mark.parametrize("args, words", [
    ([], "usage"),
    (["game"], "usage"),
    (["game", "x", "1"], "SEED"),
    (["game", "1", "-1"], "DEPTH"),
    (["game", "1", "99"], "DEPTH"),
    (["game", "1", "1", "--rules", "wild=odd"], "wild"),
    (["game", "1", "1", "--rules", "nonsense=1"], "unknown rule"),
    (["game", "1", "1", "--rules", "final_level=Z"], "not a level"),
    (["game", "1", "1", "--rules", "base=0"], "base must be in"),
    (["game", "1", "1", "--bogus"], "unknown option"),
    (["game", "1", "1", "--start"], "needs a value"),
    (["hand", "3s 4s 1x", "2"], "1x"),
    (["hand", "3s", "Z"], "level"),
    (["hand", "3s 4s", "2", "--top", "3s 4h"], "not a play"),
])
def test_bad_arguments_exit_2_with_one_line(perft_exe, args, words):
    p = subprocess.run([perft_exe, *args], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2
    assert p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and words.lower() in lines[0].lower(), p.stderr
