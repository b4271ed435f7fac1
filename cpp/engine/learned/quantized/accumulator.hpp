// The per-thread accumulator of the integer pass (NNUE-style): the layer-0 sums of a few recent
// states, kept per thread and updated by the inputs that changed since the nearest one. Integer
// sums are exact in any order, so an update gives the same integers as a fresh sum.
// Inline: each copy's forward pass (forward.hpp) compiles it with its own kernels.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

#include <daguai/learned/quantized/kernels.hpp>

namespace daguai::detail {

constexpr int kCacheEntries = 8;  // states kept per thread (one per seat of a table, and more)

struct StateEntry {
  std::uint64_t serial = 0, stamp = 0;
  std::vector<std::int32_t> x;    // the quantized state, zero-padded to a multiple of 16
  std::vector<std::int32_t> acc;  // the decision's base: bias + its layer-0 sums, modulo 2^32
};

struct Scratch {
  std::array<StateEntry, kCacheEntries> cache;
  std::uint64_t clock = 0;
  std::vector<std::int32_t> xs, xa, sub, diff;
  Terms terms, next;
};

// This thread's scratch (one lookup of the thread-local per pass).
Scratch& thread_scratch();
// Whether the cache may be used (set_quantized_cache).
extern std::atomic<bool> quantized_cache_allowed;

inline int padded16(int n) { return (n + 15) / 16 * 16; }

__attribute__((always_inline)) inline int count_diffs(const std::int32_t* a, const std::int32_t* b,
                                                      int n) {
  int d = 0;
  for (int i = 0; i < n; ++i) d += a[i] != b[i];
  return d;
}

// The terms of state inputs x (rows from 0). A term at a hand input [shared.state,
// shared.state + len) is also a term at its action row, the hand after a decision that plays
// nothing: so the state's sums are the decision's base, and each candidate adds only the
// differences of its own hand after (the faces it plays).
__attribute__((always_inline)) inline void state_terms(const Model& m, const std::int32_t* x,
                                                       const Kernels& k, Terms& t) {
  t.clear();
  k.nonzero(x, m.state_inputs, 0, t);
  const int lo = m.shared.state, hi = lo + m.shared.len;
  const int to = m.state_inputs + m.shared.action - lo;
  for (int j = 0, n = t.size(); j < n; ++j) {  // rows in increasing order
    const int r = t.row[std::size_t(j)];
    if (r >= hi) break;
    if (r >= lo) t.add(r + to, t.value[std::size_t(j)]);
  }
}

// The state's base sums: from the cached state with the fewest differences, updated by
// them, or afresh (and then cached in the least recently used entry). Either way the same
// integers.
__attribute__((always_inline)) inline StateEntry& state_sums(const Model& m, Scratch& s,
                                                             const Kernels& k) {
  const std::int32_t* x = s.xs.data();
  const int padded = padded16(m.state_inputs);  // the padding is zero in every copy of x
  // The entry whose first 64 inputs (the hand comes first) differ least, then its whole count:
  // the choice only decides the speed, not the integers.
  StateEntry* best = nullptr;
  int best_diffs = 0;
  if (quantized_cache_allowed.load(std::memory_order_relaxed)) {
    const int head = std::min(padded, 64);
    for (StateEntry& e : s.cache) {
      if (e.serial != m.serial) continue;
      const int d = count_diffs(e.x.data(), x, head);
      if (!best || d < best_diffs) best = &e, best_diffs = d;
    }
    if (best) best_diffs = count_diffs(best->x.data(), x, padded);
  }
  if (best && best_diffs * 4 <= m.state_inputs) {
    std::int32_t* old = best->x.data();
    s.diff.resize(std::size_t(padded));
    std::int32_t* d = s.diff.data();
    for (int i = 0; i < padded; ++i) d[i] = x[i] - old[i], old[i] = x[i];  // the differences
    state_terms(m, d, k, s.terms);
    k.sum(best->acc.data(), best->acc.data(), m.w0, m.h0p, s.terms);
  } else {
    best = &s.cache[0];  // the least recently used entry
    for (StateEntry& e : s.cache)
      if (e.stamp < best->stamp) best = &e;
    best->serial = m.serial;
    best->x.assign(x, x + padded);
    best->acc.resize(std::size_t(m.h0p));
    state_terms(m, x, k, s.terms);
    k.sum(best->acc.data(), m.b0, m.w0, m.h0p, s.terms);
  }
  best->stamp = ++s.clock;
  return *best;
}

}  // namespace daguai::detail
