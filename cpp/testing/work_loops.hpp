// Work loops for instruction counts (benchmarks/instructions.py). Each loop runs one engine
// operation `reps` times over fixed inputs made from `seed`, with no clock in the loop, so
// the instructions counted under callgrind at reps = K minus those at reps = 0 belong to the
// operation alone (the inputs, the call and Python's start cancel).
#pragma once

#include <cstdint>

#include <daguai/core/rules.hpp>
#include <daguai/learned/network.hpp>
#include <daguai/players/policy.hpp>

namespace daguai::testing {

// The operations (the `op` of repeat_op):
//   kLead      legal_plays of a random 27-card hand, leading (all legal leads, written)
//   kFollow5   legal_plays of a random 27-card hand against a random legal 5-card top
//   kCountLead count_plays of a random 27-card hand, leading (no play written)
//   kClassify5 classify of a random legal 5-card play's cards
//   kApply     GameState::apply of each decision of a random-play round (recording off, as in
//              rollouts), the round's last decision excluded; a copy of the round's start state
//              per repetition is included (one copy for about 230 applies)
//   kDecide    choose_action of `policy` at every play decision with two or more legal
//              actions of heuristic rounds from random start states (the seat's own scratch)
//   kApplyRecorded  kApply with recording on (the game log written, as in daguai bench's
//              "apply an action" row and in played matches)
enum class WorkOp : int {
  kLead = 0,
  kFollow5,
  kCountLead,
  kClassify5,
  kApply,
  kDecide,
  kApplyRecorded
};

struct WorkResult {
  std::int64_t ops = 0;        // operations done (items or decisions, times reps)
  std::uint64_t checksum = 0;  // of the results, so that no work can be optimized away
};

// `items` inputs (hands, plays or rounds) from `seed`, each operated on `reps` times, at
// level rank `level` (rounds: their own levels). `op` is a WorkOp's value; GameError for an
// op, items (1..100,000) or reps (0..1,000,000) out of range.
WorkResult repeat_op(int op, const Rules& rules, int level, std::uint64_t seed, int items, int reps,
                     PolicyId policy = PolicyId::kHeuristic);

// The learned network's pass (float: Network::evaluate_float, the reference; else the integer
// pass the player plays, in the kernel copy in use) on every play decision with two or more
// candidates of `rounds` heuristic rounds (network_decisions, bench.hpp): `reps` passes over
// all the decisions in game order, as in play (the integer pass's per-thread state cache sees
// the seats' states in turn). ops counts the passes; GameError for rounds (1..1,000) or reps
// (0..100,000) out of range.
WorkResult repeat_network(const Network& net, const Rules& rules, std::uint64_t seed, int rounds,
                          int reps, bool float_pass);

}  // namespace daguai::testing
