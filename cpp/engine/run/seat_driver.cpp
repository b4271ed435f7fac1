#include <daguai/beliefs/sampler.hpp>
#include <daguai/catalog/catalog.hpp>
#include <daguai/run/seat_driver.hpp>

namespace daguai {

Action choose_action(PolicyId id, const InfoState& v, Rng& rng, PolicyScratch& scratch,
                     std::uint64_t seed, std::uint64_t game) {
  if (v.pub.current != v.seat) throw GameError("act(view): the view's seat is not to act");
  const GameState w = make_world(v, sample_world_hands(v, seed, game), seed, game);
  return choose_action(id, PolicyView(w, v), rng, scratch);
}

SeatDriver::SeatDriver(const std::array<int, kSeats>& policies, std::uint64_t seed,
                       std::uint64_t game) {
  seats_.policy = policies;
  seats_.decide = &decide;
  seats_.start(seed, game);
}

namespace {

std::array<int, kSeats> policies_of(const std::vector<std::optional<std::string>>& names) {
  if (names.size() != std::size_t(kTable4p2d.seats) &&
      names.size() != std::size_t(kTable6p3d.seats))
    throw GameError("_SeatDriver needs one entry per seat (6, or 4 at 4p2d)");
  std::array<int, kSeats> policies{};
  policies.fill(kCallerSeat);
  for (std::size_t s = 0; s < names.size(); ++s)
    if (names[s]) policies[s] = int(parse_policy(*names[s]));
  return policies;
}

}  // namespace

SeatDriver::SeatDriver(const std::vector<std::optional<std::string>>& names, std::uint64_t seed,
                       std::uint64_t game)
    : SeatDriver(policies_of(names), seed, game) {}

}  // namespace daguai
