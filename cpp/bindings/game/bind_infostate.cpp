// Information states (cpp/engine/game/infostate.hpp). The InfoState object is the Python view
// a seat's policy receives: it holds the seat's own hand and public facts only (R16).
#include <pybind11/stl.h>

#include "convert.hpp"
#include "game/game_args.hpp"
#include "guard.hpp"

#include <daguai/game/infostate.hpp>

namespace daguai::bind {

namespace {

py::list seats_of(unsigned mask) {
  py::list l;
  for (int s = 0; s < kSeats; ++s)
    if ((mask >> s) & 1) l.append(s);
  return l;
}

// One entry per seat of the view's table (R18: 6 or 4).
template <class T, class F>
py::list per_seat(const InfoState& v, const T& arr, F&& f) {
  py::list l;
  for (int s = 0; s < v.table().seats; ++s) l.append(f(arr[std::size_t(s)]));
  return l;
}

InfoState view_of(const GameState& g, int seat, bool history, bool legal) {
  if (seat < 0 || seat >= g.table().seats)
    throw GameError("no seat " + std::to_string(seat) + ": seats are 0.." +
                    std::to_string(g.table().seats - 1));
  return information_state(g, seat, history, legal);
}

// The observation dict of a view is built in Python (game.py `_observation`, with the codec
// of protocol.py): game.py hands that function over at import. Kept as a strong reference
// that is never released (no Python call at interpreter teardown).
py::handle& observation_encoder() {
  static py::handle fn;
  return fn;
}

}  // namespace

namespace {

// The public facts a view holds (R16): seat, phase, turn, levels, cards left, top, scores.
void bind_view_public(py::class_<InfoState>& view) {
  view.def_readonly("seat", &InfoState::seat)
      .def_property_readonly(
          "rules", [](const InfoState& v) { return v.pub.rules; },
          "The rule variants of the match (CoreRules: the fields of daguai.Rules).")
      .def_readonly("game_index", &InfoState::game_index,
                    "Which game of a batch (GameState.game_index; a world's: its number k).")
      .def_property_readonly(
          "last_result",
          [](const InfoState& v) -> py::object {
            if (!v.has_last_result) return py::none();
            return result_dict(v.last_result, v.table().seats);
          },
          "The last finished round's result (Game.round_result), or None before the first.")
      .def_property_readonly(
          "phase", [](const InfoState& v) { return std::string(phase_name(v.pub.phase)); })
      .def_property_readonly("current_player",
                             [](const InfoState& v) -> py::object {
                               return v.pub.current >= 0 ? py::object(py::int_(v.pub.current))
                                                         : py::none();
                             })
      .def_property_readonly("round", [](const InfoState& v) { return v.pub.round; })
      .def_property_readonly("dealer", [](const InfoState& v) { return v.pub.dealer; })
      .def_property_readonly("level",
                             [](const InfoState& v) { return level_text(v.pub.level_rank()); })
      .def_property_readonly("levels",
                             [](const InfoState& v) {
                               return py::make_tuple(level_text(v.pub.levels[0]),
                                                     level_text(v.pub.levels[1]));
                             })
      .def_readonly("hand", &InfoState::hand, "The viewer's own hand.")
      .def_property_readonly(
          "played",
          [](const InfoState& v) {
            return per_seat(v, v.pub.played, [](const Cards& c) { return py::cast(c); });
          },
          "Cards each seat played this round.")
      .def_property_readonly("cards_left",
                             [](const InfoState& v) {
                               return per_seat(v, v.pub.cards_left,
                                               [](int n) { return py::int_(n); });
                             })
      .def_property_readonly("finish_order",
                             [](const InfoState& v) {
                               py::list l;
                               for (int i = 0; i < v.pub.players_out; ++i)
                                 l.append(int(v.pub.finish_order[std::size_t(i)]));
                               return l;
                             })
      .def_property_readonly(
          "top",
          [](const InfoState& v) { return v.pub.has_top() ? py::cast(v.pub.top) : py::none(); })
      .def_property_readonly("top_seat",
                             [](const InfoState& v) -> py::object {
                               return v.pub.has_top() ? py::object(py::int_(v.pub.top_seat))
                                                      : py::none();
                             })
      .def_property_readonly("passed", [](const InfoState& v) { return seats_of(v.pub.passed); })
      .def_property_readonly("scores",
                             [](const InfoState& v) {
                               return per_seat(v, v.pub.scores,
                                               [](std::int64_t n) { return py::int_(n); });
                             })
      .def_property_readonly("auto_pass", [](const InfoState& v) { return v.pub.auto_pass; });
}

// What the viewer knows beyond the public state: tributes, unseen cards, known cards, hidden
// counts.
void bind_view_knowledge(py::class_<InfoState>& view) {
  view.def_property_readonly(
          "tributes",
          [](const InfoState& v) {
            py::list l;
            for (int i = 0; i < v.pub.n_pairs; ++i) {
              py::dict d;  // returned / offer are set only in the viewer's own pair (engine)
              d["from"] = int(v.pub.tributers[std::size_t(i)]);
              d["to"] = int(v.pub.receivers[std::size_t(i)]);
              const int tf = v.pub.tribute_face[std::size_t(i)];
              const int rf = v.exchange.return_face[std::size_t(i)];
              d["card"] = tf >= 0 ? py::object(py::str(face_text(tf))) : py::none();
              d["refused"] = tf == -2;
              d["returned"] = rf >= 0 ? py::object(py::str(face_text(rf))) : py::none();
              const Cards& o = v.exchange.offer[std::size_t(i)];
              d["offer"] = !o.empty() ? py::object(py::str(cards_text(o))) : py::none();
              l.append(d);
            }
            return l;
          },
          "This round's tribute pairs; returned / offer only in the viewer's own pair.")
      .def_property_readonly(
          "known",
          [](const InfoState& v) {
            return per_seat(v, v.known, [](const Cards& c) { return py::cast(c); });
          },
          "Cards the viewer knows each seat holds now (its own entry: its hand).")
      .def_property_readonly(
          "jokers_known",
          [](const InfoState& v) {
            return per_seat(v, v.jokers_known, [](bool b) { return py::bool_(b); });
          },
          "Seats that showed all their jokers in a refusal (anti_tribute).")
      .def_readonly("unseen", &InfoState::unseen,
                    "Cards the viewer has not seen: in the other hands, beyond `known`.")
      .def_property_readonly(
          "hidden_counts",
          [](const InfoState& v) {
            py::list l;
            for (int s = 0; s < v.table().seats; ++s) l.append(s == v.seat ? 0 : v.hidden_count(s));
            return l;
          },
          "How many unseen cards each seat holds.")
      .def_property_readonly(
          "forced",
          [](const InfoState& v) {
            py::list l;
            v.pub.forced.for_each_from(0, [&](const ForcedPass& fp) {
              l.append(py::make_tuple(int(fp.seat), fp.top,
                                      v.pub.played[std::size_t(fp.seat)] - fp.played_before));
            });
            return l;
          },
          "Forced passes: (seat, top, cards played since); the seat then held no play beating top.")
      .def_property_readonly(
          "history",
          [](const InfoState& v) {
            py::list l;
            for (const Event& e : v.history) {
              py::object payload = py::none();
              if (e.type == EventType::kPlay)
                payload = py::cast(e.play);
              else if (!(e.flags & 2) && e.type != EventType::kPass &&
                       e.type != EventType::kAutoPass && e.type != EventType::kDeal &&
                       e.type != EventType::kRoundEnd && e.type != EventType::kForfeit)
                payload = py::cast(e.play.cards);
              l.append(py::make_tuple(event_name(e.type), int(e.seat), int(e.other),
                                      int(e.flags & 1), payload));
            }
            return l;
          },
          "This round's public events (name, seat, other, flags, payload); others' private cards "
          "are None.");
}

// The view's methods: its legal decisions, the plays its hand could make, its observation.
void bind_view_methods(py::class_<InfoState>& view) {
  view.def(
          "legal_actions", [](const InfoState& v) { return v.legal; },
          "The viewer's legal decisions when it is to act (empty otherwise).")
      .def(
          "legal_plays",
          [](const InfoState& v) {
            PlayList buf;
            v.legal_plays(&buf);
            return std::vector<Play>(buf.begin(), buf.end());
          },
          "The plays the viewer's hand could make now (against the current top).")
      .def(
          "observation",
          [](const py::object& self, const py::object& seat) -> py::object {
            if (!observation_encoder())
              throw py::type_error(
                  "InfoState.observation needs the daguai package (import daguai)");
            return observation_encoder()(self, seat);
          },
          py::arg("seat") = py::none(),
          "The dict of Game.observation(view.seat), from the view alone (what a learner trained "
          "on); a seat other than the view's raises ValueError.")
      .def("__repr__", [](const InfoState& v) {
        return "<InfoState seat " + std::to_string(v.seat) + " round " +
               std::to_string(v.pub.round) + " phase " + phase_name(v.pub.phase) + ", " +
               std::to_string(v.hand.size()) + " cards>";
      });
}

}  // namespace

void bind_infostate(py::module_& m) {
  py::class_<InfoState> view(
      m, "InfoState",
      "What one seat may know (R16): its own hand and public facts; no other hand.");
  bind_view_public(view);
  bind_view_knowledge(view);
  bind_view_methods(view);
  harden<InfoState>(m, "InfoState");

  m.def(
      "_set_observation_encoder",
      [](py::function fn) {
        observation_encoder() = fn.release();  // a previous one (a reloaded module) is kept alive
      },
      py::arg("fn"),
      "Set by daguai.game at import: fn(view, seat) builds InfoState.observation's dict.");

  m.def("information_state", &view_of, py::arg("game"), py::arg("seat"), py::arg("history") = true,
        py::arg("legal") = false, "The information state of `seat` (R16).");
}

}  // namespace daguai::bind
