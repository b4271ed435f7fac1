// Positions (docs/records.md "Positions"): a match as it stands inside a round, and
// their validation. GameState(rules, position) (position.cpp) checks a position and builds
// the match from it; the state machine itself is state.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <daguai/game/state.hpp>

namespace daguai {

// An inconsistent position -> Python PositionError, a subclass of IllegalActionError (a
// ValueError). The message names the first problem.
struct PositionError : GameError {
  using GameError::GameError;
};

// One decision of a position's history; `automatic`: a forced pass made by auto_pass.
struct HistoryEntry {
  Action action;  // action.seat: the seat that made it (required)
  bool automatic = false;
};

// A match as it stands inside a round: the hands now, this round's history from its deal,
// and the match around it. The seeded deal is the position of round 0 with an empty history
// (GameState::seeded_position).
struct Position {
  std::uint64_t seed = 0, game = 0;  // the streams of the later rounds' deals (R17)
  int round = 0;
  int dealer = 0;
  std::array<int, 2> levels{{0, 0}};  // rank index per team (R3)
  std::array<std::int64_t, kSeats> scores{};
  std::array<int, 2> final_failures{{0, 0}};
  int n_pairs = 0;  // R11: this round's tribute pairs, tributers[i] pays receivers[i]
  std::array<std::int8_t, kMaxTributers> tributers{}, receivers{};
  std::array<Cards, kSeats> hands{};  // the hands now (after the history)
  std::vector<HistoryEntry> history;  // this round's decisions so far, in order
  bool auto_pass = false;
  int to_act = -1;                  // checked when >= 0
  bool check_finish_order = false;  // when true, finish_order must match the history
  std::vector<int> finish_order;
  // kRandom: a random start state (GameState::random_position), whose round 0 follows an
  // imagined previous round and so may begin with tribute.
  Start start = Start::kFresh;
  // Seats whose hands are placeholders (a bit per seat): the filling of unknown hands
  // (beliefs/hidden_hands.hpp) replays the history on them to learn the public state. The
  // replay then skips what only their hidden cards decide: a tribute's highest power (R11)
  // and a forced pass (R8); under auto_pass it passes for them only up to to_act (none when
  // to_act is unchecked). The view's constraint model keeps those facts instead.
  unsigned open_hands = 0;
};

}  // namespace daguai
