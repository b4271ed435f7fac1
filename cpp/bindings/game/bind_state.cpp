// GameState, Action, ActionList: the match state machine (cpp/engine/game/state.hpp) for
// Python, and the text of actions (game/action_text.hpp).
#include <pybind11/stl.h>

#include "convert.hpp"
#include "game/game_args.hpp"
#include "guard.hpp"
#include "plays/play_args.hpp"

#include <daguai/game/action_text.hpp>
#include <daguai/game/position.hpp>
#include <daguai/game/state.hpp>

namespace daguai::bind {

namespace {

// Legal actions as one C++ vector behind a Python sequence: no per-action objects until
// an element is read.
struct ActionList {
  std::vector<Action> actions;
};

py::object play_or_none(const Play& p, bool present) { return present ? py::cast(p) : py::none(); }

}  // namespace

// game_args.hpp
Action to_action(const GameState& g, py::handle obj) {
  if (py::isinstance<Action>(obj)) return obj.cast<Action>();
  if (py::isinstance<py::str>(obj)) return parse_action(g, to_text(obj, "action"));
  if (py::isinstance<Play>(obj)) {
    if (g.match_over()) throw GameError("the match is over: no action is possible");
    Action a;
    a.seat = std::int8_t(g.current_player());
    a.type = ActionType::kPlay;
    a.play = obj.cast<Play>();
    return a;
  }
  return card_action(g, to_cards(obj, "action"));
}

py::dict result_dict(const RoundResult& r, int seats) {
  py::dict d;
  d["round"] = r.round;
  py::list order;  // a forfeit can leave positions unknown: None
  for (int i = 0; i < seats; ++i) {
    const int s = r.order[std::size_t(i)];
    order.append(s >= 0 ? py::object(py::int_(s)) : py::object(py::none()));
  }
  d["order"] = order;
  d["players_out"] = int(r.players_out);
  d["winner"] = r.winner >= 0 ? py::object(py::int_(int(r.winner))) : py::none();
  d["dealer"] = int(r.dealer);
  d["next_dealer"] = int(r.next_dealer);
  d["level"] = level_text(r.level_rank);
  d["levels_before"] =
      py::list(py::make_tuple(level_text(r.levels_before[0]), level_text(r.levels_before[1])));
  d["levels_after"] =
      py::list(py::make_tuple(level_text(r.levels_after[0]), level_text(r.levels_after[1])));
  py::list t, rc;
  for (int i = 0; i < r.n_tributers; ++i) {
    t.append(int(r.tributers[std::size_t(i)]));
    rc.append(int(r.receivers[std::size_t(i)]));
  }
  d["tributers"] = t;
  d["receivers"] = rc;
  py::list sc;
  for (int i = 0; i < seats; ++i) sc.append(int(r.scores[std::size_t(i)]));
  d["scores"] = sc;
  d["match_over"] = r.match_over;
  d["match_winner"] = (r.match_over && r.match_winner >= 0)
                          ? py::object(py::int_(int(r.match_winner)))
                          : py::none();
  d["forfeit"] = r.forfeit_seat >= 0 ? py::object(py::int_(int(r.forfeit_seat))) : py::none();
  return d;
}

namespace {

// GameState's constructors: a new match (R17 seeds), a copy, a position.
void bind_state_construction(py::class_<GameState>& state) {
  state
      .def(py::init([](const Rules& rules, std::uint64_t seed, std::uint64_t game, bool auto_pass,
                       bool record, int start) {
             if (start != 0 && start != 1)
               throw GameError("start must be 0 (fresh) or 1 (random), got " +
                               std::to_string(start));
             return GameState(rules, seed, game, auto_pass, record, Start(start));
           }),
           py::arg("rules"), py::arg("seed"), py::arg("game") = 0, py::arg("auto_pass") = false,
           py::arg("record") = true, py::arg("start") = 0)
      .def_property_readonly(
          "start_kind",
          [](const GameState& g) {
            const Guard guard(&g);
            return int(g.start());
          },
          "0: a fresh match (R3, R10); 1: a random start state (docs/game.md)")
      .def(py::init([](const GameState& other) {
             const Guard guard(&other);
             return GameState(other);
           }),
           py::arg("other"), "A copy (independent of the original).")
      .def(py::init<const Rules&, const Position&, bool>(), py::arg("rules"), py::arg("position"),
           py::arg("record") = true,
           "A match from a position (validated: PositionError names the first problem).");
}

// The match's facts: seeds, phase, round, dealer, levels, auto-pass, seats, hands.
void bind_state_match(py::class_<GameState>& state) {
  state.def_property_readonly("seed", locked(&GameState::seed))
      .def_property_readonly("game_index", locked(&GameState::game_index))
      .def_property_readonly("phase",
                             [](const GameState& g) {
                               const Guard guard(&g);
                               return std::string(phase_name(g.phase()));
                             })
      .def_property_readonly("match_over", locked(&GameState::match_over))
      .def_property_readonly(
          "current_player",
          [](const GameState& g) -> py::object {
            const Guard guard(&g);
            return g.current_player() >= 0 ? py::object(py::int_(g.current_player())) : py::none();
          })
      .def_property_readonly("round", locked(&GameState::round))
      .def_property_readonly("dealer", locked(&GameState::dealer))
      .def_property_readonly(
          "level",
          [](const GameState& g) {
            const Guard guard(&g);
            return level_text(g.level_rank());
          },
          "The round's level rank L (the dealer's team's level).")
      .def_property_readonly(
          "levels",
          [](const GameState& g) {
            const Guard guard(&g);
            return py::make_tuple(level_text(g.level(0)), level_text(g.level(1)));
          },
          "Levels of team A (even seats) and team B (odd seats).")
      .def_property(
          "auto_pass", locked(&GameState::auto_pass),
          [](GameState& g, py::handle on) {
            if (!PyBool_Check(on.ptr()) &&
                !py::isinstance(on, py::module_::import("numpy").attr("bool_")))
              throw GameError("auto_pass must be True or False, got " + shown(on));
            const Guard guard(&g);
            g.set_auto_pass(PyObject_IsTrue(on.ptr()) == 1);
          },
          "Apply forced passes automatically (changes are logged and replayed).")
      .def_property_readonly("initial_auto_pass", locked(&GameState::initial_auto_pass))
      .def_property_readonly("seats",
                             [](const GameState& g) {
                               const Guard guard(&g);
                               return g.table().seats;
                             })
      .def(
          "hand",
          [](const GameState& g, py::handle seat) {
            const Guard guard(&g);
            return g.hand(int(to_int<GameError>(seat, "seat", 0, g.table().seats - 1)));
          },
          py::arg("seat"));
}

// The table's facts: cards left, the top and its seat, scores, plays, tributes (R11).
void bind_state_table(py::class_<GameState>& state) {
  state
      .def_property_readonly("cards_left",
                             [](const GameState& g) {
                               const Guard guard(&g);
                               py::list l;
                               for (int s = 0; s < g.table().seats; ++s) l.append(g.cards_left(s));
                               return l;
                             })
      .def_property_readonly(
          "finish_order",
          [](const GameState& g) {
            const Guard guard(&g);
            py::list l;
            for (int i = 0; i < g.players_out(); ++i)
              l.append(int(g.finish_order()[std::size_t(i)]));
            return l;
          },
          "Seats out so far this round, in order.")
      .def_property_readonly("top",
                             [](const GameState& g) {
                               const Guard guard(&g);
                               return play_or_none(g.top(), g.has_top());
                             })
      .def_property_readonly("top_seat",
                             [](const GameState& g) -> py::object {
                               const Guard guard(&g);
                               return g.has_top() ? py::object(py::int_(g.top_seat())) : py::none();
                             })
      .def_property_readonly(
          "passed",
          [](const GameState& g) {
            const Guard guard(&g);
            py::list l;
            for (int s = 0; s < g.table().seats; ++s)
              if ((g.passed_mask() >> s) & 1) l.append(s);
            return l;
          },
          "Seats that passed since the top play.")
      .def_property_readonly("scores",
                             [](const GameState& g) {
                               const Guard guard(&g);
                               py::list l;
                               for (int s = 0; s < g.table().seats; ++s) l.append(g.score(s));
                               return l;
                             })
      .def(
          "played",
          [](const GameState& g, py::handle seat_obj) {
            const Guard guard(&g);
            const int seat = int(to_int<GameError>(seat_obj, "seat", 0, g.table().seats - 1));
            return g.played(seat);
          },
          py::arg("seat"), "The cards the seat has played this round (R16: public).")
      .def_property_readonly(
          "final_failures",
          [](const GameState& g) {
            const Guard guard(&g);
            return py::make_tuple(g.final_failures(0), g.final_failures(1));
          },
          "R12: failed rounds of each team at the final level.")
      .def_property_readonly(
          "tribute_state",
          [](const GameState& g) {
            const Guard guard(&g);
            py::list l;
            for (int i = 0; i < g.tribute_pairs(); ++i) {
              py::dict d;
              d["from"] = g.tributer(i);
              d["to"] = g.receiver(i);
              const int tf = g.tribute_face(i), rf = g.return_face(i);
              d["card"] = tf >= 0 ? py::object(py::str(face_text(tf))) : py::none();
              d["refused"] = tf == -2;
              d["returned"] = rf >= 0 ? py::object(py::str(face_text(rf))) : py::none();
              d["offer"] = g.offer(i).empty() ? py::object(py::none())
                                              : py::object(py::str(cards_text(g.offer(i))));
              l.append(d);
            }
            return l;
          },
          "This round's tribute pairs (R11) and what has been paid / returned so far.");
}

// Deciding: legal actions, applying one (R8-R12), forced passes.
void bind_state_actions(py::class_<GameState>& state) {
  state
      .def(
          "legal_actions",
          [](const GameState& g) {
            const Guard guard(&g);
            ActionList l;
            g.legal_actions(&l.actions);
            return l;
          },
          "The current player's legal actions (ActionList; empty when the match is over).")
      .def(
          "legal_plays_array",
          [](const GameState& g) {
            const Guard guard(&g);
            PlayList buf;
            g.legal_plays(&buf);
            return plays_array(buf.data(), buf.size());
          },
          "The current player's legal plays as PLAY_DTYPE rows (play phase).")
      .def(
          "to_action",
          [](const GameState& g, py::handle a) {
            const Guard guard(&g);
            return to_action(g, a);
          },
          py::arg("action"),
          "Read an action (Action, Play, 'pass', 'anti_tribute' or cards) for the current "
          "decision.")
      .def(
          "apply",
          [](GameState& g, py::handle action) {
            const Guard guard(&g);
            g.apply(to_action(g, action));
          },
          py::arg("action"),
          "Apply a decision of the current player; invalid ones raise and change nothing.")
      .def(
          "check",
          [](const GameState& g, py::handle action) {
            const Guard guard(&g);
            g.check(to_action(g, action));
          },
          py::arg("action"), "Raise what apply would raise, without applying.")
      .def(
          "forfeit",
          [](GameState& g, py::handle seat) {
            const Guard guard(&g);
            g.forfeit(int(to_int<GameError>(seat, "seat", 0, g.table().seats - 1)));
          },
          py::arg("seat"), "R14: the seat leaves the match now.")
      .def("_apply_forced_pass", locked(&GameState::apply_forced_pass),
           "A forced pass, logged as automatic (replaying records of auto_pass games).");
}

// What a match has recorded: round results, events, the recording switch.
void bind_state_records(py::class_<GameState>& state) {
  state
      .def_property_readonly(
          "results",
          [](const GameState& g) {
            const Guard guard(&g);
            py::list l;
            g.results().for_each_from(
                0, [&](const RoundResult& r) { l.append(result_dict(r, g.table().seats)); });
            return l;
          },
          "Results of the finished rounds (dicts).")
      .def_property_readonly("n_results",
                             [](const GameState& g) {
                               const Guard guard(&g);
                               return g.results().size();
                             })
      .def(
          "result",
          [](const GameState& g, py::handle index) {
            const Guard guard(&g);
            py::ssize_t i = py::ssize_t(
                to_int<GameError>(index, "index", -(std::int64_t(1) << 40), std::int64_t(1) << 40));
            const py::ssize_t n = py::ssize_t(g.results().size());
            if (i < 0) i += n;
            if (i < 0 || i >= n) throw py::index_error("no such round result");
            return result_dict(g.results()[std::size_t(i)], g.table().seats);
          },
          py::arg("index"))
      .def(
          "events",
          [](const GameState& g, py::handle start_obj) {
            const Guard guard(&g);
            const py::ssize_t start = py::ssize_t(to_int<GameError>(
                start_obj, "start", -(std::int64_t(1) << 40), std::int64_t(1) << 40));
            // (name, seat, other, flags, payload): payload = Play (play), Hand (cards), deal
            // dict, or result dict.
            py::list l;
            g.log().for_each_from(
                std::size_t(std::max<py::ssize_t>(0, start)), [&](const Event& e) {
                  py::object payload = py::none();
                  switch (e.type) {
                    case EventType::kPlay:
                      payload = py::cast(e.play);
                      break;
                    case EventType::kDeal: {
                      const Deal& d = g.deals()[std::size_t(e.index)];
                      py::dict dd;
                      dd["round"] = d.round;
                      dd["dealer"] = int(d.dealer);
                      dd["levels"] = py::list(
                          py::make_tuple(level_text(d.levels[0]), level_text(d.levels[1])));
                      py::list hands;
                      for (int s = 0; s < g.table().seats; ++s)
                        hands.append(py::cast(d.hands[std::size_t(s)]));
                      dd["hands"] = hands;
                      payload = dd;
                      break;
                    }
                    case EventType::kRoundEnd:
                    case EventType::kForfeit:
                      payload = result_dict(g.results()[std::size_t(e.index)], g.table().seats);
                      break;
                    case EventType::kPass:
                    case EventType::kAutoPass:
                      break;
                    default:
                      payload = py::cast(e.play.cards);
                      break;
                  }
                  l.append(py::make_tuple(event_name(e.type), int(e.seat), int(e.other),
                                          int(e.flags), payload));
                });
            return l;
          },
          py::arg("start") = 0, "The game log from index `start` (empty if recording is off).")
      .def_property_readonly("n_events",
                             [](const GameState& g) {
                               const Guard guard(&g);
                               return g.log().size();
                             })
      .def_property_readonly(
          "round_events_start",
          [](const GameState& g) {
            const Guard guard(&g);
            return g.round_log_start();
          },
          "Index in events() of the current round's deal.")
      .def_property_readonly("recording", locked(&GameState::recording));
}

}  // namespace

void bind_state(py::module_& m) {
  py::class_<Action>(m, "Action",
                     "One decision: play, pass, tribute, anti_tribute, return, offer or take.")
      .def_property_readonly("type",
                             [](const Action& a) { return std::string(action_name(a.type)); })
      .def_property_readonly("seat", [](const Action& a) { return int(a.seat); })
      .def_property_readonly(
          "play", [](const Action& a) { return play_or_none(a.play, a.type == ActionType::kPlay); },
          "The Play for a play action, else None.")
      .def_property_readonly(
          "cards", [](const Action& a) { return a.play.cards; }, "The cards involved (a Hand).")
      .def(
          "__eq__",
          [](const Action& a, py::handle b) {
            return py::isinstance<Action>(b) && a == b.cast<Action>();  // the engine's ==
          },
          py::is_operator())
      .def("__hash__",
           [](const Action& a) {
             return std::hash<std::uint64_t>{}(a.play.cards.lo * 31 + a.play.cards.hi * 7 +
                                               a.play.key + (std::uint64_t(a.type) << 56) +
                                               (std::uint64_t(std::uint8_t(a.seat)) << 48));
           })
      .def("__str__", &action_text, "The text form, read back by parse_action (docs/protocol.md).")
      .def("__repr__", &action_repr);

  py::class_<ActionList>(m, "ActionList",
                         "The legal actions of the current player (a read-only sequence).")
      .def("__len__", [](const ActionList& l) { return l.actions.size(); })
      .def("__getitem__",
           [](const ActionList& l, py::ssize_t i) {
             const py::ssize_t n = py::ssize_t(l.actions.size());
             if (i < 0) i += n;
             if (i < 0 || i >= n) throw py::index_error("action index out of range");
             return l.actions[std::size_t(i)];
           })
      .def(
          "__getitem__",
          [](const ActionList& l, const py::slice& sl) {
            py::ssize_t start = 0, stop = 0, step = 0, len = 0;
            if (!sl.compute(py::ssize_t(l.actions.size()), &start, &stop, &step, &len))
              throw py::error_already_set();
            ActionList out;
            out.actions.reserve(std::size_t(len));
            for (py::ssize_t k = 0; k < len; ++k)
              out.actions.push_back(l.actions[std::size_t(start + k * step)]);
            return out;
          },
          "A slice is a new ActionList (list(actions[a:b]) for a plain list).")
      .def(
          "__iter__",
          [](const ActionList& l) { return py::make_iterator(l.actions.begin(), l.actions.end()); },
          py::keep_alive<0, 1>())
      .def("__contains__",
           [](const ActionList& l, py::handle a) {
             if (!py::isinstance<Action>(a)) return false;
             const Action x = a.cast<Action>();
             return std::find(l.actions.begin(), l.actions.end(), x) != l.actions.end();
           })
      .def("__repr__", [](const ActionList& l) {
        return "<ActionList of " + std::to_string(l.actions.size()) + " actions>";
      });

  m.def(
      "parse_action",
      [](const GameState& g, py::handle text) {
        const Guard guard(&g);
        return parse_action(g, to_text(text, "action text"));
      },
      py::arg("game"), py::arg("text"),
      "The action an action text names for the current decision (game/action_text.hpp).");

  py::class_<GameState> state(m, "GameState", "The C++ match state (use daguai.Game).");
  bind_state_construction(state);
  bind_state_match(state);
  bind_state_table(state);
  bind_state_actions(state);
  bind_state_records(state);
  harden<Action>(m, "Action");
  harden<ActionList>(m, "ActionList");
  harden<GameState>(m, "GameState");
}

}  // namespace daguai::bind
