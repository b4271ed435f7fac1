// The learned player (engine/learned/learned.hpp): the network, its features, the model registry
// and the self-play generator of the trainer's actors (python/daguai/learn/).
#include <pybind11/stl.h>

#include "convert.hpp"
#include "guard.hpp"

#include <daguai/catalog/catalog.hpp>
#include <daguai/learned/learned.hpp>
#include <daguai/learned/models.hpp>
#include <daguai/run/rollout.hpp>
#include <daguai/run/self_play.hpp>

namespace daguai::bind {

namespace {

py::array_t<float> float_rows(const std::vector<float>& v, std::size_t cols) {
  const py::ssize_t rows = py::ssize_t(cols ? v.size() / cols : 0);
  py::array_t<float> a({rows, py::ssize_t(cols)});
  if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), v.size() * sizeof(float));
  return a;
}

template <class T>
py::array_t<T> column(const std::vector<T>& v) {
  py::array_t<T> a(py::ssize_t(v.size()));
  if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), v.size() * sizeof(T));
  return a;
}

// A C-contiguous float32 array of exactly `cols` columns (rows >= 0; cols only for 1-d).
py::array_t<float, py::array::c_style | py::array::forcecast> floats_arg(py::handle obj,
                                                                         const char* what, int ndim,
                                                                         int cols) {
  auto a = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!a) throw ModelError(std::string(what) + " must be an array of numbers");
  if (a.ndim() != ndim || a.shape(ndim - 1) != cols)
    throw ModelError(std::string(what) + " must have shape " + (ndim == 1 ? "(" : "(n, ") +
                     std::to_string(cols) + ")");
  return a;
}

}  // namespace

