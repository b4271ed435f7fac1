#include <algorithm>

#include <daguai/core/table.hpp>
#include <daguai/players/planner.hpp>
#include <daguai/plays/analysis.hpp>
#include <daguai/plays/five.hpp>

namespace daguai {

namespace {

// The ranks of suit s among cards: bit r set when the face (r, s) is held. Each rank is one
// byte (2 bits a suit, cards.hpp); the multiplication gathers the bytes' low bits.
inline unsigned suit_ranks(const Cards& c, int s) {
  constexpr std::uint64_t kGather = 0x0102040810204080ULL;
  const std::uint64_t lo = (c.lo >> (2 * s)) & 0x0303030303030303ULL;
  const std::uint64_t hi = (c.hi >> (2 * s)) & 0x0000000303030303ULL;  // ranks 8..12
  const std::uint64_t lo1 = (lo | lo >> 1) & 0x0101010101010101ULL;
  const std::uint64_t hi1 = (hi | hi >> 1) & 0x0000000101010101ULL;
  return unsigned((lo1 * kGather) >> 56) | unsigned((hi1 * kGather) >> 56) << 8;
}

// The planner the heuristic uses: the same plans as the reference planner (testing/), with
// less work per step - a combination's cards are built only when it beats the best so far,
// the straight flush test reads per-suit rank masks made once per step, the savings of a rank
// are read from a table, and taken cards leave `work` by subtraction (no face loop).
// Candidates are considered in the reference's order and a later one wins only with a
// strictly larger saving, so the choice is the reference's.
struct Planner {
  int level;
  const Rules& rules;
  std::uint8_t cnt[13];  // natural non-level cards per rank
  Cards work;            // those cards
  // Ranks by their count in work, kept with cnt (set_rank): whose next card saves a play
  // (cnt % 3 == 1), with one card, two, three, four, five.
  unsigned gains = 0, singles = 0, pairs = 0, threes = 0, fours = 0, fives = 0;

  Planner(const Cards& hand, int lv, const Rules& r) : level(lv), rules(r) {
    work = hand.naturals();
    const Cards lvl = rank_cards(level, 0xFF);
    work = Cards{work.lo & ~lvl.lo, work.hi & ~lvl.hi};
    for (int r = 0; r < kNumRanks; ++r) {
      const int c = work.rank_count(r);
      cnt[r] = std::uint8_t(c);
      gains |= unsigned(gain(c)) << r;
      singles |= unsigned(c == 1) << r;
      pairs |= unsigned(c == 2) << r;
      threes |= unsigned(c == 3) << r;
      fours |= unsigned(c == 4) << r;
      fives |= unsigned(c == 5) << r;
    }
  }
  // units(c) - units(c - 1) for c cards of a rank as singles / pairs / triples: 1 when c % 3 == 1
  static int gain(int c) { return c % 3 == 1 ? 1 : 0; }
  void set_rank(int r) {
    const unsigned bit = 1u << r, c = cnt[r];
    auto put = [&](unsigned* m, bool on) { *m = on ? *m | bit : *m & ~bit; };
    put(&gains, gain(int(c)));
    put(&singles, c == 1);
    put(&pairs, c == 2);
    put(&threes, c == 3);
    put(&fours, c == 4);
    put(&fives, c == 5);
  }
  // The lowest suit of rank r in work (the reference's any_face).
  int any_face(int r) const {
    const int byte = work.rank_byte(r);
    return make_face(r, __builtin_ctz(unsigned(byte)) >> 1);
  }
  void take_n(int r, int n, Cards* c) const {
    for (int s = 0; s < kNumSuits && n > 0; ++s)
      for (int k = work.count(make_face(r, s)); k > 0 && n > 0; --k, --n) c->add(make_face(r, s));
  }
  void take(const Cards& c) {
    work -= c;
    const unsigned ranks =
        suit_ranks(c, 0) | suit_ranks(c, 1) | suit_ranks(c, 2) | suit_ranks(c, 3);
    for (unsigned x = ranks; x; x &= x - 1) {
      const int r = __builtin_ctz(x);
      cnt[r] = std::uint8_t(cnt[r] - c.rank_count(r));
      set_rank(r);
    }
  }

