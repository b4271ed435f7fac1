#include <atomic>
#include <memory>
#include <mutex>

#include <daguai/plays/five_table.hpp>
#include <daguai/plays/pattern.hpp>

namespace daguai {
namespace detail {

namespace {

// Fill one table from the reference classifier: every multiset of five symbols (ranks
// 0..12, 13 = joker) with at least one natural, mixed suits and one suit.
void build(std::uint32_t* t, int level, bool high, bool wrap, bool two_decks) {
  Rules rules;
  rules.wrap_straights = wrap;
  if (two_decks) rules.table = TableKind::k4p2d;  // R18: the copy limit 2
  for (int i = 0; i < 2 * kFiveMultisets; ++i) t[i] = kNoPlay;
  int s[5];
  for (s[0] = 0; s[0] < 14; ++s[0])
    for (s[1] = s[0]; s[1] < 14; ++s[1])
      for (s[2] = s[1]; s[2] < 14; ++s[2])
        for (s[3] = s[2]; s[3] < 14; ++s[3])
          for (s[4] = s[3]; s[4] < 14; ++s[4]) {
            FiveInfo x;
            for (int k = 0; k < 5; ++k) {
              if (s[k] == 13) {
                ++x.j;
                continue;
              }
              ++x.n[s[k]];
              ++x.m;
              x.mask |= 1u << s[k];
            }
            if (x.m == 0) continue;  // joker-only fives stand for themselves (R6)
            x.d = __builtin_popcount(x.mask);
            const int index = five_index(x.n, x.mask, x.j);
            for (int suited = 0; suited < 2; ++suited) {
              x.suit = suited ? 0 : -1;
              std::uint32_t key;
              Kind kind;
              if (classify_five(x, level, rules, high, &key, &kind))
                t[suited * kFiveMultisets + index] = key;
            }
          }
}

constexpr int kSlots = kNumRanks * 2 * 2 * 2;
std::atomic<const std::uint32_t*> g_tables[kSlots];
std::mutex g_build;

}  // namespace

const std::uint32_t* five_table(int level, bool high, bool wrap, int copies) {
  const bool two = copies < kMaxCopies;
  const int slot = ((level * 2 + (high ? 1 : 0)) * 2 + (wrap ? 1 : 0)) * 2 + (two ? 1 : 0);
  const std::uint32_t* t = g_tables[slot].load(std::memory_order_acquire);
  if (t) return t;
  std::lock_guard<std::mutex> lock(g_build);
  t = g_tables[slot].load(std::memory_order_relaxed);
  if (t) return t;
  // Owned for the program's lifetime (released at exit by the OS; tables are never freed
  // while another thread might read them).
  std::uint32_t* fresh = new std::uint32_t[2 * kFiveMultisets];
  build(fresh, level, high, wrap, two);
  g_tables[slot].store(fresh, std::memory_order_release);
  return fresh;
}

}  // namespace detail
}  // namespace daguai
