#include "work_loops.hpp"

#include <array>
#include <cstring>
#include <vector>

#include <daguai/catalog/catalog.hpp>
#include <daguai/players/planner.hpp>
#include <daguai/players/play_out.hpp>
#include <daguai/testing/bench.hpp>

namespace daguai::testing {

namespace {

// `n` random 27-card hands of three decks.
std::vector<Cards> random_hands(Rng& rng, int n) {
  std::array<std::uint8_t, kDeckSize> deck;
  for (int i = 0; i < kDeckSize; ++i) deck[std::size_t(i)] = std::uint8_t(i / kMaxCopies);
  std::vector<Cards> hands(static_cast<std::size_t>(n));
  for (Cards& h : hands) {
    rng.shuffle(deck.data(), kDeckSize);
    for (int i = 0; i < 27; ++i) h.add(deck[std::size_t(i)]);
  }
  return hands;
}

// A random legal five-card lead of each of `n` random hands.
std::vector<Play> random_fives(Rng& rng, int n, int level, const Rules& rules) {
  std::vector<Play> fives;
  PlayList buf;
  for (const Cards& h : random_hands(rng, n)) {
    buf.clear();
    legal_plays(h, level, rules, nullptr, &buf);
    std::vector<Play> five;
    for (const Play& p : buf)
      if (p.size() == 5) five.push_back(p);
    fives.push_back(five[rng.bounded(five.size())]);
  }
  return fives;
}

std::uint64_t mix(std::uint64_t h, std::uint64_t v) { return (h ^ v) * 0x100000001B3ULL; }

WorkResult repeat_plays(WorkOp op, const Rules& rules, int level, Rng& rng, int items, int reps) {
  WorkResult r;
  const std::vector<Cards> hands = random_hands(rng, items);
  const std::vector<Play> tops = op == WorkOp::kFollow5 || op == WorkOp::kClassify5
                                     ? random_fives(rng, items, level, rules)
                                     : std::vector<Play>{};
  PlayList buf;
  buf.reserve(1 << 14);
  for (int i = 0; i < items; ++i)
    for (int k = 0; k < reps; ++k) {
      const std::size_t at = std::size_t(i);
      if (op == WorkOp::kClassify5) {
        Play p;
        r.checksum = mix(r.checksum, classify(tops[at].cards, level, rules, &p) ? p.key : 0);
      } else if (op == WorkOp::kCountLead) {
        r.checksum = mix(r.checksum, count_plays(hands[at], level, rules, nullptr).total);
      } else {
        buf.clear();
        legal_plays(hands[at], level, rules, op == WorkOp::kFollow5 ? &tops[at] : nullptr, &buf);
        r.checksum = mix(r.checksum, buf.size());
      }
      ++r.ops;
    }
  return r;
}

WorkResult repeat_apply(const Rules& rules, std::uint64_t seed, int items, int reps, bool record) {
  WorkResult r;
  std::vector<Action> legal, path;
  Rng rng(seed);
  for (int i = 0; i < items; ++i) {
    const GameState start(rules, seed, std::uint64_t(i), false, record);
    GameState g = start;
    path.clear();
    while (!g.match_over() && g.results().empty()) {
      legal.clear();
      g.legal_actions(&legal);
      path.push_back(legal[rng.bounded(legal.size())]);
      g.apply(path.back());
    }
    path.pop_back();      // the decision that ends the round also deals the next one
    GameState w = start;  // assigned again at each repetition: its storage is reused
    for (int k = 0; k < reps; ++k) {
      w = start;
      for (const Action& a : path) w.apply(a);
      r.checksum = mix(r.checksum, std::uint64_t(w.current_player()));
      r.ops += std::int64_t(path.size());
    }
  }
  return r;
}

WorkResult repeat_decide(const Rules& rules, std::uint64_t seed, int items, int reps,
                         PolicyId policy) {
  WorkResult r;
  std::array<PolicyScratch, kSeats> drive, measured;
  std::vector<Action> legal;
  Rng unused(0);  // the heuristic draws nothing
  for (int i = 0; i < items; ++i) {
    GameState g(rules, seed, std::uint64_t(i), false, false, Start::kRandom);
    std::array<Rng, kSeats> rngs = policy_streams(seed, std::uint64_t(i));
    while (!g.match_over() && g.results().empty()) {
      const std::size_t s = std::size_t(g.current_player());
      legal.clear();
      g.legal_actions(&legal);
      if (g.phase() == Phase::kPlay && legal.size() > 1)
        for (int k = 0; k < reps; ++k) {
          forget_plan_sizes();  // each repetition as the first: none of its counts remembered
          const Action a = choose_action(policy, g, rngs[s], measured[s]);
          r.checksum = mix(r.checksum, a.play.cards.lo ^ a.play.cards.hi);
          ++r.ops;
        }
      g.apply(choose_action(PolicyId::kHeuristic, g, unused, drive[s]));
    }
  }
  return r;
}

}  // namespace

WorkResult repeat_op(int op_value, const Rules& rules, int level, std::uint64_t seed, int items,
                     int reps, PolicyId policy) {
  if (op_value < 0 || op_value > int(WorkOp::kApplyRecorded))
    throw GameError("repeat_op: op is 0..6");
  if (items < 1 || items > 100000) throw GameError("repeat_op: items in [1, 100000]");
  if (reps < 0 || reps > 1000000) throw GameError("repeat_op: reps in [0, 1000000]");
  const WorkOp op = WorkOp(op_value);
  Rng rng(seed);
  switch (op) {
    case WorkOp::kApply:
    case WorkOp::kApplyRecorded:
      return repeat_apply(rules, seed, items, reps, op == WorkOp::kApplyRecorded);
    case WorkOp::kDecide:
      return repeat_decide(rules, seed, items, reps, policy);
    default:
      return repeat_plays(op, rules, level, rng, items, reps);
  }
}

WorkResult repeat_network(const Network& net, const Rules& rules, std::uint64_t seed, int rounds,
                          int reps, bool float_pass) {
  if (rounds < 1 || rounds > 1000) throw GameError("repeat_network: rounds in [1, 1000]");
  if (reps < 0 || reps > 100000) throw GameError("repeat_network: reps in [0, 100000]");
  std::vector<std::vector<float>> states, actions;
  std::vector<int> heuristic;
  network_decisions(rules, seed, rounds, &states, &actions, &heuristic);
  std::vector<float> q;
  WorkResult r;
  for (int k = 0; k < reps; ++k)
    for (std::size_t i = 0; i < states.size(); ++i) {
      const int n = int(actions[i].size() / kActionFeatures);
      q.resize(std::size_t(n));
      if (float_pass)
        net.evaluate_float(states[i].data(), actions[i].data(), n, q.data());
      else
        net.evaluate(states[i].data(), actions[i].data(), n, q.data());
      std::uint32_t bits;
      std::memcpy(&bits, &q[0], sizeof bits);
      r.checksum = mix(r.checksum, bits);
      ++r.ops;
    }
  return r;
}

}  // namespace daguai::testing
