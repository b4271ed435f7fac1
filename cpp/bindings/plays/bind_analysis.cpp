// Hand analysis (cpp/engine/plays/analysis.hpp): min_plays.
#include <pybind11/stl.h>

#include "convert.hpp"

#include <daguai/plays/analysis.hpp>

namespace daguai::bind {

void bind_analysis(py::module_& m) {
  m.def(
      "min_plays",
      [](py::handle hand, py::handle level, const Rules& rules) {
        const Cards h = to_cards(hand, table_of(rules), "hand");
        const int lv = to_level(level);
        Partition p;
        {
          // Safe without the GIL: the arguments are converted to plain C++ values above and
          // min_plays touches only them, its result and thread_local scratch (no Python objects).
          py::gil_scoped_release nogil;
          p = min_plays(h, lv, rules);
        }
        return py::make_tuple(p.count, py::cast(p.plays));
      },
      py::arg("hand"), py::arg("level"), py::arg("rules"),
      "Fewest legal plays that empty the hand, and one partition achieving it.");
}

}  // namespace daguai::bind
