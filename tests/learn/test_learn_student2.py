"""The one-pass student with per-candidate features (daguai.learn.student2, the ``cand`` field of
daguai.learn.distil, daguai.learn.label_cands): the stored candidate features are the ones the
player computes from its view at the same position (R16: the view is all they read; R17: the same
seed gives the same shards, bit for bit), the canonical candidates are io's
``action_from_abstract``, the network's one pass equals a per-candidate reading, and a resumed
run is the uninterrupted one."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from daguai import _core  # noqa: E402
from daguai.game import Game  # noqa: E402
from daguai.learn.distil import _network, cand_offsets, distil, distil_round, load_distil  # noqa: E402
from daguai.learn.heads import Heads  # noqa: E402
from daguai.learn.label_cands import label_cands, load_label_cands, replay_round  # noqa: E402
from daguai.learn.labels import LabelConfig, decision_stream  # noqa: E402
from daguai.learn.shards import NUM_ABSTRACT, LabelError, LabelSet, load_labels, load_shard  # noqa: E402
from daguai.learn.student2 import (  # noqa: E402
    CandHeads,
    CandHeadsPolicy,
    Student2Config,
    batch_inputs,
    load_cand_heads,
    train_student2,
)
from daguai.rules import Rules  # noqa: E402
from pickle_helpers import Planted  # noqa: E402

TEACHER1 = Path(__file__).resolve().parents[2] / "training" / "teacher1"
# the network teacher1's expert searched over (generation 4, format 1: it played R11 as the
# heuristic); the shipped model has changed since, so the replays name it
GEN4 = Path(__file__).resolve().parents[2] / "training" / "gen5b" / "gen4.dgn"
GEN4_EXPERT = f"expert@{GEN4}"
ACTION_FEATURES = int(_core.learned.ACTION_FEATURES)


def _play_time_features(state):
    """What CandHeadsPolicy computes from the seat's view (a sampled world, float16)."""
    pol = CandHeadsPolicy.__new__(CandHeadsPolicy)
    return pol.features(_view(state))


def _view(state):
    seat = int(state.current_player)
    return _core.game.information_state(state, seat, True, True)


def test_canonical_candidates_are_action_from_abstract_and_the_qnetworks_but_the_heuristic():
    g = Game(seed=31)
    state, checked = g.state, 0
    while not state.match_over and checked < 60:
        if state.phase == "play":
            ids, feats = _core.learned.candidate_features(state)
            _, cands, afeats, h = _core.learned.learn_features(state)
            legal = _core.io.abstract_mask(state)[0]
            assert ids.tolist() == np.flatnonzero(legal).tolist()
            assert feats.shape == (len(ids), ACTION_FEATURES) and np.all(feats[:, 121] == 0)
            level = state.level or "2"
            for k, i in enumerate(ids.tolist()):
                canon = _core.io.action_from_abstract(state, i)
                assert _core.io.abstract_id(canon, canon.play.level if canon.play else level) == i
                if k != h or str(cands[k]) == str(canon):  # the Q-network's candidate for the id
                    want = afeats[k].copy()
                    want[121] = 0
                    assert np.array_equal(feats[k], want), (i, str(canon))
            checked += 1
        state.apply(_core.run.PolicyRunner("heuristic", 31, 0, int(state.current_player)).act(state))
    assert checked == 60
    ids, feats = _core.learned.candidate_features(Game(seed=31).state)  # a deal's first decision
    assert len(ids) == len(feats)


def test_distil_shards_store_the_play_time_candidate_features_R16_R17(tmp_path):
    assert distil(tmp_path / "a", games=2, seed=5, shard_games=1) == 2
    assert distil(tmp_path / "b", games=2, seed=5, shard_games=1) == 2
    for f in sorted((tmp_path / "a").glob("*.npz")):  # R17: the same shards bit for bit
        assert f.read_bytes() == (tmp_path / "b" / f.name).read_bytes()
    d = load_distil(tmp_path / "a")
    off = cand_offsets(d["legal"])
    assert d["cand"].dtype == np.float16 and off[-1] == len(d["cand"])
    j = 0
    for i in range(2):  # the same positions replayed: the player's features from the view
        g = Game(5, Rules().replace(max_rounds=1), game=i, start="random")
        state, runners = g.state, {}
        while not state.match_over:
            seat = int(state.current_player)
            runners.setdefault(seat, _core.run.PolicyRunner("learned", 5, i, seat))
            action = runners[seat].act(state)
            if state.phase == "play" and len(state.legal_actions()) > 1:
                st, legal, cand = _play_time_features(state)
                assert d["game"][j] == i and d["seat"][j] == seat
                assert np.array_equal(legal, d["legal"][j]) and np.array_equal(st, d["state"][j])
                assert cand.dtype == np.float16 and np.array_equal(cand, d["cand"][off[j]:off[j + 1]])
                j += 1
            state.apply(action)
    assert j == len(d["game"])


