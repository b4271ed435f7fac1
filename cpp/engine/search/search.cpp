#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>

#include <daguai/beliefs/sampler.hpp>
#include <daguai/core/workers.hpp>
#include <daguai/game/action_text.hpp>
#include <daguai/search/candidates.hpp>
#include <daguai/search/search.hpp>

namespace daguai {

int rollout_round(GameState& g, PolicyId policy, DecideFn decide, std::uint64_t seed,
                  std::uint64_t game, Seats& seats) {
  seats.assign(policy);
  seats.decide = decide;
  seats.start(seed, game);
  g.stop_after_this_round();                   // its result is all a rollout reads: no next deal
  play_out(g, seats, g.results().size() + 1);  // to the end of this round
  const RoundResult& r = g.results().back();
  return r.forfeit_seat >= 0 ? -1 : r.winner;
}

int rollout_round(GameState& g, PolicyId policy, DecideFn decide, std::uint64_t seed,
                  std::uint64_t game) {
  thread_local Seats seats;  // reused: no allocation per rollout
  return rollout_round(g, policy, decide, seed, game, seats);
}

void check_search_limits(const SearchConfig& cfg) {
  if (cfg.rollouts < 1 || cfg.rollouts > kMaxRollouts)
    throw GameError("search: the budget (rollouts) must be in [1, " + std::to_string(kMaxRollouts) +
                    "], got " + std::to_string(cfg.rollouts));
  if (!(cfg.ms >= 0 && cfg.ms <= kMaxSearchMs))
    throw GameError("search: the budget (ms) must be in [0, " + std::to_string(long(kMaxSearchMs)) +
                    "]");
  check_threads(cfg.threads, "search");
  if (cfg.max_candidates < 0) throw GameError("search: max_candidates must be >= 0");
  if (cfg.model_top < 0) throw GameError("search: model_top must be >= 0");
  if (cfg.model_plies < 0 || cfg.model_plies > kMaxModelPlies)
    throw GameError("search: model_plies must be in [0, " + std::to_string(kMaxModelPlies) + "]");
  if (cfg.value_plies < 0 || cfg.value_plies > kMaxModelPlies)
    throw GameError("search: value_plies must be in [0, " + std::to_string(kMaxModelPlies) + "]");
  if (!cfg.decide) throw GameError("search: the config has no rollout dispatcher");
  check_inference_settings(cfg.inference_worlds, cfg.inference_noise, cfg.inference_temperature);
  if (cfg.inference == Inference::kLearned && !cfg.log_prob)
    throw GameError("search: the config has no learned model of play (log_prob)");
}

namespace {

int ceil_log2(int n) {
  int r = 0;
  while ((1 << r) < n) ++r;
  return r;
}

using Clock = std::chrono::steady_clock;

// The values of every (candidate, world) played so far; a candidate's worlds are 0 .. done-1.
class Race {
 public:
  Race(const InfoState& v, const std::vector<Action>& actions, const SearchConfig& cfg,
       std::uint64_t seed, int incumbent)
      : v_(v),
        actions_(actions),
        cfg_(cfg),
        seed_(seed),
        incumbent_(incumbent),
        team_(team_of(v.seat)),
        constraints_(v),
        play_model_(cfg.play_model()),
        value_(actions.size()),
        outcome_(actions.size()),
        done_(actions.size(), 0) {}

