"""Learning interfaces (docs/learning.md): the observation encoder against
``Game.observation(seat)``, the information rule R16 (no private information in another
seat's tensor), abstract action ids and their canonical actions, candidate features,
BatchEnv trajectories against ``daguai.Game``, and bad input.

The reference encoders here are pure Python and read only ``Game.observation(seat)`` (the
R16-filtered view) and Action objects: the C++ tensors must equal them exactly (float32
arithmetic is mirrored operation by operation)."""

from __future__ import annotations

import random
import re
import threading
from pathlib import Path

import daguai
import numpy as np
import pytest
from daguai import (
    Game,
    IllegalActionError,
    Kind,
    Rules,
    _core,
)
from daguai.learn import (
    CAND_FEATURES,
    NUM_ABSTRACT,
    OBS_SIZE,
    OBS_VERSION,
    BatchEnv,
    abstract_id,
    abstract_mask,
    action_from_abstract,
    encode_candidates,
    encode_observation,
    obs_spec,
)
from game_helpers import random_steps
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS = settings(derandomize=True, database=None, deadline=None, max_examples=30,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

RULESETS = [
    Rules(),
    Rules(anti_tribute=True, joker_tribute_choice=True, final_level="4", scoring="levels"),
    Rules(wild="declare", wrap_straights=True, lead_after_out="partner", dealer="stay",
          tribute_pairing="finish_order", scoring="simple", base=2, final_level="3"),
]
LEVELS = daguai.LEVELS
PHASES = ("tribute", "return", "take", "play", "match_over")
SPEC = obs_spec()
F32 = np.float32


# ---------------------------------------------------------------------------
# Pure-Python reference encoders (docs/learning.md)
# ---------------------------------------------------------------------------

def face_counts(cards) -> np.ndarray:
    """54 face counts of card texts (a list, or one space-separated string)."""
    if isinstance(cards, str):
        cards = cards.split()
    out = np.zeros(54, dtype=np.float32)
    for c in cards:
        out[_core.core.parse_face(c)] += 1
    return out


def scaled_key(key: int, size: int) -> np.float32:
    if size <= 3:
        return F32(key >> 1) / F32(14)
    kind, sub = key >> 20, key & 0xFFFFF
    v = (sub >> 16) if kind == 1 else sub  # flush: its top power
    return (F32(kind) + F32(v) / F32(15)) / F32(6)


def py_encode(o: dict) -> np.ndarray:
    """The observation tensor from ``Game.observation(seat)`` only."""
    me = o["seat"]

    def rel(s: int) -> int:
        return (s - me) % 6

    x = np.zeros(OBS_SIZE, dtype=np.float32)

    def put(name: str, index: int, value) -> None:
        x[SPEC[name].start + index] = value

    x[SPEC["hand"]] = face_counts(o["hand"])
    played = np.zeros((6, 54), dtype=np.float32)
    for ev in o["history"]:
        if ev["event"] == "play":
            played[rel(ev["seat"])] += face_counts(ev["cards"])
    x[SPEC["played"]] = played.ravel()
    top = o["top"]
    if top is not None:
        cards = top["cards"].split()
        x[SPEC["top_cards"]] = face_counts(cards)
        put("top_kind", int(Kind[top["kind"].upper()]), 1)
        put("top_key", 0, scaled_key(top["key"], len(cards)))
        put("top_seat", rel(top["seat"]), 1)
        for s in o["passed"]:
            put("passed", rel(s), 1)
    else:
        put("leading", 0, 1 if o["phase"] == "play" else 0)
    for s in range(6):
        put("cards_left", rel(s), F32(o["cards_left"][s]) / F32(27))
    for i, s in enumerate(o["finish_order"]):
        put("out", rel(s), F32(i + 1) / F32(6))
    team = me % 2
    put("levels", LEVELS.index(o["levels"][team]), 1)
    put("levels", 13 + LEVELS.index(o["levels"][1 - team]), 1)
    put("level_rank", LEVELS.index(o["level"]), 1)
    put("dealer", rel(o["dealer"]), 1)
    put("phase", PHASES.index(o["phase"]), 1)
    if o["current_player"] is not None:
        put("to_act", rel(o["current_player"]), 1)
    for t in o["tributes"]:
        if t["card"] is not None:
            x[SPEC["tribute"].start + _core.core.parse_face(t["card"])] += 1
    for t in o["tributes"]:  # "returned" is None unless the pair is mine (R16)
        if t["returned"] is not None:
            x[SPEC["exchange"].start + _core.core.parse_face(t["returned"])] += 1
    put("scores", 0, F32(o["scores"][me]) / F32(100))
    put("scores", 1, F32(o["scores"][(me + 1) % 6]) / F32(100))
    return x


def py_candidate(a) -> np.ndarray:
    out = np.zeros(CAND_FEATURES, dtype=np.float32)
    out[:54] = face_counts(list(a.cards))
    if a.type == "play":
        p = a.play
        out[54 + int(p.kind)] = 1
        out[63] = scaled_key(p.key, p.size)
        out[64] = F32(p.jokers) / F32(5)
    out[65] = 1 if a.type == "pass" else 0
    out[66] = F32(len(a.cards)) / F32(5)
    return out


def canonical_key(a, level: str, position: int) -> tuple:
    """docs/learning.md: smallest power sum, fewest level cards, fewest BJs, first."""
    faces = a.cards.faces()
    lr = LEVELS.index(level)
    return (sum(_core.core.face_power(f, level) for f in faces),
            sum(1 for f in faces if f < 52 and f // 4 == lr),
            sum(1 for f in faces if f == 53), position)


def compare_slices(got: np.ndarray, want: np.ndarray, where: str) -> None:
    assert got.dtype == np.float32 and got.shape == (OBS_SIZE,)
    for name, sl in SPEC.items():
        if not np.array_equal(got[sl], want[sl]):
            bad = np.flatnonzero(got[sl] != want[sl])
            raise AssertionError(f"{where}: slice {name!r} differs at {bad.tolist()[:8]}: "
                                 f"C++ {got[sl][bad][:8]} vs reference {want[sl][bad][:8]}")


# ---------------------------------------------------------------------------
# Game states
# ---------------------------------------------------------------------------

@st.composite
def games(draw):
    seed = draw(st.integers(0, 2**32))
    rules = draw(st.sampled_from(RULESETS))
    steps = draw(st.integers(0, 2**32)) % 1300  # spread (hypothesis favours small ints)
    rng = random.Random(seed)
    g = random_steps(Game(seed, rules), rng, steps)
    if draw(st.booleans()):  # go on to a tribute / return / take decision
        for _ in range(3000):
            if g.match_over or (g.phase != "play" and rng.random() < 0.5):
                break
            random_steps(g, rng, 1)
    return g


def match_states(seed: int, rules: Rules, limit: int = 4000):
    """Every state of a random match (the game object is reused: read it at once)."""
    g = Game(seed, rules)
    rng = random.Random(seed)
    for _ in range(limit):
        yield g
        if g.match_over:
            return
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])


