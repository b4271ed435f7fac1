"""The one-pass student (daguai.learn.distil, daguai.learn.student): the distillation positions are
the learned player's own decisions with the network's Q-values (R17: the same seed gives the same
positions), the soft targets against a plain-Python reading, the trunk started from the Q-network
computes the network's state part, and the student learns the network's choices."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import daguai  # noqa: E402
from daguai import _core  # noqa: E402
from daguai.game import Game  # noqa: E402
from daguai.learn.distil import _network, _pack, distil, distil_round, load_distil  # noqa: E402
from daguai.learn.heads import Heads  # noqa: E402
from daguai.learn.shards import NUM_ABSTRACT, STATE_FEATURES, LabelSet  # noqa: E402
from daguai.learn.student import StudentConfig, init_from_qnet, soft_targets, train_student  # noqa: E402
from daguai.rules import Rules  # noqa: E402

MODEL = str(Path(daguai.__file__).parent / "models" / "learned.dgn")


def test_distil_positions_are_the_players_decisions_R17():
    net = _network("learned")
    rows = distil_round(11, 3, net)
    assert rows and rows == rows  # distil_round asserts each choice is the player's own id
    again = distil_round(11, 3, net)
    assert len(again) == len(rows)
    for a, b in zip(rows, again, strict=True):
        assert a[0] == b[0] and a[4:6] == b[4:6] and np.array_equal(a[6], b[6])
        assert np.array_equal(a[1], b[1]) and np.array_equal(a[3], b[3])
    # the legal ids are the view's abstract mask; Q is 0 off them; the picks are legal
    g = Game(11, Rules().replace(max_rounds=1), game=3, start="random")
    state, seen = g.state, 0
    runners = {}
    while not state.match_over and seen < 5:
        seat = int(state.current_player)
        runners.setdefault(seat, _core.run.PolicyRunner("learned", 11, 3, seat))
        action = runners[seat].act(state)
        if state.phase == "play" and len(state.legal_actions()) > 1:
            s, feats, legal, q, heur, choice, cand = rows[seen]
            assert s == seat
            assert np.array_equal(legal, (_core.io.abstract_mask(state)[0] > 0).astype(np.uint8))
            assert np.array_equal(feats, _core.learned.learn_features(state)[0])
            assert np.all(q[legal == 0] == 0)
            assert legal[heur] and legal[choice]
            assert np.array_equal(cand, _core.learned.candidate_features(state)[1].astype(np.float16))
            seen += 1
        state.apply(action)
    assert seen == 5


def test_distil_shards_resume_and_load(tmp_path):
    assert distil(tmp_path, games=3, seed=5, shard_games=2) == 2
    first = load_distil(tmp_path)
    (tmp_path / "distil-00001.npz").unlink()
    assert distil(tmp_path, games=3, seed=5, shard_games=2) == 2
    second = load_distil(tmp_path)
    for k in first:
        assert np.array_equal(first[k], second[k]), k
    assert set(first["game"].tolist()) <= {0, 1, 2}
    assert first["state"].dtype == np.float16 and first["q"].shape[1] == NUM_ABSTRACT
    with pytest.raises(ValueError):
        load_distil(tmp_path / "none")


def _reference_targets(q, legal, choice, t, w):
    out = np.zeros(q.shape, np.float64)
    for i in range(len(q)):
        ids = [j for j in range(q.shape[1]) if legal[i, j]]
        m = max(float(q[i, j]) for j in ids)
        e = {j: math.exp((float(q[i, j]) - m) / t) for j in ids}
        z = sum(e.values())
        for j in ids:
            out[i, j] = (1 - w) * e[j] / z
        out[i, choice[i]] += w
    return out


@pytest.mark.parametrize("w", [0.0, 0.5, 1.0])
def test_soft_targets_against_a_plain_reading(w):
    rng = np.random.default_rng(2)
    n = 40
    legal = (rng.random((n, NUM_ABSTRACT)) < 0.02).astype(np.uint8)
    legal[:, 7] = 1
    q = np.where(legal > 0, rng.normal(0, 0.05, (n, NUM_ABSTRACT)), 0).astype(np.float16)
    choice = np.array([rng.choice(np.flatnonzero(r)) for r in legal])
    got = soft_targets(q, legal, choice, 0.025, w)
    ref = _reference_targets(q.astype(np.float32), legal, choice, 0.025, w)
    ref[ref < 1e-6] = 0
    ref /= ref.sum(axis=1, keepdims=True)
    assert np.allclose(got, ref, atol=1e-5)
    assert np.all(got[legal == 0] == 0) and np.allclose(got.sum(axis=1), 1)
    if w > 0.5:
        assert np.array_equal(got.argmax(axis=1), choice)


def test_the_trunk_from_the_qnetwork_computes_its_state_part():
    from daguai.dgn import read_dgn

    layers, _, _ = read_dgn(MODEL)
    (w0, b0), (w1, b1) = layers[0], layers[1]
    model = Heads((512, 256))
    init_from_qnet(model, MODEL)
    state = _core.learned.learn_features(Game(seed=5).state)[0]
    legal = np.zeros(NUM_ABSTRACT, np.float32)
    legal[:50] = 1
    with torch.no_grad():
        x = torch.cat([torch.as_tensor(state)[None], torch.as_tensor(legal)[None]], dim=1)
        h0 = model.trunk[1](model.trunk[0](x))[0].numpy()
        h1 = model.trunk[3](model.trunk[2](torch.as_tensor(h0)[None]))[0].numpy()
    ref0 = np.maximum(w0[:, :STATE_FEATURES].astype(np.float64) @ state + b0, 0)
    assert np.allclose(h0[:256], ref0, atol=1e-4)
    ref1 = np.maximum(w1.astype(np.float64) @ ref0 + b1, 0)
    assert np.allclose(h1[:128], ref1, atol=1e-3)


def test_the_student_learns_the_networks_choices(tmp_path):
    net = _network("learned")
    games = list(range(30))
    rows = [distil_round(21, i, net) for i in games]
    d = _pack(games, rows)
    n = len(d["game"])
    labels = LabelSet({"game": d["game"], "state": d["state"].astype(np.float32), "legal": d["legal"],
                       "choice": d["choice"], "incumbent": d["choice"]}, ["distil"])
    cfg = StudentConfig(widths=(128,), distil_epochs=4, expert_epochs=1, batch=128, eval_every=10**9,
                        init="", seed=1)
    doc = train_student(d, labels, tmp_path, cfg)
    curve = doc["curve"]
    assert doc["references"]["distil_train"] + (d["game"] % 10 == 0).sum() == n
    assert curve[0]["phase"] == "start" and curve[-1]["phase"] == "expert 1"
    assert curve[-1]["val_network_top1"] > curve[0]["val_network_top1"] + 0.15
    from daguai.learn.heads import load_heads

    assert isinstance(load_heads(tmp_path / "heads.pt"), Heads)
    # a run goes on from a checkpoint: its first figures are the checkpoint's
    on = train_student(d, labels, tmp_path / "on", StudentConfig(
        widths=(128,), start=str(tmp_path / "heads.pt"), distil_epochs=0, expert_epochs=0))
    assert on["curve"][0]["val_network_top1"] == doc["best"]["val_network_top1"]
    assert on["curve"][0]["val_expert_top1"] == doc["best"]["val_expert_top1"]
    with pytest.raises(ValueError, match="widths"):
        train_student(d, labels, tmp_path / "bad",
                      StudentConfig(widths=(64,), start=str(tmp_path / "heads.pt")))
