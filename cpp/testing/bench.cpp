#include "bench.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include <daguai/beliefs/sampler.hpp>
#include <daguai/catalog/catalog.hpp>
#include <daguai/learned/learned.hpp>
#include <daguai/learned/models.hpp>
#include <daguai/players/heuristic.hpp>
#include <daguai/players/play_out.hpp>
#include <daguai/search/search.hpp>

namespace daguai::testing {

void time_legal_plays(const Cards* hands, const Play* tops, const std::uint8_t* tops_set,
                      std::size_t n, int level, const Rules& rules, int reps, double* ns_per_call,
                      std::int64_t* counts) {
  PlayList buf;
  buf.reserve(1 << 14);
  for (std::size_t i = 0; i < n; ++i) {
    const Play* top = (tops && tops_set[i]) ? &tops[i] : nullptr;
    double best = 1e300;
    for (int r = 0; r < reps; ++r) {
      buf.clear();
      const auto t0 = std::chrono::steady_clock::now();
      legal_plays(hands[i], level, rules, top, &buf);
      const auto t1 = std::chrono::steady_clock::now();
      best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count());
    }
    ns_per_call[i] = best;
    counts[i] = std::int64_t(buf.size());
  }
}

void time_play_op(int op, const Cards* hands, const Play* tops, const std::uint8_t* tops_set,
                  std::size_t n, int level, const Rules& rules, int reps, double* ns_per_call,
                  std::int64_t* counts) {
  if (op == 0)
    return time_legal_plays(hands, tops, tops_set, n, level, rules, reps, ns_per_call, counts);
  for (std::size_t i = 0; i < n; ++i) {
    const Play* top = (tops && tops_set[i]) ? &tops[i] : nullptr;
    double best = 1e300;
    std::int64_t result = 0;
    for (int r = 0; r < reps; ++r) {
      Rng rng(i);
      Play pick;
      const auto t0 = std::chrono::steady_clock::now();
      if (op == 1)
        result = std::int64_t(count_plays(hands[i], level, rules, top).total);
      else if (op == 2)
        result = sample_play(hands[i], level, rules, top, rng, &pick) ? 1 : 0;
      else
        result = top && has_legal_follow(hands[i], level, rules, *top) ? 1 : 0;
      const auto t1 = std::chrono::steady_clock::now();
      best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count());
      if (op == 2 && result && pick.size() == 0) std::abort();  // keep the pick alive
    }
    ns_per_call[i] = best;
    counts[i] = result;
  }
}

GameTiming time_game(const Rules& rules, std::uint64_t seed, std::int64_t max_decisions,
                     bool record) {
  using clock = std::chrono::steady_clock;
  GameTiming t;
  std::vector<Action> actions;
  Rng rng(seed ^ 0x5EED);
  double gen = 0, clone = 0;
  std::int64_t clones = 0;
  // 1. Random play: generation and copies timed per call; the decisions kept, with the
  // games they belong to and whether each ended a round.
  std::vector<Action> played;
  std::vector<std::uint8_t> ends_round;
  std::vector<std::int64_t> game_start;  // index into played of each game's first decision
  for (std::uint64_t game = 0; t.decisions < max_decisions; ++game) {
    GameState g(rules, seed, game, false, record);
    game_start.push_back(std::int64_t(played.size()));
    while (!g.match_over() && t.decisions < max_decisions) {
      actions.clear();
      const auto t0 = clock::now();
      g.legal_actions(&actions);
      const auto t1 = clock::now();
      const Action a = actions[rng.bounded(actions.size())];
      const std::size_t rounds_before = g.results().size();
      g.apply(a);
      played.push_back(a);
      ends_round.push_back(g.results().size() != rounds_before);
      t.rounds += ends_round.back();
      gen += std::chrono::duration<double, std::nano>(t1 - t0).count();
      if ((t.decisions & 15) == 0) {
        const auto c0 = clock::now();
        GameState copy(g);
        const auto c1 = clock::now();
        clone += std::chrono::duration<double, std::nano>(c1 - c0).count();
        ++clones;
        if (copy.round() < 0) std::abort();  // keep the copy alive
      }
      ++t.decisions;
    }
  }
  game_start.push_back(std::int64_t(played.size()));
  // 2. The same games again, applying the kept decisions with nothing else in the loop: each
  // run of decisions between two round ends timed as one (two clock reads a run, not two an
  // apply); a decision that ends a round also deals the next one and is not counted.
  double apply = 0;
  for (std::size_t game = 0; game + 1 < game_start.size(); ++game) {
    GameState g(rules, seed, game, false, record);
    std::int64_t k = game_start[game];
    const std::int64_t end = game_start[game + 1];
    while (k < end) {
      std::int64_t stop = k;
      while (stop < end && !ends_round[std::size_t(stop)]) ++stop;
      const auto t0 = clock::now();
      for (std::int64_t i = k; i < stop; ++i) g.apply(played[std::size_t(i)]);
      const auto t1 = clock::now();
      apply += std::chrono::duration<double, std::nano>(t1 - t0).count();
      if (stop < end) g.apply(played[std::size_t(stop)]);  // the round's end, untimed
      k = stop + 1;
    }
  }
  t.apply_ns = apply / double(std::max<std::int64_t>(1, t.decisions - t.rounds));
  t.generate_ns = gen / double(std::max<std::int64_t>(1, t.decisions));
  t.clone_ns = clone / double(std::max<std::int64_t>(1, clones));
  return t;
}

