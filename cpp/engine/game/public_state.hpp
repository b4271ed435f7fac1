// The public part of a match state (R16): what every seat, and a spectator, knows now.
//
// A match state is split in two:
//   PublicState  everything R16 makes public: the rules, levels, dealer, scores, the phase and
//                the seat to act, card counts, the cards each seat played this round, the
//                trick (top play, passes), who is out and in what order, the tribute pairs
//                and the tribute cards paid or refused, and the forced passes of the round;
//   the hands    and the private side of the tribute exchange (Exchange: what was returned,
//                offered, taken; R16 shows it to the pair alone).
// GameState (state.hpp) = PublicState + every hand + the whole exchange (+ its seed and logs);
// InfoState (infostate.hpp) = PublicState + one seat's hand and what that seat knows;
// a world (sampler.hpp) = the PublicState of a view + sampled hands, built by GameState's
// world constructor. None of them copies the public fields one by one.
//
// The match's history (the event log, the finished rounds' results) stays with GameState:
// the log holds private cards (deals, returns), and a world starts with none (its rollouts
// count their own rounds). A view carries its own R16-filtered copy of this round's events.
#pragma once

#include <array>
#include <cstdint>

#include <daguai/core/cards.hpp>
#include <daguai/core/rules.hpp>
#include <daguai/core/shared_log.hpp>
#include <daguai/core/table.hpp>
#include <daguai/plays/pattern.hpp>

namespace daguai {

constexpr int kHandSize = 27;
constexpr int team_of(int seat) { return seat & 1; }

enum class Phase : std::uint8_t {
  kTribute = 0,  // a tributer pays (or, with anti_tribute, refuses)
  kReturn = 1,   // a receiver returns a card (or, joker_tribute_choice, offers candidates)
  kTake = 2,     // joker_tribute_choice: the tributer takes one offered card
  kPlay = 3,     // tricks
  kMatchOver = 4,
};
const char* phase_name(Phase p);  // state.cpp

// A pass made automatically (auto_pass, or a replayed forced pass). Public (R16), and it
// tells that `seat` held no play beating `top`; played_before = the cards the seat had
// played this round at that moment (its hand then = its hand now + what it played since).
struct ForcedPass {
  std::int8_t seat = -1;
  Play top;
  Cards played_before;
};

// R18: arrays are sized for 6 seats and 3 tribute pairs; only the first table().seats
// (table().max_tributers) entries are used.
struct PublicState {
  Rules rules;
  bool auto_pass = false;  // forced passes are made at once (a public setting, logged)

  // The match (R3, R9, R10, R12, R13).
  int round = 0;
  int dealer = 0;
  std::array<int, 2> levels{{0, 0}};  // rank index per team (R3)
  std::array<std::int64_t, kSeats> scores{};
  std::array<int, 2> final_failures{{0, 0}};
  Phase phase = Phase::kPlay;
  int current = 0;  // the seat to act; -1 when the match is over

  // This round (R8).
  std::array<std::int8_t, kSeats> cards_left{};  // = each hand's size
  std::array<Cards, kSeats> played{};            // cards each seat played this round
  Play top;                                      // the play to beat, when top_seat >= 0
  int top_seat = -1;
  unsigned passed = 0;  // seats that passed since the last play
  std::array<std::int8_t, kSeats> finish_order{{-1, -1, -1, -1, -1, -1}};
  int players_out = 0;
  unsigned out_mask = 0;

  // R11 tribute pairs: tributers[i] pays receivers[i]; tribute_face[i] = the card paid
  // (-1 not yet, -2 refused by anti_tribute); pair_step = the pair being settled.
  int n_pairs = 0, pair_step = 0;
  std::array<std::int8_t, kMaxTributers> tributers{}, receivers{};
  std::array<int, kMaxTributers> tribute_face = tributer_array(-1);

  // This round's automatic passes, in order (infostate.hpp: forced-pass constraints).
  using ForcedLog = SharedLog<ForcedPass, 16>;
  ForcedLog forced;

  const Table& table() const { return table_of(rules.table); }  // R18
  int level_rank() const { return levels[std::size_t(team_of(dealer))]; }
  bool has_top() const { return top_seat >= 0; }
  bool is_out(int seat) const { return (out_mask >> seat) & 1; }
  bool can_pass() const { return phase == Phase::kPlay && top_seat >= 0; }
};

// The private side of the R11 exchange, per pair: the card returned (or, after a joker
// tribute with joker_tribute_choice, taken; -1 before) and the offer cards. R16: known to the
// pair alone; a view holds its own pair's entries (the others stay -1 / empty).
struct Exchange {
  std::array<int, kMaxTributers> return_face = tributer_array(-1);
  std::array<Cards, kMaxTributers> offer{};
};

}  // namespace daguai
