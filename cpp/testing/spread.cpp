#include "spread.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include <daguai/core/errors.hpp>
#include <daguai/core/workers.hpp>

namespace daguai::testing {

int parallel_spread(std::int64_t n, int threads, std::int64_t chunk, double wait_seconds) {
  check_threads(threads, "parallel_spread");
  if (n < 1 || n > 4096 || chunk < 1)
    throw GameError("parallel_spread: n must be in [1, 4096] and chunk >= 1");
  if (!(wait_seconds >= 0 && wait_seconds <= 10))
    throw GameError("parallel_spread: wait_seconds must be in [0, 10]");
  const int want = int(std::min<std::int64_t>(threads, n));
  std::mutex m;
  std::set<std::thread::id> seen;
  std::atomic<int> distinct{0};
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_seconds);
  struct Nothing {};
  parallel_for<Nothing>(n, threads, chunk, [&](Nothing&, std::int64_t) {
    {
      std::lock_guard<std::mutex> lock(m);
      if (seen.insert(std::this_thread::get_id()).second) distinct.fetch_add(1);
    }
    while (distinct.load() < want && std::chrono::steady_clock::now() < until)
      std::this_thread::yield();
    return true;
  });
  return int(seen.size());
}

}  // namespace daguai::testing
