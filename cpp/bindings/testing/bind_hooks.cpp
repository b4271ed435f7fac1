// _core._testing, the views into the engine's internals that only tests read: the heuristic's
// plan, the sampler's worlds by method, the constraint model's verdict on a world, and the
// weights and worlds of inference from play.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "convert.hpp"
#include "game/game_args.hpp"

#include <daguai/beliefs/constraints.hpp>
#include <daguai/beliefs/sampler.hpp>
#include <daguai/catalog/catalog.hpp>
#include <daguai/game/infostate.hpp>
#include <daguai/game/position.hpp>
#include <daguai/players/heuristic.hpp>
#include <daguai/players/planner.hpp>
#include <daguai/players/play_out.hpp>
#include <daguai/players/rule_helpers.hpp>
#include <daguai/search/inference.hpp>

namespace daguai::bind {

namespace {

// Inference from play (search/inference.hpp): the weights of uniform worlds, the resampled ones.
// The model of play of an inference setting, its values checked; GameError for "learned" at a
// table without a learned network.
PlayModel play_model(const InfoState& v, const std::string& inference, int worlds, double noise,
                     double temperature) {
  SearchConfig cfg = search_config();
  cfg.inference = parse_inference(inference);
  check_inference_settings(worlds, noise, temperature);
  cfg.inference_noise = noise;
  cfg.inference_temperature = temperature;
  check_learned_inference(cfg.inference, v.pub.rules.table);
  return cfg.play_model();
}

void bind_inference(py::module_& m) {
  m.def(
      "inference_weights",
      [](const InfoState& v, std::int64_t n, std::uint64_t seed, double noise,
         const std::string& inference, double temperature) {
        if (n <= 0) throw GameError("sample_worlds: n must be >= 1, got " + std::to_string(n));
        const PlayModel model = play_model(v, inference, 1, noise, temperature);
        py::array_t<double> out(py::ssize_t{n});
        double* o = out.mutable_data();
        {
          py::gil_scoped_release nogil;  // writes only `out`, owned here
          const Constraints c(v);
          PolicyScratch scratch;
          for (std::int64_t k = 0; k < n; ++k)
            o[k] = play_log_likelihood(v, sample_world_hands(c, seed, std::uint64_t(k)), model,
                                       std::uint64_t(k), scratch);
        }
        return out;
      },
      py::arg("view"), py::arg("n"), py::arg("seed"), py::arg("noise") = kHeuristicNoise,
      py::arg("inference") = "heuristic", py::arg("temperature") = kLearnedTemperature,
      "Log-likelihood of the others' plays this round (the model of `inference`) in worlds "
      "0..n-1 of sample_worlds(view, n, seed).");
  m.def(
      "inferred_hands_array",
      [](const InfoState& v, std::int64_t n, std::uint64_t seed, const std::string& inference,
         int worlds, double noise, double temperature) {
        if (n <= 0) throw GameError("sample_worlds: n must be >= 1, got " + std::to_string(n));
        const PlayModel model = play_model(v, inference, worlds, noise, temperature);
        const int seats = v.table().seats;
        py::array_t<std::uint8_t> out({py::ssize_t(n), py::ssize_t(seats), py::ssize_t(kNumFaces)});
        std::uint8_t* o = out.mutable_data();
        {
          py::gil_scoped_release nogil;  // writes only `out`, owned here
          const Constraints c(v);
          PolicyScratch scratch;
          for (std::int64_t k = 0; k < n; ++k) {
            const Hands h =
                inferred_world_hands(v, c, model, worlds, seed, std::uint64_t(k), scratch);
            for (int s = 0; s < seats; ++s)
              for (int f = 0; f < kNumFaces; ++f)
                o[(k * seats + s) * kNumFaces + f] = std::uint8_t(h[std::size_t(s)].count(f));
          }
        }
        return out;
      },
      py::arg("view"), py::arg("n"), py::arg("seed"), py::arg("inference"),
      py::arg("inference_worlds") = kInferenceWorlds, py::arg("noise") = kHeuristicNoise,
      py::arg("temperature") = kLearnedTemperature,
      "Face counts (n x seats x 54) of the worlds 0..n-1 a search with this inference plays.");
}

}  // namespace

namespace {

// One hand per seat of the view's table, as the engine's array.
Hands hands_of(const InfoState& v, const std::vector<Cards>& hands) {
  if (hands.size() != std::size_t(v.table().seats))
    throw GameError("one hand per seat (" + std::to_string(v.table().seats) + ")");
  Hands h{};
  for (int s = 0; s < v.table().seats; ++s) h[std::size_t(s)] = hands[std::size_t(s)];
  return h;
}

void bind_worlds(py::module_& m) {
  m.def(
      "sample_hands_array",
      [](const InfoState& v, std::int64_t n, std::uint64_t seed, int method) {
        if (n <= 0) throw GameError("sample_worlds: n must be >= 1, got " + std::to_string(n));
        if (method < 0 || method > 2) throw GameError("method is 0 (auto), 1 (reject), 2 (chain)");
        const int seats = v.table().seats;  // R18: n x seats x 54
        py::array_t<std::uint8_t> out({py::ssize_t(n), py::ssize_t(seats), py::ssize_t(kNumFaces)});
        std::uint8_t* o = out.mutable_data();
        {
          py::gil_scoped_release nogil;  // writes only `out`, owned here
          const Constraints c(v);
          for (std::int64_t k = 0; k < n; ++k) {
            const auto h = sample_world_hands(c, seed, std::uint64_t(k), SampleMethod(method));
            for (int s = 0; s < seats; ++s)
              for (int f = 0; f < kNumFaces; ++f)
                o[(k * seats + s) * kNumFaces + f] = std::uint8_t(h[std::size_t(s)].count(f));
          }
        }
        return out;
      },
      py::arg("view"), py::arg("n"), py::arg("seed"), py::arg("method") = 0,
      "Face counts (n x seats x 54) of the hands of worlds 0..n-1 (method 1/2: one stage).");
  m.def(
      "consistent",
      [](const InfoState& v, const std::vector<Cards>& hands) {
        return consistent(v, hands_of(v, hands));
      },
      py::arg("view"), py::arg("hands"), "Whether the hands agree with everything the view knows.");
  m.def(
      "world_violation",
      [](const InfoState& v, const std::vector<Cards>& hands) {
        return Constraints(v).violation(hands_of(v, hands));
      },
      py::arg("view"), py::arg("hands"),
      "The first fact of the view's constraint model the hands break ('' when none).");
  m.def(
      "world_game",
      [](const InfoState& v, const std::vector<Cards>& hands) {
        const Position p = world_position(v, hands_of(v, hands));
        return GameState(v.pub.rules, p, true);
      },
      py::arg("view"), py::arg("hands"),
      "The world loaded through the position validator (PositionError if it refuses it).");
}

}  // namespace

void bind_testing_hooks(py::module_& t) {
  t.def(
      "heuristic_plan",
      [](py::handle hand, py::handle level, const Rules& rules) {
        const HeuristicPlan p =
            heuristic_plan(to_cards(hand, table_of(rules), "hand"), to_level(level), rules);
        return py::make_tuple(py::cast(p.plays), p.minimal);
      },
      py::arg("hand"), py::arg("level"), py::arg("rules"),
      "The heuristic policy's plan for the hand (its plays), and whether it claims to be minimal.");
  t.def(
      "heuristic_plan_size",
      [](py::handle hand, py::handle level, const Rules& rules) {
        return heuristic_plan_size(to_cards(hand, table_of(rules), "hand"), to_level(level), rules);
      },
      py::arg("hand"), py::arg("level"), py::arg("rules"),
      "The number of plays of the heuristic's plan for the hand, counted without writing them.");
  t.def(
      "plan_updates",
      [](const py::sequence& hands, const py::sequence& levels, const Rules& rules, bool exact) {
        if (py::len(hands) != py::len(levels)) throw py::value_error("one level per hand");
        std::vector<Cards> hs;
        std::vector<int> lv;
        for (std::size_t i = 0; i < py::len(hands); ++i) {
          hs.push_back(to_cards(hands[i], table_of(rules), "hand"));
          lv.push_back(to_level(levels[i]));
        }
        py::list out;
        std::vector<Play> plan, scratch;
        PlanMemo memo;
        for (std::size_t i = 0; i < hs.size(); ++i) {
          update_plan(hs[i], lv[i], rules, exact, &plan, &memo);
          if (exact)
            exact_plan(hs[i], lv[i], rules, &scratch);
          else
            plan_hand(hs[i], lv[i], rules, &scratch);
          out.append(py::make_tuple(py::cast(plan), py::cast(scratch)));
        }
        return out;
      },
      py::arg("hands"), py::arg("levels"), py::arg("rules"), py::arg("exact"),
      "update_plan over a sequence of hands (one plan and memo kept throughout) beside the plan "
      "of each hand made from scratch: a list of (updated, from scratch) plays.");
  t.def(
      "heuristic_plan_trace",
      [](const Rules& rules, std::uint64_t seed, int games, std::size_t rounds, bool exact,
         unsigned heuristic_seats) {
        // The heuristic's seats keep their scratch from game to game (as a batch's opponents
        // do, BatchEnv), the other seats play random; at every decision of a heuristic seat in
        // the play phase, the plan it decided from is compared with the plan made from scratch.
        std::array<PolicyScratch, kSeats> scratch;
        py::list mismatches;
        std::size_t checked = 0;
        std::vector<Play> fresh;
        for (int game = 0; game < games; ++game) {
          GameState g(rules, seed, std::uint64_t(game), true, false);
          std::array<Rng, kSeats> rng = policy_streams(seed, std::uint64_t(game));
          while (!g.match_over() && g.results().size() < rounds) {
            const int seat = g.current_player();
            PolicyScratch& s = scratch[std::size_t(seat)];
            const PolicyView view(g);
            Action a;
            if ((heuristic_seats >> seat) & 1) {
              const Cards hand = g.hand(seat);
              a = exact ? heuristic_exact_action(view, rng[std::size_t(seat)], s)
                        : heuristic_action(view, rng[std::size_t(seat)], s);
              if (g.phase() == Phase::kPlay) {
                if (exact)
                  exact_plan(hand, g.level_rank(), rules, &fresh);
                else
                  plan_hand(hand, g.level_rank(), rules, &fresh);
                ++checked;
                if (s.plan != fresh)
                  mismatches.append(
                      py::make_tuple(hand, g.level_rank(), py::cast(s.plan), py::cast(fresh)));
              }
            } else {
              a = decide(PolicyId::kRandom, view, rng[std::size_t(seat)], s);
            }
            g.apply(a);
          }
        }
        return py::make_tuple(checked, mismatches);
      },
      py::arg("rules"), py::arg("seed"), py::arg("games"), py::arg("rounds"), py::arg("exact"),
      py::arg("heuristic_seats"),
      "Plays `games` matches of `rounds` rounds (heuristic on the seats of the mask, random on "
      "the others; each seat's scratch kept across the games) and compares, at every heuristic "
      "decision in play, its plan with the plan made from scratch: (decisions checked, "
      "[(hand, level, kept plan, fresh plan) for each that differs]).");
  t.def(
      "cheapest_follow",
      [](py::handle hand, py::handle level, const Rules& rules, const Play& top) -> py::object {
        PlayList scratch;
        Play out;
        if (!cheapest_follow(to_cards(hand, table_of(rules), "hand"), to_level(level), rules, top,
                             &scratch, &out))
          return py::none();
        return py::cast(out);
      },
      py::arg("hand"), py::arg("level"), py::arg("rules"), py::arg("top"),
      "The heuristic's cheapest legal follow to top (rule_helpers.hpp), or None.");
  bind_worlds(t);
  bind_inference(t);
}

}  // namespace daguai::bind
