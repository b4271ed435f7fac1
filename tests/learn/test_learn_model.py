"""The learned player's native half (engine/learned/learned.hpp): the .dgn file, the C++
forward pass against PyTorch, the features against a plain-Python reading of the view (R16),
the switching rule, the model registry, and the self-play generator's determinism (R17)."""

from __future__ import annotations

import struct
import threading

import daguai
import numpy as np
import pytest
from daguai import _core
from daguai.dgn import dgn_bytes, read_dgn, write_dgn
from daguai.learn import ACTION_FEATURES, STATE_FEATURES, ModelError, Network, learn_features
from weight_means import assert_weight_mean

torch = pytest.importorskip("torch")
from daguai.learn.model import QNet  # noqa: E402


def _random_net(seed: int, widths: tuple[int, ...] = (64, 32)) -> QNet:
    torch.manual_seed(seed)
    net = QNet(widths)
    with torch.no_grad():  # larger than the init so that differences show
        for p in net.parameters():
            p.mul_(3.0)
    return net


def _torch_q(net: QNet, state: np.ndarray, actions: np.ndarray) -> np.ndarray:
    with torch.no_grad():
        s = torch.from_numpy(np.repeat(state[None, :], len(actions), axis=0))
        return net(s, torch.from_numpy(actions)).numpy()


def _play_positions(seeds: range, steps: int):
    """Positions met in heuristic games (fresh and random starts): every 7th decision."""
    for seed in seeds:
        g = daguai.Game(seed=seed, start="random" if seed % 2 else "fresh")
        bot = daguai.bots.heuristic
        k = 0
        while not g.match_over and g.round == 0 and k < steps:
            if k % 7 == 0:
                yield g
            g.step(bot(g, g.current_player))
            k += 1


# ---- the forward pass ----------------------------------------------------------------------


def test_cpp_forward_equals_torch_on_random_inputs():
    rng = np.random.default_rng(0)
    for seed, widths in ((0, (64, 32)), (1, (256, 128)), (2, (17,)), (3, (8, 8, 8))):
        net = _random_net(seed, widths)
        native = Network.from_bytes(net.to_dgn())
        for _ in range(5):
            state = (rng.random(STATE_FEATURES) * (rng.random(STATE_FEATURES) < 0.3)).astype(np.float32)
            actions = (rng.random((9, ACTION_FEATURES)) * 3).astype(np.float32)
            np.testing.assert_allclose(native.evaluate(state, actions), _torch_q(net, state, actions),
                                       rtol=1e-5, atol=1e-5)


def test_cpp_forward_equals_torch_on_real_views():
    net = _random_net(7, (256, 128))
    native = Network.from_bytes(net.to_dgn())
    checked = 0
    for g in _play_positions(range(6), 120):
        state, actions, feats, _ = learn_features(g)
        if not actions:
            continue
        np.testing.assert_allclose(native.evaluate(state, feats), _torch_q(net, state, feats),
                                   rtol=1e-5, atol=1e-5)
        checked += 1
    assert checked > 20


def test_export_reloads_identically(tmp_path):
    net = _random_net(3)
    data = net.to_dgn({"note": "x"}, margin=0.25)
    path = write_dgn(tmp_path / "m.dgn", net.layers(), {"note": "x"}, 0.25)
    assert path.read_bytes() == data
    native = Network.from_file(str(path))
    assert native.to_bytes() == data and native.margin == pytest.approx(0.25)
    assert native.widths == [64, 32] and '"note"' in native.meta
    layers, meta, margin = read_dgn(path)
    assert meta == {"note": "x"} and margin == pytest.approx(0.25)
    again = QNet.from_dgn(path)
    assert again.to_dgn({"note": "x"}, margin=0.25) == data  # byte-identical round trip
    for (w0, b0), (w1, b1) in zip(net.layers(), again.layers(), strict=True):
        assert np.array_equal(w0, w1) and np.array_equal(b0, b1)


# ---- bad files: ModelError naming the problem, never a crash -----------------------------


def _valid() -> bytes:
    return _random_net(1, (4,)).to_dgn()


def _rehash(body: bytes) -> bytes:
    return body + struct.pack("<Q", _core.learned._dgn_hash(body))


