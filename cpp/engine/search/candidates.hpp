// Candidates that are real alternatives: groups of equivalent plays, and
// the candidates a search considers when it cannot search every group.
//
// Equivalent plays. Two plays p, q of one hand H are grouped when they have the same kind,
// key and size (R5, R7) and the hands they leave, R = H - p and R' = H - q, are equivalent:
//   * jokers are wild in five-card plays (R6), so with J jokers left a suit s is *live* in a
//     hand when (natural cards of suit s) + J >= 5 - only then can a card of suit s be part
//     of a flush or a straight flush (R5); in the other (*dead*) suits a card's suit can
//     never matter;
//   * R ~ R' when some relabelling of the suits (a permutation σ; suits never rank, R4)
//     makes σ(R) and R' hold the same cards in their live suits, and the same number of
//     cards of every rank in their dead suits, and the same small and big jokers.
// Why that is an equivalence of everything the hand can still do: map R to R' by σ, then
// each dead-suit card to a dead-suit card of the same rank. A play X of R maps to a play X'
// of R' with the same kind and key: a flush or straight flush uses cards of one live suit
// only (5 cards of a suit, jokers included), which the map keeps; and X' cannot become one
// unless its cards are in one live suit of R', where R and R' agree. After X and X' are
// played the hands left are related the same way (live suits can only die). So every later
// lead or follow of R has a counterpart of R' with the same kind, key and size, and back:
// the rest of the round cannot tell them apart. tests/search/test_search_candidates.py checks this
// exhaustively on small hands (the whole tree of leads of R and R').
// Only plays are grouped; pass, tribute, return, offer and take decisions stay alone (a
// card given to another seat changes that seat's hand).
//
// Candidate selection (select_candidates): with more groups than a search may consider,
// reserved slots first - the rollout policy's own choice (the incumbent), pass, the units
// of the rollout policy's plan (heuristic) and of a fewest-plays split (min_plays) that are
// legal now, the highest beating play, the lowest five of a kind and straight flush (the
// strongest kinds; there are no bombs, R7), the lowest play with a joker, the lowest play
// of level cards - then the rest round-robin over the play sizes 1, 2, 3, 5, lowest key
// first, one group per (kind, key) before any second one.
#pragma once

#include <cstdint>
#include <vector>

#include <daguai/game/state.hpp>
#include <daguai/players/policy.hpp>

namespace daguai {

// The canonical form of what a play leaves (see above); equal forms = equivalent plays.
// The suits' columns (a column: 2 bits of count per rank, ranks 0..12) are sorted, which is
// the smallest relabelling; a dead suit's column is 0 and its cards count in `dead`.
struct LeftForm {
  std::uint32_t key = 0, info = 0;       // the play's key and kind / size / jokers (pattern.hpp)
  std::uint32_t live[4] = {0, 0, 0, 0};  // live-suit columns, sorted
  std::uint64_t dead = 0;                // dead-suit cards per rank, 4 bits a rank
  std::uint32_t jokers = 0;              // SJ and BJ left (2 bits each; which joker matters)
  bool operator==(const LeftForm& o) const {
    return key == o.key && info == o.info && dead == o.dead && jokers == o.jokers &&
           live[0] == o.live[0] && live[1] == o.live[1] && live[2] == o.live[2] &&
           live[3] == o.live[3];
  }
};
LeftForm left_form(const Cards& hand, const Play& play);

struct ActionGroup {
  std::vector<int> members;  // indices into the actions, increasing; members[0] represents
};

// Groups of equivalent actions of `hand`'s owner, in the order of their first member.
std::vector<ActionGroup> group_actions(const Cards& hand, const std::vector<Action>& actions);

// At most `keep` groups (all when keep <= 0 or there are no more), as indices into `groups`:
// the group of `incumbent` first (when incumbent >= 0), then the reserved slots, then the rest.
std::vector<int> select_candidates(const PolicyView& view, const std::vector<Action>& actions,
                                   const std::vector<ActionGroup>& groups, int incumbent, int keep);

// The arms a search races (pimc and analyze choose them alike): the groups select_candidates
// keeps, one action each - its group's first member, or `incumbent` itself (an index into
// `actions`, or -1) for the incumbent's group, which comes first. *chosen (when given)
// receives the groups' indices into `groups`, in the arms' order.
std::vector<Action> candidate_arms(const PolicyView& view, const std::vector<Action>& actions,
                                   const std::vector<ActionGroup>& groups, int incumbent, int keep,
                                   std::vector<int>* chosen = nullptr);

}  // namespace daguai