# ---------------------------------------------------------------------------
# Layout
# ---------------------------------------------------------------------------

def test_constants_and_layout_match_the_docs():
    assert (OBS_VERSION, OBS_SIZE, NUM_ABSTRACT, CAND_FEATURES) == (1, 633, 444, 67)
    covered = []
    for sl in SPEC.values():
        covered.extend(range(sl.start, sl.stop))
    assert covered == list(range(OBS_SIZE)), "slices must tile the tensor in order"
    doc = (Path(__file__).parents[2] / "docs" / "learning.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|", doc, re.M)
    assert {n: slice(int(o), int(o) + int(s)) for n, o, s in rows} == SPEC
    assert set(daguai.learn.obs_meanings()) == set(SPEC)
    spec = obs_spec()
    spec.clear()
    assert obs_spec() == SPEC  # a fresh dict each call


# ---------------------------------------------------------------------------
# (a) the encoder against Game.observation, slice by slice
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed,rules", [(11, RULESETS[0]), (12, RULESETS[1]), (13, RULESETS[2])])
def test_encoder_matches_observation_through_whole_matches(seed, rules):
    """Every state of a whole random match, every seat. The run must also reach states
    where the rarer slices are non-zero (so they are really checked)."""
    seen = dict.fromkeys(["tribute", "exchange", "passed", "out", "top_cards", "leading",
                          "scores"], False)
    phases = set()
    n = 0
    for g in match_states(seed, rules):
        if g.round >= 2 and g.phase == "play" and all(seen.values()):
            break  # enough: keep the test fast
        phases.add(g.phase)
        for seat in range(6):
            x = encode_observation(g, seat)
            compare_slices(x, py_encode(g.observation(seat)),
                           f"seed {seed} round {g.round} phase {g.phase} seat {seat}")
            for name in seen:
                seen[name] |= bool(x[SPEC[name]].any())
        n += 1
    assert all(seen.values()), seen
    assert {"tribute", "return", "play"} <= phases
    assert n > 300


