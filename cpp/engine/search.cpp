#include "search.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>

#include "learned.hpp"
#include "sampler.hpp"

namespace daguai {

bool is_search_policy(PolicyKind k) {
  return !model_of(k) && std::string(policy_name(k)).rfind("pimc", 0) == 0;
}

int rollout_round(GameState& g, PolicyKind policy, std::uint64_t seed, std::uint64_t game) {
  if (is_search_policy(policy)) throw GameError("a rollout policy cannot be a search policy");
  std::array<Rng, kSeats> rngs;
  thread_local std::array<PolicyScratch, kSeats> scratch;  // reused: no allocation per rollout
  for (int s = 0; s < kSeats; ++s) {
    rngs[std::size_t(s)] = Rng::stream(seed, game, Stream::kPolicy, std::uint64_t(s));
    scratch[std::size_t(s)].plan.clear();
    scratch[std::size_t(s)].plan_hand = Cards{};
  }
  const std::size_t rounds = g.results().size();
  while (!g.match_over() && g.results().size() == rounds) {
    const int seat = g.current_player();
    g.apply(choose_action(policy, g, rngs[std::size_t(seat)], scratch[std::size_t(seat)]));
  }
  const RoundResult& r = g.results().back();
  return r.forfeit_seat >= 0 ? -1 : r.winner;
}

SearchResult search(const InfoState& v, const std::vector<Action>& actions, const SearchConfig& cfg,
                    std::uint64_t seed, int prior) {
  if (v.current != v.seat)
    throw GameError("search: seat " + std::to_string(v.seat) + " is not to act");
  if (actions.empty()) throw GameError("search: no candidate actions");
  if (cfg.rollouts <= 0 || cfg.min_worlds <= 0 || cfg.max_worlds <= 0 || cfg.threads <= 0 ||
      cfg.ms < 0)
    throw GameError("search: the budget (rollouts, worlds, threads, ms) must be > 0");
  if (is_search_policy(cfg.rollout))
    throw GameError("search: the rollout policy cannot be a search policy");
  SearchResult res;
  res.candidates.resize(actions.size());
  for (std::size_t i = 0; i < actions.size(); ++i) res.candidates[i].action = actions[i];
  if (actions.size() == 1) return res;
  const int n_cand = int(actions.size());
  const int by_budget = std::clamp(cfg.rollouts / n_cand, cfg.min_worlds, cfg.max_worlds);
  const int max_worlds = cfg.ms > 0 ? cfg.max_worlds : by_budget;
  const int team = team_of(v.seat);
  // outcome[k * n_cand + i]: +1 win, 0 draw, -1 loss of world k, candidate i
  std::vector<std::int8_t> outcome(std::size_t(max_worlds) * std::size_t(n_cand), 0);
  std::vector<std::int32_t> value(outcome.size(), 0);  // the seat's round score change
  const auto start = std::chrono::steady_clock::now();
  std::atomic<int> next{0};
  std::atomic<bool> stop{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&]() {
    try {
      for (;;) {
        if (stop.load()) return;
        if (cfg.ms > 0 && next.load() >= cfg.min_worlds &&
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count() > cfg.ms) {
          stop.store(true);
          return;
        }
        const int k = next.fetch_add(1);  // every world fetched below max_worlds is finished
        if (k >= max_worlds) return;
        const GameState world =
            make_world(v, sample_world_hands(v, seed, std::uint64_t(k)), seed, std::uint64_t(k));
        for (int i = 0; i < n_cand; ++i) {
          GameState g = world;
          g.apply(actions[std::size_t(i)]);
          int winner;
          if (g.results().size() > world.results().size() || g.match_over()) {
            const RoundResult& r = g.results().back();
            winner = r.forfeit_seat >= 0 ? -1 : r.winner;
          } else {
            winner = rollout_round(g, cfg.rollout, seed, std::uint64_t(k));
          }
          const std::size_t at = std::size_t(k) * std::size_t(n_cand) + std::size_t(i);
          outcome[at] = std::int8_t(winner < 0 ? 0 : (winner == team ? 1 : -1));
          value[at] = g.results().back().scores[std::size_t(v.seat)];
        }
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      stop.store(true);
    }
  };
  if (cfg.threads == 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < cfg.threads; ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }
  if (error) std::rethrow_exception(error);
  // Worlds 0..W-1 are all finished: every index fetched is completed before its worker stops.
  const int worlds = std::min(next.load(), max_worlds);
  res.worlds = worlds;
  for (int k = 0; k < worlds; ++k)
    for (int i = 0; i < n_cand; ++i) {
      CandidateStats& c = res.candidates[std::size_t(i)];
      const int o = outcome[std::size_t(k) * std::size_t(n_cand) + std::size_t(i)];
      ++c.n;
      c.score += value[std::size_t(k) * std::size_t(n_cand) + std::size_t(i)];
      c.wins += o > 0;
      c.draws += o == 0;
      c.losses += o < 0;
    }
  if (prior < 0 || prior >= n_cand) {
    for (int i = 1; i < n_cand; ++i)
      if (res.candidates[std::size_t(i)].mean_score() >
          res.candidates[std::size_t(res.best)].mean_score())
        res.best = i;
    return res;
  }
  res.best = prior;
  double best_gain = 0;
  constexpr int kMinWorldsToSwitch = 4;
  constexpr double kZ = 2.0;  // measured: one standard error switched on noise (docs/search.md)
  for (int i = 0; i < n_cand && worlds >= kMinWorldsToSwitch; ++i) {
    if (i == prior) continue;
    double sum = 0, sq = 0;
    for (int k = 0; k < worlds; ++k) {
      const double d = double(value[std::size_t(k) * std::size_t(n_cand) + std::size_t(i)]) -
                       double(value[std::size_t(k) * std::size_t(n_cand) + std::size_t(prior)]);
      sum += d;
      sq += d * d;
    }
    const double mean = sum / worlds;
    const double var = std::max(0.0, (sq - worlds * mean * mean) / (worlds - 1));
    const double se = std::sqrt(var / worlds);
    if (mean > 0 && mean > kZ * se && mean > best_gain) {
      best_gain = mean;
      res.best = i;
    }
  }
  return res;
}

void prune_candidates(const PolicyView& view, const Action& prior, int keep,
                      std::vector<Action>* actions) {
  if (int(actions->size()) <= keep) return;
  // The rollout policy's own choice first, then pass, then per play size the lowest keys,
  // taken round-robin over the sizes 1, 2, 3, 5 (a lead keeps its cheapest options of
  // every shape; a follow keeps its cheapest beats).
  std::vector<Action> by_size[6], rest;
  for (const Action& a : *actions) {
    if (a == prior) continue;
    if (a.type == ActionType::kPlay)
      by_size[std::min(5, a.play.size())].push_back(a);
    else
      rest.push_back(a);
  }
  for (auto& v : by_size)
    std::stable_sort(v.begin(), v.end(),
                     [](const Action& x, const Action& y) { return x.play.key < y.play.key; });
  std::vector<Action> out{prior};
  for (const Action& a : rest)
    if (int(out.size()) < keep) out.push_back(a);
  for (std::size_t i = 0; int(out.size()) < keep; ++i) {
    bool any = false;
    for (auto& v : by_size)
      if (i < v.size() && int(out.size()) < keep) {
        out.push_back(v[i]);
        any = true;
      }
    if (!any) break;
  }
  (void)view;
  *actions = std::move(out);
}

Action pimc_action(const PolicyView& view, Rng& rng, PolicyScratch& s) {
  s.actions.clear();
  view.legal_actions(&s.actions);
  if (s.actions.size() == 1) return s.actions[0];  // no search for a forced decision
  const std::uint64_t seed = rng.next();
  // The rollout policy's own choice is the prior: kept when no candidate is clearly better.
  Rng prior_rng = Rng::stream(seed, 0, Stream::kPolicy, 99);
  const Action prior = decide(s.search.rollout, view, prior_rng, s);
  s.actions.clear();
  view.legal_actions(&s.actions);
  if (s.search.max_candidates > 0 && int(s.actions.size()) > s.search.max_candidates)
    prune_candidates(view, prior, s.search.max_candidates, &s.actions);
  int prior_index = 0;
  for (std::size_t i = 0; i < s.actions.size(); ++i)
    if (s.actions[i] == prior) prior_index = int(i);
  const SearchResult r = search(view.info(), s.actions, s.search, seed, prior_index);
  return r.candidates[std::size_t(r.best)].action;
}

}  // namespace daguai
