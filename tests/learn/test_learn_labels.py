"""Labels from the search (docs/learning.md "Labels from the search"; daguai.learn.labels): each
label is what the teacher plays (R17: the same stream, through the policy's own path) and its
race's per-group scores are the race the public analysis runs with the same seed; shards resume
without a round twice; a bad shard raises LabelError naming the file."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import daguai
import numpy as np
import pytest
from daguai import Rules, _core
from daguai.game import Game
from daguai.learn.labels import (
    LabelConfig,
    LabelError,
    decision_stream,
    label,
    label_round,
    load_labels,
    load_shard,
    shard_path,
)

#: the folder holding the daguai this test imports (a fresh clone's python/ has no built module)
DAGUAI_HOME = Path(daguai.__file__).resolve().parents[1]


def _states_at(cfg: LabelConfig, i: int, plies: set[int]):
    """The states of round i at the given plies, replayed through the teacher's decisions."""
    g = Game(cfg.seed, cfg.rules(), game=i, start=cfg.start)
    s = g.state
    out = {}
    ply = 0
    while not s.match_over:
        if ply in plies:
            out[ply] = Game._of(s.copy() if hasattr(s, "copy") else g.clone().state, cfg.rules()).state
        a = _core.run.PolicyRunner(cfg.teacher, cfg.seed, decision_stream(i, ply), s.current_player).act(s)
        s.apply(a)
        ply += 1
    return out, s


@pytest.mark.parametrize("table,seed", [("6p3d", 4040), ("4p2d", 4041)])
def test_labels_are_the_teachers_play_and_the_analysis_race(table, seed):
    """R17: replaying the round with the teacher's ordinary policy path (no trace) gives the same
    decisions and round result; the recorded per-group means are the means, over the same worlds,
    of the race the analysis binding runs for that decision with the recorded seed."""
    cfg = LabelConfig(games=1, seed=seed, table=table, teacher="expert")
    records, n = label_round(cfg, 0)
    assert records and n > len(records)
    states, final = _states_at(cfg, 0, {r["ply"] for r in records})
    result = final.result(-1)
    checked = shared = 0
    for r in records:
        s = states[r["ply"]]
        assert s.current_player == r["seat"] and s.phase == "play"
        # the action is the policy's own decision on the stream (a fresh runner: its first call)
        a = _core.run.PolicyRunner("expert", seed, decision_stream(0, r["ply"]), r["seat"]).act(s)
        assert str(a) == r["action"]
        play = a.play
        assert _core.io.abstract_id(a, play.level if play is not None else "2") == r["choice"]
        np.testing.assert_array_equal(_core.io.abstract_mask(s)[0], r["legal"])
        np.testing.assert_array_equal(_core.learned.learn_features(s)[0], r["state"])
        team = r["seat"] % 2
        assert r["value"] == float(result["scores"][r["seat"]])
        winner = result["winner"]
        assert r["outcome"] == (0 if winner in (None, -1) else (1 if winner == team else -1))
        if not r["searched"] or checked >= 2:
            continue
        # the slow reference: the analysis race of every group, incumbent first, same seed: each
        # arm's value in each world the two races share is the same (common random numbers)
        legal = [str(x) for x in s.legal_actions()]
        inc = legal.index(r["arms"][0][5])
        rows, *_ = _core.catalog._search(s, 6000, 0.0, 1, "heuristic", r["race_seed"], 0, inc)
        by_first = {str(m[0]): (nn, values) for m, nn, _w, _d, _l, _s, _r, values in rows}
        _, _, race_seed, traced, best, _ = _core.catalog._traced_decision(s, "expert", seed,
                                                                         decision_stream(0, r["ply"]))
        assert race_seed == r["race_seed"] and str(traced[best][0]) == r["action"]
        assert len(traced) == len(r["arms"])
        for (_id, nn, mean, wl, rnd, text), (arm, n2, w, _d, lo, score, rnd2, values) in zip(
                r["arms"], traced, strict=True):
            assert (text, nn, rnd) == (str(arm), n2, rnd2) and len(values) == nn
            assert mean == pytest.approx(float(np.mean(values)), abs=1e-9) == pytest.approx(score / nn)
            assert wl == pytest.approx((w - lo) / nn)
            ref_n, ref_values = by_first[text]
            m = min(ref_n, nn)
            assert m >= 1 and list(values[:m]) == list(ref_values[:m])
            shared += m
        checked += 1
    assert checked == 2 and shared >= 40


