// Hand analysis (配牌 / 手数): the exact minimum number of legal plays that empty a hand.
//
// Which card sets are plays (R5, R6; the families of five.hpp): the facts the search relies
// on (tests/plays/test_analysis_min_plays.py checks the results against a brute force over
// legal_plays):
//   1 card   any card (a joker is a single of its own face).
//   2, 3     naturals of one rank plus any number of jokers (joker-only included).
//   5        natural part N plus j jokers is a play iff N is empty (joker-only five), or all
//            of N is one suit (flush / straight flush / a group), or N has at most two ranks
//            (five of a kind / four-plus-one / full house), or N has distinct ranks that lie
//            in one straight window (straight / straight flush; windows per wrap_straights).
//            The 3-copy limit on interpretations never rules such a set out.
// So the count does not depend on the level or on `wild`. SJ and BJ are interchangeable for
// it (both are wild in every play of 2, 3 or 5 cards, and each is a single on its own), so
// the search keeps only the joker count J and hands out actual SJs/BJs at the end.
//
// Search: iterative deepening on the budget b ("at most b plays", monotone in b), from a
// lower bound up. With n cards left, the slack 5b - n is what the plays may waste: a play of
// s cards wastes 5 - s (a single 4, a pair 3, a triple 2, a five 0) and an unused budget 5,
// so slack < 0 and slack == 1 fail at once (e.g. 24 cards never fit 5 plays). In a node we
// pick one natural face x; exactly one play of any partition contains (a given copy of) x,
// so branching over the plays containing x is exhaustive. x is the face with the fewest
// estimated plays ("most constrained first"); a face that no five can contain is taken
// first. Plays are generated directly, each natural part in exactly one family (all of x's
// suit, one or two ranks, straight), once per joker count; small plays only if the slack
// allows them. A table of failed states (remaining naturals + J -> the largest budget proven
// too small) cuts repeats: many play orders reach the same remaining cards.
//
// Lower bound in a node: a card that no five of the remaining cards can contain (its suit
// has < 5 cards with the jokers, its rank reaches 5 with no other rank and the jokers, and
// every straight window through its rank misses more ranks than there are jokers; this
// single-card test is exact) must go into a single / pair / triple, which holds naturals of
// one rank only. With u such cards of rank r, at least ceil(u/3) small plays of rank r are
// needed, holding at most min(3 ceil(u/3), n_r + J) cards, so they waste at least
// 5 ceil(u/3) minus that; the small plays of different ranks are different plays.
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <daguai/plays/analysis.hpp>
#include <daguai/plays/five.hpp>
#include <daguai/plays/moves.hpp>

namespace daguai {
namespace {

inline int low_bit(unsigned x) { return __builtin_ctz(x); }

// Fewest joker-only plays for J jokers (sizes 1, 2, 3, 5): 4 = 2 + 2, 6 = 3 + 3.
constexpr int kJokerOnlyPlays[7] = {0, 1, 1, 1, 2, 1, 2};

// One play of the search: its natural cards and how many jokers it takes.
struct Move {
  Cards nat;
  int jokers;
  int size;
};

// Failed states: (naturals, J) -> the largest budget proven too small. Open addressing with
// a generation stamp so that a new search starts empty without clearing the table.
class FailTable {
 public:
  void reset() {
    if (table_.empty()) resize(1 << 12);
    if (++gen_ == 0) {  // stamp wrapped: clear for real
      for (Entry& e : table_) e.gen = 0;
      gen_ = 1;
    }
    used_ = 0;
  }
  int get(std::uint64_t lo, std::uint64_t hi) const {
    for (std::size_t i = slot(lo, hi);; i = (i + 1) & mask_) {
      const Entry& e = table_[i];
      if (e.gen != gen_) return -1;
      if (e.lo == lo && e.hi == hi) return e.value;
    }
  }
  void put(std::uint64_t lo, std::uint64_t hi, int value) {
    if (2 * (used_ + 1) > table_.size()) grow();
    insert(lo, hi, value);
  }

 private:
  struct Entry {
    std::uint64_t lo = 0, hi = 0;
    std::uint32_t gen = 0;
    std::int32_t value = 0;
  };
  std::size_t slot(std::uint64_t lo, std::uint64_t hi) const {
    std::uint64_t h =
        lo * 0x9E3779B97F4A7C15ULL ^ (hi + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    return std::size_t(h) & mask_;
  }
  void insert(std::uint64_t lo, std::uint64_t hi, int value) {
    for (std::size_t i = slot(lo, hi);; i = (i + 1) & mask_) {
      Entry& e = table_[i];
      if (e.gen != gen_) {
        e = Entry{lo, hi, gen_, value};
        ++used_;
        return;
      }
      if (e.lo == lo && e.hi == hi) {
        e.value = std::max(e.value, value);
        return;
      }
    }
  }
  void resize(std::size_t n) {
    table_.assign(n, Entry{});
    mask_ = n - 1;
  }
  void grow() {
    std::vector<Entry> old;
    old.swap(table_);
    const std::uint32_t g = gen_;
    resize(old.size() * 2);
    gen_ = 1;
    used_ = 0;
    for (const Entry& e : old)
      if (e.gen == g) insert(e.lo, e.hi, e.value);
  }
  std::vector<Entry> table_;
  std::size_t mask_ = 0, used_ = 0;
  std::uint32_t gen_ = 0;
};

class Solver {
 public:
  Solver(const Rules& rules, FailTable* fails) : wrap_(rules.wrap_straights), fails_(fails) {}

