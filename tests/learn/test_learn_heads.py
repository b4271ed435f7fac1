"""The policy and value heads (daguai.learn.heads) learn labels: on a synthetic set whose choice and
value are functions of the features, the held-out loss falls and agreement rises far above
chance; a real label folder trains end to end and writes its curve."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from daguai.learn.heads import FitConfig, fit, load_heads, search_values  # noqa: E402
from daguai.learn.labels import NUM_ABSTRACT, STATE_FEATURES, LabelConfig, LabelSet, label, load_labels  # noqa: E402


def _synthetic(n: int, seed: int) -> LabelSet:
    """Five legal ids per label; the choice is the lowest legal id when feature 0 is positive, else
    the highest; the race's scores rank the ids alike; the value is 2 x feature 0 + feature 1."""
    rng = np.random.default_rng(seed)
    state = np.zeros((n, STATE_FEATURES), np.float32)  # sparse, as the real features are
    state[:, :8] = rng.normal(size=(n, 8))
    legal = np.zeros((n, NUM_ABSTRACT), np.uint8)
    choice = np.zeros(n, np.int16)
    arm_id, arm_mean = [], []
    for i in range(n):
        ids = rng.choice(128, size=5, replace=False)
        legal[i, ids] = 1
        up = state[i, 0] > 0
        choice[i] = ids.min() if up else ids.max()
        arm_id += ids.tolist()
        arm_mean += (-ids / 64.0 if up else ids / 64.0).tolist()
    arrays = {
        "game": np.arange(n, dtype=np.int64), "ply": np.zeros(n, np.int32), "seat": np.zeros(n, np.int8),
        "state": state, "legal": legal, "choice": choice, "incumbent": np.full(n, -1, np.int16),
        "searched": np.ones(n, bool), "race_seed": np.zeros(n, np.uint64),
        "value": (2 * state[:, 0] + state[:, 1]).astype(np.float32), "outcome": np.zeros(n, np.int8),
        "action": np.array(["x"] * n), "arm_start": np.arange(0, 5 * n + 1, 5, dtype=np.int32),
        "arm_id": np.array(arm_id, np.int16), "arm_n": np.ones(5 * n, np.int32),
        "arm_mean": np.array(arm_mean, np.float32), "arm_wl": np.zeros(5 * n, np.float32),
        "arm_round": np.zeros(5 * n, np.int8), "arm_action": np.array(["x"] * (5 * n)),
        "games": np.arange(n, dtype=np.int64), "game_decisions": np.ones(n, np.int32),
    }
    return LabelSet(arrays, ["synthetic"])


@pytest.mark.parametrize("target", ["choice", "scores"])
def test_the_heads_learn_a_synthetic_set(tmp_path, target):
    labels = _synthetic(1500, seed=1)
    cfg = FitConfig(epochs=12, batch=64, widths=(128,), target=target, value_weight=0.5, seed=3,
                    value_target="result")
    result = fit(labels, tmp_path, cfg)
    curve = result["curve"]
    assert result["held_out"] == 150 and result["train"] == 1350
    first, last = curve[0], curve[-1]
    assert last["val_policy_loss"] < 0.8 * first["val_policy_loss"]
    assert last["train_loss"] < 0.5 * first["train_loss"]
    assert last["val_top1"] > 0.6  # chance: 0.2
    assert last["val_value_mse"] < 0.5 * result["references"]["val_value_mse_of_mean"]
    saved = json.loads((tmp_path / "curve.json").read_text())
    assert saved["curve"][-1]["val_top1"] == last["val_top1"]
    # the saved weights (the best epoch's) give its held-out figure again
    assert curve[result["best_epoch"] - 1]["val_policy_loss"] == min(r["val_policy_loss"] for r in curve)
    model = load_heads(tmp_path / "heads.pt")
    a = labels.arrays
    va = a["game"] % cfg.holdout_every == 0
    with torch.no_grad():
        logits, _ = model(torch.as_tensor(a["state"][va]), torch.as_tensor(a["legal"][va].astype(np.float32)))
    top1 = float((logits.argmax(dim=1).numpy() == a["choice"][va]).mean())
    assert top1 == pytest.approx(curve[result["best_epoch"] - 1]["val_top1"])
    # illegal ids are never chosen
    assert a["legal"][va][np.arange(va.sum()), logits.argmax(dim=1).numpy()].all()


def test_the_heads_train_on_a_label_folder(tmp_path):
    label(tmp_path / "labels", LabelConfig(games=3, seed=11, teacher="pimc24"))
    for value_target in ("result", "search"):
        result = fit([tmp_path / "labels"], tmp_path / value_target,
                     FitConfig(epochs=2, holdout_every=3, value_target=value_target))
        assert result["held_out"] > 0 and result["train"] > 0 and len(result["curve"]) == 2
        assert 0.0 <= result["references"]["val_incumbent_agreement"] <= 1.0
        assert (tmp_path / value_target / "heads.pt").exists()
    # the search's value of a raced decision is the mean of the arm the teacher chose
    labels = load_labels([tmp_path / "labels"])
    a, v = labels.arrays, search_values(labels)
    for j in np.flatnonzero(a["searched"]):
        arms = range(a["arm_start"][j], a["arm_start"][j + 1])
        assert [v[j]] == [a["arm_mean"][k] for k in arms if a["arm_action"][k] == a["action"][j]]
    assert np.array_equal(v[~a["searched"]], a["value"][~a["searched"]])


def test_bad_fit_settings_raise_value_error():
    with pytest.raises(ValueError):
        FitConfig(target="q")
    with pytest.raises(ValueError):
        FitConfig(holdout_every=1)
    with pytest.raises(ValueError):
        FitConfig(value_target="q")


def test_the_heads_policy_sees_the_learned_features_from_a_view(tmp_path):
    """R16: the state features from a world consistent with the seat's view equal those of the
    true game, at every play decision of a round (6p3d and 4p2d); the policy plays legal actions."""
    from daguai import Rules, _core
    from daguai.game import Game
    from daguai.learn.heads import HeadsPolicy

    fit(_synthetic(200, seed=2), tmp_path, FitConfig(epochs=1, widths=(16,)))
    policy = HeadsPolicy(tmp_path / "heads.pt")
    for table, seed in (("6p3d", 5), ("4p2d", 6)):
        g = Game(seed, Rules(table=table).replace(max_rounds=1), start="random")
        plays = 0
        while not g.match_over:
            seat = g.current_player
            view = g.view(seat)
            if g.phase == "play":
                state, legal = policy.features(view)
                np.testing.assert_array_equal(state, _core.learned.learn_features(g.state)[0])
                np.testing.assert_array_equal(legal, _core.io.abstract_mask(g.state)[0])
                plays += 1
            action = policy(view, seat)
            assert action in g.legal_actions()
            g.step(action)
        assert plays > 20
