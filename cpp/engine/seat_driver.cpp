#include "seat_driver.hpp"

#include "sampler.hpp"

namespace daguai {

Action choose_action(PolicyKind kind, const InfoState& v, Rng& rng, PolicyScratch& scratch) {
  if (v.pub.current != v.seat) throw GameError("act(view): the view's seat is not to act");
  const GameState w = make_world(v, sample_world_hands(v, 0, 0), 0, 0);
  return choose_action(kind, w, rng, scratch);
}

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
