#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include <daguai/core/errors.hpp>
#include <daguai/core/table.hpp>
#include <daguai/plays/five.hpp>
#include <daguai/plays/moves.hpp>

namespace daguai {

void PlayList::reserve(std::size_t n) {
  if (n <= cap_) return;
  void* p =
      std::realloc(static_cast<void*>(data_), n * sizeof(Play));  // Play is trivially copyable
  if (!p) throw std::bad_alloc();
  data_ = static_cast<Play*>(p);
  cap_ = n;
}

namespace detail {
namespace {

// Sub-multiset table: for each rank byte h (four 2-bit suit counts) and size k = 0..5, the
// rank bytes g <= h (fieldwise) with k cards, ascending. 10,000 entries + offsets (~14 KiB).
struct SubTable {
  std::vector<std::uint8_t> data;
  std::array<std::array<std::uint16_t, 7>, 256> off{};
  SubTable() {
    for (int h = 0; h < 256; ++h) {
      for (int k = 0; k <= 5; ++k) {
        off[h][k] = std::uint16_t(data.size());
        for (int g = 0; g < 256; ++g) {
          int total = 0;
          bool fits = true;
          for (int s = 0; s < 4; ++s) {
            const int gs = (g >> (2 * s)) & 3, hs = (h >> (2 * s)) & 3;
            fits &= gs <= hs;
            total += gs;
          }
          if (fits && total == k) data.push_back(std::uint8_t(g));
        }
      }
      off[h][6] = std::uint16_t(data.size());
    }
  }
};
const SubTable kSub;

inline const std::uint8_t* subs_begin(int h, int k) { return kSub.data.data() + kSub.off[h][k]; }
inline const std::uint8_t* subs_end(int h, int k) { return kSub.data.data() + kSub.off[h][k + 1]; }

inline int low_bit(unsigned x) { return __builtin_ctz(x); }

// The Gen constructor reads rank bytes straight from the Cards words.
static_assert(std::endian::native == std::endian::little, "Cards words are read as bytes");
constexpr std::uint64_t kRankBytes = 0x000000FFFFFFFFFFULL;  // hi: ranks 8-12
// Bit i set when byte i of x is not zero.
constexpr unsigned nonzero_bytes(std::uint64_t x) {
  x |= x >> 4;
  x |= x >> 2;
  x |= x >> 1;
  return unsigned(((x & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56);
}
// rank_power(r, level) for every level and rank.
struct RankPowers {
  std::uint8_t p[kNumRanks][kNumRanks]{};
  constexpr RankPowers() {
    for (int l = 0; l < kNumRanks; ++l)
      for (int r = 0; r < kNumRanks; ++r) p[l][r] = std::uint8_t(rank_power(r, l));
  }
};
inline constexpr RankPowers kRankPowers{};
// C(n, k) for n = 0..13, k = 0..5 (the flush writer's room).
struct Binomials {
  std::uint16_t c[14][6]{};
  constexpr Binomials() {
    for (int n = 0; n < 14; ++n) {
      c[n][0] = 1;
      for (int k = 1; k < 6 && n > 0; ++k) c[n][k] = std::uint16_t(c[n - 1][k - 1] + c[n - 1][k]);
    }
  }
};
inline constexpr Binomials kChoose{};

constexpr std::uint32_t kMaxFlushKey =
    (std::uint32_t(int(Kind::kFlush) - int(Kind::kStraight)) << 20) | 0xFFFFF;
constexpr std::uint32_t kMaxStraightFlushKey = five_key(Kind::kStraightFlush, kNumRanks - 1);

// For every rank set, how many of the sequence masks of m ranks (five.hpp) lie inside it (the
// flush count takes them out): the masks' indicator summed over subsets, per wrap and m.
// 96 KiB, built on first use (it reads five.cpp's table, so not at static initialization).
struct SequencesInside {
  std::uint16_t n[2][3][1 << kNumRanks];
  SequencesInside() {
    for (int w = 0; w < 2; ++w)
      for (int m = 3; m <= 5; ++m) {
        std::uint16_t* f = n[w][m - 3];
        std::fill(f, f + (1 << kNumRanks), std::uint16_t(0));
        for (std::uint16_t mask : sequence_masks(w != 0, m)) ++f[mask];
        for (int b = 0; b < kNumRanks; ++b)
          for (int x = 0; x < (1 << kNumRanks); ++x)
            if ((x >> b) & 1) f[x] = std::uint16_t(f[x] + f[x ^ (1 << b)]);
      }
  }
};
const SequencesInside& sequences_inside() {
  static const SequencesInside table;
  return table;
}

// ---------------------------------------------------------------------------------------
// Counting by arithmetic (count_plays' fast path, auto / high): the number of legal plays of
// each family from per-rank and per-suit summaries of the hand, without enumerating. Every
// figure equals what Gen<..., kCount> counts (tests/plays/test_rules_count_fast.py checks
// both against the written plays); positions it does not cover return false (Gen counts).
//
// Per rank byte h (four 2-bit suit counts): nsub(h, k), the sub-multisets of k cards, k = 1..5,
// packed in 12-bit lanes (sums over 13 ranks stay below 4096), and products of two of them
// (the two-rank families: one rank gives a cards, another b).
struct RankSums {
  std::uint64_t s[256];   // lane k - 1: nsub(h, k)
  std::uint64_t px[256];  // lanes: n4 n1, n3 n2, n3 n1, n2 n2, n2 n1 (12 bits each)
  std::uint8_t ds[256];   // suits present (= nsub(h, 1))
  RankSums() {
    for (int h = 0; h < 256; ++h) {
      std::uint64_t n[6];
      for (int k = 0; k <= 5; ++k) n[k] = std::uint64_t(subs_end(h, k) - subs_begin(h, k));
      s[h] = n[1] | n[2] << 12 | n[3] << 24 | n[4] << 36 | n[5] << 48;
      px[h] = n[4] * n[1] | (n[3] * n[2]) << 12 | (n[3] * n[1]) << 24 | (n[2] * n[2]) << 36 |
              (n[2] * n[1]) << 48;
      ds[h] = std::uint8_t(n[1]);
    }
  }
};
const RankSums kRankSums;
constexpr std::uint64_t lane(std::uint64_t x, int i) { return (x >> (12 * i)) & 0xFFF; }

constexpr std::uint64_t choose(std::uint64_t n, int k) {
  std::uint64_t r = 1;
  for (int i = 0; i < k; ++i) r = r * (n - std::uint64_t(i)) / std::uint64_t(i + 1);
  return n < std::uint64_t(k) ? 0 : r;
}

// ranks_of_power_from (cards.hpp, R4) as a table.
struct RanksFromPower {
  std::uint16_t m[kNumRanks][kLevelPower + 1]{};
  constexpr RanksFromPower() {
    for (int l = 0; l < kNumRanks; ++l)
      for (int p = 0; p <= kLevelPower; ++p) m[l][p] = std::uint16_t(ranks_of_power_from(l, p));
  }
};
inline constexpr RanksFromPower kRanksFromPower{};
inline unsigned ranks_with_power_from(int level, int p0) {
  return p0 > kLevelPower ? 0u : kRanksFromPower.m[level][p0];
}

// Bit i of a byte -> byte i all ones: rank masks to the presence bits of Cards words.
struct ExpandBytes {
  std::uint64_t lo[256];
  constexpr ExpandBytes() : lo{} {
    for (int b = 0; b < 256; ++b)
      for (int i = 0; i < 8; ++i)
        if ((b >> i) & 1) lo[b] |= std::uint64_t(0xFF) << (8 * i);
  }
};
inline constexpr ExpandBytes kExpand{};

class FastCount {
 public:
  FastCount(const Cards& hand, int level, const Rules& rules)
      : level_(level), rules_(rules), high_(rules.wild != Wild::kAuto), hand_(hand) {
    power_ = (level >= 0 && level < kNumRanks) ? kRankPowers.p[level] : nullptr;
    sj_ = hand.sj();
    bj_ = hand.bj();
    jt_ = sj_ + bj_;
  }
  // The summaries the families other than singles read.
  void prepare() {
    const Cards& hand = hand_;
    const std::uint64_t lo = hand.lo, hi = hand.hi & kRankBytes;
    std::memcpy(cfg_, &lo, 8);
    std::memcpy(cfg_ + 8, &hi, 5);
    for (int j = 0; j <= 6; ++j) {
      const int a_hi = std::min(sj_, j), a_lo = std::max(0, j - bj_);
      ncomp_[j] = a_hi >= a_lo ? std::uint64_t(a_hi - a_lo + 1) : 0;
    }
    present_ = rank_mask(hand);
  }
  bool ok() const { return power_ != nullptr; }

  unsigned ranks_from_power(int p0) const { return ranks_with_power_from(level_, p0); }
  // nsub sums over the ranks held in `mask` only (what the groups' counts read).
  std::uint64_t sum_over(unsigned mask) const {
    std::uint64_t s = 0;
    for (unsigned x = present_ & mask; x; x &= x - 1) s += kRankSums.s[cfg_[low_bit(x)]];
    return s;
  }
  // The sums and products over all ranks held (the leads' and two-rank counts read).
  void sums_all() {
    s_all_ = px_all_ = 0;
    for (unsigned x = present_; x; x &= x - 1) {
      const int h = cfg_[low_bit(x)];
      s_all_ += kRankSums.s[h];
      px_all_ += kRankSums.px[h];
    }
  }
  // Sums over the ranks in `ok` and over all ranks (present ranks only).
  void sums(unsigned ok) {
    s_all_ = px_all_ = s_ok_ = px_ok_ = 0;
    for (unsigned x = present_; x; x &= x - 1) {
      const int r = low_bit(x);
      const int h = cfg_[r];
      const std::uint64_t s = kRankSums.s[h], px = kRankSums.px[h];
      s_all_ += s;
      px_all_ += px;
      if ((ok >> r) & 1) {
        s_ok_ += s;
        px_ok_ += px;
      }
    }
  }
  // The threshold power of a five-card kind: its plays beat from that group power on.
  static unsigned five_power_from(Kind kind, std::uint32_t min_key) {
    const std::uint32_t base = five_key(kind, 0);
    return min_key <= base ? 0u : min_key - base;
  }

  // Leading (R8): every family.
  void lead(PlayCounts* c) {
    prepare();
    sums_all();
    const std::uint64_t* n = ncomp_;
    const std::uint64_t x1 = lane(s_all_, 0), x2 = lane(s_all_, 1), x3 = lane(s_all_, 2),
                        x4 = lane(s_all_, 3), x5 = lane(s_all_, 4);
    c->family[0] = std::uint32_t(x1 + (sj_ > 0) + (bj_ > 0));
    c->family[1] = std::uint32_t(x2 + x1 * n[1] + n[2]);
    c->family[2] = std::uint32_t(x3 + x2 * n[1] + x1 * n[2] + n[3]);
    c->family[3] = std::uint32_t(x5 + x4 * n[1] + x3 * n[2] + x2 * n[3] + x1 * n[4] + n[5]);
    c->family[4] = std::uint32_t(two_rank_all(s_all_, px_all_, jt_ >= 3));
    c->family[5] = std::uint32_t(sequences_all());
    c->family[6] = std::uint32_t(flushes_all());
    total(c);
  }

  // Following a top of 1, 2 or 3 cards, or a five-card top of a kind above the flush (full
  // house, four plus one, five of a kind); false for the other tops (Gen counts them).
  static constexpr int kDone = -1, kNotHandled = -2;
  // kDone, kNotHandled (Gen counts every family), or the one family Gen must count (the
  // others are in *c).
  int follow(const Play& top, PlayCounts* c) {
    const std::uint32_t min_key = top.key + 1;
    const int size = top.size();
    const std::uint64_t* n = ncomp_;
    if (size <= 3) {
      const unsigned ok = ranks_from_power(int((min_key + 1) >> 1));  // small_key(p) >= min_key
      std::uint64_t k = 0;
      if (size == 1) {  // the faces held of those ranks
        k = std::uint64_t(__builtin_popcountll(hand_.present_lo() & kExpand.lo[ok & 0xFF]) +
                          __builtin_popcountll(hand_.present_hi() & kExpand.lo[ok >> 8])) +
            (sj_ > 0 && small_key(kSJPower) >= min_key) +
            (bj_ > 0 && small_key(kBJPower) >= min_key);
        c->family[0] = std::uint32_t(k);
        c->total = k;
        return kDone;
      }
      prepare();
      s_ok_ = sum_over(ok);
      const std::uint64_t x1 = lane(s_ok_, 0), x2 = lane(s_ok_, 1), x3 = lane(s_ok_, 2);
      if (size == 2) {
        k = x2 + x1 * n[1] + joker_only(2, min_key);
      } else {
        k = x3 + x2 * n[1] + x1 * n[2] + joker_only(3, min_key);
      }
      c->family[std::size_t(size - 1)] = std::uint32_t(k);
      total(c);
      return kDone;
    }
    if (size != 5) return kDone;  // no play of another size (playable_top filters them)
    const Kind kind = top.kind();
    // a straight flush top and two single suited cards + 3 jokers (a straight flush): Gen
    if (kind == Kind::kStraightFlush && jt_ >= 3) return kNotHandled;
    prepare();
    // five of a kind: ranks whose five_key beats
    {
      s_ok_ = sum_over(
          ranks_from_power(int(std::min(five_power_from(Kind::kFiveOfAKind, min_key), 13u))));
      const std::uint64_t x1 = lane(s_ok_, 0), x2 = lane(s_ok_, 1), x3 = lane(s_ok_, 2),
                          x4 = lane(s_ok_, 3), x5 = lane(s_ok_, 4);
      c->family[3] = std::uint32_t(x5 + x4 * n[1] + x3 * n[2] + x2 * n[3] + x1 * n[4] +
                                   joker_only(5, min_key));
    }
    if (kind == Kind::kFiveOfAKind) {  // nothing else beats a five of a kind
      total(c);
      return kDone;
    }
    // a straight flush top (no three jokers): no two-rank play nor flush beats it, the
    // sequences' straight flushes by their key (FastSelect's walk)
    if (kind == Kind::kStraightFlush) return 5;
    if (kind == Kind::kStraight || kind == Kind::kFlush) {
      // every two-rank play beats (full house and above); a straight top: every flush, the
      // sequences by their key (FastSelect); a flush top: every straight flush, the flushes by
      // key (Gen)
      sums_all();
      c->family[4] = std::uint32_t(two_rank_all(s_all_, px_all_, jt_ >= 3));
      if (kind == Kind::kStraight) {
        c->family[6] = std::uint32_t(flushes_all());
        return 5;
      }
      c->family[5] = std::uint32_t(straight_flushes_all());
      return 6;
    }
    // two single cards + 3 jokers may be straight flushes: Gen counts those hands
    if (jt_ >= 3) return kNotHandled;
    // two-rank: the top's own kind beats from a power on, the kind above entirely
    sums(ranks_from_power(int(std::min(five_power_from(kind, min_key), 13u))));
    c->family[4] = std::uint32_t(two_rank_follow(kind));
    c->family[5] = std::uint32_t(straight_flushes_all());  // straights do not beat
    total(c);
    return kDone;
  }

 private:
  // The sequence family's straight flushes (every one): per suit, the sequence masks inside
  // its ranks.
  std::uint64_t straight_flushes_all() const {
    const std::uint64_t* n = ncomp_;
    std::uint64_t sf = 0;
    const bool wrap = rules_.wrap_straights;
    const SequencesInside& inside = sequences_inside();
    for (int s = 0; s < kNumSuits; ++s) {
      const unsigned ranks = suit_rank_mask(hand_, s);
      if (__builtin_popcount(ranks) < 3) continue;
      for (int m = 5; m >= 3; --m) sf += n[5 - m] * inside.n[wrap][m - 3][ranks];
    }
    return sf;
  }
  static void total(PlayCounts* c) {
    std::size_t t = 0;
    for (std::uint32_t f : c->family) t += f;
    c->total = t;
  }
  std::uint64_t joker_only(int size, std::uint32_t min_key) const {
    if (jt_ < size) return 0;
    std::uint64_t k = 0;
    for (int a = std::min(sj_, size); a >= 0 && size - a <= bj_; --a)
      k += joker_only_key(size, a, size - a, rules_) >= min_key;
    return k;
  }
  // Every two-rank play (leading): ordered pairs of distinct ranks X (a cards), Y (b cards).
  std::uint64_t two_rank_all(std::uint64_t s, std::uint64_t px, bool with_three_jokers) const {
    const std::uint64_t x1 = lane(s, 0), x2 = lane(s, 1), x3 = lane(s, 2), x4 = lane(s, 3);
    const std::uint64_t* n = ncomp_;
    std::uint64_t k = n[0] * ((x4 * x1 - lane(px, 0)) + (x3 * x2 - lane(px, 1)));
    k += n[1] * ((x3 * x1 - lane(px, 2)) + (x2 * x2 - lane(px, 3)) / 2);
    k += n[2] * (x2 * x1 - lane(px, 4));
    if (with_three_jokers) {
      std::uint64_t sq = 0;
      for (int r = 0; r < kNumRanks; ++r)
        sq += std::uint64_t(kRankSums.ds[cfg_[r]]) * kRankSums.ds[cfg_[r]];
      k += n[3] * ((x1 * x1 - sq) / 2);
    }
    return k;
  }
  // Following a full house or four plus one (no three jokers): the patterns of the top's
  // kind count when their group rank's power is >= the threshold of sums() (ok), the
  // patterns of a higher kind entirely, of a lower kind not at all.
  std::uint64_t two_rank_follow(Kind top_kind) const {
    const std::uint64_t* n = ncomp_;
    const auto all = [&](int i) { return lane(s_all_, i - 1); };
    const auto okv = [&](int i) { return lane(s_ok_, i - 1); };
    // ordered (X group with a cards, Y other with b): X in ok, or every X
    const auto ordered = [&](int a, int b, int pxl, bool restricted) {
      if (!restricted) return all(a) * all(b) - lane(px_all_, pxl);
      return okv(a) * all(b) - lane(px_ok_, pxl);
    };
    const bool fh = top_kind == Kind::kFullHouse;  // else four plus one: only 4+1 patterns beat
    std::uint64_t k = 0;
    // j = 0: (4,1) four plus one; (3,2) full house
    k += n[0] * (ordered(4, 1, 0, !fh) + (fh ? ordered(3, 2, 1, true) : 0));
    // j = 1: (3,1) four plus one; (2,2) full house, both may be the triple
    std::uint64_t j1 = ordered(3, 1, 2, !fh);
    if (fh) {
      const std::uint64_t pairs_all = (all(2) * all(2) - lane(px_all_, 3)) / 2;
      const std::uint64_t ok2 = okv(2), sq_ok = lane(px_ok_, 3);
      const std::uint64_t pairs_ok = (ok2 * ok2 - sq_ok) / 2;
      if (high_) {
        const std::uint64_t no2 = all(2) - ok2, sq_no = lane(px_all_, 3) - sq_ok;
        j1 += pairs_all - (no2 * no2 - sq_no) / 2;
      } else {
        j1 += pairs_ok;
      }
    }
    k += n[1] * j1;
    // j = 2: (2,1) four plus one
    k += n[2] * ordered(2, 1, 4, !fh);
    return k;
  }
  // Sequence masks x the faces of each rank (leading): by the mask's top rank.
  std::uint64_t sequences_all() const {
    std::uint64_t d[kNumRanks];
    for (int r = 0; r < kNumRanks; ++r) d[r] = kRankSums.ds[cfg_[r]];
    const bool wrap = rules_.wrap_straights;
    std::uint64_t e[3] = {0, 0, 0};  // masks of 3, 4, 5 ranks
    const auto add = [&](std::uint64_t top, std::uint64_t a, std::uint64_t b, std::uint64_t c,
                         std::uint64_t dd) {
      if (!top) return;
      const std::uint64_t ab = a * b, cd = c * dd, s1 = a + b, s2 = c + dd;
      e[0] += top * (s1 * s2 + ab + cd);
      e[1] += top * (ab * s2 + cd * s1);
      e[2] += top * (ab * cd);
    };
    for (int t = 0; t < kNumRanks; ++t) {
      const auto below = [&](int i) -> std::uint64_t {
        const int r = t - i;
        if (r >= 0) return d[r];
        return wrap ? d[r + kNumRanks] : 0;
      };
      add(d[t], below(1), below(2), below(3), below(4));
    }
    if (!wrap) add(d[12], d[0], d[1], d[2], d[3]);  // A2345: the ace below the 2
    const std::uint64_t* n = ncomp_;
    return n[0] * e[2] + n[1] * e[1] + n[2] * e[0];
  }
  // Flush natural parts (leading): per suit, the multisets of m cards on >= 3 ranks minus the
  // sequences (family 3), from the ranks held once or more (k), twice or more (k2), thrice.
  std::uint64_t flushes_all() const {
    const auto& inside = sequences_inside().n[rules_.wrap_straights];
    std::uint64_t total = 0;
    for (int s = 0; s < kNumSuits; ++s) total += flushes_in_suit(s, inside);
    return total;
  }

 public:
  // The flushes of suit s (prepare() first); `inside` is sequences_inside() at the rules' wrap.
  using Inside = std::uint16_t[3][1 << kNumRanks];
  [[gnu::always_inline]] std::uint64_t flushes_in_suit(int s, const Inside& inside) const {
    const std::uint64_t* n = ncomp_;
    std::uint64_t total = 0;
    const std::uint64_t lo = hand_.lo, hi = hand_.hi & Cards::kHiNatural;
    {
      const unsigned ranks = suit_rank_mask(hand_, s);
      const std::uint64_t k = std::uint64_t(__builtin_popcount(ranks));
      if (k < 3) return 0;
      // suit s's 2-bit field of every rank byte: bit 1 set = two or more, both = three
      const std::uint64_t f1 = 0x0202020202020202ULL << (2 * s);
      const std::uint64_t k2 =
          std::uint64_t(__builtin_popcountll(lo & f1) + __builtin_popcountll(hi & f1));
      const std::uint64_t k3 = std::uint64_t(__builtin_popcountll(lo & (lo << 1) & f1) +
                                             __builtin_popcountll(hi & (hi << 1) & f1));
      const std::uint64_t m3 = choose(k, 3) - inside[0][ranks];
      const std::uint64_t m4 = choose(k, 4) + k2 * choose(k - 1, 2) - inside[1][ranks];
      const std::uint64_t m5 = choose(k, 5) + k2 * choose(k - 1, 3) + k3 * choose(k - 1, 2) +
                               choose(k2, 2) * (k - 2) - inside[2][ranks];
      total += n[0] * m5 + n[1] * m4 + n[2] * m3;
    }
    return total;
  }

 private:
  int level_;
  const Rules& rules_;
  bool high_;
  Cards hand_;
  std::uint8_t cfg_[13];
  const std::uint8_t* power_;
  unsigned present_ = 0;
  int sj_ = 0, bj_ = 0, jt_ = 0;
  std::uint64_t ncomp_[7];
  std::uint64_t s_all_ = 0, px_all_ = 0, s_ok_ = 0, px_ok_ = 0;
};

// ---------------------------------------------------------------------------------------
// Selecting by arithmetic (play_at's and count_plays' fast paths, auto / high): the index-th
// play of one family in the generators' order (Gen below), found by skipping whole blocks of
// plays counted from the hand's rank bytes instead of enumerating them, and the count of the
// sequence family by the same walk. Every play equals the one Gen<..., kSelect> writes
// (tests/plays/test_rules_count_fast.py checks both against the written plays); a family it
// does not cover answers kFallback (Gen selects).
class FastSelect {
 public:
  static constexpr int kFound = 1, kMissing = 0, kFallback = -1;

  FastSelect(const Cards& hand, int level, const Rules& rules, const Play* top)
      : level_(level),
        copies_(table_of(rules).decks),
        high_(rules.wild != Wild::kAuto),
        wrap_(rules.wrap_straights),
        rules_(rules),
        hand_(hand) {
    const std::uint64_t lo = hand.lo, hi = hand.hi & kRankBytes;
    std::memcpy(cfg_, &lo, 8);
    std::memcpy(cfg_ + 8, &hi, 5);
    power_ = kRankPowers.p[level];
    sj_ = hand.sj();
    bj_ = hand.bj();
    jt_ = sj_ + bj_;
    // Joker compositions as Gen lists them: SJ count a from min(sj, j) down.
    for (int j = 0; j <= 5; ++j) {
      const int a_hi = std::min(sj_, j), a_lo = std::max(0, j - bj_);
      ncomp_[j] = a_hi >= a_lo ? std::size_t(a_hi - a_lo + 1) : 0;
    }
    if (top) {
      follow_ = true;
      min_key_ = top->key + 1;
    }
  }

  // The index-th play of family f (1..6; singles are play_at's own) into *out.
  int select(int f, std::size_t index, Play* out) {
    switch (f) {
      case 1:
        return groups(2, Kind::kPair, index, out);
      case 2:
        return groups(3, Kind::kTriple, index, out);
      case 3:
        return groups(5, Kind::kFiveOfAKind, index, out);
      case 4:
        return two_ranks(index, out);
      case 5:
        return sequences(&index, out);
      case 6:
        return flushes(index, out);
      default:
        return kFallback;
    }
  }
  // The sequence family's plays (family 5), counted by the walk sequences() selects with.
  std::size_t count_sequences() {
    std::size_t index = ~std::size_t(0);
    sequences(&index, nullptr);
    return ~std::size_t(0) - index;
  }

 private:
  std::uint64_t comp(int j, std::size_t i) const {
    const std::uint64_t a = std::uint64_t(std::min(sj_, j)) - i;
    return (a | (std::uint64_t(j) - a) << 2) << 40;
  }
  void put(const Cards& nat, int j, std::size_t c, std::uint32_t key, Kind kind, int size,
           Play* out) const {
    out->cards.lo = nat.lo;
    out->cards.hi = j ? nat.hi | comp(j, c) : nat.hi;
    out->key = key;
    out->info = play_info(kind, size, j, level_, copies_);
  }
  static std::size_t nsub(int h, int k) { return std::size_t(subs_end(h, k) - subs_begin(h, k)); }

  // Pairs, triples, five of a kind (Gen::groups, Gen::fives): per rank (ascending) whose key
  // beats, per joker count j, a block of sub-multisets (ascending) x compositions; then the
  // joker-only plays.
  int groups(int size, Kind kind, std::size_t idx, Play* out) const {
    const int jmax = size == 5 ? 4 : size - 1;
    for (int r = 0; r < kNumRanks; ++r) {
      const int h = cfg_[r];
      if (!h) continue;
      const std::uint32_t key = size == 5 ? five_key(kind, power_[r]) : small_key(power_[r]);
      if (follow_ && key < min_key_) continue;
      for (int j = 0; j <= jmax && j <= jt_; ++j) {
        const std::size_t nc = ncomp_[j], n = nsub(h, size - j) * nc;
        if (idx >= n) {
          idx -= n;
          continue;
        }
        put(rank_cards(r, subs_begin(h, size - j)[idx / nc]), j, idx % nc, key, kind, size, out);
        return kFound;
      }
    }
    if (jt_ < size) return kMissing;
    for (std::size_t i = 0; i < ncomp_[size]; ++i) {
      const int a = std::min(sj_, size) - int(i);
      const std::uint32_t key = joker_only_key(size, a, size - a, rules_);
      if (follow_ && key < min_key_) continue;
      if (idx-- == 0) {
        put(Cards{}, size, i, key, kind, size, out);
        return kFound;
      }
    }
    return kMissing;
  }

  // Two-rank fives (Gen::two_ranks) without three jokers: per pattern (j, a, b), ranks r1 < r2
  // with a and b cards; the first part varies slowest (rank, then sub-multiset), then the
  // second, then the composition. A rank pair beats by its group power alone, so the second
  // ranks that go with r1 are all ranks above it, those whose power beats (ok), or none.
  int two_ranks(std::size_t idx, Play* out) const {
    if (jt_ >= 3) return kFallback;  // two single suited cards + 3 jokers: Gen
    if (follow_ && min_key_ > kMaxStraightFlushKey) return kMissing;
    constexpr unsigned kAll = (1u << kNumRanks) - 1;
    for (int j = 0; j <= jt_; ++j) {
      const int m = 5 - j;
      const std::size_t nc = ncomp_[j];
      for (int a = m - 1; a >= 1; --a) {
        const int b = m - a;
        if (a > 4 || b > 4) continue;
        const TwoRankShape shape = two_rank_shape(a, b);
        const Kind kind = shape.four ? Kind::kFourPlusOne : Kind::kFullHouse;
        unsigned ok = kAll;
        if (follow_) {
          ok = 0;
          for (int r = 0; r < kNumRanks; ++r)
            if (five_key(kind, power_[r]) >= min_key_) ok |= 1u << r;
        }
        // cb summed over the ranks of a set above r1: suffix sums over all and ok ranks
        std::size_t cb[kNumRanks], above_all[kNumRanks + 1], above_ok[kNumRanks + 1];
        above_all[kNumRanks] = above_ok[kNumRanks] = 0;
        for (int r = kNumRanks - 1; r >= 0; --r) {
          cb[r] = nsub(cfg_[r], b);
          above_all[r] = above_all[r + 1] + cb[r];
          above_ok[r] = above_ok[r + 1] + (((ok >> r) & 1) ? cb[r] : 0);
        }
        for (int r1 = 0; r1 < kNumRanks; ++r1) {
          const std::size_t ca = nsub(cfg_[r1], a);
          if (!ca) continue;
          const bool ok1 = (ok >> r1) & 1;
          unsigned with = kAll;  // the second ranks that beat with r1
          if (follow_) {
            if (shape.first && shape.second)
              with = high_ ? (ok1 ? kAll : ok) : (ok1 ? ok : 0u);
            else if (shape.first)
              with = ok1 ? kAll : 0u;
            else
              with = ok;
          }
          const std::size_t ys = with == kAll ? above_all[r1 + 1] : with ? above_ok[r1 + 1] : 0;
          const std::size_t per_x = ys * nc, n = ca * per_x;
          if (idx >= n) {
            idx -= n;
            continue;
          }
          const std::size_t xi = idx / per_x;
          std::size_t yi = (idx % per_x) / nc;
          const std::size_t c = idx % nc;
          for (int r2 = r1 + 1; r2 < kNumRanks; ++r2) {
            if (!((with >> r2) & 1)) continue;
            if (yi >= cb[r2]) {
              yi -= cb[r2];
              continue;
            }
            const Cards x = rank_cards(r1, subs_begin(cfg_[r1], a)[xi]);
            const Cards y = rank_cards(r2, subs_begin(cfg_[r2], b)[yi]);
            const int p = group_power(shape, power_[r1], power_[r2], high_);
            put(Cards{x.lo + y.lo, x.hi + y.hi}, j, c, five_key(kind, std::uint32_t(p)), kind, 5,
                out);
            return kFound;
          }
          return kMissing;
        }
      }
    }
    return kMissing;
  }

  // Sequences (Gen::sequences): per m = 5, 4, 3 and sequence mask held, a block of one face
  // per rank (the lowest rank's suit varies slowest) x compositions; a mask whose straight
  // does not beat the top gives only its straight flushes, one block per suit holding it.
  // With out null, counts: *idx goes down by every play.
  int sequences(std::size_t* pidx, Play* out) const {
    std::size_t& idx = *pidx;
    if (follow_ && min_key_ > kMaxStraightFlushKey) return kMissing;
    const unsigned present = rank_mask(hand_);
    unsigned suit_ranks[kNumSuits];
    for (int s = 0; s < kNumSuits; ++s) suit_ranks[s] = suit_rank_mask(hand_, s);
    for (int m = 5; m >= 3; --m) {
      const int j = 5 - m;
      if (j > jt_) break;
      const std::size_t nc = ncomp_[j];
      for (std::uint16_t mask : sequence_masks(wrap_, m)) {
        if ((mask & present) != mask) continue;
        const std::uint32_t t = std::uint32_t(straight_key(straight_windows(mask, wrap_), high_));
        const std::uint32_t key_st = five_key(Kind::kStraight, t);
        const std::uint32_t key_sf = five_key(Kind::kStraightFlush, t);
        if (follow_ && key_sf < min_key_) continue;
        if (follow_ && key_st < min_key_) {  // straight flushes only
          for (int s = 0; s < kNumSuits; ++s) {
            if ((mask & suit_ranks[s]) != mask) continue;
            if (idx >= nc) {
              idx -= nc;
              continue;
            }
            if (!out) return kMissing;
            Cards nat;
            for (unsigned x = mask; x; x &= x - 1) {
              const Cards c = rank_cards(low_bit(x), 1u << (2 * s));
              nat.lo |= c.lo;
              nat.hi |= c.hi;
            }
            put(nat, j, idx, key_sf, Kind::kStraightFlush, 5, out);
            return kFound;
          }
          continue;
        }
        int rk[5], ns[5];
        std::size_t n = nc;
        int k = 0;
        for (unsigned x = mask; x; x &= x - 1, ++k) {
          rk[k] = low_bit(x);
          ns[k] = kRankSums.ds[cfg_[rk[k]]];
          n *= std::size_t(ns[k]);
        }
        if (idx >= n) {
          idx -= n;
          continue;
        }
        if (!out) return kMissing;
        const std::size_t c = idx % nc;
        std::size_t rest = idx / nc;
        Cards nat;
        unsigned suits = 0xF;
        for (int i = m - 1; i >= 0; --i) {
          const std::size_t d = rest % std::size_t(ns[i]);
          rest /= std::size_t(ns[i]);
          // the d-th suit held at rank rk[i]
          unsigned held = (cfg_[rk[i]] | (cfg_[rk[i]] >> 1)) & 0x55u;
          for (std::size_t e = 0; e < d; ++e) held &= held - 1;
          const int s = low_bit(held) / 2;
          const Cards one = rank_cards(rk[i], 1u << (2 * s));
          nat.lo |= one.lo;
          nat.hi |= one.hi;
          suits &= 1u << s;
        }
        if (suits)
          put(nat, j, c, key_sf, Kind::kStraightFlush, 5, out);
        else
          put(nat, j, c, key_st, Kind::kStraight, 5, out);
        return kFound;
      }
    }
    return kMissing;
  }

  // Flushes (Gen::flushes) when every flush beats (leading, or a straight top), 6p3d or no
  // jokers (4p2d's joker keys depend on the naturals: Gen): per suit, per m = 5, 4, 3 a block of
  // natural parts x compositions. Inside a block, Gen's order over the suit's ranks indexed by
  // descending power: the m distinct ranks in lexicographic order (sequences skipped); then
  // (m >= 4) per rank twice, the m - 2 others in ascending bit order (Gosper); then (m = 5) per
  // rank thrice, 2 others; then per two ranks twice, 1 other.
  int flushes(std::size_t idx, Play* out) const {
    if (follow_ && min_key_ > five_key(Kind::kFlush, 0)) return kFallback;  // keys compared: Gen
    if (jt_ > 0 && rules_.table != TableKind::k6p3d) return kFallback;
    const auto& inside = sequences_inside().n[wrap_];
    const std::uint64_t lo = hand_.lo, hi = hand_.hi & Cards::kHiNatural;
    for (int s = 0; s < kNumSuits; ++s) {
      const unsigned ranks = suit_rank_mask(hand_, s);
      const std::size_t k = std::size_t(__builtin_popcount(ranks));
      if (k < 3) continue;
      const std::uint64_t f1 = 0x0202020202020202ULL << (2 * s);
      const std::size_t k2 =
          std::size_t(__builtin_popcountll(lo & f1) + __builtin_popcountll(hi & f1));
      const std::size_t k3 = std::size_t(__builtin_popcountll(lo & (lo << 1) & f1) +
                                         __builtin_popcountll(hi & (hi << 1) & f1));
      for (int m = 5; m >= 3 && 5 - m <= jt_; --m) {
        const std::size_t nc = ncomp_[5 - m];
        std::size_t parts = choose(k, m) - inside[m - 3][ranks];
        if (m >= 4) parts += k2 * choose(k - 1, m - 2);
        if (m == 5) parts += k3 * choose(k - 1, 2) + choose(k2, 2) * (k - 2);
        if (idx >= parts * nc) {
          idx -= parts * nc;
          continue;
        }
        flush_part(s, m, idx / nc, idx % nc, out);
        return kFound;
      }
    }
    return kMissing;
  }
  // The u-th natural part of the block (suit s, m cards), composition c.
  void flush_part(int s, int m, std::size_t u, std::size_t c, Play* out) const {
    int rank[13], power[13], cnt[13];
    int k = 0;
    for (int p = kLevelPower; p >= 0; --p) {
      const int r = power_rank(p, level_);
      const int n = (cfg_[r] >> (2 * s)) & 3;
      if (!n) continue;
      rank[k] = r;
      power[k] = p;
      cnt[k++] = n;
    }
    unsigned dup2 = 0, dup3 = 0;
    for (int i = 0; i < k; ++i) {
      dup2 |= unsigned(cnt[i] >= 2) << i;
      dup3 |= unsigned(cnt[i] == 3) << i;
    }
    const unsigned all = (1u << k) - 1;
    unsigned chosen = 0, twice = 0, thrice = 0;
    const std::size_t distinct =
        choose(std::size_t(k), m) - sequences_inside().n[wrap_][m - 3][suit_rank_mask(hand_, s)];
    if (u < distinct) {
      chosen = nth_distinct(rank, k, m, u);
    } else {
      u -= distinct;
      bool done = false;
      // Gosper's order of t of the positions `avail`: colex, unranked by binomials
      const auto colex = [&](unsigned avail, int t, std::size_t r) {
        int pos[13], n = 0;
        for (unsigned x = avail; x; x &= x - 1) pos[n++] = low_bit(x);
        unsigned got = 0;
        for (int i = t; i >= 1; --i) {
          int cc = i - 1;
          while (cc + 1 < n && choose(std::size_t(cc + 1), i) <= r) ++cc;
          r -= choose(std::size_t(cc), i);
          got |= 1u << pos[cc];
          n = cc;
        }
        return got;
      };
      if (m >= 4) {
        const std::size_t per = choose(std::size_t(k - 1), m - 2);
        for (unsigned d = dup2; d && !done; d &= d - 1) {
          if (u >= per) {
            u -= per;
            continue;
          }
          twice = d & -d;
          chosen = colex(all & ~twice, m - 2, u) | twice;
          done = true;
        }
      }
      if (m == 5 && !done) {
        const std::size_t per = choose(std::size_t(k - 1), 2);
        for (unsigned t = dup3; t && !done; t &= t - 1) {
          if (u >= per) {
            u -= per;
            continue;
          }
          twice = thrice = t & -t;
          chosen = colex(all & ~twice, 2, u) | twice;
          done = true;
        }
        const std::size_t per2 = std::size_t(k - 2);
        for (unsigned d1 = dup2; d1 && !done; d1 &= d1 - 1)
          for (unsigned d2 = d1 & (d1 - 1); d2 && !done; d2 &= d2 - 1) {
            if (u >= per2) {
              u -= per2;
              continue;
            }
            twice = (d1 & -d1) | (d2 & -d2);
            chosen = colex(all & ~twice, 1, u) | twice;
            done = true;
          }
      }
    }
    Cards nat;
    std::uint32_t sub = 0;
    for (unsigned x = chosen; x; x &= x - 1) {
      const int i = low_bit(x);
      const unsigned mult = 1 + ((twice >> i) & 1) + ((thrice >> i) & 1);
      const Cards one = rank_cards(rank[i], 1u << (2 * s));
      nat.lo += one.lo * mult;
      nat.hi += one.hi * mult;
      for (unsigned e = 0; e < mult; ++e) sub = (sub << 4) | std::uint32_t(power[i]);
    }
    const int j = 5 - m;
    const std::uint32_t key_sub =
        high_ ? (((j == 0 ? 0u : (j == 1 ? 0xCu : 0xCCu)) << (4 * (5 - j))) | sub)
              : (sub << (4 * j));
    put(nat, j, c, five_key(Kind::kFlush, key_sub), Kind::kFlush, 5, out);
  }
  // The u-th m-subset of the indices 0..k-1 in lexicographic order that is not a sequence (by
  // the ranks rank[i]): per position the candidates ascending, each taking the subsets under it
  // (binomial) minus the sequences under it.
  unsigned nth_distinct(const int* rank, int k, int m, std::size_t u) const {
    // the sequences among the subsets, as index masks
    unsigned seq[160];
    int ns = 0;
    unsigned ranks = 0;
    int index_of[kNumRanks];
    for (int i = 0; i < k; ++i) {
      ranks |= 1u << rank[i];
      index_of[rank[i]] = i;
    }
    for (std::uint16_t mask : sequence_masks(wrap_, m)) {
      if ((mask & ranks) != mask) continue;
      unsigned im = 0;
      for (unsigned x = mask; x; x &= x - 1) im |= 1u << index_of[low_bit(x)];
      seq[ns++] = im;
    }
    unsigned chosen = 0;
    int from = 0;
    for (int pos = 0; pos < m; ++pos) {
      const int left = m - pos - 1;  // to choose after this one
      for (int i = from; i <= k - left - 1; ++i) {
        const unsigned pre = chosen | (1u << i);
        const unsigned low = (2u << i) - 1;  // the indices <= i
        std::size_t n = choose(std::size_t(k - 1 - i), left);
        for (int q = 0; q < ns; ++q) n -= (seq[q] & low) == pre;
        if (u >= n) {
          u -= n;
          continue;
        }
        chosen = pre;
        from = i + 1;
        break;
      }
    }
    return chosen;
  }

  int level_;
  int copies_;
  bool high_, wrap_;
  const Rules& rules_;
  Cards hand_;
  std::uint8_t cfg_[13];
  const std::uint8_t* power_;
  int sj_ = 0, bj_ = 0, jt_ = 0;
  std::size_t ncomp_[6];
  bool follow_ = false;
  std::uint32_t min_key_ = 0;
};

}  // namespace

// PlayList access for the generators (PlayList befriends this class only).
class Generator {
 public:
  static void bind(PlayList* l, Play** cur, Play** end) {
    *cur = l->data_ + l->size_;
    *end = l->data_ + l->cap_;
  }
  static void grow(PlayList* l, Play** cur, Play** end) {
    const std::size_t used = std::size_t(*cur - l->data_);
    l->reserve(l->cap_ ? 2 * l->cap_ : 1024);
    *cur = l->data_ + used;
    *end = l->data_ + l->cap_;
  }
  // Room for at least n more plays.
  static void grow(PlayList* l, Play** cur, Play** end, std::size_t n) {
    const std::size_t used = std::size_t(*cur - l->data_);
    l->reserve(std::max({used + n, 2 * l->cap_, std::size_t(1024)}));
    *cur = l->data_ + used;
    *end = l->data_ + l->cap_;
  }
  static void finish(PlayList* l, Play* cur) { l->size_ = std::size_t(cur - l->data_); }
};

// Internal linkage: the generators' member functions are then called directly (no PLT
// indirection in the shared module) and inlined more freely.
namespace {

// What a generator does with the plays it finds:
//   kWrite   append each to the PlayList (legal_plays)
//   kCount   count them per family without writing (count_plays)
//   kSelect  skip `target` plays, write the next one to *pick and stop (play_at)
//   kAny     stop at the first one (has_legal_follow)
//   kWriteRef  append each through the generic path alone (no writing fast path: the
//            reference they are tested against, legal_plays_generic)
enum Mode { kWrite = 0, kCount = 1, kSelect = 2, kAny = 3, kWriteRef = 4 };

// Mode flags are template parameters so the hot emission path has no runtime mode tests.
template <bool kDeclare, bool kHigh, bool kFollow, int kMode = kWrite>
class Gen {
 public:
  Gen(const Cards& hand, int level, const Rules& rules, const Play* top, PlayList* out)
      : level_(level), copies_(table_of(rules).decks), rules_(rules), list_(out) {
    // The rank bytes are the bytes of the Cards words (cards.hpp: ranks 0-7 in lo, 8-12 in
    // the low five bytes of hi), their card counts a SWAR sum of the 2-bit suit counts.
    const std::uint64_t lo = hand.lo, hi = hand.hi & kRankBytes;
    std::memcpy(cfg_, &lo, 8);
    std::memcpy(cfg_ + 8, &hi, 5);
    const std::uint64_t cl = Cards::byte_counts(lo), ch = Cards::byte_counts(hi);
    std::memcpy(n_, &cl, 8);
    std::memcpy(n_ + 8, &ch, 5);
    present_ = nonzero_bytes(lo) | nonzero_bytes(hi) << 8;
    if (level >= 0 && level < kNumRanks)
      std::memcpy(power_, kRankPowers.p[level], kNumRanks);
    else
      for (int r = 0; r < kNumRanks; ++r) power_[r] = std::uint8_t(rank_power(r, level));
    sj_ = hand.sj();
    bj_ = hand.bj();
    jt_ = sj_ + bj_;
    // Joker compositions for j jokers: SJ count a from high to low (SJs first); none for
    // more jokers than the hand holds.
    for (int j = 0; j <= 6; ++j) {
      ncomp_[j] = 0;
      if (j > jt_) continue;
      for (int a = std::min(sj_, j); a >= 0 && j - a <= bj_; --a)
        comp_[j][ncomp_[j]++] = std::uint64_t(a | ((j - a) << 2)) << 40;
    }
    if (top) {
      min_key_ = top->key + 1;
      size_ = top->size();
    }
    if constexpr (kMode == kWrite || kMode == kWriteRef) Generator::bind(out, &cur_, &end_);
    info0_ = play_info(Kind(0), 0, 0, level, copies_);
    hand_lo_ = hand.lo;
    hand_hi_ = hand.hi;
  }

  // Every family in order, or only family `only` (moves.hpp "PlayCounts").
  void run(int only = -1) {
    auto family = [&](int f, bool wanted, auto&& body) {
      if (stop() || !wanted || (only >= 0 && only != f)) return;
      const std::size_t before = count_;
      body();
      if constexpr (kMode == kCount) counts_->family[f] = std::uint32_t(count_ - before);
    };
    family(0, size_ == 0 || size_ == 1, [&] {
      if constexpr (kFast)
        fast_singles();
      else
        singles();
    });
    family(1, size_ == 0 || size_ == 2, [&] {
      if constexpr (kFast)
        fast_groups<2>(Kind::kPair);
      else
        groups(2, Kind::kPair);
    });
    family(2, size_ == 0 || size_ == 3, [&] {
      if constexpr (kFast)
        fast_groups<3>(Kind::kTriple);
      else
        groups(3, Kind::kTriple);
    });
    const bool five = size_ == 0 || size_ == 5;
    family(3, five, [&] { fives(); });
    family(4, five, [&] {
      if constexpr (kFast)
        fast_two_ranks();
      else
        two_ranks();
    });
    family(5, five, [&] {
      if constexpr (kFast)
        fast_sequences();
      else
        sequences();
    });
    family(6, five && (!kFollow || min_key_ <= kMaxFlushKey), [&] {
      if constexpr (kFast)
        fast_flushes();
      else
        flushes();
    });
    if constexpr (kMode == kWrite || kMode == kWriteRef) Generator::finish(list_, cur_);
    if constexpr (kMode == kCount) counts_->total = count_;
  }

  void set_counts(PlayCounts* c) { counts_ = c; }
  void set_pick(std::size_t target, Play* pick) {
    target_ = target;
    pick_ = pick;
  }
  bool found() const { return done_; }

 private:
  // Write one play (the only place plays are stored). The four bytes after the key (kind,
  // size, jokers, level) are stored as one little-endian word.
  void put(std::uint64_t lo, std::uint64_t hi, std::uint32_t key, Kind kind, int size, int jokers) {
    Play* p;
    if constexpr (kMode == kCount) {
      ++count_;
      return;
    } else if constexpr (kMode == kSelect || kMode == kAny) {
      if (done_) return;
      if (kMode == kSelect && target_ > 0) {
        --target_;
        return;
      }
      done_ = true;
      if (!pick_) return;
      p = pick_;
    } else {
      if (cur_ == end_) Generator::grow(list_, &cur_, &end_);
      p = cur_++;
    }
    p->cards.lo = lo;
    p->cards.hi = hi;
    p->key = key;
    p->info = play_info(kind, size, jokers, level_, copies_);
  }
  // The natural part `nat` with each composition of j jokers.
  void emit(const Cards& nat, int size, unsigned j, Kind kind, std::uint32_t key) {
    if (kFollow && key < min_key_) return;
    if constexpr (kMode == kCount) {
      count_ += std::size_t(ncomp_[j]);
      return;
    }
    if (j == 0) {
      put(nat.lo, nat.hi, key, kind, size, 0);
      return;
    }
    for (int i = 0; i < ncomp_[j]; ++i) put(nat.lo, nat.hi | comp_[j][i], key, kind, size, int(j));
  }
  // A five-card natural part with j jokers whose kind/key under auto/high is known.
  void emit5(const Cards& nat, unsigned j, Kind kind, std::uint32_t key) {  // j: jokers, 0..5
    if (kDeclare && j > 0) {
      keys_.clear();
      five_interpretations(five_info(nat, j), level_, rules_, &keys_);
      for (std::uint32_t k : keys_) emit(nat, 5, j, five_kind_of_key(k), k);
    } else {
      emit(nat, 5, j, kind, key);
    }
  }
  void emit_joker_only(int size, Kind kind) {
    if (jt_ < size) return;
    for (int i = 0; i < ncomp_[size]; ++i) {
      const int byte = int(comp_[size][i] >> 40);
      const std::uint32_t key = joker_only_key(size, byte & 3, byte >> 2, rules_);
      if (!kFollow || key >= min_key_) put(0, comp_[size][i], key, kind, size, size);
    }
  }

  // Singles: natural faces in id order, then SJ, BJ (R5; a joker single is never wild, R6).
  void singles() {
    for (int r = 0; r < kNumRanks && !stop(); ++r) {
      const std::uint32_t key = small_key(power_[r]);
      if (!cfg_[r] || (kFollow && key < min_key_)) continue;
      // one block per rank: one single per suit held
      if (kMode != kWrite &&
          take_block(std::size_t(__builtin_popcount((cfg_[r] | (cfg_[r] >> 1)) & 0x55u))))
        continue;
      for (int s = 0; s < kNumSuits; ++s)
        if ((cfg_[r] >> (2 * s)) & 3) {
          const Cards c = rank_cards(r, 1u << (2 * s));
          put(c.lo, c.hi, key, Kind::kSingle, 1, 0);
        }
    }
    if (sj_ && (!kFollow || small_key(kSJPower) >= min_key_))
      put(0, std::uint64_t(1) << 40, small_key(kSJPower), Kind::kSingle, 1, 1);
    if (bj_ && (!kFollow || small_key(kBJPower) >= min_key_))
      put(0, std::uint64_t(1) << 42, small_key(kBJPower), Kind::kSingle, 1, 1);
  }

  // Pairs / triples: per rank, natural sub-multisets then with 1, 2 jokers; then joker-only.
  void groups(int size, Kind kind) {
    for (int r = 0; r < kNumRanks && !stop(); ++r) {
      const std::uint32_t key = small_key(power_[r]);
      if (!cfg_[r] || (kFollow && key < min_key_)) continue;
      for (int j = 0; j < size && j <= jt_; ++j) {
        // one key per rank: the sub-multisets with j jokers form one block
        const std::size_t n =
            std::size_t(subs_end(cfg_[r], size - j) - subs_begin(cfg_[r], size - j));
        if (kMode != kWrite && take_block(n * std::size_t(ncomp_[j]))) continue;
        for (const std::uint8_t* g = subs_begin(cfg_[r], size - j);
             g != subs_end(cfg_[r], size - j); ++g)
          emit(rank_cards(r, *g), size, j, kind, key);
      }
    }
    emit_joker_only(size, kind);
  }

  // Family 1: all naturals one rank (j = 0..4), then the all-joker five.
  void fives() {
    for (int r = 0; r < kNumRanks && !stop(); ++r) {
      if (!cfg_[r]) continue;
      const std::uint32_t key = five_key(Kind::kFiveOfAKind, power_[r]);
      if ((kFollow && key < min_key_))
        continue;  // five of a kind is the top kind: nothing here can beat
      for (int j = 0; j <= 4 && j <= jt_; ++j) {
        const std::size_t n = std::size_t(subs_end(cfg_[r], 5 - j) - subs_begin(cfg_[r], 5 - j));
        if (kMode != kWrite && !kDeclare && take_block(n * std::size_t(ncomp_[j])))
          continue;  // one key
        for (const std::uint8_t* g = subs_begin(cfg_[r], 5 - j); g != subs_end(cfg_[r], 5 - j); ++g)
          emit5(rank_cards(r, *g), j, Kind::kFiveOfAKind, key);
      }
    }
    emit_joker_only(5, Kind::kFiveOfAKind);
  }

  // Family 2: exactly two ranks r1 < r2 with a and b natural cards, a + b = 5 - j.
  // The sub-multisets of each size are flattened over the ranks (ascending), so for one
  // choice at r1 the loop over every choice at a higher rank r2 is a single run.
  struct Part {
    std::uint64_t lo, hi;
    std::uint8_t rank, power, byte, pad;
  };
  void build_parts() {
    for (int a = 1; a <= 4; ++a) {
      int n = 0;
      for (int r = 0; r < kNumRanks; ++r) {
        part_start_[a][r] = std::uint16_t(n);
        Part* out = parts_ + kPartOffset[a];
        for (const std::uint8_t* g = subs_begin(cfg_[r], a); g != subs_end(cfg_[r], a); ++g) {
          const Cards c = rank_cards(r, *g);
          out[n++] = Part{c.lo, c.hi, std::uint8_t(r), power_[r], *g, 0};
        }
      }
      part_start_[a][kNumRanks] = std::uint16_t(n);
      nparts_[a] = n;
    }
  }
  void two_ranks() {
    // R7: when the top is a five of a kind, no two-rank play (at best a straight flush) beats it.
    if (kFollow && min_key_ > kMaxStraightFlushKey) return;
    // Counting needs the parts only for two single cards + 3 jokers (a possible straight flush).
    if (kMode != kCount || kDeclare || jt_ >= 3) build_parts();
    for (int j = 0; j <= 3 && j <= jt_; ++j) {
      const int m = 5 - j;
      for (int a = m - 1; a >= 1; --a) {
        const int b = m - a;
        if (a > 4 || b > 4) continue;
        two_rank_pattern(a, b, j);
      }
    }
  }
  void two_rank_pattern(int a, int b, int j) {
    // R5/R6 for two ranks: four-plus-one when one side has a single card (the four is the
    // other rank, or either when both are single), else full house (the triple is a rank
    // with <= 3 cards whose partner has <= 2).
    const TwoRankShape shape = two_rank_shape(a, b);  // five.hpp
    const Kind kind = shape.four ? Kind::kFourPlusOne : Kind::kFullHouse;
    const bool single_pair = a == 1 && b == 1;
    // Following: skip the pattern when even its best key cannot beat the top (two single
    // suited cards + 3 jokers may make a straight flush, otherwise the pattern's kind).
    const std::uint32_t best = single_pair ? kMaxStraightFlushKey : five_key(kind, kLevelPower);
    if (kFollow && best < min_key_) return;
    if constexpr (kMode == kCount && !kDeclare) {
      if (!single_pair) {
        // Count by rank pairs r1 < r2: (choices at r1) x (choices at r2), summed with a running
        // total over r1, O(ranks). Following, a pair counts when its group power beats the
        // top; the key grows with the power, so that is a condition on which of r1, r2 have a
        // power that beats (`ok`): r1's, r2's, either's (high: the higher power) or both's
        // (auto: the lower).
        std::size_t ca[kNumRanks], cb[kNumRanks];
        unsigned ok = 0;
        for (int r = 0; r < kNumRanks; ++r) {
          ca[r] = std::size_t(subs_end(cfg_[r], a) - subs_begin(cfg_[r], a));
          cb[r] = std::size_t(subs_end(cfg_[r], b) - subs_begin(cfg_[r], b));
          if (!kFollow || five_key(kind, std::uint32_t(power_[r])) >= min_key_) ok |= 1u << r;
        }
        const auto pairs = [&](unsigned ma, unsigned mb) {
          std::size_t total = 0, below = 0;
          for (int r = 0; r < kNumRanks; ++r) {
            if ((mb >> r) & 1) total += below * cb[r];
            if ((ma >> r) & 1) below += ca[r];
          }
          return total;
        };
        constexpr unsigned kAll = (1u << kNumRanks) - 1;
        std::size_t n;
        if (!kFollow)
          n = pairs(kAll, kAll);
        else if (shape.first && shape.second)
          n = kHigh ? pairs(kAll, kAll) - pairs(kAll & ~ok, kAll & ~ok) : pairs(ok, ok);
        else if (shape.first)
          n = pairs(ok, kAll);
        else
          n = pairs(kAll, ok);
        count_ += n * std::size_t(ncomp_[j]);
        return;
      }
    }
    const Part* pa = parts_ + kPartOffset[a];
    const Part* pb = parts_ + kPartOffset[b];
    const int nb = nparts_[b];
    // When every play of the pattern beats (leading, or its lowest kind beats the top), the
    // plays with one first part x form one block of (parts above x's rank) x compositions.
    const bool blocks = kMode != kWrite && !kDeclare && (!kFollow || five_key(kind, 0) >= min_key_);
    for (int i = 0; i < nparts_[a] && !stop(); ++i) {
      const Part& x = pa[i];
      const int p1 = x.power;
      const int first = part_start_[b][x.rank + 1];
      if (blocks && take_block(std::size_t(nb - first) * std::size_t(ncomp_[j]))) continue;
      for (int k = first; k < nb; ++k) {
        const Part& y = pb[k];
        const int p = group_power(shape, p1, y.power, kHigh);
        const Cards nat{x.lo + y.lo, x.hi + y.hi};
        if (single_pair && x.byte == y.byte) {
          // two cards of one suit + 3 jokers: a straight flush if a straight holds both
          const unsigned ws =
              straight_windows((1u << x.rank) | (1u << y.rank), rules_.wrap_straights);
          if (ws) {
            emit5(nat, j, Kind::kStraightFlush,
                  five_key(Kind::kStraightFlush, std::uint32_t(straight_key(ws, kHigh))));
            continue;
          }
        }
        emit5(nat, j, kind, five_key(kind, std::uint32_t(p)));
      }
    }
  }

  // Family 3: m = 5, 4, 3 distinct ranks inside a straight, one face per rank; the lowest
  // rank's suit varies slowest.
  struct Single {
    std::uint64_t lo, hi;
    unsigned suit_bit;
  };
  void sequences() {
    if (kFollow && min_key_ > kMaxStraightFlushKey) return;  // only a five of a kind beats the top
    const bool wrap = rules_.wrap_straights;
    // Ranks held in each suit (a straight flush needs all its ranks in one suit).
    unsigned suit_ranks[kNumSuits] = {0, 0, 0, 0};
    for (int r = 0; r < kNumRanks; ++r)
      for (int s = 0; s < kNumSuits; ++s)
        if ((cfg_[r] >> (2 * s)) & 3) suit_ranks[s] |= 1u << r;
    // The faces of each rank as single cards.
    for (int r = 0; r < kNumRanks; ++r) {
      nsingle_[r] = 0;
      for (int s = 0; s < kNumSuits; ++s)
        if ((cfg_[r] >> (2 * s)) & 3) {
          const Cards c = rank_cards(r, 1u << (2 * s));
          single_[r][nsingle_[r]++] = Single{c.lo, c.hi, 1u << s};
        }
    }
    for (int m = 5; m >= 3; --m) {
      const int j = 5 - m;
      if (j > jt_) break;
      for (std::uint16_t mask : sequence_masks(wrap, m)) {
        if (stop()) return;
        if ((mask & present_) != mask) continue;
        const std::uint32_t t = std::uint32_t(straight_key(straight_windows(mask, wrap), kHigh));
        key_st_ = five_key(Kind::kStraight, t);
        key_sf_ = five_key(Kind::kStraightFlush, t);
        if (!kDeclare && (kFollow && key_sf_ < min_key_)) continue;
        if (!kDeclare && kFollow && key_st_ < min_key_ && (mask & ~suit_ranks[0]) &&
            (mask & ~suit_ranks[1]) && (mask & ~suit_ranks[2]) && (mask & ~suit_ranks[3]))
          continue;                // only a straight flush could beat, and no suit holds every rank
        const Single* rs[5] = {};  // per rank of the set: its faces, and how many
        int ns[5] = {};
        int k = 0;
        for (unsigned x = mask; x; x &= x - 1, ++k) {
          rs[k] = single_[low_bit(x)];
          ns[k] = nsingle_[low_bit(x)];
        }
        if (!kDeclare && (kFollow && key_st_ < min_key_)) {
          sf_only(rs, ns, m, j);
          continue;
        }
        if constexpr (kMode != kWrite && !kDeclare) {  // one key pair per mask: a product
          std::size_t n = std::size_t(ncomp_[j]);
          for (int i = 0; i < m; ++i) n *= std::size_t(ns[i]);
          if (take_block(n)) continue;
        }
        seq_j_ = j;
        if (m == 5)
          seq_rec<0, 5>(rs, ns, 0, 0, 0xF);
        else if (m == 4)
          seq_rec<0, 4>(rs, ns, 0, 0, 0xF);
        else
          seq_rec<0, 3>(rs, ns, 0, 0, 0xF);
      }
    }
  }
  template <int I, int M>
  void seq_rec(const Single* const* rs, const int* ns, std::uint64_t lo, std::uint64_t hi,
               unsigned suits) {
    if constexpr (I == M) {
      if (suits)
        emit5(Cards{lo, hi}, seq_j_, Kind::kStraightFlush, key_sf_);
      else
        emit5(Cards{lo, hi}, seq_j_, Kind::kStraight, key_st_);
    } else {
      const Single* s = rs[I];
      for (int k = 0; k < ns[I]; ++k)
        seq_rec<I + 1, M>(rs, ns, lo | s[k].lo, hi | s[k].hi, suits & s[k].suit_bit);
    }
  }
  // Only straight flushes can beat the top: one per suit held at every rank.
  void sf_only(const Single* const* rs, const int* ns, int m, int j) {
    for (unsigned s = 0; s < unsigned(kNumSuits); ++s) {
      Cards nat;
      int found = 0;
      for (int i = 0; i < m; ++i)
        for (int k = 0; k < ns[i]; ++k)
          if (rs[i][k].suit_bit == (1u << s)) {
            nat.lo |= rs[i][k].lo;
            nat.hi |= rs[i][k].hi;
            ++found;
          }
      if (found == m) emit5(nat, j, Kind::kStraightFlush, key_sf_);
    }
  }

  // Family 4: one suit, m = 5, 4, 3 naturals with d >= 3 ranks that are not a sequence.
  // The suit's ranks are indexed in descending power, so a set of indices read upward
  // gives the flush key (powers high to low, R7) by concatenation. Every combination
  // enumerated is emitted (sequences aside): m distinct ranks; one rank twice + m - 2
  // others (m >= 4); one rank three times + 2 others, or two ranks twice + 1 other (m = 5).
  // The jokers' part of the key is fixed: under auto they take power 0 (the lowest, which
  // always has a copy left, since m <= 4 naturals on >= 3 ranks hold at most 2 copies of a
  // rank), under high power 12 (the level card of the suit, R6; same reason).
  struct FlushRank {
    std::uint64_t lo, hi;  // one card of this rank and suit
    unsigned rank_bit;
    std::uint32_t power;
  };
  // The ranks suit s holds in the hand, into fr_ from the highest power down: their number
  // k, the suit's cards in all, and the indices (bits of fr_) of the ranks held at least twice
  // and three times.
  struct SuitRanks {
    int k = 0, total = 0;
    unsigned dup2 = 0, dup3 = 0;
  };
  SuitRanks suit_ranks(int s) {
    SuitRanks out;
    for (int p = kLevelPower; p >= 0; --p) {
      const int r = power_rank(p, level_);
      const int c = (cfg_[r] >> (2 * s)) & 3;
      if (!c) continue;
      const Cards one = rank_cards(r, 1u << (2 * s));
      if (c >= 2) out.dup2 |= 1u << out.k;
      if (c == 3) out.dup3 |= 1u << out.k;
      fr_[out.k++] = FlushRank{one.lo, one.hi, 1u << r, std::uint32_t(p)};
      out.total += c;
    }
    return out;
  }
  void flushes() {
    // When every flush beats (leading, or a straight top), each (suit, m) is one block.
    const bool blocks =
        kMode != kWrite && !kDeclare && (!kFollow || min_key_ <= five_key(Kind::kFlush, 0));
    const bool limited = rules_.table != TableKind::k6p3d;  // R18: a face at most twice
    for (int s = 0; s < kNumSuits && !stop(); ++s) {
      int start_m = 5;
      if (blocks) {
        std::size_t block[6] = {};
        flush_counts(s, block);
        int m = 5;
        for (; m >= 3 && 5 - m <= jt_; --m)
          if (!take_block(block[m] * std::size_t(ncomp_[5 - m]))) break;
        if (m < 3 || 5 - m > jt_) continue;  // every block of this suit taken
        start_m = m;                         // enumerate from the block holding the target
      }
      const auto [k, total, dup2, dup3] = suit_ranks(s);
      if (k < 3) continue;
      for (int m = start_m; m >= 3; --m) {
        const int j = 5 - m;
        if (j > jt_) break;
        if (total < m) continue;
        generic_flush_m(m, k, dup2, dup3, limited && j > 0 ? j + kLimitedFlush : j);
      }
    }
  }
  // The flush natural parts of suit s with m cards (out[m], m = 3..5) without enumeration:
  // the multisets of m of its cards with at least 3 ranks (a DP over its ranks, distinct
  // ranks capped at 3), minus the sets of m distinct ranks inside a straight (family 3).
  void flush_counts(int s, std::size_t* out) {
    const bool wrap = rules_.wrap_straights;
    {
      std::uint32_t ways[6][4] = {};  // [cards][min(ranks, 3)]
      ways[0][0] = 1;
      unsigned ranks = 0;
      for (int r = 0; r < kNumRanks; ++r) {
        const int c = (cfg_[r] >> (2 * s)) & 3;
        if (!c) continue;
        ranks |= 1u << r;
        for (int size = 5; size >= 1; --size)  // in place, larger sizes first
          for (int d = 3; d >= 1; --d) {
            std::uint32_t add = 0;
            for (int t = 1; t <= c && t <= size; ++t) {
              add += ways[size - t][d - 1];
              if (d == 3) add += ways[size - t][3];
            }
            ways[size][d] += add;
          }
      }
      if (__builtin_popcount(ranks) < 3) return;
      for (int m = 5; m >= 3; --m) {
        std::size_t n = ways[m][3];
        n -= sequences_inside().n[wrap][m - 3][ranks];
        out[m] = n;
      }
    }
  }

  // T more distinct ranks from indices [from, k), appended in index (power-descending) order.
  // always_inline (here and in flush_key_out): the cold 4p2d branch there made gcc leave the
  // nest chain out of line, +15% instructions for a lead (callgrind, 2026-12-01).
  template <int T>
  [[gnu::always_inline]] void nest(int from, int k, std::uint64_t lo, std::uint64_t hi,
                                   std::uint32_t sub, unsigned ranks) {
    for (int i = from; i <= k - T; ++i) {
      const FlushRank& f = fr_[i];
      const std::uint64_t lo2 = lo | f.lo, hi2 = hi | f.hi;
      const std::uint32_t sub2 = (sub << 4) | f.power;
      const unsigned ranks2 = ranks | f.rank_bit;
      if constexpr (T == 1) {
        if (is_sequence(ranks2, rules_.wrap_straights)) continue;  // a sequence: family 3
        flush_key_out(Cards{lo2, hi2}, sub2);
      } else {
        nest<T - 1>(i + 1, k, lo2, hi2, sub2, ranks2);
      }
    }
  }
  // Every t-subset c of the index bits `avail` (Gosper's hack on their compacted positions),
  // emitted together with the fixed indices `with2` (twice) and `with3` (a third time).
  void combos(unsigned avail, int t, unsigned with2, unsigned with3, bool check_sequence) {
    int pos[13];
    int n = 0;
    for (unsigned x = avail; x; x &= x - 1) pos[n++] = low_bit(x);
    if (t > n) return;
    for (unsigned c = (1u << t) - 1; c < (1u << n);) {
      unsigned chosen = 0;
      for (unsigned x = c; x; x &= x - 1) chosen |= 1u << pos[low_bit(x)];
      if (with2)
        flush_out(chosen | with2, with2, with3, check_sequence);
      else
        flush_out_distinct(chosen, check_sequence);
      const unsigned lowest = c & -c, ripple = c + lowest;
      c = ripple | (((c ^ ripple) >> 2) >> low_bit(c));
    }
  }
  void flush_out_distinct(unsigned idx, bool check_sequence) {
    std::uint64_t lo = 0, hi = 0;
    std::uint32_t sub = 0;
    unsigned ranks = 0;
    for (unsigned x = idx; x; x &= x - 1) {
      const FlushRank& f = fr_[low_bit(x)];
      lo |= f.lo;
      hi |= f.hi;
      ranks |= f.rank_bit;
      sub = (sub << 4) | f.power;
    }
    if (check_sequence && is_sequence(ranks, rules_.wrap_straights)) return;  // family 3
    flush_key_out(Cards{lo, hi}, sub);
  }
  [[gnu::always_inline]] void flush_key_out(const Cards& nat, std::uint32_t sub) {
    const int j = flush_j_;
    if (j >= kLimitedFlush) [[unlikely]] {  // R18: copy limit 2
      flush_key_out_limited(nat, j - kLimitedFlush);
      return;
    }
    const std::uint32_t key_sub =
        kHigh ? (((j == 0 ? 0u : (j == 1 ? 0xCu : 0xCCu)) << (4 * (5 - j))) | sub)
              : (sub << (4 * j));
    emit5(nat, j, Kind::kFlush, five_key(Kind::kFlush, key_sub));
  }
  // R18: with the copy limit 2 the jokers' part of a flush key depends on the naturals (a
  // face used up moves the joker one power), so the key comes from the reference classifier.
  [[gnu::noinline, gnu::cold]] void flush_key_out_limited(const Cards& nat, int j) {
    std::uint32_t key;
    Kind kind;
    detail::classify_five(detail::five_info(nat, j), level_, rules_, kHigh, &key, &kind);
    emit5(nat, unsigned(j), kind, key);
  }
  void flush_out(unsigned idx, unsigned twice, unsigned thrice, bool check_sequence) {
    Cards nat;
    std::uint32_t sub = 0;
    unsigned ranks = 0;
    for (unsigned x = idx; x; x &= x - 1) {
      const int i = low_bit(x);
      const FlushRank& f = fr_[i];
      const unsigned mult = 1 + ((twice >> i) & 1) + ((thrice >> i) & 1);
      nat.lo += f.lo * mult;
      nat.hi += f.hi * mult;
      ranks |= f.rank_bit;
      for (unsigned c = 0; c < mult; ++c) sub = (sub << 4) | f.power;
    }
    if (check_sequence && is_sequence(ranks, rules_.wrap_straights)) return;  // family 3
    flush_key_out(nat, sub);
  }

  // ---------------------------------------------------------------------------------------
  // The writing fast paths (kWrite under auto / high): each family writes its plays straight
  // into the list through a local cursor. Room is made once per block of plays (no capacity
  // test per play, the cursor stays in a register), a block's info word is made once, and
  // the key comes from what the loop already knows. They write the same plays in the same
  // order as the generic path (emit / put, kept as kWriteRef: detail::legal_plays_generic,
  // which tests/plays/test_rules_write_fast.py compares them with); the rare cases (jokers
  // alone, three jokers with two singles, a straight flush only, R18's limited flushes) go
  // through the generic path, the member cursor kept in step.
  static constexpr bool kFast = kMode == kWrite && !kDeclare;

  // Room for n more plays; the cursor to write them through (then stored back in cur_).
  [[gnu::always_inline]] Play* room(std::size_t n) {
    if (std::size_t(end_ - cur_) < n) [[unlikely]]
      Generator::grow(list_, &cur_, &end_, n);
    return cur_;
  }
  std::uint32_t info_of(Kind kind, int size, int j) const {
    return info0_ | std::uint32_t(kind) | (std::uint32_t(size) << 8) | (std::uint32_t(j) << 16);
  }
  [[gnu::always_inline]] static Play* write(Play* w, std::uint64_t lo, std::uint64_t hi,
                                            std::uint32_t key, std::uint32_t info) {
    w->cards.lo = lo;
    w->cards.hi = hi;
    w->key = key;
    w->info = info;
    return w + 1;
  }
  // A natural part with each composition of J jokers (the part alone for J = 0); with
  // kFilter, only if its key beats the top (J = 0: written, and kept only then).
  template <int J, bool kFilter>
  [[gnu::always_inline]] Play* write_nat(Play* w, std::uint64_t lo, std::uint64_t hi,
                                         std::uint32_t key, std::uint32_t info) const {
    if constexpr (J == 0) {
      w = write(w, lo, hi, key, info);
      if constexpr (kFilter) w -= key < min_key_;
      return w;
    } else {
      if (kFilter && key < min_key_) return w;
      for (int i = 0; i < ncomp_[J]; ++i) w = write(w, lo, hi | comp_[J][i], key, info);
      return w;
    }
  }
  std::size_t comps(int j) const { return std::size_t(ncomp_[j]); }

  // Singles: per rank held, one play per suit held, in suit order; then SJ, BJ (generic).
  void fast_singles() {
    const std::uint32_t info = info_of(Kind::kSingle, 1, 0);
    Play* w = room(52);
    for (unsigned x = present_; x; x &= x - 1) {
      const int r = low_bit(x);
      const std::uint32_t key = small_key(power_[r]);
      if (kFollow && key < min_key_) continue;
      const int shift = 8 * (r & 7);
      const std::uint64_t word = r < 8 ? 0 : 1;
      for (unsigned s = (cfg_[r] | (cfg_[r] >> 1)) & 0x55u; s; s &= s - 1) {
        const std::uint64_t c = std::uint64_t(s & -s) << shift;
        w = write(w, word ? 0 : c, word ? c : 0, key, info);
      }
    }
    cur_ = w;
    if (sj_ && (!kFollow || small_key(kSJPower) >= min_key_))
      put(0, std::uint64_t(1) << 40, small_key(kSJPower), Kind::kSingle, 1, 1);
    if (bj_ && (!kFollow || small_key(kBJPower) >= min_key_))
      put(0, std::uint64_t(1) << 42, small_key(kBJPower), Kind::kSingle, 1, 1);
  }

  // Pairs / triples: per rank, its sub-multisets of Size - j cards with each composition of j
  // jokers, j = 0, 1, (2); then the jokers alone (generic).
  template <int Size>
  void fast_groups(Kind kind) {
    for (unsigned x = present_; x; x &= x - 1) {
      const int r = low_bit(x);
      const std::uint32_t key = small_key(power_[r]);
      if (kFollow && key < min_key_) continue;
      const int h = cfg_[r], shift = 8 * (r & 7);
      const bool high_word = r >= 8;
      for (int j = 0; j < Size && j <= jt_; ++j) {
        const std::uint8_t* g = subs_begin(h, Size - j);
        const std::uint8_t* ge = subs_end(h, Size - j);
        if (g == ge) continue;
        const std::uint32_t info = info_of(kind, Size, j);
        Play* w = room(std::size_t(ge - g) * comps(j));
        for (; g != ge; ++g) {
          const std::uint64_t c = std::uint64_t(*g) << shift;
          const std::uint64_t lo = high_word ? 0 : c, hi = high_word ? c : 0;
          for (int i = 0; i < ncomp_[j]; ++i) w = write(w, lo, hi | comp_[j][i], key, info);
        }
        cur_ = w;
      }
    }
    emit_joker_only(Size, kind);
  }

  // Family 2: the (a, b, j) patterns in the generic order; two singles with three jokers
  // (possible straight flushes) generic.
  void fast_two_ranks() {
    if (kFollow && min_key_ > kMaxStraightFlushKey) return;
    build_parts();
    for (int j = 0; j <= 3 && j <= jt_; ++j) {
      const int m = 5 - j;
      for (int a = m - 1; a >= 1; --a) {
        const int b = m - a;
        if (a > 4 || b > 4) continue;
        if (j == 3) {
          two_rank_pattern(a, b, j);
          continue;
        }
        const TwoRankShape shape = two_rank_shape(a, b);
        const int which = shape.first && shape.second ? 0 : (shape.first ? 1 : 2);
        if (j == 0) {
          fast_two_rank_shape<0>(a, b, which, shape.four);
        } else if (j == 1) {
          fast_two_rank_shape<1>(a, b, which, shape.four);
        } else {
          fast_two_rank_shape<2>(a, b, which, shape.four);
        }
      }
    }
  }
  template <int J>
  void fast_two_rank_shape(int a, int b, int which, bool four) {
    if (which == 0)
      fast_two_rank_pattern<J, 0>(a, b, four);
    else if (which == 1)
      fast_two_rank_pattern<J, 1>(a, b, four);
    else
      fast_two_rank_pattern<J, 2>(a, b, four);
  }
  // kWhich: the group rank is the higher (high) / lower (auto) power of the two (0), the rank
  // with a cards (1), the rank with b cards (2) (group_power).
  template <int J, int kWhich>
  void fast_two_rank_pattern(int a, int b, bool four) {
    const Kind kind = four ? Kind::kFourPlusOne : Kind::kFullHouse;
    if (kFollow && five_key(kind, kLevelPower) < min_key_) return;
    const std::uint32_t base = five_key(kind, 0), info = info_of(kind, 5, J);
    const Part* pa = parts_ + kPartOffset[a];
    const Part* pb = parts_ + kPartOffset[b];
    const Part* pb_end = pb + nparts_[b];
    const int na = nparts_[a];
    for (int i = 0; i < na; ++i) {
      const Part& x = pa[i];
      const Part* y = pb + part_start_[b][x.rank + 1];
      if (y == pb_end) continue;
      if constexpr (kWhich == 1) {
        if (kFollow && (base | x.power) < min_key_) continue;  // one key for every y
      }
      Play* w = room(std::size_t(pb_end - y) * comps(J));
      for (; y != pb_end; ++y) {
        std::uint32_t p;
        if constexpr (kWhich == 0)
          p = kHigh ? std::max(x.power, y->power) : std::min(x.power, y->power);
        else if constexpr (kWhich == 1)
          p = x.power;
        else
          p = y->power;
        w = write_nat < J, kFollow && kWhich != 1 > (w, x.lo + y->lo, x.hi + y->hi, base | p, info);
      }
      cur_ = w;
    }
  }

  // Family 3: per sequence mask held, the product of its ranks' faces, lowest rank slowest;
  // a straight flush when every face is of one suit.
  void fast_sequences() {
    if (kFollow && min_key_ > kMaxStraightFlushKey) return;  // only a five of a kind beats
    const Cards hand{hand_lo_, hand_hi_};
    unsigned suit_ranks[kNumSuits];
    for (int s = 0; s < kNumSuits; ++s) suit_ranks[s] = suit_rank_mask(hand, s);
    for (unsigned x = present_; x; x &= x - 1) {
      const int r = low_bit(x);
      const int shift = 8 * (r & 7);
      const bool high_word = r >= 8;
      int n = 0;
      for (unsigned s = (cfg_[r] | (cfg_[r] >> 1)) & 0x55u; s; s &= s - 1) {
        const std::uint64_t c = std::uint64_t(s & -s) << shift;
        single_[r][n++] = Single{high_word ? 0 : c, high_word ? c : 0, 1u << (low_bit(s) / 2)};
      }
      nsingle_[r] = n;
    }
    if (0 <= jt_) fast_sequence_masks<5>(suit_ranks);
    if (1 <= jt_) fast_sequence_masks<4>(suit_ranks);
    if (2 <= jt_) fast_sequence_masks<3>(suit_ranks);
  }
  template <int M>
  void fast_sequence_masks(const unsigned* suit_ranks) {
    constexpr int J = 5 - M;
    const bool wrap = rules_.wrap_straights;
    const std::uint32_t info_st = info_of(Kind::kStraight, 5, J);
    const std::uint32_t info_sf = info_of(Kind::kStraightFlush, 5, J);
    for (std::uint16_t mask : sequence_masks(wrap, M)) {
      if ((mask & present_) != mask) continue;
      const std::uint32_t t = std::uint32_t(straight_key(straight_windows(mask, wrap), kHigh));
      const std::uint32_t key_st = five_key(Kind::kStraight, t);
      const std::uint32_t key_sf = five_key(Kind::kStraightFlush, t);
      if (kFollow && key_sf < min_key_) continue;
      const Single* rs[M];
      int ns[M];
      std::size_t n = comps(J);
      int k = 0;
      for (unsigned x = mask; x; x &= x - 1, ++k) {
        rs[k] = single_[low_bit(x)];
        ns[k] = nsingle_[low_bit(x)];
        n *= std::size_t(ns[k]);
      }
      if (kFollow && key_st < min_key_) {  // only a straight flush beats: generic
        if ((mask & ~suit_ranks[0]) && (mask & ~suit_ranks[1]) && (mask & ~suit_ranks[2]) &&
            (mask & ~suit_ranks[3]))
          continue;  // no suit holds every rank
        key_sf_ = key_sf;
        sf_only(rs, ns, M, J);
        continue;
      }
      Play* w = room(n);
      seq_write<0, M>(rs, ns, 0, 0, 0xF, key_st, key_sf, info_st, info_sf, w);
      cur_ = w;
    }
  }
  template <int I, int M>
  [[gnu::always_inline]] void seq_write(const Single* const* rs, const int* ns, std::uint64_t lo,
                                        std::uint64_t hi, unsigned suits, std::uint32_t key_st,
                                        std::uint32_t key_sf, std::uint32_t info_st,
                                        std::uint32_t info_sf, Play*& w) const {
    const Single* s = rs[I];
    const int n = ns[I];
    for (int k = 0; k < n; ++k) {
      const std::uint64_t lo2 = lo | s[k].lo, hi2 = hi | s[k].hi;
      const unsigned suits2 = suits & s[k].suit_bit;
      if constexpr (I + 1 == M) {
        const bool sf = suits2 != 0;
        w = write_nat<5 - M, false>(w, lo2, hi2, sf ? key_sf : key_st, sf ? info_sf : info_st);
      } else {
        seq_write<I + 1, M>(rs, ns, lo2, hi2, suits2, key_st, key_sf, info_st, info_sf, w);
      }
    }
  }

  // Family 4: per suit and m = 5, 4, 3, as the generic flushes(): m distinct ranks (index
  // sets in lexicographic order), then one rank twice (m >= 4), one rank three times, two
  // ranks twice (m = 5), the others' index sets in colexicographic order (Gosper's order in
  // combos). The flush key's powers are the indices' in index order, with the repeated
  // rank's inserted where its index falls.
  void fast_flushes() {
    const bool limited = rules_.table != TableKind::k6p3d;  // R18: a face at most twice
    for (int s = 0; s < kNumSuits; ++s) {
      const auto [k, total, dup2, dup3] = suit_ranks(s);
      if (k < 3) continue;
      for (int m = 5; m >= 3; --m) {
        const int j = 5 - m;
        if (j > jt_) break;
        if (total < m) continue;
        if (limited && j > 0) {  // the jokers' key part depends on the naturals: generic
          generic_flush_m(m, k, dup2, dup3, j + kLimitedFlush);
          continue;
        }
        const bool filter = kFollow && min_key_ > five_key(Kind::kFlush, 0);
        if (m == 5)
          filter ? fast_flush_m<5, true>(k, dup2, dup3) : fast_flush_m<5, false>(k, dup2, dup3);
        else if (m == 4)
          filter ? fast_flush_m<4, true>(k, dup2, dup3) : fast_flush_m<4, false>(k, dup2, dup3);
        else
          filter ? fast_flush_m<3, true>(k, dup2, dup3) : fast_flush_m<3, false>(k, dup2, dup3);
      }
    }
  }
  // The flushes of m natural cards of the suit in fr_ (suit_ranks: k ranks, dup2 / dup3 the
  // ranks held twice / three times), in the generic order: m distinct ranks by nested loops
  // accumulated as they go, then one rank twice, one three times, two twice; flush_j is the
  // jokers' part of the key (flush_j_).
  void generic_flush_m(int m, int k, unsigned dup2, unsigned dup3, int flush_j) {
    flush_j_ = flush_j;
    const unsigned all = (1u << k) - 1;
    if (m == 5)
      nest<5>(0, k, 0, 0, 0, 0);
    else if (m == 4)
      nest<4>(0, k, 0, 0, 0, 0);
    else
      nest<3>(0, k, 0, 0, 0, 0);
    if (m >= 4)
      for (unsigned d = dup2; d; d &= d - 1) combos(all & ~(d & -d), m - 2, d & -d, 0, false);
    if (m == 5) {
      for (unsigned t = dup3; t; t &= t - 1) combos(all & ~(t & -t), 2, t & -t, t & -t, false);
      for (unsigned d1 = dup2; d1; d1 &= d1 - 1)
        for (unsigned d2 = d1 & (d1 - 1); d2; d2 &= d2 - 1)
          combos(all & ~((d1 & -d1) | (d2 & -d2)), 1, (d1 & -d1) | (d2 & -d2), 0, false);
    }
  }
  // The key of a flush natural part of M cards with powers `sub` (4 bits each, high to low)
  // and 5 - M jokers (flush_key_out): auto puts the jokers' power 0 below, high power 12 above.
  template <int M>
  static constexpr std::uint32_t flush_key(std::uint32_t sub) {
    constexpr int J = 5 - M;
    constexpr std::uint32_t jokers = J == 0 ? 0u : (J == 1 ? 0xCu : 0xCCu);
    return kHigh ? five_key(Kind::kFlush, (jokers << (4 * M)) | sub)
                 : five_key(Kind::kFlush, sub << (4 * J));
  }
  // x with the n nibbles y inserted below its lowest `below` nibbles.
  static constexpr std::uint32_t insert_nibbles(std::uint32_t x, int below, std::uint32_t y,
                                                int n) {
    const std::uint32_t low = (1u << (4 * below)) - 1;
    return ((x & ~low) << (4 * n)) | (y << (4 * below)) | (x & low);
  }
  template <int M, bool kFilter>
  void fast_flush_m(int k, unsigned dup2, unsigned dup3) {
    constexpr int J = 5 - M;
    const std::uint32_t info = info_of(Kind::kFlush, 5, J);
    const unsigned all = (1u << k) - 1;
    const int n2 = __builtin_popcount(dup2), n3 = __builtin_popcount(dup3);
    std::size_t bound = kChoose.c[k][M];
    if (M >= 4) bound += std::size_t(n2) * kChoose.c[k - 1][M - 2];
    if (M == 5)
      bound += std::size_t(n3) * kChoose.c[k - 1][2] + kChoose.c[n2][2] * std::size_t(k - 2);
    Play* w = room(bound * comps(J));
    flush_nest_write<M, M, kFilter>(0, k, 0, 0, 0, 0, info, w);
    if constexpr (M >= 4) {
      for (unsigned d = dup2; d; d &= d - 1)
        flush_combo_write<M, M - 2, 2, kFilter>(all & ~(d & -d), low_bit(d), info, w);
    }
    if constexpr (M == 5) {
      for (unsigned t = dup3; t; t &= t - 1)
        flush_combo_write<M, 2, 3, kFilter>(all & ~(t & -t), low_bit(t), info, w);
      for (unsigned d1 = dup2; d1; d1 &= d1 - 1)
        for (unsigned d2 = d1 & (d1 - 1); d2; d2 &= d2 - 1)
          flush_two_pairs_write<kFilter>(all & ~((d1 & -d1) | (d2 & -d2)), low_bit(d1), low_bit(d2),
                                         info, w);
    }
    cur_ = w;
  }
  // T more distinct ranks from indices [from, k) (nest): lexicographic order, so the keys fall;
  // following, the first that does not beat ends the run (returns false).
  template <int M, int T, bool kFilter>
  [[gnu::always_inline]] bool flush_nest_write(int from, int k, std::uint64_t lo, std::uint64_t hi,
                                               std::uint32_t sub, unsigned ranks,
                                               std::uint32_t info, Play*& w) const {
    for (int i = from; i <= k - T; ++i) {
      const FlushRank& f = fr_[i];
      const std::uint64_t lo2 = lo | f.lo, hi2 = hi | f.hi;
      const std::uint32_t sub2 = (sub << 4) | f.power;
      const unsigned ranks2 = ranks | f.rank_bit;
      if constexpr (T == 1) {
        if (is_sequence(ranks2, rules_.wrap_straights)) continue;  // a sequence: family 3
        const std::uint32_t key = flush_key<M>(sub2);
        if (kFilter && key < min_key_) return false;
        w = write_nat<5 - M, false>(w, lo2, hi2, key, info);
      } else {
        if (!flush_nest_write<M, T - 1, kFilter>(i + 1, k, lo2, hi2, sub2, ranks2, info, w))
          return false;
      }
    }
    return true;
  }
  // T distinct indices of `avail` in colexicographic order (combos), with index d Mu times.
  template <int M, int T, int Mu, bool kFilter>
  void flush_combo_write(unsigned avail, int d, std::uint32_t info, Play*& w) const {
    int pos[13];
    int n = 0;
    for (unsigned x = avail; x; x &= x - 1) pos[n++] = low_bit(x);
    const FlushRank& fd = fr_[d];
    const std::uint64_t lo0 = fd.lo * Mu, hi0 = fd.hi * Mu;
    const std::uint32_t dd = Mu == 2 ? fd.power * 0x11u : fd.power * 0x111u;
    // chosen indices c_T > ... > c_1 (outer loops the higher): powers S (c_1's highest),
    // `after` of them above d
    const auto leaf = [&](std::uint64_t lo, std::uint64_t hi, std::uint32_t s, int after) {
      const std::uint32_t key = flush_key<M>(insert_nibbles(s, after, dd, Mu));
      w = write_nat<5 - M, kFilter>(w, lo, hi, key, info);
    };
    if constexpr (T == 1) {
      for (int c1 = 0; c1 < n; ++c1) {
        const FlushRank& f1 = fr_[pos[c1]];
        leaf(lo0 + f1.lo, hi0 + f1.hi, f1.power, pos[c1] > d);
      }
    } else if constexpr (T == 2) {
      for (int c2 = 1; c2 < n; ++c2) {
        const FlushRank& f2 = fr_[pos[c2]];
        const std::uint64_t lo2 = lo0 + f2.lo, hi2 = hi0 + f2.hi;
        const int a2 = pos[c2] > d;
        for (int c1 = 0; c1 < c2; ++c1) {
          const FlushRank& f1 = fr_[pos[c1]];
          leaf(lo2 + f1.lo, hi2 + f1.hi, (f1.power << 4) | f2.power, a2 + (pos[c1] > d));
        }
      }
    } else {
      for (int c3 = 2; c3 < n; ++c3) {
        const FlushRank& f3 = fr_[pos[c3]];
        const std::uint64_t lo3 = lo0 + f3.lo, hi3 = hi0 + f3.hi;
        const int a3 = pos[c3] > d;
        for (int c2 = 1; c2 < c3; ++c2) {
          const FlushRank& f2 = fr_[pos[c2]];
          const std::uint64_t lo2 = lo3 + f2.lo, hi2 = hi3 + f2.hi;
          const std::uint32_t s2 = (f2.power << 4) | f3.power;
          const int a2 = a3 + (pos[c2] > d);
          for (int c1 = 0; c1 < c2; ++c1) {
            const FlushRank& f1 = fr_[pos[c1]];
            leaf(lo2 + f1.lo, hi2 + f1.hi, (f1.power << 8) | s2, a2 + (pos[c1] > d));
          }
        }
      }
    }
  }
  // One index of `avail` (ascending) with indices d1 < d2 twice each.
  template <bool kFilter>
  void flush_two_pairs_write(unsigned avail, int d1, int d2, std::uint32_t info, Play*& w) const {
    const FlushRank &f1 = fr_[d1], &f2 = fr_[d2];
    const std::uint64_t lo0 = 2 * (f1.lo + f2.lo), hi0 = 2 * (f1.hi + f2.hi);
    const std::uint32_t pairs = (f1.power * 0x11u << 8) | (f2.power * 0x11u);
    for (unsigned x = avail; x; x &= x - 1) {
      const int i = low_bit(x);
      const FlushRank& f = fr_[i];
      const int after = 2 * (d1 > i) + 2 * (d2 > i);  // the pairs' cards above i's place
      const std::uint32_t key = flush_key<5>(insert_nibbles(pairs, after, f.power, 1));
      w = write_nat<0, kFilter>(w, lo0 + f.lo, hi0 + f.hi, key, info);
    }
  }

  bool stop() const { return (kMode == kSelect || kMode == kAny) && done_; }
  // A block of n plays known to be legal, in generation order: counted at once (kCount),
  // skipped when the target lies beyond it (kSelect), or found (kAny, when n > 0). Returns
  // true if the caller need not enumerate the block.
  bool take_block(std::size_t n) {
    if constexpr (kMode == kCount) {
      count_ += n;
      return true;
    } else if constexpr (kMode == kSelect) {
      if (target_ < n) return false;
      target_ -= n;
      return true;
    } else if constexpr (kMode == kAny) {
      if (n == 0) return true;
      if (pick_) return false;  // the caller wants the play itself
      done_ = true;
      return true;
    } else {
      return false;
    }
  }

  int level_;
  int copies_;  // R18: faces per deck set, carried by every play (Play::copies)
  const Rules& rules_;
  PlayList* list_;
  Play* cur_ = nullptr;
  Play* end_ = nullptr;
  std::size_t count_ = 0;
  PlayCounts* counts_ = nullptr;
  std::size_t target_ = 0;
  Play* pick_ = nullptr;
  bool done_ = false;
  std::uint8_t cfg_[13];
  std::uint8_t n_[13];
  std::uint8_t power_[13];
  unsigned present_ = 0;
  int sj_ = 0, bj_ = 0, jt_ = 0;
  std::uint64_t comp_[7][4];
  int ncomp_[7];
  std::uint32_t min_key_ = 0;
  int size_ = 0;
  Single single_[13][4];
  // parts of size a at parts_ + kPartOffset[a]; at most 13 x (4, 10, 20, 31) of them
  static constexpr int kPartOffset[6] = {0, 0, 52, 182, 442, 845};
  Part parts_[845];
  std::uint16_t part_start_[5][14];
  int nparts_[5];
  int nsingle_[13];
  std::uint32_t key_st_ = 0, key_sf_ = 0;
  int seq_j_ = 0;
  int flush_j_ = 0;  // jokers of the flushes being enumerated, + kLimitedFlush at 4p2d
  static constexpr int kLimitedFlush = 8;
  FlushRank fr_[13];
  std::vector<std::uint32_t> keys_;
  std::uint32_t info0_ = 0;  // play_info of the level and table (the writing fast paths)
  std::uint64_t hand_lo_ = 0, hand_hi_ = 0;
};

}  // namespace

const std::uint8_t* sub_begin(int h, int k) { return subs_begin(h, k); }
const std::uint8_t* sub_end(int h, int k) { return subs_end(h, k); }

}  // namespace detail

namespace detail {
namespace {

// Call f.template operator()<kDeclare, kHigh, kFollow>() for the rules and top at hand.
template <class F>
void dispatch(const Rules& rules, const Play* top, F&& f) {
  const bool high = rules.wild != Wild::kAuto;
  if (rules.wild == Wild::kDeclare) {
    if (top)
      f.template operator()<true, true, true>();
    else
      f.template operator()<true, true, false>();
  } else if (high) {
    if (top)
      f.template operator()<false, true, true>();
    else
      f.template operator()<false, true, false>();
  } else {
    if (top)
      f.template operator()<false, false, true>();
    else
      f.template operator()<false, false, false>();
  }
}

bool playable_top(const Play* top) {
  return !top || top->size() == 1 || top->size() == 2 || top->size() == 3 || top->size() == 5;
}

// The hand's cards of suit s and its jokers: a flush uses one suit, so this hand has exactly
// the flushes of suit s that `hand` has, in the same order.
Cards suit_and_jokers(const Cards& hand, int s) {
  return Cards{hand.lo & (0x0303030303030303ULL << (2 * s)),
               (hand.hi & Cards::kHiNatural & (0x0303030303ULL << (2 * s))) |
                   (hand.hi & ~Cards::kHiNatural)};
}

// The flushes that beat a flush top (auto / high), per suit, in Gen's order (suit by suit): a
// suit whose best flush cannot beat the top has none, one whose worst flush beats has all of
// them (FastCount's formula), the others are counted by Gen on suit_and_jokers. The bounds
// read the top nibble of the key (the highest power of the five, R7): at most the suit's
// highest power (12 under high with jokers), at least its third lowest (a flush has >= 3 ranks).
// 4p2d with jokers (keys from the naturals, R18): Gen for every suit.
void flush_top_suits(const Cards& hand, int level, const Rules& rules, const Play& top,
                     std::size_t out[kNumSuits]) {
  FastCount f(hand, level, rules);
  f.prepare();
  const std::uint32_t t = top.key + 1 - five_key(Kind::kFlush, 0);  // key_sub >= t beats
  const bool jokers = hand.sj() + hand.bj() > 0;
  const bool bounds = !jokers || rules.table == TableKind::k6p3d;
  const std::uint8_t* power = kRankPowers.p[level];
  for (int s = 0; s < kNumSuits; ++s) {
    out[s] = 0;
    const unsigned ranks = suit_rank_mask(hand, s);
    if (__builtin_popcount(ranks) < 3) continue;
    if (bounds) {
      unsigned powers = 0;
      for (unsigned x = ranks; x; x &= x - 1) powers |= 1u << power[low_bit(x)];
      const int p_max = 31 - __builtin_clz(powers);
      const unsigned rest = powers & (powers - 1);
      const int p_low3 = low_bit(rest & (rest - 1));
      const int top_max = (rules.wild != Wild::kAuto && jokers) ? kLevelPower : p_max;
      if ((std::uint32_t(top_max + 1) << 16) <= t) continue;  // none beats
      if ((std::uint32_t(p_low3) << 16) >= t) {               // all beat
        out[s] = std::size_t(f.flushes_in_suit(s, sequences_inside().n[rules.wrap_straights]));
        continue;
      }
    }
    const Cards sh = suit_and_jokers(hand, s);
    dispatch(rules, &top, [&]<bool D, bool H, bool F>() {
      PlayCounts pc;
      Gen<D, H, F, kCount> g(sh, level, rules, &top, nullptr);
      g.set_counts(&pc);
      g.run(6);
      out[s] = pc.family[6];
    });
  }
}

}  // namespace
}  // namespace detail

PlayCounts count_plays(const Cards& hand, int level, const Rules& rules, const Play* top) {
  PlayCounts c;
  if (!detail::playable_top(top)) return c;
  if (rules.wild != Wild::kDeclare) {  // arithmetic where it covers the position
    detail::FastCount f(hand, level, rules);
    if (f.ok()) {
      if (!top) {
        f.lead(&c);
        return c;
      }
      const int left = f.follow(*top, &c);
      if (left == detail::FastCount::kDone) return c;
      if (left == 5) {  // the sequences after a straight or straight flush: by the selecting walk
        c.family[5] = std::uint32_t(detail::FastSelect(hand, level, rules, top).count_sequences());
        c.total = 0;
        for (std::uint32_t n : c.family) c.total += n;
        return c;
      }
      if (left == 6) {  // the flushes after a flush: suit by suit
        std::size_t per_suit[kNumSuits];
        detail::flush_top_suits(hand, level, rules, *top, per_suit);
        c.family[6] = std::uint32_t(per_suit[0] + per_suit[1] + per_suit[2] + per_suit[3]);
        c.total = 0;
        for (std::uint32_t n : c.family) c.total += n;
        return c;
      }
      if (left >= 0) {  // one family by the generator
        PlayCounts g;
        detail::dispatch(rules, top, [&]<bool D, bool H, bool F>() {
          detail::Gen<D, H, F, detail::kCount> gen(hand, level, rules, top, nullptr);
          gen.set_counts(&g);
          gen.run(left);
        });
        c.family[std::size_t(left)] = g.family[std::size_t(left)];
        c.total = 0;
        for (std::uint32_t n : c.family) c.total += n;
        return c;
      }
      c = PlayCounts{};
    }
  }
  detail::dispatch(rules, top, [&]<bool D, bool H, bool F>() {
    detail::Gen<D, H, F, detail::kCount> g(hand, level, rules, top, nullptr);
    g.set_counts(&c);
    g.run();
  });
  return c;
}

Play play_at(const Cards& hand, int level, const Rules& rules, const Play* top,
             const PlayCounts& counts, std::size_t index) {
  if (index >= counts.total)
    throw std::out_of_range("play index " + std::to_string(index) + " out of range (" +
                            std::to_string(counts.total) + " legal plays)");
  int f = 0;
  while (index >= counts.family[std::size_t(f)]) index -= counts.family[std::size_t(f++)];
  if (f == 0 && level >= 0 && level < kNumRanks) {
    // Singles (any `wild`: a joker single is never wild, R6): the index-th face held of the
    // ranks that beat, in face order, then SJ, BJ.
    const std::uint32_t min_key = top ? top->key + 1 : 0;
    const unsigned ok = detail::ranks_with_power_from(level, int((min_key + 1) >> 1));
    std::uint64_t bits[2] = {hand.present_lo() & detail::kExpand.lo[ok & 0xFF],
                             hand.present_hi() & detail::kExpand.lo[ok >> 8]};
    const int copies = table_of(rules).decks;
    for (int w = 0; w < 2; ++w) {
      const std::size_t n = std::size_t(__builtin_popcountll(bits[w]));
      if (index >= n) {
        index -= n;
        continue;
      }
      std::uint64_t x = bits[w];
      for (std::size_t i = 0; i < index; ++i) x &= x - 1;
      const int face = 32 * w + __builtin_ctzll(x) / 2;
      Play p;
      if (w == 0)
        p.cards.lo = std::uint64_t(1) << (2 * face);
      else
        p.cards.hi = std::uint64_t(1) << (2 * (face - 32));
      p.key = small_key(rank_power(face_rank(face), level));
      p.info = play_info(Kind::kSingle, 1, 0, level, copies);
      return p;
    }
    const bool sj = hand.sj() && small_key(kSJPower) >= min_key;
    const bool bj = hand.bj() && small_key(kBJPower) >= min_key;
    if (index == 0 && sj) {
      Play p;
      p.cards.hi = std::uint64_t(1) << 40;
      p.key = small_key(kSJPower);
      p.info = play_info(Kind::kSingle, 1, 1, level, copies);
      return p;
    }
    if (index == std::size_t(sj) && bj) {
      Play p;
      p.cards.hi = std::uint64_t(1) << 42;
      p.key = small_key(kBJPower);
      p.info = play_info(Kind::kSingle, 1, 1, level, copies);
      return p;
    }
    throw std::logic_error("play_at: counts do not match this hand and top");
  }
  Play pick;
  if (rules.wild != Wild::kDeclare && level >= 0 && level < kNumRanks) {
    const int r = detail::FastSelect(hand, level, rules, top).select(f, index, &pick);
    if (r == detail::FastSelect::kFound) return pick;
    if (r == detail::FastSelect::kMissing)
      throw std::logic_error("play_at: counts do not match this hand and top");
  }
  bool found = false;
  detail::dispatch(rules, top, [&]<bool D, bool H, bool F>() {
    detail::Gen<D, H, F, detail::kSelect> g(hand, level, rules, top, nullptr);
    g.set_pick(index, &pick);
    g.run(f);
    found = g.found();
  });
  if (!found) throw std::logic_error("play_at: counts do not match this hand and top");
  return pick;
}

bool sample_play(const Cards& hand, int level, const Rules& rules, const Play* top, Rng& rng,
                 Play* out) {
  const PlayCounts c = count_plays(hand, level, rules, top);
  if (c.total == 0) return false;
  *out = play_at(hand, level, rules, top, c, std::size_t(rng.bounded(c.total)));
  return true;
}

void legal_plays(const Cards& hand, int level, const Rules& rules, const Play* top, PlayList* out) {
  if (top && top->size() != 1 && top->size() != 2 && top->size() != 3 && top->size() != 5) return;
  using namespace detail;
  const bool high = rules.wild != Wild::kAuto;
  if (rules.wild == Wild::kDeclare) {
    if (top)
      Gen<true, true, true>(hand, level, rules, top, out).run();
    else
      Gen<true, true, false>(hand, level, rules, top, out).run();
  } else if (high) {
    if (top)
      Gen<false, true, true>(hand, level, rules, top, out).run();
    else
      Gen<false, true, false>(hand, level, rules, top, out).run();
  } else {
    if (top)
      Gen<false, false, true>(hand, level, rules, top, out).run();
    else
      Gen<false, false, false>(hand, level, rules, top, out).run();
  }
}

void legal_plays_of_family(const Cards& hand, int level, const Rules& rules, const Play* top,
                           int family, PlayList* out) {
  if (family < 0 || family >= kNumFamilies)
    throw GameError("family must be 0.." + std::to_string(kNumFamilies - 1) + ", got " +
                    std::to_string(family));
  if (!detail::playable_top(top)) return;
  detail::dispatch(rules, top, [&]<bool D, bool H, bool F>() {
    detail::Gen<D, H, F>(hand, level, rules, top, out).run(family);
  });
}

namespace detail {
void legal_plays_generic(const Cards& hand, int level, const Rules& rules, const Play* top,
                         PlayList* out) {
  if (!playable_top(top)) return;
  dispatch(rules, top, [&]<bool D, bool H, bool F>() {
    Gen<D, H, F, kWriteRef>(hand, level, rules, top, out).run();
  });
}
}  // namespace detail

std::vector<Play> legal_plays(const Cards& hand, int level, const Rules& rules, const Play* top) {
  PlayList list;
  legal_plays(hand, level, rules, top, &list);
  return std::vector<Play>(list.begin(), list.end());
}

void check_play(const Cards& hand, const Play& play, int level, const Rules& rules,
                const Play* top) {
  if (!hand.contains(play.cards)) {
    Cards missing;
    for (int f = 0; f < kNumFaces; ++f)
      if (play.cards.count(f) > hand.count(f)) missing.add(f, play.cards.count(f) - hand.count(f));
    throw CardError("not in hand: " + cards_text(missing) + " (hand: " + cards_text(hand) + ")");
  }
  if (play.level() != level)
    throw IllegalPlay("play '" + cards_text(play.cards) + "' was classified at level " +
                      level_text(play.level()) + ", the level is " + level_text(level));
  bool allowed = false;
  if (rules.wild == Wild::kDeclare) {
    for (const Play& p : interpretations(play.cards, level, rules)) allowed |= p == play;
  } else {
    Play p;
    allowed = classify(play.cards, level, rules, &p) && p == play;
  }
  if (!allowed)
    throw IllegalPlay("'" + cards_text(play.cards) + "' cannot be played as " +
                      kind_name(play.kind()) + " with key " + std::to_string(play.key) +
                      " under these rules (R5-R7)");
  if (top && !beats(play, *top))
    throw IllegalPlay("'" + cards_text(play.cards) + "' does not beat '" + cards_text(top->cards) +
                      "' (R7: same number of cards and strictly higher)");
}

bool has_legal_follow(const Cards& hand, int level, const Rules& rules, const Play& top) {
  if (!detail::playable_top(&top)) return false;
  bool found = false;
  detail::dispatch(rules, &top, [&]<bool D, bool H, bool F>() {
    detail::Gen<D, H, F, detail::kAny> g(hand, level, rules, &top, nullptr);
    g.run();  // stops at the first beating play
    found = g.found();
  });
  return found;
}

}  // namespace daguai
