// _core._testing: the test and benchmark hooks (cpp/testing/ and views into the engine's
// internals), one submodule above every layer; not part of the API.
#include "convert.hpp"

namespace daguai::bind {

void bind_testing_oracles(py::module_& t);  // bind_oracles.cpp
void bind_testing_timers(py::module_& t);   // bind_timers.cpp
void bind_testing_hooks(py::module_& t);    // bind_hooks.cpp

void bind_testing(py::module_& core) {
  py::module_ t = layer_module(
      core, "_testing", "Test and benchmark hooks (oracles, C++ timers); not part of the API.");
  bind_testing_oracles(t);
  bind_testing_timers(t);
  bind_testing_hooks(t);
}

}  // namespace daguai::bind
