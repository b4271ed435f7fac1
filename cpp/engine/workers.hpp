// Worker threads for search and simulation (issue 17 item 6): a documented cap and no abort.
//
// run_workers(threads, work, stop) runs `work` on `threads` threads, the calling thread
// being one of them, and joins every thread it started. A thread that cannot be started
// (std::system_error: a process or memory limit) is not std::terminate: `stop` is called so
// that the running workers finish early, every started thread is joined, and GameError
// names the thread count. Callers check `threads` against kMaxThreads first.
#pragma once

#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "state.hpp"

namespace daguai {

// The most threads one call may start (search, analyze, simulate): far above the cores of
// any machine this runs on, and low enough that thread stacks fit in memory.
constexpr int kMaxThreads = 256;

// GameError unless 1 <= threads <= kMaxThreads (`what` names the caller).
inline void check_threads(int threads, const char* what) {
  if (threads < 1 || threads > kMaxThreads)
    throw GameError(std::string(what) + ": threads must be in [1, " + std::to_string(kMaxThreads) +
                    "], got " + std::to_string(threads));
}

template <class Work, class Stop>
void run_workers(int threads, Work&& work, Stop&& stop) {
  if (threads <= 1) {
    work();
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(std::size_t(threads - 1));
  std::string failure;
  for (int t = 1; t < threads; ++t) {
    try {
      pool.emplace_back(work);
    } catch (const std::system_error& e) {
      failure = "could not start thread " + std::to_string(t + 1) + " of " +
                std::to_string(threads) + " (" + e.what() + "): ask for fewer threads";
      stop();
      break;
    }
  }
  if (failure.empty()) work();
  for (auto& th : pool) th.join();
  if (!failure.empty()) throw GameError(failure);
}

}  // namespace daguai
