// The extension module: only delegates to one bind_<layer>() per engine layer, each making the
// submodule _core.<layer> (cpp/bindings/<layer>/), in the order of the layers.
#include "convert.hpp"

#ifndef DAGUAI_VERSION
#define DAGUAI_VERSION "dev"
#endif

namespace daguai::bind {
void bind_core(py::module_& core);     // core/bind_core.cpp
void bind_plays(py::module_& core);    // plays/bind_plays.cpp
void bind_game(py::module_& core);     // game/bind_game.cpp
void bind_io(py::module_& core);       // io/bind_io.cpp
void bind_beliefs(py::module_& core);  // beliefs/bind_beliefs.cpp
void bind_search(py::module_& core);   // search/bind_search.cpp
void bind_learned(py::module_& core);  // learned/bind_learned.cpp
void bind_catalog(py::module_& core);  // catalog/bind_catalog.cpp
void bind_run(py::module_& core);      // run/bind_run.cpp
void bind_testing(py::module_& core);  // testing/bind_testing.cpp
}  // namespace daguai::bind

PYBIND11_MODULE(_core, m) {
  m.doc() = "daguai C++ engine (bindings by layer: _core.core, _core.plays, ...); use `daguai`.";
  m.attr("__version__") = DAGUAI_VERSION;
  daguai::bind::bind_core(m);
  daguai::bind::bind_plays(m);
  daguai::bind::bind_game(m);
  daguai::bind::bind_io(m);
  daguai::bind::bind_beliefs(m);
  daguai::bind::bind_search(m);
  daguai::bind::bind_learned(m);
  daguai::bind::bind_catalog(m);
  daguai::bind::bind_run(m);
  daguai::bind::bind_testing(m);
}
