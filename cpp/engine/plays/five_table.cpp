#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <daguai/plays/five_table.hpp>
#include <daguai/plays/pattern.hpp>

namespace daguai {
namespace detail {

std::uint16_t g_five_disp[1 << kFiveBucketBits];
std::atomic<const std::uint32_t*> g_five_tables[kFiveTableSlots];

namespace {

// Every multiset of five symbols (ranks 0..12, 13 = joker) as its symbol counts.
template <class F>
void for_each_multiset(F&& f) {
  int s[5];
  for (s[0] = 0; s[0] < 14; ++s[0])
    for (s[1] = s[0]; s[1] < 14; ++s[1])
      for (s[2] = s[1]; s[2] < 14; ++s[2])
        for (s[3] = s[2]; s[3] < 14; ++s[3])
          for (s[4] = s[3]; s[4] < 14; ++s[4]) f(s);
}

std::uint64_t counts_of(const int* s) {
  std::uint64_t c = 0;
  for (int k = 0; k < 5; ++k) c += kFaceCounts.w[s[k] == 13 ? kSJ : make_face(s[k], 0)];
  return c;
}

// The displacements of the perfect hash (five_table.hpp): buckets largest first (then in
// bucket order), each given the smallest displacement that moves its keys onto free slots.
void build_hash() {
  std::vector<std::vector<std::uint32_t>> buckets(1 << kFiveBucketBits);
  for_each_multiset([&](const int* s) {
    const std::uint64_t h = counts_of(s) * kFiveMul;
    buckets[h >> (64 - kFiveBucketBits)].push_back(std::uint32_t(h >> 32) & (kFiveSlots - 1));
  });
  std::vector<int> order(buckets.size());
  for (std::size_t b = 0; b < order.size(); ++b) order[b] = int(b);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return buckets[a].size() > buckets[b].size(); });
  std::vector<bool> used(kFiveSlots);
  for (int b : order) {
    const auto& keys = buckets[std::size_t(b)];
    int d = 0;
    for (; d < kFiveSlots; ++d) {
      bool ok = true;
      for (std::size_t i = 0; ok && i < keys.size(); ++i) {
        const std::uint32_t p = keys[i] ^ std::uint32_t(d);
        ok = !used[p];
        for (std::size_t k = 0; ok && k < i; ++k) ok = (keys[k] ^ std::uint32_t(d)) != p;
      }
      if (ok) break;
    }
    if (d == kFiveSlots) throw std::logic_error("five_table: kFiveMul places no perfect hash");
    for (std::uint32_t k : keys) used[k ^ std::uint32_t(d)] = true;
    g_five_disp[b] = std::uint16_t(d);
  }
}

// Fill one table from the reference classifier: every multiset of five symbols with at least
// one natural, mixed suits and one suit.
void build(std::uint32_t* t, int level, bool high, bool wrap, bool two_decks) {
  Rules rules;
  rules.wrap_straights = wrap;
  if (two_decks) rules.table = TableKind::k4p2d;  // R18: the copy limit 2
  for (int i = 0; i < 2 * kFiveSlots; ++i) t[i] = kNoPlay;
  for_each_multiset([&](const int* s) {
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
    const int slot = five_slot(counts_of(s));
    if (x.m == 0) {
      // R6: five jokers stand for themselves, a five of a kind of SJ power: never all BJ, as
      // a face has at most 3 copies (R2), so the lookup needs no SJ / BJ split.
      t[slot * 2] = t[slot * 2 + 1] = joker_only_key(5, 3, 2, rules);
      return;
    }
    x.d = __builtin_popcount(x.mask);
    for (int suited = 0; suited < 2; ++suited) {
      x.suit = suited ? 0 : -1;
      std::uint32_t key;
      Kind kind;
      if (classify_five(x, level, rules, high, &key, &kind)) t[slot * 2 + suited] = key;
    }
  });
}

std::mutex g_build;
bool g_hash_built = false;  // under g_build

}  // namespace

const std::uint32_t* five_table(int level, bool high, bool wrap, int copies) {
  const bool two = copies < kMaxCopies;
  const int slot = ((level * 2 + (high ? 1 : 0)) * 2 + (wrap ? 1 : 0)) * 2 + (two ? 1 : 0);
  const std::uint32_t* t = g_five_tables[slot].load(std::memory_order_acquire);
  if (t) return t;
  std::lock_guard<std::mutex> lock(g_build);
  t = g_five_tables[slot].load(std::memory_order_relaxed);
  if (t) return t;
  // The displacements are written before the first table is published (release below), so a
  // reader that got a table from g_five_tables sees them.
  if (!g_hash_built) {
    build_hash();
    g_hash_built = true;
  }
  // Owned for the program's lifetime (released at exit by the OS; tables are never freed
  // while another thread might read them).
  std::uint32_t* fresh = new std::uint32_t[2 * kFiveSlots];
  build(fresh, level, high, wrap, two);
  g_five_tables[slot].store(fresh, std::memory_order_release);
  return fresh;
}

}  // namespace detail
}  // namespace daguai