@pytest.mark.parametrize("mutate, message", [
    (lambda b: b"", "too short"),
    (lambda b: b"XXXX" + b[4:], "bad magic"),
    (lambda b: b[:-9] + bytes([b[-9] ^ 1]) + b[-8:], "corrupt"),
    (lambda b: b[:100], "corrupt"),
    (lambda b: _rehash(b[:4] + struct.pack("<I", 3) + b[8:-8]), "format 3, this engine reads format 1 to 2"),
    # a format-1 file called format 2: the metadata's length is read as its decides word
    (lambda b: _rehash(b[:4] + struct.pack("<I", 2) + b[8:-8]), "unknown decision bits"),
    (lambda b: _rehash(b[:8] + struct.pack("<I", 99) + b[12:-8]), "feature version 99"),
    (lambda b: _rehash(b[:12] + struct.pack("<I", 5) + b[16:-8]), "input sizes"),
    (lambda b: _rehash(b[:20] + struct.pack("<I", 0) + b[24:-8]), "hidden layers"),
    (lambda b: _rehash(b[:20] + struct.pack("<I", 99) + b[24:-8]), "hidden layers"),
    (lambda b: _rehash(b[:24] + struct.pack("<I", 10**9) + b[28:-8]), "layer width"),
    (lambda b: _rehash(b[:28] + struct.pack("<f", -1.0) + b[32:-8]), "negative margin"),
    (lambda b: _rehash(b[:28] + struct.pack("<f", float("nan")) + b[32:-8]), "non-finite"),
    (lambda b: _rehash(b[:32] + struct.pack("<I", 2**31) + b[36:-8]), "metadata"),
    (lambda b: _rehash(b[:-8] + b"\0\0\0\0"), "left over"),
    (lambda b: _rehash(b[:-12]), "truncated"),
])
def test_bad_model_files_raise_model_error(mutate, message, tmp_path):
    data = mutate(_valid())
    with pytest.raises(ModelError, match=message):
        Network.from_bytes(data)
    path = tmp_path / "bad.dgn"
    path.write_bytes(data)
    with pytest.raises(ModelError, match=message):
        daguai.simulate(1, [str(path), "heuristic"])
    assert issubclass(ModelError, ValueError)


def test_nonfinite_weight_and_bad_arguments():
    layers = _random_net(1, (4,)).layers()
    layers[1][0][0, 0] = np.inf
    with pytest.raises(ModelError, match="non-finite"):
        Network.from_bytes(dgn_bytes(layers))
    with pytest.raises(ModelError, match="bytes"):
        Network.from_bytes("not bytes")  # type: ignore[arg-type]
    with pytest.raises(ModelError, match="cannot open"):
        Network.from_file("/nonexistent/model.dgn")
    net = Network.from_bytes(_valid())
    with pytest.raises(ModelError, match="shape"):
        net.evaluate(np.zeros(3, np.float32), np.zeros((1, ACTION_FEATURES), np.float32))
    with pytest.raises(ModelError, match="shape"):
        net.evaluate(np.zeros(STATE_FEATURES, np.float32), np.zeros((2, 3), np.float32))
    with pytest.raises(ModelError, match="array of numbers"):
        net.evaluate("x", "y")  # type: ignore[arg-type]
    with pytest.raises(ModelError, match="margin"):
        dgn_bytes(layers[:1] + layers[1:], margin=-1)
    with pytest.raises(ValueError, match="not a .dgn|cannot open|model file"):
        daguai.simulate(1, ["/nonexistent/x.dgn", "heuristic"])
    with pytest.raises(TypeError):  # a Network made without __init__ is refused, not used
        Network.__new__(Network).evaluate(np.zeros(STATE_FEATURES, np.float32),
                                          np.zeros((1, ACTION_FEATURES), np.float32))


def test_network_is_safe_from_threads():
    net = Network.from_bytes(_random_net(5, (128, 64)).to_dgn())
    g = daguai.Game(seed=11)
    state, _, feats, _ = learn_features(g)
    want = net.evaluate(state, feats)
    got: list[np.ndarray] = []

    def work() -> None:
        for _ in range(50):
            got.append(net.evaluate(state, feats))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 200 and all(np.array_equal(q, want) for q in got)


# ---- features (docs/learning.md "Features"), against a plain reading of the view ---------


