"""Candidates that are real alternatives (cpp/engine/search/candidates.hpp).

Groups of equivalent plays are proved on small hands by exhaustive comparison: two plays
of one group must leave hands whose whole trees of leads are the same (every lead, by kind,
key and size, R5/R7, and recursively what each leaves). Follows are leads of the same size
that beat the top, so equal trees give equal follows too; both are checked."""

from __future__ import annotations

import random

import pytest
from daguai import Game, Hand, Rules, _core
from daguai._core import _testing
from game_helpers import random_steps

SUITS = "shdc"
RANKS = "23456789TJQKA"


class Trees:
    """The tree of leads of a hand, interned: equal ids = equal trees (slow and obvious)."""

    def __init__(self, level: str, rules: Rules) -> None:
        self.level, self.rules = level, rules._core
        self.of_hand: dict[Hand, int] = {}
        self.ids: dict[frozenset, int] = {}

    def __call__(self, hand: Hand) -> int:
        if hand not in self.of_hand:
            children = frozenset((int(p.kind), p.key, p.size, self(hand - p.cards))
                                 for p in _core.plays.legal_plays(hand, self.level, None, self.rules))
            self.of_hand[hand] = self.ids.setdefault(children, len(self.ids))
        return self.of_hand[hand]


def small_hand(rng: random.Random) -> Hand:
    """7-9 cards over a window of 6 ranks and 2-3 suits, 0-2 jokers: flushes, straights and
    straight flushes are often possible, so live and dead suits both occur."""
    low = rng.randrange(0, 8)
    suits = rng.sample(SUITS, rng.choice((2, 3)))
    n = rng.randrange(7, 10)
    jokers = rng.choice((0, 0, 1, 2))
    cards: list[str] = []
    while len(cards) < n - jokers:
        c = RANKS[low + rng.randrange(6)] + rng.choice(suits)
        if cards.count(c) < 3:
            cards.append(c)
    cards += rng.sample(["SJ", "BJ", "SJ"], jokers)
    return Hand(" ".join(cards))


@pytest.mark.parametrize("wild", ["auto", "high"])
def test_groups_are_equivalent_by_exhaustive_comparison(wild):
    """Every group of every small hand: the same kind, key and size, and the same tree of
    leads left; and the check has power: plays of one kind and key often leave different
    trees (so the grouping is not 'same kind and key'), and real groups occur."""
    rng = random.Random(17)
    rules = Rules(wild=wild)
    grouped = differ_same_key = 0
    for _ in range(60):
        hand = small_hand(rng)
        level = rng.choice(RANKS)
        trees = Trees(level, rules)
        groups = _testing.play_groups(hand, level, None, rules._core)
        plays = [p for g in groups for p in g]
        assert len(plays) == len(_core.plays.legal_plays(hand, level, None, rules._core))
        for g in groups:
            first = g[0]
            for p in g[1:]:
                assert (p.kind, p.key, p.size) == (first.kind, first.key, first.size)
                assert trees(hand - p.cards) == trees(hand - first.cards), (str(hand), str(p), str(first))
                grouped += 1
        # plays with the same kind and key in different groups: their trees often differ
        for i, a in enumerate(plays):
            for b in plays[i + 1:]:
                if (a.kind, a.key, a.size) == (b.kind, b.key, b.size) and \
                        trees(hand - a.cards) != trees(hand - b.cards):
                    differ_same_key += 1
    assert grouped >= 50, grouped
    assert differ_same_key >= 20, differ_same_key


def test_follow_groups_are_equivalent():
    """The groups of follows (a top to beat) are groups of the same left hands."""
    rng = random.Random(4)
    rules = Rules()
    checked = 0
    for _ in range(40):
        hand = small_hand(rng)
        level = rng.choice(RANKS)
        leads = _core.plays.legal_plays(hand, level, None, rules._core)
        top = rng.choice(leads)
        trees = Trees(level, rules)
        for g in _testing.play_groups(hand, level, top, rules._core):
            for p in g:
                assert p.size == top.size and p.key > top.key
                assert trees(hand - p.cards) == trees(hand - g[0].cards)
            checked += len(g) - 1
    assert checked > 0


