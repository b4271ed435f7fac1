// The extension module: only delegates to one bind_<area>() per engine area.
#include "convert.hpp"

#ifndef DAGUAI_VERSION
#define DAGUAI_VERSION "dev"
#endif

namespace daguai::bind {
void bind_codec(py::module_& m);  // bind_codec.cpp: the event codec's native half
// testing/: the test and benchmark hooks of _core._testing
void bind_testing_oracles(py::module_& t);
void bind_testing_timers(py::module_& t);
}  // namespace daguai::bind

PYBIND11_MODULE(_core, m) {
  m.doc() = "daguai C++ engine (bindings); use the `daguai` package.";
  m.attr("__version__") = DAGUAI_VERSION;
  daguai::bind::bind_cards(m);
  daguai::bind::bind_rules(m);
  daguai::bind::bind_plays(m);
  daguai::bind::bind_game(m);
  daguai::bind::bind_position(m);
  daguai::bind::bind_infostate(m);
  daguai::bind::bind_codec(m);
  daguai::bind::bind_search(m);
  daguai::bind::bind_analysis(m);
  daguai::bind::bind_sim(m);
  daguai::bind::bind_rl(m);
  daguai::bind::bind_learn(m);
  pybind11::module_ t = m.def_submodule(
      "_testing", "Test and benchmark hooks (oracles, C++ timers); not part of the API.");
  // importable by name too (`import daguai._core._testing`), as stubtest and mypy see it
  pybind11::module_::import("sys").attr("modules")["daguai._core._testing"] = t;
  daguai::bind::bind_testing_oracles(t);
  daguai::bind::bind_testing_timers(t);
}
