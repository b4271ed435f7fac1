// Whole games at native speed (cpp/engine/run/rollout.hpp), their result columns, and built-in
// policies deciding for Python games (PolicyRunner, the seat driver).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "convert.hpp"
#include "game/game_args.hpp"
#include "guard.hpp"

#include <daguai/catalog/catalog.hpp>
#include <daguai/run/columns.hpp>
#include <daguai/run/rollout.hpp>
#include <daguai/run/seat_driver.hpp>

namespace daguai::bind {

namespace {

// A built-in policy for one seat of one game, with its own stream (Python slow path). A
// decision from a view runs on world `game` of `seed` (seat_driver.hpp choose_action).
struct PolicyRunner {
  PolicyId id;
  Rng rng;
  PolicyScratch scratch;
  std::uint64_t seed = 0, game = 0;
};

// One numpy array per column of a run (columns.hpp result_columns, in its order) for `rows`
// games at table tb; *ptrs receives their data (null for a column the run does not have).
py::dict allocate_columns(py::ssize_t rows, const Table& tb, bool matches, ResultArrays* ptrs) {
  py::dict d;
  const auto cols = result_columns();
  ptrs->assign(cols.size(), nullptr);
  for (std::size_t c = 0; c < cols.size(); ++c) {
    if (!column_present(cols[c], matches)) continue;
    std::vector<py::ssize_t> shape{rows};
    if (const int k = column_shape(cols[c], tb)) shape.push_back(k);
    py::array a(py::dtype(column_type_name(cols[c].dtype)), shape);
    (*ptrs)[c] = a.mutable_data();
    d[cols[c].name] = a;
  }
  return d;
}

// The columns of a run filled game by game from Python (sim.py's slow path): the same arrays
// and the same fill_row as the C++ rollouts.
struct ResultRows {
  py::dict columns;
  ResultArrays ptrs;
  std::int64_t n = 0;
  bool matches = false;
};

}  // namespace

namespace {

// Whole games at native speed (R17 seeds): simulate and the result columns.
void bind_simulate(py::module_& m) {
  m.def(
      "simulate",
      [](const Rules& rules, std::uint64_t seed, std::int64_t n,
         const std::vector<std::string>& policies, bool matches, std::uint64_t first_game,
         int threads, bool auto_pass, const GameState* start, int view_seat, bool random_start) {
        SimConfig cfg;
        cfg.rules = rules;
        cfg.seed = seed;
        cfg.first_game = first_game;
        cfg.n = n;
        cfg.matches = matches;
        cfg.auto_pass = auto_pass;
        cfg.threads = threads;
        cfg.policies = seat_policies(policies, rules);
        cfg.start = start;
        cfg.view_seat = start ? view_seat : -1;
        cfg.random_start = random_start;
        check_sim_config(cfg);  // before allocating: n sizes the arrays
        SimOutput out;
        py::dict d = allocate_columns(py::ssize_t(n), table_of(rules), matches, &out);
        {
          py::gil_scoped_release nogil;  // arguments converted; C++ writes only the arrays above
          simulate(cfg, out);
        }
        return d;
      },
      py::arg("rules"), py::arg("seed"), py::arg("n"), py::arg("policies"),
      py::arg("matches") = false, py::arg("first_game") = 0, py::arg("threads") = 1,
      py::arg("auto_pass") = false, py::arg("start") = nullptr, py::arg("view_seat") = -1,
      py::arg("random_start") = false,
      "Play n rounds (or matches) in C++ with built-in policies; a dict of numpy columns. "
      "random_start: seeded games begin at Game(start='random')'s start state.");

  m.def(
      "result_columns",
      [](const Rules* rules) {
        const Table& tb = table_of(rules ? *rules : Rules{});
        py::list out;
        for (const ResultColumn& c : result_columns()) {
          py::dict d;
          d["name"] = c.name;
          d["dtype"] = column_type_name(c.dtype);
          d["width"] = column_shape(c, tb);
          d["matches_only"] = c.matches_only;
          d["doc"] = c.doc;
          out.append(d);
        }
        return py::tuple(out);
      },
      py::arg("rules") = nullptr,
      "The result columns of a simulation (cpp/engine/run/columns.cpp), in order: name, dtype, "
      "width (0 = 1-D) at the rules' table, matches_only, doc.");
}

// The rows a simulation returns, as columns.
void bind_result_rows(py::module_& m) {
  py::class_<ResultRows>(m, "_ResultRows",
                         "The columns of a run filled game by game (sim.py's slow path).")
      .def(py::init([](const Rules& rules, std::int64_t n, bool matches) {
             if (n < 0) throw GameError("_ResultRows: n must be >= 0");
             ResultRows r;
             r.columns = allocate_columns(py::ssize_t(n), table_of(rules), matches, &r.ptrs);
             r.n = n;
             r.matches = matches;
             return r;
           }),
           py::arg("rules"), py::arg("n"), py::arg("matches"))
      .def(
          "fill",
          [](ResultRows& r, std::int64_t row, const GameState& g, std::uint64_t seed,
             std::uint64_t game, int first_dealer, int first_level, std::int64_t plays,
             std::int64_t passes) {
            const Guard guard(&r, &g);
            if (row < 0 || row >= r.n)
              throw GameError("_ResultRows.fill: no row " + std::to_string(row));
            if (g.results().empty()) throw GameError("_ResultRows.fill: the game has no result");
            GameTally t;
            t.seed = seed;
            t.game = game;
            t.first_dealer = first_dealer;
            t.first_level = first_level;
            t.plays = std::int32_t(plays);
            t.passes = std::int32_t(passes);
            t.matches = r.matches;
            fill_row(r.ptrs, row, g, t);  // GIL held: the arrays are Python objects
          },
          py::arg("row"), py::arg("game"), py::arg("seed"), py::arg("game_index"),
          py::arg("first_dealer"), py::arg("first_level"), py::arg("plays"), py::arg("passes"),
          "Fill row `row` from a finished game (columns.hpp fill_row).")
      .def_property_readonly("columns", [](const ResultRows& r) {
        const Guard guard(&r);
        return r.columns;
      });
  harden<ResultRows>(m, "_ResultRows");
}

// One policy deciding for one seat, picklable (R17: the same stream decides the same).
void bind_policy_runner(py::module_& m) {
  py::class_<PolicyRunner>(m, "PolicyRunner",
                           "A built-in policy for one seat of one game (own random stream).")
      .def(py::init([](const std::string& name, std::uint64_t seed, std::uint64_t game, int seat) {
             if (seat < 0 || seat >= kSeats) throw GameError("seat must be 0..5");
             return PolicyRunner{parse_policy(name),
                                 Rng::stream(seed, game, Stream::kPolicy, std::uint64_t(seat)),
                                 {},
                                 seed,
                                 game};
           }),
           py::arg("policy"), py::arg("seed"), py::arg("game"), py::arg("seat"))
      .def(
          "act",
          [](PolicyRunner& r, py::handle obj) {
            py::detail::make_caster<GameState> game;  // a GameState or a Game (game/game_args.hpp)
            if (game.load(obj, false)) {
              const GameState& g = py::detail::cast_op<const GameState&>(game);
              const Guard guard(&r, &g);
              return choose_action(r.id, g, r.rng, r.scratch);
            }
            if (py::isinstance<InfoState>(obj)) {
              const InfoState& v = obj.cast<const InfoState&>();
              const Guard guard(&r, &v);
              return choose_action(r.id, v, r.rng, r.scratch, r.seed, r.game);  // seat_driver.hpp
            }
            throw GameError(std::string("act needs a Game or a view (Game.view), got ") +
                            std::string(py::str(py::type::of(obj).attr("__name__"))));
          },
          py::arg("game"),
          "The policy's decision for the player to act, from the Game or from its view (the "
          "hidden hands of a view: world `game` of `seed`, which built-in policies never read).")
      .def_property_readonly("name", [](const PolicyRunner& r) {
        const Guard guard(&r);
        return std::string(policy_name(r.id));
      });
  // Pickled as (policy name, random stream state) through a module function, as Play is
  // (every protocol; the state is validated): the scratch holds only caches that every
  // decision rebuilds from the position, so a copy decides as the original would.
  m.def(
      "_policy_runner_from_state",
      [](py::args a) {
        std::uint64_t s[6] = {0, 0, 0, 0, 0, 0};  // stream state, then seed and game
        std::string name;
        try {
          if (a.size() != 5 && a.size() != 7)
            throw py::cast_error();  // 5: pickles without seed and game
          name = a[0].cast<std::string>();
          for (std::size_t i = 1; i < a.size(); ++i) s[i - 1] = a[i].cast<std::uint64_t>();
        } catch (const py::cast_error&) {
          throw GameError("corrupt PolicyRunner state");
        }
        if ((s[0] | s[1] | s[2] | s[3]) == 0) throw GameError("corrupt PolicyRunner state");
        const std::uint64_t stream[4] = {s[0], s[1], s[2], s[3]};
        return PolicyRunner{parse_policy(name), Rng::from_state(stream), {}, s[4], s[5]};
      },
      "Unpickling helper: a validated PolicyRunner (name, stream state, seed, game).");
  const py::handle runner_from_state = m.attr("_policy_runner_from_state");
  m.attr("PolicyRunner").attr("__reduce__") = py::cpp_function(
      [runner_from_state](const PolicyRunner& r) {
        const Guard guard(&r);
        const std::uint64_t* s = r.rng.state();
        return py::make_tuple(
            runner_from_state,
            py::make_tuple(std::string(policy_name(r.id)), s[0], s[1], s[2], s[3], r.seed, r.game));
      },
      py::name("__reduce__"), py::is_method(m.attr("PolicyRunner")));
  harden<PolicyRunner>(m, "PolicyRunner");
}

// Driving a seat of a Python game from a native policy.
void bind_seat_driver(py::module_& m) {
  py::class_<SeatDriver>(m, "_SeatDriver",
                         "Built-in seats in C++, stopping at Python seats (sim.py slow path).")
      .def(py::init(
               [](const std::vector<py::object>& names, std::uint64_t seed, std::uint64_t game) {
                 std::vector<std::optional<std::string>> seats;  // None: a Python seat
                 for (const py::object& n : names)
                   seats.push_back(n.is_none() ? std::nullopt
                                               : std::optional<std::string>(n.cast<std::string>()));
                 return SeatDriver(seats, seed, game);
               }),
           py::arg("names"), py::arg("seed"), py::arg("game"))
      .def(
          "advance",
          [](SeatDriver& d, GameState& g, std::size_t round_limit) {
            const Guard guard(&d, &g);
            // GIL held: g is a Python object and this loop is short between Python seats.
            return d.advance(g, round_limit);
          },
          py::arg("game"), py::arg("round_limit"),
          "Play built-in seats until a Python seat is to act (its seat) or the limit is reached "
          "(-1).")
      .def_property_readonly("plays",
                             [](const SeatDriver& d) {
                               const Guard guard(&d);
                               return d.plays();
                             })
      .def_property_readonly("passes", [](const SeatDriver& d) {
        const Guard guard(&d);
        return d.passes();
      });
  harden<SeatDriver>(m, "_SeatDriver");
}

}  // namespace

void bind_sim(py::module_& m) {
  m.attr("MAX_ROUNDS_PER_MATCH") = SimConfig{}.max_rounds_per_match;  // match-mode safety net
  bind_simulate(m);
  bind_result_rows(m);
  bind_policy_runner(m);
  bind_seat_driver(m);
}

}  // namespace daguai::bind
