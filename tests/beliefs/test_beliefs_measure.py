"""The belief figures of benchmarks/beliefs.py: checked by hand on a tiny case, and against
the exact marginals of the enumerated consistent deals (beliefs_reference) at positions where
the tribute (R11) and forced passes restrict the hidden cards."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from collections import Counter
from pathlib import Path

import beliefs_reference as ref
import numpy as np
import pytest
from daguai import Game, _core

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("beliefs_bench", ROOT / "benchmarks" / "beliefs.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
sys.modules["beliefs_bench"] = bench
_spec.loader.exec_module(bench)

POSITIONS = json.loads((Path(__file__).parent / "golden" / "beliefs_positions.json").read_text())


def test_beliefs_and_scores_by_hand():
    # three seats; the viewer is seat 0; one unseen copy of face 7, at seat 1 in truth;
    # two of the three worlds put it at seat 1, one at seat 2
    worlds = np.zeros((3, 3, 54), dtype=np.uint8)
    worlds[0, 1, 7] = worlds[1, 1, 7] = worlds[2, 2, 7] = 1
    worlds[:, 0, 9] = 1  # the viewer's own card is never a hidden card
    known = np.zeros((3, 54), dtype=np.int64)
    unseen = np.zeros(54, dtype=np.int64)
    unseen[7] = 1
    hidden = np.array([0, 1, 1])
    p = bench.beliefs(worlds, known, unseen, hidden)
    # the worlds' share 2/3 mixed with one pseudo-world of the count baseline (1/2)
    assert p[1, 7] == pytest.approx((3 * 2 / 3 + 0.5) / 4)
    assert p[2, 7] == pytest.approx((3 * 1 / 3 + 0.5) / 4)
    assert p[0].sum() == 0 and p[:, 9].sum() == 0
    truth = np.zeros((3, 54), dtype=np.int64)
    truth[1, 7] = 1
    s = bench.score_point(p, truth, unseen, hidden, level_rank=0)
    assert s.cards == 1
    assert s.loglik == pytest.approx(math.log(0.625))
    assert s.loglik_base == pytest.approx(math.log(0.5))
    # face 7 is a 3 (rank 1): no joker, level card (rank 0) or A is hidden
    assert s.top1 == {"joker": (0, 0, 0), "level card": (0, 0, 0), "A": (0, 0, 0)}


def test_known_cards_are_not_counted_as_hidden():
    # seat 1 is seen to hold one copy of face 7 (a tribute card); the unseen copy is elsewhere
    worlds = np.zeros((2, 3, 54), dtype=np.uint8)
    worlds[:, 1, 7] = 1
    worlds[0, 2, 7] = worlds[1, 1, 7] = 1
    worlds[1, 1, 7] = 2
    known = np.zeros((3, 54), dtype=np.int64)
    known[1, 7] = 1
    unseen = np.zeros(54, dtype=np.int64)
    unseen[7] = 1
    p = bench.beliefs(worlds, known, unseen, np.array([0, 1, 1]))
    assert p[1, 7] == pytest.approx((2 * 0.5 + 0.5) / 3)
    assert p[2, 7] == pytest.approx((2 * 0.5 + 0.5) / 3)


def _exact_marginals(v, g) -> np.ndarray:
    seats, probs, _total = ref.exact(v, g.rules)
    n = len(v.cards_left)
    unseen = v.unseen.counts().astype(np.float64)
    out = np.zeros((n, 54))
    for key, pr in probs.items():
        for s, part in zip(seats, key, strict=True):
            for f, c in part:
                out[s, f] += pr * c
    return np.where(unseen[None] > 0, out / np.maximum(unseen[None], 1), 0.0)


@pytest.mark.parametrize("entry", [e for e in POSITIONS if e["name"] in ("trib6-3", "trib4-4", "forced-0")],
                         ids=lambda e: e["name"])
def test_sampled_beliefs_match_the_exact_marginals(entry):
    g = Game.from_position(entry["position"])
    v = g.view(entry["seat"])
    n = len(v.cards_left)
    known = np.stack([v.known[s].counts() for s in range(n)]).astype(np.int64)
    unseen = v.unseen.counts().astype(np.int64)
    hidden = np.array(v.hidden_counts, dtype=np.int64)
    worlds = _core._testing.sample_hands_array(v, 20_000, 7, 0)
    p = bench.beliefs(worlds, known, unseen, hidden)
    exact = _exact_marginals(v, g)
    assert exact.sum() == pytest.approx(float((unseen > 0).sum()))  # each unseen face sums to 1
    assert np.abs(p - exact).max() < 0.02
    # the constraints bind here: the exact marginals differ from the count baseline
    assert np.abs(exact - bench.count_baseline(unseen, hidden)).max() > 0.05


@pytest.mark.parametrize("inference", ["none", "heuristic"])
def test_a_short_run_reports_every_phase(inference):
    import argparse

    args = argparse.Namespace(deals=2, seed=910001, rounds=2, every=15, worlds=50, table="6p3d",
                              inference=inference, inference_worlds=4, players="heuristic")
    rows = bench.report(bench.measure(args))
    phases = {r["phase"] for r in rows}
    assert {"all", "play", "tribute", "return"} <= phases
    total = next(r for r in rows if r["phase"] == "all")
    assert total["points"] == sum(r["points"] for r in rows if r["phase"] != "all")
    assert -5 < total["loglik per card"] < 0 and 0 <= total["top-1 joker"] <= 1
    assert Counter(type(r["points"]) for r in rows) == Counter({int: len(rows)})
