"""The search teaches the Q-network (daguai.learn.qfit, the ``qnet`` sidecars of
daguai.learn.label_cands): the stored rows are the candidates the learned player scores at the
labelled positions (R16: its own view's features), the torch pass is the engine's float pass, the
decision rule is the player's, a resumed fine-tune is the uninterrupted one, and the result is a
model the engine plays."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import daguai  # noqa: E402
from daguai import _core  # noqa: E402
from daguai.dgn import decides_r11  # noqa: E402
from daguai.game import Game  # noqa: E402
from daguai.learn.coded import RowCoder  # noqa: E402
from daguai.learn.distil import cand_offsets, qnet_rows  # noqa: E402
from daguai.learn.label_cands import cand_file, label_cands, load_label_cands  # noqa: E402
from daguai.learn.labels import LabelConfig, decision_stream  # noqa: E402
from daguai.learn.model import QNet  # noqa: E402
from daguai.learn.qfit import HEURISTIC_COLUMN, QFitConfig, QRows, fit_qnet, player_picks, q_of_rows  # noqa: E402
from daguai.learn.shards import LabelError, load_labels, load_shard  # noqa: E402
from pickle_helpers import Planted  # noqa: E402

TEACHER1 = Path(__file__).resolve().parents[2] / "training" / "teacher1"
# the network teacher1's expert searched over (generation 4, format 1: it played R11 as the
# heuristic); the shipped model has changed since, so the replays name it
GEN4 = Path(__file__).resolve().parents[2] / "training" / "gen5b" / "gen4.dgn"
GEN4_EXPERT = f"expert@{GEN4}"
GEN6 = GEN4.parents[1] / "qfit2" / "gen6.dgn"


def _rule(q: np.ndarray, h: int, margin: float) -> int:
    """distil.distil_round's rule, as written there."""
    best = int(np.argmax(q))
    return best if q[best] > q[h] + margin else h


def test_player_picks_is_the_players_rule_ties_and_margin_included():
    rng = np.random.default_rng(3)
    for margin in (0.0, 0.01, 0.3):
        counts = rng.integers(1, 9, size=300)
        q = np.round(rng.normal(0, 0.2, counts.sum()), 1).astype(np.float32)  # many ties
        seg = np.repeat(np.arange(len(counts)), counts)
        col = np.arange(len(q)) - np.repeat(np.cumsum(counts) - counts, counts)
        hcol = rng.integers(0, counts)
        heur = (col == hcol[seg]).astype(np.float32)
        got = player_picks(torch.from_numpy(q), torch.from_numpy(heur), torch.from_numpy(seg),
                           torch.from_numpy(col), len(counts), margin)
        start = np.cumsum(counts) - counts
        want = [_rule(q[a:a + c], int(h), margin) for a, c, h in zip(start, counts, hcol, strict=True)]
        assert got.tolist() == want


def test_qnet_sidecars_are_the_players_candidates_at_the_labelled_positions_R16(tmp_path):
    shard = TEACHER1 / "shard-00000.npz"
    assert label_cands(TEACHER1, tmp_path, shards=[0], kind="qnet", teacher=GEN4_EXPERT) == 1
    assert cand_file(shard, tmp_path, "qnet").name == "qcand-00000.npz"
    assert label_cands(TEACHER1, tmp_path, shards=[0], kind="qnet", teacher=GEN4_EXPERT) == 0  # present: kept
    with pytest.raises(LabelError, match="student2 cands"):
        load_label_cands([shard], tmp_path)  # the student's kind is not there
    with pytest.raises(LabelError, match="qfit cands"):
        load_label_cands([TEACHER1 / "shard-00001.npz"], tmp_path, kind="qnet")
    with pytest.raises(ValueError, match="kind"):
        load_label_cands([shard], tmp_path, kind="other")
    act = load_label_cands([shard], tmp_path, kind="qnet")
    a = load_shard(shard)
    off = cand_offsets(a["legal"])
    assert off[-1] == len(act)
    assert np.all(np.add.reduceat(act[:, HEURISTIC_COLUMN].astype(np.float64), off[:-1]) == 1)
    cfg = LabelConfig(games=100000, seed=40001, shard_games=20,  # training/teacher1's settings
                      teacher=GEN4_EXPERT)
    i = 0
    sel = np.flatnonzero(a["game"] == i)
    state = Game(cfg.seed, cfg.rules(), game=i, start=cfg.start).state
    ply = 0
    for j, p in zip(sel.tolist(), a["ply"][sel].tolist(), strict=True):
        while ply < p:
            stream = decision_stream(i, ply)
            state.apply(_core.catalog._traced_decision(state, GEN4_EXPERT, cfg.seed, stream)[0])
            ply += 1
        # the player's features read the seat's view only: a world sampled from it gives them
        seat = int(state.current_player)
        world = _core.beliefs.sample_worlds(_core.game.information_state(state, seat, True, True), 1, 0)[0]
        assert np.array_equal(qnet_rows(world, a["legal"][j]), act[off[j]:off[j + 1]])
        state.apply(next(x for x in state.legal_actions() if str(x) == str(a["action"][j])))
        ply += 1


