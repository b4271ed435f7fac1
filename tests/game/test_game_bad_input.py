"""Bad input to the match state machine and to records (docs/game.md "Phases and
decisions", docs/records.md): every invalid decision raises a ValueError
(IllegalActionError / IllegalPlayError / CardError) and changes nothing; every corrupt or
tampered record raises ReplayError naming its line.  Hypothesis property tests,
derandomized so that every run is the same."""

from __future__ import annotations

import functools
import json
import random

import daguai
import pytest
from daguai import (
    CardError,
    Game,
    Hand,
    IllegalActionError,
    IllegalPlayError,
    ReplayError,
    Rules,
    legal_plays,
    replay,
)
from game_helpers import random_steps
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS = settings(derandomize=True, database=None, deadline=None, max_examples=40,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

RULESETS = [
    Rules(),
    Rules(anti_tribute=True, joker_tribute_choice=True, final_level="3"),
    Rules(wild="declare", wrap_straights=True, lead_after_out="partner", max_rounds=3),
]

FACES = [r + s for r in "23456789TJQKA" for s in "shdc"] + ["SJ", "BJ"]


# ---------------------------------------------------------------------------
# Games in various states
# ---------------------------------------------------------------------------

@st.composite
def games(draw, phases=("play", "tribute", "return", "take")):
    """A seeded game after some random decisions, in one of `phases`."""
    seed = draw(st.integers(0, 2**32))
    rules = draw(st.sampled_from(RULESETS))
    steps = draw(st.integers(0, 500))
    rng = random.Random(seed)
    g = Game(seed, rules)
    random_steps(g, rng, steps)
    if g.phase not in phases:
        # go on until the wanted phase (tribute phases come after won rounds)
        for _ in range(20000):
            if g.match_over or g.phase in phases:
                break
            random_steps(g, rng, 1)
    if g.match_over or g.phase not in phases:
        # start again with rules that never end early
        g = Game(seed, Rules())
        for _ in range(20000):
            if g.phase in phases:
                break
            random_steps(g, rng, 1)
    assert g.phase in phases
    return g


def snapshot(g: Game):
    return (g.to_json(), [Hand(g.hand(s)) for s in range(6)], g.phase, g.current_player,
            g.state.n_events, g.top_seat, g.passed, g.scores, g.n_results, g.tribute_state)


def assert_rejected(g: Game, action, exc=ValueError) -> BaseException:
    before = snapshot(g)
    with pytest.raises(exc) as info:
        g.step(action)
    assert snapshot(g) == before, "a rejected action changed the game"
    return info.value


@functools.cache
def _tribute_game() -> Game:
    """SEED 6: dealer 0; team A goes out 0 2 4, so round 1 starts with three tributes."""
    g = Game(6)
    while g.n_results == 0:
        seat = g.current_player
        target = next((s for s in (0, 2, 4) if s not in g.finish_order), None)
        acts = g.legal_actions()
        if seat == target:
            g.step(acts[-1] if acts[-1].type == "play" else acts[-2])
        elif g.top is not None:
            g.step("pass")
        else:
            g.step(acts[0])
    assert g.phase == "tribute"
    return g


def tribute_game() -> Game:
    return _tribute_game().clone()


@functools.cache
def _finished_game() -> Game:
    g = Game(3, Rules(final_level="2"))
    random_steps(g, random.Random(3), 100000)
    assert g.match_over
    return g


# ---------------------------------------------------------------------------
# Decisions
# ---------------------------------------------------------------------------

@SETTINGS
@given(games(), st.integers(0, 10**6))
def test_out_of_turn_action_rejected(g, pick):
    # an Action of another seat, taken from a clone at another state
    other = g.clone()
    rng = random.Random(pick)
    for _ in range(200):
        if other.match_over:
            break
        if other.current_player != g.current_player:
            break
        random_steps(other, rng, 1)
    if other.match_over or other.current_player == g.current_player:
        other = tribute_game() if g.current_player != 5 else Game(3)  # some other seat's turn
    acts = other.legal_actions()
    action = acts[pick % len(acts)]
    assert action.seat != g.current_player
    err = assert_rejected(g, action, IllegalActionError)
    assert "turn" in str(err) or "phase" in str(err)


@SETTINGS
@given(games(phases=("play",)), st.integers(0, 10**6))
def test_action_of_the_right_seat_from_another_state(g, pick):
    # the same seat's Action from another game: applied only if valid here
    other = Game(pick % 1000)
    random_steps(other, random.Random(pick), pick % 300)
    if other.match_over or other.phase != "play":
        return
    acts = other.legal_actions()
    a = acts[pick % len(acts)]
    if a in g.legal_actions():
        return
    if a.type == "pass" and g.top is not None:
        return
    if a.seat != g.current_player:
        assert_rejected(g, a, IllegalActionError)
    else:
        assert_rejected(g, a, ValueError)


@SETTINGS
@given(games(phases=("play",)))
def test_wrong_phase_in_play(g):
    t = tribute_game()
    tribute_action = t.legal_actions()[0]
    assert tribute_action.type == "tribute"
    assert_rejected(g, tribute_action, IllegalActionError)
    assert_rejected(g, "anti_tribute", IllegalActionError)
    if g.top is None:
        # R8: a leader cannot pass
        err = assert_rejected(g, "pass", IllegalActionError)
        assert "cannot pass" in str(err)


@SETTINGS
@given(games(phases=("tribute", "return", "take")), st.integers(0, 10**6))
def test_wrong_phase_in_tribute(g, pick):
    assert_rejected(g, "pass", IllegalActionError)
    hand = g.hand(g.current_player)
    card = hand.cards()[pick % len(hand)]
    play = daguai.classify(card, g.level, g.rules)
    assert_rejected(g, play, IllegalActionError)  # a Play is a play-phase action
    if g.phase != "tribute":
        assert_rejected(g, "anti_tribute", IllegalActionError)
    if g.phase == "tribute" and not g.rules.anti_tribute:
        assert_rejected(g, "anti_tribute", IllegalActionError)


def test_tribute_phase_rejects_lower_card_and_two_cards():
    g = tribute_game()
    assert g.current_player == 5 and g.hand(5).count("BJ")
    low = g.hand(5).cards()[0]
    err = assert_rejected(g, low, IllegalActionError)
    assert "highest" in str(err)
    assert_rejected(g, "BJ BJ", IllegalActionError)
    assert_rejected(g, "", IllegalActionError)
    g.step("BJ")


@SETTINGS
@given(games(), st.integers(0, 10**6), st.integers(1, 3))
def test_cards_not_in_hand(g, pick, copies):
    hand = g.hand(g.current_player)
    missing = [f for f in FACES if hand.count(f) == 0]
    if not missing:
        return
    card = missing[pick % len(missing)]
    text = " ".join([card] * copies)
    if g.phase == "play":
        assert_rejected(g, text, CardError)
        # one more copy than held of a held face
        held = hand.cards()[pick % len(hand)]
        n = hand.count(held)
        if n < 3:
            assert_rejected(g, " ".join([held] * (n + 1)), CardError)
    elif g.phase == "take":
        assert_rejected(g, card, ValueError)
    elif g.phase == "return" and g.legal_actions()[0].type == "offer":
        assert_rejected(g, text, ValueError)
    else:
        assert_rejected(g, card, CardError)


@SETTINGS
@given(games(phases=("play",)), st.integers(0, 10**6))
def test_play_not_beating_the_top(g, pick):
    if g.top is None:
        g.step(g.legal_actions()[pick % len(g.legal_actions())])
        if g.phase != "play" or g.top is None:
            return
    hand, top = g.hand(g.current_player), g.top
    losers = [p for p in legal_plays(hand, g.level, None, g.rules) if not p.beats(top)]
    same = [p for p in losers if p.size == top.size]
    other = [p for p in losers if p.size != top.size]
    for pool in (same, other):
        if pool:
            p = pool[pick % len(pool)]
            err = assert_rejected(g, p, IllegalPlayError)
            assert "beat" in str(err) or "cards" in str(err)
            as_text = daguai.classify(p.cards, g.level, g.rules)  # declare: another reading
            if not as_text.beats(top):
                assert_rejected(g, str(p.cards), IllegalPlayError)


BAD_TOKENS = ["1s", "2x", "Zz", "11h", "S", "JJ", "BJs", "SJ2", "As5", "0c", "1", "T", "♠", "10", "Kk",
              "xx", "2s2s", "A♠♠", "BB", "-", "?"]


@SETTINGS
@given(games(), st.sampled_from(BAD_TOKENS), st.integers(0, 10**6))
def test_malformed_card_text(g, bad, pick):
    hand = g.hand(g.current_player)
    good = hand.cards()[pick % len(hand)]
    for text in (bad, f"{good} {bad}", f"{bad},{good}"):
        err = assert_rejected(g, text, CardError)
        assert bad in str(err) or "card" in str(err)


@pytest.mark.parametrize("junk", [None, 42, 3.5, object(), b"As"])
def test_non_action_objects(junk):
    for g in (Game(1), tribute_game()):
        assert_rejected(g, junk, ValueError)


def test_more_than_three_copies():
    g = Game(1)
    err = assert_rejected(g, "As As As As", CardError)
    assert "3" in str(err)


@SETTINGS
@given(games(), st.sampled_from([6, 7, -1, 100, -7]))
def test_forfeit_of_bad_seat(g, seat):
    before = snapshot(g)
    with pytest.raises(IllegalActionError):
        g.forfeit(seat)
    assert snapshot(g) == before


def test_forfeit_of_seat_7_message():
    g = Game(1)
    with pytest.raises(ValueError, match="7"):
        g.forfeit(7)
    assert not g.match_over


@pytest.mark.parametrize("action", ["pass", "anti_tribute", "As", "", "2s 2h", "BJ"])
def test_anything_after_match_over(action):
    g = _finished_game().clone()
    assert g.match_over and len(g.legal_actions()) == 0
    err = assert_rejected(g, action, IllegalActionError)
    assert "over" in str(err)


def test_actions_and_forfeits_after_match_over():
    g = _finished_game().clone()
    early = Game(3, Rules(final_level="2"))
    for a in list(early.legal_actions())[:5]:
        assert_rejected(g, a, IllegalActionError)
    assert_rejected(g, daguai.classify("As", "2"), IllegalActionError)
    for seat in range(6):
        before = snapshot(g)
        with pytest.raises(IllegalActionError):
            g.forfeit(seat)
        assert snapshot(g) == before
    # and a forfeit ends the match too
    g = Game(1)
    g.forfeit(2)
    assert_rejected(g, g.hand(1).cards()[0], IllegalActionError)


# ---------------------------------------------------------------------------
# Records: corrupt and tampered
# ---------------------------------------------------------------------------

@functools.cache
def _records() -> tuple[str, ...]:
    out = []
    # a match with tribute (seed 6 scripted round 0), then random play, 2 rounds
    g = Game(6, Rules(max_rounds=2))
    t = tribute_game()
    for a in json.loads(t.to_json())["actions"]:
        g.step(a[2] if len(a) > 2 else a[1])
    random_steps(g, random.Random(6), 100000)
    out.append(g.to_record())
    # joker choice and anti-tribute rules, random play
    g = Game(8, Rules(anti_tribute=True, joker_tribute_choice=True, max_rounds=3))
    random_steps(g, random.Random(8), 100000)
    out.append(g.to_record())
    # auto_pass: forced passes in the record
    g = Game(9, Rules(max_rounds=2), auto_pass=True)
    random_steps(g, random.Random(9), 100000)
    out.append(g.to_record())
    # declared jokers
    g = Game(10, Rules(wild="declare", max_rounds=1))
    random_steps(g, random.Random(10), 100000)
    out.append(g.to_record())
    return tuple(out)


def _entries(rec: str) -> list[dict]:
    return [json.loads(line) for line in rec.splitlines()]


def _text(entries: list[dict]) -> str:
    return "\n".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in entries) + "\n"


