"""daguai.protocol: action texts and JSON read back, the JSON Schema holds for every document,
and events are filtered per seat as R16 says."""

from __future__ import annotations

import json
import random

import daguai
import jsonschema
import pytest
from daguai import Game, Rules, codec, protocol
from game_helpers import random_steps

SCHEMA = protocol.schema()


def validate(doc: object, name: str) -> None:
    jsonschema.Draft202012Validator({**SCHEMA, "$ref": f"#/$defs/{name}"}).validate(doc)


def test_schema_is_valid_and_versioned():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["version"] == protocol.PROTOCOL_VERSION
    for name in ("action", "play", "event", "view", "result", "decision", "record_header",
                 "game_document", "client_message", "server_message", "create_table"):
        assert name in SCHEMA["$defs"]


def test_schema_rejects_what_it_should():
    with pytest.raises(jsonschema.ValidationError):
        validate({"type": "fly"}, "action")
    with pytest.raises(jsonschema.ValidationError):
        validate({"event": "play", "seat": 7, "cards": "2s", "kind": "single", "key": 0}, "event")
    with pytest.raises(jsonschema.ValidationError):
        validate({"type": "act", "index": 1, "text": "pass"}, "client_message")
    with pytest.raises(jsonschema.ValidationError):
        validate("2s 2x", "cards")


def _states(rules: Rules, seeds: range, steps: int, rng: random.Random):
    """Games at the first decision and after a few random steps."""
    for seed in seeds:
        g = Game(seed, rules)
        yield g
        yield random_steps(g.clone(), rng, rng.randrange(1, steps))


def test_declare_texts_are_distinct_and_read_back():
    """R6 declare: the text of every legal action names its reading, so no two legal
    actions print the same, and each text parses back to the same action."""
    rng = random.Random(11)
    checked = 0
    for g in _states(Rules(wild="declare"), range(20), 60, rng):
        actions = list(g.legal_actions())
        texts = [str(a) for a in actions]
        assert len(set(texts)) == len(texts), g
        for a, t in zip(actions, texts, strict=False):
            back = protocol.parse_action(g, t)
            assert back == a, t
            assert protocol.action_from_json(g, protocol.action_to_json(a)) == a, t
            checked += 1
    assert checked > 10_000


@pytest.mark.parametrize("wild", ["auto", "high"])
def test_texts_read_back_through_step_over_a_match(wild):
    """str(action) -> Game.step accepts it and does the same thing, tribute and return too."""
    rules = Rules(wild=wild, final_level="4")
    rng = random.Random(5)
    a_game, b_game = Game(21, rules), Game(21, rules)
    phases = set()
    while not a_game.match_over:
        actions = list(a_game.legal_actions())
        texts = [str(a) for a in actions]
        assert len(set(texts)) == len(texts)
        pick = actions[rng.randrange(len(actions))]
        phases.add(a_game.phase)
        a_game.step(pick)
        b_game.step(str(pick))
        assert a_game.state.n_events == b_game.state.n_events
        assert a_game.current_player == b_game.current_player
    assert a_game.to_json() == b_game.to_json()
    assert {"play", "tribute", "return"} <= phases


def test_action_equality_agrees_between_engine_and_python():
    """The same play by another seat is another action (C++ == and Python == agree)."""
    g = Game(3)
    seat = g.current_player
    a = g.legal_actions()[0]
    g2 = Game(3)
    g2.step(g2.legal_actions()[0])
    # a pass by two different seats
    g3 = g2.clone()
    p2 = [x for x in g2.legal_actions() if x.type == "pass"][0]
    g3.step(p2)
    p3 = [x for x in g3.legal_actions() if x.type == "pass"][0]
    assert p2.seat != p3.seat and p2 != p3
    assert p2 not in g3.legal_actions()  # C++ std::find with the engine's ==
    assert p3 in g3.legal_actions()
    assert a == g.legal_actions()[0] and hash(a) == hash(g.legal_actions()[0]) and a.seat == seat


@pytest.mark.parametrize("text", ["", "   ", "fly", "pass 2s", "2s as", "tribute 2s", "2s 3h",
                                  "ZZ", "5s 5s 5s 5c BJ as", "play", "as 3s", "2s as 3s"])
def test_bad_action_texts_are_refused_without_change(text):
    g = Game(9, Rules(wild="declare"))
    before = g.to_json()
    with pytest.raises(ValueError):
        protocol.parse_action(g, text)
    with pytest.raises(ValueError):
        g.step(text)
    assert g.to_json() == before


def test_as_must_match_the_fixed_reading_outside_declare():
    g = Game(0)
    h = g.hand(g.current_player)
    plays = [a for a in g.legal_actions() if a.play is not None and a.play.jokers_as]
    if not plays:
        pytest.skip("no joker play in this deal")
    a = plays[0]
    assert protocol.parse_action(g, str(a)) == a
    wrong = str(a).split(" as ")[0] + " as " + ("2h" if "2h" not in a.play.jokers_as else "3h")
    if len(a.play.jokers_as) == 1:
        with pytest.raises(daguai.IllegalPlayError):
            protocol.parse_action(g, wrong)
    assert h == g.hand(g.current_player)


