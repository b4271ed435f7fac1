"""The ladder (daguai.run.ladder, docs/ladder.md): Bradley-Terry ratings against a direct
maximum-likelihood fit, pairings equal to plain duplicate evaluations, the per-pair cache, the
cross-play rows, and its input checks."""

from __future__ import annotations

import math
import os
import shutil
import sqlite3

import numpy as np
import pytest
from daguai import Rules, evaluate
from daguai.run import identity as identity_mod
from daguai.run import ladder as ladder_mod
from daguai.run.ladder import ELO_PER_LOGIT, Pairing, fit_ratings, ladder
from scipy.optimize import minimize

CHEAP = ["random", "greedy", "heuristic"]


def pairing(a: str, b: str, wins: int, draws: int, losses: int) -> Pairing:
    n = (wins + draws + losses) // 2
    return Pairing(a, b, n, wins, draws, losses, (wins - losses) / (2 * n), (0.0, 0.0), 0.0, False)


def reference_fit(players, pairings, anchor):
    """Bradley-Terry by maximising its log-likelihood directly (scipy), with the same
    half-win-each-way prior per pairing, and the intervals from the inverse Hessian."""
    free = [p for p in players if p != anchor]

    def r_of(x):
        r = dict.fromkeys(players, 0.0)
        r.update(zip(free, x, strict=True))
        return r

    def nll(x):
        r = r_of(x)
        total = 0.0
        for p in pairings:
            d = r[p.a] - r[p.b]
            s = p.wins + 0.5 * p.draws + 0.5
            f = p.games + 1.0 - s
            total -= s * -math.log1p(math.exp(-d)) + f * -math.log1p(math.exp(d))
        return total

    res = minimize(nll, np.zeros(len(free)), method="BFGS", options={"gtol": 1e-10})
    # Hessian by central differences of the exact likelihood
    h = 1e-4
    k = len(free)
    H = np.zeros((k, k))
    for i in range(k):
        for j in range(k):
            e_i, e_j = np.eye(k)[i] * h, np.eye(k)[j] * h
            H[i, j] = (nll(res.x + e_i + e_j) - nll(res.x + e_i - e_j) - nll(res.x - e_i + e_j)
                       + nll(res.x - e_i - e_j)) / (4 * h * h)
    se = np.sqrt(np.diag(np.linalg.inv(H)))
    return {p: (res.x[i], se[i]) for i, p in enumerate(free)}


def test_bradley_terry_ratings_equal_a_direct_maximum_likelihood_fit():
    players = ["heuristic", "random", "greedy", "pimc"]
    pairings = [pairing("heuristic", "random", 190, 6, 4), pairing("heuristic", "greedy", 120, 10, 70),
                pairing("heuristic", "pimc", 60, 12, 128), pairing("random", "greedy", 30, 4, 166),
                pairing("random", "pimc", 0, 2, 198), pairing("greedy", "pimc", 40, 8, 152)]
    got = {r.name: r for r in fit_ratings(players, pairings, "heuristic")}
    ref = reference_fit(players, pairings, "heuristic")
    assert got["heuristic"].elo == 0.0
    for p, (r, se) in ref.items():
        assert got[p].elo == pytest.approx(r * ELO_PER_LOGIT, abs=1e-3)
        half = 1.959963984540054 * se * ELO_PER_LOGIT
        assert got[p].lo == pytest.approx(r * ELO_PER_LOGIT - half, abs=0.05)
        assert got[p].hi == pytest.approx(r * ELO_PER_LOGIT + half, abs=0.05)
    order = [r.name for r in fit_ratings(players, pairings, "heuristic")]
    assert order == ["pimc", "heuristic", "greedy", "random"]
    # a clean sweep (random 0 of 400 against pimc) still has a finite rating
    assert all(math.isfinite(r.elo) and r.lo < r.elo < r.hi for r in got.values() if r.name != "heuristic")


def test_ratings_recover_known_strengths_from_many_rounds():
    true = {"a": 0.0, "b": 0.8, "c": -0.5}
    rng = np.random.default_rng(3)
    pairings = []
    for x, y in (("a", "b"), ("a", "c"), ("b", "c")):
        p = 1 / (1 + math.exp(-(true[x] - true[y])))
        games = 200_000
        w = int(rng.binomial(games, p))
        pairings.append(pairing(x, y, w, 0, games - w))
    got = {r.name: r for r in fit_ratings(list(true), pairings, "a")}
    for name, r in true.items():
        assert got[name].elo == pytest.approx(r * ELO_PER_LOGIT, abs=8)
        assert got[name].lo <= r * ELO_PER_LOGIT <= got[name].hi or name == "a"


