"""The value network of the search's worlds (docs/learning.md "A value for the search's worlds";
``cpp/engine/learned/value.hpp``, ``python/daguai/learn/values.py``) and the search that cuts
its rollouts with it (docs/search.md "`expert`: the search over the learned network's choice").

References: the world features against the observation encoder and face counts of each hand
read in Python; the engine's pass against a numpy pass of the same weights; the positions
against a replay of their rounds; the cut search against what it must reduce to (a constant
value leaves the network's choice; no value network plays the rollouts out)."""

from __future__ import annotations

import json
import random
import struct

import numpy as np
import pytest
from daguai import Game, Rules, _core
from daguai.learn import encode_observation
from daguai.learn.values import WORLD_FEATURES, dgv_bytes, fit, load_data, make_data, value_round
from game_helpers import random_steps
from test_learn_tensors import face_counts

ValueNet = _core.learned.ValueNet
ModelError = _core.learned.ModelError
OBS = int(_core.io.OBS_SIZE)


def positions(table: str, n: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    out = []
    for k in range(n):
        g = Game(seed + k, Rules(table=table).replace(max_rounds=1), start="random")
        random_steps(g, rng, rng.randrange(0, 120))
        if not g.match_over:
            out.append(g)
    return out


@pytest.mark.parametrize("table", ["6p3d", "4p2d"])
def test_world_features_are_the_observation_then_the_other_hands(table):
    games = positions(table, 12, 40)
    assert len(games) >= 8
    for g in games:
        seats = g.state.seats
        for seat in range(seats):
            x = _core.learned.world_features(g.state, seat)
            assert x.shape == (WORLD_FEATURES,) and x.dtype == np.float32
            np.testing.assert_array_equal(x[:OBS], encode_observation(g, seat))
            for k in range(1, 6):
                want = face_counts(str(g.state.hand((seat + k) % seats))) if k < seats else np.zeros(54)
                np.testing.assert_array_equal(x[OBS + 54 * (k - 1):OBS + 54 * k], want)
    with pytest.raises(ValueError, match="not a seat"):
        _core.learned.world_features(games[0].state, 6 if table == "6p3d" else 4)


def random_layers(widths, seed):
    rng = np.random.default_rng(seed)
    dims = [WORLD_FEATURES, *widths, 1]
    return [(rng.normal(size=(b, a)).astype(np.float32) / np.sqrt(a), rng.normal(size=b).astype(np.float32))
            for a, b in zip(dims[:-1], dims[1:], strict=True)]


def numpy_pass(layers, x):
    h = x.astype(np.float64)
    for k, (w, b) in enumerate(layers):
        h = h @ w.T.astype(np.float64) + b
        if k + 1 < len(layers):
            h = np.maximum(h, 0)
    return h[..., 0]


@pytest.mark.parametrize("widths", [(16,), (64, 8), (32, 16, 4)])
def test_the_engines_pass_is_the_numpy_pass(widths):
    layers = random_layers(widths, len(widths))
    net = ValueNet.from_bytes(dgv_bytes(layers, {"test": True}))
    assert net.widths == list(widths) and json.loads(net.meta) == {"test": True}
    assert ValueNet.from_bytes(net.to_bytes()).to_bytes() == net.to_bytes()
    games = positions("6p3d", 6, 7)
    xs = np.stack([_core.learned.world_features(g.state, g.state.current_player) for g in games])
    np.testing.assert_allclose(net.evaluate(xs), numpy_pass(layers, xs), rtol=1e-5, atol=1e-5)
    for g, x in zip(games, xs, strict=True):
        assert net.value(g.state, g.state.current_player) == net.evaluate(x[None])[0]


def test_bad_value_files_raise_model_error_naming_the_problem(tmp_path):
    good = dgv_bytes(random_layers((8,), 0), {})
    body = good[:-8]

    def sealed(b: bytes) -> bytes:
        return b + struct.pack("<Q", int(_core.learned._dgn_hash(b)))

    cases = {
        "too short": good[:10],
        "bad magic": b"DGNN" + good[4:],
        "corrupt": good[:-9] + bytes([good[-9] ^ 1]) + good[-8:],
        "format 2": sealed(body[:4] + struct.pack("<I", 2) + body[8:]),
        "feature version 9": sealed(body[:8] + struct.pack("<I", 9) + body[12:]),
        "input size 5": sealed(body[:12] + struct.pack("<I", 5) + body[16:]),
        "0 hidden layers": sealed(body[:16] + struct.pack("<I", 0) + body[20:]),
        "truncated": sealed(body[:-4]),
        "left over": sealed(body + b"\0\0\0\0"),
        "non-finite": sealed(body[:-4] + struct.pack("<f", float("nan"))),
    }
    for what, data in cases.items():
        with pytest.raises(ModelError, match="hidden layers" if what[0] == "0" else what.split()[0]):
            ValueNet.from_bytes(data)
        assert issubclass(ModelError, ValueError)
    with pytest.raises(ModelError, match="must be bytes"):
        ValueNet.from_bytes("DGNV")
    (tmp_path / "v.dgv").write_bytes(good)
    assert ValueNet.from_file(str(tmp_path / "v.dgv")).to_bytes() == good
    (tmp_path / "x.dgv").write_bytes(b"DGNN" + good[4:])
    with pytest.raises(ModelError, match="not a .dgv file"):
        ValueNet.from_file(str(tmp_path / "x.dgv"))
    with pytest.raises(ModelError, match="a folder"):
        ValueNet.from_file(str(tmp_path))


def test_positions_are_the_rounds_own_and_the_same_every_time():
    """R17: (seed, i) gives the same positions; each row is the world features of its seat at
    its ply of the round played by the model, and its target is that seat's score change."""
    a, b = value_round(31, 2, every=5), value_round(31, 2, every=5)
    for name in a:
        np.testing.assert_array_equal(a[name], b[name])
    assert len(a["x"]) >= 5
    g = Game(31, Rules().replace(max_rounds=1), game=2, start="random")
    state = g.state
    runners = {s: _core.run.PolicyRunner("learned", 31, 2, s) for s in range(6)}
    rows, ply = {}, 0
    plies = set(a["ply"].tolist())
    while not state.match_over:
        if state.phase == "play":
            if ply in plies:
                rows[ply] = state.copy() if hasattr(state, "copy") else _core.game.GameState(state)
            ply += 1
        state.apply(runners[state.current_player].act(state))
    scores = state.results[-1]["scores"]
    for j, p in enumerate(a["ply"]):
        s = int(a["seat"][j])
        want = _core.learned.world_features(rows[int(p)], s).astype(np.float16)
        np.testing.assert_array_equal(a["x"][j], want)
        assert a["y"][j] == scores[s]
        assert a["outcome"][j] == np.sign(scores[s])
    assert np.all(np.diff(a["ply"]) == 5)


def test_data_resumes_and_fit_writes_an_engine_file_of_its_best_epoch(tmp_path):
    make_data(tmp_path / "d", 20, 5, every=10, shard_rounds=10, shard=0, shards=2)
    assert sorted(p.name for p in (tmp_path / "d").iterdir()) == ["value-00000.npz"]
    first = (tmp_path / "d" / "value-00000.npz").read_bytes()
    make_data(tmp_path / "d", 20, 5, every=10, shard_rounds=10)  # resumes: keeps shard 0
    assert (tmp_path / "d" / "value-00000.npz").read_bytes() == first
    d = load_data(tmp_path / "d")
    assert set(d["game"].tolist()) == set(range(20))
    out = fit(tmp_path / "d", tmp_path / "run", widths=(16,), epochs=3, seed=1)
    curve = json.loads((tmp_path / "run" / "curve.json").read_text())["curve"]
    assert len(curve) == 3 and out["best_val_mse"] == min(c["val_mse"] for c in curve)
    net = ValueNet.from_file(str(tmp_path / "run" / "value.dgv"))
    assert json.loads(net.meta)["best_val_mse"] == out["best_val_mse"]
    held = d["game"] % 10 == 0
    v = net.evaluate(d["x"][held].astype(np.float32))
    mse = float(((v - d["y"][held]) ** 2).mean())
    assert abs(mse - out["best_val_mse"]) < 1e-3 * max(1.0, out["best_val_mse"])
    with pytest.raises(ValueError, match="no value-KKKKK.npz"):
        load_data(tmp_path / "run")


def test_a_folder_of_other_settings_or_a_damaged_shard_is_refused_by_name(tmp_path):
    make_data(tmp_path / "d", 4, 5, every=10, shard_rounds=2)
    for kw in ({"seed": 6}, {"every": 9}, {"table": "4p2d"}, {"shard_rounds": 4}):
        args = {"rounds": 4, "seed": 5, "every": 10, "shard_rounds": 2, **kw}
        rounds, seed = args.pop("rounds"), args.pop("seed")
        with pytest.raises(ValueError, match="value-00000.npz: a shard of other settings"):
            make_data(tmp_path / "d", rounds, seed, **args)
    (tmp_path / "d" / "value-00001.npz").write_bytes(b"PK\x03\x04 not a zip")
    with pytest.raises(ValueError, match="value-00001.npz: not a readable value shard"):
        make_data(tmp_path / "d", 4, 5, every=10, shard_rounds=2)
    with pytest.raises(ValueError, match="value-00001.npz: not a readable value shard"):
        load_data(tmp_path / "d")
    for kw in ({"rounds": 0}, {"shard_rounds": 0}, {"every": 0}, {"shard": 2, "shards": 2}):
        args = {"rounds": 4, "every": 10, "shard_rounds": 2, **kw}
        with pytest.raises(ValueError, match="must be"):
            make_data(tmp_path / "e", args.pop("rounds"), 5, **args)


@pytest.fixture
def value_file(tmp_path):
    """A value network of constant output 0.25 as the 6p3d value network, then none again."""
    layers = [(np.zeros((4, WORLD_FEATURES), np.float32), np.zeros(4, np.float32)),
              (np.zeros((1, 4), np.float32), np.full(1, 0.25, np.float32))]
    path = tmp_path / "const.dgv"
    path.write_bytes(dgv_bytes(layers, {}))
    _core.learned._set_builtin_value(str(path), "6p3d")
    try:
        yield path
    finally:
        _core.learned._set_builtin_value("", "6p3d")


def play_positions(n: int, seed: int) -> list[Game]:
    out = []
    for k in range(n):
        g = Game(seed + k, Rules().replace(max_rounds=1), start="random")
        random_steps(g, random.Random(k), 5 + 3 * k)
        if not g.match_over and g.state.phase == "play" and len(g.legal_actions()) > 1:
            out.append(g)
    return out


def test_the_analysis_race_cut_by_a_value_scores_each_cut_rollout_by_it(value_file):
    """_search(value_plies=N): every rollout whose round goes on past its N decisions is worth
    the network's estimate (thousandths of a point): 250 for the constant 0.25."""
    g = play_positions(16, 300)[0]
    arms, best, worlds, rounds, rollouts, budget, groups = _core.catalog._search(
        g.state, 64, 0.0, 1, "heuristic", 3, value_plies=6)
    assert rollouts >= 64 and len(arms) >= 2
    for _members, n, wins, draws, losses, score, _, values in arms:
        assert values == [250] * n and (wins, draws, losses) == (n, 0, 0) and score == 250 * n
    full = _core.catalog._search(g.state, 64, 0.0, 1, "heuristic", 3)[0]
    assert any(v != 250 for arm in full for v in arm[7])  # without the cut: the rounds' scores


def test_the_analysis_race_needs_a_value_network_and_a_valid_cut():
    g = play_positions(16, 300)[0]
    _core.learned._set_builtin_value("", "6p3d")
    with pytest.raises(ValueError, match="no value network is loaded for the table 6p3d"):
        _core.catalog._search(g.state, 64, 0.0, 1, "heuristic", 3, value_plies=6)
    with pytest.raises(ValueError, match="value_plies must be in"):
        _core.catalog._search(g.state, 64, 0.0, 1, "heuristic", 3, value_plies=-1)