  // Lower bound on the number of plays for the whole hand.
  int lower_bound(const Cards& nat, int jokers) {
    Analysis a;
    analyse(nat, jokers, &a);
    return plays_lower_bound(nat.size() + jokers, a.forced_slack);
  }

  // Can (nat, jokers) be split into at most `budget` plays? On success, moves_ holds one
  // such split (deepest play first).
  bool search(const Cards& nat, int jokers, int n, int budget) {
    if (n == 0) return true;
    const int slack = 5 * budget - n;
    if (slack < 0 || slack == 1) return false;  // plays waste 0, 2, 3 or 4 cards: never 1 in all
    if (nat.empty()) {
      if (kJokerOnlyPlays[jokers] > budget) return false;
      // 1-3 and 5 jokers: one play; 4 = 2 + 2; 6 = 3 + 3.
      if (jokers == 4 || jokers == 6) {
        moves_.push_back(Move{Cards{}, jokers / 2, jokers / 2});
        moves_.push_back(Move{Cards{}, jokers / 2, jokers / 2});
      } else {
        moves_.push_back(Move{Cards{}, jokers, jokers});
      }
      return true;
    }
    const std::uint64_t key_hi = nat.hi | (std::uint64_t(jokers) << 40);
    if (fails_->get(nat.lo, key_hi) >= budget) return false;
    ++nodes_;

    Analysis a;
    analyse(nat, jokers, &a);
    if (a.forced_slack > slack) {
      // Store the budget this bound refutes, which may exceed the one asked about.
      fails_->put(nat.lo, key_hi, (n + a.forced_slack + 4) / 5 - 1);
      return false;
    }

    const std::size_t base = cand_.size();
    generate(a, jokers, slack);
    const std::size_t end = cand_.size();
    for (std::size_t i = base; i < end; ++i) {
      const Move m = cand_[i];
      if (search(nat - m.nat, jokers - m.jokers, n - m.size, budget - 1)) {
        moves_.push_back(m);
        cand_.resize(base);
        return true;
      }
    }
    cand_.resize(base);
    fails_->put(nat.lo, key_hi, budget);
    return false;
  }

  const std::vector<Move>& moves() const { return moves_; }
  long nodes() const { return nodes_; }

 private:
  struct Analysis {
    std::uint8_t cfg[kNumRanks];  // rank bytes of the naturals
    std::uint8_t n[kNumRanks];    // naturals per rank
    std::uint8_t d[kNumRanks];    // distinct suits per rank
    int ns[kNumSuits];            // naturals per suit
    unsigned present = 0;         // ranks with a natural
    unsigned rank_five = 0;       // ranks whose cards a five (not of one suit) can contain
    unsigned suit_five = 0;       // suits with >= 5 cards counting the jokers
    int forced_slack = 0;         // lower bound on the slack the small plays must waste
    int bx = -1;                  // branch face: rank, suit
    int bs = -1;
  };

  // Per-byte sums of the 2-bit fields of x (8 bytes -> 8 counts 0..12).
  static std::uint64_t byte_sums(std::uint64_t x) {
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    return (x & 0x0F0F0F0F0F0F0F0FULL) + ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL);
  }
  static int field_sum(std::uint64_t x) {
    return __builtin_popcountll(x & Cards::kLowBits) +
           2 * __builtin_popcountll(x & Cards::kHighBits);
  }

