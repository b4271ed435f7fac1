#include "rollout.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "sampler.hpp"
#include "workers.hpp"

namespace daguai {

namespace {

void run_one(const SimConfig& cfg, std::int64_t i, const SimOutput& out,
             std::array<PolicyScratch, 6>& scratch) {
  const std::uint64_t game = cfg.first_game + std::uint64_t(i);
  GameState g = cfg.view    ? make_world(*cfg.view, sample_world_hands(*cfg.view, cfg.seed, game),
                                         cfg.seed, game)
                : cfg.start ? *cfg.start
                            : GameState(cfg.rules, cfg.seed, game, cfg.auto_pass, /*record=*/false);
  std::array<Rng, 6> rngs;
  const Table& tb = g.table();  // R18: row widths follow the table
  const int seats = tb.seats, nt = tb.max_tributers;
  for (int s = 0; s < seats; ++s) {
    rngs[std::size_t(s)] = Rng::stream(cfg.seed, game, Stream::kPolicy, std::uint64_t(s));
    scratch[std::size_t(s)].plan.clear();
    scratch[std::size_t(s)].plan_hand = Cards{};
  }
  const int first_dealer = g.dealer(), first_level = g.level_rank();
  std::int32_t plays = 0, passes = 0;
  const std::size_t rounds_wanted = cfg.matches ? std::size_t(cfg.max_rounds_per_match) : 1;
  while (!g.match_over() && g.results().size() < rounds_wanted) {
    const int seat = g.current_player();
    const Action a = choose_action(cfg.policies[std::size_t(seat)], g, rngs[std::size_t(seat)],
                                   scratch[std::size_t(seat)]);
    plays += a.type == ActionType::kPlay;
    passes += a.type == ActionType::kPass;
    g.apply(a);
  }
  const auto& res = g.results();
  const RoundResult& last = res.back();
  if (out.game) out.game[i] = game;
  if (out.dealer) out.dealer[i] = std::int8_t(first_dealer);
  if (out.level) out.level[i] = std::int8_t(first_level);
  if (out.order)
    for (int k = 0; k < seats; ++k) out.order[i * seats + k] = last.order[std::size_t(k)];
  if (out.winner)
    out.winner[i] =
        cfg.matches ? (last.match_over ? last.match_winner : std::int8_t(-1)) : last.winner;
  if (out.n_tributers) out.n_tributers[i] = last.n_tributers;
  if (out.tributers)
    for (int k = 0; k < nt; ++k)
      out.tributers[i * nt + k] = k < last.n_tributers ? last.tributers[std::size_t(k)] : -1;
  if (out.levels) {
    out.levels[i * 2] = std::int8_t(g.level(0));
    out.levels[i * 2 + 1] = std::int8_t(g.level(1));
  }
  if (out.scores)
    for (int k = 0; k < seats; ++k) out.scores[i * seats + k] = std::int32_t(g.score(k));
  if (out.plays) out.plays[i] = plays;
  if (out.passes) out.passes[i] = passes;
  if (out.rounds) out.rounds[i] = std::int32_t(res.size());
  if (out.draws || out.wins) {
    std::int32_t draws = 0, wins[2] = {0, 0};
    res.for_each_from(0, [&](const RoundResult& r) {
      if (r.forfeit_seat >= 0) return;
      if (r.winner < 0)
        ++draws;
      else
        ++wins[r.winner];
    });
    if (out.draws) out.draws[i] = draws;
    if (out.wins) {
      out.wins[i * 2] = wins[0];
      out.wins[i * 2 + 1] = wins[1];
    }
  }
}

}  // namespace

void simulate(const SimConfig& cfg, const SimOutput& out) {
  if (cfg.n <= 0) return;
  const int threads =
      std::max(1, std::min<int>(cfg.threads, int(std::min<std::int64_t>(cfg.n, kMaxThreads))));
  constexpr std::int64_t kChunk = 16;
  std::atomic<std::int64_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&]() {
    std::array<PolicyScratch, 6> scratch;
    try {
      for (;;) {
        const std::int64_t begin = next.fetch_add(kChunk);
        if (begin >= cfg.n) return;
        const std::int64_t end = std::min(cfg.n, begin + kChunk);
        for (std::int64_t i = begin; i < end; ++i) run_one(cfg, i, out, scratch);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      next.store(cfg.n);
    }
  };
  run_workers(threads, worker, [&]() { next.store(cfg.n); });
  if (error) std::rethrow_exception(error);
}

}  // namespace daguai
