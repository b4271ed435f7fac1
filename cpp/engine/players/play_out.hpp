// One loop that plays a game with policies, shared by the rollouts (run/rollout.cpp), the
// search's rollouts (search/search.cpp rollout_round) and the seat driver of the Python slow
// path (run/seat_driver.cpp), so that every runner plays a game the same way.
//
// A seat is a built-in policy (a PolicyId) or the caller's (kCallerSeat: play_out stops
// when it is to act). The ids are played through Seats::decide, the catalog's decide
// (catalog/catalog.hpp) or a narrower one: this layer cannot name the policies above it. Each
// built-in seat draws from its own stream Rng::stream(seed, game, kPolicy, seat) (R17), so a game
// is the same whichever loop plays it and whichever mix of seats the caller drives.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include <daguai/core/rng.hpp>
#include <daguai/game/state.hpp>
#include <daguai/players/policy.hpp>

namespace daguai {

constexpr int kCallerSeat = -1;

// The built-in policies' streams of game (seed, game), one per seat (R17: Stream::kPolicy,
// index = seat), as every loop of a game draws them.
std::array<Rng, kSeats> policy_streams(std::uint64_t seed, std::uint64_t game);

// The seats of one game: each seat's policy, random stream and scratch (reused from game to
// game: start() resets what a game must not inherit).
struct Seats {
  std::array<int, kSeats> policy{};  // a PolicyId, or kCallerSeat
  DecideFn decide = nullptr;         // plays a PolicyId; play_out requires it
  std::array<Rng, kSeats> rng;
  std::array<PolicyScratch, kSeats> scratch;

  // Every seat plays `id`.
  void assign(PolicyId id) { policy.fill(int(id)); }
  // The streams of game (seed, game) (R17) and no plan left from another game.
  void start(std::uint64_t seed, std::uint64_t game);
};

// Decisions made by play_out (forced passes applied by auto_pass are not decisions).
struct DecisionCounts {
  std::int64_t plays = 0;
  std::int64_t passes = 0;
};

// Applies the seats' decisions to g until the match is over, g has `round_limit` finished
// rounds (g.results().size(); the count includes rounds finished before the call), or a
// caller's seat is to act. Returns that seat, or -1. Adds the decisions to *counts if given.
int play_out(GameState& g, Seats& seats, std::size_t round_limit, DecisionCounts* counts = nullptr);

}  // namespace daguai
