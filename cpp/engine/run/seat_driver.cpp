#include <daguai/beliefs/sampler.hpp>
#include <daguai/run/seat_driver.hpp>

namespace daguai {

Action choose_action(PolicyId kind, const InfoState& v, Rng& rng, PolicyScratch& scratch,
                     std::uint64_t seed, std::uint64_t game) {
  if (v.pub.current != v.seat) throw GameError("act(view): the view's seat is not to act");
  const GameState w = make_world(v, sample_world_hands(v, seed, game), seed, game);
  return choose_action(kind, w, rng, scratch);
}

SeatDriver::SeatDriver(const std::array<int, kSeats>& kinds, std::uint64_t seed,
                       std::uint64_t game) {
  seats_.kind = kinds;
  seats_.start(seed, game);
}

namespace {

std::array<int, kSeats> kinds_of(const std::vector<std::optional<std::string>>& names) {
  if (names.size() != std::size_t(kTable4p2d.seats) &&
      names.size() != std::size_t(kTable6p3d.seats))
    throw GameError("_SeatDriver needs one entry per seat (6, or 4 at 4p2d)");
  std::array<int, kSeats> kinds{};
  kinds.fill(kCallerSeat);
  for (std::size_t s = 0; s < names.size(); ++s)
    if (names[s]) kinds[s] = int(parse_policy(*names[s]));
  return kinds;
}

}  // namespace

SeatDriver::SeatDriver(const std::vector<std::optional<std::string>>& names, std::uint64_t seed,
                       std::uint64_t game)
    : SeatDriver(kinds_of(names), seed, game) {}

}  // namespace daguai