@SETTINGS
@given(games())
def test_encoder_matches_observation_random_states(g):
    for seat in range(6):
        compare_slices(encode_observation(g, seat), py_encode(g.observation(seat)), f"seat {seat}")


def test_encoder_any_seat_and_terminal_state():
    g = Game(5, Rules(max_rounds=1, final_level="3"))
    random_steps(g, random.Random(5), 100000)
    assert g.match_over
    for seat in range(6):
        x = encode_observation(g, seat)
        compare_slices(x, py_encode(g.observation(seat)), f"match over, seat {seat}")
        assert x[SPEC["phase"]][4] == 1 and not x[SPEC["to_act"]].any()


# ---------------------------------------------------------------------------
# (b) R16: no private information of another seat
# ---------------------------------------------------------------------------

def _public_view(x: np.ndarray, seat: int) -> dict[str, np.ndarray]:
    """The non-private slices of seat's tensor, relabelled to absolute seats / teams."""
    out = {}
    for name, sl in SPEC.items():
        v = x[sl]
        if name in ("hand", "exchange"):
            continue  # private
        if name == "played":
            v = np.roll(v.reshape(6, 54), seat, axis=0).ravel()
        elif name in ("top_seat", "passed", "cards_left", "out", "dealer", "to_act"):
            v = np.roll(v, seat)
        elif name in ("levels", "scores"):
            half = len(v) // 2
            if seat % 2:  # "mine, other" -> "team A, team B"
                v = np.concatenate([v[half:], v[:half]])
        out[name] = v
    return out


@SETTINGS
@given(games())
def test_no_private_information_leaks(g):
    """Each seat's tensor is a function of observation(seat) alone (which R16 filters);
    its hand slice is its own hand; its exchange slice is empty unless it is in a tribute
    pair; and everything else is one public view, relabelled per seat — so no seat's
    tensor can hold another seat's hand or exchange card."""
    views = []
    pairs = g.tribute_state
    for seat in range(6):
        x = encode_observation(g, seat)
        assert np.array_equal(x, py_encode(g.observation(seat)))
        assert np.array_equal(x[SPEC["hand"]], g.hand(seat).counts().astype(np.float32))
        mine = [t for t in pairs if seat in (t["from"], t["to"])]
        if not mine:
            assert not x[SPEC["exchange"]].any(), f"seat {seat} sees another pair's exchange"
        else:
            want = face_counts([t["returned"] for t in mine if t["returned"] is not None])
            assert np.array_equal(x[SPEC["exchange"]], want)
        views.append(_public_view(x, seat))
    for seat in range(1, 6):
        for name, v in views[0].items():
            assert np.array_equal(v, views[seat][name]), f"public slice {name!r} of seat {seat}"


