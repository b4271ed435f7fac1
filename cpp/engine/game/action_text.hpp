// The text of decisions (docs/protocol.md "Actions as text and JSON"): the one parser of action
// text and of cards given for the current decision, and its inverse, the text of an action. Every
// path that turns text into an Action uses it: Python's Game.step / GameState.apply (str),
// daguai.protocol.parse_action (the server, JSON games, records) and any C++ frontend;
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
#include <daguai/plays/play_text.hpp>

namespace daguai {

// Cards given for the current decision, read for the phase (see above). GameError when the
// match is over; IllegalPlay when play-phase cards are no play.
Action card_action(const GameState& g, const Cards& c);

// An action for the current decision of `g` from its text form. Throws GameError /
// IllegalPlay / CardError naming the problem; `g` is not changed.
Action parse_action(const GameState& g, std::string_view text);

// The ActionType called `name` ("play", "pass", ..., "take"; action_name's inverse).
std::optional<ActionType> action_type_named(std::string_view name);

// The text form of an action, read back by parse_action: "pass", "anti_tribute",
// "<verb> <cards>" for tribute / return / offer / take, and for a play its cards, then "as"
// and the faces its jokers stand for when there are any (R6).
std::string action_text(const Action& a);
// "Action(<type>[ '<cards>'][ as <faces>], seat <s>)".
std::string action_repr(const Action& a);

}  // namespace daguai
