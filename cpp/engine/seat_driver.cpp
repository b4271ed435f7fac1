#include "seat_driver.hpp"

#include "sampler.hpp"

namespace daguai {

Action choose_action(PolicyKind kind, const InfoState& v, Rng& rng, PolicyScratch& scratch,
                     std::uint64_t seed, std::uint64_t game) {
  if (v.current != v.seat) throw GameError("act(view): the view's seat is not to act");
  const GameState w = make_world(v, sample_world_hands(v, seed, game), seed, game);
  return choose_action(kind, w, rng, scratch);
}

SeatDriver::SeatDriver(const std::array<int, kSeats>& kinds, std::uint64_t seed,
                       std::uint64_t game) {
  seats_.kind = kinds;
  seats_.start(seed, game);
}

}  // namespace daguai
