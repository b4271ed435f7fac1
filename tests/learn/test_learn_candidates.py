"""The learned player's candidates (cpp/engine/learned/features.cpp ``candidates_of``), which
read the play phase's legal actions as their plays, are one per legal abstract id, each the
id's canonical action as ``abstract_mask`` and ``action_from_abstract`` choose it over the legal
actions (io/encode.hpp; the heuristic's own action stands for its id): at random positions of
random rounds at both tables (R18) and under the wild and wrap variants (R5, R6), leads and
follows, with and without the pass (R8); and every legal action's abstract id is the one the
documented layout gives."""

from __future__ import annotations

import numpy as np
import pytest
from daguai import Game, Kind, Rules, _core


def reference_id(a) -> int:
    """The abstract id of a legal action by the layout of docs/learning.md "Actions, two ways"
    (io/encode.hpp), written out kind by kind."""
    if a.type == "pass":
        return 0
    if a.type in ("tribute", "return", "take"):
        return 388 + a.cards.faces()[0]
    if a.type in ("anti_tribute", "offer"):
        return {"anti_tribute": 442, "offer": 443}[a.type]
    p = a.play
    j, key, kind = p.jokers, p.key, p.kind
    alone = j == len(p)
    sj = p.cards.faces().count(52)
    sub = key & 0xFFFFF
    if kind == Kind.SINGLE:
        return 1 + (key >> 1)
    if kind == Kind.PAIR:
        return 42 + (2 - sj) if alone else 16 + (key >> 1) * 2 + min(j, 1)
    if kind == Kind.TRIPLE:
        return 84 + (3 - sj) if alone else 45 + (key >> 1) * 3 + min(j, 2)
    if kind == Kind.FIVE_OF_A_KIND:
        return 387 if alone else 322 + sub * 5 + min(j, 4)
    base, mul, cap, v = {
        Kind.STRAIGHT: (88, 3, 2, sub), Kind.FLUSH: (127, 3, 2, sub >> 16), Kind.FULL_HOUSE: (166, 4, 3, sub),
        Kind.FOUR_PLUS_ONE: (218, 4, 3, sub), Kind.STRAIGHT_FLUSH: (270, 4, 3, sub),
    }[kind]
    return base + v * mul + min(j, cap)


VARIANTS = [Rules(), Rules(table="4p2d"), Rules(wild="declare"), Rules(wrap_straights=True)]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: repr(r))
def test_the_candidates_are_the_canonical_actions_of_the_legal_ids(rules):
    rng = np.random.default_rng(20261207)
    checked = leads = 0
    for seed in range(12):
        g = Game(seed=900 + seed, rules=rules)
        while not g.match_over and checked < 400 * (seed + 1):
            legal = g.legal_actions()
            if g.phase == "play" and len(legal) > 1:
                _, cands, feats, heuristic = _core.learned.learn_features(g)
                mask, index = _core.io.abstract_mask(g)
                level = g.level
                assert [_core.io.abstract_id(a, level) for a in legal] == [reference_id(a) for a in legal]
                ids = [_core.io.abstract_id(a, level) for a in cands]
                assert ids == sorted(ids) and ids == np.flatnonzero(mask).tolist()
                for k, (a, i) in enumerate(zip(cands, ids, strict=True)):
                    if k != heuristic:
                        assert a == legal[int(index[i])] == _core.io.action_from_abstract(g, i)
                assert feats.shape == (len(cands), 125)
                checked += 1
                leads += g.top is None
            g.step(legal[int(rng.integers(len(legal)))])
    assert checked > 1000 and leads > 100, (checked, leads)
