// The catalog of policies: every built-in policy by id (policies.def, the one list), the
// loaded models after them (learned/models.hpp), and the one place where a policy id becomes
// a decision (decide). It sits above the layers that define policies (players/, search/,
// learned/), so each of them stays unaware of the others.
//
// Adding a policy: a file defining its function (a rule policy in players/, for instance)
// and one line in policies.def.
#pragma once

#include <string>
#include <vector>

#include <daguai/players/policy.hpp>
#include <daguai/search/search.hpp>

namespace daguai {

struct PolicyEntry {
  const char* name;
  PolicyKind kind = PolicyKind::kRule;    // kRule or kSearch (models are not entries)
  PolicyFn fn = nullptr;                  // kRule: the decision
  SearchConfig budget{};                  // kSearch: its settings, with the rollout dispatcher
  const char* incumbent_model = nullptr;  // kSearch: the model whose choice is the incumbent
};
// Every built-in policy, id = index (policies.def).
const std::vector<PolicyEntry>& policy_catalog();
// The entry of a built-in policy (nullptr for a model or an unknown id).
const PolicyEntry* policy_entry(PolicyId id);
// Whether `id` names a built-in policy or a loaded model.
bool is_policy_id(int id);
// The kind of a known id (GameError "unknown policy" otherwise).
PolicyKind policy_kind(PolicyId id);
bool is_search_policy(PolicyId id);
// Whether the policy reads the round's public history (a search with inference): a game it
// plays in must record its log (a game without one gives inference nothing to read).
bool needs_history(int id);

// The id of a policy name: a catalog name, "learned" (the shipped model) or the path of a
// .dgn file (GameError naming the choices for an unknown name; ModelError for a bad file).
PolicyId parse_policy(const std::string& name);
const char* policy_name(PolicyId id);

// The decision of policy `id` for the seat to act of `view` (a DecideFn).
Action decide(PolicyId id, const PolicyView& view, Rng& rng, PolicyScratch& scratch);
// The same for a search's rollouts: GameError for a search policy (a search's rollouts must
// not search). The dispatcher of every SearchConfig the catalog makes.
Action rollout_decide(PolicyId id, const PolicyView& view, Rng& rng, PolicyScratch& scratch);
// The decision of the seat to act of `view`, GameError when the match is over. `rng` is that
// seat's stream.
Action choose_action(PolicyId id, const PolicyView& view, Rng& rng, PolicyScratch& scratch);
// The same for the player to act of a game (g.current_player()).
Action choose_action(PolicyId id, const GameState& g, Rng& rng, PolicyScratch& scratch);

// A search policy's decision for the player to act with the race that made it (SearchTrace):
// the decision PolicyRunner(id, seed, game, seat) takes first, on that seat's stream (R17),
// recorded while it is taken, so a label is what the policy plays. GameError for a policy
// that does not search or a match that is over.
struct TracedDecision {
  Action chosen;
  SearchTrace trace;
};
TracedDecision traced_decision(PolicyId id, const GameState& g, std::uint64_t seed,
                               std::uint64_t game);

// GameError when inference "learned" is asked for at a table without a learned network.
void check_learned_inference(Inference mode, TableKind table);

// The value network set for a table (learned/value.hpp set_builtin_value) as a search's ValueFn
// (search.hpp SearchConfig::value; learned/value.hpp); GameError when the table has none.
ValueFn value_function(TableKind table);

// A search's default settings with the catalog's rollout dispatcher.
SearchConfig search_config();
// check_search_limits (search.hpp), and GameError for a search as the rollout policy.
void check_search_config(const SearchConfig& cfg);

}  // namespace daguai