def _arrays_equal(a: dict, b: dict) -> None:
    assert set(a) == set(b)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)


def test_a_killed_run_resumes_without_duplicates(tmp_path):
    """Kill a labelling process after its first shard; the resumed run makes the rest, every
    round exactly once, and the shards equal an uninterrupted run's."""
    folder = tmp_path / "run"
    code = ("import sys; from daguai.learn.labels import LabelConfig, label; "
            "label(sys.argv[1], LabelConfig(games=6, seed=7, teacher='pimc24', shard_games=1))")
    env = {**os.environ, "PYTHONPATH": str(DAGUAI_HOME)}
    p = subprocess.Popen([sys.executable, "-c", code, str(folder)], env=env)
    try:
        deadline = time.time() + 60
        while not shard_path(folder, 0).exists() and time.time() < deadline and p.poll() is None:
            time.sleep(0.02)
        p.send_signal(signal.SIGKILL)
    finally:
        p.wait()
    kept = sorted(folder.glob("shard-*.npz"))
    assert 1 <= len(kept) < 6  # killed mid-run
    cfg = LabelConfig(games=6, seed=7, teacher="pimc24", shard_games=1)
    doc = label(folder, cfg)
    assert doc["summary"]["games"] == 6 and doc["summary"]["shards"] == 6
    labels = load_labels([folder])
    assert sorted(labels.arrays["games"].tolist()) == list(range(6))
    keys = list(zip(labels.arrays["game"].tolist(), labels.arrays["ply"].tolist(), strict=True))
    assert len(keys) == len(set(keys)) == doc["summary"]["labels"]
    fresh = tmp_path / "fresh"
    label(fresh, cfg)
    for k in range(6):
        _arrays_equal(load_shard(shard_path(folder, k)), load_shard(shard_path(fresh, k)))
    # a second resume does nothing
    before = {f.name: f.stat().st_mtime_ns for f in folder.glob("shard-*.npz")}
    label(folder, cfg)
    assert {f.name: f.stat().st_mtime_ns for f in folder.glob("shard-*.npz")} == before


@pytest.mark.parametrize(("workers", "sig", "group"), [(1, signal.SIGTERM, False), (2, signal.SIGTERM, False),
                                                   (2, signal.SIGINT, True)])
def test_a_stop_signal_ends_the_command_after_a_shard_and_it_resumes(tmp_path, workers, sig, group):
    """SIGTERM to the command (kill), or SIGINT to its whole process group (Ctrl-C): no new
    shard, the ones made are kept and in the manifest, one line says so, no worker's traceback;
    the same command then makes the rest."""
    folder = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(DAGUAI_HOME)}
    cmd = [sys.executable, "-m", "daguai", "label", str(folder), "--games", "12", "--seed", "7",
           "--teacher", "pimc24", "--shard-games", "1", "--workers", str(workers)]
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        deadline = time.time() + 60
        while not shard_path(folder, 0).exists() and time.time() < deadline and p.poll() is None:
            time.sleep(0.02)
        os.killpg(p.pid, sig) if group else p.send_signal(sig)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 0, err
    assert f"stopped by {signal.Signals(sig).name}" in err and "Traceback" not in err
    made = sorted(int(f.name[6:11]) for f in folder.glob("shard-*.npz"))
    doc = json.loads((folder / "manifest.json").read_text())
    assert 1 <= len(made) < 12 and sorted(int(k) for k in doc["shards"]) == made
    assert f"{len(made)} of 12 shards" in out
    assert not list(folder.glob("*.tmp*"))  # no half-written file
    doc = label(folder, LabelConfig(games=12, seed=7, teacher="pimc24", shard_games=1))
    assert doc["summary"]["shards"] == 12
    assert sorted(load_labels([folder]).arrays["games"].tolist()) == list(range(12))


def test_other_settings_are_refused(tmp_path):
    label(tmp_path, LabelConfig(games=1, seed=1, teacher="pimc24"))
    with pytest.raises(LabelError, match="other settings"):
        label(tmp_path, LabelConfig(games=1, seed=2, teacher="pimc24"))


@pytest.fixture(scope="module")
def good_shard(tmp_path_factory):
    folder = tmp_path_factory.mktemp("good")
    label(folder, LabelConfig(games=1, seed=3, teacher="pimc24"))
    return shard_path(folder, 0)


def _rewrite(src: Path, dst: Path, change) -> Path:
    with np.load(src) as z:
        arrays = {k: z[k] for k in z.files}
    change(arrays)
    with open(dst, "wb") as fh:
        np.savez(fh, **arrays)
    return dst


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "version", "missing", "dtype",
                                    "rows", "arm_start", "illegal_choice", "pickle"])