# ---------------------------------------------------------------------------
# (c) abstract ids and candidate features
# ---------------------------------------------------------------------------

ID_RANGES = {  # docs/learning.md, by Kind
    Kind.SINGLE: range(1, 16), Kind.PAIR: range(16, 45), Kind.TRIPLE: range(45, 88),
    Kind.STRAIGHT: range(88, 127), Kind.FLUSH: range(127, 166), Kind.FULL_HOUSE: range(166, 218),
    Kind.FOUR_PLUS_ONE: range(218, 270), Kind.STRAIGHT_FLUSH: range(270, 322),
    Kind.FIVE_OF_A_KIND: range(322, 388),
}


def check_abstract(g: Game) -> None:
    legal = list(g.legal_actions())
    mask, index = abstract_mask(g, return_index=True)
    assert mask.dtype == np.int8 and mask.shape == (NUM_ABSTRACT,)  # the one mask dtype
    assert index.dtype == np.int32 and index.shape == (NUM_ABSTRACT,)
    assert np.array_equal(mask, abstract_mask(g))
    ids = [abstract_id(a, g.level) for a in legal]
    assert set(ids) == set(np.flatnonzero(mask).tolist())
    assert np.array_equal(index < 0, mask == 0)
    by_id: dict[int, list[int]] = {}
    for k, (a, i) in enumerate(zip(legal, ids, strict=False)):
        assert abstract_id(a) == i  # the level argument is optional
        by_id.setdefault(i, []).append(k)
        if a.type == "play":
            assert i in ID_RANGES[a.play.kind], (a, i)
        elif a.type == "pass":
            assert i == 0
        elif a.type in ("tribute", "return", "take"):
            assert i == 388 + a.cards.faces()[0]
        else:
            assert i == {"anti_tribute": 442, "offer": 443}[a.type]
    for i, ks in by_id.items():
        chosen = action_from_abstract(g, i)
        assert chosen in legal and abstract_id(chosen, g.level) == i
        best = min(ks, key=lambda k: canonical_key(legal[k], g.level, k))
        assert legal[best] == chosen, f"id {i}: canonical {legal[best]!r}, got {chosen!r}"
        assert index[i] == best
    for i in np.flatnonzero(mask == 0)[:5]:
        with pytest.raises(IllegalActionError, match="masked out"):
            action_from_abstract(g, int(i))


def check_candidates(g: Game) -> None:
    legal = list(g.legal_actions())
    feats = encode_candidates(g)
    assert feats.dtype == np.float32 and feats.shape == (len(legal), CAND_FEATURES)
    for k, a in enumerate(legal):
        assert np.array_equal(feats[k], py_candidate(a)), f"candidate {k}: {a!r}"


@SETTINGS
@given(games())
def test_abstract_ids_and_candidates_random_states(g):
    check_abstract(g)
    check_candidates(g)


def test_abstract_ids_through_tribute_phases():
    """Tribute / return / offer / take / anti_tribute decisions (rarer): a match walk."""
    types = set()
    for g in match_states(31, RULESETS[1]):
        if g.phase != "play":
            check_abstract(g)
            check_candidates(g)
            types.update(a.type for a in g.legal_actions())
        if g.round >= 6:
            break
    assert {"tribute", "return"} <= types


def test_abstract_round_trip_plays_whole_games():
    """Playing random abstract ids through action_from_abstract finishes games."""
    rng = np.random.default_rng(3)
    for seed in range(3):
        g = Game(seed, Rules(max_rounds=1))
        while not g.match_over:
            ids = np.flatnonzero(abstract_mask(g))
            g.step(action_from_abstract(g, int(rng.choice(ids))))
        assert g.n_results == 1


