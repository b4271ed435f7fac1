#include <daguai/players/policy.hpp>

namespace daguai {

const char* policy_kind_name(PolicyKind k) {
  switch (k) {
    case PolicyKind::kRule:
      return "rule";
    case PolicyKind::kSearch:
      return "search";
    case PolicyKind::kModel:
      return "model";
  }
  return "?";
}

}  // namespace daguai
