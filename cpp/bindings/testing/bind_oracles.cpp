// _core._testing, the oracles: slow references the fast engine is tested against, and views
// into the engine's internals that only tests read.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "convert.hpp"
#include "guard.hpp"
#include "plays/play_args.hpp"

#include <daguai/beliefs/sampler.hpp>
#include <daguai/game/infostate.hpp>
#include <daguai/game/state.hpp>
#include <daguai/plays/moves.hpp>
#include <daguai/search/candidates.hpp>
#include <daguai/testing/reference_classifier.hpp>
#include <daguai/testing/reference_planner.hpp>
#include <daguai/testing/spread.hpp>

namespace daguai::bind {

void bind_testing_oracles(py::module_& t) {
  t.def(
      "apply_trusted",
      [](GameState& g, std::size_t index) {
        const Guard guard(&g);
        std::vector<Action> legal;
        g.legal_actions(&legal);
        if (index >= legal.size())
          throw GameError("apply_trusted: index " + std::to_string(index) + " of " +
                          std::to_string(legal.size()) + " legal actions");
        g.apply_trusted(legal[index]);
      },
      py::arg("game"), py::arg("index"),
      "Test hook: apply legal_actions()[index] through GameState::apply_trusted (no check), as "
      "the engine's own loops do; apply must give the same state.");
  t.def(
      "classify_reference",
      [](py::handle cards, py::handle level, const Rules& rules) -> py::object {
        Play p;
        if (!testing::classify_reference(to_cards(cards), to_level(level), rules, &p))
          return py::none();
        return py::cast(p);
      },
      py::arg("cards"), py::arg("level"), py::arg("rules"),
      "Test hook: classify through the branchy reference classifier (not the five-card tables).");
  t.def(
      "legal_plays_generic",
      [](py::handle hand, py::handle level, py::handle top, const Rules& rules) {
        const int lv = to_level(level);
        const Cards h = to_cards(hand, table_of(rules), "hand");
        Play tp;
        const Play* t = optional_top(top, lv, rules, &tp);
        PlayList buf;
        detail::legal_plays_generic(h, lv, rules, t, &buf);
        return std::vector<Play>(buf.begin(), buf.end());
      },
      py::arg("hand"), py::arg("level"), py::arg("top"), py::arg("rules"),
      "Test hook: legal_plays through the generators' generic path alone (one play at a time); "
      "legal_plays, with its writing fast paths, must equal it in order.");
  t.def(
      "legal_plays_of_family",
      [](py::handle hand, py::handle level, py::handle top, const Rules& rules, int family) {
        const int lv = to_level(level);
        const Cards h = to_cards(hand, table_of(rules), "hand");
        Play tp;
        const Play* t = optional_top(top, lv, rules, &tp);
        PlayList buf;
        legal_plays_of_family(h, lv, rules, t, family, &buf);
        return std::vector<Play>(buf.begin(), buf.end());
      },
      py::arg("hand"), py::arg("level"), py::arg("top"), py::arg("rules"), py::arg("family"),
      "Test hook: the legal plays of one generation family (0..6, daguai.FAMILIES' order); the "
      "families one after another are legal_plays.");
  t.def(
      "exhaustive_world",
      [](const InfoState& v) -> py::object {
        Hands h{};
        long nodes = 0;
        bool found;
        {
          py::gil_scoped_release nogil;  // the view is immutable (guard.hpp)
          found = exhaustive_hands(Constraints(v), &h, &nodes);
        }
        if (!found) return py::make_tuple(py::none(), nodes);
        py::list hands;
        for (int s = 0; s < v.table().seats; ++s) hands.append(h[std::size_t(s)]);
        return py::make_tuple(hands, nodes);
      },
      py::arg("view"),
      "Test hook: (hands, steps) of the sampler's exhaustive search alone, hands None when no "
      "world is consistent.");
  t.def(
      "heuristic_plan_reference",
      [](py::handle hand, py::handle level, const Rules& rules) {
        return py::cast(
            testing::reference_heuristic_plan(to_cards(hand, "hand"), to_level(level), rules));
      },
      py::arg("hand"), py::arg("level"), py::arg("rules"),
      "Test hook: the plan of the reference planner (heuristic_plan must equal it).");
  t.def(
      "parallel_spread",
      [](std::int64_t n, int threads, std::int64_t chunk, double wait_seconds) {
        py::gil_scoped_release nogil;  // reads nothing of Python's
        return testing::parallel_spread(n, threads, chunk, wait_seconds);
      },
      py::arg("n"), py::arg("threads"), py::arg("chunk"), py::arg("wait_seconds") = 5.0,
      "Test hook: how many threads parallel_for(n, threads, chunk) ran an index on, each index "
      "waiting (at most wait_seconds) until min(threads, n) threads have run one.");
  t.def(
      "play_groups",
      [](py::handle hand, py::handle level, py::handle top, const Rules& rules) {
        const int lv = to_level(level);
        const Cards h = to_cards(hand, "hand");
        Play tp;
        const Play* t = optional_top(top, lv, rules, &tp);
        PlayList buf;
        legal_plays(h, lv, rules, t, &buf);
        std::vector<Action> acts;
        for (const Play& p : buf) {
          Action a;
          a.type = ActionType::kPlay;
          a.play = p;
          acts.push_back(a);
        }
        py::list out;
        for (const ActionGroup& g : group_actions(h, acts)) {
          py::list members;
          for (int i : g.members) members.append(acts[std::size_t(i)].play);
          out.append(members);
        }
        return out;
      },
      py::arg("hand"), py::arg("level"), py::arg("top"), py::arg("rules"),
      "The legal plays of a hand in groups of equivalent plays "
      "(cpp/engine/search/candidates.hpp).");
}

}  // namespace daguai::bind
