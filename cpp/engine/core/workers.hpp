// Worker threads for search and simulation: a documented cap and no abort;
// one parallel_for for the rollouts (run/rollout.cpp) and the search (search/search.cpp).
//
// run_workers(threads, work, stop) runs `work` on `threads` threads, the calling thread
// being one of them, and joins every thread it started. A thread that cannot be started
// (std::system_error: a process or memory limit) is not std::terminate: `stop` is called so
// that the running workers finish early, every started thread is joined, and GameError
// names the thread count. Threads whose stacks cannot fit a finite address-space limit are
// refused before any starts (threads_fit_address_limit). Callers check `threads` against
// kMaxThreads first.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#endif

#include <daguai/core/errors.hpp>

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

// Under a finite address-space limit (RLIMIT_AS), whether `extra` more threads fit: their
// stacks (glibc sizes them by RLIMIT_STACK, 8 MiB when that is unlimited) plus 1 MiB each
// for thread-local data, beside what the process maps already (/proc/self/statm) and 64 MiB
// of room. Checked before any thread starts because running out later is not always an
// error we can catch: when a thread's stack fits but the malloc of its dynamic thread-local
// block (this module's thread_local scratch) does not, glibc aborts the process ("cannot
// allocate memory for thread-local data"). Without a limit, or off Linux: true.
inline bool threads_fit_address_limit(int extra) {
#if defined(__linux__)
  rlimit as{};
  if (getrlimit(RLIMIT_AS, &as) != 0 || as.rlim_cur == RLIM_INFINITY) return true;
  rlimit st{};
  std::uint64_t stack = 8u << 20;
  if (getrlimit(RLIMIT_STACK, &st) == 0 && st.rlim_cur != RLIM_INFINITY && st.rlim_cur > 0)
    stack = std::uint64_t(st.rlim_cur);
  std::uint64_t mapped = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    unsigned long pages = 0;
    if (std::fscanf(f, "%lu", &pages) == 1)
      mapped = std::uint64_t(pages) * std::uint64_t(sysconf(_SC_PAGESIZE));
    std::fclose(f);
  }
  const std::uint64_t need = mapped + std::uint64_t(extra) * (stack + (1u << 20)) + (64u << 20);
  return need <= std::uint64_t(as.rlim_cur);
#else
  (void)extra;
  return true;
#endif
}

template <class Work, class Stop>
void run_workers(int threads, Work&& work, Stop&& stop) {
  if (threads <= 1) {
    work();
    return;
  }
  if (!threads_fit_address_limit(threads - 1))
    throw GameError("the stacks of " + std::to_string(threads) +
                    " threads do not fit the process's address-space limit (RLIMIT_AS): "
                    "ask for fewer threads");
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

// The indices handed out at a time: at most `chunk`, and small enough that each of `threads`
// threads gets about 4 hand-outs of n (at least 1 index each). A chunk of 16 over 16 slow
// games (a search policy's) would otherwise give them all to the first thread.
inline std::int64_t chunk_for(std::int64_t n, int threads, std::int64_t chunk) {
  return std::max<std::int64_t>(1, std::min<std::int64_t>(chunk, n / (4 * std::int64_t(threads))));
}

// Runs body(state, i) for i in [0, n) on min(threads, n) threads (run_workers), each thread
// with its own default-constructed State (scratch reused across its indices). Indices are
// handed out in increasing order, chunk_for(n, threads, chunk) at a time, from one shared
// counter; a result must therefore depend only on i, never on the thread that ran it. body
// returns false to stop handing out indices (every thread stops after its current one: a
// deadline). The first exception stops the others and is rethrown once every thread has joined.
template <class State, class Body>
void parallel_for(std::int64_t n, int threads, std::int64_t chunk, Body&& body) {
  if (n <= 0) return;
  threads = int(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, n)));
  chunk = chunk_for(n, threads, chunk);
  std::atomic<std::int64_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&]() {
    State state;  // default-initialized: its scratch is reused across indices
    try {
      for (;;) {
        const std::int64_t begin = next.fetch_add(chunk);
        if (begin >= n) return;
        const std::int64_t end = std::min(n, begin + chunk);
        for (std::int64_t i = begin; i < end; ++i)
          if (!body(state, i)) {
            next.store(n);
            return;
          }
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      next.store(n);
    }
  };
  run_workers(threads, work, [&]() { next.store(n); });
  if (error) std::rethrow_exception(error);
}

}  // namespace daguai