def test_each_pairing_is_the_duplicate_evaluation_of_the_pair(tmp_path):
    res = ladder(CHEAP, 6, seed=11, cache=tmp_path / "c.sqlite", threads=1, cross_play=())
    assert [(p.a, p.b) for p in res.pairings] == [("random", "greedy"), ("random", "heuristic"),
                                                  ("greedy", "heuristic")]
    for p in res.pairings:
        e = evaluate(p.a, p.b, 6, seed=11, threads=1)
        assert (p.wins, p.draws, p.losses) == (e.wins, e.draws, e.losses)
        assert p.net_win_rate == pytest.approx(e.net_win_rate)
        assert p.net_win_ci == pytest.approx(e.net_win_ci, nan_ok=True)
        assert not p.cached
    assert res.anchor == "heuristic"
    assert {r.name for r in res.ratings} == set(CHEAP)
    assert res.ratings[0].name == "heuristic" or res.ratings[0].elo >= 0


def test_the_cache_plays_only_the_pairs_it_has_not_seen(tmp_path, monkeypatch):
    db = tmp_path / "c.sqlite"
    first = ladder(CHEAP, 4, seed=5, cache=db, threads=1, cross_play=())
    played: list[tuple[str, str]] = []
    real = ladder_mod.evaluate

    def counting(a, b, *args, **kw):
        played.append((a, b))
        return real(a, b, *args, **kw)

    monkeypatch.setattr(ladder_mod, "evaluate", counting)
    again = ladder(CHEAP, 4, seed=5, cache=db, threads=1, cross_play=())
    assert played == []
    assert all(p.cached for p in again.pairings)
    assert again.figures()["ratings"] == first.figures()["ratings"]
    more = ladder([*CHEAP, "heuristic_exact"], 4, seed=5, cache=db, threads=1, cross_play=())
    assert played == [("random", "heuristic_exact"), ("greedy", "heuristic_exact"),
                      ("heuristic", "heuristic_exact")]
    assert len(more.pairings) == 6
    # another seed, deal count or rule set is another pairing
    played.clear()
    ladder(CHEAP[:2], 4, seed=6, cache=db, threads=1, cross_play=())
    ladder(CHEAP[:2], 4, seed=5, cache=db, threads=1, cross_play=(), rules=Rules(table="4p2d"))
    assert played == [("random", "greedy")] * 2
    # a damaged row is played again, not trusted
    with sqlite3.connect(db) as con:
        con.execute("UPDATE pairings SET deal_net = 'not json'")
    played.clear()
    ladder(CHEAP[:2], 4, seed=5, cache=db, threads=1, cross_play=())
    assert played == [("random", "greedy")]


def test_a_model_file_is_identified_by_its_bytes(tmp_path):
    import daguai

    shipped = os.path.join(os.path.dirname(daguai.__file__), "models", "learned.dgn")
    if not os.path.isfile(shipped):
        pytest.skip("no shipped model")
    a, b = tmp_path / "a.dgn", tmp_path / "b.dgn"
    shutil.copy(shipped, a)
    shutil.copy(shipped, b)
    assert identity_mod.identity(str(a)) == identity_mod.identity(str(b))
    data = bytearray(b.read_bytes())
    data[-1] ^= 1
    b.write_bytes(bytes(data))
    assert identity_mod.identity(str(a)) != identity_mod.identity(str(b))
    assert identity_mod.identity("heuristic") != identity_mod.identity("greedy")


def test_builtins_that_play_the_shipped_models_are_identified_by_their_bytes(tmp_path, monkeypatch):
    """Shipping a new model file changes the identity of learned and expert (not of the
    others), so their cached pairings are played again."""
    models = tmp_path / "models"
    models.mkdir()
    (models / "learned.dgn").write_bytes(b"one")
    monkeypatch.setattr(identity_mod, "MODELS", models)
    before = {p: identity_mod.identity(p) for p in ("learned", "expert", "pimc", "heuristic")}
    (models / "learned.dgn").write_bytes(b"two")
    after = {p: identity_mod.identity(p) for p in before}
    assert after["learned"] != before["learned"] and after["expert"] != before["expert"]
    assert after["pimc"] == before["pimc"] and after["heuristic"] == before["heuristic"]
    assert identity_mod.identity("learned") != identity_mod.identity("expert")