def test_a_bad_shard_raises_label_error_naming_the_file(good_shard, tmp_path, damage):
    bad = tmp_path / f"shard-{damage}.npz"
    if damage == "garbage":
        bad.write_bytes(b"not a shard at all")
    elif damage == "truncated":
        bad.write_bytes(good_shard.read_bytes()[:200])
    elif damage == "empty":
        bad.write_bytes(b"")
    elif damage == "version":
        _rewrite(good_shard, bad, lambda a: a.update(version=np.array(99, np.int32)))
    elif damage == "missing":
        _rewrite(good_shard, bad, lambda a: a.pop("value"))
    elif damage == "dtype":
        _rewrite(good_shard, bad, lambda a: a.update(choice=a["choice"].astype(np.int64)))
    elif damage == "rows":
        _rewrite(good_shard, bad, lambda a: a.update(value=a["value"][:-1]))
    elif damage == "arm_start":
        _rewrite(good_shard, bad, lambda a: a.update(arm_start=a["arm_start"][::-1].copy()))
    elif damage == "illegal_choice":
        def illegal(a):
            a["legal"] = a["legal"].copy()
            a["legal"][0, a["choice"][0]] = 0
        _rewrite(good_shard, bad, illegal)
    elif damage == "pickle":
        _rewrite(good_shard, bad, lambda a: a.update(action=np.array([{"x": 1}] * len(a["action"]),
                                                                     dtype=object)))
    with pytest.raises(LabelError, match=str(bad.name)):
        load_shard(bad)
    with pytest.raises(ValueError):
        load_labels([bad])


def test_a_damaged_or_misplaced_shard_in_a_folder_stops_the_resume(good_shard, tmp_path):
    cfg = LabelConfig(games=2, seed=3, teacher="pimc24", shard_games=1)
    label(tmp_path, cfg)
    shard_path(tmp_path, 1).write_bytes(b"junk")
    with pytest.raises(LabelError, match="shard-00001.npz"):
        label(tmp_path, cfg)
    # a shard of other rounds under this shard's name
    shard_path(tmp_path, 1).write_bytes(shard_path(tmp_path, 0).read_bytes())
    with pytest.raises(LabelError, match="shard-00001.npz.*rounds 0 .. 0, not 1 .. 1"):
        label(tmp_path, cfg)


def test_a_bad_manifest_is_refused(tmp_path):
    (tmp_path / "manifest.json").write_text("{not json")
    with pytest.raises(LabelError, match="manifest.json"):
        label(tmp_path, LabelConfig(games=1, teacher="pimc24"))


@pytest.mark.parametrize("kwargs", [{"games": 0}, {"table": "8p"}, {"teacher": "heuristic"},
                                    {"seats": (6,)}, {"start": "middle"}, {"seed": -1},
                                    {"shard_games": True}])
def test_bad_settings_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        LabelConfig(**kwargs)


def test_chosen_seats_only(tmp_path):
    label(tmp_path, LabelConfig(games=1, seed=9, teacher="pimc24", seats=(2,), others="heuristic"))
    labels = load_labels([tmp_path])
    assert len(labels) > 0 and set(labels.arrays["seat"].tolist()) == {2}
    score, raced = labels.scores()
    a = labels.arrays
    searched = np.flatnonzero(a["searched"])
    assert raced[searched, a["choice"][searched]].all()  # the choice is a raced arm


