// The constraint model of a view (R16): every fact a seat knows about the other hands, written
// once. The sampler (sampler.hpp) deals only worlds that satisfy it, the swap chain keeps it,
// and a world that satisfies it is a position the engine's validator accepts (world_position
// below builds that position; tribute_facts.hpp is the atom both use).
//
// A world is the hands now; T(s) = hands[s] + the cards s played this round (s's cards since
// the exchange), R likewise. The facts, each with the rule that makes it known:
//   counts       hands[s] has the public card count; the viewer's hand is its own (R16).
//   known        hands[s] holds known[s] (infostate.hpp: cards the viewer gave s, the tribute
//                card the viewer paid, the jokers a refuser showed, minus those played since).
//   refusal      a seat that refused tribute (抗贡, anti_tribute) showed all its jokers: it
//                holds no other joker (R11).
//   refused      a seat that refused tribute held 3 or more jokers (R11): the fact of a view
//                that did not see the jokers shown (a position's view, hidden_hands.hpp).
//   forced pass  an automatic pass: the seat's hand then (hands now + what it played since)
//                held no play beating the top (R8, auto_pass).
//   to act       under auto_pass, the seat to act over a top holds a play that beats it
//                (otherwise the engine would have passed for it).
//   tribute      for a pair (t, r) whose tribute card x is paid (R11, R16: x is public):
//                - before the return (or take): r holds x, and t's hand holds no card above x
//                  (its dealt hand was this hand + x; R18 4p2d: natural cards only);
//                - after it, when the viewer is in the pair and knows the returned card y
//                  (the take, with joker_tribute_choice): t's dealt hand T(t) - y + x holds
//                  no card above x (the receiver's side is in known);
//                - after it, when the viewer is outside the pair (y is not seen): some y
//                  explains the world: y is in T(t), T(t) - y holds no card above x, and x is
//                  in T(r) + y (r held x, or returned x itself). So at most one card of T(t)
//                  is above x; if there is one, it is y and r kept x (T(r) holds x); if none,
//                  T(r) or T(t) holds x. The offer (joker_tribute_choice) is then y and any
//                  other cards of r's hand: it never restricts the world further.
// The viewer is seat -1 in a position's view (no seat's hand is its own; hidden_hands.hpp):
// then every seat's facts are checked.
// Not used: what an earlier voluntary pass under auto_pass reveals (the seat had a beating
// play then): a position does not say when auto_pass was switched on, so the validator
// cannot check it, and the public state keeps no list of those passes.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <daguai/game/infostate.hpp>
#include <daguai/game/position.hpp>

namespace daguai {

using Hands = std::array<Cards, kSeats>;

class Constraints {
 public:
  explicit Constraints(const InfoState& v);

  // "" when the hands agree with every fact above (and the counts and the unseen cards);
  // otherwise the first fact they break, in words.
  std::string violation(const Hands& hands) const;
  bool holds(const Hands& hands) const;
  // The facts that mention seat s (after a change of s's hidden cards alone).
  bool seat_ok(int s, const Hands& hands) const;
  // The facts that mention seat s and only seats of `assigned` (a bit per seat): what a
  // search that fills the hands seat by seat can check once s is filled.
  bool partial_ok(int s, unsigned assigned, const Hands& hands) const;
  // How far the hands are from the facts (0 exactly when they hold): a broken forced pass
  // counts the plays that beat its top, a broken cap the cards above the tribute, a refuser
  // its extra jokers, any other broken fact 1. The start search's score: one swap can lower
  // it where the count of broken facts would not move.
  int penalty(const Hands& hands) const;
  // The part of the penalty from the facts that mention seat s1 or s2 (what a swap of cards
  // between the two can change).
  int penalty_of(int s1, int s2, const Hands& hands) const;
  // The facts of seat s alone that more cards can only break (forced passes, tribute caps,
  // refusals), on hands[s] as far as it is filled: a search that fills s card by card can
  // stop at the first card that breaks one.
  bool monotone_ok(int s, const Hands& hands) const;
  // How many facts mention seat s.
  int facts_of(int s) const;
  // "" when the facts that mention only seats of `seats` (a bit per seat) hold for these
  // hands; otherwise the first such fact they break, in words (a position's view checks the
  // given hands before it deals the others).
  std::string violation_among(unsigned seats, const Hands& hands) const;
  // True when the view has no fact beyond counts and known cards (every world dealt
  // from the unseen cards is consistent: no check needed).
  bool trivial() const { return facts_.empty(); }

  // A pair whose returned (or taken) card the viewer did not see: a card that explains the
  // world (see "tribute" above); -1 when the viewer saw it or it is not returned yet.
  int witness_return(int pair, const Hands& hands) const;

  const InfoState& view() const { return *v_; }

 private:
  enum class Kind : std::uint8_t { kJokers, kRefused, kForced, kFollows, kCap, kHeld, kExists };
  struct Fact {
    Kind kind;
    std::int8_t a = -1, b = -1;  // the seats it mentions (b = -1: one seat)
    std::int16_t index = 0;      // kForced: into forced_; tribute facts: the pair
    int face = -1;               // tribute facts: the tribute card x; kCap: -1 or y
    Cards above;                 // tribute facts: cards_above_tribute(x)
  };
  bool ok(const Fact& f, const Hands& hands) const;
  int penalty(const Fact& f, const Hands& hands) const;
  // kForced: the seat's hand at its pass (its hand now and what it played since).
  Cards hand_at_pass(const Fact& f, const Hands& hands) const;
  // kCap: the tributer's dealt cards (its cards since the exchange minus the card y that
  // came back, when the fact names it).
  Cards tributer_dealt(const Fact& f, const Hands& hands) const;
  std::string describe(const Fact& f, const Hands& hands) const;
  Cards since_exchange(int s, const Hands& hands) const {
    return hands[std::size_t(s)] + v_->pub.played[std::size_t(s)];
  }

  const InfoState* v_;
  std::vector<ForcedPass> forced_;
  std::vector<Fact> facts_;
  std::array<std::uint8_t, kSeats> seat_facts_{};  // how many facts mention each seat
};

// The position of a world (docs/records.md "Positions"): the view's match fields and this
// round's public history (InfoState.history: the view needs with_history) with the world's
// hands; a return, offer or take the viewer did not see is the constraint model's witness.
// GameState(rules, world_position(v, hands)) accepts it when Constraints(v).holds(hands).
Position world_position(const InfoState& v, const Hands& hands);

}  // namespace daguai
