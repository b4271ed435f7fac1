// Built-in policies on some seats of one game, the caller's decisions on the others
// (a Python policy on some seats leaves the other seats in C++: the runner's slow path).
// The built-in seats are played by play_out (play_out.hpp): each draws from its own stream
// (R17: Stream::kPolicy, index = seat), so the game is the same whichever mix of seats the
// caller drives.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <daguai/core/rng.hpp>
#include <daguai/game/infostate.hpp>
#include <daguai/game/state.hpp>
#include <daguai/players/play_out.hpp>
#include <daguai/players/policy.hpp>

namespace daguai {

// A built-in policy's decision from the view of the seat to act (R16). A policy runs on a
// state, so the hidden hands are filled from world `game` of `seed` (sampler.hpp
// sample_world_hands: the caller's seed and game, e.g. those of its PolicyRunner); built-in
// policies read only the view (PolicyView), so any world gives the same decision.
// GameError when the view's seat is not to act.
Action choose_action(PolicyId id, const InfoState& v, Rng& rng, PolicyScratch& scratch,
                     std::uint64_t seed, std::uint64_t game);

class SeatDriver {
 public:
  // policies[seat]: a PolicyId, or kCallerSeat (-1) for a seat the caller decides.
  SeatDriver(const std::array<int, kSeats>& policies, std::uint64_t seed, std::uint64_t game);
  // names[seat]: a policy name (parse_policy), or nullopt for a caller's seat; one per seat of
  // either table (R18: 6, or 4 at 4p2d), GameError otherwise.
  SeatDriver(const std::vector<std::optional<std::string>>& names, std::uint64_t seed,
             std::uint64_t game);
  // Apply built-in decisions until a caller's seat is to act (returns that seat), the match
  // is over or `round_limit` rounds have finished (returns -1).
  int advance(GameState& g, std::size_t round_limit) {
    return play_out(g, seats_, round_limit, &counts_);
  }
  std::int64_t plays() const { return counts_.plays; }
  std::int64_t passes() const { return counts_.passes; }

 private:
  Seats seats_;
  DecisionCounts counts_;
};

}  // namespace daguai
