"""Classification by one lookup (cpp/engine/plays/five_table.*, pattern.cpp) against the
references, R2 R5-R7 R18:

- ``classify`` (the Cards path) and ``classify_many`` (the face-id path) equal
  ``tests/reference.py``'s classifier on random plays of every size (1-5, 4 being no play),
  with and without jokers, at every level, at both tables (6p3d: 3 copies of a face, 4p2d: 2)
  and under every variant that affects classification (wild, wrap_straights, joker_pair);
  five-card sets also equal the branchy C++ classifier (``_testing.classify_reference``).
- ``beats_many`` (classify both rows, compare by key) equals the reference comparison.
- The face-id path's copy check (it reads faces one by one only when a rank holds more cards
  than the table has copies) raises exactly when a face exceeds the table's copies or an id
  is out of range, by exact enumeration over small face sets.
"""

from __future__ import annotations

import itertools
from collections import Counter

import daguai
import numpy as np
import pytest
import reference as ref
from daguai import Hand, Rules
from daguai._core import _testing
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import play_rules

LEVELS = daguai.LEVELS
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=300)
COPIES = {"6p3d": 3, "4p2d": 2}


@st.composite
def faces_st(draw, copies: int, size: int | None = None):
    """`size` faces (1-5 if None), at most `copies` of a face: naturals from a small pool of
    ranks and suits (so that pairs, sequences, flushes and groups are common) and 0-5 jokers."""
    if size is None:
        size = draw(st.sampled_from([1, 2, 3, 4, 5, 5, 5]))
    lo = draw(st.integers(0, 12))
    ranks = [(lo + i) % 13 for i in range(draw(st.integers(1, 6)))]
    suits = draw(st.sets(st.integers(0, 3), min_size=1, max_size=4))
    pool = [r * 4 + s for r in ranks for s in sorted(suits)] + [52, 53] * draw(st.integers(0, 2))
    counts: Counter = Counter()
    for f in draw(st.lists(st.sampled_from(pool), min_size=4 * size, max_size=4 * size)):
        if sum(counts.values()) == size:
            break
        if counts[f] < copies:
            counts[f] += 1
    for f in (52, 53, *range(52)):  # a tiny pool: top up
        while sum(counts.values()) < size and counts[f] < copies:
            counts[f] += 1
    faces = list(counts.elements())
    return tuple(draw(st.permutations(faces)))


def _ref(faces, level: str, rules: Rules):
    return ref.classify(sorted(faces), LEVELS.index(level), wild=rules.wild, wrap=rules.wrap_straights,
                        joker_pair=rules.joker_pair, copies=COPIES[rules.table])


@st.composite
def case_st(draw):
    rules = draw(play_rules())
    return draw(faces_st(COPIES[rules.table])), draw(st.sampled_from(LEVELS)), rules


@SETTINGS
@given(case=case_st())
def test_r5_r6_r18_classify_single_and_batch_equal_reference(case):
    faces, level, rules = case
    want = _ref(faces, level, rules)
    got = daguai.classify(Hand.from_faces(list(faces)), level, rules)
    assert (None if got is None else (int(got.kind), got.key)) == want
    kinds, keys = daguai.classify_many(np.array([faces], dtype=np.uint8), level, rules)
    assert (None if kinds[0] == 255 else (int(kinds[0]), int(keys[0]))) == want
    if got is not None:
        assert (got.size, got.jokers) == (len(faces), sum(f >= 52 for f in faces))
    if len(faces) == 5:
        branchy = _testing.classify_reference(Hand.from_faces(list(faces)), level, rules._core)
        assert (None if branchy is None else (int(branchy.kind), branchy.key)) == want


@st.composite
def pair_st(draw):
    rules = draw(play_rules())
    copies = COPIES[rules.table]
    size = draw(st.sampled_from([1, 2, 3, 5]))
    rows = draw(st.lists(st.tuples(faces_st(copies, size), faces_st(copies, size)), min_size=1, max_size=8))
    return rows, draw(st.sampled_from(LEVELS)), rules


@SETTINGS
@given(case=pair_st())
def test_r7_beats_many_compares_by_key_like_reference(case):
    rows, level, rules = case
    classified = [(_ref(a, level, rules), _ref(b, level, rules)) for a, b in rows]
    rows = [r for r, (ka, kb) in zip(rows, classified, strict=True) if ka is not None and kb is not None]
    if not rows:
        return
    a = np.array([r[0] for r in rows], dtype=np.uint8)
    b = np.array([r[1] for r in rows], dtype=np.uint8)
    got = daguai.beats_many(a, b, level, rules)
    want = [ref.beats((len(x), *_ref(x, level, rules)), (len(y), *_ref(y, level, rules))) for x, y in rows]
    assert got.tolist() == want
    # plays of another size never beat (R7)
    other = np.array([[0] * (1 if a.shape[1] != 1 else 2)] * len(rows), dtype=np.uint8)
    if other.shape[1] == 2:
        other[:, 1] = 1  # 2s 2h: a pair
    assert not daguai.beats_many(a, other, level, rules).any()


@pytest.mark.parametrize("table", ["6p3d", "4p2d"])
@pytest.mark.parametrize("size", [1, 2, 3, 4, 5])
def test_r2_r18_batch_copy_check_exact(table, size):
    """Every row of `size` faces over a few faces (two of one rank, a face of another rank,
    both jokers, an id out of range): classify_many raises iff a face has more copies than
    the table has decks or an id is >= 54; otherwise it equals the single path."""
    rules = Rules(table=table)
    copies = COPIES[table]
    for row in itertools.combinations_with_replacement([0, 1, 4, 52, 53, 54], size):
        bad = 54 in row or max(Counter(row).values()) > copies
        faces = np.array([row], dtype=np.uint8)
        if bad:
            with pytest.raises(ValueError):
                daguai.classify_many(faces, "2", rules)
            continue
        kinds, keys = daguai.classify_many(faces, "2", rules)
        single = daguai.classify(Hand.from_faces(list(row)), "2", rules)
        assert (None if kinds[0] == 255 else (int(kinds[0]), int(keys[0]))) == (
            None if single is None else (int(single.kind), single.key)
        ), row
