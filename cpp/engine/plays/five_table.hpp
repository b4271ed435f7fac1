// Table-driven five-card classification (R5, R6, R7): the kind and key of a five-card play
// depend only on
//   - the multiset of natural ranks and the number of jokers (five symbols over 14: the 13
//     ranks and "joker"),
//   - whether every natural card has one suit (straight flush / flush possible),
//   - the level, and the variants `wild` (auto vs high/declare) and `wrap_straights`.
// The flush-suit copy limits (R2: 3 copies of a face, so a joker completing a flush takes
// the lowest power with a copy left) follow from the rank multiset and the table's copy
// limit (R18: 2 at 4p2d, a table of its own), so they need no index. Five jokers (R6: a five of
// a kind of SJ power, as no face has 5 copies) are an entry too.
//
// The lookup is one packed word and one perfect hash, so that both the Cards path (classify)
// and the face-id path (classify_batch) reach the key in a few instructions:
//
//   symbol counts (uint64), one 4-bit count per symbol:
//     bits 8r .. 8r+3        rank r = 0..7   (the low nibble of byte r)
//     bits 8(r-8)+4 .. +7    rank r = 8..12  (the high nibble of bytes 0..4)
//     bits 44..47            jokers, SJ + BJ (the high nibble of byte 5)
//     bits 52..55            face ids >= 54 seen (the face-id path only; zero in a key)
//   => from a Cards it is cl | ch << 4 with cl, ch the per-rank-byte card counts of the
//      words lo and hi (the joker byte 13 lands on bits 44..47); from face ids it is a sum
//      of one word per face (kFaceCounts).
//
// Slot (a perfect hash, CHD: hash and displace): h = counts * kFiveMul; bucket = h >> 53
// (2,048 buckets), slot = ((h >> 32) ^ disp[bucket]) & 16383. The displacements are found
// once (five_table.cpp) so that the 8,568 multisets (C(18, 5)) land on distinct slots; the
// table holds [slot][suited] -> the play's key (pattern.hpp "Keys"; the kind is
// five_kind_of_key(key)) or kNoPlay, 2 x 16,384 x 4 bytes = 128 KiB.
//
// A table per (level, high, wrap, copy limit) is built on first use (thread-safe), so a
// program touching one level holds 128 KiB. The branchy classifier detail::classify_five
// stays as the reference that builds the table and that tests compare the table path against.
#pragma once

#include <atomic>
#include <cstdint>

#include <daguai/core/cards.hpp>
#include <daguai/core/rules.hpp>
#include <daguai/core/table.hpp>
#include <daguai/plays/five.hpp>

namespace daguai {

constexpr std::uint32_t kNoPlay = 0xFFFFFFFFu;
constexpr int kFiveMultisets = 8568;  // C(18, 5)

namespace detail {

// The table for (level, high, wrap, copy limit 3 or 2 (R18 4p2d)): [slot * 2 + suited] -> key
// or kNoPlay.
const std::uint32_t* five_table(int level, bool high, bool wrap, int copies = kMaxCopies);

// The same, read from the cache of built tables first (the hot path of classify).
constexpr int kFiveTableSlots = kNumRanks * 2 * 2 * 2;
extern std::atomic<const std::uint32_t*> g_five_tables[kFiveTableSlots];
inline const std::uint32_t* five_table_of(int level, const Rules& rules) {
  const bool high = rules.wild != Wild::kAuto, two = rules.table == TableKind::k4p2d;
  const int slot = ((level * 2 + high) * 2 + rules.wrap_straights) * 2 + two;
  const std::uint32_t* t = g_five_tables[slot].load(std::memory_order_acquire);
  return t ? t : five_table(level, high, rules.wrap_straights, two ? 2 : kMaxCopies);
}

// The perfect hash (layout above).
constexpr std::uint64_t kFiveMul = 0x1027C4D1C386BBC5ULL;  // one that places every multiset
constexpr int kFiveBucketBits = 11;
constexpr int kFiveSlotBits = 14;
constexpr int kFiveSlots = 1 << kFiveSlotBits;
extern std::uint16_t g_five_disp[1 << kFiveBucketBits];  // set before any table is published
inline int five_slot(std::uint64_t counts, const std::uint16_t* disp = g_five_disp) {
  const std::uint64_t h = counts * kFiveMul;
  return int((std::uint32_t(h >> 32) ^ disp[h >> (64 - kFiveBucketBits)]) & (kFiveSlots - 1));
}

// Symbol counts (layout above) of a Cards of at most 15 cards of a rank.
constexpr std::uint64_t five_counts(const Cards& c) {
  return Cards::byte_counts(c.lo) | (Cards::byte_counts(c.hi) << 4);
}
// Symbol counts of one face id (0..255): a face >= 54 counts at bits 52..55.
struct FaceCounts {
  std::uint64_t w[256]{};
  constexpr FaceCounts() {
    for (int f = 0; f < 256; ++f) {
      const int r = f < kNumNatural ? f >> 2 : 13;  // 13: joker
      w[f] = f >= kNumFaces ? (std::uint64_t(1) << 52)
                            : std::uint64_t(1) << (8 * (r & 7) + 4 * (r >> 3));
    }
  }
};
inline constexpr FaceCounts kFaceCounts{};
constexpr std::uint64_t kJokerNibble = 0xFULL << 44;
constexpr std::uint64_t kBadNibble = 0xFULL << 52;
// Bit 2 of every symbol's nibble, and bit 0: a count of c or more is (counts + (4 - c) * ones)
// & kNibbleBit2 (counts <= 5, so no nibble carries).
constexpr std::uint64_t kNibbleBit2 = 0x0404444444444444ULL;
constexpr std::uint64_t kNibbleOnes = 0x0101111111111111ULL;

}  // namespace detail
}  // namespace daguai
