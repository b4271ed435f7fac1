"""Issue "Users' first hour", environments part: each "Found" item reproduced, then pinned.

- round episodes (BatchEnv, PettingZoo) began at level 2 with no tribute: start states
  (R3, R9, R10, R11, R17) against a pure-Python reference, and coverage of every level and
  every tribute phase over many episodes;
- ``from daguai import env`` gave a module that could not be called;
- ``ActionList`` could not be sliced;
- mask dtypes differed (uint8 / int8 / bool): one dtype, int8;
- docs/learning.md sent users to the private ``daguai._core.run.BatchEnv``.
"""

from __future__ import annotations

import random
from pathlib import Path

import daguai
import numpy as np
import pytest
from daguai import Game, Rules
from daguai.learn import BatchEnv, abstract_mask, obs_spec
from game_helpers import random_steps
from test_game_invariants import pair_tributes
from test_game_rng import deal, stream

START = 4  # Stream::kStart (cpp/engine/core/rng.hpp)
LEVELS = daguai.LEVELS
SPEC = obs_spec()
PHASES = ("tribute", "return", "take", "play", "match_over")


# ---------------------------------------------------------------------------
# Start states: a pure-Python reference (docs/game.md "Start states")
# ---------------------------------------------------------------------------

def reference_start(rules: Rules, seed: int, game: int) -> dict:
    """Levels, dealer and tribute pairs of ``Game(seed, rules, game=game, start="random")``,
    written from the documentation: levels uniform in 2..final_level (R3, R12), the previous
    dealer uniform, the previous finishing order a uniform permutation (Fisher-Yates on
    0..5); the round ended when one team had all three out (R8); the first-out team won if it
    is that team (R9), and then the other team's players still holding cards pay the winners
    who went out first (R11), matched by the pairing rule; the first out deals (R9, R10), or
    with dealer = stay the dealer keeps the deal while his team wins."""
    r = stream(seed, game, START, 0)
    top = LEVELS.index(rules.final_level)
    levels = [LEVELS[r.bounded(top + 1)], LEVELS[r.bounded(top + 1)]]
    prev_dealer = r.bounded(6)
    order = list(range(6))
    for i in range(5, 0, -1):
        j = r.bounded(i + 1)
        order[i], order[j] = order[j], order[i]
    out = []
    for s in order:
        out.append(s)
        if sum(1 for x in out if x % 2 == s % 2) == 3:
            break
    f_team = order[0] % 2
    winner = f_team if out[-1] % 2 == f_team else None
    pairs = []
    if winner is not None:
        tributers = [s for s in order if s % 2 != winner and s not in out]
        receivers = [s for s in order if s % 2 == winner][:len(tributers)]
        payers = pair_tributes(rules.tribute_pairing, tributers, receivers)
        pairs = [(payers[i], receivers[i]) for i in range(len(tributers))]
    if rules.dealer == "stay":
        dealer = prev_dealer if winner == prev_dealer % 2 else (prev_dealer + 1) % 6
    else:
        dealer = order[0]
    return {"levels": levels, "dealer": dealer, "pairs": pairs}


START_RULES = [
    Rules(),
    Rules(dealer="stay", tribute_pairing="previous", final_level="9"),
    Rules(tribute_pairing="finish_order", final_level="3", anti_tribute=True),
]


@pytest.mark.parametrize("rules", START_RULES, ids=["default", "stay-previous", "finish_order"])
def test_r3_r9_r11_r17_random_start_equals_the_reference(rules):
    seen_pairs = set()
    for game in range(150):
        seed = 1000 + 7 * game
        want = reference_start(rules, seed, game)
        g = Game(seed, rules, game=game, start="random")
        assert g.start == "random" and g.round == 0 and g.n_results == 0
        assert list(g.levels) == want["levels"], game
        assert g.dealer == want["dealer"], game
        assert g.level == want["levels"][want["dealer"] % 2]  # R3: the dealer's team's level
        pairs = [(t["from"], t["to"]) for t in g.tribute_state]
        assert pairs == want["pairs"], game
        assert g.phase == ("tribute" if pairs else "play")
        assert g.current_player == (pairs[0][0] if pairs else g.dealer)
        # R2, R17: the deal is the seeded deal of round 0, as for a fresh match
        assert [sorted(g.hand(s).faces()) for s in range(6)] == deal(seed, game, 0)
        assert g.scores == [0] * 6
        seen_pairs.add(len(pairs))
    assert seen_pairs == {0, 1, 2, 3}


