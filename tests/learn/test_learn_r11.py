"""A network that also makes the R11 decisions (tribute, anti-tribute, return, offer, take):
the format-2 ``.dgn`` file that says so, the player's choice there (the switching rule over one
candidate per abstract id, as in play), the self-play frames of those decisions and the
trainer's ``r11`` setting (docs/learning.md "R11 decisions by the network")."""

from __future__ import annotations

import struct

import daguai
import numpy as np
import pytest
from daguai import Game, Rules, _core
from daguai.dgn import (
    FORMAT,
    FORMAT_R11,
    average_models,
    decides_r11,
    dgn_bytes,
    parse_dgn,
    read_dgn,
    read_model_file,
    write_dgn,
)
from daguai.learn import abstract_id, learn_features
from daguai.learn.config import TrainConfig, config_from_json, config_json

ModelError = _core.learned.ModelError
# every R11 decision: the anti-tribute and the joker offer / take are variants (R11)
ALL_R11 = Rules(anti_tribute=True, joker_tribute_choice=True)


def _shipped():
    from importlib.resources import files

    return read_dgn(str(files("daguai") / "models" / "learned.dgn"))


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """The shipped weights as three models of the rules ALL_R11: making the R11 decisions at
    margin 0 and at margin 10, and not making them."""
    layers, _, _ = _shipped()
    d = tmp_path_factory.mktemp("r11")
    meta = {"rules": ALL_R11.to_dict()}
    return {"argmax": str(write_dgn(d / "argmax.dgn", layers, meta, 0.0, r11=True)),
            "huge": str(write_dgn(d / "huge.dgn", layers, meta, 10.0, r11=True)),
            "play": str(write_dgn(d / "play.dgn", layers, meta, 0.0))}


def _r11_points(rules: Rules, seeds: range, limit: int):
    """Games at R11 decisions with two or more candidates: random start states (R11 tribute
    rounds in 60% of them), stepped by the heuristic."""
    out = []
    for seed in seeds:
        g = Game(seed=seed, rules=rules, start="random")
        while g.phase != "play" and not g.match_over:
            if len(learn_features(g, r11=True)[1]) >= 2:
                out.append(g.clone())
            g.step(daguai.bots.heuristic(g, g.current_player))
        if len(out) >= limit:
            break
    return out


def test_r11_file_is_format_2_and_reads_back(tmp_path):
    layers, meta, margin = _shipped()
    plain = dgn_bytes(layers, meta, margin)
    r11 = dgn_bytes(layers, meta, margin, r11=True)
    assert struct.unpack_from("<I", plain, 4)[0] == FORMAT == 1
    assert struct.unpack_from("<I", r11, 4)[0] == FORMAT_R11 == 2
    assert len(r11) == len(plain) + 4
    assert not decides_r11(plain) and decides_r11(r11)
    assert _core.learned.Network.from_bytes(r11).decides_r11
    back, back_meta, back_margin = parse_dgn(r11)
    assert back_meta == meta and back_margin == pytest.approx(margin)
    assert all(np.array_equal(a, b) and np.array_equal(c, e)
               for (a, c), (b, e) in zip(layers, back, strict=True))
    path = write_dgn(tmp_path / "m.dgn", layers, meta, margin, r11=True)
    assert read_model_file(path) == r11
    # the same weights play the same Q in both formats
    g = Game(seed=5)
    state, _, feats, _ = learn_features(g)
    a = _core.learned.Network.from_bytes(plain).evaluate(state, feats)
    b = _core.learned.Network.from_bytes(r11).evaluate(state, feats)
    assert np.array_equal(a, b)


def _rehash(data: bytes) -> bytes:
    body = data[:-8]
    return body + struct.pack("<Q", _core.learned._dgn_hash(body))


@pytest.mark.parametrize("change, message", [
    (lambda d, at: d[:at] + struct.pack("<I", 2) + d[at + 4:], "unknown decision bits 2"),
    (lambda d, at: d[:at] + struct.pack("<I", 0x80000001) + d[at + 4:], "unknown decision bits"),
    (lambda d, at: d[:4] + struct.pack("<I", 3) + d[8:], "format 3, this engine reads format 1 to 2"),
    (lambda d, at: d[:4] + struct.pack("<I", 0) + d[8:], "format 0, this engine reads format 1 to 2"),
])
def test_r11_file_damage_is_named(tmp_path, change, message):
    layers, meta, margin = _shipped()
    data = dgn_bytes(layers, meta, margin, r11=True)
    at = 4 + 4 * 5 + 4 * len(layers[:-1]) + 4  # the decides word, after the margin
    bad = _rehash(change(data, at))
    with pytest.raises(ModelError, match=message):
        _core.learned.Network.from_bytes(bad)
    with pytest.raises(ModelError, match=message):
        parse_dgn(bad)
    # a format-1 file one word short of format 2's size: the Python reader names the size
    short = data[:4] + struct.pack("<I", 1) + data[8:]
    (tmp_path / "short.dgn").write_bytes(_rehash(short))
    with pytest.raises(ModelError, match="bytes left over"):
        read_model_file(tmp_path / "short.dgn")


