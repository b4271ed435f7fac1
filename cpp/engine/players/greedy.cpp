// greedy: the cheapest play that beats the top (lowest key, then fewest jokers, then fewest
// level cards); passes only when nothing beats; leads its weakest combination (the lowest-key
// play of the largest size, jokers and level cards kept when possible).
#include <daguai/players/rule_helpers.hpp>

namespace daguai {

Action greedy_action(const PolicyView& g, Rng&, PolicyScratch& s) {
  if (g.phase() != Phase::kPlay) return simple_exchange(g, s);
  const int seat = g.current_player(), level = g.level_rank();
  s.plays.clear();
  g.legal_plays(&s.plays);
  if (g.has_top()) {
    if (s.plays.empty()) return pass_action(seat);
    const Play* best = &s.plays[0];
    for (const Play& p : s.plays)
      if (cheaper(p, *best, level)) best = &p;
    return play_action(seat, *best);
  }
  // Lead: the weakest play of the largest size, preferring no control cards.
  const Play* best = nullptr;
  for (const Play& p : s.plays) {
    if (!best) {
      best = &p;
      continue;
    }
    const int cp = control_cards(p, level) > 0, cb = control_cards(*best, level) > 0;
    if (cp != cb) {
      if (cp < cb) best = &p;
      continue;
    }
    if (p.size() != best->size()) {
      if (p.size() > best->size()) best = &p;
      continue;
    }
    if (cheaper(p, *best, level)) best = &p;
  }
  return play_action(seat, *best);
}

}  // namespace daguai
