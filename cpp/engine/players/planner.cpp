#include <algorithm>

#include <daguai/core/table.hpp>
#include <daguai/players/planner.hpp>
#include <daguai/players/rule_helpers.hpp>
#include <daguai/plays/analysis.hpp>
#include <daguai/plays/five.hpp>

namespace daguai {

namespace {

// The cards of rank r in `byte` (a rank byte: four 2-bit suit counts, R2) as units of up to three,
// lowest suits first (triples, then a pair or a single), each a natural play of that rank with
// `key` (pattern.hpp keys: the rank's power), appended to the plan: known without classifying.
void push_rank_units(int r, unsigned byte, std::uint32_t key, int level, int decks,
                     std::vector<Play>* plan) {
  Play p;
  p.key = key;
  for (int c = byte_count(byte); c > 0;) {
    const int k = c >= 3 ? 3 : c;
    const unsigned unit = take_low(byte, k);
    byte -= unit;
    c -= k;
    p.cards = rank_cards(r, unit);
    p.info = play_info(k == 1   ? Kind::kSingle
                       : k == 2 ? Kind::kPair
                                : Kind::kTriple,
                       k, 0, level, decks);
    plan->push_back(p);
  }
}

constexpr unsigned kAllRanks = (1u << kNumRanks) - 1;

// The planner the heuristic uses: the same plans as the reference planner (testing/), by
// rank masks instead of rank loops. Each step recounts `work` word-parallel into the masks of
// ranks by count; the straights are the windows every rank of which is held, found by shifts;
// the full house / four-plus-one / five of a kind and the flush the reference's loops would
// take are read from the masks directly; a combination's play is written from its kind, with
// no classification (its cards are natural non-level ones: one interpretation, R5).
// Candidates are considered in the reference's order and a later one wins only with a
// strictly larger saving, so the choice is the reference's.
struct Planner {
  int level;
  const Rules& rules;
  int decks;
  Cards work;  // the natural non-level cards not yet in a play
  // Kept by recount() from work: the card count of each rank as bytes, and the ranks with
  // at least one card, with exactly one .. five, and whose next card saves a play
  // (count % 3 == 1: units(c) - units(c - 1) for c cards as singles / pairs / triples).
  RankCounts cnt{Cards{}};
  unsigned held = 0, singles = 0, pairs = 0, threes = 0, fours = 0, fives = 0, gains = 0;

  Planner(const Cards& hand, int lv, const Rules& r)
      : level(lv), rules(r), decks(table_of(r).decks) {
    const Cards nat = hand.naturals(), lvl = rank_cards(level, 0xFF);
    work = Cards{nat.lo & ~lvl.lo, nat.hi & ~lvl.hi};
    recount();
  }
  void recount() {
    cnt = RankCounts(work);
    unsigned b[4];  // bit r of b[j]: bit j of rank r's count
    for (int j = 0; j < 4; ++j)
      b[j] = gather_byte_lsbs(cnt.lo >> j) | gather_byte_lsbs(cnt.hi >> j) << 8;
    const unsigned n0 = ~b[0] & kAllRanks, n1 = ~b[1] & kAllRanks;
    const unsigned low = ~(b[2] | b[3]) & kAllRanks;  // counts 0..3
    const unsigned mid = b[2] & ~b[3];                // counts 4..7
    held = b[0] | b[1] | b[2] | b[3];
    singles = b[0] & n1 & low;
    pairs = n0 & b[1] & low;
    threes = b[0] & b[1] & low;
    fours = n0 & n1 & mid;
    fives = b[0] & n1 & mid;
    gains = singles | fours | (b[0] & b[1] & mid) | (n0 & b[1] & ~b[2] & b[3]);  // 1, 4, 7, 10
  }
  // The n lowest-suit cards of rank r in work.
  Cards take_n(int r, int n) const {
    return rank_cards(r, take_low(unsigned(work.rank_byte(r)), n));
  }
  Play five(const Cards& c, Kind kind, std::uint32_t sub) const {
    Play p;
    p.cards = c;
    p.key = five_key(kind, sub);
    p.info = play_info(kind, 5, 0, level, decks);
    return p;
  }