def test_r17_start_states_depend_on_seed_and_game_only():
    a = [Game(42, game=k, start="random") for k in range(20)]
    b = [Game(42, game=k, start="random") for k in range(20)]
    assert a == b
    assert len({(g.levels, g.dealer) for g in a}) > 5  # they do vary with the game index
    assert Game(42, game=3) != Game(42, game=3, start="random")
    assert Game(42, game=3).start == "fresh"


def test_random_start_games_round_trip_through_json_and_records():
    g = Game(5, Rules(joker_tribute_choice=True), game=2, start="random")
    random_steps(g, random.Random(2), 400)
    assert Game.from_json(g.to_json()) == g
    assert daguai.replay(g.to_record()) == g
    header = next(g.record_lines())
    assert header["start"] == "random"
    assert "start" not in next(Game(5).record_lines())  # fresh: records unchanged


def test_start_bad_values():
    for bad in ("Random", None, 1, "position"):
        with pytest.raises(ValueError, match="start"):
            Game(1, start=bad)
        with pytest.raises(ValueError, match="start"):
            BatchEnv(2, start=bad if bad is not None else 3)


def _phase(x: np.ndarray) -> str:
    return PHASES[int(np.argmax(x[SPEC["phase"]]))]


def _level(x: np.ndarray) -> str:
    return LEVELS[int(np.argmax(x[SPEC["level_rank"]]))]


def run_episodes(env: BatchEnv, steps: int, seed: int = 0) -> dict:
    """Random legal play; what the learner met: levels, phases, abstract ids."""
    obs, mask, _, done, _ = env.reset()
    rng = np.random.default_rng(seed)
    levels, phases, ids = set(), set(), set()
    for _ in range(steps):
        for x in obs:
            levels.add(_level(x))
            phases.add(_phase(x))
        ids.update(np.flatnonzero(mask.any(axis=0)).tolist())
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        obs, mask, _, done, _ = env.step(actions)
    return {"levels": levels, "phases": phases, "ids": ids, "episodes": env.episodes_done}


def test_round_episodes_meet_every_level_and_every_tribute_phase():
    """The Found item: BatchEnv round episodes only ever showed level 2 and the play phase.
    With start states (the default) a learner meets every level rank 2..A and tribute and
    return decisions; with the variants, offers and takes (joker_tribute_choice) and 抗贡."""
    got = run_episodes(BatchEnv(48, seed=3), steps=700)
    assert got["episodes"] >= 48
    assert got["levels"] == set(LEVELS)
    assert {"tribute", "return", "play"} <= got["phases"]
    assert any(388 <= i <= 441 for i in got["ids"])  # tribute / return card ids
    rules = Rules(joker_tribute_choice=True, anti_tribute=True)
    got = run_episodes(BatchEnv(48, rules=rules, seed=4), steps=700)
    assert {"tribute", "return", "take", "play"} <= got["phases"]
    assert {442, 443} <= got["ids"]  # anti_tribute and offer decisions


def test_fresh_start_keeps_the_old_behaviour():
    got = run_episodes(BatchEnv(16, seed=3, start="fresh"), steps=400)
    assert got["levels"] == {"2"} and got["phases"] <= {"play"}
    env = BatchEnv(4, seed=3, start="fresh")
    obs = env.reset()[0]
    for i in range(4):
        g = Game(3, game=i)
        assert np.array_equal(obs[i], daguai.learn.encode_observation(g, g.current_player))
    # matches keep a fresh start unless asked
    assert BatchEnv(2, matches=True).start == "fresh"
    assert BatchEnv(2, matches=True, start="random").start == "random"


