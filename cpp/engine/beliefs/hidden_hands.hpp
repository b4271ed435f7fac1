// The unknown hands of a position filled (docs/records.md "Positions"; Python's
// daguai.positions.fill_hidden_hands): a position that gives some hands only (a seat that
// knows its own hand and the public history) is the view of no seat in particular, and the
// engine's sampler (sampler.hpp) deals the unknown cards from it.
//
// That view (InfoState with seat -1): the public state after the history, replayed on
// placeholder hands (Position::open_hands); every given hand as known cards; for an unknown
// hand, the cards the history shows it holds (R11: the tribute a receiver kept and the offer
// cards it did not give back, the card a tributer got back, minus copies played since, as
// information_state knows them for a seat of the pair); the unseen cards are the rest. Its
// constraint model (constraints.hpp) holds the facts only hidden cards decide: the tribute
// caps, forced passes, the seat to act under auto_pass when to_act is given, and that a
// refuser held 3 or more jokers. So a filling is drawn from the sampler's target: every
// assignment of the unseen physical cards equally likely, restricted to those the position
// validator accepts (and each filling is validated once more before it is returned).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <daguai/core/cards.hpp>
#include <daguai/core/rules.hpp>
#include <daguai/game/position.hpp>

namespace daguai {

// The hands of `pos` with the seats `unknown` (their hands in pos are ignored) dealt from
// Rng::stream(seed, 0, kSample, 0) (R17). PositionError naming the first problem when a seat
// is not the table's, the known parts are inconsistent or no filling agrees with them.
std::array<Cards, kSeats> fill_hidden_hands(const Rules& rules, const Position& pos,
                                            const std::vector<int>& unknown, std::uint64_t seed);

}  // namespace daguai
