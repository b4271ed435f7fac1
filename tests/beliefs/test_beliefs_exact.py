"""Worlds that are exactly what a seat knows: at small late-round positions whose public facts
restrict the hidden cards (R11 tribute at 6p and R18 4p2d, R8 forced passes under auto_pass,
R11 refusals and joker offers), every assignment of the unseen cards is judged by a
reference written from docs/rules.md alone (tests/beliefs/beliefs_reference.py); the engine's constraint
model must agree on every one, and 100,000 worlds of each sampler stage (rejection, the swap
chain, the default) must lie in the consistent set and follow its distribution (chi-square).

The positions (tests/beliefs/golden/beliefs_positions.json) were found by playing seeded games with a
policy that keeps its high cards, so the tribute facts still bind late in the round."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import beliefs_reference as ref
import numpy as np
import pytest
from daguai import Game, Hand, _core
from scipy.stats import chisquare

POSITIONS = json.loads((Path(__file__).parent / "golden" / "beliefs_positions.json").read_text())
N = 100_000


def _view(entry):
    g = Game.from_position(entry["position"])
    return g, g.view(entry["seat"])


def _hands(hands: list[Counter]) -> list[Hand]:
    return [Hand.from_faces(sorted(h.elements())) for h in hands]


def test_positions_cover_every_kind_of_fact():
    kinds = set()
    for e in POSITIONS:
        kinds |= set(e["facts"])
        kinds.add(e["position"].get("rules", {}).get("table", "6p3d"))
    assert {"trib", "outside", "forced", "refused", "4p2d", "6p3d"} <= kinds, kinds


@pytest.mark.parametrize("entry", POSITIONS, ids=[e["name"] for e in POSITIONS])
def test_constraint_model_equals_the_reference_on_every_assignment(entry):
    g, v = _view(entry)
    seats, gen = ref.assignments(v)
    n = consistent = 0
    for parts, _w in gen:
        hands = ref.hands_of(v, seats, parts)
        want = ref.consistent(v, hands, g.rules)
        got = _core._testing.world_violation(v, _hands(hands))
        assert want == (got == ""), (parts, got)
        n += 1
        consistent += want
    # the facts restrict the worlds here (the sampler must exclude some assignments)
    assert (consistent, n) == (entry["consistent"], entry["assignments"])
    assert consistent < n


def _keys(arr: np.ndarray, v, seats: list[int]) -> list[bytes]:
    known = np.zeros((len(seats), 54), dtype=np.int16)
    for i, s in enumerate(seats):
        for f in v.known[s].faces():
            known[i, f] += 1
    hidden = arr[:, seats, :].astype(np.int16) - known[None, :, :]
    return [row.tobytes() for row in hidden.astype(np.uint8)]


def _key_of(parts: tuple, seats: list[int]) -> bytes:
    a = np.zeros((len(seats), 54), dtype=np.uint8)
    for i, p in enumerate(parts):
        for f, c in p:
            a[i, f] = c
    return a.tobytes()


# The default run checks one position of each kind through the default sampler, and the
# two stages alone at one tribute position; the slow run (CI) every position at every stage.
QUICK = {"trib6-3", "trib4-4", "forced-0", "refused-16", "forced4-0"}
METHODS = {0: "default", 1: "rejection", 2: "chain"}
CHI = [pytest.param(e, m, id=f"{e['name']}-{name}",
                    marks=() if e["name"] in QUICK and (m == 0 or e["name"] == "trib6-3")
                    else pytest.mark.slow)
       for e in POSITIONS for m, name in METHODS.items()]


@pytest.mark.parametrize(("entry", "method"), CHI)
def test_worlds_follow_the_exact_distribution(entry, method):
    g, v = _view(entry)
    seats, exact, _total = ref.exact(v, g.rules)
    probs = {_key_of(k, seats): p for k, p in exact.items()}
    arr = _core._testing.sample_hands_array(v, N, 2024 + method, method)
    observed = Counter(_keys(arr, v, seats))
    outside = sum(c for k, c in observed.items() if k not in probs)
    assert outside == 0, f"{outside} of {N} worlds are outside the consistent set"
    keys = sorted(probs)
    f_obs = np.array([observed[k] for k in keys], dtype=float)
    f_exp = np.array([probs[k] * N for k in keys])
    _stat, p = chisquare(f_obs, f_exp)
    assert p > 1e-4, (p, len(keys))
