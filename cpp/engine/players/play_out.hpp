// One loop that plays a game with policies (issue 16 item 4), shared by the rollouts
// (rollout.cpp), the search's rollouts (search.cpp rollout_round) and the seat driver of the
// Python slow path (seat_driver.cpp).
//
// A seat is a built-in policy (a PolicyId) or the caller's (kCallerSeat: play_out stops
// when it is to act). Each built-in seat draws from its own stream Rng::stream(seed, game,
// kPolicy, seat) (R17), so a game is the same whichever loop plays it and whichever mix of
// seats the caller drives.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include <daguai/core/rng.hpp>
#include <daguai/game/state.hpp>
#include <daguai/players/policy.hpp>

namespace daguai {

constexpr int kCallerSeat = -1;

// The seats of one game: each seat's policy, random stream and scratch (reused from game to
// game: start() resets what a game must not inherit).
struct Seats {
  std::array<int, kSeats> kind{};  // a PolicyId, or kCallerSeat
  std::array<Rng, kSeats> rng;
  std::array<PolicyScratch, kSeats> scratch;

  // Every seat plays `kind`.
  void assign(PolicyId k) { kind.fill(int(k)); }
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