namespace {

// The Q-network of a .dgn file. Immutable after construction: no lock needed (guard.hpp),
// safe from any thread.
void bind_network(py::module_& m) {
  py::class_<Network>(m, "Network",
                      "A Q-network read from a .dgn file (engine/learned/network.hpp).")
      .def_static(
          "from_bytes",
          [](py::handle b) {
            if (!PyBytes_Check(b.ptr())) throw ModelError("model bytes must be bytes");
            return Network::from_bytes(b.cast<std::string>());
          },
          py::arg("data"), "Parse .dgn bytes (ModelError names the first problem).")
      .def_static(
          "from_file", [](py::handle p) { return Network::from_file(to_text(p, "path")); },
          py::arg("path"), "Read a .dgn file.")
      .def(
          "to_bytes", [](const Network& n) { return py::bytes(n.to_bytes()); },
          "The .dgn bytes (from_bytes(to_bytes()) is identical).")
      .def_property_readonly("widths", &Network::widths, "Hidden layer widths.")
      .def_property_readonly("meta", &Network::meta, "The file's metadata (JSON text).")
      .def_property_readonly("margin", &Network::margin, "The switching margin (learned_pick).")
      .def_property_readonly("parameters", &Network::parameters, "Number of weights and biases.")
      .def(
          "evaluate",
          [](const Network& n, py::handle state, py::handle actions, py::handle quantized) {
            if (!PyBool_Check(quantized.ptr())) throw py::type_error("quantized must be a bool");
            const bool integer = quantized.ptr() == Py_True;
            auto s = floats_arg(state, "state", 1, kStateFeatures);
            auto a = floats_arg(actions, "actions", 2, kActionFeatures);
            py::array_t<float> q(a.shape(0));
            {
              py::gil_scoped_release nogil;  // reads the arrays (kept alive here), writes q
              if (integer)
                n.evaluate(s.data(), a.data(), int(a.shape(0)), q.mutable_data());
              else
                n.evaluate_float(s.data(), a.data(), int(a.shape(0)), q.mutable_data());
            }
            return q;
          },
          py::arg("state"), py::arg("actions"), py::kw_only(), py::arg("quantized") = false,
          "Q of each action row: state float32[STATE_FEATURES], actions float32[n, "
          "ACTION_FEATURES]. The float pass (the trainer's reference) by default; "
          "quantized=True gives the integer pass the learned player plays.");
  harden<Network>(m, "Network");
}

// Features, the built-in model, policy ids and self-play for the learned policy.
void bind_learned_play(py::module_& m) {
  m.def(
      "learn_features",
      [](const GameState& g) {
        const Guard guard(&g);
        if (g.match_over()) throw GameError("the match is over: no decision");
        const PolicyView view(g);
        PolicyScratch scratch;
        Rng unused(0);
        const Action h = decide(PolicyId::kHeuristic, view, unused, scratch);
        std::vector<float> state(kStateFeatures);
        encode_state_features(view.info(), state.data());
        Candidates c;
        if (g.phase() == Phase::kPlay) learned_candidates(view, h, scratch, &c);
        py::list actions;
        for (const Action& a : c.actions) actions.append(a);
        return py::make_tuple(column(state), actions, float_rows(c.features, kActionFeatures),
                              c.heuristic);
      },
      py::arg("game"),
      "(state features, candidates, action features, index of the heuristic's candidate) of "
      "the seat to act; no candidates outside the play phase.");

  m.def(
      "_dgn_hash",
      [](py::handle b) {
        if (!PyBytes_Check(b.ptr())) throw ModelError("_dgn_hash takes bytes");
        const std::string s = b.cast<std::string>();
        return dgn_hash(s.data(), s.size());
      },
      py::arg("data"), "The .dgn closing hash (FNV-1a, 64 bits) of the bytes.");
  m.def(
      "_set_builtin_model",
      [](py::handle p, py::handle table) {
        const std::string name = to_text(table, "table");
        const Table* t = table_named(name.c_str());
        if (!t) throw GameError("_set_builtin_model: unknown table '" + name + "'");
        set_builtin_model(to_text(p, "path"), t->kind);
      },
      py::arg("path"), py::arg("table") = "6p3d",
      "The file behind the policy name 'learned' at a table (R18; read on first use).");
  m.def(
      "policy_id", [](py::handle name) { return int(parse_policy(to_text(name, "policy"))); },
      py::arg("name"),
      "The id of a policy name (a built-in name, 'learned' or a .dgn path: the model is "
      "loaded); IllegalActionError for an unknown name, ModelError for a bad file.");

  m.def(
      "_self_play",
      [](const Rules& rules, std::uint64_t seed, std::uint64_t first_game, std::int64_t n,
         const std::vector<std::string>& policies, const std::vector<bool>& record, double epsilon,
         double branch, bool random_start, const std::vector<std::string>& continuation) {
        const Table& tb = table_of(rules);
        if (policies.size() != std::size_t(tb.seats) || record.size() != std::size_t(tb.seats))
          throw GameError("_self_play needs one policy and one record flag per seat");
        if (n < 0 || n > (std::int64_t(1) << 24)) throw GameError("_self_play: n out of range");
        if (!(epsilon >= 0 && epsilon <= 1))
          throw GameError("_self_play: epsilon must be in [0, 1]");
        if (!(branch >= 0 && branch <= 1)) throw GameError("_self_play: branch must be in [0, 1]");
        SelfPlayConfig cfg;
        cfg.rules = rules;
        cfg.seed = seed;
        cfg.first_game = first_game;
        cfg.n = n;
        cfg.epsilon = epsilon;
        cfg.branch = branch;
        cfg.random_start = random_start;
        if (continuation.empty() || continuation.size() > 64)
          throw GameError("_self_play: the continuation pool has 1 to 64 policies");
        cfg.continuation.clear();
        for (const std::string& name : continuation) cfg.continuation.push_back(parse_policy(name));
        for (int s = 0; s < tb.seats; ++s) {
          cfg.policies[std::size_t(s)] = parse_policy(policies[std::size_t(s)]);
          cfg.record[std::size_t(s)] = record[std::size_t(s)];
        }
        Frames f;
        std::int64_t rounds = 0;
        {
          py::gil_scoped_release nogil;  // cfg is a C++ value; f is owned by this call
          self_play(cfg, &f, &rounds);
        }
        py::dict d;
        d["state"] = float_rows(f.state, kStateFeatures);
        d["action"] = float_rows(f.action, kActionFeatures);
        d["target"] = column(f.target);
        d["score"] = column(f.score);
        d["game"] = column(f.game);
        d["seat"] = column(f.seat);
        d["rounds"] = rounds;
        return d;
      },
      py::arg("rules"), py::arg("seed"), py::arg("first_game"), py::arg("n"), py::arg("policies"),
      py::arg("record"), py::arg("epsilon"), py::arg("branch") = 1.0,
      py::arg("random_start") = true,
      py::arg("continuation") = std::vector<std::string>{"heuristic"},
      "Self-play rounds for the trainer: the recorded seats' branch pairs (frames 2i, 2i+1: "
      "state, action, target, score, game, seat) as numpy arrays, and the rounds played. "
      "The branches are played out by each seat's continuation policy, drawn per game from "
      "`continuation` (policy names or .dgn paths; no searches).");
}

}  // namespace

void bind_learn(py::module_& m) {
  py::register_exception<ModelError>(m, "ModelError", PyExc_ValueError);
  m.attr("LEARN_VERSION") = kLearnVersion;
  m.attr("STATE_FEATURES") = kStateFeatures;
  m.attr("ACTION_FEATURES") = kActionFeatures;
  m.attr("MAX_MODELS") = kMaxModels;

  bind_network(m);
  bind_learned_play(m);
}

}  // namespace daguai::bind
