#include <daguai/game/audience.hpp>

namespace daguai {

static_assert(kEventKinds.size() == std::size_t(EventType::kAutoPass) + 1,
              "one row of kEventKinds per EventType");

namespace {
constexpr bool rows_in_order() {
  for (std::size_t i = 0; i < kEventKinds.size(); ++i)
    if (std::size_t(kEventKinds[i].type) != i) return false;
  return true;
}
static_assert(rows_in_order(), "kEventKinds is indexed by EventType");
}  // namespace

bool audience_sees(EventType t, int seat, int other, int audience) {
  if (audience == kReferee) return true;
  switch (event_kind(t).secret) {
    case Secret::kNone:
      return true;
    case Secret::kPair:  // R11: the two seats of the pair
      return audience >= 0 && (audience == seat || audience == other);
    case Secret::kOwner:  // R2/R16: one's own hand
      return audience >= 0 && audience == seat;
  }
  return false;
}

Event for_audience(const Event& e, int audience) {
  if (event_kind(e.type).secret != Secret::kPair ||
      audience_sees(e.type, e.seat, e.other, audience))
    return e;
  Event x = e;
  x.play = Play{};
  x.flags |= 2;
  return x;
}

}  // namespace daguai
