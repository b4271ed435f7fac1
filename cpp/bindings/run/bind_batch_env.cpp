// BatchEnv (cpp/engine/run/batch_env.hpp): N games stepped per call for learners.
#include <pybind11/stl.h>

#include "convert.hpp"
#include "game/game_args.hpp"
#include "guard.hpp"

#include <daguai/catalog/catalog.hpp>
#include <daguai/run/batch_env.hpp>

namespace daguai::bind {

namespace {

Start to_start(int start) {
  if (start != 0 && start != 1)
    throw GameError("start must be 0 (fresh) or 1 (random), got " + std::to_string(start));
  return Start(start);
}

struct PyBatchEnv {
  BatchEnv env;
  bool abstract;
  py::array_t<float> obs;
  py::array_t<std::int8_t> mask;
  py::array_t<float> final_obs;
  py::array_t<float> rewards;
  py::array_t<std::uint8_t> done;
  py::array_t<std::int32_t> to_act;

  PyBatchEnv(int n, const Rules& rules, std::uint64_t seed, bool matches, bool auto_pass,
             bool abstract_actions, int start)
      : env(n, rules, seed, matches, auto_pass, to_start(start)),
        abstract(abstract_actions),
        obs({py::ssize_t(n), py::ssize_t(kObsSize)}),
        mask({py::ssize_t(n), py::ssize_t(kNumAbstract)}),
        final_obs({py::ssize_t(n), py::ssize_t(kObsSize)}),
        rewards({py::ssize_t(n), py::ssize_t(table_of(rules).seats)}),
        done(py::ssize_t(n)),
        to_act(py::ssize_t(n)) {
    std::fill(rewards.mutable_data(), rewards.mutable_data() + rewards.size(), 0.0f);
    std::fill(done.mutable_data(), done.mutable_data() + n, 0);
    std::fill(final_obs.mutable_data(), final_obs.mutable_data() + std::size_t(n) * kObsSize, 0.0f);
  }
  void observe() {
    float* o = obs.mutable_data();
    std::int8_t* m = abstract ? mask.mutable_data() : nullptr;
    std::int32_t* t = to_act.mutable_data();
    py::gil_scoped_release nogil;  // writes only buffers owned by this object
    env.observe(o, m, t);
  }
  py::tuple outputs() {
    return py::make_tuple(obs, abstract ? py::object(mask) : py::object(py::none()), rewards, done,
                          to_act);
  }
};

}  // namespace

namespace {

// BatchEnv's set-up: its size, opponents, start seat, truncation, action space.
void bind_env_setup(py::class_<PyBatchEnv>& env) {
  env.def(py::init<int, const Rules&, std::uint64_t, bool, bool, bool, int>(), py::arg("n"),
          py::arg("rules"), py::arg("seed") = 0, py::arg("matches") = false,
          py::arg("auto_pass") = false, py::arg("abstract") = true, py::arg("start") = 0)
      .def_property_readonly("start",
                             [](const PyBatchEnv& b) {
                               const Guard guard(&b);
                               return int(b.env.start());
                             })
      .def_property_readonly(
          "final_obs",
          [](const PyBatchEnv& b) {
            const Guard guard(&b);
            return b.final_obs;
          },
          "float32 (n, OBS_SIZE): row i is the last state of the episode that ended at the last "
          "step")
      .def(
          "truncate",
          [](PyBatchEnv& b, py::handle i_obj) {
            const Guard guard(&b);
            const int i = int(to_int<GameError>(i_obj, "environment", 0, b.env.size() - 1));
            b.env.truncate(i);
            b.observe();
            return b.outputs();
          },
          py::arg("i"),
          "End environment i's episode now and start its next one; returns the outputs.")
      .def_property_readonly("n",
                             [](const PyBatchEnv& b) {
                               const Guard guard(&b);
                               return b.env.size();
                             })
      .def_property_readonly("abstract",
                             [](const PyBatchEnv& b) {
                               const Guard guard(&b);
                               return b.abstract;
                             })
      .def(
          "set_opponents",
          [](PyBatchEnv& b, const std::vector<py::object>& names) {
            const Guard guard(&b);
            const int seats = b.env.seats();
            if (names.size() != std::size_t(seats))
              throw GameError("set_opponents needs " + std::to_string(seats) +
                              " entries (None = learner)");
            std::array<int, kSeats> kinds{};
            kinds.fill(-1);
            for (int s = 0; s < seats; ++s)
              kinds[std::size_t(s)] =
                  names[std::size_t(s)].is_none()
                      ? -1
                      : int(parse_policy(to_text(names[std::size_t(s)], "opponent")));
            {
              py::gil_scoped_release nogil;  // touches only this object's games
              b.env.set_opponents(kinds);
            }
            std::fill(b.rewards.mutable_data(), b.rewards.mutable_data() + b.rewards.size(), 0.0f);
            std::fill(b.done.mutable_data(), b.done.mutable_data() + b.env.size(), 0);
          },
          py::arg("names"),
          "Built-in opponents: a policy name per seat, None on the learner's seats; resets.")
      .def_property_readonly("episodes_done", [](const PyBatchEnv& b) {
        const Guard guard(&b);
        return b.env.episodes_done();
      });
}

// Stepping N games per call (GIL released): reset, observe, step.
void bind_env_stepping(py::class_<PyBatchEnv>& env) {
  env.def(
         "reset",
         [](PyBatchEnv& b) {
           const Guard guard(&b);
           {
             py::gil_scoped_release nogil;  // touches only this object's games
             b.env.reset();
           }
           std::fill(b.rewards.mutable_data(), b.rewards.mutable_data() + b.rewards.size(), 0.0f);
           std::fill(b.done.mutable_data(), b.done.mutable_data() + b.env.size(), 0);
           b.observe();
           return b.outputs();
         },
         "Restart every game; returns (obs, mask, rewards, done, to_act).")
      .def(
          "observe",
          [](PyBatchEnv& b) {
            const Guard guard(&b);
            b.observe();
            return b.outputs();
          },
          "The current (obs, mask, rewards, done, to_act) without stepping.")
      .def(
          "step",
          [](PyBatchEnv& b, py::object actions) {
            const Guard guard(&b);
            py::array raw = py::array::ensure(actions);
            if (!raw || raw.ndim() != 1 || raw.shape(0) != b.env.size())
              throw GameError("BatchEnv.step needs a 1-d array of " + std::to_string(b.env.size()) +
                              " actions");
            const char kind = raw.dtype().kind();
            if (kind != 'i' && kind != 'u')
              throw GameError("BatchEnv.step needs integer actions, got dtype " +
                              std::string(py::str(raw.dtype())));
            std::vector<std::int32_t> acts(std::size_t(b.env.size()));
            constexpr std::int64_t kLimit = std::int64_t(1)
                                            << 30;  // far above any legal index or id
            if (kind == 'u') {  // read unsigned values as given (no wrap to negative)
              auto u64 =
                  py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(
                      raw);
              for (int i = 0; i < b.env.size(); ++i) {
                const std::uint64_t v = u64.at(i);
                if (v > std::uint64_t(kLimit))
                  throw GameError("environment " + std::to_string(i) + ": action " +
                                  std::to_string(v) + " is out of range");
                acts[std::size_t(i)] = std::int32_t(v);
              }
            } else {
              auto a64 =
                  py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(raw);
              for (int i = 0; i < b.env.size(); ++i) {
                const std::int64_t v = a64.at(i);
                if (v < -1 || v > kLimit)
                  throw GameError("environment " + std::to_string(i) + ": action " +
                                  std::to_string(v) + " is out of range");
                acts[std::size_t(i)] = std::int32_t(v);
              }
            }
            float* r = b.rewards.mutable_data();
            std::uint8_t* d = b.done.mutable_data();
            float* f = b.final_obs.mutable_data();
            {
              py::gil_scoped_release nogil;  // actions copied; writes only this object's buffers
              b.env.step(acts.data(), b.abstract, r, d, f);
            }
            b.observe();
            return b.outputs();
          },
          py::arg("actions"),
          "Apply one action per game; returns (obs, mask, rewards, done, to_act).");
}

// Looking into one environment: its candidates, legal actions, game.
void bind_env_inspection(py::class_<PyBatchEnv>& env) {
  env.def(
         "candidates",
         [](const PyBatchEnv& b) {
           const Guard guard(&b);
           std::vector<float> feats;
           py::array_t<std::int64_t> offsets(py::ssize_t(b.env.size() + 1));
           b.env.candidates(&feats, offsets.mutable_data());
           const py::ssize_t rows = py::ssize_t(feats.size() / kCandFeatures);
           py::array_t<float> out({rows, py::ssize_t(kCandFeatures)});
           if (!feats.empty())
             std::memcpy(out.mutable_data(), feats.data(), feats.size() * sizeof(float));
           return py::make_tuple(out, offsets);
         },
         "Candidate features of every game's legal actions: (features, offsets[n + 1]).")
      .def(
          "legal_actions",
          [](const PyBatchEnv& b, int i) {
            const Guard guard(&b);
            if (i < 0 || i >= b.env.size()) throw GameError("no environment " + std::to_string(i));
            return b.env.legal(i);
          },
          py::arg("i"), "The legal actions of game i (a list of Action).")
      .def(
          "game_index",
          [](const PyBatchEnv& b, int i) {
            const Guard guard(&b);
            if (i < 0 || i >= b.env.size()) throw GameError("no environment " + std::to_string(i));
            return b.env.game_index(i);
          },
          py::arg("i"), "The game index of environment i's current episode (Game(seed, game=...)).")
      .def(
          "game",
          [](const PyBatchEnv& b, int i) {
            const Guard guard(&b);
            if (i < 0 || i >= b.env.size()) throw GameError("no environment " + std::to_string(i));
            return GameState(b.env.game(i));
          },
          py::arg("i"), "A copy of environment i's game state.");
}

}  // namespace

namespace {

// BatchEnv, with its validated pickling.
void bind_batch_env(py::module_& m) {
  py::class_<PyBatchEnv> env(m, "BatchEnv", R"doc(N games stepped per call in C++ (GIL released).

step(actions) takes an int array of N actions (abstract ids, or indices into each game's
legal actions with abstract=False) and returns (obs, mask, rewards, done, to_act). The
arrays are reused by the next call: copy what you keep.)doc");
  bind_env_setup(env);
  bind_env_stepping(env);
  bind_env_inspection(env);
  // Pickled (for subprocess vector environments) as its constructor's arguments, the saved
  // state of BatchEnv::save (opponents by name, each environment's episode and the learner's
  // decisions in it) and the last outputs (rewards, done, final_obs), through a module
  // function as PolicyRunner is; the state is checked while it is replayed.
  m.def(
      "_batch_env_from_state",
      [](py::args a) {
        if (a.size() != 14) throw GameError("corrupt BatchEnv state: expected 14 fields");
        int n = 0, start = 0;
        std::uint64_t seed = 0;
        bool matches = false, auto_pass = false, abstract = true;
        py::object rules_obj;
        BatchEnv::Saved saved;
        std::vector<py::object> names;
        try {
          n = a[0].cast<int>();
          rules_obj = py::type::of<Rules>()(**a[1].cast<py::dict>());  // _core.core.CoreRules
          seed = a[2].cast<std::uint64_t>();
          matches = a[3].cast<bool>();
          auto_pass = a[4].cast<bool>();
          abstract = a[5].cast<bool>();
          start = a[6].cast<int>();
          names = a[7].cast<std::vector<py::object>>();
          saved.episodes_done = a[8].cast<std::int64_t>();
          saved.episodes = a[9].cast<std::vector<std::int64_t>>();
          saved.decisions = a[10].cast<std::vector<std::vector<std::int32_t>>>();
        } catch (const py::cast_error&) {
          throw GameError("corrupt BatchEnv state: a field has the wrong type");
        } catch (const py::error_already_set& e) {
          // the rules' own check (a ValueError such as CardError) stands; anything else (rules
          // that are not a dict: dict(None) is a TypeError) is named here
          if (e.matches(PyExc_ValueError)) throw;
          throw GameError("corrupt BatchEnv state: bad rules (" + shown(a[1]) +
                          "): " + std::string(e.what()).substr(0, 200));
        }
        if (n < 1 || n > (1 << 20)) throw GameError("corrupt BatchEnv state: n out of range");
        const Rules rules = rules_obj.cast<Rules>();
        const int seats = table_of(rules).seats;
        if (names.size() != std::size_t(seats))
          throw GameError("corrupt BatchEnv state: " + std::to_string(seats) +
                          " opponent entries expected");
        saved.opponents.fill(-1);
        for (int s = 0; s < seats; ++s) {
          const py::object& x = names[std::size_t(s)];
          if (x.is_none()) continue;
          if (!py::isinstance<py::str>(x))
            throw GameError("corrupt BatchEnv state: an opponent is not a policy name");
          try {  // to_text: a lone surrogate is a CardError, not pybind11's "Unable to cast"
            saved.opponents[std::size_t(s)] = int(parse_policy(to_text(x, "opponent")));
          } catch (const std::exception& e) {
            throw GameError("corrupt BatchEnv state: seat " + std::to_string(s) + "'s opponent " +
                            shown(x) + " is not a policy name (" + e.what() + ")");
          }
        }
        // Every size is checked before the n environments are built: a state that claims
        // n = 2**20 with the lists of 3 is refused at once, not after building a million games.
        const std::size_t want = std::size_t(n);
        if (saved.episodes.size() != want || saved.decisions.size() != want)
          throw GameError("corrupt BatchEnv state: n is " + std::to_string(n) + " but it holds " +
                          std::to_string(saved.episodes.size()) + " episode numbers and " +
                          std::to_string(saved.decisions.size()) + " decision lists");
        const auto rewards =
            py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(a[11]);
        const auto done =
            py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>::ensure(a[12]);
        const auto final_obs =
            py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(a[13]);
        if (!rewards || !done || !final_obs ||
            std::size_t(rewards.size()) != want * std::size_t(seats) ||
            std::size_t(done.size()) != want || std::size_t(final_obs.size()) != want * kObsSize)
          throw GameError("corrupt BatchEnv state: output arrays of the wrong size for n = " +
                          std::to_string(n));
        auto b = std::make_unique<PyBatchEnv>(n, rules, seed, matches, auto_pass, abstract, start);
        {
          py::gil_scoped_release nogil;  // touches only the new object
          b->env.restore(saved);
        }
        std::copy_n(rewards.data(), rewards.size(), b->rewards.mutable_data());
        std::copy_n(done.data(), done.size(), b->done.mutable_data());
        std::copy_n(final_obs.data(), final_obs.size(), b->final_obs.mutable_data());
        return b;
      },
      "Unpickling helper: a BatchEnv replayed from its saved state.");
  const py::handle env_from_state = m.attr("_batch_env_from_state");
  m.attr("BatchEnv").attr("__reduce__") = py::cpp_function(
      [env_from_state](const PyBatchEnv& b) {
        const Guard guard(&b);
        const BatchEnv::Saved s = b.env.save();
        py::list names;
        for (int p = 0; p < b.env.seats(); ++p) {
          const int k = s.opponents[std::size_t(p)];
          if (k < 0)
            names.append(py::none());
          else
            names.append(py::str(policy_name(PolicyId(k))));
        }
        py::list decisions;
        for (const auto& d : s.decisions) decisions.append(py::cast(d));
        auto copy = [](const auto& arr) { return py::array(arr.request()).attr("copy")(); };
        return py::make_tuple(
            env_from_state,
            py::make_tuple(b.env.size(), py::cast(b.env.rules()).attr("to_dict")(), b.env.seed(),
                           b.env.matches(), b.env.auto_pass(), b.abstract, int(b.env.start()),
                           names, s.episodes_done, py::cast(s.episodes), decisions, copy(b.rewards),
                           copy(b.done), copy(b.final_obs)));
      },
      py::name("__reduce__"), py::is_method(m.attr("BatchEnv")));
  harden<PyBatchEnv>(m, "BatchEnv");
}

}  // namespace

void bind_batch_envs(py::module_& m) { bind_batch_env(m); }

}  // namespace daguai::bind
