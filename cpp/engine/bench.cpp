#include "bench.hpp"

#include <algorithm>
#include <chrono>

namespace daguai {

void time_legal_plays(const Cards* hands, const Play* tops, const std::uint8_t* tops_set, std::size_t n,
                      int level, const Rules& rules, int reps, double* ns_per_call, std::int64_t* counts) {
  PlayList buf;
  buf.reserve(1 << 14);
  for (std::size_t i = 0; i < n; ++i) {
    const Play* top = (tops && tops_set[i]) ? &tops[i] : nullptr;
    double best = 1e300;
    for (int r = 0; r < reps; ++r) {
      buf.clear();
      const auto t0 = std::chrono::steady_clock::now();
      legal_plays(hands[i], level, rules, top, &buf);
      const auto t1 = std::chrono::steady_clock::now();
      best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count());
    }
    ns_per_call[i] = best;
    counts[i] = std::int64_t(buf.size());
  }
}

}  // namespace daguai
