"""The second look at the search's departures (daguai.learn.verify): each departure of a label
shard raced again, its two actions alone, at the labelled position (reached by the replay);
the gap is the difference of the two groups' points as daguai.analyze reports them over the
same worlds; the sidecar is the same on every run and split (R17); qfit teaches a departure by
it exactly as the rule says; bad sidecars and settings are refused by name."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import daguai  # noqa: E402
from daguai import _core  # noqa: E402
from daguai.learn.label_cands import (  # noqa: E402
    _config,
    label_cands,  # noqa: E402
    replay_round,
)
from daguai.learn.labels import decision_stream  # noqa: E402
from daguai.learn.qfit import QRows, main  # noqa: E402
from daguai.learn.shards import LabelError, load_shard  # noqa: E402
from daguai.learn.verify import load_verified, verify_file, verify_labels  # noqa: E402

TEACHER1 = Path(__file__).resolve().parents[2] / "training" / "teacher1"
GEN4_EXPERT = f"expert@{Path(__file__).resolve().parents[2] / 'training' / 'gen5b' / 'gen4.dgn'}"


@pytest.fixture(scope="module")
def shard0(tmp_path_factory):
    out = tmp_path_factory.mktemp("v")
    assert verify_labels(TEACHER1, out, rollouts=40, seed=9, shards=[0], teacher=GEN4_EXPERT) == 1
    return out


def test_each_departure_is_raced_again_at_its_position(shard0):
    a = load_shard(TEACHER1 / "shard-00000.npz")
    with np.load(verify_file(TEACHER1 / "shard-00000.npz", shard0)) as z:
        gap, se, worlds = z["gap"], z["se"], z["worlds"]
        assert int(z["rollouts"]) == 40 and int(z["seed"]) == 9
    departs = a["searched"] & (a["incumbent"] >= 0) & (a["choice"] != a["incumbent"])
    assert departs.sum() >= 10 and np.all(np.isnan(gap[~departs])) and np.all(worlds[~departs] == 0)
    raced = np.flatnonzero(departs & np.isfinite(gap))
    assert len(raced) >= 0.9 * departs.sum() and np.all(worlds[raced] == 20) and np.all(se[raced] >= 0)
    # the reference: the same race through daguai.analyze, at the position the replay reaches
    cfg = _config(TEACHER1, GEN4_EXPERT)
    checked = 0
    for i in sorted({int(a["game"][j]) for j in raced[:8]}):
        sel = np.flatnonzero(a["game"] == i)
        rows = {k: a[k][sel] for k in ("ply", "legal", "state", "action")}
        at = iter(sel.tolist())

        def visit(state, legal, at=at, i=i):
            nonlocal checked
            j = next(at)
            if j in set(raced[:8].tolist()):
                expert, network = str(a["action"][j]), str(a["arm_action"][int(a["arm_start"][j])])
                assert expert != network
                race = _core.catalog._search(state, 40, 0.0, 1, "heuristic",
                                             int(decision_stream(i, int(a["ply"][j])) ^ 9), 0, -1,
                                             plays=[network, expert])
                mean = {str(x): r[5] / r[1] for r in race[0] for x in r[0]}  # score / worlds
                assert gap[j] == pytest.approx(mean[expert] - mean[network], abs=1e-5)
                checked += 1
            return np.zeros((0, 1), np.float16)

        replay_round(cfg, i, rows, visit)
    assert checked == min(8, len(raced))


def test_the_sidecar_is_the_same_on_every_run_and_split(shard0, tmp_path):
    for k in (0, 1):
        verify_labels(TEACHER1, tmp_path, rollouts=40, seed=9, shards=[0, 1], part=(k, 2),
                      teacher=GEN4_EXPERT)
    one = verify_file(TEACHER1 / "shard-00000.npz", shard0).read_bytes()
    assert verify_file(TEACHER1 / "shard-00000.npz", tmp_path).read_bytes() == one
    assert verify_file(TEACHER1 / "shard-00001.npz", tmp_path).exists()
    assert verify_labels(TEACHER1, tmp_path, rollouts=40, seed=9, shards=[0, 1], teacher=GEN4_EXPERT) == 0


def _rows(target, incumbent, vgap, vse):
    n = len(target)
    z = np.zeros(n, np.int64)
    return QRows(np.zeros((n, 1), np.float32), np.zeros((0, 1), np.float16), np.zeros(n + 1, np.int64),
                 np.array(target), np.array(incumbent), z, np.zeros(n + 1, np.int64), np.zeros(0, np.int64),
                 np.zeros(0, np.float32), np.array(vgap, np.float64), np.array(vse, np.float64))


@pytest.mark.parametrize("z,least,want", [(0.0, 0.0, [2, 1, 3, 1, 4]), (1.0, 0.0, [2, 1, 3, 0, 4]),
                                          (2.0, 0.0, [2, 1, 3, 0, 4]), (5.0, 0.0, [0, 1, 0, 0, 4]),
                                          (0.0, 0.3, [2, 1, 3, 0, 4]), (2.0, 0.5, [2, 1, 0, 0, 4]),
                                          (0.0, 1.5, [0, 1, 0, 0, 4])])
def test_a_departure_is_taught_where_its_second_look_clears_z_standard_errors(z, least, want):
    # departures: 0 (gap 1.0, se 0.2: 5 s.e.), 2 (0.3, 0.1: 3 s.e.), 3 (-0.1: not better),
    # 4 (NaN: one group, kept); 1 is not a departure; z and least 0 change nothing
    rows = _rows([2, 1, 3, 1, 4], [0, 1, 0, 0, 2], [1.0, np.nan, 0.3, -0.1, np.nan],
                 [0.2, np.nan, 0.1, 0.05, np.nan])
    assert list(rows.with_verified(z, least).target) == want


def test_bad_sidecars_and_settings_are_refused_by_name(shard0, tmp_path, capsys):
    f = TEACHER1 / "shard-00000.npz"
    with pytest.raises(LabelError, match="no second look"):
        load_verified([f], tmp_path)
    verify_file(f, tmp_path).write_bytes(b"not an npz")
    with pytest.raises(LabelError, match="not a second look's sidecar"):
        load_verified([f], tmp_path)
    with pytest.raises(ValueError, match="rollouts must be an integer"):
        verify_labels(TEACHER1, tmp_path, rollouts=1)
    with pytest.raises(ValueError, match="part must be K/N"):
        verify_labels(TEACHER1, tmp_path, part=(2, 2))
    with pytest.raises(ValueError, match="verify_z must be a number"):
        daguai.learn.qfit.QFitConfig(verify_z=-1.0)
    with pytest.raises(ValueError, match="need the second look"):
        QRows(**{**_rows([1], [0], [0.0], [0.0]).__dict__, "vgap": None}).with_verified(2.0)
    label_cands(TEACHER1, tmp_path / "c", shards=[0], kind="qnet", teacher=GEN4_EXPERT)
    with pytest.raises(ValueError, match="verify_min must be a number"):
        daguai.learn.qfit.QFitConfig(verify_min=float("nan"))
    for args, words in ((["--verify-z", "2"], "--verify-z and --verify-min need --verified"),
                        (["--verify-min", "0.5"], "--verify-z and --verify-min need --verified"),
                        (["--verified", str(shard0), str(shard0)], "one each"),
                        (["--verified", str(tmp_path)], "not a second look's sidecar")):
        with pytest.raises(SystemExit) as e:
            main(["fit", str(tmp_path / "run"), "--labels", str(TEACHER1), "--label-shards", "1",
                  "--cands", str(tmp_path / "c"), *args])
        assert e.value.code == 2 and words in capsys.readouterr().err


def test_a_fit_teaches_by_the_second_look(shard0, tmp_path):
    from daguai.learn.label_cands import load_label_cands
    from daguai.learn.shards import load_labels
    from daguai.learn.verify import verified_rows

    files = [TEACHER1 / "shard-00000.npz"]
    label_cands(TEACHER1, tmp_path / "c", shards=[0], kind="qnet", teacher=GEN4_EXPERT)
    labels = load_labels(files)
    data = QRows.of_labels(labels.arrays, load_label_cands(files, tmp_path / "c", kind="qnet"))
    data = QRows(**{**data.__dict__, **verified_rows([shard0], files, [{"shards": 1}], len(labels))})
    taught = data.with_verified(2.0)
    departs = data.target != data.incumbent
    weak = departs & np.isfinite(data.vgap) & ~(data.vgap > 2.0 * data.vse)
    assert weak.any() and (departs & ~weak).any()
    assert np.array_equal(taught.target, np.where(weak, data.incumbent, data.target))
    args = ["fit", str(tmp_path / "run"), "--labels", str(TEACHER1), "--label-shards", "1", "--cands",
            str(tmp_path / "c"), "--verified", str(shard0), "--verify-z", "2", "--batch", "64",
            "--eval-every", "1000", "--model", str(Path(GEN4_EXPERT.split("@", 1)[1]))]
    assert main(args) == 0
    meta = daguai.learn.read_dgn(tmp_path / "run" / "qfit.dgn")[1]
    assert meta["config"]["verify_z"] == 2.0