def _short_match(seed: int, rules: Rules) -> Game:
    rng = random.Random(seed)
    g = Game(seed, rules)
    while not g.match_over:
        random_steps(g, rng, 50)
    return g


@pytest.mark.parametrize("wild", ["auto", "declare"])
def test_every_document_of_a_match_validates(wild):
    rules = Rules(wild=wild, final_level="3", anti_tribute=True, joker_tribute_choice=True)
    g = _short_match(4, rules)
    lines = g.to_record().splitlines()
    validate(json.loads(lines[0]), "record_header")
    kinds = set()
    for line in lines[1:]:
        e = json.loads(line)
        kinds.add(e["event"])
        validate(e, "event")
        for seat in (*range(6), None):
            validate(codec.restrict(e, seat), "event")
    assert {"deal", "play", "pass", "round_end", "tribute"} <= kinds and kinds & {"return", "take"}
    doc = json.loads(g.to_json())
    validate(doc, "game_document")
    for r in g.results:
        validate(protocol.result_to_json(r), "result")
    assert protocol.position_to_json(g) == doc


def test_views_validate_at_every_decision():
    rules = Rules(final_level="3")
    rng = random.Random(2)
    g = Game(8, rules)
    n = 0
    while not g.match_over and n < 400:
        if n % 7 == 0:
            for seat in (*range(6), None):
                v = protocol.view_to_json(g, seat)
                validate(v, "view")
                json.dumps(v)
            for a in g.legal_actions():
                validate(protocol.action_to_json(a), "action")
                validate(str(a), "action_text")
        random_steps(g, rng, 1)
        n += 1


def test_public_view_holds_no_private_card():
    """R16: a spectator sees no hand, no returned / offered / taken card."""
    g = _short_match(6, Rules(final_level="3"))
    g = Game(6, Rules(final_level="3"))
    rng = random.Random(6)
    while not g.match_over and g.n_results == 0:
        random_steps(g, rng, 1)
    while g.phase != "play" and not g.match_over:  # through tribute and return
        random_steps(g, rng, 1)
    v = protocol.public_view(g)
    assert "hand" not in v and v["seat"] is None
    for t in v["tributes"]:
        assert t["returned"] is None and t["offer"] is None
    for e in v["history"]:
        assert not (e["event"] in ("return", "offer", "take") and "cards" in e)


def test_restrict_hides_other_hands_and_pair_cards():
    deal = {"event": "deal", "round": 1, "dealer": 2, "levels": ["2", "2"],
            "hands": [f"{r}s" for r in "234567"]}
    mine = codec.restrict(deal, 3)
    assert mine["hands"] == [None, None, None, "5s", None, None]
    assert codec.restrict(deal, None)["hands"] == [None] * 6
    ret = {"event": "return", "seat": 1, "to": 4, "card": "3c"}
    assert codec.restrict(ret, 1) == ret and codec.restrict(ret, 4) == ret
    assert codec.restrict(ret, 0) == {"event": "return", "seat": 1, "to": 4}
    trib = {"event": "tribute", "seat": 4, "to": 1, "card": "BJ"}
    assert codec.restrict(trib, 0) == trib  # the tribute card is public (R11)


def test_play_json_round_trip():
    rules = Rules(wild="declare")
    for a in Game(1, rules).legal_actions():
        if a.play is not None:
            d = protocol.play_to_json(a.play)
            validate(d, "play")
            assert protocol.play_from_json(d, a.play.level_text if hasattr(a.play, "level_text")
                                           else Game(1, rules).level, rules) == a.play
    with pytest.raises(ValueError):
        protocol.play_from_json({"cards": "2s", "kind": "pair", "key": 0}, "2", rules)
    with pytest.raises(ValueError):
        protocol.play_from_json("2s", "2", rules)


def test_replay_uses_the_protocol_and_still_detects_tampering():
    g = _short_match(12, Rules(final_level="3"))
    rec = g.to_record()
    assert daguai.replay(rec).to_json() == g.to_json()
    lines = rec.splitlines()
    i = next(k for k, line in enumerate(lines) if '"event":"play"' in line)
    e = json.loads(lines[i])
    e["event"] = "levitate"
    lines[i] = json.dumps(e)
    with pytest.raises(daguai.ReplayError, match=f"line {i + 1}: unknown event"):
        daguai.replay("\n".join(lines))


def test_protocol_has_no_old_codec_names():
    """The event codec is daguai.codec: protocol keeps no second name for its functions."""
    for old in ("event_to_json", "event_for_seat", "entry_decision", "decision_of_event", "history_entry"):
        assert not hasattr(protocol, old), old
        assert old not in protocol.__all__
