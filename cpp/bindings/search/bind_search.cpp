// _core.search: the search layer's figures (cpp/engine/search/): the number of uniform worlds
// inference resamples from, read by daguai.search; and a search policy's decision with the race
// it ran (search.hpp SearchTrace), for the search's labels (daguai.learn.labels). The search
// itself is bound with the catalog's settings (catalog/bind_analyze.cpp).
#include <pybind11/stl.h>

#include "convert.hpp"
#include "game/game_args.hpp"
#include "guard.hpp"

#include <daguai/catalog/catalog.hpp>
#include <daguai/search/inference.hpp>
#include <daguai/search/search.hpp>

namespace daguai::bind {

void bind_search(py::module_& core) {
  py::module_ m = layer_module(core, "search", "The search layer's figures.");
  m.attr("INFERENCE_WORLDS") = kInferenceWorlds;  // m of inference (inference.hpp)
  m.attr("MAX_ROLLOUTS") = kMaxRollouts;          // the largest budget of one search
  m.def(
      "_traced_decision",
      [](const GameState& g, const std::string& policy, std::uint64_t seed, std::uint64_t game) {
        const PolicyId id = parse_policy(policy);
        if (!is_search_policy(id))
          throw GameError("traced decision: '" + policy + "' is not a search policy");
        const Guard guard(&g);
        if (g.match_over()) throw GameError("the match is over: no decision to trace");
        Rng rng = Rng::stream(seed, game, Stream::kPolicy, std::uint64_t(g.current_player()));
        PolicyScratch scratch;
        SearchTrace trace;
        Action chosen;
        {
          const SearchTraceScope scope(&trace);
          chosen = choose_action(id, g, rng, scratch);  // the policy's own path (catalog.hpp)
        }
        py::list rows;
        for (std::size_t k = 0; k < trace.arms.size(); ++k) {
          const CandidateStats& c = trace.result.candidates[k];
          rows.append(py::make_tuple(trace.arms[k], c.n, c.wins, c.draws, c.losses, c.score,
                                     c.round, py::cast(c.values)));
        }
        return py::make_tuple(chosen, trace.searched, trace.seed, rows, trace.result.best,
                              trace.result.rollouts);
      },
      py::arg("game"), py::arg("policy"), py::arg("seed"), py::arg("game_index"),
      "A search policy's decision for the seat to act, on the stream (seed, game_index, policy, "
      "seat) as PolicyRunner's first decision, with its race (search.hpp SearchTrace): (action, "
      "searched, race seed, [(arm, n, wins, draws, losses, score, round, values)], best, "
      "rollouts).");
}

}  // namespace daguai::bind
