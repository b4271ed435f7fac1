"""Instructions per engine operation, counted by callgrind: figures that do not drift.

Run:  python benchmarks/instructions.py [--out FILE] [--tiny]
                                        [--only NAME,...] [--jobs 1]

Wall-clock figures move with the machine's load; the number of instructions an operation
executes does not. Each figure is a difference of two runs under
``valgrind --tool=callgrind`` that do the same thing except for the amount of work:

* a round of a policy: ``daguai.simulate(n, policies=[policy] * 6, seed=2026, threads=1)``
  at n = 20 and n = 1,020 rounds, the difference divided by 1,000 (Python's start, the
  import and the simulation's set-up cancel);
* one operation: ``_core._testing.repeat_op`` (cpp/testing/work_loops.hpp), the operation
  repeated K times over fixed inputs minus the same inputs with 0 repetitions, divided by
  the number of operations done; the batch classify is ``classify_many`` on N rows minus 0
  rows of the same array. Both runs first do the operation once, so that tables the
  engine builds on first use are not counted as the operation's.

Without valgrind on the PATH the script says so and exits 0. The table is Markdown; with
``--out`` it is also written to that file. ``--tiny`` runs a few repetitions only (a check
of the script, not a measurement).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: Python run inside callgrind before every measurement's own lines.
PRELUDE = """
import numpy as np
from daguai import Rules, _core
from daguai._core import _testing
rules = Rules()._core
"""


@dataclass(frozen=True)
class Measure:
    """One row: `code` is formatted with {work} (the larger amount) or the smaller one;
    `ops` is the number of operations the difference stands for (None: read from the
    printed line ``OPS <n>`` of each run, whose difference is used)."""

    name: str
    code: str
    small: int
    large: int
    ops: int | None
    how: str


def _op(op: int, items: int, policy: str = "heuristic") -> str:
    # a first call, in both runs: tables built on first use (five-card classification, ...)
    # are then outside the difference
    warm = f"_testing.repeat_op({op}, rules, '2', 2026, 1, 1, '{policy}')\n"
    return warm + (
        f"n, _ = _testing.repeat_op({op}, rules, '2', 2026, {items}, {{work}}, '{policy}')\nprint('OPS', n)\n"
    )


def _rounds(policy: str) -> str:
    return f"_core.run.simulate(rules, 2026, {{work}}, ['{policy}'] * 6, False, 0, 1)\n"


_CLASSIFY_MANY = """
from daguai.bench import random_hands
from daguai.plays import classify_many, legal_plays_array, play_counts
rows = []
rng = np.random.default_rng(7)
for h in random_hands(200, seed=2026):
    a = legal_plays_array(h)
    a = a[a["size"] == 5]
    for c in play_counts(a[rng.choice(len(a), 10, replace=False)]):
        rows.append(np.repeat(np.arange(54, dtype=np.uint8), c))
faces = np.array(rows, dtype=np.uint8)
faces = np.tile(faces, (50, 1))
classify_many(faces[:1])  # tables built on first use: in both runs
classify_many(faces[:{work}])
"""

#: the same rows, each against a shuffled row: both classified, then compared (R7)
_BEATS_MANY = _CLASSIFY_MANY.replace(
    "classify_many(faces[:1])",
    "from daguai.plays import beats_many\nother = faces[np.random.default_rng(1).permutation(len(faces))]\n"
    "beats_many(faces[:1], other[:1])",
).replace("classify_many(faces[:{work}])", "beats_many(faces[:{work}], other[:{work}])")


#: a search's decision at seeded decision points (search_strength.decision_ms's draw: seeded
#: heuristic rounds stopped at a random decision with 2+ legal actions); both runs set up every
#: point and make the policy once (models loaded, tables built), the larger one decides at each
_SEARCH = """
import random
from daguai import Game
rng = random.Random(2031)
points, game = [], 0
while len(points) < {points}:
    g = Game(2031 + game)
    runners = {{s: _core.run.PolicyRunner("heuristic", 2031, game, s) for s in range(6)}}
    for _ in range(rng.randrange(0, 160)):
        if g.match_over or g.n_results:
            break
        g.step(runners[g.current_player].act(g))
    game += 1
    if not (g.match_over or g.n_results or len(g.legal_actions()) < 2):
        points.append((game, g))
