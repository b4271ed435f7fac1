"""µs per decision of random play: daguai (6 seats, 162 cards) vs OpenSpiel's dou_dizhu.

Run:  python benchmarks/compare_openspiel.py [--seconds 3]

Needs the optional ``open_spiel`` package (``pip install open_spiel``); without it the
script says so and exits 0. Both sides play whole games with uniform-random players inside
C++ (daguai: ``_core.run.simulate`` with the ``random`` policy; OpenSpiel:
``pyspiel.evaluate_bots`` with ``pyspiel.make_uniform_random_bot``), one thread, in the same
run. Decisions per OpenSpiel game (chance nodes excluded) are counted on a separate sample
played from Python. Prints both figures and the ratio ours ÷ theirs (goal ≤ 1.0).
"""

from __future__ import annotations

import argparse
import os
import random
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from daguai import Rules, _core  # noqa: E402


def ours(seconds: float) -> tuple[float, float]:
    """(µs per decision, rounds per second) of random rollouts, one thread."""
    rules = Rules()._core
    _core.run.simulate(rules, 1, 64, ["random"] * 6)  # warm-up
    n, decisions, spent = 0, 0, 0.0
    while spent < seconds:
        t = time.perf_counter()
        r = _core.run.simulate(rules, 1, 500, ["random"] * 6, False, 64 + n)
        spent += time.perf_counter() - t
        n += 500
        decisions += int(r["plays"].sum() + r["passes"].sum())
    return spent / decisions * 1e6, n / spent


def theirs(seconds: float) -> tuple[float, float]:
    """(µs per decision, games per second) of OpenSpiel dou_dizhu with C++ random bots."""
    import pyspiel

    game = pyspiel.load_game("dou_dizhu")
    players = game.num_players()
    rng = random.Random(0)
    # decisions per game: a Python-driven sample (the C++ loop does not count them)
    total = 0
    sample = 200
    for _ in range(sample):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=False)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                total += 1
    per_game = total / sample
    bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(players)]
    n, spent = 0, 0.0
    seed = 0
    while spent < seconds:
        t = time.perf_counter()
        for _ in range(200):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
            seed += 1
        spent += time.perf_counter() - t
        n += 200
    return spent / (n * per_game) * 1e6, n / spent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per side (default 3)")
    args = ap.parse_args()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("open_spiel is not installed (pip install open_spiel): nothing to compare")
        return 0
    us_ours, rounds = ours(args.seconds)
    us_theirs, games = theirs(args.seconds)
    print(f"daguai random rounds:          {us_ours:6.3f} µs/decision  ({rounds:,.0f} rounds/s)")
    print(f"OpenSpiel dou_dizhu random:    {us_theirs:6.3f} µs/decision  ({games:,.0f} games/s)")
    print(f"ratio ours / theirs:           {us_ours / us_theirs:6.2f}  (goal <= 1.0)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