  // The race with budget B; false when the deadline (if any) passed before it finished.
  bool run(long budget, const Clock::time_point* deadline, const SearchProgress& progress,
           SearchResult* res) {
    const int n = int(actions_.size());
    std::vector<int> challengers;
    for (int i = 0; i < n; ++i)
      if (i != incumbent_) challengers.push_back(i);
    const bool has_inc = incumbent_ >= 0;
    const int rounds = has_inc ? ceil_log2(std::max(1, int(challengers.size()))) + 1 : ceil_log2(n);
    std::vector<int> worlds_of(std::size_t(n), 0), round_of(std::size_t(n), 0);
    long used = 0;
    int worlds = 0;
    for (int r = 0; r < rounds; ++r) {
      std::vector<int> alive = challengers;
      if (has_inc) alive.insert(alive.begin(), incumbent_);
      const long size = long(alive.size());
      const bool last = r == rounds - 1;
      const long t = last ? std::max(1L, (budget - used) / size)
                          : std::max(1L, budget / (size * long(rounds)));
      const int before = worlds;
      worlds = int(std::min<long>(long(worlds) + t, kMaxRollouts));
      used += long(worlds - before) * size;
      if (!extend(alive, worlds, deadline)) return false;
      for (int i : alive) {
        worlds_of[std::size_t(i)] = worlds;
        round_of[std::size_t(i)] = r;
      }
      if (progress && !progress(deadline ? -1.0 : double(used), double(budget)))
        throw GameError("search: interrupted");
      if (!has_inc || !last) {  // halve the challengers: the better mean first, ties in order
        std::vector<double> mean(std::size_t(n), 0.0);
        for (int i : challengers) mean[std::size_t(i)] = prefix_mean(i, worlds);
        std::stable_sort(challengers.begin(), challengers.end(),
                         [&](int a, int b) { return mean[std::size_t(a)] > mean[std::size_t(b)]; });
        challengers.resize((challengers.size() + 1) / 2);
        std::sort(challengers.begin(), challengers.end());
      }
    }
    res->candidates.assign(std::size_t(n), CandidateStats{});
    res->worlds = 0;
    for (int i = 0; i < n; ++i) {
      CandidateStats& c = res->candidates[std::size_t(i)];
      c.action = actions_[std::size_t(i)];
      c.n = worlds_of[std::size_t(i)];
      c.round = round_of[std::size_t(i)];
      tally(i, &c);
      res->worlds = std::max(res->worlds, c.n);
    }
    res->rounds = rounds;
    res->rollouts = used;
    res->budget = budget;
    res->best =
        has_inc ? switch_rule(challengers.empty() ? -1 : challengers[0], worlds) : challengers[0];
    return true;
  }

  // Candidate i's statistics over its first c->n worlds: values, score and outcomes.
  void tally(int i, CandidateStats* c) const {
    const auto& value = value_[std::size_t(i)];
    const auto& outcome = outcome_[std::size_t(i)];
    c->values.assign(value.begin(), value.begin() + c->n);
    for (int k = 0; k < c->n; ++k) {
      const int o = outcome[std::size_t(k)];
      c->score += value[std::size_t(k)];
      c->wins += o > 0;
      c->draws += o == 0;
      c->losses += o < 0;
    }
  }

  // What a race stopped by the deadline in its first round leaves: every candidate with the
  // worlds it finished, the best mean among those with the most worlds (the incumbent when
  // it has them), rounds = 0.
  void partial(long budget, SearchResult* res) const {
    const int n = int(actions_.size());
    res->candidates.assign(std::size_t(n), CandidateStats{});
    res->worlds = 0;
    res->rollouts = 0;
    for (int i = 0; i < n; ++i) {
      CandidateStats& c = res->candidates[std::size_t(i)];
      c.action = actions_[std::size_t(i)];
      c.n = done_[std::size_t(i)];
      tally(i, &c);
      res->worlds = std::max(res->worlds, c.n);
      res->rollouts += c.n;
    }
    int best = incumbent_ >= 0 && done_[std::size_t(incumbent_)] == res->worlds ? incumbent_ : -1;
    for (int i = 0; i < n && best < 0; ++i)
      if (done_[std::size_t(i)] == res->worlds) best = i;
    if (incumbent_ < 0)
      for (int i = 0; i < n; ++i)
        if (done_[std::size_t(i)] == res->worlds &&
            res->candidates[std::size_t(i)].score > res->candidates[std::size_t(best)].score)
          best = i;
    res->best = best;
    res->rounds = 0;
    res->budget = budget;
  }

 private:
  double prefix_mean(int i, int worlds) const {
    double s = 0;
    for (int k = 0; k < worlds; ++k) s += value_[std::size_t(i)][std::size_t(k)];
    return worlds ? s / worlds : 0.0;
  }

