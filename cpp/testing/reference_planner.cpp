// The reference planner: the heuristic's plan in its plainest form, kept as the slow,
// obvious statement of the plan (players/planner.hpp says what a plan is); the fast planner
// must make exactly the same plans (tests/players/test_analysis_planner.py compares them). It
// classifies every play it makes, the control units too.
#include "reference_planner.hpp"

#include <algorithm>

#include <daguai/players/planner.hpp>
#include <daguai/plays/five.hpp>

namespace daguai::testing {

namespace {

struct ReferencePlanner {
  int level;
  const Rules& rules;
  std::uint8_t cnt[13];  // natural non-level cards per rank
  Cards work;            // those cards

  ReferencePlanner(const Cards& hand, int lv, const Rules& r) : level(lv), rules(r) {
    work = hand.naturals();
    const Cards lvl = rank_cards(level, 0xFF);
    work = Cards{work.lo & ~lvl.lo, work.hi & ~lvl.hi};
    for (int r = 0; r < kNumRanks; ++r) cnt[r] = std::uint8_t(work.rank_count(r));
  }
  // Plays needed for c cards of one rank as singles / pairs / triples.
  static int units(int c) { return c == 0 ? 0 : (c + 2) / 3; }

  void take(int face) {
    work.remove(face);
    --cnt[face_rank(face)];
  }
  int any_face(int r) const {
    for (int s = 0; s < kNumSuits; ++s)
      if (work.count(make_face(r, s))) return make_face(r, s);
    return -1;
  }

  // The best five-card combination among natural non-level cards; returns saving and
  // fills `out` with its cards (0 = none worth it).
  int best_combo(Cards* out) const {
    int best = 0;
    auto consider = [&](int saving, const Cards& c) {
      if (saving > best) {
        best = saving;
        *out = c;
      }
    };
    // straights (and straight flushes): one card of five consecutive ranks (five.hpp)
    unsigned held = 0;  // ranks with a natural non-level card
    for (int r = 0; r < kNumRanks; ++r)
      if (cnt[r]) held |= 1u << r;
    for (int t = first_straight(rules.wrap_straights); t < kNumRanks; ++t) {
      const unsigned ranks = straight_ranks(t);
      if (ranks & (1u << level)) continue;  // keep level cards as controls
      if (window_gaps(t, held)) continue;   // no jokers in a plan's combination
      int saving = -1;
      Cards c;
      for (unsigned x = ranks; x; x &= x - 1) {
        const int r = __builtin_ctz(x);
        saving += units(cnt[r]) - units(cnt[r] - 1);
      }
      // prefer one suit (straight flush) when every rank has it
      int sf_suit = -1;
      for (int s = 0; s < kNumSuits && sf_suit < 0; ++s) {
        bool all = true;
        for (int r = 0; r < kNumRanks; ++r)
          if (((ranks >> r) & 1) && !work.count(make_face(r, s))) all = false;
        if (all) sf_suit = s;
      }
      for (int r = 0; r < kNumRanks; ++r)
        if ((ranks >> r) & 1) c.add(sf_suit >= 0 ? make_face(r, sf_suit) : any_face(r));
      consider(saving, c);
    }
    // full house (triple + pair) and four-plus-one (four + single): lowest ranks first
    for (int t = 0; t < kNumRanks; ++t) {
      if (cnt[t] == 3 || cnt[t] == 4) {
        for (int p = 0; p < kNumRanks; ++p) {
          if (p == t) continue;
          if (cnt[t] == 3 && cnt[p] == 2) {  // 2 plays -> 1
            Cards c;
            take_n(t, 3, &c);
            take_n(p, 2, &c);
            consider(1, c);
          }
          if (cnt[t] == 4 && cnt[p] == 1) {  // 2 + 1 plays -> 1
            Cards c;
            take_n(t, 4, &c);
            take_n(p, 1, &c);
            consider(2, c);
          }
        }
      }
      if (cnt[t] == 5) {
        Cards c;
        take_n(t, 5, &c);
        consider(1, c);  // triple + pair -> five of a kind
      }
    }
    // flushes: per suit, the five lowest cards whose rank is a single (4 plays saved)
    for (int s = 0; s < kNumSuits; ++s) {
      Cards c;
      int n = 0, saving = -1;
      unsigned ranks = 0;
      for (int p = 0; p < kLevelPower && n < 5; ++p) {
        const int r = power_rank(p, level);
        if (cnt[r] == 1 && work.count(make_face(r, s))) {
          c.add(make_face(r, s));
          ranks |= 1u << r;
          ++n;
          ++saving;
        }
      }
      if (n == 5 && !is_sequence(ranks, rules.wrap_straights)) consider(saving, c);
    }
    return best;
  }
  void take_n(int r, int n, Cards* c) const {
    for (int s = 0; s < kNumSuits && n > 0; ++s)
      for (int k = work.count(make_face(r, s)); k > 0 && n > 0; --k, --n) c->add(make_face(r, s));
  }

  void build(const Cards& hand, std::vector<Play>* plan) {
    plan->clear();
    Cards combo;
    while (best_combo(&combo) > 0) {
      Play p;
      if (classify(combo, level, rules, &p)) plan->push_back(p);
      for (int f = 0; f < kNumNatural; ++f)
        for (int k = combo.count(f); k > 0; --k) take(f);
      combo = Cards{};
    }
    // the rest by rank: triples, pairs, singles
    auto add_group = [&](const Cards& c) {
      Play p;
      if (!c.empty() && classify(c, level, rules, &p)) plan->push_back(p);
    };
    for (int r = 0; r < kNumRanks; ++r) {
      while (cnt[r] > 0) {
        const int n = cnt[r] >= 3 ? 3 : cnt[r];
        Cards c;
        take_n(r, n, &c);
        for (int f = 0; f < kNumNatural; ++f)
          for (int k = c.count(f); k > 0; --k) take(f);
        add_group(c);
      }
    }
    // controls: level cards by count (triples, then a pair or a single, lowest faces first),
    // then each small joker, then each big joker
    const Cards nat = hand.naturals();
    Cards lvl;
    for (int s = 0; s < kNumSuits; ++s)
      for (int k = nat.count(make_face(level, s)); k > 0; --k) lvl.add(make_face(level, s));
    while (!lvl.empty()) {
      Cards c;
      int n = std::min(3, lvl.size());
      for (int f = 0; f < kNumFaces && n > 0; ++f)
        for (int k = lvl.count(f); k > 0 && n > 0; --k, --n) c.add(f);
      lvl -= c;
      add_group(c);
    }
    for (int k = hand.sj(); k > 0; --k) add_group(Cards{0, 1ull << 40});
    for (int k = hand.bj(); k > 0; --k) add_group(Cards{0, 1ull << 42});
  }
};

}  // namespace

std::vector<Play> reference_heuristic_plan(const Cards& hand, int level, const Rules& rules) {
  std::vector<Play> plays;
  ReferencePlanner(hand, level, rules).build(hand, &plays);
  return plays;
}

}  // namespace daguai::testing
