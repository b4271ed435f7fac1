"""Action text (docs/protocol.md): one parser, the engine's ``parse_action``
(cpp/engine/game/action_text.hpp), reads back what ``str(action)`` prints (``action_text``,
cpp/engine/game/action_text.hpp) for every legal action: plays with and without jokers (R6, read
"as" faces under wild="declare"), passes (R8), tributes, refusals, returns, offers and takes
(R11). Every path that reads text goes through it: ``Game.step(text)``,
``protocol.parse_action``, and ``GameState.apply`` / ``to_action`` with a str."""

from __future__ import annotations

import random

import pytest
from daguai import Game, IllegalActionError, IllegalPlayError, Rules, _core, protocol

# Variants that reach every decision type: random starts give tribute phases (R11), the
# joker_tribute_choice gives offers and takes, anti_tribute refusals, declare the "as" forms.
RULES = [
    Rules(),
    Rules(wild="declare", anti_tribute=True, joker_tribute_choice=True),
    Rules(wild="high", wrap_straights=True, anti_tribute=True),
]


def _positions(rules: Rules, seed: int, decisions: int):
    """Games at random points: (game) after each decision of a random walk from a random start."""
    rng = random.Random(seed)
    g = Game(seed, rules, start="random")
    for _ in range(decisions):
        if g.match_over:
            return
        yield g
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])


def test_str_then_parse_is_the_same_action_for_every_legal_action():
    seen: set[str] = set()
    declared = 0
    for rules in RULES:
        for seed in (2, 3, 7, 8):  # seed 7's random start has a tributer holding 3 jokers
            for g in _positions(rules, seed, 120):
                for a in g.legal_actions():
                    text = str(a)
                    assert protocol.parse_action(g, text) == a, (text, repr(a))
                    assert _core.game.parse_action(g.state, text) == a, text
                    assert g.state.to_action(text) == a, text
                    seen.add(a.type)
                    declared += " as " in text and rules.wild == "declare"
    # the walk met every kind of decision, and declared readings of jokers
    assert seen == set(protocol.ACTION_TYPES), seen
    assert declared > 0


def test_step_with_text_applies_the_parsed_action():
    g, h = Game(5, start="random"), Game(5, start="random")
    rng = random.Random(5)
    for _ in range(150):
        acts = g.legal_actions()
        a = acts[rng.randrange(len(acts))]
        g.step(str(a))
        h.step(a)
        assert g == h


@pytest.mark.parametrize("text, error, match", [
    ("", IllegalActionError, "empty action text"),
    ("pass 3s", IllegalActionError, "'pass' takes no cards"),
    ("play", IllegalActionError, "no cards in"),
    ("3s as", IllegalActionError, "'as' names no faces"),
    ("tribute 3s", IllegalActionError, "a tribute in the play phase"),
    ("3s 4h", IllegalPlayError, "is not a play"),
])
def test_bad_text_names_the_problem_and_changes_nothing(text, error, match):
    g = Game(2)
    before = g.to_json()
    with pytest.raises(error, match=match):
        g.step(text)
    with pytest.raises(error, match=match):
        protocol.parse_action(g, text)
    assert g.to_json() == before


def test_the_reading_of_jokers_must_be_the_rules_reading():
    """R6: outside wild='declare' the rules fix the reading; a different 'as' is refused."""
    cards = "5s 5h 5d 5c BJ"
    p = _core.plays.classify(cards, "2", Rules()._core)
    assert p.kind.name == "FIVE_OF_A_KIND" and len(p.jokers_as) == 1
    assert protocol._read_play(cards, " ".join(p.jokers_as), "2", Rules()) == p
    with pytest.raises(IllegalPlayError, match="stand for .* under wild='auto', not '3h'"):
        protocol._read_play(cards, "3h", "2", Rules())