# ---------------------------------------------------------------------------
# (d) BatchEnv trajectories against daguai.Game
# ---------------------------------------------------------------------------

def run_batch_against_games(n, rules, seed, steps, abstract, matches=False, auto_pass=False,
                            start=None):
    env = BatchEnv(n, rules=rules, seed=seed, matches=matches, auto_pass=auto_pass,
                   abstract=abstract, start=start)
    assert env.start == (start or ("fresh" if matches else "random"))
    obs, mask, rewards, done, to_act = env.reset()
    # round episodes are games of one round (their final state stays observable)
    ep_rules = rules if matches else rules.replace(max_rounds=1)
    assert env.episode_rules == ep_rules
    games_ = [Game(seed, ep_rules, auto_pass=auto_pass, game=env.game_index(i), start=env.start)
              for i in range(n)]
    assert [env.game_index(i) for i in range(n)] == list(range(n))
    rng = np.random.default_rng(seed)
    episodes = 0
    for step in range(steps):
        feats, offsets = env.candidates()
        for i, g in enumerate(games_):
            where = f"step {step} env {i} game {env.game_index(i)}"
            assert to_act[i] == g.current_player, where
            assert np.array_equal(obs[i], encode_observation(g, g.current_player)), where
            if abstract:
                assert mask.dtype == np.int8 and np.array_equal(mask[i], abstract_mask(g)), where
            else:
                assert mask is None
            assert list(env.legal_actions(i)) == list(g.legal_actions()), where
            assert np.array_equal(feats[offsets[i]:offsets[i + 1]], encode_candidates(g)), where
        if abstract:
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask], dtype=np.int64)
        else:
            actions = np.array([rng.integers(offsets[i + 1] - offsets[i]) for i in range(n)],
                               dtype=np.int32)
        before = [env.game_index(i) for i in range(n)]
        actor = to_act.copy()
        obs, mask, rewards, done, to_act = env.step(actions)
        assert rewards.dtype == np.float32 and rewards.shape == (n, 6)
        assert done.dtype == np.uint8 and to_act.dtype == np.int32 and obs.dtype == np.float32
        for i, g in enumerate(games_):
            a = int(actions[i])
            act = action_from_abstract(g, a) if abstract else g.legal_actions()[a]
            results = g.n_results
            g.step(act)
            ended_round = g.n_results > results
            want = np.array(g.round_result["scores"], dtype=np.float32) if ended_round \
                else np.zeros(6, np.float32)
            assert np.array_equal(rewards[i], want), f"step {step} env {i}"
            ended = ended_round and (not matches or g.match_over)
            assert done[i] == ended, f"step {step} env {i}"
            if ended:
                episodes += 1
                assert env.game_index(i) == before[i] + n
                # the ended episode's last state, seen by the seat that acted (final_obs)
                assert np.array_equal(env.final_obs[i], encode_observation(g, actor[i])), \
                    f"final_obs step {step} env {i}"
                games_[i] = Game(seed, ep_rules, auto_pass=auto_pass, game=env.game_index(i),
                                 start=env.start)
                assert games_[i] == env.episode_game(i)
            else:
                assert env.game_index(i) == before[i]
    assert env.episodes_done == episodes
    return episodes


@pytest.mark.parametrize("abstract", [True, False], ids=["abstract", "candidates"])
def test_batch_env_rounds_equal_game(abstract):
    episodes = run_batch_against_games(8, Rules(), seed=101, steps=700, abstract=abstract)
    assert episodes >= 8  # several episode ends, hence automatic resets, were checked


def test_batch_env_auto_pass_and_other_rules_equal_game():
    episodes = run_batch_against_games(6, RULESETS[2], seed=7, steps=500, abstract=True,
                                       auto_pass=True)
    assert episodes >= 6


