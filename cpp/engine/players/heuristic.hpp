// heuristic: plays from a decomposition of the hand into few plays (配牌 / 手数, wildcards
// included, planner.hpp), keeps control cards (jokers, level cards) to regain the lead, does
// not beat its partner unless that wins the race out, and feeds a partner who is close to
// going out (seeds 000 / 001 strategy sections). It draws nothing from its stream, so the
// learned player and the search may ask for its choice with any stream.
//
// heuristic_exact: the same with a fewest-plays plan (min_plays, analysis.hpp) in place of
// its planner: a second opponent for the search, which is not the search's rollout policy
// (docs/search.md).
#pragma once

#include <daguai/players/policy.hpp>

namespace daguai {

Action heuristic_action(const PolicyView& view, Rng& rng, PolicyScratch& scratch);
Action heuristic_exact_action(const PolicyView& view, Rng& rng, PolicyScratch& scratch);

}  // namespace daguai
