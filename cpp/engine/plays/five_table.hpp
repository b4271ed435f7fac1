// Table-driven five-card classification (R5, R6, R7): the kind and key of a five-card play
// with at least one natural card depend only on
//   - the multiset of natural ranks and the number of jokers (five symbols over 14: the 13
//     ranks and "joker"),
//   - whether every natural card has one suit (straight flush / flush possible),
//   - the level, and the variants `wild` (auto vs high/declare) and `wrap_straights`.
// The flush-suit copy limits (R2: 3 copies of a face, so a joker completing a flush takes
// the lowest power with a copy left) follow from the rank multiset and the table's copy
// limit (R18: 2 at 4p2d, a table of its own), so they need no index.
//
// Index (a minimal perfect hash): sort the five symbols s0 <= s1 <= ... <= s4 (jokers = 13,
// last); t_i = s_i + i is strictly increasing, and index = sum_i C(t_i, i + 1) is the
// combinatorial number of the multiset, 0 .. C(18, 5) - 1 = 8567. Entry [suited][index] is
// the play's key (pattern.hpp "Keys"; the kind is five_kind_of_key(key)) or kNoPlay.
//
// One table is 2 x 8568 x 4 bytes = 67 KiB; a table per (level, high, wrap) is built on
// first use (thread-safe), so a program touching one level holds 67 KiB, all 52 tables 3.5 MiB.
// The branchy classifier detail::classify_five stays as the reference that builds the table
// and that tests compare the table path against.
#pragma once

#include <cstdint>

#include <daguai/core/cards.hpp>
#include <daguai/core/rules.hpp>
#include <daguai/plays/five.hpp>

namespace daguai {

constexpr std::uint32_t kNoPlay = 0xFFFFFFFFu;
constexpr int kFiveMultisets = 8568;  // C(18, 5)

namespace detail {

// Term table: kFiveTerm[s][i][c] = sum_{k < c} C(s + i + k, i + k + 1), the contribution of
// c copies of symbol s placed at sorted positions i .. i + c - 1 (symbol 13 = joker).
struct FiveTerms {
  std::uint16_t t[14][6][6]{};
  constexpr FiveTerms() {
    std::uint32_t binom[19][6]{};
    for (int n = 0; n < 19; ++n) {
      binom[n][0] = 1;
      for (int k = 1; k < 6; ++k) binom[n][k] = n == 0 ? 0 : binom[n - 1][k - 1] + binom[n - 1][k];
    }
    for (int s = 0; s < 14; ++s)
      for (int i = 0; i < 6; ++i)
        for (int c = 0; i + c <= 5; ++c) {
          std::uint32_t v = 0;
          for (int k = 0; k < c; ++k) v += binom[s + i + k][i + k + 1];
          t[s][i][c] = std::uint16_t(v);
        }
  }
};
inline constexpr FiveTerms kFiveTerms{};

// The table for (level, high, wrap, copy limit 3 or 2 (R18 4p2d)): [suited * kFiveMultisets +
// index] -> key or kNoPlay.
const std::uint32_t* five_table(int level, bool high, bool wrap, int copies = kMaxCopies);

// Index of natural rank counts n (sum m, ranks in `mask`) plus 5 - m jokers.
inline int five_index(const std::uint8_t* n, unsigned mask, int jokers) {
  int h = 0, i = 0;
  for (unsigned x = mask; x; x &= x - 1) {
    const int r = __builtin_ctz(x);
    h += kFiveTerms.t[r][i][n[r]];
    i += n[r];
  }
  return h + kFiveTerms.t[13][i][jokers];
}

// Index and one-suit flag of a five-card Cards with 0..4 jokers.
inline int five_index(const Cards& c, bool* suited) {
  // Per-rank counts by SWAR: each rank byte's four 2-bit counts summed into the byte.
  auto byte_counts = [](std::uint64_t x) {
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    return (x & 0x0F0F0F0F0F0F0F0FULL) + ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL);
  };
  const std::uint64_t hi_nat = c.hi & Cards::kHiNatural;
  const std::uint64_t cl = byte_counts(c.lo), ch = byte_counts(hi_nat);
  *suited = __builtin_popcount(natural_suit_bits(c)) == 1;  // five.hpp
  // Nonzero count bytes (a count is at most 5 here: 3 bits), one iteration per rank held.
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  int h = 0, i = 0;
  auto add = [&](std::uint64_t counts, int base) {
    for (std::uint64_t nz = (counts | (counts >> 1) | (counts >> 2)) & kOnes; nz; nz &= nz - 1) {
      const int b = __builtin_ctzll(nz) >> 3;
      const int k = int((counts >> (8 * b)) & 0xFF);
      h += kFiveTerms.t[base + b][i][k];
      i += k;
    }
  };
  add(cl, 0);
  add(ch, 8);
  return h + kFiveTerms.t[13][i][5 - i];
}

}  // namespace detail
}  // namespace daguai