def test_pettingzoo_round_episodes_meet_levels_and_tribute():
    pytest.importorskip("pettingzoo")
    from daguai.env import raw_env

    e = raw_env()
    levels, phases = set(), set()
    for k in range(60):
        e.reset(seed=11) if k == 0 else e.reset()
        x = e.observe(e.agent_selection)["observation"]
        levels.add(_level(x))
        phases.add(_phase(x))
        assert e.game == Game(11, Rules(max_rounds=1), game=k, start="random")
    assert len(levels) >= 10 and {"tribute", "play"} <= phases
    old = raw_env(start="fresh")
    for k in range(5):
        old.reset(seed=11) if k == 0 else old.reset()
        assert old.game.level == "2" and old.game.phase == "play"


# ---------------------------------------------------------------------------
# `from daguai import env` then env()
# ---------------------------------------------------------------------------

def test_from_daguai_import_env_is_callable():
    pytest.importorskip("pettingzoo")
    from daguai import env  # the module daguai.env (PettingZoo's env() lives inside it)

    e = env(render_mode="ansi")  # failed before: 'module' object is not callable
    e.reset(seed=1)
    assert e.agent_selection.startswith("player_")
    from daguai.env import env as env_function
    from daguai.env import raw_env

    assert type(env_function()) is type(e) and isinstance(e.unwrapped, raw_env)
    e2 = daguai.learn.pettingzoo_env()
    e2.reset(seed=1)
    assert e2.agent_selection == e.agent_selection
    with pytest.raises(TypeError):
        env(1)  # keyword arguments only, as raw_env documents


# ---------------------------------------------------------------------------
# ActionList slices
# ---------------------------------------------------------------------------

def test_action_list_slices():
    g = Game(3)
    acts = g.legal_actions()
    full = list(acts)
    n = len(full)
    for sl in (slice(2, 9), slice(None, 5), slice(-3, None), slice(None, None, 7),
               slice(None, None, -1), slice(10, 2, -3), slice(n + 5, n + 9), slice(0, 0)):
        part = acts[sl]
        assert isinstance(part, daguai.ActionList)
        assert list(part) == full[sl], sl
        assert len(part) == len(full[sl])
    assert acts[1:4][0] == full[1] and acts[-1] == full[-1]
    with pytest.raises(ValueError):
        acts[::0]
    with pytest.raises(IndexError):
        acts[n]
    g.step(acts[:1][0])  # a slice's elements are ordinary actions


# ---------------------------------------------------------------------------
# One mask dtype
# ---------------------------------------------------------------------------

def test_one_mask_dtype_int8_everywhere():
    g = Game(1)
    assert abstract_mask(g).dtype == np.int8
    assert abstract_mask(g, return_index=True)[0].dtype == np.int8
    assert BatchEnv(2).reset()[1].dtype == np.int8
    assert BatchEnv(2).observe()[1].dtype == np.int8
    pytest.importorskip("pettingzoo")
    from daguai.env import raw_env

    e = raw_env()
    e.reset(seed=1)
    assert e.observe(e.agent_selection)["action_mask"].dtype == np.int8
    pytest.importorskip("gymnasium")
    import daguai.learn.envs.gym_env  # noqa: F401 - registers the ids
    import gymnasium

    obs, info = gymnasium.make("daguai/DaGuai-v0").reset(seed=1)
    assert obs["action_mask"].dtype == np.int8 and info["action_mask"].dtype == np.int8
    v = gymnasium.make_vec("daguai/DaGuaiSelfPlay-v0", num_envs=2)
    assert v.reset(seed=1)[0]["action_mask"].dtype == np.int8


# ---------------------------------------------------------------------------
# docs/learning.md points at the public API
# ---------------------------------------------------------------------------

def test_learning_docs_use_the_public_batch_env():
    doc = (Path(__file__).parents[2] / "docs" / "learning.md").read_text(encoding="utf-8")
    assert "_core.run.BatchEnv" not in doc and "rules._core" not in doc
    assert "daguai.learn.BatchEnv(" in doc


def test_learning_docs_python_examples_run(capsys):
    """Every ```python block of docs/learning.md runs as written (they cannot drift)."""
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
    import re

    doc = (Path(__file__).parents[2] / "docs" / "learning.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", doc, re.S)
    assert len(blocks) >= 5
    for code in blocks:
        exec(compile(code, "docs/learning.md", "exec"), {})