def test_old_distil_shards_stay_readable(tmp_path):
    net = _network("learned")
    rows = distil_round(3, 0, net)
    assert len(rows[0]) == 7
    distil(tmp_path, games=1, seed=3, shard_games=1)
    f = tmp_path / "distil-00000.npz"
    a = dict(np.load(f))
    assert int(a["version"]) == 2
    old = {k: v for k, v in a.items() if k not in ("cand", "version")}
    np.savez(tmp_path / "distil-00001.npz", **old)  # a version-1 shard (student1's) beside it
    both = load_distil(tmp_path)
    assert "cand" not in both and "version" not in both and len(both["game"]) == 2 * len(a["game"])
    assert np.array_equal(load_distil(tmp_path, 1)["cand"], a["cand"])


def test_label_sidecars_hold_the_play_time_features_of_the_labelled_positions(tmp_path):
    shard = TEACHER1 / "shard-00000.npz"
    assert label_cands(TEACHER1, tmp_path, shards=[0], teacher=GEN4_EXPERT) == 1
    assert label_cands(TEACHER1, tmp_path, shards=[0], teacher=GEN4_EXPERT) == 0  # present: kept
    cand = load_label_cands([shard], tmp_path)
    a = load_shard(shard)
    off = cand_offsets(a["legal"])
    assert off[-1] == len(cand)
    cfg = LabelConfig(games=100000, seed=40001, shard_games=20,  # training/teacher1's settings
                      teacher=GEN4_EXPERT)
    i = 0  # round 0 walked here: the labelled moves, the teacher elsewhere
    sel = np.flatnonzero(a["game"] == i)
    plies = a["ply"][sel].tolist()
    state = Game(cfg.seed, cfg.rules(), game=i, start=cfg.start).state
    ply = 0
    for j, p in zip(sel.tolist(), plies, strict=True):
        while ply < p:
            stream = decision_stream(i, ply)
            state.apply(_core.catalog._traced_decision(state, GEN4_EXPERT, cfg.seed, stream)[0])
            ply += 1
        st, legal, c = _play_time_features(state)
        assert np.array_equal(legal, a["legal"][j]) and np.array_equal(st, a["state"][j].astype(np.float16))
        assert np.array_equal(c, cand[off[j]:off[j + 1]])
        state.apply(next(x for x in state.legal_actions() if str(x) == str(a["action"][j])))
        ply += 1
    # a shard whose position is not the replay's is refused
    rows = {k: a[k][sel].copy() for k in ("ply", "legal", "state", "action")}
    rows["state"][3, 0] += 1
    with pytest.raises(RuntimeError, match="not the labelled position"):
        replay_round(cfg, i, rows)
    with pytest.raises(LabelError):
        load_label_cands([TEACHER1 / "shard-00001.npz"], tmp_path)


def test_batch_inputs_against_a_per_position_reading():
    rng = np.random.default_rng(4)
    n = 30
    legal = (rng.random((n, NUM_ABSTRACT)) < 0.03).astype(np.uint8)
    legal[:, 5] = 1
    off = cand_offsets(legal)
    cand = rng.normal(size=(off[-1], ACTION_FEATURES)).astype(np.float16)
    state = rng.normal(size=(n, 687)).astype(np.float16)
    idx = rng.permutation(n)[:17]
    _, _, c, seg, cid = batch_inputs(state, legal, cand, off, idx)
    k = 0
    for r, j in enumerate(idx):
        for m, i in enumerate(np.flatnonzero(legal[j])):
            assert seg[k] == r and cid[k] == i
            assert np.array_equal(c[k].numpy(), cand[off[j] + m].astype(np.float32))
            k += 1
    assert k == len(seg)


def test_one_pass_equals_a_per_candidate_reading_and_starts_as_the_student1_head():
    torch.manual_seed(0)
    model = CandHeads((64, 32), (16, 8))
    base = Heads((64, 32))
    model.base.load_state_dict(base.state_dict())
    rng = np.random.default_rng(1)
    n = 6
    legal = (rng.random((n, NUM_ABSTRACT)) < 0.05).astype(np.uint8)
    legal[:, 0] = 1
    off = cand_offsets(legal)
    cand = rng.normal(size=(off[-1], ACTION_FEATURES)).astype(np.float16)
    state = rng.normal(size=(n, 687)).astype(np.float16)
    inputs = batch_inputs(state, legal, cand, off, np.arange(n))
    with torch.no_grad():
        start = model(*inputs)
        want, _ = base(inputs[0], inputs[1])
        assert torch.equal(start, want)  # the candidate part starts at 0
        for p in (model.cand_out.weight, model.cand_out.bias):
            p.normal_()
        got = model(*inputs).numpy()
        for j in range(n):
            h = model.base.trunk(torch.cat([inputs[0][j:j + 1], inputs[1][j:j + 1]], dim=1))[0]
            base_logits = model.base.policy(h)
            for m, i in enumerate(np.flatnonzero(legal[j])):
                f = torch.as_tensor(cand[off[j] + m].astype(np.float32))
                u = torch.relu(model.cand_state.weight @ h + model.cand_state.bias
                               + model.cand_feat.weight @ f)
                s = model.cand_out.weight[0] @ torch.relu(model.cand_mid.weight @ u + model.cand_mid.bias)
                assert abs(got[j, i] - float(base_logits[i] + s + model.cand_out.bias[0])) < 1e-4
            assert np.all(np.isneginf(got[j][legal[j] == 0]))


