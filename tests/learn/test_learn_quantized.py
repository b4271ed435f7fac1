"""The learned player's integer pass (cpp/engine/learned/quantized.hpp): exactly the slow
reference of tests/learn/quantized_reference.py in every copy (portable, AVX2, AVX-512), the
same integers from every copy and with or without the state cache (R17: same seed, same game on every
machine), and within the documented tolerance of the float pass."""

from __future__ import annotations

import threading
from pathlib import Path

import daguai
import numpy as np
import pytest
from daguai import Rules
from daguai._core import _testing
from daguai.dgn import dgn_bytes, read_dgn
from daguai.learn import ACTION_FEATURES, STATE_FEATURES, Network, learn_features
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from quantized_reference import integer_q

SHIPPED = Path(daguai.__file__).parent / "models" / "learned.dgn"


def _layers(seed: int, widths: tuple[int, ...], scale: float = 0.3):
    rng = np.random.default_rng(seed)
    sizes = [STATE_FEATURES + ACTION_FEATURES, *widths, 1]
    return [((rng.standard_normal((o, i)) * scale / np.sqrt(i) * 8).astype(np.float32),
             (rng.standard_normal(o) * scale).astype(np.float32))
            for i, o in zip(sizes, sizes[1:], strict=False)]


def _decisions(seeds=range(3), every: int = 3):
    """(state, actions) of play decisions with two or more candidates in heuristic rounds."""
    out = []
    for seed in seeds:
        g = daguai.Game(seed=seed, start="random")
        k = 0
        while not g.match_over and g.round == 0:
            state, cands, feats, _ = learn_features(g)
            if len(cands) > 1 and k % every == 0:
                out.append((state, feats))
            k += 1
            g.step(daguai.bots.heuristic(g, g.current_player))
    return out


@pytest.fixture
def kernels():
    """The integer pass's kernels this CPU has (portable first); the best again afterwards."""
    names = _testing.quantized_kernels()
    yield names
    _testing.set_quantized_kernel(names[-1])


@pytest.fixture(params=["portable", "avx2", "avx512"])
def kernel(request):
    """Each kernel copy in turn (skipped where the CPU lacks it); the best again afterwards."""
    names = _testing.quantized_kernels()
    if request.param not in names:
        pytest.skip(f"this CPU has no {request.param}")
    _testing.set_quantized_kernel(request.param)
    yield request.param
    _testing.set_quantized_kernel(names[-1])


@pytest.mark.parametrize("widths", [(64, 32), (256, 128), (17,), (8, 8, 8), (100, 40)])
def test_integer_pass_equals_the_reference_on_random_models(widths, kernel):
    layers = _layers(len(widths) * 7 + widths[0], widths)
    net = Network.from_bytes(dgn_bytes(layers))
    rng = np.random.default_rng(1)
    for _ in range(6):
        state = (rng.random(STATE_FEATURES) * 3 * (rng.random(STATE_FEATURES) < 0.25)).astype(np.float32)
        shape = (7, ACTION_FEATURES)
        actions = (rng.random(shape) * 3 * (rng.random(shape) < 0.2)).astype(np.float32)
        np.testing.assert_array_equal(net.evaluate(state, actions, quantized=True),
                                      integer_q(layers, state, actions))


def test_integer_pass_equals_the_reference_on_hostile_inputs(kernel):
    """NaN, infinities, huge and negative inputs, ties at half a unit: clamped and rounded as
    documented, with layer 0 wrapping modulo 2^32 exactly as the reference."""
    layers = _layers(3, (32, 16))
    net = Network.from_bytes(dgn_bytes(layers))
    rng = np.random.default_rng(2)
    specials = np.array([np.nan, np.inf, -np.inf, 1e30, -1e30, 40.0, -40.0, 0.5 / 1024, -0.5 / 1024,
                         1.5 / 1024, -0.0, 31.9999, -31.9999], np.float32)
    for _ in range(4):
        state = rng.choice(specials, STATE_FEATURES).astype(np.float32)
        actions = rng.choice(specials, (3, ACTION_FEATURES)).astype(np.float32)
        np.testing.assert_array_equal(net.evaluate(state, actions, quantized=True),
                                      integer_q(layers, state, actions))