def _replay_error(text) -> str:
    with pytest.raises(ReplayError) as info:
        replay(text)
    return str(info.value)


def test_records_replay_unchanged():
    for rec in _records():
        g = replay(rec)
        assert g.to_record() == rec
        assert replay(rec.splitlines()) == g
        assert replay(_entries(rec)) == g


@SETTINGS
@given(st.integers(0, 3), st.integers(0, 10**6), st.integers(0, 53))
def test_record_changed_card_in_deal(which, pick, face):
    entries = _entries(_records()[which])
    deals = [i for i, e in enumerate(entries) if e.get("event") == "deal"]
    i = deals[pick % len(deals)]
    seat = pick % 6
    cards = entries[i]["hands"][seat].split()
    k = pick % len(cards)
    if cards[k] == FACES[face]:
        return
    cards[k] = FACES[face]
    entries[i]["hands"][seat] = " ".join(cards)
    msg = _replay_error(_text(entries))
    assert msg.startswith(f"line {i + 1}:"), msg


def test_record_swapped_hands_in_deal():
    entries = _entries(_records()[0])
    h = entries[1]["hands"]
    h[0], h[1] = h[1], h[0]
    assert _replay_error(_text(entries)).startswith("line 2:")


def _seat_never_holds(entries: list[dict], i: int) -> list[str]:
    """Faces the seat of play line `i` never holds in that round (dealt none, and no
    tribute / return / take of it)."""
    seat = entries[i]["seat"]
    d = max(j for j in range(i) if entries[j].get("event") == "deal")
    dealt = Hand(entries[d]["hands"][seat])
    moved = set()
    for e in entries[d:i]:
        if e.get("event") in ("tribute", "return", "take"):
            moved.add(e["card"])
    return [f for f in FACES if dealt.count(f) == 0 and f not in moved]