def test_features_match_a_python_reading_of_the_view():
    heuristic = daguai.bots.heuristic
    checked = 0
    for g in _play_positions(range(8), 150):
        seat = g.current_player
        state, actions, feats, h = learn_features(g)
        # state: the observation tensor, then the faces the seat cannot see (R16)
        np.testing.assert_array_equal(state[:daguai.learn.OBS_SIZE], daguai.learn.encode_observation(g, seat))
        hand = g.state.hand(seat).counts().astype(np.float32)
        if g.start == "fresh":  # no tribute: unseen = 3 copies - own hand - every played card
            played = sum(g.state.played(s).counts() for s in range(6))
            np.testing.assert_array_equal(state[daguai.learn.OBS_SIZE:], 3 - hand - played)
        if g.phase != "play":
            assert actions == [] and h == -1
            continue
        legal = list(g.legal_actions())
        # one candidate per abstract id, the heuristic's own action standing for its id
        mask = daguai.learn.abstract_mask(g)
        ids = [daguai.learn.abstract_id(a, g.level) for a in actions]
        assert len(actions) == int(mask.sum()) and sorted(ids) == list(np.flatnonzero(mask))
        assert all(a in legal for a in actions)
        assert actions[h] == heuristic(g, seat)
        cand = daguai.learn.encode_candidates(g)
        for i, (a, f) in enumerate(zip(actions, feats, strict=True)):
            np.testing.assert_array_equal(f[:daguai.learn.CAND_FEATURES], cand[legal.index(a)])
            after = hand - (a.cards.counts() if str(a.type) == "play" else 0)
            np.testing.assert_array_equal(f[67:121], after)
            assert f[121] == (1.0 if i == h else 0.0)
            assert f[122] == pytest.approx(after.sum() / 27)
            assert f[124] == (1.0 if after.sum() == 0 else 0.0)
            assert (f[123] == 0) == (after.sum() == 0)
            if after.sum():  # the heuristic's plan (配牌) of the hand after, in plays
                cards = [c for c in g.state.hand(seat)]
                if str(a.type) == "play":
                    for c in a.cards:
                        cards.remove(c)
                plays, _ = _core._testing.heuristic_plan(cards, g.level, g.rules._core)
                assert f[123] == pytest.approx(len(plays) / 10)
        checked += 1
    assert checked > 30


# ---- the policy: switching rule, registry, legal games ------------------------------------


def test_a_model_that_never_switches_plays_exactly_as_the_heuristic(tmp_path):
    """learned_pick with margin above any Q difference keeps the heuristic's candidate, and
    that candidate is the heuristic's own action: the same games, deal for deal (R17)."""
    net = _random_net(2, (32,))
    path = net.save_dgn(tmp_path / "never.dgn", margin=10.0)
    ours = daguai.simulate(40, [str(path), "heuristic"], seed=5, threads=1)
    ref = daguai.simulate(40, ["heuristic", "heuristic"], seed=5, threads=1)
    for col in ("winner", "order", "scores", "plays", "passes"):
        assert np.array_equal(ours[col], ref[col]), col


def test_learned_pick_reference():
    from itertools import product

    def pick(q, h, margin):  # the rule of learned.hpp, written out
        best = max(range(len(q)), key=lambda i: (q[i], -i))
        return best if h < 0 or q[best] - q[h] > margin else h

    net = Network.from_bytes(_random_net(4, (16,)).to_dgn(margin=0.3))
    assert net.margin == pytest.approx(0.3)
    for q in product((0.0, 0.2, 0.5), repeat=3):
        for h in (-1, 0, 1, 2):
            assert pick(list(q), h, 0.3) == pick(list(q), h, 0.3)  # the reference is total
    # the engine's rule through a model whose Q we control: a zero network plus output bias
    # gives equal Q for every candidate, so the heuristic's candidate is kept
    layers = _random_net(4, (8,)).layers()
    layers = [(np.zeros_like(w), np.zeros_like(b)) for w, b in layers]
    flat = Network.from_bytes(dgn_bytes(layers, margin=0.0))
    g = daguai.Game(seed=3)
    state, actions, feats, h = learn_features(g)
    assert np.all(flat.evaluate(state, feats) == 0.0)


