// What one seat may know (R16), computed once from the state: the single information layer
// that observations, the observation tensor, policies and the sampler read (issue 9).
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

#include "state.hpp"

namespace daguai {

struct InfoState {
  int seat = 0;  // the viewer
  Rules rules;
  Phase phase = Phase::kPlay;
  int current = -1, round = 0, dealer = 0, level_rank = 0;
  std::array<int, 2> levels{{0, 0}};
  std::array<std::int64_t, kSeats> scores{};
  std::array<int, 2> final_failures{{0, 0}};
  bool auto_pass = false;

  Cards hand;                          // the viewer's own hand
  std::array<Cards, kSeats> played{};  // cards each seat played this round (public)
  std::array<int, kSeats> cards_left{};
  std::array<std::int8_t, kSeats> finish_order{{-1, -1, -1, -1, -1, -1}};
  int players_out = 0;
  unsigned out_mask = 0;
  bool has_top = false;
  Play top;
  int top_seat = -1;
  unsigned passed = 0;

  // R11 pairs: tribute_face public (-1 not yet, -2 refused); return_face / offer only in
  // the viewer's own pair (-1 / empty otherwise).
  int n_pairs = 0, pair_step = 0;
  std::array<std::int8_t, 3> tributers{}, receivers{};
  std::array<int, 3> tribute_face{{-1, -1, -1}}, return_face{{-1, -1, -1}};
  std::array<Cards, 3> offer{};

  std::array<Cards, kSeats> known{};  // known[seat] = hand
  std::array<bool, kSeats> jokers_known{};
  Cards unseen;
  std::vector<ForcedPass> forced;

  // This round's public history (with_history): the log's events from the deal, with the
  // cards of others' return / offer / take removed (flags bit 2 set: cards hidden).
  std::vector<Event> history;

  // The viewer's legal decisions when it is to act (with_legal), in legal_actions order.
  std::vector<Action> legal;

  const Table& table() const { return table_of(rules); }  // R18
  int hidden_count(int s) const {
    return cards_left[std::size_t(s)] - known[std::size_t(s)].size();
  }
  bool can_pass() const { return phase == Phase::kPlay && has_top; }
  // The viewer's legal plays when it is to act in the play phase (moves.hpp order).
  void legal_plays(PlayList* out) const;
};

// The information state of `seat` (0..5; GameError otherwise). with_history needs a
// recording game for the history (without a log it is left empty).
InfoState information_state(const GameState& g, int seat, bool with_history = false,
                            bool with_legal = false);

}  // namespace daguai