def test_the_torch_pass_is_the_engines_float_pass_and_picks_the_searchs_incumbent(tmp_path):
    label_cands(TEACHER1, tmp_path, shards=[0], kind="qnet", teacher=GEN4_EXPERT)
    files = [TEACHER1 / "shard-00000.npz"]
    labels = load_labels(files)
    data = QRows.of_labels(labels.arrays, load_label_cands(files, tmp_path, kind="qnet"))
    legal = labels.arrays["legal"]
    for j in range(len(data.target)):
        ids = np.flatnonzero(legal[j])
        assert ids[data.target[j]] == labels.arrays["choice"][j]
        inc = labels.arrays["incumbent"][j]
        assert (data.incumbent[j] == -1) if inc < 0 else ids[data.incumbent[j]] == inc
    net, engine = QNet.from_dgn(GEN4), _core.learned.Network.from_file(str(GEN4))
    idx = np.arange(0, len(data.target), 5)
    state, act, seg, col, rows = data.batch(idx)
    with torch.no_grad():
        q = q_of_rows(net, state, act, seg)
        assert torch.allclose(q, net(state[seg], act), atol=1e-5)
    for k, j in enumerate(idx[:60].tolist()):
        want = engine.evaluate(data.state[j], data.act[data.off[j]:data.off[j + 1]].astype(np.float32))
        assert np.allclose(q.numpy()[seg.numpy() == k], want, atol=1e-5)
    # the float pass's decision is the integer pass's (the search's incumbent) but at near ties
    pick = player_picks(q, act[:, HEURISTIC_COLUMN], seg, col, len(idx), float(engine.margin))
    raced = data.incumbent[idx] >= 0
    assert np.mean(pick[raced] == data.incumbent[idx][raced]) > 0.99


def _small(tmp_path):
    files = [TEACHER1 / "shard-00000.npz", TEACHER1 / "shard-00001.npz"]
    label_cands(TEACHER1, tmp_path / "c", shards=[0, 1], kind="qnet", teacher=GEN4_EXPERT)
    labels = load_labels(files)
    return QRows.of_labels(labels.arrays, load_label_cands(files, tmp_path / "c", kind="qnet"))


def test_a_fine_tune_learns_resumes_and_writes_a_model_the_engine_plays(tmp_path):
    data = _small(tmp_path)
    # the labels' incumbent is generation 4's choice: start from that network
    cfg = QFitConfig(epochs=2, batch=64, eval_every=1000, lr=3e-4, seed=5, model=str(GEN4))
    doc = fit_qnet(data, tmp_path / "a", cfg, meta={"command": "test"})
    curve = doc["curve"]
    assert curve[0]["step"] == 0 and curve[0]["val_incumbent_top1"] > 0.99  # the start is the model
    assert curve[-1]["train_ce"] < curve[1]["train_ce"]
    part = fit_qnet(data, tmp_path / "b", cfg, stop_steps=20)
    assert part["stopped"] >= 20 and not (tmp_path / "b" / "qfit.dgn").exists()
    again = fit_qnet(data, tmp_path / "b", cfg, resume=True, meta={"command": "test"})
    assert [r["val_expert_top1"] for r in again["curve"]] == [r["val_expert_top1"] for r in curve]
    one, two = (tmp_path / "a" / "qfit.dgn").read_bytes(), (tmp_path / "b" / "qfit.dgn").read_bytes()
    assert one == two
    layers, meta, margin = daguai.learn.read_dgn(tmp_path / "a" / "qfit.dgn")
    assert margin == pytest.approx(float(_core.learned.Network.from_file(str(GEN4)).margin))
    assert meta["command"] == "test" and meta["best"] == doc["best"] and meta["rules"]["table"] == "6p3d"
    r = daguai.simulate(2, policies=[str(tmp_path / "a" / "qfit.dgn")] * 6, seed=1, threads=1)
    assert len(r["winner"]) == 2
    assert not decides_r11(one)  # generation 4 plays R11 as the heuristic: so does its fine-tune


