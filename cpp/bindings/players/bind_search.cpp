// Search (engine/search/search.hpp): evaluate every legal action of the seat to act over sampled
// worlds; used by daguai.analyze and the search policies' tests.
#include <pybind11/stl.h>

#include "convert.hpp"
#include "guard.hpp"

#include <daguai/beliefs/sampler.hpp>
#include <daguai/catalog/catalog.hpp>
#include <daguai/learned/models.hpp>
#include <daguai/search/candidates.hpp>
#include <daguai/search/search.hpp>

namespace daguai::bind {

namespace {

// Inference from play (search/inference.hpp): the weights of uniform worlds, the resampled ones.
// The model of play of an inference setting, its values checked; GameError for "learned" at a
// table without a learned network.
PlayModel play_model(const InfoState& v, const std::string& inference, int worlds, double noise,
                     double temperature) {
  SearchConfig cfg = search_config();
  cfg.inference = parse_inference(inference);
  check_inference_settings(worlds, noise, temperature);
  cfg.inference_noise = noise;
  cfg.inference_temperature = temperature;
  check_learned_inference(cfg.inference, v.pub.rules.table);
  return cfg.play_model();
}

void bind_inference(py::module_& m) {
  m.def(
      "_inference_weights",
      [](const InfoState& v, std::int64_t n, std::uint64_t seed, double noise,
         const std::string& inference, double temperature) {
        if (n <= 0) throw GameError("sample_worlds: n must be >= 1, got " + std::to_string(n));
        const PlayModel model = play_model(v, inference, 1, noise, temperature);
        py::array_t<double> out(py::ssize_t{n});
        double* o = out.mutable_data();
        {
          py::gil_scoped_release nogil;  // writes only `out`, owned here
          const Constraints c(v);
          PolicyScratch scratch;
          for (std::int64_t k = 0; k < n; ++k)
            o[k] = play_log_likelihood(v, sample_world_hands(c, seed, std::uint64_t(k)), model,
                                       std::uint64_t(k), scratch);
        }
        return out;
      },
      py::arg("view"), py::arg("n"), py::arg("seed"), py::arg("noise") = kHeuristicNoise,
      py::arg("inference") = "heuristic", py::arg("temperature") = kLearnedTemperature,
      "Log-likelihood of the others' plays this round (the model of `inference`) in worlds "
      "0..n-1 of sample_worlds(view, n, seed).");
  m.def(
      "_inferred_hands_array",
      [](const InfoState& v, std::int64_t n, std::uint64_t seed, const std::string& inference,
         int worlds, double noise, double temperature) {
        if (n <= 0) throw GameError("sample_worlds: n must be >= 1, got " + std::to_string(n));
        const PlayModel model = play_model(v, inference, worlds, noise, temperature);
        const int seats = v.table().seats;
        py::array_t<std::uint8_t> out({py::ssize_t(n), py::ssize_t(seats), py::ssize_t(kNumFaces)});
        std::uint8_t* o = out.mutable_data();
        {
          py::gil_scoped_release nogil;  // writes only `out`, owned here
          const Constraints c(v);
          PolicyScratch scratch;
          for (std::int64_t k = 0; k < n; ++k) {
            const Hands h =
                inferred_world_hands(v, c, model, worlds, seed, std::uint64_t(k), scratch);
            for (int s = 0; s < seats; ++s)
              for (int f = 0; f < kNumFaces; ++f)
                o[(k * seats + s) * kNumFaces + f] = std::uint8_t(h[std::size_t(s)].count(f));
          }
        }
        return out;
      },
      py::arg("view"), py::arg("n"), py::arg("seed"), py::arg("inference"),
      py::arg("inference_worlds") = kInferenceWorlds, py::arg("noise") = kHeuristicNoise,
      py::arg("temperature") = kLearnedTemperature,
      "Face counts (n x seats x 54) of the worlds 0..n-1 a search with this inference plays.");
}

}  // namespace

void bind_search(py::module_& m) {
  // m of inference (search/inference.hpp), read by daguai.search.INFERENCE_WORLDS
  m.attr("INFERENCE_WORLDS") = kInferenceWorlds;
  m.def(
      "policy_names",
      []() {
        py::list l;
        for (const PolicyEntry& e : policy_catalog()) l.append(e.name);
        if (has_builtin_model()) l.append(kBuiltinModel);
        return l;
      },
      "The C++ policies, by id (cpp/engine/catalog/policies.def), then 'learned' when the "
      "shipped model is present (engine/learned/models.hpp).");
  m.def(
      "policy_entries",
      []() {
        py::list l;
        for (const PolicyEntry& e : policy_catalog()) {
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
          d["kind"] = policy_kind_name(PolicyKind::kModel);
          d["rollouts"] = py::none();
          l.append(d);
        }
        return l;
      },
      "policy_names() with what each is (cpp/engine/catalog/catalog.hpp PolicyEntry): kind 'rule', "
      "'search' (with its budget in rollouts per decision) or 'model'.");

  m.def(
      "_search",
      [](const GameState& g, int rollouts, double ms, int threads, const std::string& rollout,
         std::uint64_t seed, int max_candidates, int incumbent, const py::object& progress,
         const std::string& inference, int inference_worlds, double inference_noise,
         double inference_temperature) {
        if (g.match_over()) throw GameError("the match is over: nothing to analyze");
        SearchConfig cfg = search_config();
        cfg.inference = parse_inference(inference);
        cfg.inference_worlds = inference_worlds;
        cfg.inference_noise = inference_noise;
        cfg.inference_temperature = inference_temperature;
        check_learned_inference(cfg.inference, g.rules().table);
        cfg.rollouts = rollouts;
        cfg.ms = ms;
        cfg.threads = threads;
        cfg.rollout = parse_policy(rollout);
        cfg.max_candidates = max_candidates;
        check_search_config(cfg);
        const InfoState v =
            information_state(g, g.current_player(), cfg.inference != Inference::kNone);
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
      py::arg("progress") = py::none(), py::arg("inference") = "none",
      py::arg("inference_worlds") = kInferenceWorlds, py::arg("inference_noise") = kHeuristicNoise,
      py::arg("inference_temperature") = kLearnedTemperature,
      "Race the groups of equivalent actions of the seat to act (search.hpp): ([(members, n, "
      "wins, draws, losses, score, round, values)], best, worlds, rounds, rollouts, budget, "
      "groups).");
  bind_inference(m);
}

}  // namespace daguai::bind
