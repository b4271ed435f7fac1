// Combinations, wildcards and comparison: R5, R6, R7 (docs/rules.md has the decisions).
//
// R5: plays of 1, 2, 3 or 5 cards: single, pair, triple; five-card straight < flush <
//     full house < four-plus-one < straight flush < five of a kind. Straights use natural
//     ranks (level rank in place), A2345 lowest, TJQKA highest, no wrap unless
//     `wrap_straights`. A five-card set is the highest type it fits.
// R6: SJ/BJ are wild in 2/3/5-card plays, never in a single; a joker-only play stands for
//     itself. Interpretation per `Wild`: auto = highest kind then lowest key (default),
//     high = highest kind then highest key, declare = any interpretation.
// R7: same size only; key order per kind; equal keys tie; `joker_pair` = pure_wins lets
//     SJ SJ beat SJ BJ.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <daguai/core/cards.hpp>
#include <daguai/core/rules.hpp>
#include <daguai/plays/five.hpp>

namespace daguai {

// R5-R8 violation (well-formed cards that are not an allowed play here) -> Python
// IllegalPlayError, a ValueError.
struct IllegalPlay : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

enum class Kind : std::uint8_t {
  kSingle = 0,
  kPair = 1,
  kTriple = 2,
  kStraight = 3,
  kFlush = 4,
  kFullHouse = 5,
  kFourPlusOne = 6,
  kStraightFlush = 7,
  kFiveOfAKind = 8,
};
constexpr int kNumKinds = 9;
const char* kind_name(Kind k);  // "single", "pair", ..., "five_of_a_kind"

// ---------------------------------------------------------------------------------------
// Keys (docs/rules.md "Keys"): for plays of the same size, a beats b iff key(a) > key(b).
//   sizes 1-3:  power << 1  (| 1 for the pure SJ SJ pair under joker_pair = pure_wins)
//   size 5:     (kind - kStraight) << 20 | sub
//     straight / straight flush  sub = sequence key 0..12 (top rank index; wrapped < A2345)
//     full house                 sub = power of the triple's rank
//     four-plus-one              sub = power of the four's rank
//     five of a kind             sub = power (13 / 14 for all-joker fives)
//     flush                      sub = powers sorted high to low, 4 bits each (20 bits)
// ---------------------------------------------------------------------------------------
constexpr std::uint32_t small_key(int power) { return std::uint32_t(power) << 1; }
constexpr std::uint32_t five_key(Kind k, std::uint32_t sub) {
  return (std::uint32_t(int(k) - int(Kind::kStraight)) << 20) | sub;
}
constexpr Kind five_kind_of_key(std::uint32_t key) {
  return Kind(int(key >> 20) + int(Kind::kStraight));
}

// ---------------------------------------------------------------------------------------
// Play layout (24 bytes, trivially copyable; the numpy dtype `PLAY_DTYPE` mirrors it):
//   offset  0  Cards cards     16 bytes, the faces played (Cards layout)
//   offset 16  uint32 key      comparison key (above)
//   offset 20  uint32 info     little-endian bytes: 20 kind, 21 size (1, 2, 3, 5),
//                              22 jokers (SJ + BJ among the cards), 23 level: bits 0-6 the
//                              level rank the key was computed for (0..12), bit 7 set for a
//                              play of a two-deck table (R18: its jokers may stand for a
//                              face at most twice, so joker_faces() needs to know)
// The interpretation of jokers is (kind, key); joker_faces() derives the canonical faces.
// `info` is one word (not four bytes) so that writing a play does not alias everything.
// ---------------------------------------------------------------------------------------
constexpr std::uint32_t kTwoDeckBit = 1u << 31;
constexpr std::uint32_t play_info(Kind kind, int size, int jokers, int level,
                                  int copies = kMaxCopies) {
  return std::uint32_t(kind) | (std::uint32_t(size) << 8) | (std::uint32_t(jokers) << 16) |
         (std::uint32_t(level) << 24) | (copies == 2 ? kTwoDeckBit : 0u);
}

struct Play {
  Cards cards;
  std::uint32_t key = 0;
  std::uint32_t info = 0;

