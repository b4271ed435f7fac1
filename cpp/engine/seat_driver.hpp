// Built-in policies on some seats of one game, the caller's decisions on the others
// (issue 9: a Python policy on some seats leaves the other seats in C++; sim.py's slow path).
// Each built-in seat draws from its own stream (R17: Stream::kPolicy, index = seat), so the
// game is the same whichever mix of seats the caller drives.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "infostate.hpp"
#include "policy.hpp"
#include "rng.hpp"
#include "state.hpp"

namespace daguai {

// A built-in policy's decision from the view of the seat to act (R16). Built-in policies
// read only the view (PolicyView), so any world of the view gives the same decision: world 0
// of seed 0 stands in for the hidden hands. GameError when the view's seat is not to act.
Action choose_action(PolicyKind kind, const InfoState& v, Rng& rng, PolicyScratch& scratch);

class SeatDriver {
 public:
  // kinds[seat]: a PolicyKind, or -1 for a seat the caller decides.
  SeatDriver(const std::array<int, kSeats>& kinds, std::uint64_t seed, std::uint64_t game);
  // Apply built-in decisions until a caller's seat is to act (returns that seat), the match
  // is over or `round_limit` rounds have finished (returns -1).
  int advance(GameState& g, std::size_t round_limit);
  std::int64_t plays() const { return plays_; }
  std::int64_t passes() const { return passes_; }

 private:
  std::array<int, kSeats> kind_{};
  std::array<Rng, kSeats> rngs_;
  std::array<PolicyScratch, kSeats> scratch_;
  std::int64_t plays_ = 0, passes_ = 0;
};

}  // namespace daguai