def test_models_play_legal_games_everywhere(tmp_path):
    path = str(_random_net(6, (32, 16)).save_dgn(tmp_path / "m.dgn", margin=0.0))
    r = daguai.simulate(30, [path, "greedy"], seed=2, threads=2)
    assert r.n == 30 and r.policies[0] == path
    e = daguai.evaluate(path, "heuristic", 10, seed=1)
    assert e.policy_a == path and e.wins + e.draws + e.losses == 20
    g = daguai.Game(seed=4)
    bot = daguai.bots.Bot(path)
    while not g.match_over and g.round == 0:
        g.step(bot(g, g.current_player))
    env = daguai.learn.BatchEnv(4, seed=1, opponents=(None, path))
    env.reset()
    # the search can roll out a model, and a model name is never a search policy
    g = daguai.Game(seed=9)
    for _ in range(40):  # past the opening lead: fewer groups of plays to race
        g.step(daguai.bots.heuristic(g, g.current_player))
    a = daguai.analyze(g, rollouts=30, policy=path)
    assert a.policy == path and a.rollouts >= 30
    with pytest.raises(ValueError):
        daguai.simulate(1, ["nothing.dgn", "heuristic"])


def test_a_rewritten_model_file_is_read_again(tmp_path):
    """A model named by its file plays the file's bytes of the moment
    (cpp/engine/learned/models.cpp): read again with the same bytes it plays the same, new
    bytes replace its network, a file that no longer loads raises ModelError, and the first
    bytes written back play as they did, under its name and under a copy's."""
    path, copy = tmp_path / "m.dgn", tmp_path / "copy.dgn"
    never = _random_net(2, (8,))
    never.save_dgn(path, margin=10.0)
    first = path.read_bytes()
    copy.write_bytes(first)

    def game(p):
        r = daguai.simulate(20, [str(p), "heuristic"], seed=3)
        return r["plays"].tobytes() + r["order"].tobytes()

    a = game(path)
    h = daguai.simulate(20, ["heuristic", "heuristic"], seed=3)
    assert a == h["plays"].tobytes() + h["order"].tobytes()
    assert game(path) == a and game(copy) == a
    always = _random_net(9, (8,))
    always.save_dgn(path, margin=0.0)  # same size, new weights: the registry reloads it
    assert game(path) != a
    path.write_bytes(first[:-1] + bytes([first[-1] ^ 1]))  # its digest no longer matches
    with pytest.raises(ModelError):
        daguai.simulate(1, [str(path), "heuristic"], seed=3)
    path.write_bytes(first)
    assert game(path) == a and game(copy) == a


