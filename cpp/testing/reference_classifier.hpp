// The five-card classifier's oracle (reference_classifier.cpp), for the tests only.
#pragma once

#include <daguai/core/rules.hpp>
#include <daguai/plays/pattern.hpp>

namespace daguai::testing {

// classify (plays/pattern.hpp) through the branchy reference classifier
// (detail::classify_five) for five-card sets: what the tables are built from and tested
// against. Other sizes, and joker-only sets, go through classify itself.
bool classify_reference(const Cards& c, int level, const Rules& rules, Play* out);

}  // namespace daguai::testing
