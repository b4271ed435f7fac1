#include <algorithm>

#include <daguai/players/rule_helpers.hpp>

namespace daguai {

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
