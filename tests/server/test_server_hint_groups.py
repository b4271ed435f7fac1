"""The hint (issue 19 item 3): one row per group of equivalent plays with that group's own
number of rollouts (the race gives groups different numbers, so no single "over N deals"
holds), the race's best marked; and nothing in it depends on what the seat may not know
(R16): the same view with other hidden hands gives the same hint."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
from daguai import Game, Rules  # noqa: E402
from daguai.positions import fill_hidden_hands, position_of  # noqa: E402
from daguai.server.advice import hint  # noqa: E402


def _mid_play(seed: int, moves: int, rules: Rules | None = None) -> Game:
    """A recorded game after ``moves`` decisions, each the last legal action."""
    g = Game(seed, rules or Rules(), record=True)
    for _ in range(moves):
        g.step(g.legal_actions()[-1])
    return g


def _hint(g: Game, worlds: int = 6, seed: int = 5) -> dict:
    return hint(g, [str(a) for a in g.legal_actions()], 3, seed, worlds=worlds)


@pytest.mark.parametrize("seed, moves", [(2, 0), (7, 9), (11, 14)])
def test_the_hint_is_the_same_whatever_the_hidden_hands_r16(seed, moves):
    g = _mid_play(seed, moves)
    seat = g.current_player
    doc = position_of(g)
    doc["hands"] = [h if s == seat else None for s, h in enumerate(doc["hands"])]
    others = [Game.from_position(fill_hidden_hands(doc, seed=k)) for k in (1, 2)]
    for o in others:  # the same view ...
        assert o.current_player == seat and str(o.hand(seat)) == str(g.hand(seat))
        assert [str(a) for a in o.legal_actions()] == [str(a) for a in g.legal_actions()]
    # ... with other hidden hands (else the test could not fail)
    assert any(str(o.hand(s)) != str(g.hand(s)) for o in others for s in range(6) if s != seat)
    want = _hint(g)
    assert all(_hint(o) == want for o in others)


def test_each_group_has_its_own_count_and_one_is_best():
    """Groups of equivalent plays share one estimate; the race stops the groups that fall
    behind, so their counts differ (the page shows each group's own ``n``)."""
    counts_differ = False
    for seed in range(3, 6):
        g = _mid_play(seed, 0)
        h = _hint(g, worlds=4, seed=seed)
        texts = [str(a) for a in g.legal_actions()]
        assert sorted(c["text"] for c in h["candidates"]) == sorted(texts)
        groups: dict[int, list[dict]] = {}
        for c in h["candidates"]:
            groups.setdefault(c["group"], []).append(c)
            assert texts[c["index"]] == c["text"]
        assert sorted(groups) == list(range(len(groups)))  # ranks 0 .. k-1, best first
        firsts = [rows[0] for _, rows in sorted(groups.items())]
        assert [r["best"] for r in firsts] == [True] + [False] * (len(firsts) - 1)
        for rows in groups.values():  # one estimate per group
            keys = ("n", "win", "draw", "lose", "win_ci", "draw_ci", "lose_ci", "best")
            assert all(all(r[k] == rows[0][k] for k in keys) for r in rows)
            r = rows[0]
            assert r["n"] >= 1 and abs(r["win"] + r["draw"] + r["lose"] - 1) < 1e-9
            assert r["win_ci"][0] <= r["win"] <= r["win_ci"][1]
        counts_differ |= len({r["n"] for r in firsts}) > 1
    assert counts_differ, "every group got the same count: the race never stopped one"
