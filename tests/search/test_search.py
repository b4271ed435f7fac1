"""Search over hidden information: PIMC, the policy registry, daguai.analyze and
the analyze command."""

from __future__ import annotations

import gc
import json
import subprocess
import sys

import daguai
import numpy as np
import pytest
from daguai import Game, _core
from daguai.search import analyze
from game_helpers import mid_game


def test_search_uses_only_the_view():
    """Two games that differ only in hidden hands (a world of the view) give the same search."""
    g = mid_game()
    w = daguai.sample_worlds(g.view(g.current_player), 1, seed=3)[0]
    assert any(w.hand(s) != g.hand(s) for s in range(6))
    a = _core.catalog._search(g, 60, 0.0, 1, "greedy", 1)
    b = _core.catalog._search(w, 60, 0.0, 1, "greedy", 1)
    assert [r[1:] for r in a[0]] == [r[1:] for r in b[0]]


def test_search_bad_budget():
    g = mid_game()
    for args in [(0, 0.0, 1), (10, 0.0, 0), (10, -1.0, 1)]:
        with pytest.raises(ValueError, match="budget|threads"):
            _core.catalog._search(g, *args, "heuristic", 1)
    with pytest.raises(ValueError, match="search policy"):
        _core.catalog._search(g, 10, 0.0, 1, "pimc", 1)


def test_pimc_is_registered_like_the_builtins():
    assert {"random", "greedy", "heuristic", "pimc"} <= set(daguai.bots.policy_names())
    r = daguai.simulate(2, ("pimc24", "heuristic"), seed=3, threads=1)
    assert r.n == 2
    again = daguai.simulate(2, ("pimc24", "heuristic"), seed=3, threads=2)
    assert r == again


def test_analyze_result():
    g = mid_game()
    a = analyze(g, rollouts=300, seed=4)
    assert a.seat == g.current_player and a.rollouts >= 300 and a.legal == len(g.legal_actions())
    assert sum(len(x.plays) for x in a.groups) == a.legal and len(a.groups) == a.n_groups
    assert a.best is a.groups[0] and a.best.best and sum(x.best for x in a.groups) == 1
    rounds = [x.round for x in a.groups]
    assert rounds == sorted(rounds, reverse=True)
    for x in a.groups:
        assert x.wins + x.draws + x.losses == x.rollouts
        d = x.to_dict()
        assert d["win_ci"][0] <= d["win"] <= d["win_ci"][1]
        if x.points_ci:
            assert x.points_ci[0] <= x.points <= x.points_ci[1]
    b = analyze(json.dumps(g.position()), rollouts=300, seed=4, threads=2)
    assert a == b  # a position is the same game; threads do not matter
    rec = g.to_record()
    c = analyze(rec, upto=len(rec.splitlines()), rollouts=300, seed=4)
    assert c == a
    with pytest.raises(ValueError, match="upto=N"):
        analyze(rec, rollouts=300)  # a record needs its line


def test_analyze_text_fits_80_columns():
    g = mid_game()
    a = analyze(g, rollouts=300, seed=4)
    text = str(a)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "hand: " in text and ("you lead" in text or "to beat: " in text)
    assert "points" in text and "*" in text
    for x in a.groups:
        if x.points_ci:
            assert f"[{x.points_ci[0]:+.2f}, {x.points_ci[1]:+.2f}]" in "\n".join(a.lines(top=None))
    assert "e-" not in text  # fixed decimals (lower bounds printed as 1.7e-18)
    doc = a.to_dict()
    assert doc["best"] == a.best.to_dict() and doc["measure"].startswith("points")
    assert len(doc["groups"]) == a.n_groups


def test_analyze_bad_input():
    g = mid_game()
    for kw in ({"rollouts": 0}, {"rollouts": -1}, {"threads": 0}, {"policy": "pimc"}, {"policy": "nope"}):
        with pytest.raises(ValueError):
            analyze(g, **kw)
    with pytest.raises(ValueError):
        analyze(42)
    with pytest.raises(ValueError):
        analyze("{not json")


