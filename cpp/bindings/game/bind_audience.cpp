// The event codec's native half: the table of event kinds and the one audience rule (R16,
// cpp/engine/game/audience.hpp), for the Python codec (daguai/codec.py). Binds only.
#include <string>

#include "convert.hpp"

#include <daguai/game/audience.hpp>

namespace daguai::bind {

namespace {

const char* secret_name(Secret s) {
  switch (s) {
    case Secret::kNone:
      return "none";
    case Secret::kPair:
      return "pair";
    case Secret::kOwner:
      return "owner";
  }
  return "?";
}

EventType event_type_of(py::handle obj) {
  const std::string name = to_text(obj, "event");
  for (const EventKind& k : kEventKinds)
    if (name == k.name) return k.type;
  throw GameError("unknown event kind '" + name + "'");
}

}  // namespace

void bind_audience(py::module_& m) {
  py::list rows;
  for (const EventKind& k : kEventKinds)
    rows.append(py::make_tuple(k.name, secret_name(k.secret), k.decision));
  m.attr("EVENT_KINDS") = py::tuple(rows);
  m.attr("SPECTATOR") = kSpectator;
  m.attr("REFEREE") = kReferee;
  m.def(
      "audience_sees",
      [](py::handle event, py::handle seat, py::handle other, py::handle audience) {
        const EventType t = event_type_of(event);
        return audience_sees(t, int(to_int<GameError>(seat, "seat", -1, kSeats - 1)),
                             int(to_int<GameError>(other, "other", -1, kSeats - 1)),
                             int(to_int<GameError>(audience, "audience", kReferee, kSeats - 1)));
      },
      py::arg("event"), py::arg("seat"), py::arg("other"), py::arg("audience"),
      "Whether `audience` (a seat, SPECTATOR or REFEREE) sees the private part of an event "
      "(R16, cpp/engine/game/audience.hpp).");
}

}  // namespace daguai::bind