@SETTINGS
@given(st.integers(0, 3), st.integers(0, 10**6))
def test_record_changed_play_to_cards_not_held(which, pick):
    entries = _entries(_records()[which])
    plays = [i for i, e in enumerate(entries) if e.get("event") == "play"]
    i = plays[pick % len(plays)]
    never = _seat_never_holds(entries, i)
    if not never:
        return
    entries[i]["cards"] = never[pick % len(never)]
    entries[i].pop("as", None)
    msg = _replay_error(_text(entries))
    assert msg.startswith(f"line {i + 1}:"), msg


@SETTINGS
@given(st.integers(0, 3), st.integers(0, 10**6), st.integers(1, 5))
def test_record_swapped_seat(which, pick, shift):
    entries = _entries(_records()[which])
    decisions = [i for i, e in enumerate(entries)
                 if e.get("event") in ("play", "pass", "tribute", "return", "offer", "take")]
    i = decisions[pick % len(decisions)]
    entries[i]["seat"] = (entries[i]["seat"] + shift) % 6
    msg = _replay_error(_text(entries))
    assert msg.startswith(f"line {i + 1}:"), msg


def test_record_swapped_consecutive_decisions():
    entries = _entries(_records()[0])
    i = next(i for i, e in enumerate(entries)
             if e.get("event") == "play" and entries[i + 1].get("event") == "pass")
    entries[i], entries[i + 1] = entries[i + 1], entries[i]
    assert _replay_error(_text(entries)).startswith(f"line {i + 1}:")