  // The incumbent unless the challenger is clearly better over the shared worlds.
  int switch_rule(int challenger, int worlds) const {
    constexpr int kMinWorldsToSwitch = 4;
    constexpr double kZ = 2.0;  // measured: one standard error switched on noise (docs)
    if (challenger < 0 || worlds < kMinWorldsToSwitch) return incumbent_;
    double sum = 0, sq = 0;
    for (int k = 0; k < worlds; ++k) {
      const double d = double(value_[std::size_t(challenger)][std::size_t(k)]) -
                       double(value_[std::size_t(incumbent_)][std::size_t(k)]);
      sum += d;
      sq += d * d;
    }
    const double mean = sum / worlds;
    const double var = std::max(0.0, (sq - worlds * mean * mean) / (worlds - 1));
    return mean > 0 && mean > kZ * std::sqrt(var / worlds) ? challenger : incumbent_;
  }

  // The hands of worlds 0 .. worlds-1, each drawn once for every candidate (in parallel;
  // world k depends only on (view, seed, k): inference.hpp).
  void draw_worlds(int worlds) {
    const int from = int(hands_.size());
    if (worlds <= from) return;
    hands_.resize(std::size_t(worlds));
    parallel_for<PolicyScratch>(
        std::int64_t(worlds - from), cfg_.threads, 1, [&](PolicyScratch& scratch, std::int64_t t) {
          const std::uint64_t k = std::uint64_t(from + t);
          hands_[std::size_t(k)] = inferred_world_hands(v_, constraints_, play_model_,
                                                        cfg_.inference_worlds, seed_, k, scratch);
          return true;
        });
  }

  // Plays every candidate of `alive` in its worlds done .. worlds-1 (in parallel).
  bool extend(const std::vector<int>& alive, int worlds, const Clock::time_point* deadline) {
    draw_worlds(worlds);
    std::vector<std::pair<int, int>> tasks;  // (world, candidate): world-major
    for (int i : alive) {
      value_[std::size_t(i)].resize(std::size_t(std::max(worlds, done_[std::size_t(i)])));
      outcome_[std::size_t(i)].resize(value_[std::size_t(i)].size());
    }
    int from = worlds;
    for (int i : alive) from = std::min(from, done_[std::size_t(i)]);
    for (int k = from; k < worlds; ++k)
      for (int i : alive)
        if (k >= done_[std::size_t(i)]) tasks.emplace_back(k, i);
    if (tasks.empty()) return true;
    std::vector<char> finished(tasks.size(), 0);  // each written by one worker
    std::atomic<bool> late{false};
    parallel_for<Seats>(std::int64_t(tasks.size()), cfg_.threads, 1,
                        [&](Seats& seats, std::int64_t t) {
                          if (deadline && Clock::now() > *deadline) {
                            late.store(true);
                            return false;
                          }
                          play(tasks[std::size_t(t)].second, tasks[std::size_t(t)].first, seats);
                          finished[std::size_t(t)] = 1;
                          return true;
                        });
    if (late.load()) {  // keep what finished: each candidate's worlds finished in order
      std::vector<char> open(actions_.size(), 0);
      for (std::size_t t = 0; t < tasks.size(); ++t) {
        const auto [k, i] = tasks[t];
        if (!finished[t]) open[std::size_t(i)] = 1;
        if (!open[std::size_t(i)] && k == done_[std::size_t(i)]) done_[std::size_t(i)] = k + 1;
      }
      return false;
    }
    for (int i : alive) done_[std::size_t(i)] = std::max(done_[std::size_t(i)], worlds);
    return true;
  }

