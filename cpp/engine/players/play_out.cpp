#include <daguai/players/play_out.hpp>

namespace daguai {

std::array<Rng, kSeats> policy_streams(std::uint64_t seed, std::uint64_t game) {
  std::array<Rng, kSeats> rngs;
  for (int s = 0; s < kSeats; ++s)
    rngs[std::size_t(s)] = Rng::stream(seed, game, Stream::kPolicy, std::uint64_t(s));
  return rngs;
}

void Seats::start(std::uint64_t seed, std::uint64_t game) {
  rng = policy_streams(seed, game);
  for (PolicyScratch& s : scratch) s.forget_plan();
}

int play_out(GameState& g, Seats& seats, std::size_t round_limit, DecisionCounts* counts) {
  if (!seats.decide) throw GameError("play_out: the seats have no policy dispatcher");
  std::int64_t plays = 0, passes = 0;
  int caller = -1;
  while (!g.match_over() && g.results().size() < round_limit) {
    const int seat = g.current_player();
    const int k = seats.policy[std::size_t(seat)];
    if (k == kCallerSeat) {
      caller = seat;
      break;
    }
    const Action a = seats.decide(PolicyId(k), PolicyView(g), seats.rng[std::size_t(seat)],
                                  seats.scratch[std::size_t(seat)]);
    plays += a.type == ActionType::kPlay;
    passes += a.type == ActionType::kPass;
    g.apply_trusted(a);  // a built-in policy's choice: legal (state.hpp)
  }
  if (counts) {
    counts->plays += plays;
    counts->passes += passes;
  }
  return caller;
}

}  // namespace daguai