def test_suits_relabelled_and_dead_suits():
    """Worked cases. 3s 3h 4d 4c 5s: no suit can hold a flush (at most 2 cards a suit, no
    joker), so both 3s and 3h leave equivalent hands. With five hearts, 3h can end in a flush
    of hearts and 3s cannot: not grouped. Relabelled suits: 7s 7h 8s 8h (two twin suits)."""
    rules = Rules()._core
    names = [[str(p) for p in g] for g in _testing.play_groups("3s 3h 4d 4c 5s", "A", None, rules)]
    assert ["3s", "3h"] in names and ["4d", "4c"] in names
    names = [[str(p) for p in g] for g in _testing.play_groups("3s 3h 5h 7h 9h Jh", "A", None, rules)]
    assert ["3s"] in names and ["3h"] in names
    names = [[str(p) for p in g] for g in _testing.play_groups("7s 7h 8s 8h", "A", None, rules)]
    assert ["7s", "7h"] in names and ["8s", "8h"] in names


def search_rows(g, rollouts=1, keep=0, incumbent=-1):
    return _core.catalog._search(g, rollouts, 0.0, 1, "heuristic", 3, keep, incumbent)[0]


def test_an_opening_lead_searches_every_group_once():
    g = Game(3)
    rows = search_rows(g, rollouts=50)
    members = [a for r in rows for a in r[0]]
    assert len(members) == len(g.legal_actions()) and len(set(map(str, members))) == len(members)


def test_reserved_slots():
    """With few slots a follow keeps the incumbent first, pass, the highest beating play, and
    the units of the heuristic's plan that beat; a lead keeps plan units and joker plays."""
    found = 0
    for seed in range(40):
        g = random_steps(Game(seed), random.Random(seed), 30 + seed % 20)
        if g.phase != "play" or g.top is None:
            continue
        acts = g.legal_actions()
        plays = [a for a in acts if str(a) != "pass"]
        if len(plays) < 12 or not any(str(a) == "pass" for a in acts):
            continue
        found += 1
        rows = search_rows(g, keep=6, incumbent=len(acts) - 1)
        chosen = [r[0][0] for r in rows]
        assert len(chosen) == 6 and str(chosen[0]) == str(acts[len(acts) - 1])
        assert any(str(a) == "pass" for a in chosen)
        top_key = max(a.play.key for a in plays)
        assert any(a.play is not None and str(a) != "pass" and a.play.key == top_key for a in chosen)
        # fewer groups than slots: every group is searched
        assert len(search_rows(g, keep=10**6)) == len(_testing.play_groups(
            g.hand(g.current_player), g.level, g.top, g.rules._core)) + 1
    assert found >= 3


def test_the_rest_is_one_group_per_kind_and_key_first():
    """Beyond the reserved slots (the units of the heuristic's plan and of a fewest-plays
    split, which may share a kind and key, and the joker, level-card and strongest plays),
    no (kind, key) gets a second group before every family has one: near-duplicates come
    last."""
    g = Game(3)
    hand, rules = g.hand(g.current_player), g.rules._core
    units = {str(p.cards) for p in _core._testing.heuristic_plan(hand, g.level, rules)[0]}
    units |= {str(p.cards) for p in _core.plays.min_plays(hand, g.level, rules)[1]}
    rows = search_rows(g, keep=60)
    assert len(rows) == 60
    assert len({(int(a.play.kind), a.play.key) for a in g.legal_actions()}) > 60
    rest = [r[0][0].play for r in rows if str(r[0][0].cards) not in units and r[0][0].play.jokers == 0]
    fams = [(int(p.kind), p.key) for p in rest]
    assert len(rest) > 20 and len(set(fams)) == len(fams)