def _small_data():
    d = load_distil_small()
    labels = LabelSet({"game": d["game"], "state": d["state"].astype(np.float32), "legal": d["legal"],
                       "choice": d["choice"], "incumbent": d["choice"]}, ["distil"])
    return d, labels


_CACHE: dict[str, dict[str, np.ndarray]] = {}


def load_distil_small():
    if "d" not in _CACHE:
        from daguai.learn.distil import _pack

        net = _network("learned")
        games = list(range(20))
        _CACHE["d"] = _pack(games, [distil_round(21, i, net) for i in games])
    return _CACHE["d"]


def test_the_student_learns_and_a_resumed_run_is_the_uninterrupted_one(tmp_path):
    d, labels = _small_data()
    cfg = Student2Config(widths=(64,), cand_widths=(16, 8), distil_epochs=3, expert_epochs=1, batch=64,
                         eval_every=2000, seed=2)
    doc = train_student2(d, labels, d["cand"], tmp_path / "a", cfg)
    curve = doc["curve"]
    assert curve[0]["phase"] == "start" and curve[-1]["phase"] == "expert 1"
    assert curve[-1]["val_network_top1"] > curve[0]["val_network_top1"] + 0.15
    part = train_student2(d, labels, d["cand"], tmp_path / "b", cfg, stop_steps=40)
    assert part["stopped"] >= 40 and not (tmp_path / "b" / "heads.pt").exists()
    again = train_student2(d, labels, d["cand"], tmp_path / "b", cfg, resume=True)
    assert [r["val_network_top1"] for r in again["curve"]] == [r["val_network_top1"] for r in curve]
    one, two = load_cand_heads(tmp_path / "a" / "heads.pt"), load_cand_heads(tmp_path / "b" / "heads.pt")
    for (k, v), (_, w) in zip(one.state_dict().items(), two.state_dict().items(), strict=True):
        assert torch.equal(v, w), k
    # the player: a legal action at each decision, from the view
    pol = CandHeadsPolicy(tmp_path / "a" / "heads.pt")
    state = Game(seed=8).state
    for _ in range(40):
        seat = int(state.current_player)
        a = pol(_view(state), seat)
        assert str(a) in {str(x) for x in state.legal_actions()}
        state.apply(a)
    shutil.rmtree(tmp_path / "b")


def test_labels_of_the_committed_folder_load_with_their_sidecars(tmp_path):
    files = [TEACHER1 / "shard-00000.npz", TEACHER1 / "shard-00001.npz"]
    label_cands(TEACHER1, tmp_path, shards=[0, 1], teacher=GEN4_EXPERT)
    labels = load_labels(files)
    cand = load_label_cands(files, tmp_path)
    assert len(cand) == int(labels.arrays["legal"].sum())


def test_the_ablation_and_the_heuristic_diagnostic_inputs(tmp_path):
    from daguai.learn.student2 import HEURISTIC_COLUMN, _inputs

    d = load_distil_small()
    off = cand_offsets(d["legal"])
    idx = np.arange(0, len(d["game"]), 7)
    data = (d["state"], d["legal"], d["cand"], off)
    _, _, c, seg, cid = _inputs(data, idx, (123,), d["heur"])
    k = 0
    for r, j in enumerate(idx):
        for m, i in enumerate(np.flatnonzero(d["legal"][j])):
            want = d["cand"][off[j] + m].astype(np.float32)
            want[123] = 0
            want[HEURISTIC_COLUMN] = float(i == d["heur"][j])
            assert np.array_equal(c[k].numpy(), want) and seg[k] == r
            k += 1
    assert float(c[:, HEURISTIC_COLUMN].sum()) == len(idx)  # one heuristic id per position
    _, labels = _small_data()
    with pytest.raises(ValueError, match="diagnostic"):
        train_student2(d, labels, d["cand"], tmp_path, Student2Config(heuristic_flag=True))
    cfg = Student2Config(widths=(32,), cand_widths=(8, 4), distil_epochs=0.2, expert_epochs=0, batch=64,
                         heuristic_flag=True)
    train_student2(d, labels, d["cand"], tmp_path, cfg)
    with pytest.raises(ValueError, match="not a player"):
        CandHeadsPolicy(tmp_path / "heads.pt")


def test_a_crafted_checkpoint_runs_no_code(tmp_path):
    """load_cand_heads, CandHeadsPolicy and a resumed fit read checkpoints weights-only: a pickle
    that would run code when loaded is refused and runs nothing."""
    from daguai.learn.student2 import CandHeadsPolicy, load_cand_heads

    target = tmp_path / "planted.txt"
    bad = tmp_path / "heads.pt"
    torch.save({"widths": [8], "cand_widths": [8], "state_dict": Planted(str(target))}, bad)
    for load in (load_cand_heads, CandHeadsPolicy):
        with pytest.raises(Exception, match="(?i)weights.only|unpickl|global"):
            load(bad)
    assert not target.exists()
