"""Speed figures of the engine (``daguai bench``, ``benchmarks/core_speed.py``).

Core figures (issue "Core", "Speed, round two"): classification, comparison, legal plays,
counting and sampling plays without generating them all, and the lazy Python ``legal_plays``,
measured on random deals (fixed seed). Generation times are taken inside C++ (fastest of repeated calls per
hand, then the median over hands), so Python call overhead is excluded; the numpy figure is
the extra cost of the Python/numpy path over that C++ time, per play.

Rollout figures (issue "Monte Carlo"): rounds per second of ``_core.run.simulate`` with each
built-in policy on all six seats, one thread, and the speed-up of two threads over one.

Game figures (issue "Game"): clone timed inside C++ during random play, apply over the same
decisions applied again with nothing else in the loop (a clock read before and after each
run of decisions between round ends, not around each apply), and the Python random-play loop
(``legal_actions`` + ``step``) per decision. Learning figures (issue
"Learning"): ``BatchEnv.step`` per game-step at n = 256 and the PettingZoo AEC step.

All figures come from one run; the machine may be shared, so compare ratios within a run.
Each row is ``(what, measured, unit, target)`` with ``target`` NaN when there is none; a
target is an upper bound unless the unit is a rate (rounds/s, x), where it is a lower one.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence

import numpy as np

from . import _core
from ._core import _testing
from ._core.core import Hand
from .dgn import SHIPPED_MODELS
from .plays import beats_many, classify_many, legal_plays, legal_plays_array, play_counts, plays_from_array
from .rules import Rules

__all__ = ["random_hands", "random_tops", "best_of", "measure", "measure_game",
           "measure_learning", "measure_rollouts", "run", "format_rows", "header", "Row",
           "rows_as_dicts", "rows_table"]

Row = tuple[str, float, str, float]
NAN = float("nan")
DECK = [f for f in range(54) for _ in range(3)]


def random_hands(n: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    hands = []
    for _ in range(n):
        deck = DECK[:]
        rng.shuffle(deck)
        hands.append(Hand.from_faces(deck[:27]))
    return hands


def random_tops(hands: list[Hand], size: int, seed: int) -> list:
    """For each hand, a random play of `size` cards from another random 27-card hand."""
    rng = random.Random(seed)
    others = random_hands(len(hands), seed + 1)
    tops = []
    for other in others:
        rows = legal_plays_array(other)
        rows = rows[rows["size"] == size]
        tops.append(plays_from_array(rows[rng.randrange(len(rows)):][:1])[0])
    return tops


def best_of(fn: Callable[[], object], reps: int) -> float:
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def measure(n_hands: int = 400, batch_pairs: int = 1_000_000) -> list[Row]:
    """Core rows of (what, measured, unit, target)."""
    rules = Rules()
    hands = random_hands(n_hands, seed=2026)
    rows: list[Row] = []

    # classify + compare: random legal 5-card plays, as face-id rows
    rng = random.Random(7)
    fives = []
    for h in hands:
        a = legal_plays_array(h)
        a = a[a["size"] == 5]
        counts = play_counts(a[rng.sample(range(len(a)), min(40, len(a)))])
        for c in counts:
            fives.append(np.repeat(np.arange(54, dtype=np.uint8), c))
    faces = np.array(fives, dtype=np.uint8)
    faces = np.tile(faces, (max(1, batch_pairs // len(faces)), 1))
    other = faces[np.random.default_rng(1).permutation(len(faces))]
    t = best_of(lambda: classify_many(faces), 5)
    rows.append(("classify a random 5-card play (batch)", t / len(faces) * 1e9, "ns", 5.0))
    t = best_of(lambda: beats_many(faces, other), 5)
    rows.append(("classify both + compare, per pair (batch)", t / len(faces) * 1e9, "ns", 5.0 * 2))

    # all legal leads of a random 27-card hand, timed in C++
    ns, counts = _testing.time_play_op(0, hands, None, "2", rules._core, 20)
    rows.append((f"all legal leads, 27-card hand (median {int(np.median(counts))} plays, "
                 f"{counts.min()}-{counts.max()})", float(np.median(ns)) / 1000, "µs", 4.0))
    lead_ns_per_play = float(np.median(ns / counts))

    for size, target in ((1, 0.2), (2, 0.2), (3, 0.2), (5, 2.0)):
        tops = random_tops(hands, size, seed=size)
        ns_f, counts_f = _testing.time_play_op(0, hands, tops, "2", rules._core, 20)
        name = {1: "single", 2: "pair", 3: "triple", 5: "5-card"}[size]
        rows.append((f"follow set for a random {name} top (median {int(np.median(counts_f))} plays)",
                     float(np.median(ns_f)) / 1000, "µs", target))

    # count_plays / sample_play (count, one draw, generate only the drawn play), C++ timed
    ns_c, _ = _testing.time_play_op(1, hands, None, "2", rules._core, 20)
    rows.append(("count_plays, 27-card lead (no play written)", float(np.median(ns_c)) / 1000, "µs", 0.2))
    ns_s, _ = _testing.time_play_op(2, hands, None, "2", rules._core, 20)
    rows.append(("sample_play, 27-card lead (count + the drawn play)", float(np.median(ns_s)) / 1000, "µs",
                 NAN))
    tops5 = random_tops(hands, 5, seed=5)
    ns_s5, _ = _testing.time_play_op(2, hands, tops5, "2", rules._core, 20)
    rows.append(("sample_play, random 5-card top", float(np.median(ns_s5)) / 1000, "µs", NAN))
    ns_h5, _ = _testing.time_play_op(3, hands, tops5, "2", rules._core, 20)
    rows.append(("has_legal_follow, random 5-card top (stops at the first)", float(np.median(ns_h5)) / 1000,
                 "µs", NAN))

    # the whole Python legal_plays call (lazy: no Play object touched) over the C++ lead time
    ratios = []
    for h, c_ns in zip(hands[:200], ns[:200], strict=False):
        ratios.append(best_of(lambda h=h: legal_plays(h), 10) * 1e9 / c_ns)
    rows.append(("legal_plays from Python (lazy, untouched) ÷ C++ lead time", statistics.median(ratios),
                 "× C++", 3.0))

    # numpy path overhead per play: Python-side time of legal_plays_array minus C++ time
    extra = []
    for h, c_ns, n in zip(hands[:200], ns[:200], counts[:200], strict=False):
        t = best_of(lambda h=h: legal_plays_array(h), 10) * 1e9
        extra.append((t - c_ns) / n)
    rows.append(("numpy path extra over C++, per play", statistics.median(extra), "ns", 2.0))
    rows.append(("(for scale) C++ lead generation, per play", lead_ns_per_play, "ns", NAN))
    return rows


def measure_game(decisions: int = 100_000) -> list[Row]:
    """Game rows: C++ apply / clone during random play, and the Python random-play loop."""
    t = _testing.time_game(Rules()._core, 2026, decisions, True)
    rows: list[Row] = [
        ("Game: apply an action in C++ (recording on), excl. generation", t["apply_ns"] / 1000, "µs", 0.05),
        ("Game: clone() in C++ (recording on)", t["clone_ns"] / 1000, "µs", 1.0),
    ]
    from .game import Game
    rng = random.Random(1)
    # World creation from the view of the seat to act, at 20 points of random play (median)
    worlds, views, hands = [], [], []
    for seed in range(20):
        g = Game(seed=seed)
        for _ in range(rng.randrange(5, 80)):
            if g.match_over:
                break
            acts = g.legal_actions()
            g.step(acts[rng.randrange(len(acts))])
        if not g.match_over:
            w = _testing.time_worlds(g, 2_000, seed)
            worlds.append(w["world_ns"])
            views.append(w["view_ns"])
            hands.append(_testing.time_sampling(g, 2_000, seed))
    # the beliefs target (docs/search.md "Sampling worlds"): the hands of one world, no inference
    rows.append(("beliefs: the hands of a world at mid-round (constraint model + deal)",
                 statistics.median(hands) / 1000, "µs", 2.0))
    rows.append(("Game: a world from a view in C++ (sample hands + build the state)",
                 statistics.median(worlds) / 1000, "µs", NAN))
    rows.append(("Game: a view (information_state) in C++", statistics.median(views) / 1000, "µs", NAN))
    total, n = 0.0, 0
    for seed in range(3):
        g = Game(seed=seed)
        k = 0
        start = time.perf_counter()
        while k < decisions // 10 and not g.match_over:
            acts = g.legal_actions()
            g.step(acts[rng.randrange(len(acts))])
            k += 1
        total += time.perf_counter() - start
        n += k
    rows.append(("Game: Python random loop (legal_actions + step), per decision", total / n * 1e6, "µs", 2.5))
    return rows


def measure_learning(steps: int = 200) -> list[Row]:
    """Learning rows: BatchEnv per game-step (n = 256, uniform over the mask) and AEC step."""
    env = _core.run.BatchEnv(256, Rules()._core, 2026)
    obs, mask, *_ = env.reset()
    rng = np.random.default_rng(0)
    spent = 0.0
    for _ in range(steps):
        actions = (rng.random(mask.shape) * mask).argmax(1).astype(np.int32)
        t = time.perf_counter()
        obs, mask, *_ = env.step(actions)
        spent += time.perf_counter() - t
    rows: list[Row] = [("BatchEnv.step per game-step, n = 256, incl. observations",
                        spent / (steps * 256) * 1e6, "µs", 2.0)]
    if "learned" in _core.catalog.policy_names():  # the shipped model, native inference
        ns = _testing.time_decisions(Rules()._core, "learned", "heuristic", 2026, max(4, steps // 10))
        # the targets: 2 µs median, 6 µs p90 (docs/performance.md)
        rows.append(("learned policy, time per decision, median (1 thread)",
                     float(np.median(ns)) / 1e3, "µs", 2.0))
        rows.append(("learned policy, time per decision, p90 (1 thread)",
                     float(np.quantile(ns, 0.9)) / 1e3, "µs", 6.0))
        net = _core.learned.Network.from_file(str(SHIPPED_MODELS["6p3d"]))
        t = _testing.time_network(net, Rules()._core, 2026, max(4, steps // 20), 3)
        rows.append(("learned network, float / integer pass time on the same decisions",
                     t["float_ns"] / t["quantized_ns"], "x", 5.0))
        rows.append(("  the same, inputs streamed from memory instead of in cache",
                     t["float_stream_ns"] / t["quantized_stream_ns"], "x", NAN))
    try:
        from .learn.envs.pettingzoo_env import env as aec_env
    except ImportError:
        return rows
    e = aec_env()
    e.reset(seed=0)
    n, spent = 0, 0.0
    for _agent in e.agent_iter(max_iter=2000):
        ob, reward, term, trunc, info = e.last()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(ob["action_mask"])))
        t = time.perf_counter()
        e.step(action)
        spent += time.perf_counter() - t
        n += 1
    rows.append(("PettingZoo AEC env.step", spent / max(n, 1) * 1e6, "µs", 20.0))
    return rows


def _rounds_per_second(policy: str, seconds: float, threads: int, seed: int = 2026) -> float:
    """Rounds/s of _core.run.simulate with `policy` on every seat, timed for about `seconds`."""
    rules = Rules()._core
    n = 32 * threads  # a first call estimates the speed (and warms up)
    t = time.perf_counter()
    _core.run.simulate(rules, seed, n, [policy] * 6, False, 0, threads)
    estimate = n / (time.perf_counter() - t)
    m = max(n, int(estimate * seconds))
    t = time.perf_counter()
    _core.run.simulate(rules, seed, m, [policy] * 6, False, n, threads)
    return m / (time.perf_counter() - t)


def measure_rollouts(seconds: float = 2.0) -> list[Row]:
    """Rollout rows: C++ rounds/s per built-in policy (one thread) and the 2-thread speed-up."""
    rows: list[Row] = []
    targets = {"random": 25_000.0, "greedy": NAN, "heuristic": 40_000.0}
    for policy in ("random", "greedy", "heuristic"):
        rate = _rounds_per_second(policy, seconds, 1)
        rows.append((f"rollouts, {policy} x6, 1 thread", rate, "rounds/s", targets[policy]))
    one = _rounds_per_second("heuristic", seconds, 1, seed=7)
    two = _rounds_per_second("heuristic", seconds, 2, seed=7)
    rows.append(("rollouts, heuristic x6, 2 threads / 1 thread"
                 f" (this machine: {os.cpu_count()} CPUs)", two / one, "x", 1.8))
    return rows


#: The most random hands ``run`` measures (each is timed many times).
MAX_HANDS = 100_000


def run(quick: bool = False, hands: int | None = None, rollouts: bool = True) -> list[Row]:
    """All rows; ``quick`` uses fewer hands and shorter timings (a few seconds).

    ``hands``: 1 .. :data:`MAX_HANDS` (ValueError otherwise)."""
    n_hands = hands if hands is not None else (60 if quick else 400)
    if isinstance(n_hands, bool) or not isinstance(n_hands, int) or not 1 <= n_hands <= MAX_HANDS:
        raise ValueError(f"hands must be an integer in [1, {MAX_HANDS}], got {n_hands!r}")
    rows = measure(n_hands, batch_pairs=100_000 if quick else 1_000_000)
    rows += measure_game(10_000 if quick else 100_000)
    rows += measure_learning(20 if quick else 200)
    if rollouts:
        rows += measure_rollouts(0.3 if quick else 2.0)
    return rows


def _lower_bound(unit: str) -> bool:
    return unit in ("rounds/s", "x")


def header(n_hands: int) -> str:
    from ._core import __version__
    return (f"daguai {__version__}, {platform.machine()}, Python {platform.python_version()}, "
            f"{os.cpu_count()} CPUs, {n_hands} hands")


def _target_text(value: float, unit: str, target: float) -> tuple[str, str]:
    """("≤ 5 ns", "met"/"missed") for a row with a target, ("", "") without."""
    if target != target:
        return "", ""
    low = _lower_bound(unit)
    met = value >= target if low else value <= target
    return f"{'≥' if low else '≤'} {target:,g} {unit}", "met" if met else "missed"


def rows_as_dicts(rows: Sequence[Row], targets: bool = False) -> list[dict]:
    """Rows as JSON-ready dicts ``{"what", "value", "unit"}`` (plus ``"target"`` and
    ``"met"`` with ``targets``; ``None`` for a row without a target)."""
    out = []
    for what, value, unit, target in rows:
        d: dict = {"what": what, "value": value, "unit": unit}
        if targets:
            has = target == target
            d["target"] = target if has else None
            d["met"] = (value >= target if _lower_bound(unit) else value <= target) if has else None
        out.append(d)
    return out


def rows_table(rows: Sequence[Row], targets: bool = False):
    """A ``rich`` table of the figures (what ``daguai bench`` prints), sized by rich to the
    terminal; with ``targets`` two more columns: the project's target and met / missed."""
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("measure", overflow="fold")
    table.add_column("figure", justify="right", no_wrap=True)
    if targets:
        table.add_column("target", justify="right", no_wrap=True)
        table.add_column("", no_wrap=True)
    for what, value, unit, target in rows:
        cells = [what, f"{value:,.2f} {unit}"]
        if targets:
            cells += list(_target_text(value, unit, target))
        table.add_row(*cells)
    return table


def format_rows(rows: Sequence[Row], markdown: bool = False, targets: bool = False) -> str:
    """The figures as text (a markdown table with ``markdown``); ``targets`` adds the
    project's targets, measured ÷ target and met / missed."""
    lines = []
    if markdown:
        lines.append("| measure | measured |" + (" target | measured ÷ target |" if targets else ""))
        lines.append("|---|---|" + ("---|---|" if targets else ""))
    for what, value, unit, target in rows:
        tgt, met = _target_text(value, unit, target)
        if markdown:
            row = f"| {what} | {value:,.2f} {unit} |"
            if targets:
                row += f" {tgt or '—'} | {'—' if not tgt else f'{value / target:.2f} ({met})'} |"
            lines.append(row)
        else:
            extra = f"  (target {tgt}, ratio {value / target:.2f}, {met})" if targets and tgt else ""
            lines.append(f"{what:70s} {value:10,.2f} {unit}{extra}")
    return "\n".join(lines)