def test_batch_env_matches_equal_game():
    """Whole matches: tribute phases, rewards at every round end, done at match end."""
    rules = Rules(final_level="3", max_rounds=4, anti_tribute=True, joker_tribute_choice=True)
    episodes = run_batch_against_games(4, rules, seed=55, steps=1500, abstract=True,
                                       matches=True)
    assert episodes >= 1


def test_batch_env_arrays_are_reused_and_threads_agree():
    env = BatchEnv(16, seed=3)
    obs, mask, *_ = env.reset()
    actions = np.argmax(mask, axis=1)
    obs2, mask2, *_ = env.step(actions)
    assert obs2 is obs and mask2 is mask  # documented: overwritten in place

    def run(e, out):
        o, m, *_ = e.reset()
        rng = np.random.default_rng(0)
        acc = []
        for _ in range(200):
            a = (rng.random(m.shape) * m).argmax(axis=1)
            o, m, r, d, t = e.step(a)
            acc.append((o.copy(), r.copy(), d.copy()))
        out.append(acc)

    a_out, b_out, c_out = [], [], []
    ta = threading.Thread(target=run, args=(BatchEnv(16, seed=9), a_out))
    tb = threading.Thread(target=run, args=(BatchEnv(16, seed=9), b_out))
    ta.start(), tb.start()
    ta.join(), tb.join()
    run(BatchEnv(16, seed=9), c_out)
    for x, y, z in zip(a_out[0], b_out[0], c_out[0], strict=False):
        for u, v, w in zip(x, y, z, strict=False):
            assert np.array_equal(u, v) and np.array_equal(u, w)


def test_batch_env_reset_restarts_first_episodes():
    env = BatchEnv(4, seed=8)
    first = env.reset()[0].copy()
    rng = np.random.default_rng(0)
    for _ in range(400):
        m = env.observe()[1]
        env.step((rng.random(m.shape) * m).argmax(axis=1))
    assert env.episodes_done > 0
    assert np.array_equal(env.reset()[0], first)
    assert env.episodes_done == 0 and [env.game_index(i) for i in range(4)] == [0, 1, 2, 3]


# ---------------------------------------------------------------------------
# (e) bad input
# ---------------------------------------------------------------------------

def _snapshot(env: BatchEnv):
    obs, mask, _, _, to_act = env.observe()
    return (obs.copy(), None if mask is None else mask.copy(), to_act.copy(),
            [env.game_index(i) for i in range(env.n)])


def _same(a, b) -> bool:
    return all((x is None and y is None) or np.array_equal(x, y) for x, y in zip(a, b, strict=False))


@pytest.mark.parametrize("abstract", [True, False], ids=["abstract", "candidates"])
def test_batch_env_bad_actions_raise_and_change_nothing(abstract):
    n = 5
    env = BatchEnv(n, seed=4, abstract=abstract)
    twin = BatchEnv(n, seed=4, abstract=abstract)
    env.reset(), twin.reset()
    rng = np.random.default_rng(1)
    for _ in range(30):  # move into mid-round states
        m = env.observe()[1]
        if abstract:
            a = (rng.random(m.shape) * m).argmax(axis=1)
        else:
            _, off = env.candidates()
            a = np.array([rng.integers(off[i + 1] - off[i]) for i in range(n)])
        env.step(a), twin.step(a)
    obs, mask, *_ = env.observe()
    if abstract:
        good = mask.argmax(axis=1).astype(np.int64)
        masked_out = good.copy()
        masked_out[3] = int(np.flatnonzero(mask[3] == 0)[0])
    else:
        good = np.zeros(n, dtype=np.int64)
    too_big = good.copy()
    too_big[2] = NUM_ABSTRACT if abstract else len(env.legal_actions(2))
    negative = good.copy()
    negative[1] = -1
    snap = _snapshot(env)
    cases = [
        (good[:-1], r"1-d array of 5"),
        (np.stack([good, good]), r"1-d array of 5"),
        (good.astype(np.float64), r"integer"),
        (good.astype(bool), r"integer"),
        (list(map(float, good)), r"integer"),
        ("abc", r"1-d array|integer"),
        (too_big, r"environment 2:.*out of range"),
        (negative, r"environment 1:.*out of range"),
        (np.where(np.arange(n) == 4, 2**40, good), r"environment 4:.*out of range"),
    ]
    if abstract:
        cases.append((masked_out, r"environment 3:.*masked out"))
    for bad, msg in cases:
        with pytest.raises(ValueError, match=msg) as info:
            env.step(bad)
        assert isinstance(info.value, IllegalActionError)
        assert _same(_snapshot(env), snap), f"state changed after {bad!r}"
    # and the environment goes on exactly like its untouched twin
    a = env.step(good)
    b = twin.step(good)
    for x, y in zip(a, b, strict=False):
        assert (x is None and y is None) or np.array_equal(x, y)


