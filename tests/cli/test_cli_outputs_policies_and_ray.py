"""What a user meets first in the CLI and the results: one test per problem found.

Each test failed before its fix (the item is named in the test's docstring). Subprocess
tests run ``python -m daguai`` (the console script's entry point) with bounded timeouts.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import socket
import subprocess
import sys
import time

import daguai
import numpy as np
import pytest
from daguai import EvalResult, Game, SimResult, _core, evaluate, simulate
from daguai.learn import encode_observation

PKG_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(daguai.__file__)))


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PKG_PARENT] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.pop("RAY_ADDRESS", None)
    env.update(extra)
    return env


def run(*args: str, cwd=None, timeout: float = 120, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "daguai", *args], capture_output=True, text=True,
                          env=_env(**env), cwd=cwd, timeout=timeout, stdin=subprocess.DEVNULL)


def one_error_line(p: subprocess.CompletedProcess, needle: str) -> None:
    assert p.returncode == 2, (p.returncode, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("daguai: error: "), p.stderr
    assert needle in lines[0], lines[0]


# ---- trained policies -------------------------------------------------------------------


class TensorPolicy:
    """Reads what a learner trained on: the observation dict and tensor of its seat."""

    __name__ = "tensor"

    def __init__(self) -> None:
        self.calls = 0
        self.saw_history = False

    def __call__(self, game: Game, seat: int):
        x = encode_observation(game, seat)
        assert x.dtype == np.float32 and x.shape == (daguai.learn.OBS_SIZE,)
        obs = game.observation(seat)
        if game.phase == "play" and (game.top is not None or game.passed):
            # someone acted this round: the public history is there
            self.saw_history = self.saw_history or len(obs["history"]) > 0
        self.calls += 1
        return game.legal_actions()[0]


def test_callable_policy_gets_tensor_and_history():
    """Found: evaluate(policy, "random") with a tensor-reading policy raised IllegalActionError
    (record=False in the slow path); observation(seat)["history"] was empty."""
    pol = TensorPolicy()
    r = evaluate(pol, "random", 3, seed=1)
    assert r.games == 6 and pol.calls > 0 and pol.saw_history
    g, plays, passes = daguai.run.play_game(2, 0, (TensorPolicy(), "heuristic"))
    assert g.recording and plays > 0


def test_public_bots():
    """Found: built-in bots only through the private _core.run.PolicyRunner."""
    from daguai import bots

    assert daguai.bots is bots and "bots" in daguai.__all__
    assert [b.name for b in (bots.random, bots.greedy, bots.heuristic)] == ["random", "greedy", "heuristic"]
    base = simulate(40, ("heuristic", "random"), seed=3, threads=1)
    # a bot object is its built-in policy (C++ fast path) ...
    assert simulate(40, (bots.heuristic, bots.random), seed=3, threads=1) == base
    # ... and, called from Python decision by decision on a Game, decides exactly the same
    for game in range(4):
        g = Game(seed=3, game=game)
        while g.n_results == 0:
            seat = g.current_player
            g.step((bots.heuristic if seat % 2 == 0 else bots.random)(g, seat))
        assert g.round_result["order"] == [int(x) for x in base["order"][game]], game
    # a Python policy receives a view (no seed): a bot takes the same arguments and decides
    # from it, with the stream of seed 0 and the view's game
    def via_python(view, seat):
        return bots.heuristic(view, seat)
    r = simulate(2, (via_python, "random"), seed=3)
    assert len(r["order"]) == 2 and simulate(2, (via_python, "random"), seed=3) == r
    g = Game(seed=5)
    action = bots.greedy(g, g.current_player)
    assert action in g.legal_actions()
    with pytest.raises(ValueError, match="not the player to act"):
        bots.greedy(g, (g.current_player + 1) % 6)
    assert bots.get("Heuristic") is bots.heuristic and bots.load("greedy") is bots.greedy
    # every listed name loads (a search policy too), and the same name is the same bot
    assert bots.load("pimc") is bots.get("pimc") and bots.load("pimc").name == "pimc"
    assert set(bots.policy_names()) >= {"pimc", "pimc24", "heuristic_exact"}
    with pytest.raises(ValueError, match="unknown built-in policy"):
        bots.get("smart")


POLICY_MODULE = '''
calls = []

def first_legal(game, seat):
    """Always the first legal action."""
    calls.append(seat)
    return game.legal_actions()[0]

not_callable = 3
'''


def test_policy_from_import_path(tmp_path):
    """Found: `daguai evaluate pkg.module:policy heuristic` could not load a policy."""
    (tmp_path / "mypolicies.py").write_text(POLICY_MODULE)
    p = run("evaluate", "mypolicies:first_legal", "heuristic", "--deals", "3", "-q", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "first_legal (A) vs heuristic (B)" in p.stdout
    p = run("simulate", "--rounds", "4", "--policy-b", "mypolicies:first_legal", "-q", "--json",
            cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["policies"] == ["heuristic", "first_legal"] * 3
    one_error_line(run("evaluate", "mypolicies:missing", "random", cwd=tmp_path), "no attribute")
    one_error_line(run("evaluate", "mypolicies:not_callable", "random", cwd=tmp_path), "not callable")
    one_error_line(run("evaluate", "no_such_module_xyz:f", "random", cwd=tmp_path), "cannot import")
    sys.path.insert(0, str(tmp_path))
    try:
        r = simulate(3, ("mypolicies:first_legal", "random"), seed=2)
        assert r.policies[0] == "first_legal"
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("mypolicies", None)


# ---- output made by libraries -----------------------------------------------------------


def test_output_fits_80_columns():
    """Found: the progress line (83 columns) and summary rows (91 columns) wrapped in 80."""
    p = run("simulate", "--matches", "2", "--policy-b", "greedy", "--threads", "1", "--progress",
            "--rule", "wild=high,dealer=stay", COLUMNS="80")
    assert p.returncode == 0, p.stderr
    out_lines = p.stdout.splitlines()
    assert len(out_lines) > 8 and max(map(len, out_lines)) <= 80, p.stdout
    bar_lines = [x for line in p.stderr.splitlines() for x in line.split("\r")]
    assert any("2/2" in x for x in bar_lines) and max(map(len, bar_lines)) <= 80, p.stderr
    p = run("evaluate", "heuristic", "greedy", "--deals", "5", "-q", COLUMNS="80")
    assert p.returncode == 0 and max(map(len, p.stdout.splitlines())) <= 80, p.stdout
    r = simulate(30, ["heuristic", "random", "greedy"] * 2, seed=1, threads=1)
    assert max(map(len, r.summary(width=60).splitlines())) <= 60


@pytest.mark.slow  # a 10 s wait and a run on every core; test_chunked_local_runs covers the chunks
def test_ctrl_c_stops_a_run_without_bar():
    """Found: Ctrl-C took effect only when the run ended (one uninterruptible C++ call)."""
    # Ctrl-C's default disposition in the child: a suite started in the background by a shell
    # without job control (`cmd &`) ignores SIGINT, and a child inherits an ignored signal
    proc = subprocess.Popen([sys.executable, "-m", "daguai", "simulate", "--rounds", "20000000", "-q"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(),
                            stdin=subprocess.DEVNULL,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        time.sleep(10)  # imports done, the run started (20M rounds take hours)
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)  # bounded; the run itself would take hours
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130 and "interrupted" in err and out == ""


def test_chunked_local_runs(monkeypatch):
    """Local runs without a batch are cut into short C++ calls, with identical columns."""
    import daguai.run.simulation as sim

    base = simulate(300, seed=4, threads=2)
    calls = []
    real = sim._run_range
    monkeypatch.setattr(sim, "_run_range", lambda *a: calls.append(a[2]) or real(*a))
    monkeypatch.setattr(sim, "CHUNK_SECONDS", 1e-6)
    assert simulate(300, seed=4, threads=2) == base
    assert len(calls) > 3 and sum(calls) == 300


def test_broken_pipe_is_quiet():
    """Found: `daguai ... | head` ended with 'Broken pipe', exit 1."""
    for args in (
        ["simulate", "--rounds", "50", "-q"],
        ["evaluate", "greedy", "random", "--deals", "5", "--json"],
    ):
        proc = subprocess.Popen([sys.executable, "-m", "daguai", *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=_env(), stdin=subprocess.DEVNULL)
        proc.stdout.close()  # the reader is gone before anything is written
        try:
            err = proc.stderr.read()
            proc.wait(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.stderr.close()
        assert proc.returncode == 0 and err == b"", (args, proc.returncode, err)


def test_plot_repeatable(tmp_path):
    """Found: --plot a.pdf --plot b.svg wrote only the last file."""
    pytest.importorskip("matplotlib")
    p = run("simulate", "--rounds", "30", "--plot", "a.pdf", "--plot", "b.svg", "-q", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")
    assert b"<svg" in (tmp_path / "b.svg").read_bytes()[:2000]


def test_rules_repeatable_and_listed():
    """Found: --rules KEY=VALUE swallowed evaluate's positionals; --help listed no rule values."""
    p = run("evaluate", "--rule", "wild=high", "--rules", "dealer=stay", "heuristic", "random",
            "--deals", "4", "-q", "--json")
    assert p.returncode == 0, p.stderr
    rules = json.loads(p.stdout)["rules"]
    assert rules["wild"] == "high" and rules["dealer"] == "stay"
    from daguai.rules import _CHOICES

    for command in ("simulate", "evaluate"):
        # the help ends with one line pointing at --rule help, which lists the values
        assert "--rule help" in run(command, "--help", COLUMNS="100").stdout
        text = run(command, "--rule", "help", COLUMNS="100").stdout
        for key, default in daguai.Rules().to_dict().items():
            line = next((x for x in text.splitlines() if x.strip().startswith(key + " ")), None)
            assert line is not None, key
            shown = str(default).lower() if isinstance(default, bool) else str(default)
            assert f"(default {shown})" in line, line
            for choice in _CHOICES.get(key, ()):
                assert choice in line, (key, choice)


