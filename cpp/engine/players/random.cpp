// random: uniform over the legal actions (plays and pass; tribute, return, ... alike).
#include <daguai/players/rule_helpers.hpp>

namespace daguai {

Action random_action(const PolicyView& g, Rng& rng, PolicyScratch& s) {
  const int seat = g.current_player();
  if (g.phase() == Phase::kPlay) {
    // Count the plays, draw one index over plays + pass, generate only that play (moves.hpp).
    const Play* top = g.has_top() ? &g.top() : nullptr;
    const PlayCounts c = count_plays(g.hand(seat), g.level_rank(), g.rules(), top);
    const std::size_t k = rng.bounded(c.total + (g.can_pass() ? 1 : 0));
    if (k == c.total) return pass_action(seat);
    return play_action(seat, play_at(g.hand(seat), g.level_rank(), g.rules(), top, c, k));
  }
  s.actions.clear();
  g.legal_actions(&s.actions);
  return s.actions[rng.bounded(s.actions.size())];
}

}  // namespace daguai
