// The model registry: loaded networks as policies.
#pragma once

#include <memory>
#include <string>

#include <daguai/learned/network.hpp>
#include <daguai/players/policy.hpp>

namespace daguai {

// Policy ids from kFirstModel on are loaded networks (the catalog, catalog/policies.def, lists
// the hand-written policies). A model is registered under a name: "learned" for the shipped
// models (their paths set by Python at import: set_builtin_model, one per table of R18: the
// name plays the model of the game's table, and the 6p3d one where its table has none), or
// the path of a .dgn file (one network at every table).
// Each name has its own id (policy names are reported as given), and files with the same
// bytes share one network in memory, so a process that loads one model from many paths
// (copies in temporary folders, one per test or per actor) holds it once. A path's file is read
// again at every lookup and, if it changed, its new network replaces the old one (in-flight
// decisions keep theirs: shared ownership). At most kMaxModels names per process (ModelError
// after): ids are never reused, since a runner may hold one for as long as it lives.
constexpr int kFirstModel = 64;
constexpr int kMaxModels = 4096;
constexpr const char* kBuiltinModel = "learned";
void set_builtin_model(const std::string& path, TableKind table = TableKind::k6p3d);
bool has_builtin_model();  // the 6p3d one: the name "learned" exists
// The policy id of a model name ("learned", or a path ending in .dgn; loaded on first use),
// or -1 if `name` names no model.
int find_model_policy(const std::string& name);
// The network behind a policy id at a table, or nullptr for a hand-written policy.
std::shared_ptr<const Network> model_of(PolicyId k, TableKind table = TableKind::k6p3d);
const char* model_name(PolicyId k);

}  // namespace daguai