def run_cli(*args, stdin=None, env=None):
    return subprocess.run(
        [sys.executable, "-m", "daguai", "analyze", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
    )


def test_analyze_cli(tmp_path):
    g = mid_game()
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(g.position()))
    out = run_cli(str(path), "--rollouts", "200", "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["seat"] == g.current_player and doc["legal"] == len(g.legal_actions())
    assert doc["best"]["best"] and doc["best"] == doc["groups"][0]
    table = run_cli(str(path), "--rollouts", "200")
    assert table.returncode == 0 and "points" in table.stdout
    assert all(len(line) <= 80 for line in table.stdout.splitlines())
    rec = tmp_path / "game.jsonl"
    rec.write_text(g.to_record())
    out2 = run_cli(str(rec), "--line", "20", "--rollouts", "100", "--json")
    assert out2.returncode == 0, out2.stderr
    bad = dict(g.position())
    bad["to_act"] = (bad["to_act"] + 1) % 6
    path.write_text(json.dumps(bad))
    for args in ([str(path)], [str(tmp_path / "missing.json")], [str(rec), "--line", "100000"], [str(rec)]):
        res = run_cli(*args, "--rollouts", "2")
        assert res.returncode == 2
        assert len(res.stderr.strip().splitlines()) == 1 and res.stderr.startswith("daguai: error:")


def test_analyze_cli_inference_is_analyze_with_that_model(tmp_path):
    """`daguai analyze --inference M` is analyze(..., inference=M) (docs/search.md "Inference
    from play"); a record carries the round's history, so the worlds are weighed."""
    g = mid_game()
    rec = tmp_path / "game.jsonl"
    rec.write_text(g.to_record())
    line = 30
    want = analyze(g.to_record(), upto=line, rollouts=48, seed=5, inference="heuristic").to_dict()
    out = run_cli(str(rec), "--line", str(line), "--rollouts", "48", "--seed", "5", "--inference",
                  "heuristic", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == json.loads(json.dumps(want))
    default = run_cli(str(rec), "--line", str(line), "--rollouts", "48", "--seed", "5", "--json")
    none = analyze(g.to_record(), upto=line, rollouts=48, seed=5, inference=daguai.search.ANALYZE_INFERENCE)
    assert json.loads(default.stdout) == json.loads(json.dumps(none.to_dict()))
    # at this line the weighed worlds change the figures, so the flag is seen to reach the search
    assert want != analyze(g.to_record(), upto=line, rollouts=48, seed=5, inference="none").to_dict()
    bad = run_cli(str(rec), "--line", str(line), "--inference", "psychic")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "psychic" in bad.stderr


def test_analyze_progress_draws_on_stderr(tmp_path):
    """Found: the bar drew on stdout. A callable progress sees the race's rounds; the CLI
    keeps stdout for the result."""
    g = mid_game()
    seen = []
    analyze(g, rollouts=300, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][1] == 300 and all(d <= t + 100 for d, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    stopped = []

    def stop(done, total):
        stopped.append(done)
        return False

    with pytest.raises(ValueError, match="interrupted"):
        analyze(g, rollouts=300, progress=stop)
    assert len(stopped) == 1


# ---- Python policies see views; rollouts from a position ------------------------------

def test_python_policy_receives_a_view_only():
    seen = []

    def spy(view, seat):
        seen.append(view)
        assert isinstance(view, _core.game.InfoState) and view.seat == seat == view.current_player
        assert not any(isinstance(x, (_core.game.GameState, Game)) for x in gc.get_referents(view))
        for name in dir(view):
            if not name.startswith("__"):
                assert not isinstance(getattr(view, name), (_core.game.GameState, Game)), name
        with pytest.raises(AttributeError):
            view.game  # noqa: B018
        return view.legal_actions()[0]

    daguai.simulate(2, (spy, "heuristic"), seed=1)
    assert seen and all(len(v.legal_actions()) >= 1 for v in seen)


def test_python_seats_leave_the_others_in_cpp():
    """Builtin seats in a mixed run make the same decisions as in an all-C++ run: a Python
    wrapper of heuristic on one team gives the C++ columns."""
    def py_heuristic(view, seat):
        return _core.run.PolicyRunner("heuristic", 0, 0, seat).act(view)  # heuristic reads only the view

    a = daguai.simulate(6, (py_heuristic, "random"), seed=4)
    b = daguai.simulate(6, ("heuristic", "random"), seed=4)
    for k in ("winner", "order", "scores", "plays", "passes"):
        assert np.array_equal(a[k], b[k]), k


def test_exception_in_python_policy_names_seat_and_game():
    def broken(view, seat):
        raise KeyError("boom")

    with pytest.raises(KeyError, match=r"policy 'broken' \(seat \d, game 0\) raised"):
        daguai.simulate(2, (broken, "random"), seed=1)

    class Odd(Exception):
        def __init__(self, a, b):
            super().__init__(a, b)

    def odd(view, seat):
        raise Odd(1, 2)

    with pytest.raises(Odd) as info:
        daguai.simulate(1, (odd, "random"), seed=1)
    assert any("seat" in n and "game 0" in n for n in info.value.__notes__)


def test_simulate_from_a_position():
    g = mid_game()
    pos = g.position()
    exact = daguai.simulate(20, ("heuristic", "heuristic"), seed=1, position=pos, threads=1)
    assert (exact["rounds"] == 1).all()
    # every game starts from the same hands: a deterministic heuristic gives one outcome
    assert len({tuple(r) for r in exact["order"]}) == 1
    w1 = daguai.simulate(30, ("heuristic", "heuristic"), seed=1, position=pos, worlds=True, threads=1)
    w2 = daguai.simulate(30, ("heuristic", "heuristic"), seed=1, position=pos, worlds=True, threads=2)
    for k in ("winner", "order", "scores"):
        assert np.array_equal(w1[k], w2[k])
    assert len({tuple(r) for r in w1["order"]}) > 1  # the hidden hands differ between worlds
    # the slow path (a Python seat) plays the same worlds
    def py_heuristic(view, seat):
        return _core.run.PolicyRunner("heuristic", 0, 0, seat).act(view)
    slow = daguai.simulate(5, (py_heuristic, "heuristic"), seed=1, position=pos, worlds=True)
    assert np.array_equal(slow["order"], w1["order"][:5])
    with pytest.raises(ValueError, match="worlds"):
        daguai.simulate(2, ("heuristic",), worlds=True)
    with pytest.raises(ValueError):
        daguai.simulate(2, ("heuristic",), position={"format": "nope"})


def test_batch_env_with_builtin_opponents():
    """The learner controls team A; team B is the C++ heuristic: observations are only of
    learner seats, and the trajectory replays with a Game where B plays heuristic."""
    env = daguai.learn.BatchEnv(4, seed=3, opponents=(None, "heuristic"))
    obs, mask, rewards, done, to_act = env.reset()
    assert (to_act % 2 == 0).all()
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(300):
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        _obs, mask, rewards, done, to_act = env.step(actions)
        assert (to_act % 2 == 0).all()
        episodes += int(done.sum())
        if done.any():
            assert rewards[done.astype(bool)].any()
    assert episodes > 0
    with pytest.raises(ValueError, match="at least one seat"):
        daguai.learn.BatchEnv(2, opponents=["random"] * 6)
    with pytest.raises(ValueError):
        daguai.learn.BatchEnv(2, opponents=["nope", None])


def test_analyze_a_hand_with_a_public_history():
    """Only the acting seat's hand is given (the others null): the result equals the
    analysis of the full position, since only that seat's view is used."""
    g = mid_game()
    full = g.position()
    partial = dict(full)
    partial["hands"] = [h if s == full["to_act"] else None for s, h in enumerate(full["hands"])]
    filled = daguai.positions.fill_hidden_hands(partial, seed=1)
    assert filled["hands"][full["to_act"]] == full["hands"][full["to_act"]]
    Game.from_position(filled)  # consistent
    assert analyze(partial, rollouts=100, seed=2) == analyze(full, rollouts=100, seed=2)
    bad = dict(partial)
    bad["hands"] = list(partial["hands"])
    bad["hands"][full["to_act"]] += " BJ BJ BJ BJ"
    with pytest.raises(ValueError, match="card totals|unknown hands|too many copies"):
        analyze(bad, rollouts=2)


def test_analyze_cli_bar_on_a_terminal_stderr(tmp_path):
    """Found: with stdout redirected the progress bar still draws, on stderr (a terminal
    here), and stdout holds only the result."""
    import os
    import pty

    g = mid_game()
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(g.position()))
    master, slave = pty.openpty()
    try:
        p = subprocess.run([sys.executable, "-m", "daguai", "analyze", str(path), "--rollouts", "40000"],
                           stdout=subprocess.PIPE, stderr=slave, text=True, timeout=300, check=False)
        os.close(slave)
        drawn = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        os.close(master)
    assert p.returncode == 0
    assert "analyzing" in drawn.decode(errors="replace")
    assert "analyzing" not in p.stdout and "\x1b" not in p.stdout and "points" in p.stdout


def test_wilson_bounds_are_exact_at_the_ends():
    """Found: a lower bound printed as 1.7e-18 (c - h rounding); at 0 of n it is 0, at n of
    n the upper bound is 1, and the interval holds the proportion."""
    from daguai.stats import wilson_interval as _wilson
    for n in range(1, 400):
        assert _wilson(0, n)[0] == 0.0 and _wilson(n, n)[1] == 1.0
        for k in (0, n // 3, n):
            lo, hi = _wilson(k, n)
            assert lo <= k / n <= hi
