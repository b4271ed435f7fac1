#include <daguai/plays/five.hpp>

namespace daguai {
namespace {

// For every 13-bit rank mask, the set of straight keys whose five ranks contain it
// (2 x 8192 x 2 bytes = 32 KiB). Built at compile time, so other translation units' static
// initializers may use it.
struct WindowTable {
  std::array<std::array<std::uint16_t, 8192>, 2> sets{};
  constexpr WindowTable() {
    for (int wrap = 0; wrap < 2; ++wrap)
      for (unsigned mask = 0; mask < 8192; ++mask) {
        unsigned s = 0;
        for (int t = first_straight(wrap != 0); t < kNumRanks; ++t)
          if ((mask & ~straight_ranks(t)) == 0) s |= 1u << t;
        sets[wrap][mask] = std::uint16_t(s);
      }
  }
};
constexpr WindowTable kWindows{};

// The sequence masks (five.hpp), ascending.
constexpr detail::SequenceTable make_sequences() {
  detail::SequenceTable t;
  for (int wrap = 0; wrap < 2; ++wrap)
    for (unsigned mask = 1; mask < 8192; ++mask) {
      const int m = __builtin_popcount(mask);
      if (m < 3 || m > 5 || !kWindows.sets[wrap][mask]) continue;
      t.all[wrap][m - 3][t.n_all[wrap][m - 3]++] = std::uint16_t(mask);
      for (int r = 0; r < kNumRanks; ++r)
        if ((mask >> r) & 1)
          t.through[wrap][r][m - 3][t.n_through[wrap][r][m - 3]++] = std::uint16_t(mask);
    }
  return t;
}

}  // namespace

namespace detail {
// Constant-initialized from the compile-time table, so other translation units' static
// initializers may call straight_windows().
extern constexpr std::array<std::array<std::uint16_t, 8192>, 2> kWindowSets = kWindows.sets;
extern constexpr SequenceTable kSequences = make_sequences();
}  // namespace detail

}  // namespace daguai
