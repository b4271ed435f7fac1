"""The heuristic's cheapest follow (cpp/engine/players/rule_helpers.cpp ``cheapest_follow``,
through ``_core._testing.cheapest_follow``) against the obvious statement of it: list the
legal follows (R7), take the first of the cheapest (lowest key, then fewest control cards -
level cards and jokers - then fewest jokers). Singles, pairs and triples are found without
the list; random hands with jokers, tops of every size, every level, both tables (R18) and
the variants of R5-R7."""

from __future__ import annotations

import daguai
from daguai import Hand, Rules
from daguai._core import _testing
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import play_rules

LEVELS = daguai.LEVELS
SETTINGS = settings(deadline=None, max_examples=400, suppress_health_check=[HealthCheck.too_slow])


def _faces(draw, copies: int, n_max: int) -> list[int]:
    if draw(st.booleans()):
        lo = draw(st.integers(0, 12))
        ranks = [(lo + i) % 13 for i in range(draw(st.integers(1, 5)))]
    else:
        ranks = list(range(13))
    pool = [r * 4 + s for r in ranks for s in range(4) for _ in range(copies)]
    pool += [52] * copies + [53] * copies
    n = draw(st.integers(1, min(n_max, len(pool))))
    idx = draw(st.permutations(range(len(pool))))
    return sorted(pool[i] for i in idx[:n])


def _reference(hand: Hand, level: str, rules: Rules, top) -> daguai.Play | None:
    lv = LEVELS.index(level)

    def cost(p):
        faces = p.cards.faces()
        control = sum(1 for f in faces if f >= 52 or f // 4 == lv)
        return (p.key, control, p.jokers)

    best = None
    for p in daguai.legal_plays(hand, level, top=top, rules=rules):
        if best is None or cost(p) < cost(best):
            best = p
    return best


@SETTINGS
@given(rules=play_rules(), level=st.sampled_from(LEVELS), data=st.data())
def test_cheapest_follow_is_the_first_cheapest_legal_follow(rules, level, data):
    copies = 2 if rules.table == "4p2d" else 3
    hand = Hand.from_faces(_faces(data.draw, copies, 20))
    leader = Hand.from_faces(_faces(data.draw, copies, 12))
    leads = daguai.legal_plays(leader, level, rules=rules)
    size = data.draw(st.sampled_from([1, 1, 2, 2, 3, 5]))
    tops = [p for p in leads if p.size == size] or list(leads)
    top = tops[data.draw(st.integers(0, len(tops) - 1))]
    got = _testing.cheapest_follow(hand, level, rules._core, top)
    assert got == _reference(hand, level, rules, top), (str(hand), level, str(top.cards))


@settings(deadline=None, max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(rules=play_rules(), level=st.sampled_from(LEVELS), data=st.data())
def test_cheapest_follow_of_a_full_house_or_higher(rules, level, data):
    """Tops of the kinds a quick check of rank counts can rule out (full house, four-plus-one,
    straight flush, five of a kind, R7), against hands from a few ranks and jokers, where
    beating them is close: an empty answer is then the check's or the count's, both compared
    with the listed follows."""
    copies = 2 if rules.table == "4p2d" else 3
    hand = Hand.from_faces(_faces(data.draw, copies, 12))
    leader = Hand.from_faces(_faces(data.draw, copies, 14))
    tops = [p for p in daguai.legal_plays(leader, level, rules=rules) if p.kind >= daguai.Kind.FULL_HOUSE]
    if not tops:
        return
    top = tops[data.draw(st.integers(0, len(tops) - 1))]
    got = _testing.cheapest_follow(hand, level, rules._core, top)
    assert got == _reference(hand, level, rules, top), (str(hand), level, str(top.cards))


def test_cheapest_follow_examples():
    rules = Rules()
    top = daguai.classify("5s", "2", rules)
    # the lowest suit of the lowest rank above 5
    assert str(_testing.cheapest_follow("7d 6c 6h 9s", "2", rules._core, top).cards) == "6h"
    pair = daguai.classify("5s 5h", "2", rules)
    # a natural pair before a joker pair; the lowest suits of the rank
    got = _testing.cheapest_follow("6c 6h 6s 7s SJ", "2", rules._core, pair)
    assert str(got.cards) == "6s 6h"
    # one natural card and a small joker when no natural pair beats
    got = _testing.cheapest_follow("6c SJ BJ", "2", rules._core, pair)
    assert sorted(got.cards.faces()) == [4 * 4 + 3, 52]
    assert _testing.cheapest_follow("3s 4h", "2", rules._core, pair) is None
