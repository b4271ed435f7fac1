#include <algorithm>

#include <daguai/beliefs/sampler.hpp>
#include <daguai/catalog/catalog.hpp>
#include <daguai/core/workers.hpp>
#include <daguai/players/play_out.hpp>
#include <daguai/run/rollout.hpp>

namespace daguai {

namespace {

void run_one(const SimConfig& cfg, const InfoState* view, std::int64_t i, const SimOutput& out,
             Seats& seats) {
  const std::uint64_t game = cfg.first_game + std::uint64_t(i);
  // a search with inference reads the round's history from the log: record only then
  const bool record = std::any_of(seats.policy.begin(), seats.policy.end(), needs_history);
  GameState g = view ? make_world(*view, sample_world_hands(*view, cfg.seed, game), cfg.seed, game)
                : cfg.start ? *cfg.start
                            : GameState(cfg.rules, cfg.seed, game, cfg.auto_pass, record,
                                        cfg.random_start ? Start::kRandom : Start::kFresh);
  GameTally t;
  t.seed = cfg.seed;
  t.game = game;
  t.first_dealer = g.dealer();
  t.first_level = g.level_rank();
  t.matches = cfg.matches;
  seats.start(cfg.seed, game);
  // a round's row reads only its result (fill_row: g.results()): deal no next round
  if (!cfg.matches) g.stop_after_this_round();
  DecisionCounts counts;
  play_out(g, seats, cfg.matches ? std::size_t(cfg.max_rounds_per_match) : 1, &counts);
  t.plays = std::int32_t(counts.plays);
  t.passes = std::int32_t(counts.passes);
  fill_row(out, i, g, t);
}

}  // namespace

std::array<PolicyId, kSeats> seat_policies(const std::vector<std::string>& names,
                                           const Rules& rules) {
  const Table& tb = table_of(rules);
  if (names.size() != std::size_t(tb.seats))
    throw GameError("simulate needs " + std::to_string(tb.seats) +
                    " policies (one per seat), got " + std::to_string(names.size()));
  std::array<PolicyId, kSeats> out{};
  for (std::size_t s = 0; s < names.size(); ++s) out[s] = parse_policy(names[s]);
  return out;
}

void check_sim_config(const SimConfig& cfg) {
  if (cfg.n < 0) throw GameError("simulate: n must be >= 0");
  if (cfg.threads < 1) throw GameError("simulate: threads must be >= 1");
  if (cfg.start && cfg.start->match_over())
    throw GameError("simulate: the position's match is over");
  if (cfg.start && cfg.random_start)
    throw GameError("simulate: a position is its own start (random_start goes with seeded games)");
  if (cfg.start && cfg.view_seat >= cfg.start->table().seats)
    throw GameError("simulate: no seat " + std::to_string(cfg.view_seat));
}

void simulate(const SimConfig& cfg, const SimOutput& out) {
  check_sim_config(cfg);
  InfoState view_state;
  const InfoState* view = nullptr;
  if (cfg.start) {
    if (cfg.view_seat >= 0) {
      view_state = information_state(*cfg.start, cfg.view_seat);
      sample_world_hands(view_state, cfg.seed, cfg.first_game);  // fail early if it cannot be
      view = &view_state;
    }
  }
  constexpr std::int64_t kChunk = 16;
  parallel_for<Seats>(cfg.n, std::min(cfg.threads, kMaxThreads), kChunk,
                      [&](Seats& seats, std::int64_t i) {
                        seats.policy = {};
                        seats.decide = &decide;
                        for (int s = 0; s < kSeats; ++s)
                          seats.policy[std::size_t(s)] = int(cfg.policies[std::size_t(s)]);
                        run_one(cfg, view, i, out, seats);
                        return true;
                      });
}

}  // namespace daguai