_DENSITY = st.sampled_from([0.0, 0.05, 0.3, 1.0])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), h0=st.integers(1, 100), h1=st.integers(1, 70),
       state_density=_DENSITY, action_density=_DENSITY, n=st.integers(1, 9),
       steps=st.integers(1, 3))
def test_every_copy_equals_the_reference_on_random_sparse_inputs(
        kernel, seed, h0, h1, state_density, action_density, n, steps):
    """Property: any widths (so odd tails of 32 columns and odd counts of terms), any density
    of nonzero inputs up to all of them, values up to the clamp (differences beyond int16,
    split into several terms), states that follow one another through the cache: each copy
    gives the slow reference's integers."""
    rng = np.random.default_rng(seed)
    layers = _layers(seed % 1000, (h0, h1), scale=float(rng.choice([0.1, 0.3, 1.0])))
    net = Network.from_bytes(dgn_bytes(layers))
    scale = float(rng.choice([1.0, 3.0, 40.0]))
    state = np.zeros(STATE_FEATURES, np.float32)
    for _ in range(steps):  # each state a few changes from the last: the cache updates
        change = rng.random(STATE_FEATURES) < max(state_density, 0.02)
        state[change] = (rng.standard_normal(change.sum()) * scale
                         * (rng.random(change.sum()) < state_density)).astype(np.float32)
        shape = (n, ACTION_FEATURES)
        actions = (rng.standard_normal(shape) * scale
                   * (rng.random(shape) < action_density)).astype(np.float32)
        np.testing.assert_array_equal(net.evaluate(state, actions, quantized=True),
                                      integer_q(layers, state, actions))


def test_the_shipped_model_equals_the_reference_on_real_decisions():
    layers, _, _ = read_dgn(str(SHIPPED))
    net = Network.from_file(str(SHIPPED))
    for state, feats in _decisions(range(2), every=5):
        np.testing.assert_array_equal(net.evaluate(state, feats, quantized=True),
                                      integer_q(layers, state, feats))


def test_every_kernel_gives_the_same_integers(kernels):
    """R17: the portable copy (what a machine without AVX2 runs), the AVX2 and the AVX-512
    copies give the same integers, on real decisions and on a model of odd widths."""
    net = Network.from_file(str(SHIPPED))
    odd = Network.from_bytes(dgn_bytes(_layers(9, (17, 40))))
    decisions = _decisions(range(3))
    assert len(decisions) > 50 and kernels[0] == "portable"
    got = {}
    for name in kernels:
        _testing.set_quantized_kernel(name)
        got[name] = [np.concatenate([n.evaluate(s, a, quantized=True) for n in (net, odd)])
                     for s, a in decisions]
    for name in kernels[1:]:
        assert all(np.array_equal(x, y) for x, y in zip(got["portable"], got[name], strict=True)), name
    with pytest.raises(ValueError, match="portable, avx2 or avx512"):
        _testing.set_quantized_kernel("sse9")


def test_the_state_cache_gives_the_same_integers(kernel):
    """Each thread keeps recent states' sums and updates them by the changed inputs: in game
    order, in reverse, and without the cache, every candidate's Q is the same."""
    net = Network.from_file(str(SHIPPED))
    decisions = _decisions(range(2), every=1)
    forward = [net.evaluate(s, a, quantized=True) for s, a in decisions]
    backward = [net.evaluate(s, a, quantized=True) for s, a in reversed(decisions)][::-1]
    _testing.set_quantized_cache(False)
    try:
        fresh = [net.evaluate(s, a, quantized=True) for s, a in decisions]
    finally:
        _testing.set_quantized_cache(True)
    assert all(np.array_equal(x, y) and np.array_equal(x, z)
               for x, y, z in zip(forward, backward, fresh, strict=True))


