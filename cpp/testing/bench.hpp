// Timing helpers for benchmarks/ and `daguai bench` (timed inside C++, so no Python overhead
// is counted), bound as daguai._core._testing.
#pragma once

#include <cstdint>
#include <vector>

#include <daguai/game/state.hpp>
#include <daguai/learned/network.hpp>
#include <daguai/players/policy.hpp>
#include <daguai/plays/moves.hpp>

namespace daguai::testing {

// For each hand i: generate its legal plays (leading, or following tops[i] when tops is
// non-null and tops_set[i]) `reps` times; ns_per_call[i] = the fastest repetition in
// nanoseconds, counts[i] = number of plays.
void time_legal_plays(const Cards* hands, const Play* tops, const std::uint8_t* tops_set,
                      std::size_t n, int level, const Rules& rules, int reps, double* ns_per_call,
                      std::int64_t* counts);

// The same for one of: op 0 legal_plays, 1 count_plays, 2 sample_play (count + one play,
// one Rng per call from seed i), 3 has_legal_follow (tops required). counts[i] = the number
// of plays (op 0-2) or 1/0 (op 3).
void time_play_op(int op, const Cards* hands, const Play* tops, const std::uint8_t* tops_set,
                  std::size_t n, int level, const Rules& rules, int reps, double* ns_per_call,
                  std::int64_t* counts);

struct GameTiming {
  std::int64_t decisions = 0, rounds = 0;
  double apply_ns = 0;     // mean time of GameState::apply (checked), per decision
  double generate_ns = 0;  // mean time of legal_actions, per decision
  double clone_ns = 0;     // mean time of a GameState copy (taken at every 16th decision)
};

// Random play (uniform over legal actions, project RNG) of whole matches from `seed`,
// timing legal-action generation and copies per call; then the same decisions applied again
// to the same games with nothing else in the loop, timing apply over each run of decisions
// between round ends (the clock's own cost, two reads a run, spread over the run).
GameTiming time_game(const Rules& rules, std::uint64_t seed, std::int64_t max_decisions,
                     bool record);

// Mean ns per sampled world (the hands of worlds 0..n-1 of the view of the seat to act).
double time_sampling(const GameState& g, int n, std::uint64_t seed);
// World creation from a view, the search's unit of work: mean ns per world k of the view of the
// seat to act (sample_world_hands then make_world, worlds 0..n-1), and the mean ns of
// building that view (information_state) over `n` repetitions.
struct WorldTiming {
  double world_ns = 0;
  double view_ns = 0;
};
WorldTiming time_worlds(const GameState& g, int n, std::uint64_t seed);
// Mean ns per rollout (search/search.hpp rollout_round) to the end of the round from a copy of g.
double time_rollouts(const GameState& g, int n, PolicyId policy);

// The time of every decision of `policy` (seats 0, 2, 4; `opponent` on 1, 3, 5) over `rounds`
// rounds from random start states of (seed, game 0..rounds-1), in ns, decisions with a
// single legal action excluded (they cost no policy work). Timed with the steady clock (a
// read costs ~20 ns; the thread's CPU clock is a system call of ~370 ns), so take it on a
// quiet machine.
std::vector<double> time_decisions(const Rules& rules, PolicyId policy, PolicyId opponent,
                                   std::uint64_t seed, int rounds);

// The learned player's decisions (time_decisions' rounds: `learned` on seats 0, 2, 4 against
// `heuristic`) in their parts, for each play-phase decision with two or more legal actions:
// its candidates (one per legal abstract id), then ns spent in the heuristic's choice, in
// listing the candidates with their features (the legal actions, abstract_mask, each
// candidate's encoding and plan size), in the state's features and in the network's pass: the
// steps of learned.cpp prepare_decision, timed one by one with the steady clock, and the
// decision they make is the one applied (the player's). GameError for rounds out of
// [1, 100000], or without a shipped model for the rules' table.
struct DecisionParts {
  std::vector<int> candidates;
  std::vector<double> heuristic_ns, candidates_ns, state_ns, network_ns;
};
DecisionParts time_decision_parts(const Rules& rules, std::uint64_t seed, int rounds);

// The features of every play decision with two or more candidates of `rounds` heuristic
// rounds from random start states of (seed, game 0..rounds-1), in game order, and the index
// of the heuristic's candidate of each.
void network_decisions(const Rules& rules, std::uint64_t seed, int rounds,
                       std::vector<std::vector<float>>* states,
                       std::vector<std::vector<float>>* actions, std::vector<int>* heuristic);

// The learned network's float pass against its integer pass (quantized.hpp) on the same
// decisions: every play decision with two or more candidates of `rounds` heuristic rounds from
// random start states of (seed, game 0..rounds-1), evaluated in game order. Times are the
// fastest of `reps` passes over all decisions, in ns per decision; `same_pick` is the share of
// decisions where learned_pick chooses the same candidate, `max_dq` the largest |q difference|.
struct NetworkTiming {
  std::int64_t decisions = 0, candidates = 0;
  double float_ns = 0, quantized_ns = 0;                // inputs in cache, as in play
  double float_stream_ns = 0, quantized_stream_ns = 0;  // inputs read from memory
  double same_pick = 0, max_dq = 0;
};
NetworkTiming time_network(const Network& net, const Rules& rules, std::uint64_t seed, int rounds,
                           int reps);

}  // namespace daguai::testing
