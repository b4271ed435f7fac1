// Determinization: complete worlds consistent with what one seat knows.
//
// The hidden cards (InfoState::unseen) are dealt as physical cards: a Fisher-Yates shuffle
// of the unseen copies, hidden_count(s) to each other seat s in seat order, on top of
// known[s]. So every assignment of the hidden physical cards is equally likely, and a
// multiset assignment has the probability of the deals that produce it - the posterior of
// a random deal given the view, ignoring what the other players' choices might reveal.
// Constraints are then honoured exactly by rejection: a seat that showed its jokers in a
// refusal gets no hidden joker; each automatic pass must have been forced (no play of the
// seat's hand then beat the top). After kMaxAttempts rejections sampling fails with a
// GameError naming the view (constraints too tight to sample by rejection).
//
// World k of sample_worlds(v, n, seed) uses Rng::stream(seed, 0, kSample, k) only, so
// results depend on (view, seed, k) and never on n's split or the number of threads.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <daguai/core/rng.hpp>
#include <daguai/game/infostate.hpp>
#include <daguai/game/state.hpp>

namespace daguai {

constexpr int kMaxAttempts = 100000;

// Whether full hands agree with every constraint of the view (known cards, counts, the
// viewer's own hand, refusals, forced passes).
bool consistent(const InfoState& v, const std::array<Cards, kSeats>& hands);

// One consistent assignment of the hidden cards into `hands`; returns the attempts used.
int sample_hands(const InfoState& v, Rng& rng, std::array<Cards, kSeats>* hands);

// The world of the view with these hands: GameState's world constructor on the view's public
// state, the hands and the viewer's own exchange (no log; later deals from (seed, game)).
GameState make_world(const InfoState& v, const std::array<Cards, kSeats>& hands, std::uint64_t seed,
                     std::uint64_t game);

// n worlds (n >= 1, GameError otherwise), world k from stream (seed, 0, kSample, k).
std::vector<GameState> sample_worlds(const InfoState& v, int n, std::uint64_t seed);
// The hands of world k alone (what sample_worlds' world k holds).
std::array<Cards, kSeats> sample_world_hands(const InfoState& v, std::uint64_t seed,
                                             std::uint64_t k);

}  // namespace daguai
