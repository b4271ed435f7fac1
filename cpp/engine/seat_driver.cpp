#include "seat_driver.hpp"

namespace daguai {

SeatDriver::SeatDriver(const std::array<int, kSeats>& kinds, std::uint64_t seed, std::uint64_t game)
    : kind_(kinds) {
  for (int s = 0; s < kSeats; ++s)
    rngs_[std::size_t(s)] = Rng::stream(seed, game, Stream::kPolicy, std::uint64_t(s));
}

int SeatDriver::advance(GameState& g, std::size_t round_limit) {
  while (!g.match_over() && g.results().size() < round_limit) {
    const int seat = g.current_player();
    const int k = kind_[std::size_t(seat)];
    if (k < 0) return seat;
    const Action a =
        choose_action(PolicyKind(k), g, rngs_[std::size_t(seat)], scratch_[std::size_t(seat)]);
    plays_ += a.type == ActionType::kPlay;
    passes_ += a.type == ActionType::kPass;
    g.apply(a);
  }
  return -1;
}

}  // namespace daguai
