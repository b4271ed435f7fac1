// Search (engine/search.hpp): evaluate every legal action of the seat to act over sampled
// worlds; used by daguai.analyze and the "pimc" policy's tests.
#include <pybind11/stl.h>

#include "bench.hpp"
#include "convert.hpp"
#include "guard.hpp"
#include "learned.hpp"
#include "sampler.hpp"
#include "search.hpp"

namespace daguai::bind {

void bind_search(py::module_& m) {
  m.def(
      "policy_names",
      []() {
        py::list l;
        for (const PolicyEntry& e : policy_registry()) l.append(e.name);
        if (has_builtin_model()) l.append(kBuiltinModel);
        return l;
      },
      "The registered C++ policies, by id (cpp/engine/policy.cpp kPolicies), then 'learned' "
      "when the shipped model is present (engine/learned.hpp).");

  m.def(
      "_search",
      [](const GameState& g, int rollouts, int min_worlds, int max_worlds, double ms, int threads,
         const std::string& rollout, std::uint64_t seed) {
        if (g.match_over()) throw GameError("the match is over: nothing to analyze");
        SearchConfig cfg;
        cfg.rollouts = rollouts;
        cfg.min_worlds = min_worlds;
        cfg.max_worlds = max_worlds;
        cfg.ms = ms;
        cfg.threads = threads;
        cfg.rollout = parse_policy(rollout);
        const InfoState v = information_state(g, g.current_player());
        std::vector<Action> acts;
        g.legal_actions(&acts);
        SearchResult r;
        {
          py::gil_scoped_release nogil;  // v, acts, cfg are C++ values owned by this call
          r = search(v, acts, cfg, seed);
        }
        py::list out;
        for (const CandidateStats& c : r.candidates)
          out.append(py::make_tuple(c.action, c.n, c.wins, c.draws, c.losses));
        return py::make_tuple(out, r.best, r.worlds);
      },
      py::arg("game"), py::arg("rollouts"), py::arg("min_worlds"), py::arg("max_worlds"),
      py::arg("ms"), py::arg("threads"), py::arg("rollout"), py::arg("seed"),
      "PIMC over the view of the seat to act: ([(action, n, wins, draws, losses)], best, worlds).");

  m.def(
      "_time_sampling",
      [](const GameState& g, int n, std::uint64_t seed) {
        if (n < 1) throw GameError("_time_sampling: n must be >= 1");
        const Guard guard(&g);
        py::gil_scoped_release nogil;  // g is locked; the timing touches only C++ values
        return time_sampling(g, n, seed);
      },
      py::arg("game"), py::arg("n"), py::arg("seed") = 0,
      "Benchmark hook: ns per sampled world (hands).");

  m.def(
      "_time_decisions",
      [](const Rules& rules, const std::string& policy, const std::string& opponent,
         std::uint64_t seed, int rounds) {
        if (rounds < 1 || rounds > 100000)
          throw GameError("_time_decisions: rounds in [1, 100000]");
        const PolicyKind k = parse_policy(policy), o = parse_policy(opponent);
        std::vector<double> ns;
        {
          py::gil_scoped_release nogil;  // C++ values only
          ns = time_decisions(rules, k, o, seed, rounds);
        }
        py::array_t<double> out(py::ssize_t(ns.size()));
        std::copy(ns.begin(), ns.end(), out.mutable_data());
        return out;
      },
      py::arg("rules"), py::arg("policy"), py::arg("opponent"), py::arg("seed"), py::arg("rounds"),
      "Benchmark hook: CPU ns of each non-forced decision of `policy` (seats 0 2 4).");

  m.def(
      "_time_rollouts",
      [](const GameState& g, int n, const std::string& policy) {
        if (n < 1) throw GameError("_time_rollouts: n must be >= 1");
        const PolicyKind k = parse_policy(policy);
        const Guard guard(&g);
        py::gil_scoped_release nogil;  // g is locked; the rollouts run on copies of it
        return time_rollouts(g, n, k);
      },
      py::arg("game"), py::arg("n"), py::arg("policy") = "heuristic",
      "Benchmark hook: ns per rollout to the end of the round from the game's state.");
}

}  // namespace daguai::bind