  void play(int i, int k, Seats& seats) {
    GameState g = make_world(v_, hands_[std::size_t(k)], seed_, std::uint64_t(k));
    const std::size_t rounds = g.results().size();
    g.stop_after_this_round();                  // a rollout reads this round's result only
    g.apply_trusted(actions_[std::size_t(i)]);  // a legal action of the world's state
    // the model's replies stop by themselves when the round is over
    if (cfg_.model_plies > 0 && cfg_.incumbent != kNoPolicy) model_replies(g, k, rounds, seats);
    const int scale = cfg_.value ? kValueScale : 1;
    if (cfg_.value) {
      play_to_cut(g, k, rounds, seats);
      if (!g.match_over() && g.results().size() == rounds) {  // cut: the network's estimate
        const double v = cfg_.value(g, v_.seat);
        outcome_[std::size_t(i)][std::size_t(k)] = std::int8_t(v > 0 ? 1 : v < 0 ? -1 : 0);
        value_[std::size_t(i)][std::size_t(k)] = std::int32_t(std::lround(v * kValueScale));
        return;
      }
    }
    int winner;
    if (g.results().size() > rounds || g.match_over()) {
      const RoundResult& r = g.results().back();
      winner = r.forfeit_seat >= 0 ? -1 : r.winner;
    } else {
      winner = rollout_round(g, cfg_.rollout, cfg_.decide, seed_, std::uint64_t(k), seats);
    }
    outcome_[std::size_t(i)][std::size_t(k)] =
        std::int8_t(winner < 0 ? 0 : (winner == team_ ? 1 : -1));
    value_[std::size_t(i)][std::size_t(k)] =
        g.results().back().scores[std::size_t(v_.seat)] * scale;
  }

  // cfg.value_plies decisions of the rollout policy, each seat on its rollout stream
  // (seed, k, kPolicy, seat) as rollout_round's, until the round ends.
  void play_to_cut(GameState& g, int k, std::size_t rounds, Seats& seats) {
    seats.assign(cfg_.rollout);
    seats.decide = cfg_.decide;
    seats.start(seed_, std::uint64_t(k));
    decisions(g, cfg_.rollout, cfg_.value_plies, rounds, seats);
  }

  // Up to n decisions of `policy` from the seats' streams and scratch, until the round ends.
  void decisions(GameState& g, PolicyId policy, int n, std::size_t rounds, Seats& seats) const {
    for (int j = 0; j < n && !g.match_over() && g.results().size() == rounds; ++j) {
      const int seat = g.current_player();
      g.apply_trusted(cfg_.decide(policy, PolicyView(g), seats.rng[std::size_t(seat)],
                                  seats.scratch[std::size_t(seat)]));  // a policy's choice: legal
    }
  }

  // The first cfg.model_plies decisions after the candidate, by the incumbent policy, each
  // seat on its stream (seed, k, kRolloutModel, seat), until the round ends.
  void model_replies(GameState& g, int k, std::size_t rounds, Seats& seats) {
    for (int s = 0; s < kSeats; ++s) {
      seats.rng[std::size_t(s)] =
          Rng::stream(seed_, std::uint64_t(k), Stream::kRolloutModel, std::uint64_t(s));
      seats.scratch[std::size_t(s)].forget_plan();
    }
    decisions(g, cfg_.incumbent, cfg_.model_plies, rounds, seats);
  }