def _ranks_at_once(arrays: dict, act: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """QRows.of_labels's indices among the legal ids, the whole n x 444 at once (as it was)."""
    rank = np.cumsum(arrays["legal"].astype(np.int64), axis=1) - 1
    rows = np.arange(len(rank))
    inc = arrays["incumbent"].astype(np.int64)
    arm_pos = np.repeat(rows, np.diff(arrays["arm_start"]))
    return (rank[rows, arrays["choice"].astype(np.int64)],
            np.where(inc >= 0, rank[rows, np.maximum(inc, 0)], -1),
            rank[arm_pos, arrays["arm_id"].astype(np.int64)])


def test_coded_labels_and_candidates_fit_the_same_model_bit_for_bit(tmp_path):
    files = [TEACHER1 / "shard-00000.npz", TEACHER1 / "shard-00001.npz"]
    label_cands(TEACHER1, tmp_path / "c", shards=[0, 1], kind="qnet", teacher=GEN4_EXPERT)
    dense = load_labels(files)
    coded = load_labels(files, coded=("state",), texts=False)
    assert "action" not in coded.arrays and "arm_action" not in coded.arrays
    assert coded.arrays["state"].codes.dtype == np.uint8
    assert np.array_equal(coded.arrays["state"][:], dense.arrays["state"])
    for k in dense.arrays.keys() - {"state", "action", "arm_action"}:
        assert np.array_equal(coded.arrays[k], dense.arrays[k]), k
    coder = RowCoder(np.float16)
    act = load_label_cands(files, tmp_path / "c", kind="qnet")
    act_coded = coder.rows(load_label_cands(files, tmp_path / "c", kind="qnet", coder=coder))
    assert np.array_equal(act_coded[:], act)
    a, b = QRows.of_labels(dense.arrays, act), QRows.of_labels(coded.arrays, act_coded)
    for name, want in zip(("target", "incumbent", "arm_col"), _ranks_at_once(dense.arrays, act), strict=True):
        assert np.array_equal(getattr(a, name), want) and np.array_equal(getattr(b, name), want), name
    cfg = QFitConfig(epochs=1, batch=64, eval_every=1000, lr=3e-4, seed=5, model=str(GEN4))
    one, two = fit_qnet(a, tmp_path / "a", cfg), fit_qnet(b, tmp_path / "b", cfg)

    def timeless(rows: list[dict]) -> list[dict]:  # a row's "seconds" is the wall clock's
        return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]

    assert timeless(one["curve"]) == timeless(two["curve"]) and len(one["curve"]) > 2
    for (w1, b1), (w2, b2) in zip(daguai.learn.read_dgn(tmp_path / "a" / "qfit.dgn")[0],
                                  daguai.learn.read_dgn(tmp_path / "b" / "qfit.dgn")[0], strict=True):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)
    with pytest.raises(ValueError, match="only the float arrays of a shard can be coded, not 'legal'"):
        load_labels(files, coded=("legal",))


@pytest.mark.parametrize("change", ["lr", "min_gap", "model", "labels"])
def test_a_resume_with_other_settings_or_labels_is_refused_by_name(tmp_path, change):
    data = _small(tmp_path)
    cfg = QFitConfig(epochs=2, batch=64, eval_every=1000, lr=3e-4, seed=5, model=str(GEN4))
    fit_qnet(data, tmp_path / "run", cfg, stop_steps=20)
    last = (tmp_path / "run" / "last.pt").read_bytes()
    other, what = {
        "lr": ((QFitConfig(**{**cfg.__dict__, "lr": 1e-4}), data), "lr"),
        "min_gap": ((QFitConfig(**{**cfg.__dict__, "min_gap": 1e9}), data), "min_gap"),
        # another start of the same margin (generation 6 at 0.01): named by its digest
        "model": ((QFitConfig(**{**cfg.__dict__, "model": str(GEN6)}), data), "model_sha256"),
        "labels": ((cfg, QRows(**{**data.__dict__, "target": data.incumbent.copy()})), "targets_sha256"),
    }[change]
    with pytest.raises(ValueError, match=f"made with {what} = "):
        fit_qnet(other[1], tmp_path / "run", other[0], resume=True)
    assert (tmp_path / "run" / "last.pt").read_bytes() == last  # nothing written
    # the same settings go on (the test above checks that result against an uninterrupted run)
    fit_qnet(data, tmp_path / "run", cfg, resume=True, stop_steps=40)


