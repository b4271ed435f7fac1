// _core.search: the search layer's figures (cpp/engine/search/): the number of uniform worlds
// inference resamples from, read by daguai.search. The search itself is bound with the
// catalog's settings (catalog/bind_analyze.cpp).
#include "convert.hpp"

#include <daguai/search/inference.hpp>
#include <daguai/search/search.hpp>

namespace daguai::bind {

void bind_search(py::module_& core) {
  py::module_ m = layer_module(core, "search", "The search layer's figures.");
  m.attr("INFERENCE_WORLDS") = kInferenceWorlds;  // m of inference (inference.hpp)
  m.attr("MAX_ROLLOUTS") = kMaxRollouts;          // the largest budget of one search
}

}  // namespace daguai::bind