  int best_combo(Cards* out) const {
    int best = 0;
    unsigned suit_held[4];  // per suit, the ranks it holds in work
    for (int s = 0; s < kNumSuits; ++s) suit_held[s] = suit_ranks(work, s);
    const unsigned held = suit_held[0] | suit_held[1] | suit_held[2] | suit_held[3];
    for (int t = first_straight(rules.wrap_straights); t < kNumRanks; ++t) {
      const unsigned ranks = straight_ranks(t);
      if (ranks & (1u << level)) continue;
      if (window_gaps(t, held)) continue;
      const int saving = __builtin_popcount(ranks & gains) - 1;
      if (saving <= best) continue;
      int sf_suit = -1;
      for (int s = 0; s < kNumSuits && sf_suit < 0; ++s)
        if ((ranks & ~suit_held[s]) == 0) sf_suit = s;
      Cards c;
      for (unsigned x = ranks; x; x &= x - 1) {
        const int r = __builtin_ctz(x);
        c.add(sf_suit >= 0 ? make_face(r, sf_suit) : any_face(r));
      }
      best = saving;
      *out = c;
    }
    if (best < 2) {
      // the reference scans p upwards for each t: the lowest rank p != t with 2 (1) cards
      // (only ranks with three to five cards can start one: the others are skipped)
      for (unsigned x = threes | fours | fives; x && best < 2; x &= x - 1) {
        const int t = __builtin_ctz(x);
        if (cnt[t] == 3 && best < 1) {
          const unsigned ps = pairs & ~(1u << t);
          if (ps) {
            Cards c;
            take_n(t, 3, &c);
            take_n(__builtin_ctz(ps), 2, &c);
            best = 1;
            *out = c;
          }
        }
        if (cnt[t] == 4) {
          const unsigned ps = singles & ~(1u << t);
          if (ps) {
            Cards c;
            take_n(t, 4, &c);
            take_n(__builtin_ctz(ps), 1, &c);
            best = 2;
            *out = c;
          }
        }
        if (cnt[t] == 5 && best < 1) {
          Cards c;
          take_n(t, 5, &c);
          best = 1;
          *out = c;
        }
      }
    }
    if (best < 4) {  // a flush saves 4 plays
      // the reference takes, per suit, the five lowest-power single ranks; work holds no
      // level card, so power order is rank order: the five lowest bits
      for (int s = 0; s < kNumSuits; ++s) {
        unsigned cand = singles & suit_held[s];
        if (__builtin_popcount(cand) < 5) continue;
        unsigned ranks = 0;
        for (int n = 0; n < 5; ++n, cand &= cand - 1) ranks |= cand & (0u - cand);
        if (is_sequence(ranks, rules.wrap_straights)) continue;
        Cards c;
        for (unsigned x = ranks; x; x &= x - 1) c.add(make_face(__builtin_ctz(x), s));
        best = 4;
        *out = c;
        break;
      }
    }
    return best;
  }

  // The natural part of the plan into *plan (cleared first); *combos: how many plays at its
  // front are the combinations taken, in order (counting stops at one that does not classify).
  void build_naturals(std::vector<Play>* plan, std::uint8_t* combos = nullptr) {
    plan->clear();
    Cards combo;
    bool in_order = true;
    std::uint8_t n = 0;
    while (best_combo(&combo) > 0) {
      Play p;
      if (classify(combo, level, rules, &p)) {
        plan->push_back(p);
        n = std::uint8_t(n + in_order);
      } else {
        in_order = false;
      }
      take(combo);
      combo = Cards{};
    }
    if (combos) *combos = n;
    // The rest by rank in units of up to three: natural non-level cards of one rank, so the
    // play is known without classifying (pattern.hpp keys: the rank's power).
    const std::uint32_t decks = std::uint32_t(table_of(rules).decks);
    for (int r = 0; r < kNumRanks; ++r) {
      const std::uint32_t key = small_key(rank_power(r, level));
      while (cnt[r] > 0) {
        const int n = cnt[r] >= 3 ? 3 : cnt[r];
        Play p;
        take_n(r, n, &p.cards);
        work -= p.cards;
        cnt[r] = std::uint8_t(cnt[r] - n);
        p.key = key;
        p.info = play_info(n == 1   ? Kind::kSingle
                           : n == 2 ? Kind::kPair
                                    : Kind::kTriple,
                           n, 0, level, int(decks));
        plan->push_back(p);
      }
    }
  }