def test_the_play_evaluation_chooses_the_best(tmp_path):
    data = _small(tmp_path)
    cfg = QFitConfig(epochs=1, batch=64, eval_every=2000, seed=5, play_deals=3, play_seed=11)
    doc = fit_qnet(data, tmp_path, cfg)
    rows = doc["curve"]
    assert all("play_vs_start" in r and len(r["play_ci"]) == 2 for r in rows)
    assert rows[0]["play_vs_start"] == 0.0  # the start against itself: every deal is even
    assert doc["best"]["play_vs_start"] == max(r["play_vs_start"] for r in rows)
    # the start (the shipped model) makes the R11 decisions (format 2): the result keeps that
    assert all(decides_r11((tmp_path / f).read_bytes()) for f in ("qfit.dgn", "eval.dgn"))


def test_a_crafted_last_pt_runs_no_code(tmp_path):
    data = _small(tmp_path)
    target = tmp_path / "planted.txt"
    (tmp_path / "run").mkdir()
    torch.save({"state_dict": Planted(str(target))}, tmp_path / "run" / "last.pt")
    with pytest.raises(Exception, match="(?i)weights.only|unpickl|global"):
        fit_qnet(data, tmp_path / "run", QFitConfig(epochs=1, batch=64), resume=True)
    assert not target.exists()


def _plain_losses(data: QRows, idx: np.ndarray, q: np.ndarray, cfg: QFitConfig, margin: float) -> float:
    """The three losses read position by position (the module's definitions, plainly)."""
    total = weights = 0.0
    r = 0
    for j in idx.tolist():
        departs = data.target[j] != data.incumbent[j] and data.incumbent[j] >= 0
        w = cfg.departure_weight if departs else 1.0
        weights += w
        k = int(data.off[j + 1] - data.off[j])
        z = q[r:r + k] + margin * data.act[data.off[j]:data.off[j + 1], HEURISTIC_COLUMN].astype(np.float64)
        r += k
        t = int(data.target[j])
        if cfg.loss == "ce":
            zz = z / cfg.temperature
            total += -w * (zz[t] - np.log(np.sum(np.exp(zz - zz.max()))) - zz.max())
        elif cfg.loss == "hinge":
            others = np.delete(z, t)
            total += w * max(0.0, (others.max() if len(others) else -np.inf) - z[t] + cfg.hinge)
        else:
            arms = range(int(data.arm_start[j]), int(data.arm_start[j + 1]))
            za = np.array([z[data.arm_col[a]] for a in arms]) / cfg.temperature
            m = np.array([data.arm_mean[a] for a in arms], np.float64) / cfg.arm_temperature
            want = np.exp(m - m.max()) / np.exp(m - m.max()).sum()
            logp = za - za.max() - np.log(np.exp(za - za.max()).sum())
            total += -w * float(np.sum(want * logp))
    return total / weights


@pytest.mark.parametrize("loss", ["ce", "hinge", "arms"])
@pytest.mark.parametrize("departure_weight", [1.0, 5.0])
def test_each_loss_against_a_plain_reading(tmp_path, loss, departure_weight):
    from daguai.learn.qfit import _loss

    data = _small(tmp_path)
    legal_ids = [np.flatnonzero(r) for r in load_labels([TEACHER1 / "shard-00000.npz"]).arrays["legal"]]
    for j in range(len(legal_ids)):  # the raced groups are candidates of their position
        arms = range(int(data.arm_start[j]), int(data.arm_start[j + 1]))
        assert all(0 <= data.arm_col[a] < len(legal_ids[j]) for a in arms)
    net = QNet.from_dgn(GEN4)
    idx = np.arange(3, len(data.target), 37)
    q0 = np.zeros(len(data.act), np.float32)
    cfg = QFitConfig(loss=loss, temperature=0.07, hinge=0.02, arm_temperature=0.3,
                     departure_weight=departure_weight)
    departs = (data.target[idx] != data.incumbent[idx]) & (data.incumbent[idx] >= 0)
    assert 0 < departs.sum() < len(idx)  # both kinds of label are weighed
    with torch.no_grad():
        got, anchor = _loss(net, data, idx, q0, cfg, 0.01)
        state, act, seg, _, rows = data.batch(idx)
        q = q_of_rows(net, state, act, seg).numpy().astype(np.float64)
    assert float(got) == pytest.approx(_plain_losses(data, idx, q, cfg, 0.01), rel=1e-4, abs=1e-6)
    assert float(anchor) == pytest.approx(float(np.mean(q ** 2)), rel=1e-4)


