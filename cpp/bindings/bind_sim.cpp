// Rollouts and built-in policies.
#include <pybind11/stl.h>

#include "convert.hpp"
#include "guard.hpp"
#include "rollout.hpp"
#include "sampler.hpp"
#include "seat_driver.hpp"

namespace daguai::bind {

namespace {

// A built-in policy for one seat of one game, with its own stream (Python slow path).
struct PolicyRunner {
  PolicyKind kind;
  Rng rng;
  PolicyScratch scratch;
};

}  // namespace

void bind_sim(py::module_& m) {
  m.attr("MAX_ROUNDS_PER_MATCH") = SimConfig{}.max_rounds_per_match;  // match-mode safety net
  m.def(
      "simulate",
      [](const Rules& rules, std::uint64_t seed, std::int64_t n,
         const std::vector<std::string>& policies, bool matches, std::uint64_t first_game,
         int threads, bool auto_pass, const GameState* start, int view_seat) {
        const Table& tb = table_of(rules);
        if (policies.size() != std::size_t(tb.seats))
          throw GameError("simulate needs " + std::to_string(tb.seats) +
                          " policies (one per seat), got " + std::to_string(policies.size()));
        if (n < 0) throw GameError("simulate: n must be >= 0");
        if (threads < 1) throw GameError("simulate: threads must be >= 1");
        SimConfig cfg;
        cfg.rules = rules;
        cfg.seed = seed;
        cfg.first_game = first_game;
        cfg.n = n;
        cfg.matches = matches;
        cfg.auto_pass = auto_pass;
        cfg.threads = threads;
        for (int s = 0; s < tb.seats; ++s)
          cfg.policies[std::size_t(s)] = parse_policy(policies[std::size_t(s)]);
        InfoState view;
        if (start) {
          if (start->match_over()) throw GameError("simulate: the position's match is over");
          cfg.start = start;
          if (view_seat >= 0) {
            if (view_seat >= tb.seats)
              throw GameError("simulate: no seat " + std::to_string(view_seat));
            view = information_state(*start, view_seat);
            sample_world_hands(view, seed, first_game);  // fail early if the view cannot be sampled
            cfg.view = &view;
          }
        }
        const py::ssize_t rows = py::ssize_t(n);
        py::array_t<std::uint64_t> game(rows);
        py::array_t<std::int8_t> dealer(rows), level(rows), winner(rows), n_trib(rows);
        py::array_t<std::int8_t> order({rows, py::ssize_t(tb.seats)}),
            trib({rows, py::ssize_t(tb.max_tributers)}), levels({rows, py::ssize_t(2)});
        py::array_t<std::int32_t> scores({rows, py::ssize_t(tb.seats)}), plays(rows), passes(rows),
            rounds(rows), draws(rows);
        py::array_t<std::int32_t> wins({rows, py::ssize_t(2)});
        SimOutput out;
        out.game = game.mutable_data();
        out.dealer = dealer.mutable_data();
        out.level = level.mutable_data();
        out.order = order.mutable_data();
        out.winner = winner.mutable_data();
        out.n_tributers = n_trib.mutable_data();
        out.tributers = trib.mutable_data();
        out.levels = levels.mutable_data();
        out.scores = scores.mutable_data();
        out.plays = plays.mutable_data();
        out.passes = passes.mutable_data();
        out.rounds = rounds.mutable_data();
        out.draws = draws.mutable_data();
        out.wins = wins.mutable_data();
        {
          py::gil_scoped_release nogil;  // arguments converted; C++ writes only the arrays above
          simulate(cfg, out);
        }
        py::dict d;
        d["game"] = game;
        d["dealer"] = dealer;
        d["level"] = level;
        d["order"] = order;
        d["winner"] = winner;
        d["n_tributers"] = n_trib;
        d["tributers"] = trib;
        d["levels"] = levels;
        d["scores"] = scores;
        d["plays"] = plays;
        d["passes"] = passes;
        d["rounds"] = rounds;
        if (matches) {
          d["draws"] = draws;
          d["wins"] = wins;
        }
        return d;
      },
      py::arg("rules"), py::arg("seed"), py::arg("n"), py::arg("policies"),
      py::arg("matches") = false, py::arg("first_game") = 0, py::arg("threads") = 1,
      py::arg("auto_pass") = false, py::arg("start") = nullptr, py::arg("view_seat") = -1,
      "Play n rounds (or matches) in C++ with built-in policies; a dict of numpy columns.");

  py::class_<PolicyRunner>(m, "PolicyRunner",
                           "A built-in policy for one seat of one game (own random stream).")
      .def(py::init([](const std::string& name, std::uint64_t seed, std::uint64_t game, int seat) {
             if (seat < 0 || seat >= kSeats) throw GameError("seat must be 0..5");
             return PolicyRunner{parse_policy(name),
                                 Rng::stream(seed, game, Stream::kPolicy, std::uint64_t(seat)),
                                 {}};
           }),
           py::arg("policy"), py::arg("seed"), py::arg("game"), py::arg("seat"))
      .def(
          "act",
          [](PolicyRunner& r, py::handle obj) {
            py::detail::make_caster<GameState> game;  // a GameState or a Game (game_arg.hpp)
            if (game.load(obj, false)) {
              const GameState& g = py::detail::cast_op<const GameState&>(game);
              const Guard guard(&r, &g);
              return choose_action(r.kind, g, r.rng, r.scratch);
            }
            if (py::isinstance<InfoState>(obj)) {
              const InfoState& v = obj.cast<const InfoState&>();
              const Guard guard(&r, &v);
              return choose_action(r.kind, v, r.rng, r.scratch);  // seat_driver.hpp
            }
            throw GameError(std::string("act needs a Game or a view (Game.view), got ") +
                            std::string(py::str(py::type::of(obj).attr("__name__"))));
          },
          py::arg("game"),
          "The policy's decision for the player to act, from the Game or from its view.")
      .def_property_readonly("name", [](const PolicyRunner& r) {
        const Guard guard(&r);
        return std::string(policy_name(r.kind));
      });
  // Pickled as (policy name, random stream state) through a module function, as Play is
  // (every protocol; the state is validated): the scratch holds only caches that every
  // decision rebuilds from the position, so a copy decides as the original would.
  m.def(
      "_policy_runner_from_state",
      [](py::args a) {
        std::uint64_t s[4];
        std::string name;
        try {
          if (a.size() != 5) throw py::cast_error();
          name = a[0].cast<std::string>();
          for (int i = 0; i < 4; ++i) s[i] = a[std::size_t(i) + 1].cast<std::uint64_t>();
        } catch (const py::cast_error&) {
          throw GameError("corrupt PolicyRunner state");
        }
        if ((s[0] | s[1] | s[2] | s[3]) == 0) throw GameError("corrupt PolicyRunner state");
        return PolicyRunner{parse_policy(name), Rng::from_state(s), {}};
      },
      "Unpickling helper: a validated PolicyRunner.");
  const py::handle runner_from_state = m.attr("_policy_runner_from_state");
  m.attr("PolicyRunner").attr("__reduce__") = py::cpp_function(
      [runner_from_state](const PolicyRunner& r) {
        const Guard guard(&r);
        const std::uint64_t* s = r.rng.state();
        return py::make_tuple(runner_from_state, py::make_tuple(std::string(policy_name(r.kind)),
                                                                s[0], s[1], s[2], s[3]));
      },
      py::name("__reduce__"), py::is_method(m.attr("PolicyRunner")));
  harden<PolicyRunner>(m, "PolicyRunner");

  py::class_<SeatDriver>(m, "_SeatDriver",
                         "Built-in seats in C++, stopping at Python seats (sim.py slow path).")
      .def(py::init([](const std::vector<py::object>& names, std::uint64_t seed,
                       std::uint64_t game) {
             const std::size_t n = names.size();  // R18: one per seat of either table
             if (n != std::size_t(kTable4p2d.seats) && n != std::size_t(kTable6p3d.seats))
               throw GameError("_SeatDriver needs one entry per seat (6, or 4 at 4p2d)");
             std::array<int, kSeats> kinds{};
             kinds.fill(-1);
             for (std::size_t s = 0; s < n; ++s)
               kinds[s] = names[s].is_none() ? -1 : int(parse_policy(names[s].cast<std::string>()));
             return SeatDriver(kinds, seed, game);
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

}  // namespace daguai::bind
