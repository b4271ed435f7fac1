// _core.run: the run layer (cpp/engine/run/): whole games at native speed (bind_sim.cpp),
// BatchEnv (bind_batch_env.cpp) and the self-play generator of the trainer's actors
// (python/daguai/learn/).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "convert.hpp"

#include <daguai/learned/features.hpp>
#include <daguai/run/self_play.hpp>

namespace daguai::bind {

void bind_sim(py::module_& m);         // bind_sim.cpp
void bind_batch_envs(py::module_& m);  // bind_batch_env.cpp

namespace {

void bind_self_play(py::module_& m) {
  m.attr("MAX_CONTINUATION") = kMaxContinuation;
  m.def(
      "_self_play",
      [](const Rules& rules, std::uint64_t seed, std::uint64_t first_game, std::int64_t n,
         const std::vector<std::string>& policies, const std::vector<bool>& record, double epsilon,
         double branch, bool random_start, const std::vector<std::string>& continuation, bool r11) {
        const SelfPlayConfig cfg =
            self_play_config(rules, seed, first_game, n, policies, record, epsilon, branch,
                             random_start, continuation, r11);
        Frames f;
        std::int64_t rounds = 0;
        {
          py::gil_scoped_release nogil;  // cfg is a C++ value; f is owned by this call
          self_play(cfg, &f, &rounds);
        }
        py::dict d;
        d["state"] = float_rows(f.state, kStateFeatures);
        d["action"] = float_rows(f.action, kActionFeatures);
        d["target"] = column(f.target);
        d["score"] = column(f.score);
        d["game"] = column(f.game);
        d["seat"] = column(f.seat);
        d["rounds"] = rounds;
        return d;
      },
      py::arg("rules"), py::arg("seed"), py::arg("first_game"), py::arg("n"), py::arg("policies"),
      py::arg("record"), py::arg("epsilon"), py::arg("branch") = 1.0,
      py::arg("random_start") = true,
      py::arg("continuation") = std::vector<std::string>{"heuristic"}, py::arg("r11") = false,
      "Self-play rounds for the trainer: the recorded seats' branch pairs (frames 2i, 2i+1: "
      "state, action, target, score, game, seat) as numpy arrays, and the rounds played. "
      "The branches are played out by each seat's continuation policy, drawn per game from "
      "`continuation` (policy names or .dgn paths; no searches). With `r11`, the recorded seats' "
      "R11 decisions (tribute, return, offer, take) are recorded too, each one branched.");
}

}  // namespace

void bind_run(py::module_& core) {
  py::module_ m = layer_module(core, "run", "Whole games in C++: simulate, BatchEnv, self-play.");
  bind_sim(m);
  bind_batch_envs(m);
  bind_self_play(m);
}

}  // namespace daguai::bind
