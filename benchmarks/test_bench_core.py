"""pytest-benchmark: the core operations (run: pytest benchmarks/ --benchmark-only).

Targets (issue "Core") are printed with figures by benchmarks/core_speed.py; here each
benchmark times one representative batch so regressions show in pytest-benchmark's
comparisons (--benchmark-autosave / --benchmark-compare)."""

from __future__ import annotations

import os
import random

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import daguai  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from daguai import Hand, Rules  # noqa: E402

DECK = [f for f in range(54) for _ in range(3)]


@pytest.fixture(scope="module")
def hands() -> list[Hand]:
    rng = random.Random(2026)
    out = []
    for _ in range(100):
        deck = DECK[:]
        rng.shuffle(deck)
        out.append(Hand.from_faces(deck[:27]))
    return out


@pytest.fixture(scope="module")
def fives(hands) -> np.ndarray:
    rows = []
    for h in hands:
        a = daguai.legal_plays_array(h)
        a = a[a["size"] == 5][:50]
        for c in daguai.play_counts(a):
            rows.append(np.repeat(np.arange(54, dtype=np.uint8), c))
    return np.tile(np.array(rows, dtype=np.uint8), (20, 1))


def test_classify_many_5card(benchmark, fives):
    kinds, _ = benchmark(daguai.classify_many, fives)
    assert (kinds != 255).all()


def test_beats_many_5card(benchmark, fives):
    other = fives[::-1].copy()
    out = benchmark(daguai.beats_many, fives, other)
    assert out.shape == (len(fives),)


@pytest.mark.parametrize("wild", ["auto", "high", "declare"])
def test_legal_leads_27(benchmark, hands, wild):
    rules = Rules(wild=wild)
    counts = benchmark(lambda: [daguai.count_plays(h, "2", None, rules) for h in hands])
    assert min(counts) > 0


def test_legal_leads_array_27(benchmark, hands):
    arrays = benchmark(lambda: [daguai.legal_plays_array(h) for h in hands])
    assert all(len(a) for a in arrays)


@pytest.mark.parametrize("top", ["7s", "7s 7h", "7s 7h 7d", "3s 4h 5d 6c 7s", "9s 9h 9d 4c 4d"])
def test_legal_follows_27(benchmark, hands, top):
    counts = benchmark(lambda: [daguai.count_plays(h, "2", top) for h in hands])
    assert len(counts) == len(hands)


def test_legal_leads_objects_27(benchmark, hands):
    plays = benchmark(lambda: [list(daguai.legal_plays(h)) for h in hands[:20]])  # every Play built
    assert all(plays)


def test_count_plays_leads_27(benchmark, hands):
    counts = benchmark(lambda: [daguai.count_plays(h) for h in hands])
    assert min(counts) > 0


@pytest.mark.parametrize("top", [None, "3s 4h 5d 6c 7s", "9s 9h 9d 4c 4d"])
def test_sample_play_27(benchmark, hands, top):
    rng = daguai.Rng(1)
    plays = benchmark(lambda: [daguai.sample_play(h, rng, "2", top) for h in hands])
    assert len(plays) == len(hands)


def test_legal_plays_lazy_untouched_27(benchmark, hands):
    seqs = benchmark(lambda: [daguai.legal_plays(h) for h in hands])
    assert all(len(s) for s in seqs)