double time_sampling(const GameState& g, int n, std::uint64_t seed) {
  const InfoState v = information_state(g, g.current_player());
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t sink = 0;
  for (int k = 0; k < n; ++k) sink += sample_world_hands(v, seed, std::uint64_t(k))[0].lo;
  const double ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / n;
  return sink == 42 ? ns + 0 : ns;  // keep the loop
}

WorldTiming time_worlds(const GameState& g, int n, std::uint64_t seed) {
  using clock = std::chrono::steady_clock;
  WorldTiming t;
  std::uint64_t sink = 0;
  auto t0 = clock::now();
  for (int k = 0; k < n; ++k)
    sink += std::uint64_t(information_state(g, g.current_player()).pub.round);
  t.view_ns = std::chrono::duration<double, std::nano>(clock::now() - t0).count() / n;
  const InfoState v = information_state(g, g.current_player());
  t0 = clock::now();
  for (int k = 0; k < n; ++k) {
    const GameState w =
        make_world(v, sample_world_hands(v, seed, std::uint64_t(k)), seed, std::uint64_t(k));
    sink += std::uint64_t(w.cards_left(0));
  }
  t.world_ns = std::chrono::duration<double, std::nano>(clock::now() - t0).count() / n;
  if (sink == 42) t.world_ns += 0;  // keep the loops
  return t;
}

std::vector<double> time_decisions(const Rules& rules, PolicyId policy, PolicyId opponent,
                                   std::uint64_t seed, int rounds) {
  std::vector<double> ns;
  std::array<PolicyScratch, kSeats> scratch;
  std::vector<Action> legal;
  // The steady clock, read in user space (about 20 ns here), not the thread's CPU clock: a
  // read of that is a system call (about 370 ns on the development machine, 2026-12-07), and
  // one read's cost fell inside every interval, where a learned decision takes a few
  // microseconds. On a quiet machine the two clocks agree but for that cost; a preempted
  // decision shows as an outlier.
  const auto now_ns = [] {
    return std::chrono::duration<double, std::nano>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
  for (int i = 0; i < rounds; ++i) {
    GameState g(rules, seed, std::uint64_t(i), false, false, Start::kRandom);
    std::array<Rng, kSeats> rngs = policy_streams(seed, std::uint64_t(i));
    while (!g.match_over() && g.results().empty()) {
      const int s = g.current_player();
      const PolicyId k = s % 2 == 0 ? policy : opponent;
      legal.clear();
      g.legal_actions(&legal);
      const double t0 = now_ns();
      const Action a = choose_action(k, g, rngs[std::size_t(s)], scratch[std::size_t(s)]);
      const double t1 = now_ns();
      if (s % 2 == 0 && legal.size() > 1) ns.push_back(t1 - t0);
      g.apply(a);
    }
  }
  return ns;
}

double time_rollouts(const GameState& g, int n, PolicyId policy) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    GameState w = g;
    rollout_round(w, policy, &rollout_decide, 99, std::uint64_t(i));
  }
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
         n;
}

DecisionParts time_decision_parts(const Rules& rules, std::uint64_t seed, int rounds) {
  if (rounds < 1 || rounds > 100000) throw GameError("time_decision_parts: rounds in [1, 100000]");
  const PolicyId learned = parse_policy(kBuiltinModel);
  const std::shared_ptr<const Network> net = model_of(learned, table_of(rules).kind);
  if (!net) throw GameError("time_decision_parts: no shipped model");
  DecisionParts out;
  std::array<PolicyScratch, kSeats> scratch;
  std::vector<Action> legal;
  Decision d;
  const auto now = [] { return std::chrono::steady_clock::now(); };
  const auto ns = [](auto a, auto b) {
    return std::chrono::duration<double, std::nano>(b - a).count();
  };
  for (int i = 0; i < rounds; ++i) {
    GameState g(rules, seed, std::uint64_t(i), false, false, Start::kRandom);
    std::array<Rng, kSeats> rngs = policy_streams(seed, std::uint64_t(i));
    while (!g.match_over() && g.results().empty()) {
      const int s = g.current_player();
      PolicyScratch& sc = scratch[std::size_t(s)];
      legal.clear();
      g.legal_actions(&legal);
      if (s % 2 != 0 || g.phase() != Phase::kPlay || legal.size() < 2) {
        g.apply(choose_action(s % 2 ? PolicyId::kHeuristic : learned, g, rngs[std::size_t(s)], sc));
        continue;
      }
      // learned.cpp prepare_decision and learned_action, step by step
      const PolicyView view(g);
      Rng unused(0);
      const auto t0 = now();
      d.heuristic = heuristic_action(view, unused, sc);
      const auto t1 = now();
      learned_candidates(view, d.heuristic, sc, &d.cands);
      const auto t2 = now();
      const int n = d.size();
      if (n > 1) {  // one candidate: no state, no pass (prepare_decision)
        d.state.resize(kStateFeatures);
        encode_state_features(view.info(), d.state.data());
      }
      const auto t3 = now();
      if (n > 1) {
        d.q.resize(std::size_t(n));
        net->evaluate(d.state.data(), d.cands.features.data(), n, d.q.data());
      }
      const auto t4 = now();
      out.candidates.push_back(n);
      out.heuristic_ns.push_back(ns(t0, t1));
      out.candidates_ns.push_back(ns(t1, t2));
      out.state_ns.push_back(ns(t2, t3));
      out.network_ns.push_back(ns(t3, t4));
      const int k = n == 1 ? 0 : learned_pick(d.q.data(), n, d.cands.heuristic, net->margin());
      g.apply(d.cands.actions[std::size_t(k)]);
    }
  }
  return out;
}

