// What one seat may know (R16), computed once from the state: the single information layer
// that observations, the observation tensor, policies and the sampler read.
//
// R16 public: every play and pass (with what jokers stood for), who is out and in what
// order, card counts, levels, dealer, scores, tribute cards and refusals (with the jokers
// shown). Private to the seat: its own hand; in its own tribute pair, the card returned
// (and, joker_tribute_choice, the offer and the card taken).
//
// Knowledge about other hands, beyond counts:
//   known[s]      cards s certainly holds now, as specific physical cards:
//                 - the tribute card s received, when the viewer paid it (the viewer knows
//                   what s returned) - unless s has played a card of that face since (then
//                   the copy is treated as possibly played: an under-statement, not an error);
//                 - the card the viewer returned / the offer cards the viewer kept, to s;
//                 - every joker s still holds after showing its jokers in a refusal
//                   (anti_tribute), with jokers_known[s] (s holds no other joker).
//   forced        each automatic pass of this round: that seat held no play beating `top`
//                 with its hand then = its hand now + the cards it has played since.
//   unseen        every card not in the viewer's hand, not played, not in known[]: the
//                 cards the sampler deals, hidden_count(s) of them to each other seat s.
// Not used (documented in docs/search.md): the R11 implication that a tributer held no
// card stronger than its tribute, and, for a viewer outside a pair, that the tribute card is
// in the receiver's or the tributer's hand.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <daguai/game/public_state.hpp>
#include <daguai/game/state.hpp>

namespace daguai {

// The view of one seat: the public state, the seat's own hand and what it knows beyond the
// public state, and what a policy needs besides (the game index, the last round's result).
struct InfoState {
  PublicState pub;  // everything public (R16), as the state has it
  int seat = 0;     // the viewer
  // Which game of a batch this is (GameState::game_index; not its seed, which would give the
  // deal); a world's own index is its world number k (sampler.hpp).
  std::uint64_t game_index = 0;
  bool has_last_result = false;  // the last finished round's result, if any (R9, R13, R14)
  RoundResult last_result;

  Cards hand;         // the viewer's own hand
  Exchange exchange;  // the viewer's own pair's entries only (-1 / empty otherwise)

  std::array<Cards, kSeats> known{};  // known[seat] = hand
  std::array<bool, kSeats> jokers_known{};
  Cards unseen;

  // This round's public history (with_history): the log's events from the deal, with the
  // cards of others' return / offer / take removed (flags bit 2 set: cards hidden).
  std::vector<Event> history;

  // The viewer's legal decisions when it is to act (with_legal), in legal_actions order.
  std::vector<Action> legal;

  const Table& table() const { return pub.table(); }  // R18
  int hidden_count(int s) const {
    return pub.cards_left[std::size_t(s)] - known[std::size_t(s)].size();
  }
  // The viewer's legal plays when it is to act in the play phase (moves.hpp order).
  void legal_plays(PlayList* out) const;
};

// The information state of `seat` (0..5; GameError otherwise). with_history needs a
// recording game for the history (without a log it is left empty).
InfoState information_state(const GameState& g, int seat, bool with_history = false,
                            bool with_legal = false);

}  // namespace daguai
