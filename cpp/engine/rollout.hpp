// Monte Carlo rollouts (issue "Monte Carlo"): many rounds or matches in C++, a built-in
// policy per seat, results written into caller-owned arrays (numpy from the bindings).
//
// Game i uses only the streams of (seed, first_game + i): its deals, first dealer and the
// policies' choices (Rng::stream(seed, game, kPolicy, seat)). So results are identical for
// any batch size, any start offset split and any number of threads.
#pragma once

#include <array>
#include <cstdint>

#include "infostate.hpp"
#include "policy.hpp"
#include "rules.hpp"

namespace daguai {

struct SimConfig {
  Rules rules;
  std::uint64_t seed = 0;
  std::uint64_t first_game = 0;  // game indices first_game .. first_game + n - 1
  std::int64_t n = 0;
  bool matches = false;  // false: one round per game (the match's first round)
  bool auto_pass = false;
  std::array<PolicyKind, 6> policies{};
  int threads = 1;
  std::int64_t max_rounds_per_match = 10000;  // safety net for matches
  // Rollouts from a position (issue 9): every game starts from `start` (a copy), or, with
  // `view` set, from world `game` of that view (sampler.hpp: sample_world_hands(*view,
  // seed, game)); the policies' streams are those of (seed, game) as usual.
  const GameState* start = nullptr;
  const InfoState* view = nullptr;
};

// Output columns (row i = game first_game + i); any pointer may be null to skip a column.
struct SimOutput {
  std::uint64_t* game = nullptr;
  std::int8_t* dealer = nullptr;  // first round's dealer
  std::int8_t* level = nullptr;   // first round's level rank (round mode) / -
  std::int8_t* order = nullptr;   // n x seats (table.hpp): last round's finishing order
  std::int8_t* winner = nullptr;  // round mode: team or -1 (draw); match mode: match winner or -1
  std::int8_t* n_tributers = nullptr;  // round mode: tributers of the round
  std::int8_t* tributers = nullptr;    // n x max_tributers, -1 padded
  std::int8_t* levels = nullptr;       // n x 2: levels after (the round / the match)
  std::int32_t* scores = nullptr;      // n x seats: score change (round) / total (match)
  std::int32_t* plays = nullptr;       // plays made
  std::int32_t* passes = nullptr;      // passes made
  std::int32_t* rounds = nullptr;      // rounds played (1 in round mode)
  std::int32_t* draws = nullptr;       // match mode: drawn rounds
  std::int32_t* wins = nullptr;        // n x 2 match mode: rounds won per team
};

// Runs the simulation; threads > 1 run in parallel with a shared chunk counter.
void simulate(const SimConfig& cfg, const SimOutput& out);

}  // namespace daguai
