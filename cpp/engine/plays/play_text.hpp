// Plays to and from text (docs/protocol.md): classifying cards as a play with the error that
// names them, the R6 "as" readings, the words of a play (describe, repr) and the check of a
// Play that comes from outside the engine (unpickled, numpy rows). Only plays: the text of
// actions is game/action_text.hpp.
//
// These are the engine's own words: the bindings print them unchanged (Python's
// Play.describe / repr(Play)), so every frontend, C++ or Python, shares one form.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <daguai/core/cards.hpp>
#include <daguai/core/rules.hpp>
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

// Kind and the ranks of the interpreted play in reading order (R5, R6), e.g.
// "straight 23456", "full house 55599", "flush KJ742", "pair of jokers (BJ power)".
std::string describe(const Play& p);
// The play as natural cards: its jokers replaced by the faces they stand for (R6); a single
// and a joker-only play stand for themselves.
Cards interpreted_cards(const Play& p);
// "Play('<cards>', <describe>[, jokers as <faces>], level <L>)".
std::string play_repr(const Play& p);
// The faces the jokers of p stand for, each after a space (" 5s 5h"), or "" when none.
std::string jokers_as_text(const Play& p);

// A Play from outside: its cards, size, jokers and level must agree, and (kind, key) must
// be an interpretation of the cards at that level under some variant of R5-R7
// (wrap_straights on/off, joker_pair tie/pure_wins). Throws CardError naming the problem.
void validate_play(const Play& p);

}  // namespace daguai