_core.run.PolicyRunner("{policy}", 2031, 0, 0)
for game, g in points[:{{work}}]:
    _core.run.PolicyRunner("{policy}", 2031, game, g.current_player).act(g)
"""


def _network(kind: str, rounds: int) -> str:
    """A pass of the shipped learned network over heuristic-round decisions (its integer pass in
    the AVX2 copy: valgrind has no AVX-512)."""
    return (
        "from pathlib import Path\n"
        "import daguai\n"
        "model = Path(daguai.__file__).parent / 'models' / 'learned.dgn'\n"
        "net = _core.learned.Network.from_file(str(model))\n"
        "if 'avx2' in _testing.quantized_kernels():\n"
        "    _testing.set_quantized_kernel('avx2')\n"
        f"_testing.repeat_network(net, rules, 2026, {rounds}, 1, '{kind}')\n"
        f"n, _ = _testing.repeat_network(net, rules, 2026, {rounds}, {{work}}, '{kind}')\nprint('OPS', n)\n"
    )


def measures(tiny: bool) -> list[Measure]:
    """The rows of the table; ``tiny`` shrinks every amount of work (a check, not a figure)."""
    r = (2, 4) if tiny else (20, 1_020)
    rl = max(1, (r[1] - r[0]) // 5)  # rounds of the learned player
    k = (0, 1) if tiny else (0, 20)
    kc = (0, 2) if tiny else (0, 400)
    nc = (0, 100) if tiny else (0, 100_000)
    kn = (0, 1) if tiny else (0, 5)
    # the small operations repeat more: the Python process's own work moves a run's count by a
    # few hundred thousand instructions (its heap, hence its dicts' probes, differs with the
    # work done), which over 20 repetitions of 3 rounds was up to 20 instructions an apply
    ka = (0, 1) if tiny else (0, 400)
    kd = (0, 1) if tiny else (0, 200)
    ks = (0, 1) if tiny else (0, 30)

    def rounds(p: str) -> Measure:
        return Measure(
            f"a round, {p} x6",
            _rounds(p),
            r[0],
            r[1],
            r[1] - r[0],
            f"simulate, n = {r[1]:,} minus n = {r[0]}",
        )

    def op(
        name: str, code: int, items: int, kk: tuple[int, int], what: str, policy: str = "heuristic"
    ) -> Measure:
        return Measure(
            name,
            _op(code, items, policy),
            kk[0],
            kk[1],
            None,
            f"repeat_op({code}), {items} {what} x {kk[1]} minus x 0",
        )

    return [
        op("all legal leads, 27-card hand (written)", 0, 20, k, "hands"),
        op("follow set, random legal 5-card top", 1, 20, k, "hands"),
        op("count_plays at a lead, 27-card hand", 2, 20, k, "hands"),
        op("classify a legal 5-card play (single)", 3, 200, kc, "plays"),
        Measure(
            "classify a legal 5-card play (classify_many, per play)",
            _CLASSIFY_MANY,
            nc[0],
            nc[1],
            nc[1] - nc[0],
            f"classify_many, {nc[1]:,} rows minus 0",
        ),
        Measure(
            "classify + compare a pair of legal 5-card plays (beats_many, per pair)",
            _BEATS_MANY,
            nc[0],
            nc[1],
            nc[1] - nc[0],
            f"beats_many, {nc[1]:,} row pairs minus 0",
        ),
        op("apply an action (recording off)", 4, 3, ka, "random rounds"),
        op("apply an action (recording on)", 6, 3, ka, "random rounds"),
        rounds("random"),
        rounds("greedy"),
        rounds("heuristic"),
        # a learned round costs about 60 heuristic rounds: a fifth of the rounds
        Measure("a round, learned x6", _rounds("learned"), r[0], r[0] + rl, rl,
                f"simulate, n = {r[0] + rl:,} minus n = {r[0]}"),
        op("a heuristic decision (2+ legal actions)", 5, 3, kd, "heuristic rounds"),
        op("a learned decision (2+ legal actions)", 5, 3, k, "heuristic rounds", "learned"),
        Measure("learned float pass (a decision)", _network("float", 4), kn[0], kn[1], None,
                f"repeat_network, 4 heuristic rounds' decisions x {kn[1]} minus x 0"),
        Measure("learned integer pass (AVX2, a decision)", _network("integer", 4), kn[0], kn[1],
                None, f"repeat_network, 4 heuristic rounds' decisions x {kn[1]} minus x 0"),
        *(
            Measure(f"{article} {p} decision (default budget)", _SEARCH.format(points=ks[1], policy=p),
                    ks[0], ks[1], ks[1] - ks[0], f"{ks[1]} seeded decision points minus 0")
            for article, p in (("a", "pimc"), ("an", "expert"), ("an", "expert_net8"))
        ),
    ]


def callgrind_total(code: str, workdir: str) -> tuple[int, int | None]:
    """(instructions, printed OPS or None) of `code` run by Python under callgrind."""
    fd, out = tempfile.mkstemp(prefix="callgrind.", dir=workdir)
    os.close(fd)
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    cmd = [
        "valgrind",
        "--tool=callgrind",
        f"--callgrind-out-file={out}",
        sys.executable,
        "-c",
        PRELUDE + code,
    ]
    run = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if run.returncode != 0:
        raise RuntimeError(f"callgrind run failed ({run.returncode}):\n{run.stderr[-2000:]}")
    text = Path(out).read_text()
    m = re.search(r"^(?:summary|totals):\s+(\d+)", text, re.M)
    if m is None:
        raise RuntimeError(f"no total in {out}")
    ops = re.search(r"^OPS (\d+)$", run.stdout, re.M)
    return int(m.group(1)), int(ops.group(1)) if ops else None


def measure(m: Measure, workdir: str, pool: concurrent.futures.Executor) -> tuple[float, int]:
    """(instructions per operation, operations) of one row."""
    small = pool.submit(callgrind_total, m.code.replace("{work}", str(m.small)), workdir)
    large = pool.submit(callgrind_total, m.code.replace("{work}", str(m.large)), workdir)
    (i0, o0), (i1, o1) = small.result(), large.result()
    ops = m.ops if m.ops is not None else (o1 or 0) - (o0 or 0)
    if ops <= 0:
        raise RuntimeError(f"{m.name}: no operations counted")
    return (i1 - i0) / ops, ops


def build_text() -> str:
    """What was measured: the package version and, from a git checkout, the commit."""
    from daguai._core import __version__

    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        head = "no git"
    return f"daguai {__version__} ({head}), {platform.machine()}, Python {platform.python_version()}"


def table(rows: list[tuple[Measure, float, int]], tiny: bool) -> str:
    """The Markdown table of instructions per operation."""
    valgrind = subprocess.run(
        ["valgrind", "--version"], capture_output=True, text=True, check=False
    ).stdout.strip()
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"`python benchmarks/instructions.py{' --tiny' if tiny else ''}` — {build_text()}, "
        f"{valgrind}, {when}",
        "",
        "| operation | instructions | operations | difference of |",
        "|---|---:|---:|---|",
    ]
    for m, per, ops in rows:
        lines.append(f"| {m.name} | {per:,.0f} | {ops:,} | {m.how} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="also write the table to this file")
    ap.add_argument("--tiny", action="store_true", help="a few repetitions only (a check)")
    ap.add_argument("--only", help="comma-separated words: rows whose name contains one")
    ap.add_argument("--jobs", type=int, default=1, help="callgrind runs at a time (default 1)")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: no instruction counts (skipped)")
        return 0
    todo = measures(args.tiny)
    if args.only:
        words = [w.strip() for w in args.only.split(",") if w.strip()]
        todo = [m for m in todo if any(w in m.name for w in words)]
    rows = []
    with (
        tempfile.TemporaryDirectory() as workdir,
        concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool,
    ):
        for m in todo:
            per, ops = measure(m, workdir, pool)
            rows.append((m, per, ops))
            print(f"{m.name}: {per:,.0f}", file=sys.stderr, flush=True)
    text = table(rows, args.tiny)
    print(text, end="")
    if args.out:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