def test_evaluate_out_and_json(tmp_path):
    """Found: evaluate had no --out / --json; EvalResult could not be saved."""
    p = run("evaluate", "greedy", "random", "--deals", "12", "--seed", "3", "-q", "--json",
            "--out", "e.json", "--out", "e.csv", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    shown = json.loads(p.stdout)
    expected = evaluate("greedy", "random", 12, seed=3)
    back = EvalResult.load(tmp_path / "e.json")
    for name in ("wins", "draws", "losses", "net_win_rate", "net_win_ci", "mean_score_diff",
                 "score_diff_ci", "policy_a", "policy_b", "seed", "rules"):
        assert getattr(back, name) == getattr(expected, name), name
        assert shown[name] == back.figures()[name], name
    assert np.array_equal(back.deal_net_win, expected.deal_net_win)
    with open(tmp_path / "e.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 12 and float(rows[5]["score_diff"]) == expected.deal_score_diff[5]
    with pytest.raises(ValueError, match="not a daguai evaluate file"):
        (tmp_path / "x.json").write_text("{}")
        EvalResult.load(tmp_path / "x.json")
    one_error_line(run("evaluate", "greedy", "random", "--out", "e.txt"), "unknown format")


def test_simulate_and_bench_json():
    """Found: no --json for simulate and bench."""
    p = run("simulate", "--rounds", "60", "--seed", "2", "--json", "--threads", "1")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    r = simulate(60, seed=2)
    assert d["n"] == 60 and d["teams"][0]["wins"] == int((r["winner"] == 0).sum())
    assert d == json.loads(json.dumps(d)) and d["teams"][0]["policy"] == "heuristic"
    p = run("bench", "--quick", "--no-rollouts", "--hands", "8", "--json", timeout=300)
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)["rows"]
    assert rows and all(set(x) == {"what", "value", "unit"} for x in rows)


def test_bench_shows_figures_not_targets():
    """Found: daguai bench printed issue targets ('target ≤ 5 ns, ratio 15.9, missed')."""
    from daguai.bench import format_rows, rows_as_dicts

    rows = [("classify", 7.5, "ns", 5.0), ("rollouts", 30_000.0, "rounds/s", 25_000.0),
            ("scale", 1.0, "ns", float("nan"))]
    plain = format_rows(rows)
    assert "target" not in plain and "missed" not in plain and "7.50 ns" in plain
    with_targets = format_rows(rows, targets=True)
    assert "missed" in with_targets and "met" in with_targets
    assert [d["met"] for d in rows_as_dicts(rows, targets=True)] == [False, True, None]
    p = run("bench", "--quick", "--no-rollouts", "--hands", "8", timeout=300, COLUMNS="80")
    assert p.returncode == 0, p.stderr
    assert "target" not in p.stdout and "missed" not in p.stdout and "classify" in p.stdout
    assert max(map(len, p.stdout.splitlines()[1:])) <= 80


# ---- results ----------------------------------------------------------------------------


def test_to_pandas_to_arrow_and_files(tmp_path):
    """Found: SimResult had no to_pandas()/to_arrow(); from_npz dropped threads and backend."""
    pd = pytest.importorskip("pandas")
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    r = simulate(25, ("greedy", "random"), seed=9, matches=True, threads=2)
    df = r.to_pandas()
    assert isinstance(df, pd.DataFrame) and df.shape == (25, 29)
    assert list(df.columns[:6]) == ["seed", "game", "dealer", "level", "order_0", "order_1"]
    assert (df["scores_3"].to_numpy() == r["scores"][:, 3]).all() and df["wins_1"].dtype == np.int32
    assert df.attrs["daguai"]["policies"] == list(r.policies)
    t = r.to_arrow()
    assert isinstance(t, pa.Table) and t.num_rows == 25 and t.column_names == list(df.columns)
    assert json.loads(t.schema.metadata[b"daguai"])["seed"] == 9
    r.save(tmp_path / "r.parquet")
    assert pq.read_table(tmp_path / "r.parquet").equals(t)
    r.save(tmp_path / "r.csv")
    assert pd.read_csv(tmp_path / "r.csv").equals(df.astype("int64"))
    r.save(tmp_path / "r.npz")
    back = SimResult.from_npz(tmp_path / "r.npz")
    assert back == r and back.threads == 2 and back.backend == "local"


def test_t_intervals_for_small_samples():
    """Found: the 95% interval used z = 1.96 even for 10 deals."""
    from daguai.stats import _ci, _t_quantile_own, t_quantile

    e = evaluate("greedy", "random", 10, seed=5)
    d = e.deal_score_diff
    half = (e.score_diff_ci[1] - e.score_diff_ci[0]) / 2
    assert half == pytest.approx(2.2621571627409915 * d.std(ddof=1) / np.sqrt(10))  # t(0.975, 9)
    assert _ci(np.array([1.0, 3.0]))[1:] == pytest.approx((2 - 12.706204736174707, 2 + 12.706204736174707))
    # the built-in quantile (used without scipy) against scipy
    stats = pytest.importorskip("scipy.stats")
    for df in [*range(1, 60), 99, 500, 1999, 2000, 2001, 10_000, 10**7]:
        for p in (0.6, 0.9, 0.975, 0.995):
            assert _t_quantile_own(p, df) == pytest.approx(stats.t.ppf(p, df), rel=1e-9), (p, df)
            assert t_quantile(p, df) == pytest.approx(stats.t.ppf(p, df), rel=1e-12)


def test_max_rounds_per_match_from_cpp():
    """MAX_ROUNDS_PER_MATCH is read from C++, not copied."""
    from daguai.run import results, simulation

    assert simulation.MAX_ROUNDS_PER_MATCH == _core.run.MAX_ROUNDS_PER_MATCH == 10_000
    assert [name for name, *_ in results.COLUMNS] == results.column_names(True)
    assert list(simulate(2, matches=True, threads=1)) == results.column_names(True)
    assert list(simulate(2, threads=1)) == results.column_names(False)


# ---- Ray ----------------------------------------------------------------------------------


def test_ray_bad_address_fails_fast():
    """Found: --ray 127.0.0.1:1 hung for more than 11 minutes."""
    pytest.importorskip("ray")
    p = run("simulate", "--rounds", "10", "--ray", "127.0.0.1:1", timeout=90)
    one_error_line(p, "cannot reach the Ray cluster at 127.0.0.1:1")
    with pytest.raises(daguai.run.RayConnectionError, match="127.0.0.1:1"):
        simulate(10, backend="ray", ray_address="127.0.0.1:1")


@pytest.mark.slow  # a whole process, server or match (seconds): CI runs it
def test_ray_silent_server_times_out():
    """Something listens but never answers as Ray: the command gives up after --ray-timeout."""
    pytest.importorskip("ray")
    with socket.socket() as srv:
        srv.bind(("127.0.0.1", 0))
        srv.listen(64)
        port = srv.getsockname()[1]
        start = time.monotonic()
        p = run("simulate", "--rounds", "10", "--ray", f"127.0.0.1:{port}", "--ray-timeout", "4",
                timeout=120)
        spent = time.monotonic() - start
    one_error_line(p, "within 4 s")
    assert spent < 110


@pytest.mark.slow  # a whole process (seconds): CI runs it
def test_ray_token_authentication_without_a_token_is_one_line(tmp_path):
    """Found: with RAY_AUTH_MODE=token and no token file (Ray 2.60), --ray ended in a traceback
    of ray.exceptions.AuthenticationError (exit 1)."""
    pytest.importorskip("ray")
    with socket.socket() as srv:
        srv.bind(("127.0.0.1", 0))
        srv.listen(64)
        port = srv.getsockname()[1]
        env = _env(HOME=str(tmp_path), RAY_AUTH_MODE="token")
        env.pop("RAY_AUTH_TOKEN_PATH", None)  # the suite's own token (tests/conftest.py): none here
        env.pop("RAY_AUTH_TOKEN", None)
        p = subprocess.run([sys.executable, "-m", "daguai", "simulate", "--rounds", "10", "--ray",
                            f"127.0.0.1:{port}", "--ray-timeout", "20"], capture_output=True, text=True,
                           env=env, timeout=120, stdin=subprocess.DEVNULL)
    one_error_line(p, "token authentication is on and no token was found")
    assert not (tmp_path / ".ray").exists()


def test_is_model_path_names_and_check_model_file_loads(tmp_path):
    """Telling a model path from a name reads nothing; loading is check_model_file's job (and
    a Bot's, a runner's): a missing file is a model path that fails to load."""
    from daguai import bots

    missing = str(tmp_path / "absent.dgn")
    assert bots.is_model_path(missing) and not bots.is_model_path("heuristic")
    with pytest.raises(ValueError, match="absent.dgn"):
        bots.check_model_file(missing)
    with pytest.raises(ValueError, match="absent.dgn"):
        bots.Bot(missing)
