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
// The number of plays of heuristic_plan(hand, level, rules), without writing them (the learned
// player's features read only the count, for every candidate of a decision).
int heuristic_plan_size(const Cards& hand, int level, const Rules& rules);
// heuristic_plan_size remembers the counts it made on this thread (the candidates of a decision,
// and a seat's next decisions, share most of them); this forgets them, so that a measurement
// repeating one decision counts it as if first seen (testing/work_loops.cpp).
void forget_plan_sizes();
// The same plays into *plan (reused storage: the heuristic replans at most decisions).
void plan_hand(const Cards& hand, int level, const Rules& rules, std::vector<Play>* plan);
// What a plan was made from, so that the next plan of the same seat can reuse it (the
// heuristic replans after each of its plays). Plain data: reset it with `= {}`.
struct PlanMemo {
  Cards hand;                   // the hand the plan was made for
  Cards work;                   // its natural non-level cards, all the natural part depends on
  std::uint32_t rules_key = 0;  // the level and the rule fields a plan depends on
  std::uint16_t size = 0;       // plays in the plan
  std::uint8_t units = 0;       // plays of its natural part (the control units follow them)
  std::uint8_t combos = 0;      // plan[0 .. combos) are the planner's first combinations, in
                                // the order it took them
  bool exact = false;           // exact_plan (else plan_hand)
  bool valid = false;
};
// The plan of `hand` into *plan: plan_hand's (or, with `exact`, exact_plan's) plays exactly,
// reusing *plan when *memo describes it (made for memo->hand, untouched since):
//   - the same natural non-level cards: the natural part is kept, the control units redone;
//   - plan_hand, the natural cards less the first combination it took: the planner is greedy,
//     so from the old cards it took that combination and went on as it does from the rest;
//     the rest of the natural part is the new natural part;
//   - plan_hand, the natural cards less every card of some ranks, at most one combination of
//     the plan holding any and that one holding only theirs: the plan less that combination
//     and those ranks' units of the rest (planner.cpp whole_ranks_left says why the greedy's
//     choices stand);
//   - in each of these, the control units are kept when the level cards and jokers are.
// Otherwise it plans from scratch. *memo then describes the new plan.
void update_plan(const Cards& hand, int level, const Rules& rules, bool exact,
                 std::vector<Play>* plan, PlanMemo* memo);
// heuristic_exact's plan: the natural non-level cards split into the fewest plays
// (min_plays), then the controls kept apart as the planner keeps them.
void exact_plan(const Cards& hand, int level, const Rules& rules, std::vector<Play>* plan);
// Appends the controls of `hand` as the plans keep them: its level cards in units of up to
// three, then each small joker, then each big joker.
void add_control_units(const Cards& hand, int level, const Rules& rules, std::vector<Play>* plan);

}  // namespace daguai
