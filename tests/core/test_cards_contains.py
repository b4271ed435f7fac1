"""Cards::contains (core/cards.hpp), the multiset test ``a <= b`` of hands (R2) that apply's
check and check_play use: by word subtraction (a borrow out of a 2-bit field) against the
per-face counts, on random multisets with 0..3 copies of each face, where most pairs differ in
one face only (the cases a borrow test could get wrong: a field one above, the top field of
each word, the jokers)."""

from __future__ import annotations

import numpy as np
from daguai import Hand
from hypothesis import given
from hypothesis import strategies as st

counts = st.lists(st.integers(0, 3), min_size=54, max_size=54)


@given(a=counts, b=counts, face=st.integers(0, 53), delta=st.integers(-3, 3),
       near=st.booleans())
def test_r2_contains_equals_per_face_counts(a: list[int], b: list[int], face: int, delta: int,
                                            near: bool) -> None:
    if near:  # b = a with one face moved by delta (clamped to 0..3)
        b = list(a)
        b[face] = min(3, max(0, a[face] + delta))
    ha, hb = Hand.from_counts(np.array(a)), Hand.from_counts(np.array(b))
    assert (ha <= hb) == all(x <= y for x, y in zip(a, b, strict=True))
    assert (hb <= ha) == all(y <= x for x, y in zip(a, b, strict=True))


def test_r2_contains_at_every_field_edge() -> None:
    # every face, every pair of counts, against an otherwise equal hand (full or empty)
    for base in (0, 3):
        for face in range(54):
            for x in range(4):
                for y in range(4):
                    a = [base] * 54
                    b = [base] * 54
                    a[face], b[face] = x, y
                    assert (Hand.from_counts(np.array(a)) <= Hand.from_counts(np.array(b))) == (x <= y)
