// _core.game: the game layer (cpp/engine/game/): the match state and its actions
// (bind_state.cpp), positions (bind_position.cpp), information states (bind_infostate.cpp) and
// the audience rule of the event codec (bind_audience.cpp).
#include "convert.hpp"
#include "core/enums.hpp"

#include <daguai/game/state.hpp>

namespace daguai::bind {

void bind_state(py::module_& m);                                      // bind_state.cpp
void bind_position(py::module_& m, py::handle illegal_action_error);  // bind_position.cpp
void bind_infostate(py::module_& m);                                  // bind_infostate.cpp
void bind_audience(py::module_& m);                                   // bind_audience.cpp

void bind_game(py::module_& core) {
  py::module_ m = layer_module(core, "game", "The match: state, actions, positions, views.");
  bind_named_enum<Phase>(m, "Phase", &phase_name, "Phase of a match (GameState.phase's names).");
  bind_named_enum<ActionType>(m, "ActionType", &action_name,
                              "Type of a decision (Action.type's names).");
  bind_named_enum<EventType>(m, "EventType", &event_name,
                             "Type of a log event (the names of events and records).");
  bind_state(m);
  bind_position(m, core.attr("core").attr("IllegalActionError"));
  bind_infostate(m);
  bind_audience(m);
}

}  // namespace daguai::bind
