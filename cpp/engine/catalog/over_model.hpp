// Searches over a model named by the caller: "SEARCH@MODEL" (parse_policy), e.g.
// "expert@runs/gen4.dgn" is the expert's search with gen4.dgn as its model, so an earlier
// expert is played from its network's file (docs/search.md "A search over any model").
// MODEL takes the place of the entry's model: the incumbent whose choice the race keeps
// unless a challenger is clearly better and, for a search that ranks candidates by its model
// (expert), that ranking too. A search without a model (pimc, pimc24, ...) gets MODEL's choice
// as its incumbent and keeps its own candidate selection. An inference search's model of play
// is not changed (inference "learned" reads the shipped network).
//
// Each name gets its own policy id from kFirstOverModel on (at most kMaxOverModels names per
// process; ids are never reused, since a runner may hold one for as long as it lives).
#pragma once

#include <string>

#include <daguai/catalog/catalog.hpp>
#include <daguai/learned/models.hpp>

namespace daguai {

constexpr int kFirstOverModel = kFirstModel + kMaxModels;
constexpr int kMaxOverModels = 4096;
static_assert(kFirstOverModel + kMaxOverModels < int(kNoPolicy), "policy ids are 16 bits");

struct OverModel {
  PolicyId search;  // the catalog entry (a search policy)
  PolicyId model;   // the model's policy id (learned/models.hpp)
  std::string name;
};

// The id of "SEARCH@MODEL" (registered on first use; the model is loaded and checked then).
// GameError when SEARCH is not a search policy of the catalog, MODEL names no model, or the
// process has registered kMaxOverModels names already; ModelError for a bad model file.
PolicyId over_model_policy(const std::string& name);
// The entry behind an id, or nullptr when `id` is not one of these.
const OverModel* over_model(PolicyId id);

}  // namespace daguai
