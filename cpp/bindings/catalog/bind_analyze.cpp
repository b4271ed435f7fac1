// The analysis of a decision (cpp/engine/search/search.hpp analyze_decision) with the
// catalog's settings, for daguai.analyze: the settings converted and checked by the engine,
// the race run without the GIL, its arms converted back. And a search policy's decision with
// the race it ran (search.hpp SearchTrace), for the search's labels (daguai.learn.labels).
#include <pybind11/stl.h>

#include <vector>

#include "convert.hpp"
#include "game/game_args.hpp"
#include "guard.hpp"

#include <daguai/catalog/catalog.hpp>
#include <daguai/search/search.hpp>

namespace daguai::bind {

void bind_analyze(py::module_& m) {
  m.def(
      "_search",
      [](const GameState& g, int rollouts, double ms, int threads, const std::string& rollout,
         std::uint64_t seed, int max_candidates, int incumbent, const py::object& progress,
         const std::string& inference, int inference_worlds, double inference_noise,
         double inference_temperature, int value_plies, const py::object& plays) {
        SearchConfig cfg = search_config();
        cfg.inference = parse_inference(inference);
        cfg.inference_worlds = inference_worlds;
        cfg.inference_noise = inference_noise;
        cfg.inference_temperature = inference_temperature;
        cfg.rollouts = rollouts;
        cfg.ms = ms;
        cfg.threads = threads;
        cfg.rollout = parse_policy(rollout);
        cfg.max_candidates = max_candidates;
        cfg.value_plies = value_plies;
        SearchProgress report;
        if (!progress.is_none())
          report = [&progress](double done, double total) {
            py::gil_scoped_acquire gil;
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            const py::object r = progress(done, total);
            return r.is_none() || r.cast<bool>();
          };
        const Guard guard(&g);
        // the plays asked for: their number checked before any is read, then each converted
        // and checked by the engine (search.hpp play_indices)
        std::vector<int> only;
        if (!plays.is_none()) {
          if (!py::isinstance<py::sequence>(plays) || py::isinstance<py::str>(plays))
            throw py::type_error("plays must be a sequence of actions");
          const py::sequence seq = plays.cast<py::sequence>();
          check_play_count(g, seq.size());
          std::vector<Action> acts;
          for (const py::handle h : seq) acts.push_back(to_action(g, h));
          only = play_indices(g, acts);
        }
        Analysis a;
        {
          // cfg is a C++ value and g is locked (guard.hpp); report takes the GIL back to call
          // Python between the race's rounds.
          py::gil_scoped_release nogil;
          check_learned_inference(cfg.inference, g.rules().table);
          if (value_plies > 0) cfg.value = value_function(g.rules().table);
          check_search_config(cfg);
          a = analyze_decision(g, cfg, seed, incumbent, report, only);
        }
        py::list out;
        for (std::size_t k = 0; k < a.members.size(); ++k) {
          const CandidateStats& c = a.result.candidates[k];
          out.append(py::make_tuple(py::cast(a.members[k]), c.n, c.wins, c.draws, c.losses, c.score,
                                    c.round, py::cast(c.values)));
        }
        const SearchResult& r = a.result;
        return py::make_tuple(out, r.best, r.worlds, r.rounds, r.rollouts, r.budget, a.groups);
      },
      py::arg("game"), py::arg("rollouts"), py::arg("ms"), py::arg("threads"), py::arg("rollout"),
      py::arg("seed"), py::arg("max_candidates") = 0, py::arg("incumbent") = -1,
      py::arg("progress") = py::none(), py::arg("inference") = "none",
      py::arg("inference_worlds") = kInferenceWorlds, py::arg("inference_noise") = kHeuristicNoise,
      py::arg("inference_temperature") = kLearnedTemperature, py::arg("value_plies") = 0,
      py::arg("plays") = py::none(),
      "Race the groups of equivalent actions of the seat to act (search.hpp analyze_decision): "
      "([(members, n, wins, draws, losses, score, round, values)], best, worlds, rounds, "
      "rollouts, budget, groups). value_plies > 0: rollouts cut after that many decisions and "
      "scored by the table's value network (SearchConfig::value; values in thousandths). plays: "
      "a sequence of actions of the seat to act: only their groups race (all of them).");

  m.def(
      "_traced_decision",
      [](const GameState& g, const std::string& policy, std::uint64_t seed, std::uint64_t game) {
        const PolicyId id = parse_policy(policy);
        const Guard guard(&g);
        const TracedDecision d = traced_decision(id, g, seed, game);
        const SearchTrace& trace = d.trace;
        py::list rows;
        for (std::size_t k = 0; k < trace.arms.size(); ++k) {
          const CandidateStats& c = trace.result.candidates[k];
          rows.append(py::make_tuple(trace.arms[k], c.n, c.wins, c.draws, c.losses, c.score,
                                     c.round, py::cast(c.values)));
        }
        return py::make_tuple(d.chosen, trace.searched, trace.seed, rows, trace.result.best,
                              trace.result.rollouts);
      },
      py::arg("game"), py::arg("policy"), py::arg("seed"), py::arg("game_index"),
      "A search policy's decision for the seat to act, on the stream (seed, game_index, policy, "
      "seat) as PolicyRunner's first decision, with its race (search.hpp SearchTrace): (action, "
      "searched, race seed, [(arm, n, wins, draws, losses, score, round, values)], best, "
      "rollouts).");
}

}  // namespace daguai::bind
