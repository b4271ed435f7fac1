// _core.learned: the learned layer (cpp/engine/learned/): the network of a .dgn file, its
// features and the shipped models' files.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>

#include "convert.hpp"
#include "game/game_args.hpp"
#include "guard.hpp"

#include <daguai/learned/features.hpp>
#include <daguai/learned/format.hpp>
#include <daguai/learned/learned.hpp>
#include <daguai/learned/models.hpp>
#include <daguai/learned/value.hpp>
#include <daguai/players/heuristic.hpp>

namespace daguai::bind {

namespace {

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
                      "A Q-network read from a .dgn file (cpp/engine/learned/network.hpp).")
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
      .def_property_readonly("decides_r11", &Network::decides_r11,
                             "Whether the network also makes the R11 decisions (tribute, "
                             "return, offer, take; a format-2 file's `decides` bit 0).")
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

// Features and the shipped models' files for the learned policy.
void bind_learned_play(py::module_& m) {
  m.def(
      "learn_features",
      [](const GameState& g, bool r11) {
        const Guard guard(&g);
        if (g.match_over()) throw GameError("the match is over: no decision");
        const PolicyView view(g);
        PolicyScratch scratch;
        Rng unused(0);
        const Action h = heuristic_action(view, unused, scratch);  // the catalog's "heuristic"
        std::vector<float> state(kStateFeatures);
        encode_state_features(view.info(), state.data());
        Candidates c;
        if (g.phase() == Phase::kPlay || r11) learned_candidates(view, h, scratch, &c);
        py::list actions;
        for (const Action& a : c.actions) actions.append(a);
        return py::make_tuple(column(state), actions, float_rows(c.features, kActionFeatures),
                              c.heuristic);
      },
      py::arg("game"), py::arg("r11") = false,
      "(state features, candidates, action features, index of the heuristic's candidate) of "
      "the seat to act; no candidates outside the play phase, unless `r11` (the R11 "
      "decisions' candidates, as a network that makes them sees them).");

  m.def(
      "candidate_features",
      [](const GameState& g) {
        const Guard guard(&g);
        if (g.match_over()) throw GameError("the match is over: no decision");
        const PolicyView view(g);
        PolicyScratch scratch;
        Candidates c;
        std::vector<int> ids;
        if (g.phase() == Phase::kPlay) canonical_candidates(view, scratch, &c, &ids);
        py::array_t<std::int16_t> id_array(py::ssize_t(ids.size()));
        for (std::size_t k = 0; k < ids.size(); ++k)
          id_array.mutable_data()[k] = std::int16_t(ids[k]);
        return py::make_tuple(id_array, float_rows(c.features, kActionFeatures));
      },
      py::arg("game"),
      "(abstract ids int16[n], action features float32[n, ACTION_FEATURES]) of the seat to "
      "act: one candidate per legal id, its canonical action (action_from_abstract), no "
      "heuristic (its column 0); empty outside the play phase.");

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
}

// The value network of the search's worlds (value.hpp) and its inputs. Immutable after
// construction: safe from any thread.
void bind_value(py::module_& m) {
  py::class_<ValueNet>(m, "ValueNet",
                       "A value network read from a .dgv file (cpp/engine/learned/value.hpp).")
      .def_static(
          "from_bytes",
          [](py::handle b) {
            if (!PyBytes_Check(b.ptr())) throw ModelError("value bytes must be bytes");
            return ValueNet::from_bytes(b.cast<std::string>());
          },
          py::arg("data"), "Parse .dgv bytes (ModelError names the first problem).")
      .def_static(
          "from_file", [](py::handle p) { return ValueNet::from_file(to_text(p, "path")); },
          py::arg("path"), "Read a .dgv file.")
      .def(
          "to_bytes", [](const ValueNet& n) { return py::bytes(n.to_bytes()); },
          "The .dgv bytes (from_bytes(to_bytes()) is identical).")
      .def_property_readonly("widths", &ValueNet::widths, "Hidden layer widths.")
      .def_property_readonly("meta", &ValueNet::meta, "The file's metadata (JSON text).")
      .def(
          "evaluate",
          [](const ValueNet& n, py::handle x) {
            auto a = floats_arg(x, "x", 2, kWorldFeatures);
            py::array_t<float> v(a.shape(0));
            for (py::ssize_t r = 0; r < a.shape(0); ++r)
              v.mutable_data()[r] = n.evaluate(a.data() + r * kWorldFeatures);
            return v;
          },
          py::arg("x"), "The estimate of each row of x: float32[n, WORLD_FEATURES].")
      .def(
          "value",
          [](const ValueNet& n, const GameState& g, int seat) {
            const Guard guard(&g);
            return n.value(g, seat);
          },
          py::arg("game"), py::arg("seat"),
          "The estimated score change of `seat` in the game's round from here (every hand read).");
  harden<ValueNet>(m, "ValueNet");
  m.def(
      "world_features",
      [](const GameState& g, int seat) {
        const Guard guard(&g);
        std::vector<float> x(kWorldFeatures);
        encode_world_features(g, seat, x.data());
        return column(x);
      },
      py::arg("game"), py::arg("seat"),
      "The value network's inputs for `seat` (float32[WORLD_FEATURES]): its observation, then "
      "the other seats' hands (every hand is read: a world's, not a view's).");
  m.def(
      "_set_builtin_value",
      [](py::handle p, py::handle table) {
        const std::string name = to_text(table, "table");
        const Table* t = table_named(name.c_str());
        if (!t) throw GameError("_set_builtin_value: unknown table '" + name + "'");
        set_builtin_value(to_text(p, "path"), t->kind);
      },
      py::arg("path"), py::arg("table") = "6p3d",
      "The value network of the search's worlds at a table (R18; read on first use).");
}

}  // namespace

void bind_learned(py::module_& core) {
  py::module_ m = layer_module(core, "learned", "The learned player's network and features.");
  py::register_exception<ModelError>(m, "ModelError", PyExc_ValueError);
  m.attr("LEARN_VERSION") = kLearnVersion;
  m.attr("STATE_FEATURES") = kStateFeatures;
  m.attr("ACTION_FEATURES") = kActionFeatures;
  m.attr("ACTION_HEURISTIC") = kActionHeuristic;
  m.attr("MAX_MODELS") = kMaxModels;
  m.attr("MAX_MODEL_LAYERS") = kMaxModelLayers;  // a .dgn file's bounds (format.hpp)
  m.attr("MAX_MODEL_WIDTH") = kMaxModelWidth;
  m.attr("MAX_MODEL_META") = kMaxModelMeta;

  m.attr("WORLD_FEATURES") = kWorldFeatures;
  m.attr("VALUE_VERSION") = kValueVersion;

  bind_network(m);
  bind_learned_play(m);
  bind_value(m);
}

}  // namespace daguai::bind
