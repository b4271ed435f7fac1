// Hand analysis: min_plays, and the heuristic's plan (tests/test_analysis_planner.py).
#include <pybind11/stl.h>

#include "convert.hpp"

#include <daguai/players/planner.hpp>
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
  m.def(
      "heuristic_plan",
      [](py::handle hand, py::handle level, const Rules& rules) {
        const HeuristicPlan p =
            heuristic_plan(to_cards(hand, table_of(rules), "hand"), to_level(level), rules);
        return py::make_tuple(py::cast(p.plays), p.minimal);
      },
      py::arg("hand"), py::arg("level"), py::arg("rules"),
      "The heuristic policy's plan for the hand (its plays), and whether it claims to be minimal.");
}

}  // namespace daguai::bind
