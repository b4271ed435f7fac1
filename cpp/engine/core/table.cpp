#include <daguai/core/table.hpp>

namespace daguai {

static_assert(kTable6p3d.seats <= kSeats && kTable4p2d.seats <= kSeats);
static_assert(kTable6p3d.max_tributers <= kMaxTributers &&
              kTable4p2d.max_tributers <= kMaxTributers);
static_assert(kTable6p3d.decks <= kMaxCopies && kTable4p2d.decks <= kMaxCopies);
static_assert(kTable6p3d.seats * kTable6p3d.hand_size == kTable6p3d.deck_size());  // R2: 162
static_assert(kTable4p2d.seats * kTable4p2d.hand_size == kTable4p2d.deck_size());  // R18: 108
static_assert(kTable6p3d.team_mask(0) == 0x15u && kTable6p3d.team_mask(1) == 0x2Au);
static_assert(kTable4p2d.team_mask(0) == 0x5u && kTable4p2d.team_mask(1) == 0xAu);

const Table* table_named(const char* name) {
  // The names are Rules.table's choices (rules.cpp, which checks they are the tables' names).
  const int i = choice_index(*find_rule_variant("table"), name);
  return i < 0 ? nullptr : &table_of(TableKind(i));
}

}  // namespace daguai
