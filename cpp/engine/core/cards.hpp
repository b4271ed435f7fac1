// Cards, faces, hands (R2) and single power (R3, R4) of 大怪路子.
//
// R2: 3 decks + jokers = 162 cards, 54 distinct faces, 3 copies of each. A hand is a
//     multiset of faces; copies of a face are interchangeable.
// R4: BJ > SJ > level cards > A > K > ... > 2 (the natural ladder skips the level rank).
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace daguai {

struct Table;  // core/table.hpp: the table whose deck count bounds the copies (R18)

// ---------------------------------------------------------------------------------------
// Face id layout (uint8):
//   natural face  f = rank * 4 + suit      rank 0..12 = 2 3 4 5 6 7 8 9 T J Q K A
//                                          suit 0..3  = s h d c  (♠ ♥ ♦ ♣)
//   52 = SJ (small joker, 小怪), 53 = BJ (big joker, 大怪)
// ---------------------------------------------------------------------------------------
constexpr int kNumRanks = 13;
constexpr int kNumSuits = 4;
constexpr int kNumNatural = 52;
constexpr int kNumFaces = 54;
constexpr int kSJ = 52;
constexpr int kBJ = 53;
constexpr int kMaxCopies = 3;
constexpr int kDeckSize = kNumFaces * kMaxCopies;  // 162

constexpr int face_rank(int f) { return f >> 2; }
constexpr int face_suit(int f) { return f & 3; }
constexpr int make_face(int rank, int suit) { return rank * 4 + suit; }
constexpr bool is_joker(int f) { return f >= kNumNatural; }

// Power (R4) of a rank at level rank L: the natural ladder without L is 0..11, level 12.
constexpr int kLevelPower = 12;
constexpr int kSJPower = 13;
constexpr int kBJPower = 14;
constexpr int rank_power(int rank, int level) {
  return rank == level ? kLevelPower : (rank < level ? rank : rank - 1);
}
// Inverse of rank_power for powers 0..12.
constexpr int power_rank(int power, int level) {
  return power == kLevelPower ? level : (power < level ? power : power + 1);
}
// The ranks (13-bit mask) whose power at `level` is at least p0 (0 .. kLevelPower): the level
// rank, the ranks below it from p0 and the ranks above it from p0 + 1.
constexpr unsigned ranks_of_power_from(int level, int p0) {
  const unsigned ge0 = (0x1FFFu >> p0) << p0, ge1 = (0x1FFFu >> (p0 + 1)) << (p0 + 1);
  const unsigned below = (1u << level) - 1, above = 0x1FFFu & ~((2u << level) - 1);
  return (ge0 & below) | (ge1 & above) | (1u << level);
}
constexpr int face_power(int f, int level) {
  return f == kBJ ? kBJPower : f == kSJ ? kSJPower : rank_power(face_rank(f), level);
}

// All errors about user input derive from std::invalid_argument (-> Python ValueError).
struct CardError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Cards in a rank byte (four 2-bit suit counts).
constexpr int byte_count(unsigned b) {
  return int((b & 3) + ((b >> 2) & 3) + ((b >> 4) & 3) + ((b >> 6) & 3));
}

// ---------------------------------------------------------------------------------------
// Cards: a multiset of faces with 0..3 copies each, as 2-bit counts in 128 bits.
//
//   bit layout (lo = bits 0..63, hi = bits 64..127 of one 128-bit number):
//     face f's count occupies bits [2f, 2f+1]
//   => the four suit counts of rank r form one byte, "rank byte" r:
//        lo byte r for r < 8, hi byte r-8 for r >= 8;  within it suit s at bits [2s, 2s+1]
//   => byte 13 (hi bits 40..47) is the joker byte: SJ count at bits 0-1, BJ count at bits 2-3
//   => hi bits 44..63 are always zero.
//
// Removing a sub-multiset is plain word subtraction and adding a disjoint-enough multiset
// plain addition: as long as every field stays within 0..3 no borrow or carry crosses a
// field, so lo and hi are independent. Checked variants exist for untrusted input.
// ---------------------------------------------------------------------------------------
struct Cards {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;

  static constexpr std::uint64_t kLowBits = 0x5555555555555555ULL;    // bit 0 of each field
  static constexpr std::uint64_t kHighBits = 0xAAAAAAAAAAAAAAAAULL;   // bit 1 of each field
  static constexpr std::uint64_t kHiValid = 0x00000FFFFFFFFFFFULL;    // faces 32..53
  static constexpr std::uint64_t kHiNatural = 0x000000FFFFFFFFFFULL;  // faces 32..51

  constexpr bool operator==(const Cards& o) const { return lo == o.lo && hi == o.hi; }
  constexpr bool operator!=(const Cards& o) const { return !(*this == o); }
  constexpr bool empty() const { return (lo | hi) == 0; }

  constexpr int count(int f) const {
    return f < 32 ? int((lo >> (2 * f)) & 3) : int((hi >> (2 * (f - 32))) & 3);
  }
  // Unchecked: caller guarantees the result stays within 0..3.
  constexpr void add(int f, int n = 1) {
    if (f < 32)
      lo += std::uint64_t(n) << (2 * f);
    else
      hi += std::uint64_t(n) << (2 * (f - 32));
  }
  constexpr void remove(int f, int n = 1) {
    if (f < 32)
      lo -= std::uint64_t(n) << (2 * f);
    else
      hi -= std::uint64_t(n) << (2 * (f - 32));
  }
  constexpr int size() const {
    return __builtin_popcountll(lo) + __builtin_popcountll(lo & kHighBits) +
           __builtin_popcountll(hi) + __builtin_popcountll(hi & kHighBits);
  }
  constexpr int rank_byte(int r) const {
    return r < 8 ? int((lo >> (8 * r)) & 0xFF) : int((hi >> (8 * (r - 8))) & 0xFF);
  }
  constexpr int rank_count(int r) const { return byte_count(unsigned(rank_byte(r))); }
  constexpr int sj() const { return int((hi >> 40) & 3); }
  constexpr int bj() const { return int((hi >> 42) & 3); }
  constexpr int jokers() const { return sj() + bj(); }
  constexpr Cards naturals() const { return Cards{lo, hi & kHiNatural}; }

  // Multiset containment: every count of o <= the count here. Word subtraction x - y borrows
  // out of a 2-bit field exactly when that field of y exceeds x's; the borrow into bit i is
  // bit i of (x - y) ^ x ^ y, so a borrow into some field's bit 0, or out of the word (y > x),
  // means a count of o is larger (field_gt is the per-field reference).
  constexpr bool contains(const Cards& o) const { return !borrows(lo, o.lo) && !borrows(hi, o.hi); }
  static constexpr bool borrows(std::uint64_t x, std::uint64_t y) {
    return y > x || (((x - y) ^ x ^ y) & kLowBits) != 0;
  }
  // Per byte of a word (a rank byte: four 2-bit suit counts), its number of cards: the cards
  // of each rank as bytes (ranks 0..7 in lo; 8..12 in hi's low five bytes, jokers above).
  static constexpr std::uint64_t byte_counts(std::uint64_t w) {
    w = (w & 0x3333333333333333ULL) + ((w >> 2) & 0x3333333333333333ULL);
    return (w & 0x0F0F0F0F0F0F0F0FULL) + ((w >> 4) & 0x0F0F0F0F0F0F0F0FULL);
  }
  // Unchecked multiset sum / difference (see the layout note).
  constexpr Cards operator+(const Cards& o) const { return Cards{lo + o.lo, hi + o.hi}; }
  constexpr Cards operator-(const Cards& o) const { return Cards{lo - o.lo, hi - o.hi}; }
  constexpr Cards& operator+=(const Cards& o) {
    lo += o.lo;
    hi += o.hi;
    return *this;
  }
  constexpr Cards& operator-=(const Cards& o) {
    lo -= o.lo;
    hi -= o.hi;
    return *this;
  }
  // True if some face of a + b would exceed 3 copies.
  static constexpr bool sum_overflows(const Cards& a, const Cards& b) {
    // a + b > 3 in a field  <=>  b > 3 - a = ~a (2-bit complement) in that field.
    return field_gt(b.lo, ~a.lo) || field_gt(b.hi, ~a.hi & kHiValid);
  }
  // Bit 2f set for each face present (count >= 1).
  constexpr std::uint64_t present_lo() const { return (lo | (lo >> 1)) & kLowBits; }
  constexpr std::uint64_t present_hi() const { return (hi | (hi >> 1)) & kLowBits; }
  constexpr int distinct() const {
    return __builtin_popcountll(present_lo()) + __builtin_popcountll(present_hi());
  }

  // Per-field "x > y" for 2-bit fields, nonzero iff some field of x exceeds y's.
  static constexpr std::uint64_t field_gt(std::uint64_t x, std::uint64_t y) {
    const std::uint64_t x1 = (x >> 1) & kLowBits, x0 = x & kLowBits;
    const std::uint64_t y1 = (y >> 1) & kLowBits, y0 = y & kLowBits;
    return (x1 & ~y1) | (~(x1 ^ y1) & x0 & ~y0 & kLowBits);
  }
};

// The cards of rank r given by a rank byte (four 2-bit suit counts), e.g. 0xFF = every
// copy of the rank.
constexpr Cards rank_cards(int r, unsigned byte) {
  return r < 8 ? Cards{std::uint64_t(byte) << (8 * r), 0}
               : Cards{0, std::uint64_t(byte) << (8 * (r - 8))};
}

// Gather bit 8i of x (i = 0..7) into bit i of the result (no carries: see cards.cpp).
constexpr unsigned gather_byte_lsbs(std::uint64_t x) {
  return unsigned(((x & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56);
}

// The natural cards of each rank of a Cards as bytes (Cards::byte_counts: ranks 0..7 in lo,
// 8..12 in hi), with the ranks holding at least k of them.
struct RankCounts {
  std::uint64_t lo, hi;
  explicit constexpr RankCounts(const Cards& c)
      : lo(Cards::byte_counts(c.lo)), hi(Cards::byte_counts(c.hi & Cards::kHiNatural)) {}
  constexpr int count(int r) const {
    return int((r < 8 ? lo >> (8 * r) : hi >> (8 * (r - 8))) & 0xFF);
  }
  // the ranks with at least k natural cards (k >= 1; a byte count is at most 12)
  constexpr unsigned at_least(int k) const {
    const std::uint64_t add = 0x0101010101010101ULL * std::uint64_t(0x80 - k);
    return gather_byte_lsbs((lo + add) >> 7) | gather_byte_lsbs((hi + add) >> 7) << 8;
  }
};

// 13-bit mask of ranks with at least one natural card.
constexpr unsigned rank_mask(const Cards& c) {
  // Presence bit at 2f, then OR the four suit bits of each rank byte into its bit 0.
  std::uint64_t l = c.present_lo(), h = c.present_hi() & Cards::kHiNatural;
  l |= l >> 2;
  l |= l >> 4;
  h |= h >> 2;
  h |= h >> 4;
  return gather_byte_lsbs(l) | (gather_byte_lsbs(h) << 8);
}
// 13-bit mask of ranks present in suit s.
constexpr unsigned suit_rank_mask(const Cards& c, int s) {
  const std::uint64_t l = (c.lo | (c.lo >> 1)) >> (2 * s);
  const std::uint64_t h =
      ((c.hi & Cards::kHiNatural) | ((c.hi & Cards::kHiNatural) >> 1)) >> (2 * s);
  return gather_byte_lsbs(l) | (gather_byte_lsbs(h) << 8);
}

// ---------------------------------------------------------------------------------------
// Text (R2): "As Th 10c ♠2 SJ bj" ...; canonical output "2s 2h ... Ac SJ BJ".
// ---------------------------------------------------------------------------------------
// Parse one token; returns the face id or throws CardError naming the token.
int parse_face(std::string_view token);
// Parse a card list (white space and/or commas). Throws CardError on a bad token or a
// face given more than 3 times.
Cards parse_cards(std::string_view text);
// Parse a level: "2".."9", "T"/"10", "J", "Q", "K", "A" (any case) -> rank index.
int parse_level(std::string_view text);
std::string face_text(int f);
std::string level_text(int level);
std::string cards_text(const Cards& c);
// Faces in id order, each repeated by its count.
std::vector<int> cards_faces(const Cards& c);
// 54 counts <-> Cards; throws CardError on a count outside 0..3.
Cards cards_from_counts(const std::uint8_t* counts, int n = kNumFaces);
void cards_to_counts(const Cards& c, std::uint8_t* counts);
// Cards from face ids; throws CardError on a bad id or more than 3 copies.
Cards cards_from_faces(const std::uint8_t* faces, int n);
// The R2 copy limit, checked in one place for every way cards come in (text, face ids,
// counts, sums; the bindings call these): a Cards holds at most kMaxCopies (3, the 6p3d deck)
// of a face; a table with fewer decks (4p2d: 2) is checked where hands meet a table (state)
// and where cards are read for a table (the overloads below: plays, hands of legal plays).
// Adds one copy of face f; CardError "too many copies of <f> (at most 3: three decks, R2)".
void add_copy(Cards* c, int f);
// 54 counts of any integer type; CardError "count <v> for <f> is outside 0..3 (R2)".
Cards cards_from_counts(const std::int64_t* counts, int n = kNumFaces);
// a + b; CardError "cannot add '<b>': a face would exceed 3 copies (R2)".
Cards add_cards(const Cards& a, const Cards& b);

// The same limit for cards meant for one table: at most table.decks copies of a face (R2: 3
// at 6p3d, with the messages above; R18: 2 at 4p2d, CardError "too many copies of <f> (at
// most 2: two decks at the 4p2d table, R18)"). Plays and hands read at a table (classify,
// beats, legal plays) come through these, so no play holds a face the table has not.
void add_copy(Cards* c, int f, const Table& table);
Cards parse_cards(std::string_view text, const Table& table);
Cards cards_from_faces(const std::uint8_t* faces, int n, const Table& table);
// Throws that CardError, naming the first face of c over the table's limit.
void check_copies(const Cards& c, const Table& table);

}  // namespace daguai