  // The combination the reference takes next into *out; returns its saving (0: none).
  int best_combo(Play* out) const {
    int best = 0, straight = -1;
    // Straights: windows t whose five ranks are all held (work has no level card, so a
    // window through the level rank is never full). Bit i of f: ranks i .. i+4 (cyclically)
    // held, the window with key (i + 4) mod 13.
    const unsigned c2 = held | held << kNumRanks;
    const unsigned f = c2 & c2 >> 1 & c2 >> 2 & c2 >> 3 & c2 >> 4 & kAllRanks;
    unsigned full = ((f << 4) | (f >> 9)) & kAllRanks;
    full &= ~((1u << first_straight(rules.wrap_straights)) - 1);
    for (unsigned x = full; x; x &= x - 1) {
      const int t = __builtin_ctz(x);
      const int saving = __builtin_popcount(straight_ranks(t) & gains) - 1;
      if (saving > best) {
        best = saving;
        straight = t;
      }
    }
    // The reference scans the ranks t upwards for a triple with a pair p != t, a four with a
    // single, five of a kind; a four-plus-one (saving 2) is taken from the first four when a
    // single exists, else the first of the others (saving 1) if nothing better was found.
    int group = -1, kicker = -1;
    Kind group_kind = Kind::kFullHouse;
    if (best < 2 && fours && singles) {
      group = __builtin_ctz(fours);
      kicker = __builtin_ctz(singles);
      group_kind = Kind::kFourPlusOne;
      best = 2;
    } else if (best < 1) {
      const unsigned cand = (pairs ? threes : 0u) | fives;
      if (cand) {
        group = __builtin_ctz(cand);
        if ((threes >> group) & 1) {
          kicker = __builtin_ctz(pairs);
        } else {
          group_kind = Kind::kFiveOfAKind;
        }
        best = 1;
      }
    }
    // A flush saves 4 plays: per suit, the five lowest-power single ranks; work holds no
    // level card, so power order is rank order: the five lowest bits. Not when they are a
    // straight (the suit is skipped).
    if (best < 4 && __builtin_popcount(singles) >= 5) {
      for (int s = 0; s < kNumSuits; ++s) {
        unsigned cand = singles & suit_rank_mask(work, s);
        if (__builtin_popcount(cand) < 5) continue;
        unsigned ranks = 0;
        for (int n = 0; n < 5; ++n, cand &= cand - 1) ranks |= cand & (0u - cand);
        if (is_sequence(ranks, rules.wrap_straights)) continue;
        Cards c;
        std::uint32_t sub = 0;
        for (unsigned x = ranks; x; x &= x - 1) {
          const int r = __builtin_ctz(x);
          c += rank_cards(r, 1u << (2 * s));
          sub = sub >> 4 | std::uint32_t(rank_power(r, level)) << 16;  // high powers first
        }
        *out = five(c, Kind::kFlush, sub);
        return 4;
      }
    }
    if (group >= 0) {
      const int n = group_kind == Kind::kFourPlusOne ? 4 : group_kind == Kind::kFullHouse ? 3 : 5;
      Cards c = take_n(group, n);
      if (kicker >= 0) c += take_n(kicker, 5 - n);
      *out = five(c, group_kind, std::uint32_t(rank_power(group, level)));
      return best;
    }
    if (straight >= 0) {
      // one suit (a straight flush) when some suit holds every rank, the lowest such suit;
      // else the lowest suit of each rank
      const unsigned ranks = straight_ranks(straight);
      int sf_suit = -1;
      for (int s = 0; s < kNumSuits && sf_suit < 0; ++s)
        if ((ranks & ~suit_rank_mask(work, s)) == 0) sf_suit = s;
      Cards c;
      for (unsigned x = ranks; x; x &= x - 1) {
        const int r = __builtin_ctz(x);
        const unsigned byte = unsigned(work.rank_byte(r));
        const int s = sf_suit >= 0 ? sf_suit : __builtin_ctz(byte) >> 1;
        c += rank_cards(r, 1u << (2 * s));
      }
      *out =
          five(c, sf_suit >= 0 ? Kind::kStraightFlush : Kind::kStraight, std::uint32_t(straight));
      return best;
    }
    return 0;
  }

