// The heuristic planner's oracle (reference_planner.cpp), for the tests only.
#pragma once

#include <vector>

#include <daguai/core/rules.hpp>
#include <daguai/plays/pattern.hpp>

namespace daguai::testing {

// The plan as the first planner made it: heuristic_plan (players/planner.hpp) must return
// the same plays.
std::vector<Play> reference_heuristic_plan(const Cards& hand, int level, const Rules& rules);

}  // namespace daguai::testing
