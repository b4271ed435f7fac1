#include <algorithm>

#include <daguai/core/table.hpp>
#include <daguai/players/rule_helpers.hpp>

namespace daguai {

bool cheapest_follow(const Cards& hand, int level, const Rules& rules, const Play& top,
                     PlayList* scratch, Play* out) {
  const int size = top.size();
  if (size < 1 || size > 3) {
    // Most five-card tops the heuristic gets here cannot be beaten at all (about three in
    // four in heuristic rounds): count_plays says so by arithmetic, without the generator.
    if (count_plays(hand, level, rules, &top).total == 0) return false;
    scratch->clear();
    legal_plays(hand, level, rules, &top, scratch);
    if (scratch->empty()) return false;
    const Play* c = &(*scratch)[0];
    for (const Play& p : *scratch)
      if (cheaper(p, *c, level)) c = &p;
    *out = *c;
    return true;
  }
  const int decks = table_of(rules).decks;
  const Kind kind = size == 1 ? Kind::kSingle : size == 2 ? Kind::kPair : Kind::kTriple;
  const int sj = hand.sj(), bj = hand.bj(), jokers = sj + bj;
  // Natural plays (with jokers for pairs and triples, R6): each rank has its own key, so the
  // cheapest is of the lowest-power rank that beats the top; within it, the fewest jokers
  // (fewer control cards, or as many and fewer jokers) and the first composition listed
  // (small jokers first).
  int best_rank = -1, best_j = 0;
  for (int power = int(top.key >> 1) + 1; power <= kLevelPower; ++power) {
    const int r = power_rank(power, level);  // ranks by power: the first that fits is the one
    const int c = hand.rank_count(r);
    if (c == 0) continue;
    const int j = c >= size ? 0 : size - c;
    if (j > jokers || (size == 1 && j > 0)) continue;
    best_rank = r;
    best_j = j;
    break;
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
