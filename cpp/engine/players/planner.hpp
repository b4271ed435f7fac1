// The heuristic's plan (配牌): its hand split into plays. Jokers and level cards are
// "controls", kept as their own singles / pairs / triples to regain the lead; the other cards
// are grouped by rank, then five-card combinations replace groups while that lowers the
// number of plays (手数): a combination is chosen by the number of plays it saves, ties to
// the lower ranks. The slow, obvious statement of the same plans is the reference planner of
// the testing target (cpp/testing/reference_planner.cpp, tests compare the two).
#pragma once

#include <vector>

#include <daguai/core/rules.hpp>
#include <daguai/plays/pattern.hpp>

namespace daguai {

// The heuristic's plan for a hand, classified at `level`, as the heuristic makes it before a
// decision. `minimal` claims the plan has the fewest plays possible; it is set when the
// number of plays meets plays_lower_bound (analysis.hpp), so min_plays must agree.
struct HeuristicPlan {
  std::vector<Play> plays;
  bool minimal = false;
};
HeuristicPlan heuristic_plan(const Cards& hand, int level, const Rules& rules);
// The same plays into *plan (reused storage: the heuristic replans at most decisions).
void plan_hand(const Cards& hand, int level, const Rules& rules, std::vector<Play>* plan);
// heuristic_exact's plan: the natural non-level cards split into the fewest plays
// (min_plays), then the controls kept apart as the planner keeps them.
void exact_plan(const Cards& hand, int level, const Rules& rules, std::vector<Play>* plan);
// Appends the controls of `hand` as the plans keep them: its level cards in units of up to
// three, then each small joker, then each big joker.
void add_control_units(const Cards& hand, int level, const Rules& rules, std::vector<Play>* plan);

}  // namespace daguai
