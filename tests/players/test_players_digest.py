"""Same seed, same games (R17): every built-in rule policy, and the learned player, plays
exactly the games it played when these digests were pinned, bit for bit.

A digest is the sha256 of the result columns of ``daguai.simulate(n, policies=[policy] * 6,
seed=2026, threads=1)`` (every column below, as little-endian int64, in this order), for
single rounds and for whole matches (tribute, return and later rounds), under the default
rules and under a set of variants (4p2d, wrapping straights, declared wildcards, joker
choice at tribute). A speed-up of the engine (generation, counting, apply, the heuristic's
plan) must not move any of them; a change that means to change play regenerates them:

    PYTHONPATH=python python tests/players/test_players_digest.py --regenerate

and says why in its commit.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

import daguai
import numpy as np
import pytest
from daguai import Rules

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden", "policy_digests.json")
COLUMNS = (
    "dealer",
    "level",
    "order",
    "winner",
    "n_tributers",
    "tributers",
    "levels",
    "scores",
    "plays",
    "passes",
    "rounds",
)
POLICIES = ("random", "greedy", "heuristic", "heuristic_exact", "learned")
VARIANTS = {
    "default": {},
    "variants": {
        "table": "4p2d",
        "wrap_straights": True,
        "wild": "declare",
        "joker_tribute_choice": True,
        "anti_tribute": True,
        "lead_after_out": "partner",
    },
}
#: (variant, name, games, matches): the quick cases run by default, the long ones are slow.
CASES = (
    ("default", "rounds1000", 1_000, False),
    ("default", "matches20", 20, True),
    ("variants", "rounds200", 200, False),
    ("variants", "matches8", 8, True),
)
SLOW_CASES = (("default", "rounds10000", 10_000, False), ("variants", "rounds2000", 2_000, False))


def digest(policy: str, variant: str, n: int, matches: bool) -> str:
    """sha256 of the columns of n seeded games of `policy` on every seat."""
    rules = Rules(**VARIANTS[variant])
    seats = daguai.table.seats_of(rules)
    r = daguai.simulate(n, policies=[policy] * seats, seed=2026, rules=rules, matches=matches, threads=1)
    h = hashlib.sha256()
    for name in COLUMNS:
        h.update(name.encode())
        h.update(np.ascontiguousarray(r[name], dtype="<i8").tobytes())
    return h.hexdigest()


def _key(policy: str, variant: str, case: str) -> str:
    return f"{policy}/{variant}/{case}"


def _pinned() -> dict[str, str]:
    with open(GOLDEN) as f:
        return json.load(f)


def _check(policy: str, variant: str, case: str, n: int, matches: bool) -> None:
    want = _pinned()[_key(policy, variant, case)]
    assert digest(policy, variant, n, matches) == want, (
        f"{policy} ({variant}, {case}) no longer plays the pinned games (R17); if that is "
        f"intended: PYTHONPATH=python python {os.path.relpath(__file__)} --regenerate"
    )


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("variant", "case", "n", "matches"), CASES)
def test_policy_plays_the_pinned_games(policy: str, variant: str, case: str, n: int, matches: bool) -> None:
    _check(policy, variant, case, n, matches)


@pytest.mark.slow
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("variant", "case", "n", "matches"), SLOW_CASES)
def test_policy_plays_the_pinned_games_10000_rounds(
    policy: str, variant: str, case: str, n: int, matches: bool
) -> None:
    _check(policy, variant, case, n, matches)


def test_digest_sees_a_different_game() -> None:
    """The digest is not blind: another seed (other games) gives another digest."""
    rules = Rules()
    a = daguai.simulate(50, policies=["heuristic"] * 6, seed=2026, rules=rules, threads=1)
    b = daguai.simulate(50, policies=["heuristic"] * 6, seed=2027, rules=rules, threads=1)
    assert any(not np.array_equal(a[c], b[c]) for c in COLUMNS)


def regenerate() -> None:
    out = {}
    for policy in POLICIES:
        for variant, case, n, matches in CASES + SLOW_CASES:
            out[_key(policy, variant, case)] = digest(policy, variant, n, matches)
    os.makedirs(os.path.dirname(GOLDEN), exist_ok=True)
    with open(GOLDEN, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    if sys.argv[1:] == ["--regenerate"]:
        regenerate()
    else:
        sys.exit(f"usage: python {sys.argv[0]} --regenerate")