@SETTINGS
@given(st.integers(0, 3), st.integers(1, 10**6))
def test_record_truncated_inside_a_line(which, pick):
    rec = _records()[which]
    lines = rec.splitlines()
    n = 2 + pick % (len(lines) - 1)  # a line 2..len
    line = lines[n - 1]
    cut = 1 + pick % (len(line) - 1)
    text = "\n".join(lines[:n - 1] + [line[:cut]])
    msg = _replay_error(text)
    assert msg.startswith(f"line {n}:"), msg


def test_record_truncated_before_a_round_end():
    # the record stops after the last play of round 0: the engine logged more
    entries = _entries(_records()[0])
    i = next(i for i, e in enumerate(entries) if e.get("event") == "round_end")
    msg = _replay_error(_text(entries[:i]))
    assert "ends early" in msg


def test_record_wrong_format_version_and_header():
    rec = _records()[0]
    entries = _entries(rec)
    for change in ({"format": 2}, {"format": 0}, {"format": "1"}, {"record": "other"}):
        bad = [dict(entries[0], **change)] + entries[1:]
        assert _replay_error(_text(bad)).startswith("line 1:")
    bad = [dict(entries[0], rules={"wild": "sometimes"})] + entries[1:]
    _replay_error(_text(bad))
    bad = [dict(entries[0], seed=-1)] + entries[1:]
    _replay_error(_text(bad))
    bad = [{k: v for k, v in entries[0].items() if k != "seed"}] + entries[1:]
    _replay_error(_text(bad))
    _replay_error("")
    _replay_error("\n\n")