  void build(const Cards& hand, std::vector<Play>* plan) {
    build_naturals(plan);
    add_control_units(hand, level, rules, plan);
  }
};

// The natural non-level cards of a hand: the planner's input.
Cards natural_work(const Cards& hand, int level) {
  const Cards nat = hand.naturals(), lvl = rank_cards(level, 0xFF);
  return Cards{nat.lo & ~lvl.lo, nat.hi & ~lvl.hi};
}

// The level and the rule fields a plan depends on (the classification of its plays, the
// straights), as one word.
std::uint32_t plan_rules_key(int level, const Rules& rules) {
  return std::uint32_t(level) | std::uint32_t(rules.wrap_straights) << 8 |
         std::uint32_t(rules.wild) << 9 | std::uint32_t(rules.joker_pair) << 12 |
         std::uint32_t(rules.table) << 16;
}

}  // namespace

void add_control_units(const Cards& hand, int level, const Rules& rules, std::vector<Play>* plan) {
  // Level cards of one rank and single jokers: each unit's play is known without classifying
  // (pattern.hpp keys: the level power, a joker's power; a joker single is never wild, R6).
  const int decks = table_of(rules).decks;
  auto add = [&](const Cards& c, int size, int jokers, std::uint32_t key) {
    Play p;
    p.cards = c;
    p.key = key;
    p.info = play_info(size == 1   ? Kind::kSingle
                       : size == 2 ? Kind::kPair
                                   : Kind::kTriple,
                       size, jokers, level, decks);
    plan->push_back(p);
  };
  // level cards by count (triples, then a pair or a single), then the jokers one by one
  const Cards nat = hand.naturals();
  Cards lvl;
  for (int s = 0; s < kNumSuits; ++s)
    for (int k = nat.count(make_face(level, s)); k > 0; --k) lvl.add(make_face(level, s));
  while (!lvl.empty()) {
    Cards c;
    int n = std::min(3, lvl.size());
    const int size = n;
    for (int f = 0; f < kNumFaces && n > 0; ++f)
      for (int k = lvl.count(f); k > 0 && n > 0; --k, --n) c.add(f);
    lvl -= c;
    add(c, size, 0, small_key(kLevelPower));
  }
  for (int k = hand.sj(); k > 0; --k) add(Cards{0, 1ull << 40}, 1, 1, small_key(kSJPower));
  for (int k = hand.bj(); k > 0; --k) add(Cards{0, 1ull << 42}, 1, 1, small_key(kBJPower));
}

HeuristicPlan heuristic_plan(const Cards& hand, int level, const Rules& rules) {
  HeuristicPlan plan;
  Planner(hand, level, rules).build(hand, &plan.plays);
  plan.minimal = int(plan.plays.size()) == plays_lower_bound(hand.size());
  return plan;
}

void plan_hand(const Cards& hand, int level, const Rules& rules, std::vector<Play>* plan) {
  Planner(hand, level, rules).build(hand, plan);
}

void update_plan(const Cards& hand, int level, const Rules& rules, bool exact,
                 std::vector<Play>* plan, PlanMemo* memo) {
  const Cards work = natural_work(hand, level);
  const std::uint32_t key = plan_rules_key(level, rules);
  const bool reusable = memo->valid && memo->exact == exact && memo->rules_key == key &&
                        memo->size == plan->size() && memo->units <= plan->size();
  if (reusable && work == memo->work) {
    plan->resize(memo->units);  // the same natural part: only the controls changed
  } else if (reusable && !exact && memo->combos > 0 &&
             (*plan)[0].cards.naturals() == (*plan)[0].cards &&
             memo->work.contains((*plan)[0].cards) && work == memo->work - (*plan)[0].cards) {
    plan->erase(plan->begin());  // the first combination left: the greedy's next state
    plan->resize(std::size_t(memo->units - 1));
    memo->units = std::uint8_t(memo->units - 1);
    memo->combos = std::uint8_t(memo->combos - 1);
  } else if (exact) {
    *plan = min_plays(work, level, rules).plays;
    memo->units = std::uint8_t(plan->size());
    memo->combos = 0;
  } else {
    Planner(hand, level, rules).build_naturals(plan, &memo->combos);
    memo->units = std::uint8_t(plan->size());
  }
  add_control_units(hand, level, rules, plan);
  memo->hand = hand;
  memo->work = work;
  memo->rules_key = key;
  memo->size = std::uint16_t(plan->size());
  memo->exact = exact;
  memo->valid = true;
}

void exact_plan(const Cards& hand, int level, const Rules& rules, std::vector<Play>* plan) {
  const Cards lvl_all = rank_cards(level, 0xFF);
  const Cards nat = hand.naturals();
  const Cards work{nat.lo & ~lvl_all.lo, nat.hi & ~lvl_all.hi};
  *plan = min_plays(work, level, rules).plays;
  add_control_units(hand, level, rules, plan);
}

}  // namespace daguai
