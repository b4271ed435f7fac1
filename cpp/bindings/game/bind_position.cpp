// Positions (cpp/engine/game/position.hpp): built from plain Python values by
// daguai.Game.from_position, which parses the JSON form (docs/records.md).
#include <pybind11/stl.h>

#include <algorithm>
#include <limits>

#include "convert.hpp"

#include <daguai/game/action_text.hpp>
#include <daguai/game/position.hpp>
#include <daguai/game/state.hpp>

namespace daguai::bind {

namespace {

ActionType action_type(const std::string& s) {
  if (const auto t = action_type_named(s)) return *t;
  throw PositionError("inconsistent position: unknown history action '" + s + "'");
}

// An integer field of a position, as the engine's type holds it: anything with __index__
// (not bool) in [lo, hi], else a PositionError naming the field (not pybind11's "incompatible
// function arguments" or "Unable to cast").
std::int64_t field_int(py::handle v, const std::string& what, std::int64_t lo, std::int64_t hi) {
  return to_int<PositionError>(v, ("inconsistent position: " + what).c_str(), lo, hi);
}

constexpr std::int64_t kIntLo = std::numeric_limits<std::int32_t>::min();
constexpr std::int64_t kIntHi = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kInt64Lo = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kInt64Hi = std::numeric_limits<std::int64_t>::max();

// A seat field: the engine reports a seat outside the table (kept in int8 range here).
std::int8_t seat_field(py::handle v, const std::string& what) {
  return std::int8_t(std::clamp<std::int64_t>(field_int(v, what, kIntLo, kIntHi), -1, 99));
}

// A list field: a list or tuple of exactly n values (n < 0: any length).
py::sequence list_field(py::handle v, const std::string& what, int n = -1) {
  if (!py::isinstance<py::list>(v) && !py::isinstance<py::tuple>(v))
    throw PositionError("inconsistent position: " + what + " must be a list");
  py::sequence seq = py::reinterpret_borrow<py::sequence>(v);
  if (n >= 0 && py::len(seq) != std::size_t(n))
    throw PositionError("inconsistent position: " + what + " must list " + std::to_string(n) +
                        " values");
  return seq;
}

}  // namespace

void bind_position(py::module_& m, py::handle illegal_action_error) {
  py::register_exception<PositionError>(m, "PositionError", illegal_action_error.ptr());

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
      [](std::uint64_t seed, std::uint64_t game, const py::object& round, const py::object& dealer,
         const py::object& levels, const py::object& scores, const py::object& final_failures,
         const py::object& pairs, const py::object& hands, const py::object& history,
         bool auto_pass, const py::object& to_act, const py::object& finish_order, int start) {
        Position p;
        p.seed = seed;
        p.game = game;
        p.round = int(field_int(round, "round", kIntLo, kIntHi));
        p.dealer = int(field_int(dealer, "dealer", kIntLo, kIntHi));
        const py::sequence lv = list_field(levels, "levels", 2);
        for (std::size_t t = 0; t < 2; ++t)
          p.levels[t] = int(field_int(lv[t], "a level", kIntLo, kIntHi));
        const py::sequence sc = list_field(scores, "scores");
        if (sc.size() != 4 && sc.size() != std::size_t(kSeats))  // R18: 4p2d
          throw PositionError("inconsistent position: scores has one entry per seat (6 or 4)");
        for (std::size_t s = 0; s < sc.size(); ++s)
          p.scores[s] = field_int(sc[s], "a score", kInt64Lo, kInt64Hi);
        const py::sequence ff = list_field(final_failures, "final_failures", 2);
        for (std::size_t t = 0; t < 2; ++t)
          p.final_failures[t] = int(field_int(ff[t], "final_failures", kIntLo, kIntHi));
        const py::sequence pr = list_field(pairs, "tribute");
        if (pr.size() > 3)  // the table's limit is checked by GameState
          throw PositionError("inconsistent position: there are 0 to 3 tribute pairs");
        p.n_pairs = int(pr.size());
        for (std::size_t i = 0; i < pr.size(); ++i) {
          const py::sequence pair = list_field(pr[i], "a tribute pair", 2);
          p.tributers[i] = seat_field(pair[0], "a tribute seat");
          p.receivers[i] = seat_field(pair[1], "a tribute seat");
        }
        const py::sequence hs = list_field(hands, "hands");
        if (hs.size() != 4 && hs.size() != std::size_t(kSeats))  // R18: 4p2d
          throw PositionError("inconsistent position: hands lists one hand per seat (6 or 4)");
        for (std::size_t s = 0; s < hs.size(); ++s) p.hands[s] = to_cards(hs[s], "hand");
        const py::sequence hist = list_field(history, "history");
        for (std::size_t i = 0; i < hist.size(); ++i) {
          const py::sequence e = list_field(hist[i], "history entry " + std::to_string(i), 4);
          HistoryEntry h;
          h.action.seat = seat_field(e[0], "a history seat");
          h.action.type = action_type(to_text(e[1], "a history action"));
          if (h.action.type == ActionType::kPlay) {
            if (!py::isinstance<Play>(e[2]))
              throw PositionError("inconsistent position: history entry " + std::to_string(i) +
                                  " needs a Play");
            h.action.play = e[2].cast<Play>();
          } else if (!e[2].is_none()) {
            h.action.play = card_play(to_cards(e[2], "history cards"));
          }
          if (!py::isinstance<py::bool_>(e[3]))
            throw PositionError("inconsistent position: history entry " + std::to_string(i) +
                                ": 'automatic' must be true or false");
          h.automatic = e[3].cast<bool>();
          p.history.push_back(h);
        }
        p.auto_pass = auto_pass;
        p.to_act = int(field_int(to_act, "to_act", -1, kIntHi));
        if (!finish_order.is_none()) {
          p.check_finish_order = true;
          for (py::handle v : list_field(finish_order, "finish_order"))
            p.finish_order.push_back(int(field_int(v, "a finish_order seat", kIntLo, kIntHi)));
        }
        if (start != int(Start::kFresh) && start != int(Start::kRandom))
          throw PositionError("inconsistent position: start must be 0 (fresh) or 1 (random)");
        p.start = Start(start);
        return p;
      },
      py::arg("seed"), py::arg("game"), py::arg("round"), py::arg("dealer"), py::arg("levels"),
      py::arg("scores"), py::arg("final_failures"), py::arg("pairs"), py::arg("hands"),
      py::arg("history"), py::arg("auto_pass"), py::arg("to_act"), py::arg("finish_order"),
      py::arg("start") = 0,
      "A Position from plain values (checked when a GameState is made from it); a field that "
      "is not an integer of its range raises PositionError naming it.");
}

}  // namespace daguai::bind