def test_builtins_are_identified_by_the_engine_build(tmp_path, monkeypatch):
    """A new build of the native engine (a changed built-in policy) changes the identity of
    every built-in player, so their cached pairings are played again; the same bytes at
    another path give the same identity."""
    engine = tmp_path / "engine.so"
    engine.write_bytes(b"build one")
    monkeypatch.setattr(identity_mod, "ENGINE", engine)
    before = {p: identity_mod.identity(p) for p in ("heuristic", "pimc", "learned")}
    assert all(identity_mod.engine_digest(engine) in v for v in before.values())
    copy = tmp_path / "copy.so"
    copy.write_bytes(b"build one")
    monkeypatch.setattr(identity_mod, "ENGINE", copy)
    assert {p: identity_mod.identity(p) for p in before} == before
    copy.write_bytes(b"build two")
    os.utime(copy, ns=(1, 1))  # a new modification time: the digest is not taken from memory
    after = {p: identity_mod.identity(p) for p in before}
    assert all(after[p] != before[p] for p in before)


def test_a_changed_engine_plays_its_pairings_again(tmp_path, monkeypatch):
    engine = tmp_path / "engine.so"
    engine.write_bytes(b"build one")
    monkeypatch.setattr(identity_mod, "ENGINE", engine)
    db = tmp_path / "cache.sqlite"
    first = ladder(["random", "greedy"], 4, seed=5, cache=db, threads=1)
    again = ladder(["random", "greedy"], 4, seed=5, cache=db, threads=1)
    assert not any(p.cached for p in first.pairings) and all(p.cached for p in again.pairings)
    engine.write_bytes(b"build two")
    os.utime(engine, ns=(2, 2))
    rebuilt = ladder(["random", "greedy"], 4, seed=5, cache=db, threads=1)
    assert not any(p.cached for p in rebuilt.pairings)
    assert [p.net_win_rate for p in rebuilt.pairings] == [p.net_win_rate for p in first.pairings]


def test_cross_play_rows_seat_one_player_with_partners():
    # the partner crossed with itself is the same game twice: exactly even
    net, wins, draws, losses, _ = ladder_mod._cross_play("heuristic", "heuristic", 8, 3, Rules(), 1, False)
    assert np.all(net == 0) and wins == losses
    # random among heuristic partners against heuristics loses more than it wins
    res = ladder(["random", "heuristic"], 30, seed=2, cache=False, threads=1)
    assert [(c.a, c.b) for c in res.cross] == [("random", "heuristic")]
    c = res.cross[0]
    assert c.cross and c.games == 60 and c.wins + c.draws + c.losses == 60
    assert c.net_win_rate < 0
    # the same figures from plain simulate calls: random at seat 0, then at seat 1
    from daguai import simulate

    r1 = simulate(30, ["random"] + ["heuristic"] * 5, seed=2, threads=1)
    r2 = simulate(30, ["heuristic", "random"] + ["heuristic"] * 4, seed=2, threads=1)
    w1, w2 = r1["winner"], r2["winner"]
    assert c.wins == int((w1 == 0).sum() + (w2 == 1).sum())
    assert c.losses == int((w1 == 1).sum() + (w2 == 0).sum())


def test_cross_play_at_the_4p2d_table_uses_its_seats():
    net, wins, draws, losses, _ = ladder_mod._cross_play("random", "heuristic", 6, 1, Rules(table="4p2d"),
                                                         1, False)
    assert len(net) == 6 and wins + draws + losses == 12


def test_summary_json_and_plot(tmp_path):
    res = ladder(["random", "greedy"], 4, seed=1, cache=False, threads=1)
    text = res.summary(80)
    assert "daguai ladder" in text and "Elo" in text and "cross-play" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    import json

    doc = json.loads(res.to_json())
    assert doc["format"] == "daguai-ladder" and len(doc["pairings"]) == 1
    assert [r["name"] for r in doc["ratings"]] == [r.name for r in res.ratings]
    res.plot(tmp_path / "l.png")
    assert (tmp_path / "l.png").stat().st_size > 1000


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    (dict(players=["heuristic"]), ValueError, "at least two"),
    (dict(players=["heuristic", "heuristic"]), ValueError, "must differ"),
    (dict(players="heuristic"), TypeError, "sequence"),
    (dict(players=["heuristic", 3]), TypeError, "names or .dgn"),
    (dict(players=["heuristic", "nobody"]), ValueError, "unknown policy"),
    (dict(players=["heuristic", "random"], n_deals=1), ValueError, "n_deals"),
    (dict(players=["heuristic", "random"], n_deals=True), ValueError, "n_deals"),
    (dict(players=["heuristic", "random"], cross_play=["greedy"]), ValueError, "not in the pool"),
    (dict(players=["heuristic", "missing.dgn"]), ValueError, "missing.dgn"),
])
def test_bad_ladder_arguments_raise_the_documented_error(kwargs, error, match):
    with pytest.raises(error, match=match):
        ladder(**{"n_deals": 2, "cache": False, **kwargs})


def test_a_model_path_that_is_not_a_regular_file_is_refused(tmp_path):
    fifo = tmp_path / "x.dgn"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="not a regular file"):
        identity_mod.identity(str(fifo))