  void analyse(const Cards& nat, int jokers, Analysis* a) const {
    const std::uint64_t lo = nat.lo, hi = nat.hi & Cards::kHiNatural;
    // Counts per rank (bytes), distinct suits per rank, cards per suit.
    const std::uint64_t n_lo = byte_sums(lo), n_hi = byte_sums(hi);
    const std::uint64_t d_lo = byte_sums(nat.present_lo()),
                        d_hi = byte_sums(nat.present_hi() & Cards::kHiNatural);
    for (int q = 0; q < kNumSuits; ++q) {
      const std::uint64_t m = 0x0303030303030303ULL << (2 * q);
      a->ns[q] = field_sum(lo & m) + field_sum(hi & m);
      if (a->ns[q] + jokers >= 5) a->suit_five |= 1u << q;
    }
    int hist[16] = {};  // ranks per count
    for (int r = 0; r < kNumRanks; ++r) {
      const int sh = 8 * (r & 7);
      a->cfg[r] = std::uint8_t(nat.rank_byte(r));
      a->n[r] = std::uint8_t(((r < 8 ? n_lo : n_hi) >> sh) & 0xFF);
      a->d[r] = std::uint8_t(((r < 8 ? d_lo : d_hi) >> sh) & 0xFF);
      ++hist[a->n[r]];
    }
    a->present = rank_mask(nat);
    // at_least[c]: ranks with >= c naturals (c = 0..15).
    int at_least[17];
    at_least[16] = 0;
    for (int c = 15; c >= 0; --c) at_least[c] = at_least[c + 1] + hist[c];

    // Straights through each rank: windows whose gaps the jokers fill; the estimate weighs
    // each by the product of distinct suits at its other ranks.
    int st_est[kNumRanks] = {};
    for (int t = first_straight(wrap_); t < kNumRanks; ++t) {
      const int missing = window_gaps(t, a->present);
      if (missing > jokers || missing == 5) continue;
      const unsigned w = straight_ranks(t);
      int prod = 1;
      for (unsigned x = w & a->present; x; x &= x - 1) prod *= a->d[low_bit(x)];
      for (unsigned x = w & a->present; x; x &= x - 1) {
        const int r = low_bit(x);
        st_est[r] += prod / a->d[r];
        a->rank_five |= 1u << r;
      }
    }
    int best = 1 << 30;
    for (unsigned y = a->present; y; y &= y - 1) {
      const int r = low_bit(y), nr = a->n[r];
      int est = st_est[r];
      // Groups: one rank with >= 5 - J, or two ranks together with >= 5 - J.
      const int need = std::max(0, 5 - jokers - nr);  // cards wanted from one other rank
      const int partners =
          (need == 0 ? at_least[1] : at_least[need]) - (nr >= std::max(need, 1) ? 1 : 0);
      if (nr + jokers >= 5 || partners > 0) {
        a->rank_five |= 1u << r;
        est += 2 + 4 * partners;
      }
      int unfive = 0;
      for (int q = 0; q < kNumSuits; ++q) {
        const int k = (a->cfg[r] >> (2 * q)) & 3;
        if (!k) continue;
        int e = est;
        if (a->suit_five >> q & 1) {
          const int t = a->ns[q] - 1 + jokers;  // C(t, 4): the flushes through this card
          e += t * (t - 1) * (t - 2) * (t - 3) / 24;
        } else if (!(a->rank_five >> r & 1)) {
          unfive += k;
          e = -1;  // only small plays: take it first
        }
        if (e < best) {
          best = e;
          a->bx = r;
          a->bs = q;
        }
      }
      if (unfive) {
        const int p = (unfive + 2) / 3;
        a->forced_slack += 5 * p - std::min(3 * p, nr + jokers);
      }
    }
  }

  void push(const Cards& nat, int jokers, int size) { cand_.push_back(Move{nat, jokers, size}); }