void network_decisions(const Rules& rules, std::uint64_t seed, int rounds,
                       std::vector<std::vector<float>>* states,
                       std::vector<std::vector<float>>* actions, std::vector<int>* heuristic) {
  std::array<PolicyScratch, kSeats> scratch;
  Decision d;
  Rng unused(0);  // the heuristic draws nothing
  for (int i = 0; i < rounds; ++i) {
    GameState g(rules, seed, std::uint64_t(i), false, false, Start::kRandom);
    while (!g.match_over() && g.results().empty()) {
      PolicyScratch& sc = scratch[std::size_t(g.current_player())];
      if (g.phase() == Phase::kPlay) {
        prepare_decision(PolicyView(g), nullptr, sc, &d);
        if (d.size() > 1) {
          states->push_back(d.state);
          actions->push_back(d.cands.features);
          heuristic->push_back(d.cands.heuristic);
        }
      }
      g.apply(choose_action(PolicyId::kHeuristic, g, unused, sc));
    }
  }
}

NetworkTiming time_network(const Network& net, const Rules& rules, std::uint64_t seed, int rounds,
                           int reps) {
  std::vector<std::vector<float>> states, actions;
  std::vector<int> heuristic;
  network_decisions(rules, seed, rounds, &states, &actions, &heuristic);
  NetworkTiming t;
  t.decisions = std::int64_t(states.size());
  std::vector<std::vector<float>> qf(states.size()), qq(states.size());
  for (std::size_t i = 0; i < states.size(); ++i) {
    const std::size_t n = actions[i].size() / kActionFeatures;
    t.candidates += std::int64_t(n);
    qf[i].resize(n);
    qq[i].resize(n);
  }
  // One pass over every decision. Hot (as in play, where the features are computed just
  // before the pass): each decision's inputs are first copied to the same small buffers,
  // untimed, so both passes read them from cache. Streamed: every decision's inputs read
  // where they lie (about 16 MB in all, mostly from memory).
  std::vector<float> hot_state(kStateFeatures), hot_actions;
  const auto pass = [&](bool quantized, bool hot) {
    double ns = 0;
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < states.size(); ++i) {
      const int n = int(qf[i].size());
      float* q = quantized ? qq[i].data() : qf[i].data();
      const float* state = states[i].data();
      const float* cands = actions[i].data();
      std::chrono::steady_clock::time_point t0;
      if (hot) {
        hot_state.assign(states[i].begin(), states[i].end());
        hot_actions.assign(actions[i].begin(), actions[i].end());
        state = hot_state.data(), cands = hot_actions.data();
        t0 = std::chrono::steady_clock::now();
      }
      if (quantized)
        net.evaluate(state, cands, n, q);
      else
        net.evaluate_float(state, cands, n, q);
      if (hot)
        ns +=
            std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    }
    if (hot) return ns;
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
        .count();
  };
  t.float_ns = t.quantized_ns = t.float_stream_ns = t.quantized_stream_ns = 1e300;
  for (int r = 0; r < std::max(1, reps); ++r) {  // alternately, so both see the same machine
    t.float_ns = std::min(t.float_ns, pass(false, true));
    t.quantized_ns = std::min(t.quantized_ns, pass(true, true));
    t.float_stream_ns = std::min(t.float_stream_ns, pass(false, false));
    t.quantized_stream_ns = std::min(t.quantized_stream_ns, pass(true, false));
  }
  std::int64_t same = 0;
  for (std::size_t i = 0; i < states.size(); ++i) {
    const int n = int(qf[i].size());
    same += learned_pick(qf[i].data(), n, heuristic[i], net.margin()) ==
            learned_pick(qq[i].data(), n, heuristic[i], net.margin());
    for (int c = 0; c < n; ++c)
      t.max_dq =
          std::max(t.max_dq, double(std::fabs(qf[i][std::size_t(c)] - qq[i][std::size_t(c)])));
  }
  const double per = double(std::max<std::int64_t>(1, t.decisions));
  t.float_ns /= per;
  t.quantized_ns /= per;
  t.float_stream_ns /= per;
  t.quantized_stream_ns /= per;
  t.same_pick = double(same) / per;
  return t;
}

}  // namespace daguai::testing
