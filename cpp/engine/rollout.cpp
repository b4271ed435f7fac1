#include "rollout.hpp"

#include <algorithm>

#include "play_out.hpp"
#include "sampler.hpp"
#include "workers.hpp"

namespace daguai {

namespace {

void run_one(const SimConfig& cfg, std::int64_t i, const SimOutput& out, Seats& seats) {
  const std::uint64_t game = cfg.first_game + std::uint64_t(i);
  GameState g = cfg.view    ? make_world(*cfg.view, sample_world_hands(*cfg.view, cfg.seed, game),
                                         cfg.seed, game)
                : cfg.start ? *cfg.start
                            : GameState(cfg.rules, cfg.seed, game, cfg.auto_pass, /*record=*/false);
  GameTally t;
  t.seed = cfg.seed;
  t.game = game;
  t.first_dealer = g.dealer();
  t.first_level = g.level_rank();
  t.matches = cfg.matches;
  seats.start(cfg.seed, game);
  DecisionCounts counts;
  play_out(g, seats, cfg.matches ? std::size_t(cfg.max_rounds_per_match) : 1, &counts);
  t.plays = std::int32_t(counts.plays);
  t.passes = std::int32_t(counts.passes);
  fill_row(out, i, g, t);
}

}  // namespace

void simulate(const SimConfig& cfg, const SimOutput& out) {
  constexpr std::int64_t kChunk = 16;
  parallel_for<Seats>(cfg.n, std::min(cfg.threads, kMaxThreads), kChunk,
                      [&](Seats& seats, std::int64_t i) {
                        seats.kind = {};
                        for (int s = 0; s < kSeats; ++s)
                          seats.kind[std::size_t(s)] = int(cfg.policies[std::size_t(s)]);
                        run_one(cfg, i, out, seats);
                        return true;
                      });
}

}  // namespace daguai