GARBAGE = st.one_of(
    st.text(min_size=1, max_size=30).filter(lambda s: s.strip() and "\n" not in s
                                            and "\r" not in s and "\x0b" not in s
                                            and "\x0c" not in s and "\x1c" not in s
                                            and "\x1d" not in s and "\x1e" not in s
                                            and "\x85" not in s and "\u2028" not in s
                                            and "\u2029" not in s),
    st.sampled_from(["123", "[]", "null", '"deal"', "{}", '{"event": 5}', '{"seat": 1}',
                     '{"event": "shuffle", "seat": 0}', '{"event": "pass", "seat": 0}']),
)


@SETTINGS
@given(st.integers(0, 3), st.integers(0, 10**6), GARBAGE)
def test_record_garbage_line(which, pick, garbage):
    lines = _records()[which].splitlines()
    n = 2 + pick % len(lines)  # the garbage becomes text line n (2..len+1)
    text = "\n".join(lines[:n - 1] + [garbage] + lines[n - 1:])
    msg = _replay_error(text)
    assert msg.startswith(f"line {n}:"), msg


@SETTINGS
@given(st.integers(0, 3), st.integers(0, 10**6))
def test_record_duplicated_or_dropped_decision(which, pick):
    entries = _entries(_records()[which])
    decisions = [i for i, e in enumerate(entries)
                 if e.get("event") in ("play", "tribute", "return", "offer", "take")
                 or (e.get("event") == "pass" and not e.get("auto"))]
    i = decisions[pick % len(decisions)]
    dup = entries[:i + 1] + [entries[i]] + entries[i + 1:]
    msg = _replay_error(_text(dup))
    assert msg.startswith(f"line {i + 2}:"), msg
    dropped = entries[:i] + entries[i + 1:]
    assert _replay_error(_text(dropped)).startswith("line ")


@SETTINGS
@given(st.integers(0, 3), st.integers(0, 10**6))
def test_record_changed_result(which, pick):
    entries = _entries(_records()[which])
    ends = [i for i, e in enumerate(entries) if e.get("event") == "round_end"]
    i = ends[pick % len(ends)]
    field = ["order", "winner", "next_dealer", "levels_after", "scores", "tributers",
             "match_over", "dealer", "players_out"][pick % 9]
    value = entries[i][field]
    if isinstance(value, list) and value:
        value = list(reversed(value)) if len(set(map(str, value))) > 1 else value + value
    elif isinstance(value, bool):
        value = not value
    elif isinstance(value, int):
        value = (value + 1) % 6
    elif value is None:
        value = 0
    else:
        value = []
    entries[i][field] = value
    msg = _replay_error(_text(entries))
    assert msg.startswith(f"line {i + 1}:"), msg


def test_record_changed_auto_pass_flag():
    entries = _entries(_records()[2])
    i = next(i for i, e in enumerate(entries) if e.get("event") == "pass" and e["auto"])
    entries[i]["auto"] = False  # a forced pass claimed as a decision
    assert _replay_error(_text(entries)).startswith(f"line {i + 1}:")


def test_record_changed_jokers_as():
    entries = _entries(_records()[3])
    found = [i for i, e in enumerate(entries) if e.get("event") == "play" and "as" in e]
    if not found:
        pytest.skip("no joker play in this record")
    i = found[0]
    entries[i]["as"] = "2s" if entries[i]["as"] != "2s" else "3s"
    assert _replay_error(_text(entries)).startswith(f"line {i + 1}:")


# Fields that describe a decision or a deal but are not the decision itself: a record whose
# field disagrees with the engine's log is tampered, and replay must say so (docs/records.md:
# replay "walks the record and the engine's own log together"; the first entry that fails
# names its line).  Either replay rejects the record, or the game it returns writes the
# very same record back.

