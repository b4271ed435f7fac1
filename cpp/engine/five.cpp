#include "five.hpp"

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

// Sequence masks of m = 3..5 ranks, ascending: all of them ([wrap][m - 3]), and through each
// rank ([wrap][rank][m - 3]). At most 13 windows x C(5, 3) = 130 masks of one size, and
// 5 windows x C(4, 2) = 30 through one rank.
struct SequenceTable {
  std::uint16_t all[2][3][130]{};
  std::uint8_t n_all[2][3]{};
  std::uint16_t through[2][kNumRanks][3][30]{};
  std::uint8_t n_through[2][kNumRanks][3]{};
  constexpr SequenceTable() {
    for (int wrap = 0; wrap < 2; ++wrap)
      for (unsigned mask = 1; mask < 8192; ++mask) {
        const int m = __builtin_popcount(mask);
        if (m < 3 || m > 5 || !kWindows.sets[wrap][mask]) continue;
        all[wrap][m - 3][n_all[wrap][m - 3]++] = std::uint16_t(mask);
        for (int r = 0; r < kNumRanks; ++r)
          if ((mask >> r) & 1)
            through[wrap][r][m - 3][n_through[wrap][r][m - 3]++] = std::uint16_t(mask);
      }
  }
};
constexpr SequenceTable kSequences{};

}  // namespace

namespace detail {
// Constant-initialized from the compile-time table, so other translation units' static
// initializers may call straight_windows().
extern constexpr std::array<std::array<std::uint16_t, 8192>, 2> kWindowSets = kWindows.sets;
}  // namespace detail

MaskRange sequence_masks(bool wrap, int m) {
  const std::uint16_t* p = kSequences.all[wrap ? 1 : 0][m - 3];
  return MaskRange{p, p + kSequences.n_all[wrap ? 1 : 0][m - 3]};
}

MaskRange sequence_masks_through(bool wrap, int rank, int m) {
  const std::uint16_t* p = kSequences.through[wrap ? 1 : 0][rank][m - 3];
  return MaskRange{p, p + kSequences.n_through[wrap ? 1 : 0][rank][m - 3]};
}

}  // namespace daguai
