#include <algorithm>
#include <utility>

#include <daguai/core/table.hpp>
#include <daguai/players/rule_helpers.hpp>

namespace daguai {

namespace {

// Whether `hand` may hold a five-card play that beats `top`, a full house, four-plus-one,
// straight flush or five of a kind (R7: of its kind with a higher key, or of a higher kind),
// under wild auto or high (R6: a set is the highest kind it can form). Necessary conditions
// only, so false means no play beats it; true means perhaps. Under auto and high the triple of
// a full house and the four of a four-plus-one hold a natural card of their rank, and so does
// its pair or single: with jokers only there, the natural cards are of one rank and the set is
// a five of a kind. A straight flush's natural cards are of one suit inside its window.
bool five_follow_possible(const Cards& hand, int level, const Rules& rules, const Play& top) {
  const Kind kt = top.kind();
  const int sub = int(top.key & 0xFFFFF);
  const int jokers = hand.jokers();
  if (jokers >= 5) return true;  // an all-joker five (R6)
  const RankCounts rb(hand);
  auto at_least = [&](int k) { return rb.at_least(k); };
  constexpr unsigned kAll = (1u << kNumRanks) - 1;
  const unsigned m1 = at_least(1), m2 = at_least(2);
  // the ranks of a power above top's key (a full house, four-plus-one or five of a kind of
  // natural rank: its key is the power, R7), powers 0..12 (rank_power: the level rank 12)
  unsigned above = kAll;
  if (kt == Kind::kFullHouse || kt == Kind::kFourPlusOne || kt == Kind::kFiveOfAKind) {
    const int p = sub + 1;  // the least power that beats
    if (p > kLevelPower) {
      above = 0;
    } else {
      const unsigned lv = 1u << level;
      above = (kAll & ~((1u << p) - 1) & (lv - 1)) | (kAll & ~((2u << p) - 1) & ~(2 * lv - 1)) | lv;
    }
  }
  if (at_least(5 - jokers) & (kt == Kind::kFiveOfAKind ? above : kAll)) return true;
  const bool two_ranks = (m1 & (m1 - 1)) != 0;
  if (kt <= Kind::kFourPlusOne && two_ranks) {
    const unsigned four = (jokers >= 4 ? m1 : at_least(4 - jokers));
    if (four & (kt == Kind::kFourPlusOne ? above : kAll)) return true;
  }
  if (kt == Kind::kFullHouse && two_ranks) {
    for (unsigned x = m1 & above; x; x &= x - 1) {
      const int t = __builtin_ctz(x);
      const int ct = rb.count(t);
      const int pair_need = (m2 & ~(1u << t)) ? 0 : 1;  // another rank is held (two_ranks)
      if (std::max(0, 3 - ct) + pair_need <= jokers) return true;
    }
  }
  if (kt <= Kind::kStraightFlush) {
    const int first = first_straight(rules.wrap_straights);
    const int from = kt == Kind::kStraightFlush ? std::max(first, sub + 1) : first;
    for (int s = 0; s < kNumSuits; ++s) {
      const unsigned in_suit = suit_rank_mask(hand, s);
      if (__builtin_popcount(in_suit) + jokers < 5) continue;
      for (int t = from; t < kNumRanks; ++t)
        if (__builtin_popcount(in_suit & straight_ranks(t)) + jokers >= 5) return true;
    }
  }
  return false;
}

// The cheapest five-card follow under auto or high (R6, R7), listing only the families that
// can hold it. A five-card play's key orders it by kind first (straight < flush < full house
// < four-plus-one < straight flush < five of a kind), and each generation family holds only
// some kinds: the sequences straights and straight flushes, the flushes flushes, the
// two-rank fives full houses, fours-plus-one and (with jokers) straight flushes, the five of
// a kind family fives of a kind (tests/plays/test_rules_write_fast.py checks these). So the
// families are listed by the lowest kind of theirs that beats the top, until the play found
// is of a lower kind than any family left can hold; of equally cheap plays the one first in
// legal_plays' order (its families 3, 4, 5, 6 one after another) is kept, as the scan of the
// whole list keeps it.
bool cheapest_five_follow(const Cards& hand, int level, const Rules& rules, const Play& top,
                          PlayList* scratch, Play* out) {
  constexpr int kFives = 3, kTwoRank = 4, kSequences = 5, kFlushes = 6;
  const Kind t = top.kind();
  // (family, the lowest kind of it that may beat the top), by that kind
  std::pair<int, Kind> order[4];
  int n = 0;
  if (t <= Kind::kStraight) order[n++] = {kSequences, Kind::kStraight};
  if (t <= Kind::kFlush) order[n++] = {kFlushes, Kind::kFlush};
  if (t <= Kind::kStraightFlush)
    order[n++] = {kTwoRank, t <= Kind::kFourPlusOne ? Kind::kFullHouse : Kind::kStraightFlush};
  if (t > Kind::kStraight && t <= Kind::kStraightFlush)
    order[n++] = {kSequences, Kind::kStraightFlush};
  order[n++] = {kFives, Kind::kFiveOfAKind};
  int found = -1;  // the family of *out
  for (int k = 0; k < n; ++k) {
    if (found >= 0 && out->kind() < order[k].second) break;  // no family left holds one as cheap
    const int family = order[k].first;
    scratch->clear();
    legal_plays_of_family(hand, level, rules, &top, family, scratch);
    for (const Play& p : *scratch)
      if (found < 0 || cheaper(p, *out, level) || (family < found && !cheaper(*out, p, level))) {
        *out = p;
        found = family;
      }
  }
  return found >= 0;
}

}  // namespace

bool cheapest_follow(const Cards& hand, int level, const Rules& rules, const Play& top,
                     PlayList* scratch, Play* out) {
  const int size = top.size();
  if (size < 1 || size > 3) {
    // Most five-card tops the heuristic gets here cannot be beaten at all (about three in
    // four in heuristic rounds): a few rank counts say so for most tops of a full house or
    // higher (when they see a possible play there mostly is one: list them); count_plays says
    // so by arithmetic for the other tops, without the generator.
    if (rules.wild != Wild::kDeclare && top.kind() >= Kind::kFullHouse) {
      if (!five_follow_possible(hand, level, rules, top)) return false;
    } else if (count_plays(hand, level, rules, &top).total == 0) {
      return false;
    }
    if (rules.wild == Wild::kDeclare) {
      scratch->clear();
      legal_plays(hand, level, rules, &top, scratch);
      if (scratch->empty()) return false;
      const Play* c = &(*scratch)[0];
      for (const Play& p : *scratch)
        if (cheaper(p, *c, level)) c = &p;
      *out = *c;
      return true;
    }
    return cheapest_five_follow(hand, level, rules, top, scratch, out);
  }
  const int decks = table_of(rules).decks;
  const Kind kind = size == 1 ? Kind::kSingle : size == 2 ? Kind::kPair : Kind::kTriple;
  const int sj = hand.sj(), bj = hand.bj(), jokers = sj + bj;
  // Natural plays (with jokers for pairs and triples, R6): each rank has its own key, so the
  // cheapest is of the lowest-power rank that beats the top; within it, the fewest jokers
  // (fewer control cards, or as many and fewer jokers) and the first composition listed
  // (small jokers first).
  // The ranks that fit: at least one natural card, with the jokers `size` cards (a single
  // takes no joker); of those above the top, the lowest power: the lowest rank other than the
  // level, else the level (rank_power).
  int best_rank = -1, best_j = 0;
  if (const int p0 = int(top.key >> 1) + 1; p0 <= kLevelPower) {
    const RankCounts rb(hand);
    const unsigned fit =
        rb.at_least(size == 1 ? 1 : std::max(1, size - jokers)) & ranks_of_power_from(level, p0);
    if (fit) {
      const unsigned natural = fit & ~(1u << level);
      best_rank = natural ? __builtin_ctz(natural) : level;
      best_j = std::max(0, size - rb.count(best_rank));
    }
  }
  bool found = false;
  if (best_rank >= 0) {
    const int a = std::min(sj, best_j);
    out->cards =
        rank_cards(best_rank, take_low(unsigned(hand.rank_byte(best_rank)), size - best_j)) +
        Cards{0, std::uint64_t(a | (best_j - a) << 2) << 40};
    out->key = small_key(rank_power(best_rank, level));
    out->info = play_info(kind, size, best_j, level, decks);
    found = true;
  }
  // Joker-only plays come after the naturals: a single joker, or the compositions of `size`
  // jokers, small jokers first (R6: they stand for themselves).
  auto consider = [&](int a, int b) {
    Play p;
    p.cards = Cards{0, std::uint64_t(a | b << 2) << 40};
    p.key =
        size == 1 ? small_key(a ? kSJPower : kBJPower) : detail::joker_only_key(size, a, b, rules);
    p.info = play_info(kind, size, size, level, decks);
    if (p.key <= top.key || (found && !cheaper(p, *out, level))) return;
    *out = p;
    found = true;
  };
  if (size == 1) {
    if (sj) consider(1, 0);
    if (bj) consider(0, 1);
  } else {
    for (int a = std::min(sj, size); a >= 0 && size - a <= bj; --a) consider(a, size - a);
  }
  return found;
}

Action simple_exchange(const PolicyView& g, PolicyScratch& s) {
  s.actions.clear();
  g.legal_actions(&s.actions);
  const int level = g.level_rank();
  auto power_of = [&](const Action& a) {
    for (int f = 0; f < kNumFaces; ++f)
      if (a.play.cards.count(f)) return face_power(f, level);
    return 0;
  };
  auto total_power = [&](const Action& a) {
    int t = 0;
    for (int f = 0; f < kNumFaces; ++f) t += a.play.cards.count(f) * face_power(f, level);
    return t;
  };
  switch (g.phase()) {
    case Phase::kTribute:
      return s.actions.front();  // every tribute candidate has the same power (R11)
    case Phase::kReturn: {
      if (g.expects_offer())
        return *std::min_element(
            s.actions.begin(), s.actions.end(),
            [&](const Action& a, const Action& b) { return total_power(a) < total_power(b); });
      return *std::min_element(
          s.actions.begin(), s.actions.end(),
          [&](const Action& a, const Action& b) { return power_of(a) < power_of(b); });
    }
    case Phase::kTake:
      return *std::max_element(
          s.actions.begin(), s.actions.end(),
          [&](const Action& a, const Action& b) { return power_of(a) < power_of(b); });
    default:
      return s.actions.front();
  }
}

}  // namespace daguai
