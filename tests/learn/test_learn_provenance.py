"""What made a run's data (daguai.learn.provenance): which network file each policy plays over, so
that a resumed label folder never mixes two networks under one policy name (docs/learning.md
"Labels from the search")."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import daguai
import pytest
from daguai import _core
from daguai.dgn import ModelError
from daguai.learn.labels import LabelConfig, LabelError, label
from daguai.learn.provenance import model_file, network_change, network_digests

MODELS = Path(daguai.__file__).resolve().parent / "models"
GEN4 = Path(__file__).resolve().parents[2] / "training" / "gen5b" / "gen4.dgn"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("name,model", [
    ("random", None), ("heuristic", None), ("heuristic_exact", None), ("pimc", None), ("pimc24", None),
    ("pimc24_inf", None), ("pimc24_inf_learned", "learned"), ("expert", "learned"),
    ("expert416", "learned"), ("expert_net8", "learned"), ("learned", "learned")])
def test_each_builtin_policy_names_the_model_it_reads(name, model):
    entries = {e["name"]: e for e in _core.catalog.policy_entries()}
    assert entries[name]["model"] == model


def test_every_builtin_policy_says_whether_it_reads_a_model():
    for e in _core.catalog.policy_entries():
        assert e["model"] in (None, "learned"), e


@pytest.mark.parametrize("policy,table,file", [
    ("expert", "6p3d", MODELS / "learned.dgn"),
    ("expert", "4p2d", MODELS / "learned_4p2d.dgn"),
    ("learned", "4p2d", MODELS / "learned_4p2d.dgn"),
    ("pimc24_inf_learned", "6p3d", MODELS / "learned.dgn"),
    ("expert@runs/a.dgn", "6p3d", Path("runs/a.dgn")),
    ("runs/b.dgn", "4p2d", Path("runs/b.dgn")),
    ("pimc", "6p3d", None),
    ("heuristic", "4p2d", None),
])
def test_the_file_a_policy_reads_at_each_table(policy, table, file):
    assert model_file(policy, table) == file


def test_a_bad_table_or_an_unreadable_file_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="table must be one of"):
        model_file("expert", "8p")
    with pytest.raises(ValueError, match=r"the teacher 'expert@.*missing\.dgn' reads a network that "
                                         r"cannot be read: .*missing\.dgn"):
        network_digests({"teacher": f"expert@{tmp_path / 'missing.dgn'}"}, "6p3d")


@pytest.mark.parametrize("kind", ["folder", "fifo", "dev_zero", "not_a_model"])
def test_a_hostile_network_path_is_refused_before_it_is_read(tmp_path, kind):
    import os

    path = tmp_path / "m.dgn"
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)  # a read would block for ever
    elif kind == "dev_zero":
        path.symlink_to("/dev/zero")  # a read would never end
    else:
        path.write_bytes(b"x" * 4096)
    with pytest.raises(ModelError, match="the teacher 'expert@.*m.dgn' reads a network that cannot"):
        network_digests({"teacher": f"expert@{path}"}, "6p3d")
    with pytest.raises(ModelError, match="reads a network that cannot"):
        label(tmp_path / "labels", LabelConfig(games=1, teacher=f"expert@{path}"))
    assert not (tmp_path / "labels").exists()  # refused before the folder was made


def test_digests_are_the_files_sha256():
    got = network_digests({"teacher": "expert", "others": "pimc", "model": f"expert@{GEN4}"}, "6p3d")
    assert got == {"teacher": _sha(MODELS / "learned.dgn"), "others": None, "model": _sha(GEN4)}
    assert network_change(got, dict(got), {}) is None
    change = network_change(got, {**got, "others": "ab" * 32}, {"others": "pimc"})
    assert change == ("the others 'pimc' read no network, and now reads the network of SHA-256 "
                      + "ab" * 8)


def _manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


def test_a_label_folder_records_its_networks_and_refuses_another(tmp_path):
    model = tmp_path / "teacher.dgn"
    shutil.copyfile(MODELS / "learned.dgn", model)
    folder = tmp_path / "labels"
    cfg = LabelConfig(games=2, seed=11, teacher=f"expert@{model}", shard_games=1)
    label(folder, LabelConfig(games=1, seed=11, teacher=f"expert@{model}", shard_games=1))
    # a shorter run is other settings; the networks are what this test is about: resume the same
    # settings after the first shard was made
    doc = _manifest(folder)
    assert doc["shards"]["0"]["networks"] == {"teacher": _sha(MODELS / "learned.dgn")}
    doc["config"]["games"] = 2
    (folder / "manifest.json").write_text(json.dumps(doc))
    shutil.copyfile(GEN4, model)  # the same path, another network
    before = (folder / "manifest.json").read_text()
    with pytest.raises(LabelError, match=r"shard 0 was labelled with other networks: the teacher "
                                         r"'expert@.*teacher\.dgn' read the network of SHA-256 "
                                         + _sha(MODELS / "learned.dgn")[:16]):
        label(folder, cfg)
    assert (folder / "manifest.json").read_text() == before  # nothing written
    assert not (folder / "shard-00001.npz").exists()
    shutil.copyfile(MODELS / "learned.dgn", model)  # the network back: the run goes on
    doc = label(folder, cfg)
    assert doc["shards"]["1"]["networks"] == {"teacher": _sha(MODELS / "learned.dgn")}


@pytest.mark.parametrize("record", ["abc", ["x"], {"teacher": 3}])
def test_a_bad_networks_record_is_a_label_error(tmp_path, record):
    folder = tmp_path / "labels"
    cfg = LabelConfig(games=1, seed=12, teacher="pimc24", shard_games=1)
    label(folder, cfg)
    doc = _manifest(folder)
    doc["shards"]["0"]["networks"] = record
    (folder / "manifest.json").write_text(json.dumps(doc))
    with pytest.raises(LabelError, match="shard 0 has a bad networks record"):
        label(folder, cfg)


def test_a_shard_made_before_networks_were_recorded_is_kept(tmp_path):
    folder = tmp_path / "labels"
    cfg = LabelConfig(games=2, seed=12, teacher="pimc24", shard_games=1)
    label(folder, LabelConfig(games=1, seed=12, teacher="pimc24", shard_games=1))
    doc = _manifest(folder)
    assert doc["shards"]["0"]["networks"] == {"teacher": None}
    del doc["shards"]["0"]["networks"]
    doc["config"]["games"] = 2
    (folder / "manifest.json").write_text(json.dumps(doc))
    doc = label(folder, cfg)
    assert "networks" not in doc["shards"]["0"] and doc["shards"]["1"]["networks"] == {"teacher": None}