  // The natural part of the plan into *plan (cleared first); *combos: how many plays at its
  // front are the combinations taken, in order.
  void build_naturals(std::vector<Play>* plan, std::uint8_t* combos = nullptr) {
    plan->clear();
    std::uint8_t n = 0;
    Play p;
    while (best_combo(&p) > 0) {
      plan->push_back(p);
      ++n;
      work -= p.cards;
      recount();
    }
    if (combos) *combos = n;
    // The rest by rank in units of up to three: natural non-level cards of one rank, so the
    // play is known without classifying (pattern.hpp keys: the rank's power).
    for (unsigned x = held; x; x &= x - 1) {
      const int r = __builtin_ctz(x);
      push_rank_units(r, unsigned(work.rank_byte(r)), small_key(rank_power(r, level)), level, decks,
                      plan);
    }
    work = Cards{};
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

// When the natural cards went from memo.work to `work` by losing every card of a set of ranks
// R (the heuristic played a rank's last units, or a combination that held all of its ranks'
// cards), of which at most one combination of the plan holds any card, and that one holds R's
// cards only: true, with R's cards (every suit and copy) in *of_r and that combination's index
// in *combo (-1: none). The planner's choices then stand, less that combination:
//   - at each step before it, the combination taken holds no card of R; removing R only
//     removes candidates that hold R (the savings of the others count their own ranks), so the
//     one taken stays the first of the largest saving, and the straight, group and flush tests
//     it passed or failed come out the same (a flush skipped as a straight in some suit would
//     be a straight saving 4, and one saving 4 is taken before any flush);
//   - at its step the work is the old next step's (the combination was all of R there, but
//     for R's cards in no combination), and from there on the same argument holds for those;
//   - from the planner's last state no candidate appears.
// So the plan is the old one less that combination and R's units in the rest.
bool whole_ranks_left(const PlanMemo& memo, const std::vector<Play>& plan, const Cards& work,
                      Cards* of_r, int* combo) {
  if (!memo.work.contains(work)) return false;
  const Cards gone = memo.work - work;
  const unsigned ranks = rank_mask(gone);
  if (ranks == 0) return false;
  Cards all;
  for (unsigned x = ranks; x; x &= x - 1) all += rank_cards(__builtin_ctz(x), 0xFF);
  auto meets = [&](const Cards& c) { return ((c.lo & all.lo) | (c.hi & all.hi)) != 0; };
  if (meets(work)) return false;  // a card of R is left
  *combo = -1;
  for (std::size_t i = 0; i < memo.combos; ++i) {
    const Cards& c = plan[i].cards;
    if (!meets(c)) continue;
    if (*combo >= 0 || ((c.lo & ~all.lo) | (c.hi & ~all.hi)) != 0) return false;
    *combo = int(i);
  }
  *of_r = all;
  return true;
}

}  // namespace

void add_control_units(const Cards& hand, int level, const Rules& rules, std::vector<Play>* plan) {
  // Level cards of one rank and single jokers: each unit's play is known without classifying
  // (pattern.hpp keys: the level power, a joker's power; a joker single is never wild, R6).
  const int decks = table_of(rules).decks;
  // level cards in units of up to three, lowest suits first (triples, then a pair or a single)
  push_rank_units(level, unsigned(hand.rank_byte(level)), small_key(kLevelPower), level, decks,
                  plan);
  Play p;
  // then the jokers one by one
  p.info = play_info(Kind::kSingle, 1, 1, level, decks);
  p.cards = Cards{0, 1ull << 40};
  p.key = small_key(kSJPower);
  for (int k = hand.sj(); k > 0; --k) plan->push_back(p);
  p.cards = Cards{0, 1ull << 42};
  p.key = small_key(kBJPower);
  for (int k = hand.bj(); k > 0; --k) plan->push_back(p);
}

HeuristicPlan heuristic_plan(const Cards& hand, int level, const Rules& rules) {
  HeuristicPlan plan;
  Planner(hand, level, rules).build(hand, &plan.plays);
  plan.minimal = int(plan.plays.size()) == plays_lower_bound(hand.size());
  return plan;
}

namespace {

// The natural part of heuristic_plan_size: build()'s steps, counted (the combinations the
// planner takes, then the units of up to three of each rank left, push_rank_units).
int natural_plan_size(const Cards& work, int level, const Rules& rules) {
  Planner planner(work, level, rules);
  int n = 0;
  for (Play combo; planner.best_combo(&combo) > 0; ++n) {
    planner.work -= combo.cards;
    planner.recount();
  }
  for (unsigned x = planner.held; x; x &= x - 1) n += (planner.cnt.count(__builtin_ctz(x)) + 2) / 3;
  return n;
}

// heuristic_plan_size's memo of the natural part, per thread (below): an entry is used while
// its epoch is the thread's, and forget_plan_sizes moves the thread to a new epoch (an entry of
// an old epoch would still be right: the count is a function of the entry's key).
struct PlanSizeEntry {
  Cards work;
  std::uint32_t key = 0;
  std::uint32_t epoch = 0;
  int size = 0;
};
thread_local PlanSizeEntry plan_sizes[1024];
thread_local std::uint32_t plan_size_epoch = 1;

}  // namespace

int heuristic_plan_size(const Cards& hand, int level, const Rules& rules) {
  // The natural part depends on the natural non-level cards and the rules key alone, and the
  // learned player asks it for every candidate's hand after: the candidates of one decision
  // share it whenever they differ only in controls, and a seat's next decisions repeat many of
  // them. A per-thread table of 1,024 entries remembers it (a pure function: the table changes
  // only the speed; tests/players/test_plan_updates.py checks it against the plans).
  const Cards work = natural_work(hand, level);
  const std::uint32_t key = plan_rules_key(level, rules);
  const std::uint64_t h =
      (work.lo ^ (work.hi + key) * 0x9E3779B97F4A7C15ull) * 0xFF51AFD7ED558CCDull;
  PlanSizeEntry& e = plan_sizes[h >> 54];
  if (e.epoch != plan_size_epoch || e.key != key || e.work != work)
    e = PlanSizeEntry{work, key, plan_size_epoch, natural_plan_size(work, level, rules)};
  // the control units (add_control_units): level cards in threes, each joker alone
  return e.size + (hand.rank_count(level) + 2) / 3 + hand.sj() + hand.bj();
}

void forget_plan_sizes() { ++plan_size_epoch; }

void plan_hand(const Cards& hand, int level, const Rules& rules, std::vector<Play>* plan) {
  Planner(hand, level, rules).build(hand, plan);
}

void update_plan(const Cards& hand, int level, const Rules& rules, bool exact,
                 std::vector<Play>* plan, PlanMemo* memo) {
  const Cards work = natural_work(hand, level);
  const std::uint32_t key = plan_rules_key(level, rules);
  const bool reusable = memo->valid && memo->exact == exact && memo->rules_key == key &&
                        memo->size == plan->size() && memo->units <= plan->size();
  // The control units (plan[units ..)) stand when the level cards and jokers did not change.
  bool controls_kept = reusable && hand - work == memo->hand - memo->work;
  int combo = -1;
  if (reusable && work == memo->work) {
    // the same natural part: only the controls may have changed
  } else if (reusable && !exact && memo->combos > 0 &&
             (*plan)[0].cards.naturals() == (*plan)[0].cards &&
             memo->work.contains((*plan)[0].cards) && work == memo->work - (*plan)[0].cards) {
    plan->erase(plan->begin());  // the first combination left: the greedy's next state
    memo->units = std::uint8_t(memo->units - 1);
    memo->combos = std::uint8_t(memo->combos - 1);
  } else if (Cards of_r;
             reusable && !exact && whole_ranks_left(*memo, *plan, work, &of_r, &combo)) {
    // every card of some ranks left, with at most one combination: the plan less that
    // combination and those ranks' units in the rest (see whole_ranks_left)
    auto holds = [&](const Play& p) {
      return ((p.cards.lo & of_r.lo) | (p.cards.hi & of_r.hi)) != 0;
    };
    const auto first = plan->begin() + memo->combos, last = plan->begin() + memo->units;
    const auto kept = std::remove_if(first, last, holds);
    int removed = int(last - kept);
    plan->erase(kept, last);
    if (combo >= 0) {
      plan->erase(plan->begin() + combo);
      memo->combos = std::uint8_t(memo->combos - 1);
      ++removed;
    }
    memo->units = std::uint8_t(memo->units - removed);
  } else if (exact) {
    *plan = min_plays(work, level, rules).plays;
    memo->units = std::uint8_t(plan->size());
    memo->combos = 0;
    controls_kept = false;
  } else {
    Planner(hand, level, rules).build_naturals(plan, &memo->combos);
    memo->units = std::uint8_t(plan->size());
    controls_kept = false;
  }
  if (!controls_kept) {
    plan->resize(memo->units);
    add_control_units(hand, level, rules, plan);
  }
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
