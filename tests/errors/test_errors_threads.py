"""Native objects shared between Python threads (docs/errors.md, "Threads").

Every stateful C++ object (BatchEnv, GameState / Game, PolicyRunner) takes a per-object lock
(cpp/bindings/guard.hpp) in each bound method; a thread that finds the object busy waits
with the GIL released. Before the lock, ``BatchEnv.candidates()`` read the legal actions
while another thread was inside ``step`` (GIL released) rewriting them: the rows it wrote
no longer matched the buffer it had sized (heap-buffer-overflow under ASan; wrong offsets
or a crash without it).

The tests here are bounded (a fixed number of steps) and check what a reader must see:
every answer is a consistent snapshot of one moment.
"""

from __future__ import annotations

import threading

import daguai
import numpy as np
from daguai import Game, _core
from daguai.learn import CAND_FEATURES, NUM_ABSTRACT, BatchEnv

STEPS = 300


def _run_pair(writer, reader) -> list[BaseException]:
    """Run writer and reader in two threads until the writer ends; their exceptions."""
    errors: list[BaseException] = []
    stop = threading.Event()

    def wrap(fn, stop_after: bool) -> None:
        try:
            fn(stop)
        except BaseException as exc:
            errors.append(exc)
        finally:
            if stop_after:
                stop.set()

    threads = [threading.Thread(target=wrap, args=(writer, True)),
               threading.Thread(target=wrap, args=(reader, False))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not any(t.is_alive() for t in threads), "a thread did not finish (deadlock?)"
    return errors


def _check_candidates(env: BatchEnv, feats: np.ndarray, offsets: np.ndarray) -> None:
    """One consistent snapshot: offsets tile the rows, every row is a valid encoding."""
    assert offsets.shape == (env.n + 1,)
    assert offsets[0] == 0 and offsets[-1] == feats.shape[0]
    assert np.all(np.diff(offsets) >= 1)  # somebody always has an action (pass at least)
    assert feats.shape[1] == CAND_FEATURES
    counts = feats[:, :54]
    assert np.all((counts >= 0) & (counts <= 3) & (counts == np.round(counts)))
    assert np.all(feats[:, 54:63].sum(axis=1) <= 1)  # one-hot Kind (plays only)


def test_batchenv_candidates_while_another_thread_steps():
    """The reported race: candidates() / observe() / legal_actions() during step()."""
    env = BatchEnv(384, seed=5, abstract=True)
    env.reset()

    def writer(stop: threading.Event) -> None:
        rng = np.random.default_rng(1)
        for _ in range(STEPS):
            mask = env.observe()[1].copy()
            actions = (rng.random(mask.shape) * mask).argmax(axis=1)
            env.step(actions)

    def reader(stop: threading.Event) -> None:
        k = 0
        while not stop.is_set():
            feats, offsets = env.candidates()
            assert offsets[-1] == feats.shape[0]
            if k % 16 == 15:  # mostly bare candidates(): the widest window into step's rewrite
                _check_candidates(env, feats, offsets)
                i = k % env.n
                assert len(env.legal_actions(i)) >= 1
                obs, mask, _, _, to_act = env.observe()
                assert obs.shape[0] == env.n and mask.shape == (env.n, NUM_ABSTRACT)
                assert 0 <= to_act[i] < 6
            k += 1

    errors = _run_pair(writer, reader)
    assert not errors, errors[0]


def test_batchenv_two_steppers_stay_consistent():
    """Two threads stepping one env: each step is whole (the lock serializes them), so the
    result equals some serial order: every game is still a legal, replayable game."""
    env = BatchEnv(64, seed=9, abstract=False)
    env.reset()

    def stepper(stop: threading.Event) -> None:
        for _ in range(STEPS):
            env.step(np.zeros(env.n, dtype=np.int64))  # index 0 is always legal

    errors = _run_pair(stepper, lambda stop: stepper(stop))
    assert not errors, errors[0]
    for i in range(0, env.n, 7):
        g = env.game(i)
        assert len(g.legal_actions()) == len(env.legal_actions(i))


def test_game_and_policy_runner_shared_between_threads():
    """A Game read by one thread while another steps it, and one PolicyRunner acting for
    two threads: no torn state (the readers see legal, consistent values)."""
    game = Game(seed=3, rules=daguai.Rules(), auto_pass=True)
    runner = _core.run.PolicyRunner("random", 3, 0, 0)

    def writer(stop: threading.Event) -> None:
        for _ in range(400):
            if game.match_over:
                return
            game.step(runner.act(game))

    def reader(stop: threading.Event) -> None:
        while not stop.is_set():
            copy = game.clone()
            assert sum(copy.cards_left) == sum(len(copy.hand(s)) for s in range(6))
            if not copy.match_over:
                assert len(copy.legal_actions()) >= 1
                runner.act(copy)
            game.state.events()

    errors = _run_pair(writer, reader)
    assert not errors, errors[0]
