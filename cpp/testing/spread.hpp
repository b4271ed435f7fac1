// A probe of parallel_for's hand-out (core/workers.hpp) for the tests: on how many threads a
// few slow indices run.
#pragma once

#include <cstdint>

namespace daguai::testing {

// Runs parallel_for(n, threads, chunk) with a body that waits (at most wait_seconds) until
// min(threads, n) threads have each run an index, as a slow game would keep its thread, and
// returns how many threads ran an index. GameError for threads outside [1, kMaxThreads], n
// outside [1, 4096], chunk < 1 or wait_seconds outside [0, 10].
int parallel_spread(std::int64_t n, int threads, std::int64_t chunk, double wait_seconds);

}  // namespace daguai::testing
