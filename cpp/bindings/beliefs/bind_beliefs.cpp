// _core.beliefs: the beliefs layer (cpp/engine/beliefs/): worlds consistent with a view (R16).
#include <pybind11/stl.h>

#include "convert.hpp"
#include "game/game_args.hpp"

#include <daguai/beliefs/sampler.hpp>
#include <daguai/game/infostate.hpp>

namespace daguai::bind {

void bind_beliefs(py::module_& core) {
  py::module_ m = layer_module(core, "beliefs", "Worlds consistent with a view (R16).");
  m.def(
      "sample_worlds",
      [](const InfoState& v, int n, std::uint64_t seed) {
        std::vector<GameState> worlds;
        {
          py::gil_scoped_release nogil;  // v and the result are C++ values owned by this call
          worlds = sample_worlds(v, n, seed);
        }
        py::list l;
        for (auto& w : worlds) l.append(py::cast(std::move(w)));
        return l;
      },
      py::arg("view"), py::arg("n"), py::arg("seed"),
      "n complete states consistent with the view.");
}

}  // namespace daguai::bind
