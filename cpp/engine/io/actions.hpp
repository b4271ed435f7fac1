// Reading decisions: the one parser of action text (docs/protocol.md "action text") and of
// cards given for the current decision. Every path that turns text into an Action uses it:
// Python's Game.step / GameState.apply (str), daguai.protocol.parse_action (the server, JSON
// games, records) and any C++ frontend. action_text (describe.hpp) is its inverse:
// parse_action(g, action_text(a)) == a for every legal action a of g.
//
// Forms (R6, R8, R11): "pass", "anti_tribute", "<verb> <cards>" with verb tribute / return /
// offer / take, and a play: "[play] <cards> [as <faces>]" where the faces after the
// lowercase keyword "as" are what the jokers stand for. Bare cards are read for the phase:
// the play phase reads a play, the tribute phase a tribute, the return phase a return (an
// offer when joker_tribute_choice follows a joker tribute), the take phase a take.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <daguai/game/state.hpp>
#include <daguai/plays/pattern.hpp>

namespace daguai {

// The cards classified as a play, or IllegalPlay "<what> '<cards>' is not a play (R5: ...)".
Play classify_play(const Cards& c, int level, const Rules& rules, const char* what = "play");

// R6 under wild="declare": the interpretation in which the jokers of `c` stand for the
// faces `jokers_as` (one natural face per joker). CardError under other wild variants, when
// a face would get a 4th copy, or when the faces make no interpretation of the cards.
Play classify_declared(const Cards& c, const Cards& jokers_as, int level, const Rules& rules);

// A play written as text with, optionally, the faces its jokers stand for (`declared`):
// under wild="declare" they choose the reading; otherwise the rules fix it and `declared`,
// when given, must be what they give (IllegalPlay otherwise).
Play read_play(std::string_view cards, const std::optional<std::string>& declared, int level,
               const Rules& rules);

// Cards given for the current decision, read for the phase (see above). GameError when the
// match is over; IllegalPlay when play-phase cards are no play.
Action card_action(const GameState& g, const Cards& c);

// An action for the current decision of `g` from its text form. Throws GameError /
// IllegalPlay / CardError naming the problem; `g` is not changed.
Action parse_action(const GameState& g, std::string_view text);

// The ActionType called `name` ("play", "pass", ..., "take"; action_name's inverse).
std::optional<ActionType> action_type_named(std::string_view name);

}  // namespace daguai
