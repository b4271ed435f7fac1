// _core._testing, the timers of benchmarks/ and `daguai bench` (cpp/testing/bench.hpp):
// timed in C++, so no Python overhead is counted.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <string>

#include "convert.hpp"
#include "game/game_args.hpp"
#include "guard.hpp"
#include "plays/play_args.hpp"

#include <daguai/catalog/catalog.hpp>
#include <daguai/testing/bench.hpp>
#include <daguai/testing/work_loops.hpp>

namespace daguai::bind {

using namespace daguai::testing;

namespace {

// The tops of a timing hook: None, or a list with one top (or None) per hand.
void timing_tops(py::object tops, std::size_t n, int lv, const Rules& rules, const char* what,
                 std::vector<Play>* tp, std::vector<std::uint8_t>* set) {
  tp->assign(n, Play{});
  set->assign(n, 0);
  if (tops.is_none()) return;
  const py::list tl = tops.cast<py::list>();
  if (tl.size() != n) throw CardError(std::string(what) + ": one top per hand");
  for (std::size_t i = 0; i < n; ++i)
    if (!tl[i].is_none()) {
      (*tp)[i] = to_play(tl[i], lv, rules, "top");
      (*set)[i] = 1;
    }
}

// The learned network's timer and the integer pass's switches (cpp/engine/learned/quantized.hpp).
void bind_network_timers(py::module_& t) {
  t.def(
      "time_network",
      [](const Network& net, const Rules& rules, std::uint64_t seed, int rounds, int reps) {
        if (rounds < 1 || rounds > 10000) throw GameError("time_network: rounds in [1, 10000]");
        if (reps < 1 || reps > 1000) throw GameError("time_network: reps in [1, 1000]");
        NetworkTiming r;
        {
          py::gil_scoped_release nogil;  // the network is immutable; C++ values only
          r = time_network(net, rules, seed, rounds, reps);
        }
        py::dict d;
        d["decisions"] = r.decisions;
        d["candidates"] = r.candidates;
        d["float_ns"] = r.float_ns;
        d["quantized_ns"] = r.quantized_ns;
        d["float_stream_ns"] = r.float_stream_ns;
        d["quantized_stream_ns"] = r.quantized_stream_ns;
        d["same_pick"] = r.same_pick;
        d["max_dq"] = r.max_dq;
        return d;
      },
      py::arg("network"), py::arg("rules"), py::arg("seed"), py::arg("rounds"), py::arg("reps") = 3,
      "Benchmark hook: the network's float and integer passes on the same heuristic-round "
      "decisions (ns per decision with the inputs in cache as in play, and streamed from "
      "memory; same-pick share, largest |q difference|).");
  t.def(
      "quantized_kernels",
      [] {
        std::vector<std::string> out = {"portable"};
        if (best_quantized_kernel() >= QuantKernel::kAvx2) out.push_back("avx2");
        if (best_quantized_kernel() >= QuantKernel::kAvx512) out.push_back("avx512");
        return out;
      },
      "Test hook: the integer pass's kernels this CPU has, best last.");
  t.def(
      "set_quantized_kernel",
      [](const std::string& name) {
        const QuantKernel k = name == "portable" ? QuantKernel::kPortable
                              : name == "avx2"   ? QuantKernel::kAvx2
                              : name == "avx512" ? QuantKernel::kAvx512
                                                 : throw GameError(
                                                       "set_quantized_kernel: "
                                                       "portable, avx2 or avx512");
        if (k > best_quantized_kernel())
          throw GameError("set_quantized_kernel: this CPU has no " + name);
        set_quantized_kernel(k);
      },
      py::arg("name"),
      "Test hook: use this kernel of the integer pass in this process (the best is the "
      "default).");
  t.def(
      "set_quantized_cache", [](bool allowed) { set_quantized_cache(allowed); }, py::arg("allowed"),
      "Test hook: allow (True) or forbid the integer pass's per-thread state cache.");
  t.def(
      "time_decision_parts",
      [](const Rules& rules, std::uint64_t seed, int rounds) {
        DecisionParts parts;
        {
          py::gil_scoped_release nogil;  // C++ values only
          parts = time_decision_parts(rules, seed, rounds);
        }
        const auto column = [](const auto& v) {
          using T = typename std::decay_t<decltype(v)>::value_type;
          py::array_t<T> a(py::ssize_t(v.size()));
          std::copy(v.begin(), v.end(), a.mutable_data());
          return a;
        };
        py::dict out;
        out["candidates"] = column(parts.candidates);
        out["heuristic_ns"] = column(parts.heuristic_ns);
        out["candidates_ns"] = column(parts.candidates_ns);
        out["state_ns"] = column(parts.state_ns);
        out["network_ns"] = column(parts.network_ns);
        return out;
      },
      py::arg("rules"), py::arg("seed"), py::arg("rounds"),
      "Benchmark hook: the learned player's play decisions (time_decisions' rounds) in parts: "
      "candidates, and ns of the heuristic's choice, the candidates, the state, the network.");
}

// The work loops of benchmarks/instructions.py (cpp/testing/work_loops.hpp).
void bind_work_loops(py::module_& t) {
  t.def(
      "repeat_op",
      [](int op, const Rules& rules, py::handle level, std::uint64_t seed, int items, int reps,
         const std::string& policy) {
        const int lv = to_level(level);
        const PolicyId k = parse_policy(policy);
        WorkResult r;
        {
          py::gil_scoped_release nogil;  // C++ values only
          r = repeat_op(op, rules, lv, seed, items, reps, k);
        }
        return py::make_tuple(r.ops, r.checksum);
      },
      py::arg("op"), py::arg("rules"), py::arg("level"), py::arg("seed"), py::arg("items"),
      py::arg("reps"), py::arg("policy") = "heuristic",
      "Benchmark hook: (operations, checksum) of an engine operation repeated with no clock "
      "(0 lead set, 1 five-card follow set, 2 count_plays at a lead, 3 classify five cards, 4 "
      "apply, 5 a policy's decision), for instruction counts.");
  t.def(
      "repeat_network",
      [](const Network& net, const Rules& rules, std::uint64_t seed, int rounds, int reps,
         const std::string& kind) {
        if (kind != "float" && kind != "integer")
          throw GameError("repeat_network: kind is 'float' or 'integer'");
        WorkResult r;
        {
          py::gil_scoped_release nogil;  // the network is immutable; C++ values only
          r = repeat_network(net, rules, seed, rounds, reps, kind == "float");
        }
        return py::make_tuple(r.ops, r.checksum);
      },
      py::arg("network"), py::arg("rules"), py::arg("seed"), py::arg("rounds"), py::arg("reps"),
      py::arg("kind"),
      "Benchmark hook: (passes, checksum) of the learned network's float or integer pass "
      "repeated over heuristic-round decisions with no clock, for instruction counts.");
}

}  // namespace

void bind_testing_timers(py::module_& t) {
  t.def(
      "time_play_op",
      [](int op, const std::vector<Cards>& hands, py::object tops, py::handle level,
         const Rules& rules, int reps) {
        if (op < 0 || op > 3) throw CardError("time_play_op: op is 0..3");
        const int lv = to_level(level);
        std::vector<Play> tp;
        std::vector<std::uint8_t> set;
        timing_tops(tops, hands.size(), lv, rules, "_time_play_op", &tp, &set);
        py::array_t<double> ns(static_cast<py::ssize_t>(hands.size()));
        py::array_t<std::int64_t> counts(static_cast<py::ssize_t>(hands.size()));
        double* o = ns.mutable_data();
        std::int64_t* c = counts.mutable_data();
        {
          py::gil_scoped_release nogil;  // arguments converted; outputs owned by this call
          time_play_op(op, hands.data(), tp.data(), set.data(), hands.size(), lv, rules,
                       std::max(1, reps), o, c);
        }
        return py::make_tuple(ns, counts);
      },
      py::arg("op"), py::arg("hands"), py::arg("tops"), py::arg("level"), py::arg("rules"),
      py::arg("reps") = 20,
      "Benchmark hook: fastest-of-reps ns per call of op (0 legal_plays, 1 count_plays, 2 "
      "sample_play, "
      "3 has_legal_follow), timed in C++.");
  t.def(
      "time_game",
      [](const Rules& rules, std::uint64_t seed, std::int64_t decisions, bool record) {
        GameTiming t;
        {
          py::gil_scoped_release nogil;  // pure C++ on local state
          t = time_game(rules, seed, decisions, record);
        }
        py::dict d;
        d["decisions"] = t.decisions;
        d["rounds"] = t.rounds;
        d["apply_ns"] = t.apply_ns;
        d["generate_ns"] = t.generate_ns;
        d["clone_ns"] = t.clone_ns;
        return d;
      },
      py::arg("rules"), py::arg("seed"), py::arg("decisions"), py::arg("record") = true,
      "Benchmark hook: random play timed in C++ (apply, legal actions, copies).");
  t.def(
      "time_worlds",
      [](const GameState& g, int n, std::uint64_t seed) {
        if (n < 1) throw GameError("time_worlds: n must be >= 1");
        if (g.match_over()) throw GameError("time_worlds: the match is over");
        const Guard guard(&g);
        WorldTiming t;
        {
          py::gil_scoped_release nogil;  // g is locked; the timing touches only C++ values
          t = time_worlds(g, n, seed);
        }
        py::dict d;
        d["world_ns"] = t.world_ns;
        d["view_ns"] = t.view_ns;
        return d;
      },
      py::arg("game"), py::arg("n"), py::arg("seed") = 0,
      "Benchmark hook: ns per world made from the view of the seat to act (sample_world_hands + "
      "make_world), and per view (information_state).");
  t.def(
      "time_sampling",
      [](const GameState& g, int n, std::uint64_t seed) {
        if (n < 1) throw GameError("time_sampling: n must be >= 1");
        const Guard guard(&g);
        py::gil_scoped_release nogil;  // g is locked; the timing touches only C++ values
        return time_sampling(g, n, seed);
      },
      py::arg("game"), py::arg("n"), py::arg("seed") = 0,
      "Benchmark hook: ns per sampled world (hands).");
  t.def(
      "time_decisions",
      [](const Rules& rules, const std::string& policy, const std::string& opponent,
         std::uint64_t seed, int rounds) {
        if (rounds < 1 || rounds > 100000) throw GameError("time_decisions: rounds in [1, 100000]");
        const PolicyId k = parse_policy(policy), o = parse_policy(opponent);
        std::vector<double> ns;
        {
          py::gil_scoped_release nogil;  // C++ values only
          ns = time_decisions(rules, k, o, seed, rounds);
        }
        py::array_t<double> out(py::ssize_t(ns.size()));
        std::copy(ns.begin(), ns.end(), out.mutable_data());
        return out;
      },
      py::arg("rules"), py::arg("policy"), py::arg("opponent"), py::arg("seed"), py::arg("rounds"),
      "Benchmark hook: ns (steady clock) of each non-forced decision of `policy` (seats 0 2 4).");
  t.def(
      "time_rollouts",
      [](const GameState& g, int n, const std::string& policy) {
        if (n < 1) throw GameError("time_rollouts: n must be >= 1");
        const PolicyId k = parse_policy(policy);
        const Guard guard(&g);
        py::gil_scoped_release nogil;  // g is locked; the rollouts run on copies of it
        return time_rollouts(g, n, k);
      },
      py::arg("game"), py::arg("n"), py::arg("policy") = "heuristic",
      "Benchmark hook: ns per rollout to the end of the round from the game's state.");
  bind_work_loops(t);
  bind_network_timers(t);
}

}  // namespace daguai::bind