def test_r11_decisions_are_the_switching_rule_over_q(models):
    """R11 (margin 0): the player's tribute / anti-tribute / return / take is the
    candidate of highest Q (the integer pass, first of equal maxima; the heuristic's when it
    is one of them); at margin 10 the heuristic's; a model without the R11 bit plays the
    heuristic's."""
    points = _r11_points(ALL_R11, range(0, 400), 60)
    phases = {p.phase for p in points}
    assert phases >= {"tribute", "return", "take"}, phases
    net = _core.learned.Network.from_file(models["argmax"])
    deviations = 0
    for g in points:
        seat = g.current_player
        state, cands, feats, h = learn_features(g, r11=True)
        q = net.evaluate(state, feats, quantized=True)
        best = int(np.argmax(q))  # learned_pick at margin 0: the heuristic's unless beaten
        best = best if q[best] - q[h] > 0 else h
        heuristic = daguai.bots.heuristic(g, seat)
        assert cands[h] == heuristic
        assert _core.run.PolicyRunner(models["argmax"], 1, 0, seat).act(g) == cands[best]
        assert _core.run.PolicyRunner(models["huge"], 1, 0, seat).act(g) == heuristic
        assert _core.run.PolicyRunner(models["play"], 1, 0, seat).act(g) == heuristic
        deviations += best != h
    assert deviations > 0  # the test can tell the network's choice from the heuristic's


def test_r11_candidates_see_the_hand_after_the_card(models):
    """The action features of an R11 candidate: its cards, and the hand after it, face by
    face (less the card paid or returned, with the card taken; an offer keeps its cards until
    one is taken, an anti-tribute pays nothing); one candidate per abstract id."""
    points = _r11_points(ALL_R11, range(400, 900), 60)
    kinds = set()
    for g in points:
        seat = g.current_player
        _, cands, feats, _ = learn_features(g, r11=True)
        ids = [abstract_id(a, g.level) for a in cands]
        assert len(set(ids)) == len(ids)
        hand = np.asarray(g.hand(seat).counts(), dtype=np.float32)
        for a, f in zip(cands, feats, strict=True):
            kinds.add(a.type)
            cards = np.asarray(a.cards.counts(), dtype=np.float32)
            assert np.array_equal(f[:54], cards)
            expected = {"tribute": hand - cards, "return": hand - cards,
                        "take": hand + cards}.get(a.type, hand)
            assert np.array_equal(f[67:121], expected), a.type
            assert f[122] == pytest.approx(expected.sum() / 27)
    # the offers of joker_tribute_choice share one abstract id (443): one candidate, never a choice
    assert {"tribute", "anti_tribute", "return", "take"} <= kinds, kinds


def test_act_on_the_view_is_act_on_the_game_at_r11(models):
    for g in _r11_points(ALL_R11, range(800, 1000), 40):
        seat = g.current_player
        r = _core.run.PolicyRunner(models["argmax"], 3, 0, seat)
        assert r.act(g) == _core.run.PolicyRunner(models["argmax"], 3, 0, seat).act(g.view(seat))


def test_self_play_records_r11_pairs(models):
    rules = ALL_R11._core
    seats = [models["argmax"]] * 6
    off = _core.run._self_play(rules, 11, 0, 12, seats, [True] * 6, 0.0, 0.05, True, ["heuristic"])
    on = _core.run._self_play(rules, 11, 0, 12, seats, [True] * 6, 0.0, 0.05, True, ["heuristic"],
                              r11=True)
    phase = lambda f: f["state"][:, 512:517].argmax(1)  # noqa: E731 (observation: phase one-hot)
    assert (phase(off) == 3).all()
    r11 = phase(on) != 3
    assert r11.sum() >= 4 and r11.sum() % 2 == 0
    # frames come in pairs of one decision: the same state, two different candidates
    st, act = on["state"], on["action"]
    idx = np.flatnonzero(r11)
    pairs = idx.reshape(-1, 2)
    assert (pairs[:, 1] == pairs[:, 0] + 1).all()
    assert all(np.array_equal(st[a], st[b]) and not np.array_equal(act[a], act[b]) for a, b in pairs)
    assert set(np.unique(on["target"][r11])) <= {-1.0, 0.0, 1.0}


def test_self_play_main_line_is_unchanged_by_recording_r11_of_a_play_only_model(models):
    """A model that does not make the R11 decisions plays the heuristic's there, and the R11
    decisions draw from streams of their own, so recording them adds their pairs and leaves
    the play decisions' frames as they were, targets included (R17)."""
    rules = ALL_R11._core
    seats = [models["play"]] * 6
    off = _core.run._self_play(rules, 12, 0, 10, seats, [True] * 6, 0.05, 0.2, True, ["heuristic"])
    on = _core.run._self_play(rules, 12, 0, 10, seats, [True] * 6, 0.05, 0.2, True, ["heuristic"],
                              r11=True)
    play = on["state"][:, 512:517].argmax(1) == 3
    assert (~play).sum() > 0
    for key in ("state", "action", "target", "score", "game", "seat"):
        assert np.array_equal(on[key][play], off[key]), key


def test_trainer_setting_and_averages_keep_the_bit(tmp_path):
    cfg = TrainConfig(r11=True).check()
    assert config_from_json(config_json(cfg)).r11 is True
    assert config_from_json({k: v for k, v in config_json(cfg).items() if k != "r11"}).r11 is False
    with pytest.raises(ValueError, match="r11 must be True or False"):
        TrainConfig(r11=1).check()  # type: ignore[arg-type]
    layers, meta, margin = _shipped()
    a = write_dgn(tmp_path / "a.dgn", layers, meta, margin, r11=True)
    b = write_dgn(tmp_path / "b.dgn", layers, meta, margin, r11=True)
    c = write_dgn(tmp_path / "c.dgn", layers, meta, margin)
    assert decides_r11(read_model_file(average_models([a, b], tmp_path / "ab.dgn")))
    assert not decides_r11(read_model_file(average_models([c, c], tmp_path / "cc.dgn")))
    with pytest.raises(ModelError, match="R11 decisions"):
        average_models([a, c], tmp_path / "ac.dgn")
    with pytest.raises(ModelError, match="r11 must be True or False"):
        dgn_bytes(layers, meta, margin, r11=1)  # type: ignore[arg-type]
