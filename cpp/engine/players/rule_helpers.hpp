// What the rule policies (random.cpp, greedy.cpp, heuristic.cpp) share: the "cheapness" order of
// plays, and the decisions outside the play phase (R11).
#pragma once

#include <algorithm>
#include <cstdint>

#include <daguai/players/policy.hpp>

namespace daguai {

// kTakeLow.low[n][b]: the n cards of rank byte b (four 2-bit suit counts, cards.hpp) with the
// lowest suits, copies of a suit together, as a rank byte (n <= 5): the first sub-multiset
// legal_plays lists (moves.hpp), and the planner's units.
struct TakeLow {
  std::uint8_t low[6][256]{};
  constexpr TakeLow() {
    for (int n = 0; n <= 5; ++n)
      for (int b = 0; b < 256; ++b) {
        int left = n, out = 0;
        for (int s = 0; s < kNumSuits && left > 0; ++s) {
          const int k = std::min((b >> (2 * s)) & 3, left);
          out |= k << (2 * s);
          left -= k;
        }
        low[n][b] = std::uint8_t(out);
      }
  }
};
inline constexpr TakeLow kTakeLow{};
inline unsigned take_low(unsigned byte, int n) { return kTakeLow.low[n][byte]; }

// Level cards and jokers among the cards of a play.
inline int control_cards(const Play& p, int level) {
  return p.cards.jokers() + p.cards.rank_count(level);
}
// Whether a play is made only of level cards and jokers (a "control" unit: kept to regain the
// lead), by one mask made once per level.
struct Controls {
  Cards mask;
  explicit Controls(int level) : mask(rank_cards(level, 0xFF) + Cards{0, 0xFULL << 40}) {}
  bool of(const Play& p) const { return ((p.cards.lo & ~mask.lo) | (p.cards.hi & ~mask.hi)) == 0; }
};

// "Cheapness" order for a follow / a lead of one size: lower key first, then fewer control
// cards, then fewer jokers.
inline bool cheaper(const Play& a, const Play& b, int level) {
  if (a.key != b.key) return a.key < b.key;
  const int ca = control_cards(a, level), cb = control_cards(b, level);
  if (ca != cb) return ca < cb;
  return a.jokers() < b.jokers();
}

// The cheapest legal follow of `hand` to `top` (cheaper(), the first in legal_plays' order
// among equally cheap plays, moves.hpp), into *out; false if nothing beats `top`. A single,
// pair or triple is found rank by rank without listing the follows (the plays of one rank
// share a key; the fewest jokers first, the lowest suits first as the list has them); a
// five-card top lists them into *scratch.
bool cheapest_follow(const Cards& hand, int level, const Rules& rules, const Play& top,
                     PlayList* scratch, Play* out);

// Non-play phases shared by greedy and heuristic (R11): pay the first highest card, return
// the lowest-power card, offer the lowest cards, take the highest offered card.
Action simple_exchange(const PolicyView& g, PolicyScratch& s);

}  // namespace daguai
