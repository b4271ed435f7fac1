// Positions (engine/state.hpp Position): built from plain Python values by
// daguai.Game.from_position, which parses the JSON form (docs/records.md).
#include <pybind11/stl.h>

#include "actions.hpp"
#include "convert.hpp"
#include "position.hpp"
#include "state.hpp"

namespace daguai::bind {

namespace {

ActionType action_type(const std::string& s) {
  if (const auto t = action_type_named(s)) return *t;
  throw PositionError("inconsistent position: unknown history action '" + s + "'");
}

int small_int(py::handle v, const char* what) {
  if (!py::isinstance<py::int_>(v) || py::isinstance<py::bool_>(v))
    throw PositionError(std::string("inconsistent position: ") + what + " must be an integer");
  const long long x = v.cast<long long>();
  if (x < -1000000 || x > 1000000)
    throw PositionError(std::string("inconsistent position: ") + what + " out of range");
  return int(x);
}

}  // namespace

void bind_position(py::module_& m) {
  py::register_exception<PositionError>(m, "PositionError", m.attr("IllegalActionError").ptr());

  py::class_<Position>(m, "Position", "A validated-on-use match position (use Game.from_position).")
      .def_readonly("seed", &Position::seed)
      .def_readonly("game", &Position::game)
      .def_readonly("round", &Position::round)
      .def_readonly("dealer", &Position::dealer)
      .def_property_readonly("n_history", [](const Position& p) { return p.history.size(); });

  // history: (seat, type, payload, automatic) with payload a Play for "play", cards for
  // tribute / return / offer / take, None otherwise.
  m.def(
      "_make_position",
      [](std::uint64_t seed, std::uint64_t game, int round, int dealer, std::array<int, 2> levels,
         std::vector<std::int64_t> scores, std::array<int, 2> final_failures,
         std::vector<std::pair<int, int>> pairs, py::sequence hands, py::sequence history,
         bool auto_pass, int to_act, py::object finish_order) {
        Position p;
        p.seed = seed;
        p.game = game;
        p.round = round;
        p.dealer = dealer;
        p.levels = levels;
        if (scores.size() != 4 && scores.size() != std::size_t(kSeats))  // R18: 4p2d
          throw PositionError("inconsistent position: scores has one entry per seat (6 or 4)");
        for (std::size_t s = 0; s < scores.size(); ++s)
          p.scores[std::size_t(s)] = scores[std::size_t(s)];
        p.final_failures = final_failures;
        if (pairs.size() > 3)  // the table's limit is checked by GameState
          throw PositionError("inconsistent position: there are 0 to 3 tribute pairs");
        p.n_pairs = int(pairs.size());
        for (std::size_t i = 0; i < pairs.size(); ++i) {
          p.tributers[i] = std::int8_t(std::clamp(pairs[i].first, -1, 99));
          p.receivers[i] = std::int8_t(std::clamp(pairs[i].second, -1, 99));
        }
        if (py::len(hands) != 4 && py::len(hands) != std::size_t(kSeats))  // R18: 4p2d
          throw PositionError("inconsistent position: hands lists one hand per seat (6 or 4)");
        for (std::size_t s = 0; s < py::len(hands); ++s)
          p.hands[std::size_t(s)] = to_cards(hands[std::size_t(s)], "hand");
        for (std::size_t i = 0; i < py::len(history); ++i) {
          py::sequence e = history[i];
          if (py::len(e) != 4)
            throw PositionError("inconsistent position: malformed history entry " +
                                std::to_string(i));
          HistoryEntry h;
          h.action.seat = std::int8_t(std::clamp(small_int(e[0], "a history seat"), -1, 99));
          h.action.type = action_type(e[1].cast<std::string>());
          if (h.action.type == ActionType::kPlay) {
            if (!py::isinstance<Play>(e[2]))
              throw PositionError("inconsistent position: history entry " + std::to_string(i) +
                                  " needs a Play");
            h.action.play = e[2].cast<Play>();
          } else if (!e[2].is_none()) {
            h.action.play = card_play(to_cards(e[2], "history cards"));
          }
          h.automatic = e[3].cast<bool>();
          p.history.push_back(h);
        }
        p.auto_pass = auto_pass;
        p.to_act = to_act;
        if (!finish_order.is_none()) {
          p.check_finish_order = true;
          for (py::handle v : finish_order)
            p.finish_order.push_back(small_int(v, "a finish_order seat"));
        }
        return p;
      },
      py::arg("seed"), py::arg("game"), py::arg("round"), py::arg("dealer"), py::arg("levels"),
      py::arg("scores"), py::arg("final_failures"), py::arg("pairs"), py::arg("hands"),
      py::arg("history"), py::arg("auto_pass"), py::arg("to_act"), py::arg("finish_order"),
      "A Position from plain values (checked when a GameState is made from it).");
}

}  // namespace daguai::bind