  const InfoState& v_;
  const std::vector<Action>& actions_;
  const SearchConfig& cfg_;
  std::uint64_t seed_;
  int incumbent_, team_;
  Constraints constraints_;
  PlayModel play_model_;
  std::vector<Hands> hands_;  // the hands of worlds 0, 1, ... drawn so far
  std::vector<std::vector<std::int32_t>> value_;
  std::vector<std::vector<std::int8_t>> outcome_;
  std::vector<int> done_;
};

}  // namespace

SearchResult search(const InfoState& v, const std::vector<Action>& actions, const SearchConfig& cfg,
                    std::uint64_t seed, int incumbent, const SearchProgress& progress) {
  if (v.pub.current != v.seat)
    throw GameError("search: seat " + std::to_string(v.seat) + " is not to act");
  if (actions.empty()) throw GameError("search: no candidate actions");
  check_search_limits(cfg);
  if (incumbent >= int(actions.size())) incumbent = -1;
  SearchResult res;
  res.candidates.resize(actions.size());
  for (std::size_t i = 0; i < actions.size(); ++i) res.candidates[i].action = actions[i];
  res.best = std::max(0, incumbent);
  if (actions.size() == 1) return res;
  Race race(v, actions, cfg, seed, incumbent);
  long budget = cfg.rollouts;
  if (cfg.ms <= 0) {
    race.run(budget, nullptr, progress, &res);
    return res;
  }
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::microseconds(long(cfg.ms * 1000.0));
  // Races with doubled budgets while time is left; the last one that finished is the result.
  // A first race that does not finish in time leaves a partial result (Race::partial).
  const SearchProgress timed = [&](double, double) {
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    return !progress || progress(ms, cfg.ms);
  };
  if (!race.run(budget, &deadline, timed, &res)) {
    race.partial(budget, &res);
    return res;
  }
  SearchResult next;
  while (budget * 2 <= kMaxRollouts && Clock::now() < deadline) {
    budget *= 2;
    if (!race.run(budget, &deadline, timed, &next)) break;
    res = std::move(next);
  }
  return res;
}

namespace {

// The incumbent's group first, then the groups of cfg.rank's order (a model's best decisions
// first), cfg.model_top groups at most; empty when the model ranks nothing. `legal` are the
// view's legal actions, `groups` their groups of equivalent plays.
std::vector<Action> model_arms(const PolicyView& view, PolicyScratch& s, const SearchConfig& cfg,
                               const std::vector<Action>& legal,
                               const std::vector<ActionGroup>& groups, int incumbent_index) {
  std::vector<Action> ranked, arms;
  cfg.rank(cfg.incumbent, view, s, &ranked);
  if (ranked.empty()) return arms;
  std::vector<int> group_of(legal.size(), 0);
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (int m : groups[g].members) group_of[std::size_t(m)] = int(g);
  std::vector<char> taken(groups.size(), 0);
  taken[std::size_t(group_of[std::size_t(incumbent_index)])] = 1;
  arms.push_back(legal[std::size_t(incumbent_index)]);
  for (const Action& a : ranked) {
    if (int(arms.size()) >= cfg.model_top) break;
    const auto it = std::find(legal.begin(), legal.end(), a);
    if (it == legal.end()) continue;  // not a legal action: ignored
    const int g = group_of[std::size_t(it - legal.begin())];
    if (taken[std::size_t(g)]) continue;
    taken[std::size_t(g)] = 1;
    arms.push_back(legal[std::size_t(groups[std::size_t(g)].members[0])]);
  }
  return arms;
}

}  // namespace

namespace {
thread_local SearchTrace* active_trace = nullptr;  // SearchTraceScope
}  // namespace

SearchTraceScope::SearchTraceScope(SearchTrace* trace) : previous_(active_trace) {
  *trace = SearchTrace();
  active_trace = trace;
}
SearchTraceScope::~SearchTraceScope() { active_trace = previous_; }

Action pimc_action(const PolicyView& view, Rng& rng, PolicyScratch& s, const SearchConfig& cfg) {
  SearchTrace* const trace = active_trace;
  if (trace) *trace = SearchTrace();
  s.actions.clear();
  view.legal_actions(&s.actions);
  if (s.actions.size() == 1) return s.actions[0];  // no search for a forced decision
  const std::uint64_t seed = rng.next();
  if (trace) trace->seed = seed;
  // The incumbent, kept when no candidate is clearly better: the choice of the rollout policy,
  // or of cfg.incumbent (a stronger policy than the rollouts: the expert's network).
  Rng incumbent_rng = Rng::stream(seed, 0, Stream::kPolicy, kIncumbentIndex);
  if (!cfg.decide) throw GameError("search: the config has no rollout dispatcher");
  const PolicyId incumbent_policy = cfg.incumbent == kNoPolicy ? cfg.rollout : cfg.incumbent;
  const Action incumbent = cfg.decide(incumbent_policy, view, incumbent_rng, s);
  s.actions.clear();
  view.legal_actions(&s.actions);
  int incumbent_index = 0;
  for (std::size_t i = 0; i < s.actions.size(); ++i)
    if (s.actions[i] == incumbent) incumbent_index = int(i);
  const std::vector<ActionGroup> groups =
      group_actions(view.hand(view.current_player()), s.actions);
  std::vector<Action> arms;
  if (cfg.model_top > 0 && cfg.rank && cfg.incumbent != kNoPolicy) {
    const std::vector<Action> legal = s.actions;  // the ranking may use the scratch
    arms = model_arms(view, s, cfg, legal, groups, incumbent_index);
    s.actions = legal;
  }
  if (arms.empty())
    arms = candidate_arms(view, s.actions, groups, incumbent_index, cfg.max_candidates);
  if (arms.size() == 1) return incumbent;
  arms[0] = incumbent;  // the incumbent's group comes first
  const SearchResult r = search(view.info(cfg.inference != Inference::kNone), arms, cfg, seed, 0);
  if (trace) {
    trace->searched = true;
    trace->incumbent = 0;
    trace->arms = arms;
    trace->result = r;
  }
  return arms[std::size_t(r.best)];
}

void check_play_count(const GameState& g, std::size_t count) {
  if (g.match_over()) throw GameError("the match is over: nothing to analyze");
  std::vector<Action> legal;
  g.legal_actions(&legal);
  if (count < 1 || count > legal.size())
    throw GameError("plays must name 1 to " + std::to_string(legal.size()) +
                    " actions (the legal ones), got " + std::to_string(count));
}

std::vector<int> play_indices(const GameState& g, const std::vector<Action>& plays) {
  check_play_count(g, plays.size());
  std::vector<Action> legal;
  g.legal_actions(&legal);
  std::vector<int> out;
  for (const Action& a : plays) {
    g.check(a);
    const auto at = std::find(legal.begin(), legal.end(), a);
    if (at == legal.end()) throw GameError("plays: " + action_text(a) + " is not a legal action");
    out.push_back(int(at - legal.begin()));
  }
  return out;
}

Analysis analyze_decision(const GameState& g, const SearchConfig& cfg, std::uint64_t seed,
                          int incumbent, const SearchProgress& progress,
                          const std::vector<int>& only) {
  if (g.match_over()) throw GameError("the match is over: nothing to analyze");
  const int seat = g.current_player();
  const InfoState v = information_state(g, seat, cfg.inference != Inference::kNone);
  std::vector<Action> legal;
  g.legal_actions(&legal);
  if (incumbent < -1 || incumbent >= int(legal.size()))
    throw GameError("search: incumbent must be -1 or a legal action index");
  std::vector<ActionGroup> groups = group_actions(g.hand(seat), legal);
  const int all_groups = int(groups.size());
  int keep = cfg.max_candidates;
  if (!only.empty()) {  // the groups of the actions asked for, in their order; all of them race
    std::vector<char> asked(legal.size(), 0);
    for (int i : only) {
      if (i < 0 || i >= int(legal.size()))
        throw GameError("search: a play to analyze must be a legal action index");
      asked[std::size_t(i)] = 1;
    }
    if (incumbent >= 0) asked[std::size_t(incumbent)] = 1;
    std::erase_if(groups, [&](const ActionGroup& gr) {
      return std::none_of(gr.members.begin(), gr.members.end(),
                          [&](int i) { return asked[std::size_t(i)] != 0; });
    });
    keep = 0;
  }
  std::vector<int> chosen;
  const std::vector<Action> arms =
      candidate_arms(PolicyView(g), legal, groups, incumbent, keep, &chosen);
  Analysis out;
  out.result = search(v, arms, cfg, seed, incumbent >= 0 ? 0 : -1, progress);
  out.groups = all_groups;
  for (std::size_t a = 0; a < chosen.size(); ++a) {
    std::vector<Action>& members = out.members.emplace_back();
    const bool first = incumbent >= 0 && a == 0;
    if (first) members.push_back(legal[std::size_t(incumbent)]);
    for (int i : groups[std::size_t(chosen[a])].members)
      if (!(first && i == incumbent)) members.push_back(legal[std::size_t(i)]);
  }
  return out;
}

}  // namespace daguai