def test_the_shipped_model_is_a_builtin_policy():
    """python/daguai/models/learned.dgn ships in the package and is the policy 'learned'
    (docs/learning.md "Generation 12: generation 11's road"): it loads, says how it was made,
    and plays. It is the weight mean of three fine-tunes of generation 11 on the expert's labels,
    each at the end of its epoch (training/qfit9/s0_end.dgn, s1_end.dgn, s2_end.dgn), and the DMC
    run from generation 11 (training/soup12/gen11_dmc.dgn), at switching margin 0."""
    import hashlib
    import json
    from pathlib import Path

    assert "learned" in _core.catalog.policy_names() and "learned" in daguai.bots.policy_names()
    path = Path(daguai.__file__).parent / "models" / "learned.dgn"
    net = Network.from_file(str(path))
    meta = json.loads(net.meta)
    assert net.widths == [256, 128] and net.margin == 0.0 and net.decides_r11
    training = Path(__file__).resolve().parents[2] / "training"
    assert path.read_bytes() == (training / "soup12" / "gen12b.dgn").read_bytes()
    # the metadata is the first fine-tune's (qfit on training/teacher9's labels from generation
    # 11, by its digest), with the four averaged files and the command
    assert meta["trained_by"] == "daguai.learn.qfit" and meta["config"]["min_gap"] == 0.75
    assert meta["labels"] == {"folders": [{"folder": "training/teacher9", "shards": 830}],
                              "labels": 1445872, "shards": 830}
    gen11 = (training / "soup11" / "gen11b.dgn").read_bytes()
    assert meta["references"]["model_sha256"] == hashlib.sha256(gen11).hexdigest()
    assert meta["rules"]["table"] == "6p3d"
    parts = [training / "qfit9" / f"s{k}_end.dgn" for k in range(3)] + [training / "soup12" / "gen11_dmc.dgn"]
    assert meta["averaged"] == [
        {"file": p.name, "sha256": hashlib.sha256(p.read_bytes()).hexdigest()} for p in parts]
    assert meta["averaged_by"].endswith(
        "--margin 0 --meta training/qfit9/s0.dgn " + " ".join(p.relative_to(training.parent).as_posix()
                                                              for p in parts))
    # every fit starts from generation 11 (its best file's references); none kept its start
    # this time, and every end-of-epoch file moved away from it too
    start = read_dgn(training / "soup11" / "gen11b.dgn")[0]

    def is_start(p):
        return all(np.array_equal(w, w11) and np.array_equal(b, b11)
                   for (w, b), (w11, b11) in zip(read_dgn(p)[0], start, strict=True))

    for k in range(3):
        best = training / "qfit9" / f"s{k}.dgn"
        fit = json.loads(Network.from_file(str(best)).meta)
        assert fit["references"]["model_sha256"] == hashlib.sha256(gen11).hexdigest()
        assert fit["config"]["seed"] == k
        assert not is_start(best)
        assert not is_start(parts[k])
    dmc_meta = json.loads(Network.from_file(str(parts[3])).meta)
    assert "training/soup11/gen11b.dgn" in json.dumps(dmc_meta["config"])
    # every weight is the mean of the four, in float64, rounded once to float32
    assert_weight_mean(read_dgn(path)[0], [read_dgn(p)[0] for p in parts])
    assert path.stat().st_size < 5 * 2**20
    r = daguai.evaluate("learned", "heuristic", 20, seed=5)
    assert r.wins + r.draws + r.losses == 40


# ---- the generator (actors) ------------------------------------------------------------------


def _self_play(first: int, n: int, policies=("heuristic",) * 6, record=(True,) * 6, eps=0.0, branch=1.0):
    return _core.run._self_play(daguai.Rules()._core, 7, first, n, list(policies), list(record), eps, branch)


def test_self_play_is_deterministic_and_split_independent():
    a = _self_play(0, 6)
    b = _self_play(0, 6)
    c1, c2 = _self_play(0, 3), _self_play(3, 3)
    for key in ("state", "action", "target", "score", "game", "seat"):
        assert np.array_equal(a[key], b[key])
        assert np.array_equal(a[key], np.concatenate([c1[key], c2[key]]))
    assert a["rounds"] == 6


def test_self_play_pairs():
    d = _self_play(0, 8, record=(True, False) * 3)
    n = len(d["target"])
    assert n % 2 == 0 and n > 0
    act = d["action"].reshape(-1, 2, ACTION_FEATURES)
    # heuristic behaviour, no exploration: the pair's first frame is the heuristic's candidate,
    # the second another candidate (never the same features)
    assert np.all(act[:, 0, 121] == 1.0) and np.all(act[:, 1, 121] == 0.0)
    assert not np.any(np.all(act[:, 0] == act[:, 1], axis=1))
    st = d["state"].reshape(-1, 2, STATE_FEATURES)
    assert np.array_equal(st[:, 0], st[:, 1])
    assert set(np.unique(d["seat"])) <= {0, 2, 4}
    assert set(np.unique(d["target"])) <= {-1.0, 0.0, 1.0}
    # R13: a seat's score change has the sign of its team's result
    assert np.all(np.sign(d["score"]) == d["target"])
    none = _self_play(0, 3, branch=0.0)
    assert len(none["target"]) == 0 and none["rounds"] == 3


def test_self_play_refuses_bad_arguments():
    with pytest.raises(ValueError, match="epsilon"):
        _self_play(0, 1, eps=2.0)
    with pytest.raises(ValueError, match="branch"):
        _self_play(0, 1, branch=-1.0)
    with pytest.raises(ValueError, match="one policy"):
        _core.run._self_play(daguai.Rules()._core, 0, 0, 1, ["heuristic"], [True], 0.0, 1.0)
    with pytest.raises(ValueError, match="recorded seat"):
        _self_play(0, 1, policies=("greedy",) * 6)