  constexpr Kind kind() const { return Kind(info & 0xFF); }
  constexpr int size() const { return int((info >> 8) & 0xFF); }
  constexpr int jokers() const { return int((info >> 16) & 0xFF); }
  constexpr int level() const { return int((info >> 24) & 0x7F); }
  // copies of a face the table holds (R2: 3; R18 4p2d: 2), the limit of its jokers' faces
  constexpr int copies() const { return (info & kTwoDeckBit) ? 2 : kMaxCopies; }

  bool operator==(const Play& o) const {
    return cards == o.cards && key == o.key && info == o.info;
  }
  bool operator!=(const Play& o) const { return !(*this == o); }
};
static_assert(sizeof(Play) == 24, "Play must stay 24 bytes (numpy dtype mirrors it)");

// R7: a beats b.
inline bool beats(const Play& a, const Play& b) { return a.size() == b.size() && a.key > b.key; }

// Classify a set of cards under `level` (rank index) and `rules`.
// Returns false if the cards form no play. Under Wild::kDeclare, the interpretation chosen
// is the one Wild::kHigh would pick (the default declaration).
// Five-card sets use the tables of five_table.hpp.
bool classify(const Cards& c, int level, const Rules& rules, Play* out);

// Every interpretation (R6) of the cards, in increasing key order: one entry for sizes
// 1-3 and joker-free sets, possibly many for 5-card sets with jokers. Empty if no play.
std::vector<Play> interpretations(const Cards& c, int level, const Rules& rules);

// Which interpretation `declared` (a natural five made of the play's natural cards plus one
// face per joker) gives; throws CardError if it is not one of them.
Play declare(const Cards& c, const Cards& declared_five, int level, const Rules& rules);

// Canonical faces the jokers of a play stand for (docs/rules.md), in ascending face order,
// one per joker (SJs first, then BJs, receive them in that order). Empty for a single and
// for joker-only plays, which stand for themselves.
// At most p.copies() copies of a face among the naturals and the jokers' faces (R18).
std::vector<int> joker_faces(const Play& p, int level);

// Batch classification of n plays given as face ids (row stride `stride`, `sizes[i]` faces
// in row i, or all `fixed_size` if sizes is null). Writes kind (255 = not a play) and key.
// Throws CardError on a face id out of range or a 4th copy.
void classify_batch(const std::uint8_t* faces, std::size_t n, int stride, const std::uint8_t* sizes,
                    int fixed_size, int level, const Rules& rules, std::uint8_t* kinds,
                    std::uint32_t* keys);

// Batch R7 comparison: row i of a (ka faces) beats row i of b (kb faces). Throws CardError
// naming the row if a row is not a play.
void beats_batch(const std::uint8_t* a, const std::uint8_t* b, std::size_t n, int ka, int kb,
                 int level, const Rules& rules, bool* out);

namespace detail {

// What a 5-card classification needs about the natural part N of a play with j jokers.
struct FiveInfo {
  int m = 0;             // natural cards
  int j = 0;             // jokers
  unsigned mask = 0;     // ranks present
  int d = 0;             // distinct ranks
  int suit = -1;         // the common suit of all naturals, -1 if mixed (or m == 0)
  std::uint8_t n[13]{};  // natural count per rank
};
FiveInfo five_info(const Cards& naturals, int jokers);

// Auto / high: the single interpretation. Returns false if no play. (m >= 1.)
bool classify_five(const FiveInfo& x, int level, const Rules& rules, bool high, std::uint32_t* key,
                   Kind* kind);
// Declare: append every (kind, key) in increasing key order. (m >= 1.)
void five_interpretations(const FiveInfo& x, int level, const Rules& rules,
                          std::vector<std::uint32_t>* keys);
// Key of a joker-only play of the given size.
std::uint32_t joker_only_key(int size, int sj, int bj, const Rules& rules);

}  // namespace detail
}  // namespace daguai
