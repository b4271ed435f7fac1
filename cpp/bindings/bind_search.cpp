// Search (engine/search.hpp): evaluate every legal action of the seat to act over sampled
// worlds; used by daguai.analyze and the search policies' tests.
#include <pybind11/stl.h>

#include "convert.hpp"
#include "guard.hpp"

#include <daguai/beliefs/sampler.hpp>
#include <daguai/players/candidates.hpp>
#include <daguai/players/learned.hpp>
#include <daguai/players/search.hpp>
#include <daguai/run/bench.hpp>

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
      "policy_entries",
      []() {
        py::list l;
        for (const PolicyEntry& e : policy_registry()) {
          py::dict d;
          d["name"] = e.name;
          d["kind"] = policy_kind_name(e.kind);
          d["rollouts"] =
              e.kind == PolicyKind::kSearch ? py::object(py::int_(e.budget.rollouts)) : py::none();
          l.append(d);
        }
        if (has_builtin_model()) {
          py::dict d;
          d["name"] = kBuiltinModel;
          d["kind"] = "model";
          d["rollouts"] = py::none();
          l.append(d);
        }
        return l;
      },
      "policy_names() with what each is (cpp/engine/policy.hpp PolicyEntry): kind 'rule', "
      "'search' (with its budget in rollouts per decision) or 'model'.");

  m.def(
      "_search",
      [](const GameState& g, int rollouts, double ms, int threads, const std::string& rollout,
         std::uint64_t seed, int max_candidates, int incumbent, const py::object& progress) {
        if (g.match_over()) throw GameError("the match is over: nothing to analyze");
        SearchConfig cfg;
        cfg.rollouts = rollouts;
        cfg.ms = ms;
        cfg.threads = threads;
        cfg.rollout = parse_policy(rollout);
        cfg.max_candidates = max_candidates;
        check_search_config(cfg);
        const InfoState v = information_state(g, g.current_player());
        std::vector<Action> acts;
        g.legal_actions(&acts);
        if (incumbent < -1 || incumbent >= int(acts.size()))
          throw GameError("search: incumbent must be -1 or a legal action index");
        // groups of equivalent actions (candidates.hpp), the chosen ones raced
        const std::vector<ActionGroup> groups = group_actions(g.hand(g.current_player()), acts);
        const std::vector<int> chosen =
            select_candidates(PolicyView(g), acts, groups, incumbent, max_candidates);
        std::vector<Action> arms;
        for (int k : chosen) arms.push_back(acts[std::size_t(groups[std::size_t(k)].members[0])]);
        if (incumbent >= 0) arms[0] = acts[std::size_t(incumbent)];
        SearchProgress report;
        if (!progress.is_none())
          report = [&progress](double done, double total) {
            py::gil_scoped_acquire gil;
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            const py::object r = progress(done, total);
            return r.is_none() || r.cast<bool>();
          };
        SearchResult r;
        {
          py::gil_scoped_release nogil;  // v, arms, cfg are C++ values owned by this call;
          r = search(v, arms, cfg, seed, incumbent >= 0 ? 0 : -1, report);  // report takes it
        }
        py::list out;
        for (std::size_t a = 0; a < chosen.size(); ++a) {
          const CandidateStats& c = r.candidates[a];
          py::list members;
          if (incumbent >= 0 && a == 0) members.append(acts[std::size_t(incumbent)]);
          for (int i : groups[std::size_t(chosen[a])].members)
            if (!(incumbent >= 0 && a == 0 && i == incumbent)) members.append(acts[std::size_t(i)]);
          out.append(py::make_tuple(members, c.n, c.wins, c.draws, c.losses, c.score, c.round,
                                    py::cast(c.values)));
        }
        return py::make_tuple(out, r.best, r.worlds, r.rounds, r.rollouts, r.budget,
                              int(groups.size()));
      },
      py::arg("game"), py::arg("rollouts"), py::arg("ms"), py::arg("threads"), py::arg("rollout"),
      py::arg("seed"), py::arg("max_candidates") = 0, py::arg("incumbent") = -1,
      py::arg("progress") = py::none(),
      "Race the groups of equivalent actions of the seat to act (search.hpp): ([(members, n, "
      "wins, draws, losses, score, round, values)], best, worlds, rounds, rollouts, budget, "
      "groups).");

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
        const PolicyId k = parse_policy(policy), o = parse_policy(opponent);
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
        const PolicyId k = parse_policy(policy);
        const Guard guard(&g);
        py::gil_scoped_release nogil;  // g is locked; the rollouts run on copies of it
        return time_rollouts(g, n, k);
      },
      py::arg("game"), py::arg("n"), py::arg("policy") = "heuristic",
      "Benchmark hook: ns per rollout to the end of the round from the game's state.");
}

}  // namespace daguai::bind