def test_departures_are_kept_by_their_race_gap_against_a_plain_reading(tmp_path):
    data = _small(tmp_path)
    gaps = data.departure_gaps()
    for j in range(len(data.target)):  # the raced groups' mean score changes, read one by one
        arms = range(int(data.arm_start[j]), int(data.arm_start[j + 1]))
        mean: dict[int, float] = {}
        for a in arms:  # a candidate raced twice counts its best arm
            c = int(data.arm_col[a])
            mean[c] = max(mean.get(c, -np.inf), float(data.arm_mean[a]))
        t, i = int(data.target[j]), int(data.incumbent[j])
        if t == i or i < 0 or t not in mean or i not in mean:
            assert np.isnan(gaps[j])
        else:
            assert gaps[j] == pytest.approx(mean[t] - mean[i])
    departed = ~np.isnan(gaps)
    assert departed.sum() > 20 and (gaps[departed] > 0).all()  # the race departs only for better
    assert data.with_min_gap(0.0) is data
    mid = float(np.median(gaps[departed]))
    some = data.with_min_gap(mid)
    kept, dropped = departed & (gaps >= mid), departed & (gaps < mid)
    np.testing.assert_array_equal(some.target[kept], data.target[kept])
    np.testing.assert_array_equal(some.target[dropped], data.incumbent[dropped])
    np.testing.assert_array_equal(some.target[~departed], data.target[~departed])
    none = data.with_min_gap(1e9)  # the control: every label is the network's own choice
    np.testing.assert_array_equal(none.target, data.incumbent)
    # a fine-tune on the control's labels: its curve still reads the expert's choices
    doc = fit_qnet(data, tmp_path / "run", QFitConfig(epochs=1, batch=64, eval_every=10_000, min_gap=1e9,
                                                      model=str(GEN4)))
    start = doc["curve"][0]
    assert start["val_incumbent_top1"] > 0.99 and start["val_expert_top1"] < 0.97
    assert doc["config"]["min_gap"] == 1e9


@pytest.mark.parametrize("bad", [dict(loss="mse"), dict(temperature=0.0), dict(lr=float("nan")),
                                 dict(anchor=-1.0), dict(epochs=0), dict(batch=True), dict(play_deals=-1),
                                 dict(min_gap=-0.5), dict(min_gap=float("inf")),
                                 dict(departure_weight=0.0), dict(departure_weight="2")])
def test_bad_settings_are_refused_by_name(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        QFitConfig(**bad)


def test_the_command_line_makes_the_sidecars_and_a_model(tmp_path, capsys):
    from daguai.learn.qfit import main

    assert main(["cands", str(TEACHER1), "--out", str(tmp_path / "c"), "--label-shards", "1",
                 "--teacher", GEN4_EXPERT]) == 0
    assert (tmp_path / "c" / "qcand-00000.npz").exists() and "1 made" in capsys.readouterr().out
    args = ["fit", str(tmp_path / "run"), "--labels", str(TEACHER1), "--label-shards", "1", "--cands",
            str(tmp_path / "c"), "--batch", "64", "--eval-every", "1000"]
    assert main(args) == 0
    meta = daguai.learn.read_dgn(tmp_path / "run" / "qfit.dgn")[1]
    assert meta["command"] == "python -m daguai.learn.qfit " + " ".join(args)
    n = len(load_shard(TEACHER1 / "shard-00000.npz")["choice"])
    assert meta["labels"] == {"folders": [{"folder": str(TEACHER1), "shards": 1}], "shards": 1, "labels": n}
    # two label folders (each with its sidecars' folder): their shards in that order
    (tmp_path / "t2").mkdir()
    (tmp_path / "t2" / "shard-00000.npz").write_bytes((TEACHER1 / "shard-00000.npz").read_bytes())
    two = ["fit", str(tmp_path / "run2"), "--labels", str(TEACHER1), str(tmp_path / "t2"),
           "--label-shards", "1", "--cands", str(tmp_path / "c"), str(tmp_path / "c"),
           "--batch", "64", "--eval-every", "1000"]
    assert main(two) == 0
    meta = daguai.learn.read_dgn(tmp_path / "run2" / "qfit.dgn")[1]
    assert meta["labels"]["labels"] == 2 * n and [f["folder"] for f in meta["labels"]["folders"]] == [
        str(TEACHER1), str(tmp_path / "t2")]
    with pytest.raises(SystemExit) as e:  # one sidecar folder for two label folders
        main([*two[:-4], "--cands", str(tmp_path / "c"), "--batch", "64"])
    assert e.value.code == 2 and "one each" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit) as e:
        main(["fit", str(tmp_path / "run3"), "--labels", str(tmp_path / "empty")])
    assert e.value.code == 2 and "no label shards in" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:  # a bad setting: one line, status 2
        main([*args, "--loss", "mse"])
    assert e.value.code == 2 and "loss must be ce, hinge or arms" in capsys.readouterr().err
