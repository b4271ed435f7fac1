// Five-card families and straight windows (R5, R6): the one vocabulary of five-card plays.
// Classification (pattern.cpp and the tables of five_table.*), generation (moves.cpp), the
// min_plays search (analysis.cpp) and the heuristic's planner (players/planner.cpp) all use it.
//
// R5: a straight is five consecutive natural ranks (the level rank at its natural place),
//     named by its key t = its top rank index: t = 3 is A2345, t = 12 TJQKA. With the variant
//     `wrap_straights` the sequences may run through A -> 2: t = 0, 1, 2 are JQKA2, QKA23 and
//     KA234, all below A2345 (docs/rules.md).
// R6: jokers fill the missing ranks of a window, so a set of distinct natural ranks is
//     completed to a straight iff some window contains all of them; the jokers it needs are
//     the window's ranks that are missing.
//
// The natural part N (m cards, d distinct ranks) of a five-card set with 5 - m jokers is in
// exactly one family (the family decides which kinds the set can be; moves.hpp generates by
// family):
//   group     d <= 1                                     five of a kind
//   two-rank  d == 2                                     four-plus-one, full house, and with
//                                                        two suited singles a straight flush
//   sequence  d == m >= 3, the ranks inside a window     straight, straight flush
//   flush     one suit, d >= 3, not a sequence           flush
// Every other natural part makes no five-card play.
#pragma once

#include <array>
#include <cstdint>

#include <daguai/core/cards.hpp>

