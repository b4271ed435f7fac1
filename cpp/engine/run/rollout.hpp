// Monte Carlo rollouts: many rounds or matches in C++, a built-in
// policy per seat, results written into caller-owned arrays (numpy from the bindings).
//
// Game i uses only the streams of (seed, first_game + i): its deals, first dealer and the
// policies' choices (Rng::stream(seed, game, kPolicy, seat)). So results are identical for
// any batch size, any start offset split and any number of threads.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <daguai/core/rules.hpp>
#include <daguai/game/infostate.hpp>
#include <daguai/players/policy.hpp>
#include <daguai/run/columns.hpp>

namespace daguai {

struct SimConfig {
  Rules rules;
  std::uint64_t seed = 0;
  std::uint64_t first_game = 0;  // game indices first_game .. first_game + n - 1
  std::int64_t n = 0;
  bool matches = false;  // false: one round per game (the match's first round)
  bool auto_pass = false;
  // Seeded games begin at the start state of (seed, game) (Game(start="random"): random levels,
  // a previous round's order, the tribute exchange in 60% of them) instead of a fresh deal.
  bool random_start = false;
  std::array<PolicyId, kSeats> policies{};
  int threads = 1;
  std::int64_t max_rounds_per_match = 10000;  // safety net for matches
  // Rollouts from a position: every game starts from `start` (a copy), or, with
  // view_seat >= 0, from world `game` of that seat's view (sampler.hpp:
  // sample_world_hands(view, seed, game)); the policies' streams are those of (seed, game).
  const GameState* start = nullptr;
  int view_seat = -1;
};

// One policy per seat of the rules' table (R18), by name; GameError "simulate needs 6
// policies (one per seat), got 5" or an unknown name's (parse_policy).
std::array<PolicyId, kSeats> seat_policies(const std::vector<std::string>& names,
                                           const Rules& rules);

// Output columns (row i = game first_game + i), one pointer per column of result_columns()
// (columns.hpp: names, dtypes, widths); a null pointer skips a column.
using SimOutput = ResultArrays;

// GameError naming the first bad setting: n < 0, threads < 1, a start whose match is over, a
// view seat the start's table does not have.
void check_sim_config(const SimConfig& cfg);

// Runs the simulation; GameError as check_sim_config, or for a view that cannot be sampled
// (before any game is played). threads > 1 run in parallel (workers.hpp parallel_for, chunks of 16
// games).
void simulate(const SimConfig& cfg, const SimOutput& out);

}  // namespace daguai
