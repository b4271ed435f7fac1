// The game layer's conversions: the one conversion point between daguai.Game and the
// engine's GameState, and a round's result as a dict (game/bind_state.cpp defines it).
//
// daguai.Game (python/daguai/game.py) wraps a GameState in its `_state` attribute instead of
// subclassing it, so that only its documented methods are public. Every binding that takes
// a `const GameState&` / `GameState&` / `const GameState*` (information_state, the
// encoders, simulate, PolicyRunner.act, search, ...) therefore accepts either a GameState or
// an object whose `_state` is one: this caster tries the bound type first, then `_state`.
// The reference is to the wrapped state itself (no copy), so locks (guard.hpp) and
// mutations act on the Game's state. Every binding file that passes a GameState includes this
// header, so each sees the same specialization.
#pragma once

#include <pybind11/pybind11.h>

#include "convert.hpp"

#include <daguai/game/state.hpp>

namespace pybind11::detail {

template <>
class type_caster<daguai::GameState> : public type_caster_base<daguai::GameState> {
  using base = type_caster_base<daguai::GameState>;

 public:
  bool load(handle src, bool convert) {
    if (base::load(src, convert)) return true;
    if (!src || src.is_none() || !PyObject_HasAttrString(src.ptr(), "_state")) return false;
    const object inner = reinterpret_steal<object>(PyObject_GetAttrString(src.ptr(), "_state"));
    if (!inner) {
      PyErr_Clear();
      return false;
    }
    // The wrapper keeps `inner` alive for the duration of the call.
    return !inner.is_none() && base::load(inner, false);
  }
};

}  // namespace pybind11::detail

namespace daguai::bind {

// A round's result as the dict of GameState.result / InfoState.last_result (docs/game.md).
py::dict result_dict(const RoundResult& r, int seats);

// A Python action for the current decision of `g`: an Action as it is, a Play, action text
// (parse_action, the one parser: game/action_text.hpp) or cards (a Hand, a list of card
// strings) read for the phase (card_action). Not checked for legality (GameState::check).
Action to_action(const GameState& g, py::handle obj);

}  // namespace daguai::bind
