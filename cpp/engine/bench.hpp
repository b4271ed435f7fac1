// Timing helpers for benchmarks/ (timed inside C++, so no Python overhead is counted).
#pragma once

#include <cstdint>
#include <vector>

#include "moves.hpp"

namespace daguai {

// For each hand i: generate its legal plays (leading, or following tops[i] when tops is
// non-null and tops_set[i]) `reps` times; ns_per_call[i] = the fastest repetition in
// nanoseconds, counts[i] = number of plays.
void time_legal_plays(const Cards* hands, const Play* tops, const std::uint8_t* tops_set, std::size_t n,
                      int level, const Rules& rules, int reps, double* ns_per_call, std::int64_t* counts);

}  // namespace daguai
