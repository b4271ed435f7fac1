// Text of plays and actions for people and for the text protocol (docs/protocol.md), and
// the check of a Play that comes from outside the engine (unpickled, numpy rows).
//
// These are the engine's own words: the bindings print them unchanged (Python's
// Play.describe / repr(Play), str(Action) / repr(Action)), and actions.hpp reads
// action_text back (parse_action), so every frontend, C++ or Python, shares one form.
#pragma once

#include <string>

#include <daguai/game/state.hpp>
#include <daguai/plays/pattern.hpp>

namespace daguai {

// Kind and the ranks of the interpreted play in reading order (R5, R6), e.g.
// "straight 23456", "full house 55599", "flush KJ742", "pair of jokers (BJ power)".
std::string describe(const Play& p);
// The play as natural cards: its jokers replaced by the faces they stand for (R6); a single
// and a joker-only play stand for themselves.
Cards interpreted_cards(const Play& p);
// "Play('<cards>', <describe>[, jokers as <faces>], level <L>)".
std::string play_repr(const Play& p);

// The text form of an action, read back by parse_action (actions.hpp): "pass",
// "anti_tribute", "<verb> <cards>" for tribute / return / offer / take, and for a play its
// cards, then "as" and the faces its jokers stand for when there are any (R6).
std::string action_text(const Action& a);
// "Action(<type>[ '<cards>'][ as <faces>], seat <s>)".
std::string action_repr(const Action& a);

// A Play from outside: its cards, size, jokers and level must agree, and (kind, key) must
// be an interpretation of the cards at that level under some variant of R5-R7
// (wrap_straights on/off, joker_pair tie/pure_wins). Throws CardError naming the problem.
void validate_play(const Play& p);

}  // namespace daguai