def test_the_command_line_labels_and_resumes(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(DAGUAI_HOME)}
    cmd = [sys.executable, "-m", "daguai", "label", str(tmp_path / "f"), "--games", "2", "--seed", "5",
           "--teacher", "pimc24", "--shard-games", "1", "--table", "4p2d", "--json"]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["summary"]["games"] == 2 and doc["config"]["table"] == "4p2d"
    p = subprocess.run([*cmd[:-1], "--seed", "6"], env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "other settings" in p.stderr


def test_local_processes_make_the_same_shards(tmp_path):
    """--workers: shards labelled in two local processes equal those of one."""
    cfg = LabelConfig(games=3, seed=21, teacher="pimc24", shard_games=1)
    label(tmp_path / "one", cfg)
    doc = label(tmp_path / "two", cfg, workers=2)
    assert doc["summary"]["shards"] == 3
    for k in range(3):
        one, two = shard_path(tmp_path / "one", k), shard_path(tmp_path / "two", k)
        _arrays_equal(load_shard(one), load_shard(two))


@pytest.mark.slow
@pytest.mark.ray
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_loopback_ray_cluster_makes_the_same_shards(tmp_path):
    """--ray: the labeller on a Ray cluster (a head on 127.0.0.1, the command line as a user
    runs it) makes the shards of one local process, and resumes a folder made locally."""
    pytest.importorskip("ray")
    from ray_helpers import loopback_head, token_env

    cfg = LabelConfig(games=3, seed=21, teacher="pimc24", shard_games=1)
    label(tmp_path / "one", cfg)
    # the first shard made locally, the other two (removed) made again on the cluster
    shutil.copytree(tmp_path / "one", tmp_path / "ray")
    for k in (1, 2):
        shard_path(tmp_path / "ray", k).unlink()
    env = token_env(tmp_path, {**os.environ, "PYTHONPATH": str(DAGUAI_HOME)})
    env.pop("RAY_ADDRESS", None)
    with loopback_head(tmp_path, env) as port:
        p = subprocess.run([sys.executable, "-m", "daguai", "label", str(tmp_path / "ray"), "--games", "3",
                            "--seed", "21", "--teacher", "pimc24", "--shard-games", "1", "--ray",
                            f"127.0.0.1:{port}", "--json"], env=env, capture_output=True, text=True,
                           timeout=300, cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-3000:]
    doc = json.loads(p.stdout)
    assert doc["summary"]["shards"] == 3
    made_by = [doc["shards"][str(k)]["made_by"] for k in range(3)]
    assert made_by == ["this process"] + [f"ray 127.0.0.1:{port}"] * 2
    for k in range(3):
        one, ray = shard_path(tmp_path / "one", k), shard_path(tmp_path / "ray", k)
        _arrays_equal(load_shard(one), load_shard(ray))


def test_ray_and_workers_are_one_or_the_other(tmp_path):
    with pytest.raises(ValueError, match="workers"):
        label(tmp_path, LabelConfig(games=1, teacher="pimc24"), workers=2, ray="local")
    assert not (tmp_path / "manifest.json").exists()
    env = {**os.environ, "PYTHONPATH": str(DAGUAI_HOME)}
    base = [sys.executable, "-m", "daguai", "label", str(tmp_path / "f"), "--games", "1",
            "--teacher", "pimc24"]
    for extra, message in ((["--ray", "127.0.0.1:1"], "cannot reach the Ray cluster at 127.0.0.1:1"),
                           (["--ray", "local", "--workers", "2"], "not allowed with")):
        p = subprocess.run([*base, *extra], env=env, capture_output=True, text=True, timeout=120)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr
        assert message in p.stderr, p.stderr
    assert not (tmp_path / "f").exists()


@pytest.mark.parametrize("policy", ["heuristic", "learned", "random"])
def test_a_traced_decision_is_refused_for_a_policy_that_does_not_search(policy):
    """The engine's traced_decision (catalog.hpp) refuses, naming the policy, before any work."""
    g = Game(7)
    with pytest.raises(ValueError, match=f"'{policy}' is not a search policy"):
        _core.catalog._traced_decision(g.state, policy, 7, 0)


def test_a_traced_decision_is_refused_when_the_match_is_over():
    g = Game(7, Rules(max_rounds=1))
    while not g.match_over:
        g.step(g.legal_actions()[0])
    with pytest.raises(ValueError, match="match is over"):
        _core.catalog._traced_decision(g.state, "pimc", 7, 0)


def test_shards_are_joined_as_numpy_joins_them_each_part_dropped_once_copied():
    """load_labels joins the shards' arrays key by key into one buffer, dropping each shard's array
    once copied (a fit's states are gigabytes): the same arrays, dtypes and shapes as
    np.concatenate, texts of several widths included."""
    from daguai.learn.shards import _concatenate_popped

    parts = [{"t": np.array(["x", "yyyy"]), "s": np.arange(6, dtype=np.float32).reshape(2, 3)},
             {"t": np.array(["zz"]), "s": np.full((1, 3), 7, np.float32)},
             {"t": np.array([], dtype="<U1"), "s": np.zeros((0, 3), np.float32)}]
    expected = {k: np.concatenate([p[k] for p in parts]) for k in ("t", "s")}
    for k in ("t", "s"):
        got = _concatenate_popped(parts, k)
        assert got.dtype == expected[k].dtype and got.shape == expected[k].shape
        assert np.array_equal(got, expected[k])
    assert all(not p for p in parts)