def test_batch_env_bad_construction_and_indices():
    with pytest.raises(ValueError, match="n >= 1"):
        BatchEnv(0)
    with pytest.raises(ValueError, match="integer"):
        BatchEnv(2.5)
    with pytest.raises(ValueError, match="seed"):
        BatchEnv(2, seed=-1)
    with pytest.raises(ValueError, match="seed"):
        BatchEnv(2, seed=2**64)
    with pytest.raises(ValueError, match="daguai.Rules"):
        BatchEnv(2, rules={"wild": "auto"})
    with pytest.raises(ValueError, match="True or False"):
        BatchEnv(2, abstract="yes")
    env = BatchEnv(3)
    for bad in (3, -1):
        for method in (env.legal_actions, env.game_index, env.game, env.episode_game):
            with pytest.raises(ValueError, match="no environment"):
                method(bad)
    assert env.n == len(env) == 3 and env.abstract and "BatchEnv n=3" in repr(env)


def test_function_bad_input():
    g = Game(1)
    for seat in (-1, 6, 1.0, True, "0"):
        with pytest.raises(ValueError):
            encode_observation(g, seat)
    with pytest.raises(ValueError, match="daguai.Game"):
        encode_observation("game", 0)
    # the cards played this round are in the state: no log needed
    assert np.array_equal(encode_observation(Game(1, record=False), 0), encode_observation(g, 0))
    with pytest.raises(ValueError, match="daguai.Game"):
        encode_candidates(None)
    with pytest.raises(ValueError, match="daguai.Game"):
        abstract_mask([1, 2])
    for bad, msg in ((NUM_ABSTRACT, "out of range"), (-1, "out of range"), (1.0, "integer"),
                     (True, "integer"), (None, "integer")):
        with pytest.raises(IllegalActionError, match=msg):
            action_from_abstract(g, bad)
    masked = int(np.flatnonzero(abstract_mask(g) == 0)[0])
    with pytest.raises(IllegalActionError, match="masked out"):
        action_from_abstract(g, masked)
    first = np.int16(np.flatnonzero(abstract_mask(g))[0])
    assert action_from_abstract(g, first) in g.legal_actions()
    with pytest.raises(ValueError, match="daguai.Action"):
        abstract_id("pass", "2")


def test_batch_env_reports_huge_unsigned_actions_as_given():
    """Engine bug (cpp/bindings/run/bind_batch_env.cpp, BatchEnv.step): unsigned actions are
    force-cast to int64 before the range check, so 2**64 - 1 is reported as "abstract
    action -1" and 2**63 as a negative number: the error names a value the caller never
    passed. The action is rejected (correct) but the message misleads."""
    env = BatchEnv(2, seed=1)
    env.reset()
    for value in (2**64 - 1, 2**63):
        with pytest.raises(IllegalActionError, match="environment 0") as info:
            env.step(np.array([value, 0], dtype=np.uint64))
        assert "-" not in str(info.value).split("action", 1)[1], str(info.value)
