// The five-card classifier's reference: the branchy rules of R5-R7 (detail::classify_five),
// which build the lookup tables classify reads; the tests compare the two on every set.
#include "reference_classifier.hpp"

#include <daguai/core/table.hpp>

namespace daguai::testing {

bool classify_reference(const Cards& c, int level, const Rules& rules, Play* out) {
  if (c.size() != 5 || c.jokers() == 5) return classify(c, level, rules, out);
  const int j = c.jokers();
  const detail::FiveInfo x = detail::five_info(c.naturals(), j);
  std::uint32_t key;
  Kind kind;
  if (!detail::classify_five(x, level, rules, rules.wild != Wild::kAuto, &key, &kind)) return false;
  out->cards = c;
  out->key = key;
  out->info = play_info(kind, 5, j, level, table_of(rules).decks);
  return true;
}

}  // namespace daguai::testing
