// _core.io: the io layer (cpp/engine/io/encode.hpp): the observation and candidate encoders
// of learners, and the abstract action space.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "convert.hpp"
#include "game/game_args.hpp"
#include "guard.hpp"

#include <daguai/game/infostate.hpp>
#include <daguai/io/encode.hpp>

namespace daguai::bind {

namespace {

// Observations and candidate features, from a game or a view.
void bind_observations(py::module_& m) {
  m.def(
      "obs_slices",
      []() {
        py::list l;
        for (const ObsSlice& s : obs_slices())
          l.append(py::make_tuple(s.name, s.offset, s.size, s.meaning));
        return l;
      },
      "The observation layout: (name, offset, size, meaning) per slice.");

  m.def(
      "encode_observation",
      [](const GameState& g, int seat) {
        const Guard guard(&g);
        if (seat < 0 || seat >= g.table().seats)
          throw GameError("seat must be 0.." + std::to_string(g.table().seats - 1));
        py::array_t<float> out(kObsSize);
        encode_observation(information_state(g, seat), out.mutable_data());
        return out;
      },
      py::arg("game"), py::arg("seat"),
      "The float32 observation tensor of `seat` (what it may know, R16).");
  m.def(
      "encode_view",
      [](const InfoState& v) {
        py::array_t<float> out(kObsSize);
        encode_observation(v, out.mutable_data());
        return out;
      },
      py::arg("view"),
      "The float32 observation tensor of a view (Game.view): the same as encode_observation.");

  m.def(
      "encode_candidates",
      [](const GameState& g) {
        const Guard guard(&g);
        std::vector<Action> acts;
        g.legal_actions(&acts);
        py::array_t<float> out({py::ssize_t(acts.size()), py::ssize_t(kCandFeatures)});
        for (std::size_t k = 0; k < acts.size(); ++k)
          encode_candidate(acts[k], g.level_rank(), out.mutable_data() + k * kCandFeatures);
        return out;
      },
      py::arg("game"),
      "Features (n_actions x CAND_FEATURES) of the legal actions, in legal_actions() order.");
}

// The abstract action space: ids, masks, and the canonical action of an id.
void bind_abstract_actions(py::module_& m) {
  m.def(
      "abstract_id",
      [](const Action& a, py::handle level) { return abstract_id(a, to_level(level)); },
      py::arg("action"), py::arg("level"), "The abstract action id of an action.");

  m.def(
      "abstract_mask",
      [](const GameState& g) {
        const Guard guard(&g);
        std::vector<Action> acts;
        g.legal_actions(&acts);
        py::array_t<std::int8_t> mask(kNumAbstract);
        py::array_t<std::int32_t> index(kNumAbstract);
        // int8 and uint8 share their representation of 0 / 1 (docs/learning.md: int8 masks)
        abstract_mask(acts, g.level_rank(), reinterpret_cast<std::uint8_t*>(mask.mutable_data()),
                      index.mutable_data());
        return py::make_tuple(mask, index);
      },
      py::arg("game"), "(mask int8[NUM_ABSTRACT], index into legal_actions() or -1).");

  // The same two from a view (Game.view of the seat to act: its legal decisions are in it).
  m.def(
      "abstract_mask",
      [](const InfoState& v) {
        const Guard guard(&v);
        py::array_t<std::int8_t> mask(kNumAbstract);
        py::array_t<std::int32_t> index(kNumAbstract);
        abstract_mask(v.legal, v.pub.level_rank(),
                      reinterpret_cast<std::uint8_t*>(mask.mutable_data()), index.mutable_data());
        return py::make_tuple(mask, index);
      },
      py::arg("view"), "(mask int8[NUM_ABSTRACT], index into the view's legal_actions() or -1).");
  m.def(
      "action_from_abstract",
      [](const InfoState& v, py::handle id_obj) {
        const Guard guard(&v);
        const int id = int(to_int<GameError>(id_obj, "abstract action id", 0, kNumAbstract - 1));
        return action_from_abstract(v.legal, v.pub.level_rank(), id);
      },
      py::arg("view"), py::arg("id"), "The canonical legal action of an abstract id, from a view.");
  m.def(
      "action_from_abstract",
      [](const GameState& g, py::handle id_obj) {
        const Guard guard(&g);
        const int id = int(to_int<GameError>(id_obj, "abstract action id", 0, kNumAbstract - 1));
        std::vector<Action> acts;
        g.legal_actions(&acts);
        return action_from_abstract(acts, g.level_rank(), id);
      },
      py::arg("game"), py::arg("id"), "The canonical legal action of an abstract id.");
}

}  // namespace

void bind_io(py::module_& core) {
  py::module_ m =
      layer_module(core, "io", "Encoders for learners: observations, abstract actions.");
  m.attr("OBS_VERSION") = kObsVersion;
  m.attr("OBS_SIZE") = kObsSize;
  m.attr("NUM_ABSTRACT") = kNumAbstract;
  m.attr("CAND_FEATURES") = kCandFeatures;
  bind_observations(m);
  bind_abstract_actions(m);
}

}  // namespace daguai::bind