namespace daguai {

// ---------------------------------------------------------------------------------------
// Straight windows.
// ---------------------------------------------------------------------------------------
// The lowest straight key: A2345 (3), or JQKA2 (0) with wrap_straights. Keys run to 12.
constexpr int first_straight(bool wrap) { return wrap ? 0 : 3; }

// The 13-bit rank mask of the straight with key t: its top rank t and the four below,
// cyclically (t = 3 is A2345; t = 0..2 are the wrapped JQKA2, QKA23, KA234).
namespace detail {
struct StraightRanks {
  std::uint16_t mask[kNumRanks]{};
  constexpr StraightRanks() {
    for (int t = 0; t < kNumRanks; ++t)
      for (int i = 0; i < 5; ++i) mask[t] |= std::uint16_t(1u << ((t - i + kNumRanks) % kNumRanks));
  }
};
inline constexpr StraightRanks kStraightRanks{};
}  // namespace detail
constexpr unsigned straight_ranks(int t) { return detail::kStraightRanks.mask[t]; }

// The ranks of window t missing from the rank mask `present`, and how many jokers fill them.
constexpr unsigned window_missing(int t, unsigned present) { return straight_ranks(t) & ~present; }
constexpr int window_gaps(int t, unsigned present) {
  return __builtin_popcount(window_missing(t, present));
}

// Bit t of straight_windows(mask, wrap) is set when the straight with key t contains every
// rank of `mask` (a 13-bit rank mask): a lookup in a compile-time table (five.cpp, 32 KiB).
namespace detail {
extern const std::array<std::array<std::uint16_t, 8192>, 2> kWindowSets;
}
inline unsigned straight_windows(unsigned mask, bool wrap) {
  return detail::kWindowSets[wrap ? 1 : 0][mask & 8191];
}
// Distinct ranks that some straight contains (the sequence family, given d == m).
inline bool is_sequence(unsigned mask, bool wrap) { return straight_windows(mask, wrap) != 0; }
// R6: the straight key of a set of windows `ws` (nonzero): auto takes the lowest, high the
// highest.
constexpr int straight_key(unsigned ws, bool high) {
  return high ? 31 - __builtin_clz(ws) : __builtin_ctz(ws);
}

// Rank masks of m = 3, 4, 5 distinct ranks that lie inside some straight (the natural parts
// of the sequence family, one face per rank, 5 - m jokers), in ascending mask order: all of
// them, or those through one rank. Compile-time tables (five.cpp).
struct MaskRange {
  const std::uint16_t* first;
  const std::uint16_t* last;
  const std::uint16_t* begin() const { return first; }
  const std::uint16_t* end() const { return last; }
};
namespace detail {
// [wrap][m - 3]: all masks; [wrap][rank][m - 3]: those through the rank. At most 13 windows
// x C(5, 3) = 130 masks of one size, and 5 windows x C(4, 2) = 30 through one rank.
struct SequenceTable {
  std::uint16_t all[2][3][130]{};
  std::uint8_t n_all[2][3]{};
  std::uint16_t through[2][kNumRanks][3][30]{};
  std::uint8_t n_through[2][kNumRanks][3]{};
};
extern const SequenceTable kSequences;
}  // namespace detail
inline MaskRange sequence_masks(bool wrap, int m) {
  const std::uint16_t* p = detail::kSequences.all[wrap][m - 3];
  return MaskRange{p, p + detail::kSequences.n_all[wrap][m - 3]};
}
inline MaskRange sequence_masks_through(bool wrap, int rank, int m) {
  const std::uint16_t* p = detail::kSequences.through[wrap][rank][m - 3];
  return MaskRange{p, p + detail::kSequences.n_through[wrap][rank][m - 3]};
}

// ---------------------------------------------------------------------------------------
// Flush suits: bit 2s is set when c holds a natural card of suit s (a rank byte's layout).
// The naturals are all of one suit (flush, straight flush possible) iff one bit is set.
// ---------------------------------------------------------------------------------------
constexpr unsigned natural_suit_bits(const Cards& c) {
  const std::uint64_t hi_nat = c.hi & Cards::kHiNatural;
  std::uint64_t p = (c.lo | (c.lo >> 1) | hi_nat | (hi_nat >> 1)) & Cards::kLowBits;
  p |= p >> 32;  // fold the eight rank bytes of each word onto the lowest
  p |= p >> 16;
  p |= p >> 8;
  return unsigned(p & 0x55);
}
// The common suit of the naturals, or -1 if they are of several suits or none.
constexpr int natural_suit(const Cards& c) {
  const unsigned s = natural_suit_bits(c);
  return __builtin_popcount(s) == 1 ? __builtin_ctz(s) / 2 : -1;
}

// ---------------------------------------------------------------------------------------
// Two-rank natural parts: a natural cards of one rank and b of another (a, b >= 1,
// a + b <= 5), the jokers fill up to five.
// ---------------------------------------------------------------------------------------
// The rank with a cards can be the four of a four-plus-one: the other rank is the single.
constexpr bool can_be_four(int a, int b) { return a <= 4 && b == 1; }
// The rank with a cards can be the triple of a full house: the other holds at most a pair.
constexpr bool can_be_triple(int a, int b) { return a <= 3 && b <= 2; }

// R5: the highest kind the part forms (four-plus-one when either rank can be the four, else
// full house; a straight flush of two suited singles is the caller's check), and which of
// the two ranks may be its group rank (the four or the triple).
struct TwoRankShape {
  bool four;    // four-plus-one (else full house)
  bool first;   // the rank with a cards may be the group rank
  bool second;  // the rank with b cards may be the group rank
};
[[gnu::always_inline]] constexpr TwoRankShape two_rank_shape(int a, int b) {
  const bool four = can_be_four(a, b) || can_be_four(b, a);
  return four ? TwoRankShape{true, can_be_four(a, b), can_be_four(b, a)}
              : TwoRankShape{false, can_be_triple(a, b), can_be_triple(b, a)};
}
// R6: the power of the group rank (the key's sub) for group-rank powers p1 (first), p2
// (second): when both ranks may be it, auto takes the lower power and high the higher.
[[gnu::always_inline]] constexpr int group_power(const TwoRankShape& s, int p1, int p2, bool high) {
  if (s.first && s.second) return high ? (p1 > p2 ? p1 : p2) : (p1 < p2 ? p1 : p2);
  return s.first ? p1 : p2;
}

// ---------------------------------------------------------------------------------------
// Families.
// ---------------------------------------------------------------------------------------
enum class FiveFamily : std::uint8_t { kNone = 0, kGroup, kTwoRank, kSequence, kFlush };

// The family of a natural part with rank mask `mask` and m cards, all of one suit or not.
inline FiveFamily five_family(unsigned mask, int m, bool one_suit, bool wrap) {
  const int d = __builtin_popcount(mask);
  if (d <= 1) return FiveFamily::kGroup;
  if (d == 2) return FiveFamily::kTwoRank;
  if (d == m && is_sequence(mask, wrap)) return FiveFamily::kSequence;
  if (one_suit) return FiveFamily::kFlush;
  return FiveFamily::kNone;
}

}  // namespace daguai