def _tamper(which: int, event: str, field: str, value_of):
    entries = _entries(_records()[which])
    i = next(i for i, e in enumerate(entries) if e.get("event") == event)
    entries[i][field] = value_of(entries[i][field])
    return i, _text(entries)


@pytest.mark.parametrize("event, field, value_of", [
    ("play", "kind", lambda v: "five_of_a_kind" if v != "five_of_a_kind" else "single"),
    ("play", "key", lambda v: v + 1000),
    ("deal", "levels", lambda v: ["A", "K"]),
    ("tribute", "to", lambda v: (v + 2) % 6),
    ("return", "to", lambda v: (v + 2) % 6),
])
def test_record_tampered_descriptive_field_rejected(event, field, value_of):
    i, text = _tamper(0, event, field, value_of)
    msg = _replay_error(text)
    assert msg.startswith(f"line {i + 1}:"), msg


def _changed(value, pick: int):
    """Another value of the same JSON type."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1 + pick % 40
    if isinstance(value, str):
        options = ["single", "pair", "straight", "flush", "2s", "As Ah", "BJ", "7c 7d 7h", "A", "3"]
        options = [o for o in options if o != value]
        return options[pick % len(options)]
    if isinstance(value, list):
        if len(set(map(str, value))) > 1:
            return list(reversed(value))
        return value[:-1] if value else [0]
    if isinstance(value, dict):
        return {}
    return 0  # None


@SETTINGS
@given(st.integers(0, 3), st.integers(0, 10**6))
def test_record_any_tampered_field_is_rejected_or_reproduced(which, pick):
    # Either replay rejects the changed record at the changed line, or the game it returns
    # writes that very record back (the change was a legal alternative decision).
    entries = _entries(_records()[which])
    i = 1 + pick % (len(entries) - 1)
    keys = sorted(k for k in entries[i] if k != "event")
    if not keys:
        return
    key = keys[pick % len(keys)]
    value = _changed(entries[i][key], pick // 7)
    entries[i][key] = value
    text = _text(entries)
    try:
        g = replay(text)
    except ReplayError as exc:
        # a changed decision may only fail later (another legal play changes later hands)
        assert str(exc).startswith("line ") or "ends early" in str(exc), str(exc)
        return
    assert g.to_record() == text, (
        f"replay accepted line {i + 1} ({entries[i]['event']}) with {key}={value!r}")


def test_record_error_names_the_text_line_with_blank_lines():
    # read_record skips blank lines; the line named must still be the text line.
    lines = _records()[0].splitlines()
    entries = [json.loads(x) for x in lines]
    i = next(i for i, e in enumerate(entries) if e.get("event") == "play" and i > 5)
    entries[i]["seat"] = (entries[i]["seat"] + 1) % 6
    lines[i] = json.dumps(entries[i])
    text = "\n".join(lines[:3] + [""] + lines[3:])  # a blank line before the tampered one
    # the tampered entry is now text line i + 2 (1-based, after the inserted blank line)
    msg = _replay_error(text)
    assert msg.startswith(f"line {i + 2}:"), msg


# ---------------------------------------------------------------------------
# Game JSON (Game.from_json)
# ---------------------------------------------------------------------------

def test_game_json_tampered():
    g = Game(6, Rules(max_rounds=1))
    random_steps(g, random.Random(1), 60)
    doc = json.loads(g.to_json())
    assert Game.from_json(json.dumps(doc)) == g
    for change, where in [
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d["actions"].__setitem__(3, [9, "play", "As"]), "action 3"),
        (lambda d: d["actions"].__setitem__(4, [d["actions"][4][0], "dance"]), "action 4"),
        (lambda d: d["actions"].__setitem__(5, "pass"), "action 5"),
        (lambda d: d["actions"].__setitem__(0, [d["actions"][0][0], "pass"]), "action 0"),
        (lambda d: d["actions"].__setitem__(1, [(d["actions"][1][0] + 1) % 6] + d["actions"][1][1:]),
         "action 1"),
    ]:
        bad = json.loads(json.dumps(doc))
        change(bad)
        with pytest.raises(ReplayError, match=where):
            Game.from_json(json.dumps(bad))
    with pytest.raises(ReplayError):
        Game.from_json("{not json")
    with pytest.raises(ReplayError):
        Game.from_json("[]")
