// Hand analysis (配牌 / 手数): the fewest legal plays that empty a hand, with wildcards.
#pragma once

#include <vector>

#include <daguai/core/cards.hpp>
#include <daguai/core/rules.hpp>
#include <daguai/plays/pattern.hpp>

namespace daguai {

struct Partition {
  int count = 0;            // number of plays
  std::vector<Play> plays;  // one partition achieving it (plays classified at the level)
};

// A lower bound on the number of plays that empty a hand of n cards when the small plays
// must waste at least `waste` slots: a play holds at most 5 cards, and the slots the plays
// leave empty (5 minus their size: 0, 2, 3 or 4 each) never total exactly 1.
constexpr int plays_lower_bound(int n, int waste = 0) {
  const int b = (n + waste + 4) / 5;
  return 5 * b - n == 1 ? b + 1 : b;
}

// Exact minimum number of legal plays (R5-R7 under `rules`, each one a leader could make:
// single, pair, triple or five-card play, jokers wild in 2/3/5-card plays per R6, joker-only
// plays included) whose cards together are exactly `hand`, and one partition achieving it.
// The count depends on rules.wrap_straights only (not on the level or `wild`); the plays are
// what classify() returns for their cards at `level` under `rules`, ordered five-card plays
// first, then triples, pairs, singles, by key within a size. An empty hand needs 0 plays.
// Throws CardError for a level outside 0..12. Thread-safe (scratch is thread_local).
// Cost: an exact search (analysis.cpp); a dealt 27-card hand takes ~10-20 us.
Partition min_plays(const Cards& hand, int level, const Rules& rules);

}  // namespace daguai
