"""``expert``: the search (pimc's race over sampled worlds, heuristic rollouts) whose incumbent
is the learned network's choice instead of the heuristic's, so that the search improves on the
stronger of the two players (docs/search.md "expert")."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import daguai
import numpy as np
import pytest
from daguai import _core
from daguai.learn import Network, learn_features


def test_expert_is_a_search_policy_never_a_rollout_policy():
    entries = {e["name"]: e for e in _core.catalog.policy_entries()}
    assert entries["expert"]["kind"] == "search" and entries["expert"]["rollouts"] == 256
    with pytest.raises(ValueError, match="rollout policy cannot be a search policy"):
        _core.catalog._search(daguai.Game(1).state, 8, 0.0, 1, "expert", 1)


def test_expert416_is_the_expert_with_416_rollouts():
    # docs/search.md "expert416": the same race (seed, the network's choice and best groups) with
    # 416 rollouts instead of 256; each arm's value in a world both races play is the same (R17:
    # a (candidate, world) value depends only on the view, the seed, the candidate and the world)
    entries = {e["name"]: e for e in _core.catalog.policy_entries()}
    assert entries["expert416"] == {"name": "expert416", "kind": "search", "rollouts": 416,
                                    "model": "learned"}
    g, searched = daguai.Game(5), 0
    while searched < 3:
        if g.phase == "play" and len(g.legal_actions()) > 2:
            small = _core.catalog._traced_decision(g.state, "expert", 9, 0)
            big = _core.catalog._traced_decision(g.state, "expert416", 9, 0)
            assert small[1] and big[1] and small[2] == big[2]
            assert [str(r[0]) for r in small[3]] == [str(r[0]) for r in big[3]]
            spent = (sum(r[1] for r in small[3]), sum(r[1] for r in big[3]))
            assert (small[5], big[5]) == (256, 416) == spent
            for a, b in zip(small[3], big[3], strict=True):
                m = min(a[1], b[1])
                assert m >= 1 and list(a[7][:m]) == list(b[7][:m])
            searched += 1
        g.step(daguai.bots.heuristic(g, g.current_player))


def test_expert_is_the_plain_search_without_a_learned_model():
    # no shipped model: the incumbent is the rollout policy's choice, as pimc's (R17: the same
    # seeds give the same games)
    code = textwrap.dedent("""
        import daguai
        from daguai import _core
        _core.learned._set_builtin_model("", "6p3d")
        b = daguai.simulate(2, policies=["pimc", "heuristic"], seed=31, threads=1)
        for name in ("expert", "expert_net8"):
            a = daguai.simulate(2, policies=[name, "heuristic"], seed=31, threads=1)
            print(a.to_pandas().equals(b.to_pandas()))
    """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["True", "True"]


def _heuristic_points(first_seed, games, every, offset, max_steps=10**6):
    """Decision points of seeded heuristic games: (game, seat to act, step) at every step with
    step % every == offset, before the heuristic plays it; the game is not changed by the
    caller (each policy acts on a copy of the state)."""
    for seed in range(first_seed, first_seed + games):
        g = daguai.Game(seed)
        heur = [_core.run.PolicyRunner("heuristic", seed, 0, s) for s in range(6)]
        step = 0
        while g.current_player is not None and step < max_steps:
            seat = g.current_player
            if step % every == offset:
                yield g, seat, step
            g.step(heur[seat].act(g.state))
            step += 1


def test_expert_keeps_the_networks_choice_more_often_than_pimc_does():
    # decision points of seeded heuristic games: the expert starts from the network's choice
    # and keeps it unless a challenger is clearly better; pimc starts from the heuristic's
    kept = {"expert": 0, "pimc": 0}
    points = 0
    for g, seat, _ in _heuristic_points(900, 3, 9, 4):
        if len(g.legal_actions()) > 2:
            net = _core.run.PolicyRunner("learned", 1, 0, seat).act(g.state)
            for name in kept:
                if _core.run.PolicyRunner(name, 5, 0, seat).act(g.state) == net:
                    kept[name] += 1
            points += 1
            if points == 12:
                break
    assert points == 12
    assert kept["expert"] > kept["pimc"], kept


def _groups(g):
    """The groups of equivalent actions of the seat to act (candidates.hpp), as lists."""
    return [row[0] for row in _core.catalog._search(g, 1, 0.0, 1, "heuristic", 1, 0)[0]]


def test_expert_races_the_networks_best_groups():
    # docs/search.md "expert": the race holds the network's choice and the groups of its next
    # best plays by Q, 4 groups in all, so the expert's decision is in one of them; written
    # here from the shipped model's Q-values (the integer pass the policy uses)
    net = Network.from_file(str(Path(daguai.__file__).parent / "models" / "learned.dgn"))
    points = narrowed = 0
    for g, seat, step in _heuristic_points(700, 4, 11, 5, max_steps=240):
        if g.phase == "play" and len(g.legal_actions()) > 2:
            state, cands, feats, _ = learn_features(g)
            q = net.evaluate(state, feats, quantized=True)
            groups = _groups(g)
            choice = _core.run.PolicyRunner("learned", 1, 0, seat).act(g.state)
            top = [next(i for i, grp in enumerate(groups) if choice in grp)]
            for k in np.argsort(-q, kind="stable"):
                i = next(i for i, grp in enumerate(groups) if cands[k] in grp)
                if len(top) < 4 and i not in top:
                    top.append(i)
            expert = _core.run.PolicyRunner("expert", 5, 0, seat).act(g.state)
            assert any(expert in groups[i] for i in top), (g.seed, step)
            points += 1
            narrowed += len(groups) > len(top)
    assert points >= 12 and narrowed >= points // 2, (points, narrowed)


def _reference_value(g, seat, arm, hands, race_seed, k, plies):
    """The value of `arm` in world k of the race, written plainly: the world (the seat's view
    with the world's hands), the arm, `plies` decisions of the network, then the heuristic on
    every seat (stream (race seed, k, seat), as a rollout's) to the end of the round; the
    round's score for the seat. The network decides by argmax, so its stream does not matter."""
    view = _core.game.information_state(g.state, seat, True)
    w = _core._testing.world_game(view, hands)
    rounds = len(w.results)
    w.apply(arm)
    net = [_core.run.PolicyRunner("learned", race_seed, k, s) for s in range(6)]
    heur = [_core.run.PolicyRunner("heuristic", race_seed, k, s) for s in range(6)]
    for runners, limit in ((net, plies), (heur, 10**6)):
        steps = 0
        while len(w.results) == rounds and not w.match_over and steps < limit:
            w.apply(runners[w.current_player].act(w))
            steps += 1
    return w.results[rounds]["scores"][seat]


@pytest.mark.parametrize("seed", [5, 6])
def test_expert_net8_rollouts_begin_with_eight_network_decisions(seed):
    # docs/search.md "expert_net8": the expert's race, each rollout beginning with 8 decisions
    # of the network after the candidate; every raced arm's value in its first worlds is the
    # value of the plain replay above
    from daguai._core.core import Hand

    entries = {e["name"]: e for e in _core.catalog.policy_entries()}
    assert entries["expert_net8"] == {"name": "expert_net8", "kind": "search", "rollouts": 256,
                                      "model": "learned"}
    g, checked = daguai.Game(seed), 0
    while checked < 2:
        if g.phase == "play" and len(g.legal_actions()) > 2:
            seat = g.current_player
            action, searched, race_seed, rows, _, used = _core.catalog._traced_decision(
                g.state, "expert_net8", 9, 0)
            assert searched and used == 256
            view = _core.game.information_state(g.state, seat, True)
            worlds = _core._testing.sample_hands_array(view, 3, race_seed)
            plain = _core.catalog._traced_decision(g.state, "expert", 9, 0)[3]
            differ = 0
            for row, plain_row in zip(rows, plain, strict=True):
                for k in range(3):
                    hands = [Hand.from_counts([int(c) for c in r]) for r in worlds[k]]
                    ref = _reference_value(g, seat, row[0], hands, race_seed, k, 8)
                    assert row[7][k] == ref, (seed, str(row[0]), k)
                    assert plain_row[7][k] == _reference_value(g, seat, row[0], hands, race_seed, k, 0)
                    differ += row[7][k] != plain_row[7][k]
            assert differ > 0  # the network's replies change some values: the test can see them
            checked += 1
        g.step(daguai.bots.heuristic(g, g.current_player))