def test_state_updates_with_large_differences_equal_the_reference(kernel):
    """A cached state updated by differences beyond int16 (a hand input from -32 to +32: split
    into several terms, each also at its hand-after row) gives the reference's integers."""
    layers, _, _ = read_dgn(str(SHIPPED))
    net = Network.from_file(str(SHIPPED))
    state, feats = _decisions(range(1), every=1)[4]
    steps = [state.copy() for _ in range(4)]
    steps[1][[0, 1, 53]] = [-40.0, 40.0, 31.5]  # the hand (inputs 0..53) and beyond
    steps[1][[200, 600]] = [-3.0, 5.0]
    steps[2][[0, 1, 53]] = [40.0, -40.0, -31.5]
    steps[3][:] = steps[1]
    for s in steps:  # in order: each state a few differences from the one before
        np.testing.assert_array_equal(net.evaluate(s, feats, quantized=True),
                                      integer_q(layers, s, feats))


def test_two_models_in_one_thread_do_not_share_cached_sums():
    a = Network.from_bytes(dgn_bytes(_layers(11, (64, 32))))
    b = Network.from_bytes(dgn_bytes(_layers(12, (64, 32))))
    decisions = _decisions(range(1), every=4)
    want_a = [a.evaluate(s, f, quantized=True) for s, f in decisions]
    want_b = [b.evaluate(s, f, quantized=True) for s, f in decisions]
    for (s, f), qa, qb in zip(decisions, want_a, want_b, strict=True):
        assert np.array_equal(b.evaluate(s, f, quantized=True), qb)
        assert np.array_equal(a.evaluate(s, f, quantized=True), qa)


def test_repeat_network_counts_passes_and_every_copy_gives_its_checksum(kernels):
    """The work loop of benchmarks/instructions.py: reps passes over the decisions of the
    rounds, nothing at reps 0, and the integer pass's checksum the same in every copy."""
    net = Network.from_file(str(SHIPPED))
    rules = Rules()._core
    assert _testing.repeat_network(net, rules, 2026, 1, 0, "integer") == (0, 0)
    one, _ = _testing.repeat_network(net, rules, 2026, 1, 1, "float")
    assert one > 20
    sums = set()
    for name in kernels:
        _testing.set_quantized_kernel(name)
        ops, checksum = _testing.repeat_network(net, rules, 2026, 1, 2, "integer")
        assert ops == 2 * one
        sums.add(checksum)
    assert len(sums) == 1
    with pytest.raises(ValueError, match="'float' or 'integer'"):
        _testing.repeat_network(net, rules, 2026, 1, 1, "double")
    with pytest.raises(ValueError, match="rounds"):
        _testing.repeat_network(net, rules, 2026, 0, 1, "float")
    with pytest.raises(ValueError, match="reps"):
        _testing.repeat_network(net, rules, 2026, 1, -1, "float")


def test_threads_give_the_same_integers():
    net = Network.from_file(str(SHIPPED))
    decisions = _decisions(range(1), every=2)
    want = [net.evaluate(s, a, quantized=True) for s, a in decisions]
    bad: list[int] = []

    def work(offset: int) -> None:
        for k in range(len(decisions)):
            i = (k + offset) % len(decisions)
            if not np.array_equal(net.evaluate(*decisions[i], quantized=True), want[i]):
                bad.append(i)

    threads = [threading.Thread(target=work, args=(7 * t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert bad == []


def test_integer_pass_is_within_tolerance_of_float():
    """docs/learning.md "Native inference": the same pick on >= 99% of decisions and every Q
    within 0.05 of the float pass, on the shipped model."""
    net = Network.from_file(str(SHIPPED))
    r = _testing.time_network(net, Rules()._core, 2026, 6, 1)
    assert r["decisions"] > 300
    for key in ("float_ns", "quantized_ns", "float_stream_ns", "quantized_stream_ns"):
        assert 0 < r[key] < 1e9, key
    assert r["same_pick"] >= 0.99
    assert r["max_dq"] <= 0.05


def test_quantized_flag_is_checked():
    net = Network.from_file(str(SHIPPED))
    state, _, feats, _ = learn_features(daguai.Game(seed=1))
    with pytest.raises(TypeError, match="quantized"):
        net.evaluate(state, feats, quantized=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rounds"):
        _testing.time_network(net, Rules()._core, 1, 0, 1)