  // Every play containing the branch face x, that the slack allows; fives first.
  void generate(const Analysis& a, int jokers, int slack) {
    using detail::sub_begin;
    using detail::sub_end;
    const int r0 = a.bx, s0 = a.bs;
    const unsigned xbyte = 1u << (2 * s0);
    const Cards x = rank_cards(r0, xbyte);
    const unsigned rest0 = a.cfg[r0] - xbyte;   // rank r0 without x
    const unsigned suit_only = 3u << (2 * s0);  // the bits of suit s0 in a rank byte
    for (int j = 0; j <= std::min(jokers, 4); ++j) {
      const int m = 5 - j;  // naturals, x included
      // Family 1: every natural of suit s0 (flush, straight flush, or a group of that suit).
      if (a.suit_five >> s0 & 1) flush_rec(a, s0, r0, 0, m - 1, x, j);
      // Family 2a: one rank, not all of suit s0.
      for (const std::uint8_t* g = sub_begin(int(rest0), m - 1); g != sub_end(int(rest0), m - 1);
           ++g)
        if (*g & ~suit_only) push(x + rank_cards(r0, *g), j, 5);
      // Family 2b: two ranks, not all of suit s0.
      if (m >= 2) {
        for (int r = 0; r < kNumRanks; ++r) {
          if (r == r0 || !a.n[r] || a.n[r0] + a.n[r] + j < 5) continue;
          for (int k = 0; k <= m - 2; ++k) {  // k more of rank r0, m - 1 - k of rank r
            if (k > a.n[r0] - 1 || m - 1 - k > a.n[r]) continue;
            for (const std::uint8_t* g = sub_begin(int(rest0), k); g != sub_end(int(rest0), k);
                 ++g) {
              const Cards c1 = x + rank_cards(r0, *g);
              for (const std::uint8_t* h = sub_begin(a.cfg[r], m - 1 - k);
                   h != sub_end(a.cfg[r], m - 1 - k); ++h)
                if ((*g | *h) & ~suit_only) push(c1 + rank_cards(r, *h), j, 5);
            }
          }
        }
      }
      // Family 3: m >= 3 distinct ranks inside a straight, one face each, not all of suit s0.
      if (m >= 3) {
        for (std::uint16_t mask : sequence_masks_through(wrap_, r0, m)) {
          if ((mask & a.present) != mask) continue;
          int ranks[5], k = 0;
          for (unsigned y = mask & ~(1u << r0); y; y &= y - 1) ranks[k++] = low_bit(y);
          seq_rec(a, ranks, k, 0, x, false, s0, j);
        }
      }
    }
    if (slack >= 2)  // triples: x + two of rank r0 or jokers
      for (int j = 0; j <= std::min(jokers, 2); ++j)
        for (const std::uint8_t* g = sub_begin(int(rest0), 2 - j); g != sub_end(int(rest0), 2 - j);
             ++g)
          push(x + rank_cards(r0, *g), j, 3);
    if (slack >= 3)  // pairs
      for (int j = 0; j <= std::min(jokers, 1); ++j)
        for (const std::uint8_t* g = sub_begin(int(rest0), 1 - j); g != sub_end(int(rest0), 1 - j);
             ++g)
          push(x + rank_cards(r0, *g), j, 2);
    if (slack >= 4) push(x, 0, 1);
  }

  // Choose `need` more naturals of suit s (multiset) from ranks >= r, x's copy excluded.
  void flush_rec(const Analysis& a, int s, int r0, int r, int need, const Cards& acc, int j) {
    if (need == 0) {
      push(acc, j, 5);
      return;
    }
    for (; r < kNumRanks; ++r) {
      int have = (a.cfg[r] >> (2 * s)) & 3;
      if (r == r0) --have;
      for (int c = 1; c <= std::min(have, need); ++c)
        flush_rec(a, s, r0, r + 1, need - c, acc + rank_cards(r, unsigned(c) << (2 * s)), j);
    }
  }

  // One face per rank in ranks[i..k); skip the sets whose faces are all of suit s0.
  void seq_rec(const Analysis& a, const int* ranks, int k, int i, const Cards& acc, bool mixed,
               int s0, int j) {
    if (i == k) {
      if (mixed) push(acc, j, 5);
      return;
    }
    const int r = ranks[i];
    for (int s = 0; s < kNumSuits; ++s)
      if ((a.cfg[r] >> (2 * s)) & 3)
        seq_rec(a, ranks, k, i + 1, acc + rank_cards(r, 1u << (2 * s)), mixed || s != s0, s0, j);
  }

  bool wrap_;
  FailTable* fails_;
  std::vector<Move> cand_;
  std::vector<Move> moves_;
  long nodes_ = 0;
};

}  // namespace

Partition min_plays(const Cards& hand, int level, const Rules& rules) {
  if (level < 0 || level >= kNumRanks) throw CardError("min_plays: level out of range");
  if (hand.hi & ~Cards::kHiValid) throw CardError("min_plays: corrupt cards");
  thread_local FailTable fails;
  fails.reset();
  Solver solver(rules, &fails);
  const Cards nat = hand.naturals();
  const int jokers = hand.jokers();
  const int n = hand.size();
  int budget = solver.lower_bound(nat, jokers);
  while (!solver.search(nat, jokers, n, budget)) ++budget;

  // Hand out SJs first, then BJs (either is fine: see above), and classify each play as
  // classify() does.
  Partition out;
  int sj = hand.sj();
  for (auto it = solver.moves().rbegin(); it != solver.moves().rend(); ++it) {
    Cards c = it->nat;
    for (int k = 0; k < it->jokers; ++k) {
      c.add(sj > 0 ? kSJ : kBJ);
      --sj;
    }
    Play p;
    if (!classify(c, level, rules, &p))
      throw std::logic_error("min_plays: internal error, not a play: " + cards_text(c));
    out.plays.push_back(p);
  }
  // Canonical order: larger plays first, then by key (then by cards, for ties).
  std::sort(out.plays.begin(), out.plays.end(), [](const Play& a, const Play& b) {
    if (a.size() != b.size()) return a.size() > b.size();
    if (a.key != b.key) return a.key < b.key;
    return a.cards.hi != b.cards.hi ? a.cards.hi < b.cards.hi : a.cards.lo < b.cards.lo;
  });
  out.count = int(out.plays.size());
  return out;
}

}  // namespace daguai
