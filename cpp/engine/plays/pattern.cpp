#include <algorithm>
#include <array>

#include <daguai/core/table.hpp>
#include <daguai/plays/five_table.hpp>
#include <daguai/plays/pattern.hpp>

namespace daguai {

const char* kind_name(Kind k) {
  static const char* const kNames[kNumKinds] = {
      "single",     "pair",          "triple",         "straight",      "flush",
      "full_house", "four_plus_one", "straight_flush", "five_of_a_kind"};
  const int i = int(k);
  return i >= 0 && i < kNumKinds ? kNames[i] : "?";
}

namespace {

inline int low_bit(unsigned x) { return __builtin_ctz(x); }
inline int high_bit(unsigned x) { return 31 - __builtin_clz(x); }

// Lowest-power rank other than `avoid`.
inline int lowest_rank_except(int avoid, int level) {
  const int r = power_rank(0, level);
  return r != avoid ? r : power_rank(1, level);
}

// detail::joker_only_key, inlined in this file (an exported function is not: -fPIC).
inline std::uint32_t joker_key(int size, int sj, int bj, const Rules& rules) {
  const int power = (bj == size) ? kBJPower : kSJPower;
  if (size == 5) return five_key(Kind::kFiveOfAKind, std::uint32_t(power));
  std::uint32_t key = small_key(power);
  if (size == 2 && sj == 2 && rules.joker_pair == JokerPair::kPureWins) key |= 1;
  return key;
}

// Flush sub-key from counts per power (sum 5): powers high to low, 4 bits each.
inline std::uint32_t flush_sub(const std::uint8_t* cp) {
  std::uint32_t sub = 0;
  for (int p = kLevelPower; p >= 0; --p)
    for (int k = cp[p]; k > 0; --k) sub = (sub << 4) | std::uint32_t(p);
  return sub;
}

}  // namespace

namespace detail {

FiveInfo five_info(const Cards& nat, int jokers) {
  FiveInfo x;
  x.j = jokers;
  for (int r = 0; r < kNumRanks; ++r) {
    const int b = nat.rank_byte(r);
    if (!b) continue;
    const int c = byte_count(unsigned(b));
    x.n[r] = std::uint8_t(c);
    x.m += c;
    x.mask |= 1u << r;
  }
  x.d = __builtin_popcount(x.mask);
  x.suit = natural_suit(nat);
  return x;
}

std::uint32_t joker_only_key(int size, int sj, int bj, const Rules& rules) {
  return joker_key(size, sj, bj, rules);
}

bool classify_five(const FiveInfo& x, int level, const Rules& rules, bool high, std::uint32_t* key,
                   Kind* kind) {
  // R5: the highest type the set can form (five > straight flush > four-plus-one > full
  // house > flush > straight); R6: then the lowest key (auto) or the highest (high). The
  // natural part's family (five.hpp) decides which types are possible.
  const bool suited = x.suit >= 0;
  switch (five_family(x.mask, x.m, suited, rules.wrap_straights)) {
    case FiveFamily::kGroup:  // all naturals one rank: the jokers complete a five of a kind
      *kind = Kind::kFiveOfAKind;
      *key = five_key(*kind, std::uint32_t(rank_power(low_bit(x.mask), level)));
      return true;
    case FiveFamily::kTwoRank: {
      // Two suited single cards inside a window + 3 jokers: a straight flush.
      if (suited && x.m == 2 && is_sequence(x.mask, rules.wrap_straights)) {
        *kind = Kind::kStraightFlush;
        *key = five_key(*kind, std::uint32_t(straight_key(
                                   straight_windows(x.mask, rules.wrap_straights), high)));
        return true;
      }
      const int r1 = low_bit(x.mask), r2 = high_bit(x.mask);
      const TwoRankShape shape = two_rank_shape(x.n[r1], x.n[r2]);
      *kind = shape.four ? Kind::kFourPlusOne : Kind::kFullHouse;
      *key = five_key(*kind, std::uint32_t(group_power(shape, rank_power(r1, level),
                                                       rank_power(r2, level), high)));
      return true;
    }
    case FiveFamily::kSequence:
      *kind = suited ? Kind::kStraightFlush : Kind::kStraight;
      *key = five_key(
          *kind, std::uint32_t(straight_key(straight_windows(x.mask, rules.wrap_straights), high)));
      return true;
    case FiveFamily::kFlush: {
      // Every completion is a flush: the jokers take the lowest (auto) or highest (high)
      // powers that still have a copy left (R6, R18: a face at most `decks` times).
      std::uint8_t cp[13] = {};
      for (int r = 0; r < kNumRanks; ++r) cp[rank_power(r, level)] = x.n[r];
      const int copies = table_of(rules).decks;
      int need = x.j;
      for (int i = 0; i < kNumRanks && need > 0; ++i) {
        const int p = high ? kLevelPower - i : i;
        const int take = std::min(copies - int(x.n[power_rank(p, level)]), need);
        cp[p] = std::uint8_t(cp[p] + take);
        need -= take;
      }
      *kind = Kind::kFlush;
      *key = five_key(*kind, flush_sub(cp));
      return true;
    }
    default:
      return false;
  }
}

namespace {

// Flush completions for declare: the jokers take a rank multiset X (added counts `add`,
// n + add <= copies per rank (3, or 2 at 4p2d: R18), all in the naturals' suit). N + X is a flush
// unless it is a 3+2 (a full house) or five distinct ranks in sequence (a straight flush).
void flush_completions(const FiveInfo& x, int level, bool wrap, int copies, int r, int left,
                       std::uint8_t* add, std::vector<std::uint32_t>* keys) {
  if (left == 0) {
    unsigned mask = 0;
    int maxc = 0;
    std::uint8_t cp[13] = {};
    for (int q = 0; q < kNumRanks; ++q) {
      const int c = x.n[q] + add[q];
      if (!c) continue;
      mask |= 1u << q;
      maxc = std::max(maxc, c);
      cp[rank_power(q, level)] = std::uint8_t(c);
    }
    const int d = __builtin_popcount(mask);
    if (d == 2) return;                                          // 3+2: full house
    if (d == 5 && maxc == 1 && is_sequence(mask, wrap)) return;  // straight flush
    keys->push_back(five_key(Kind::kFlush, flush_sub(cp)));
    return;
  }
  if (r == kNumRanks) return;
  const int cap = copies - x.n[r];
  for (int k = std::min(cap, left); k >= 0; --k) {
    add[r] = std::uint8_t(k);
    flush_completions(x, level, wrap, copies, r + 1, left - k, add, keys);
  }
  add[r] = 0;
}

}  // namespace

void five_interpretations(const FiveInfo& x, int level, const Rules& rules,
                          std::vector<std::uint32_t>* keys) {
  const std::size_t start = keys->size();
  auto add = [&](Kind k, int sub) { keys->push_back(five_key(k, std::uint32_t(sub))); };
  if (x.d <= 1) add(Kind::kFiveOfAKind, rank_power(low_bit(x.mask), level));
  const bool distinct = x.d == x.m;
  if (distinct) {
    for (unsigned ws = straight_windows(x.mask, rules.wrap_straights); ws; ws &= ws - 1) {
      const int t = low_bit(ws);
      add(Kind::kStraight, t);  // j >= 1: a joker can always break the suit
      if (x.suit >= 0) add(Kind::kStraightFlush, t);
    }
  }
  if (x.d == 2) {
    const int r1 = low_bit(x.mask), r2 = high_bit(x.mask);
    const int a = x.n[r1], b = x.n[r2];
    if (can_be_four(a, b)) add(Kind::kFourPlusOne, rank_power(r1, level));
    if (can_be_four(b, a)) add(Kind::kFourPlusOne, rank_power(r2, level));
    if (can_be_triple(a, b)) add(Kind::kFullHouse, rank_power(r1, level));
    if (can_be_triple(b, a)) add(Kind::kFullHouse, rank_power(r2, level));
  } else if (x.d == 1) {
    const int r = low_bit(x.mask);
    // four of r + any kicker; or (one natural) the natural is the kicker of four jokers
    add(Kind::kFourPlusOne, rank_power(r, level));
    if (x.m <= 3) add(Kind::kFullHouse, rank_power(r, level));
    for (int q = 0; q < kNumRanks; ++q) {
      if (q == r) continue;
      if (x.m == 1) add(Kind::kFourPlusOne, rank_power(q, level));
      if (x.m <= 2) add(Kind::kFullHouse, rank_power(q, level));
    }
  }
  if (x.suit >= 0) {
    std::uint8_t extra[13] = {};
    flush_completions(x, level, rules.wrap_straights, table_of(rules).decks, 0, x.j, extra, keys);
  }
  std::sort(keys->begin() + std::ptrdiff_t(start), keys->end());
  keys->erase(std::unique(keys->begin() + std::ptrdiff_t(start), keys->end()), keys->end());
}

}  // namespace detail

namespace {

Play make_play(const Cards& c, int size, int jokers, Kind kind, std::uint32_t key, int level,
               const Rules& rules) {
  Play p;
  p.cards = c;
  p.key = key;
  p.info = play_info(kind, size, jokers, level, table_of(rules).decks);
  return p;
}

// Per-rank-byte card counts of both words at once (Cards::byte_counts, on SSE2).
typedef std::uint64_t Words __attribute__((vector_size(16)));
[[gnu::always_inline]] inline Words rank_byte_counts(const Cards& c) {
  Words x = {c.lo, c.hi};
  const Words m2 = {0x3333333333333333ULL, 0x3333333333333333ULL};
  const Words m4 = {0x0F0F0F0F0F0F0F0FULL, 0x0F0F0F0F0F0F0F0FULL};
  x = (x & m2) + ((x >> 2) & m2);
  return (x & m4) + ((x >> 4) & m4);
}

// The naturals are all of one suit (the flush test; five.hpp natural_suit_bits folded once).
[[gnu::always_inline]] inline bool one_suit(const Cards& c) {
  std::uint64_t p = c.lo | (c.hi & Cards::kHiNatural);
  p |= p >> 32;
  p |= p >> 16;
  p |= p >> 8;
  return __builtin_popcount(unsigned((p | (p >> 1)) & 0x55)) == 1;
}

// classify after the table's copy check; `two_deck` is play_info's bit of a 4p2d table.
[[gnu::always_inline]] inline bool classify_checked(const Cards& c, int level, const Rules& rules,
                                                    std::uint32_t two_deck, Play* out);

[[gnu::noinline, gnu::cold]] bool classify_4p2d(const Cards& c, int level, const Rules& rules,
                                                Play* out) {
  check_copies(c, table_of(rules));  // R18: no play holds more copies than the table's decks
  return classify_checked(c, level, rules, kTwoDeckBit, out);
}

// The first classification of five cards at a level and variants: the table is built first.
[[gnu::noinline, gnu::cold]] bool classify_building(const Cards& c, int level, const Rules& rules,
                                                    Play* out) {
  detail::five_table(level, rules.wild != Wild::kAuto, rules.wrap_straights, table_of(rules).decks);
  return classify(c, level, rules, out);
}

inline bool classify_checked(const Cards& c, int level, const Rules& rules, std::uint32_t two_deck,
                             Play* out) {
  // Cards per rank byte (the joker byte is byte 5 of hi; hi's bytes 6 and 7 are zero), and
  // the size as their sum (at most 162 cards: no byte of the sum overflows).
  const Words counts = rank_byte_counts(c);
  const std::uint64_t cl = counts[0], ch = counts[1];
  const int size = int(((cl + ch) * 0x0101010101010101ULL) >> 56);
  const int j = int(ch >> 40);
  auto done = [&](int sz, Kind kind, std::uint32_t key) {
    out->cards = c;
    out->key = key;
    out->info = play_info(kind, sz, j, level) | two_deck;
    return true;
  };
  if (size == 5) {
    // R5/R6 by one lookup (five_table.hpp; five jokers included); detail::classify_five is the
    // reference it is built from.
    const bool high = rules.wild != Wild::kAuto;
    const int slot = ((level * 2 + high) * 2 + rules.wrap_straights) * 2 + (two_deck != 0);
    const std::uint32_t* table = detail::g_five_tables[slot].load(std::memory_order_acquire);
    if (!table) [[unlikely]]
      return classify_building(c, level, rules, out);
    const std::uint32_t key = table[detail::five_slot(cl | (ch << 4)) * 2 + one_suit(c)];
    if (key == kNoPlay) return false;
    return done(5, five_kind_of_key(key), key);
  }
  if (size == 1) {
    const int f =
        j ? (c.sj() ? kSJ : kBJ) : (__builtin_ctzll(c.lo ? c.lo : c.hi) / 2 + (c.lo ? 0 : 32));
    return done(1, Kind::kSingle, small_key(face_power(f, level)));
  }
  if (size == 2 || size == 3) {
    const Kind kind = size == 2 ? Kind::kPair : Kind::kTriple;
    if (j == size)  // R6: a joker-only combination stands for itself
      return done(size, kind, joker_key(size, c.sj(), c.bj(), rules));
    // The naturals are of one rank: one nonzero rank byte (counts <= 3 here: two bits).
    constexpr std::uint64_t kByteOnes = 0x0101010101010101ULL;
    const std::uint64_t nl = (cl | (cl >> 1)) & kByteOnes;
    const std::uint64_t nh = (ch | (ch >> 1)) & (kByteOnes >> 24);  // ranks 8..12
    if (__builtin_popcountll(nl) + __builtin_popcountll(nh) != 1) return false;
    const int r = nl ? __builtin_ctzll(nl) >> 3 : 8 + (__builtin_ctzll(nh) >> 3);
    return done(size, kind, small_key(rank_power(r, level)));
  }
  return false;
}

}  // namespace

bool classify(const Cards& c, int level, const Rules& rules, Play* out) {
  // R18: at 4p2d the copies are checked first (a call, off the 6p3d path)
  if (rules.table != TableKind::k6p3d) [[unlikely]]
    return classify_4p2d(c, level, rules, out);
  return classify_checked(c, level, rules, 0, out);
}

std::vector<Play> interpretations(const Cards& c, int level, const Rules& rules) {
  if (table_of(rules).decks < kMaxCopies) check_copies(c, table_of(rules));  // R18, as classify
  std::vector<Play> out;
  const int size = c.size(), j = c.jokers();
  if (size == 5 && j >= 1 && j < 5) {
    std::vector<std::uint32_t> keys;
    detail::five_interpretations(detail::five_info(c.naturals(), j), level, rules, &keys);
    out.reserve(keys.size());
    for (std::uint32_t k : keys)
      out.push_back(make_play(c, 5, j, five_kind_of_key(k), k, level, rules));
    return out;
  }
  Play p;
  if (classify(c, level, rules, &p)) out.push_back(p);
  return out;
}

Play declare(const Cards& c, const Cards& declared, int level, const Rules& rules) {
  const int size = c.size(), j = c.jokers();
  const Cards nat = c.naturals();
  if (declared.jokers())
    throw CardError("a declaration names natural faces only (what each joker stands for)");
  if (!declared.contains(nat) || declared.size() != size)
    throw CardError("declared cards '" + cards_text(declared) + "' must be the natural cards '" +
                    cards_text(nat) + "' plus one face per joker (" + std::to_string(j) + ")");
  if (j == 0 || j == size)
    throw CardError(size == 1 || j == 0 ? "only jokers in a 2-, 3- or 5-card play can be declared"
                                        : "a joker-only play stands for itself (R6)");
  Play natural;
  if (!classify(declared, level, rules, &natural))
    throw CardError("declared cards '" + cards_text(declared) + "' form no play");
  for (const Play& p : interpretations(c, level, rules))
    if (p.key == natural.key) return p;
  // Unreachable for a valid declaration (every assignment is an interpretation).
  throw CardError("declared cards '" + cards_text(declared) + "' are not an interpretation");
}

std::vector<int> joker_faces(const Play& p, int level) {
  const int copies = p.copies();
  const int j = p.jokers();
  const Cards nat = p.cards.naturals();
  if (j == 0 || j == p.size() || p.size() == 1) return {};
  const detail::FiveInfo x = detail::five_info(nat, j);
  std::vector<int> ranks;
  auto push = [&](int r, int k) {
    for (; k > 0; --k) ranks.push_back(r);
  };
  int suit = -1;  // -1: first suit that keeps every face at <= copies (3, or 2 at 4p2d)
  const std::uint32_t sub = p.key & 0xFFFFF;
  switch (p.kind()) {
    case Kind::kPair:
    case Kind::kTriple:
    case Kind::kFiveOfAKind:
      push(low_bit(x.mask), j);
      break;
    case Kind::kStraight:
    case Kind::kStraightFlush: {
      const unsigned miss = window_missing(int(sub), x.mask);
      for (unsigned m = miss; m; m &= m - 1) push(low_bit(m), 1);
      suit = p.kind() == Kind::kStraightFlush ? x.suit : (x.suit == 0 ? 1 : 0);
      break;
    }
    case Kind::kFlush: {
      int need[13] = {};
      for (int i = 0; i < 5; ++i) ++need[power_rank(int((sub >> (4 * i)) & 15), level)];
      for (int r = 0; r < kNumRanks; ++r) push(r, need[r] - x.n[r]);
      suit = x.suit;
      break;
    }
    case Kind::kFourPlusOne:
    case Kind::kFullHouse: {
      const int big = p.kind() == Kind::kFourPlusOne ? 4 : 3, small = 5 - big;
      const int g = power_rank(int(sub), level);
      push(g, big - x.n[g]);
      const unsigned rest = x.mask & ~(1u << g);
      if (rest)
        push(low_bit(rest), small - x.n[low_bit(rest)]);
      else
        push(lowest_rank_except(g, level), small);
      break;
    }
    default:
      break;
  }
  std::vector<int> faces;
  Cards seen = nat;
  for (int r : ranks) {
    int s = suit;
    if (s < 0)
      for (s = 0; s < kNumSuits - 1 && seen.count(make_face(r, s)) >= copies; ++s) {
      }
    seen.add(make_face(r, s));
    faces.push_back(make_face(r, s));
  }
  std::sort(faces.begin(), faces.end());
  return faces;
}

namespace {

// Bit 1 << suit of a natural face id, 0 for a joker or a bad id (the one-suit test).
struct SuitBits {
  std::uint8_t b[256]{};
  constexpr SuitBits() {
    for (int f = 0; f < kNumNatural; ++f) b[f] = std::uint8_t(1u << face_suit(f));
  }
};
constexpr SuitBits kSuitBits{};

// Jokers among Size face ids that are BJ (for a joker-only play).
template <int Size>
inline int big_jokers(const std::uint8_t* f) {
  int bj = 0;
  for (int i = 0; i < Size; ++i) bj += f[i] == kBJ;
  return bj;
}

// Classify Size (1..5) face ids without building Cards (the batch path): the symbol counts
// (five_table.hpp) are a sum of one word per face. Returns false if the faces form no play;
// throws CardError on a bad id or more copies than the table's decks.
// What the face-id path reads for every row, set up once per batch (a local: no store of a
// result can alias it, so nothing is reloaded per row).
struct FaceContext {
  const Rules* rules;
  const std::uint32_t* table;  // five_table.hpp, for the level and variants
  const std::uint16_t* disp;   // the perfect hash's displacements
  std::uint64_t over;          // (3 - decks) per nibble: a count + over with bit 2 set is > decks
  std::uint8_t power[kNumRanks];
};

FaceContext face_context(int level, const Rules& rules) {
  FaceContext x;
  x.rules = &rules;
  x.table = detail::five_table_of(level, rules);
  x.disp = detail::g_five_disp;
  x.over = std::uint64_t(kMaxCopies - table_of(rules).decks) * detail::kNibbleOnes;
  for (int r = 0; r < kNumRanks; ++r) x.power[r] = std::uint8_t(rank_power(r, level));
  return x;
}

template <int Size>
inline bool classify_faces(const std::uint8_t* f, const FaceContext& x, std::uint32_t* key,
                           Kind* kind) {
  const Rules& rules = *x.rules;
  const std::uint8_t* power = x.power;
  std::uint64_t counts = 0;
  unsigned suits = 0;
  for (int i = 0; i < Size; ++i) {
    counts += detail::kFaceCounts.w[f[i]];
    suits |= kSuitBits.b[f[i]];
  }
  // R2, R18: at most d copies of a face (d = decks: 3, or 2 at 4p2d). A face with more has
  // more than d cards of its rank (or jokers): only then are the faces read one by one.
  if ((counts + x.over) & (detail::kNibbleBit2 | detail::kBadNibble)) [[unlikely]] {
    cards_from_faces(f, Size, table_of(rules));  // throws the CardError naming the face
  }
  const int j = int((counts >> 44) & 15);
  if constexpr (Size == 1) {
    *kind = Kind::kSingle;
    *key = small_key(j ? (f[0] == kSJ ? kSJPower : kBJPower) : power[f[0] >> 2]);
    return true;
  } else if constexpr (Size == 2 || Size == 3) {
    *kind = Size == 2 ? Kind::kPair : Kind::kTriple;
    if (j == Size) {
      const int bj = big_jokers<Size>(f);
      *key = joker_key(Size, Size - bj, bj, rules);
      return true;
    }
    // The naturals are of one rank: one nonzero nibble (counts <= 3 here: two bits).
    const std::uint64_t nat = counts & ~detail::kJokerNibble;
    const std::uint64_t nz = (nat | (nat >> 1)) & detail::kNibbleOnes;
    if (__builtin_popcountll(nz) != 1) return false;
    const int p = __builtin_ctzll(nz);
    *key = small_key(power[(p >> 3) | ((p & 4) << 1)]);  // nibble at bit p: rank (layout)
    return true;
  } else if constexpr (Size == 5) {
    const bool suited = __builtin_popcount(suits) == 1;  // (five jokers: no suit, in the table)
    const std::uint32_t k = x.table[detail::five_slot(counts, x.disp) * 2 + suited];
    if (k == kNoPlay) return false;
    *key = k;
    *kind = five_kind_of_key(k);
    return true;
  } else {
    return false;
  }
}

using ClassifyFn = bool (*)(const std::uint8_t*, const FaceContext&, std::uint32_t*, Kind*);
ClassifyFn classifier(int size) {
  switch (size) {
    case 1:
      return &classify_faces<1>;
    case 2:
      return &classify_faces<2>;
    case 3:
      return &classify_faces<3>;
    case 4:
      return &classify_faces<4>;
    case 5:
      return &classify_faces<5>;
    default:
      throw CardError("a play has 1, 2, 3 or 5 cards; rows of " + std::to_string(size) + " faces");
  }
}

template <int Size>
void classify_rows(const std::uint8_t* faces, std::size_t n, const FaceContext& x,
                   std::uint8_t* kinds, std::uint32_t* keys) {
  for (std::size_t i = 0; i < n; ++i) {
    Kind kind;
    std::uint32_t key;
    const bool ok = classify_faces<Size>(faces + i * Size, x, &key, &kind);
    kinds[i] = ok ? std::uint8_t(kind) : 255;
    keys[i] = ok ? key : 0;
  }
}

}  // namespace

void classify_batch(const std::uint8_t* faces, std::size_t n, int stride, const std::uint8_t* sizes,
                    int fixed_size, int level, const Rules& rules, std::uint8_t* kinds,
                    std::uint32_t* keys) {
  const FaceContext x = face_context(level, rules);
  if (!sizes && stride == fixed_size) {  // dense rows: one specialised loop
    switch (fixed_size) {
      case 1:
        return classify_rows<1>(faces, n, x, kinds, keys);
      case 2:
        return classify_rows<2>(faces, n, x, kinds, keys);
      case 3:
        return classify_rows<3>(faces, n, x, kinds, keys);
      case 5:
        return classify_rows<5>(faces, n, x, kinds, keys);
      default:
        break;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const int size = sizes ? sizes[i] : fixed_size;
    Kind kind;
    std::uint32_t key;
    const bool ok = classifier(size)(faces + i * std::size_t(stride), x, &key, &kind);
    kinds[i] = ok ? std::uint8_t(kind) : 255;
    keys[i] = ok ? key : 0;
  }
}

namespace {

[[noreturn]] void not_a_play(std::size_t i, bool in_a, const std::uint8_t* row, int k) {
  throw IllegalPlay("row " + std::to_string(i) + " of " + (in_a ? "a" : "b") + ": '" +
                    cards_text(cards_from_faces(row, k)) + "' is not a play");
}

// Rows of KA against rows of KB faces (0: sizes given at run time through fa, fb).
template <int KA, int KB>
void beats_rows(const std::uint8_t* a, const std::uint8_t* b, std::size_t n, int ka, int kb,
                const FaceContext& x, ClassifyFn fa, ClassifyFn fb, bool* out) {
  for (std::size_t i = 0; i < n; ++i) {
    Kind kind_a, kind_b;
    std::uint32_t key_a, key_b;
    const std::uint8_t* ra = a + i * std::size_t(KA ? KA : ka);
    const std::uint8_t* rb = b + i * std::size_t(KB ? KB : kb);
    bool ok_a, ok_b;
    if constexpr (KA != 0)
      ok_a = classify_faces<KA>(ra, x, &key_a, &kind_a);
    else
      ok_a = fa(ra, x, &key_a, &kind_a);
    if constexpr (KB != 0)
      ok_b = classify_faces<KB>(rb, x, &key_b, &kind_b);
    else
      ok_b = fb(rb, x, &key_b, &kind_b);
    if (!ok_a) [[unlikely]]
      not_a_play(i, true, ra, ka);
    if (!ok_b) [[unlikely]]
      not_a_play(i, false, rb, kb);
    out[i] = ka == kb && key_a > key_b;  // R7: compare by the key
  }
}

}  // namespace

void beats_batch(const std::uint8_t* a, const std::uint8_t* b, std::size_t n, int ka, int kb,
                 int level, const Rules& rules, bool* out) {
  const FaceContext x = face_context(level, rules);
  const ClassifyFn fa = classifier(ka), fb = classifier(kb);
  if (ka == 5 && kb == 5) return beats_rows<5, 5>(a, b, n, ka, kb, x, fa, fb, out);
  beats_rows<0, 0>(a, b, n, ka, kb, x, fa, fb, out);
}

}  // namespace daguai
