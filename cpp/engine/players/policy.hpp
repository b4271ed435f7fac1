// Built-in policies (issue "Monte Carlo"): choose a decision for the player to act.
//
//   random     uniform over the legal actions (plays and pass; tribute, return, ... alike)
//   greedy     the cheapest play that beats the top (lowest key, then fewest jokers, then
//              fewest level cards); passes only when nothing beats; leads its weakest
//              combination (the lowest-key play of the largest size, jokers and level
//              cards kept when possible)
//   heuristic  plays from a decomposition of the hand into few plays (配牌 / 手数, wildcards
//              included), keeps control cards (jokers, level cards) to regain the lead,
//              does not beat its partner unless that wins the race out, and feeds a partner
//              who is close to going out (seeds 000 / 001 strategy sections); see policy.cpp
//
//   pimc       Monte Carlo over sampled worlds (search.hpp, docs/search.md)
//   heuristic_exact  heuristic with a fewest-plays plan (min_plays, analysis.hpp) in place of
//              its planner: a second opponent for the search (docs/search.md, issue 17)
//
// Policies see views, not states (issue 9): a policy is a PolicyFn receiving a PolicyView
// of the seat to act - its own hand and public facts (R16), with GameState's query names -
// and its own random stream (Rng::stream(seed, game, kPolicy, seat)). Adding a policy is
// one entry in the registry kPolicies (policy.cpp); names and ids come from it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <daguai/core/rng.hpp>
#include <daguai/game/infostate.hpp>
#include <daguai/game/state.hpp>
#include <daguai/plays/moves.hpp>

namespace daguai {

// A policy id: the index of its registry entry (the first three are named for convenience).
enum class PolicyId : std::uint8_t { kRandom = 0, kGreedy = 1, kHeuristic = 2, kPimc = 3 };
PolicyId parse_policy(const std::string& name);  // throws GameError on an unknown name
const char* policy_name(PolicyId k);

// Search settings of a search policy (search.hpp): a registry entry of kind kSearch carries
// its own (policy.cpp kPolicies: "pimc24" is the search with a budget of 24 rollouts).
struct SearchConfig {
  int rollouts = 256;       // budget in rollouts per decision (1 .. kMaxRollouts, search.hpp)
  double ms = 0;            // > 0: doubled budgets until this many milliseconds are spent
  int threads = 1;          // 1 .. kMaxThreads (workers.hpp); results do not depend on it
  int max_candidates = 16;  // pimc: race at most this many groups of plays (0 = all)
  PolicyId rollout = PolicyId::kHeuristic;  // the policy every seat plays in rollouts
};

// Scratch space reused across decisions (no allocation after warm-up).
struct PolicyScratch {
  PlayList plays;
  std::vector<Action> actions;
  std::vector<Play> plan;  // heuristic: the current decomposition of the hand
  Cards plan_hand;         // the hand the plan was made for
};

// What a policy sees: the information state of the seat to act (R16) with the query names
// of GameState. hand(s) of another seat throws; info() builds the full InfoState
// (infostate.hpp: known cards, unseen cards, forced-pass constraints) for search.
class PolicyView {
 public:
  explicit PolicyView(const GameState& g) : g_(&g), seat_(g.current_player()) {}
  int current_player() const { return seat_; }
  bool match_over() const { return g_->match_over(); }
  Phase phase() const { return g_->phase(); }
  const Rules& rules() const { return g_->rules(); }
  int level_rank() const { return g_->level_rank(); }
  const Cards& hand(int seat) const {
    if (seat != seat_) throw GameError("a policy sees only its own hand (R16)");
    return g_->hand(seat);
  }
  int cards_left(int seat) const { return g_->cards_left(seat); }
  bool is_out(int seat) const { return g_->is_out(seat); }
  bool has_top() const { return g_->has_top(); }
  const Play& top() const { return g_->top(); }
  int top_seat() const { return g_->top_seat(); }
  unsigned passed_mask() const { return g_->passed_mask(); }
  bool can_pass() const { return g_->can_pass(); }
  bool expects_offer() const { return g_->expects_offer(); }
  // The seat's own legal decisions (they depend only on its hand and public facts).
  void legal_plays(PlayList* out) const { g_->legal_plays(out); }
  void legal_actions(std::vector<Action>* out) const { g_->legal_actions(out); }
  InfoState info() const { return information_state(*g_, seat_); }

 private:
  const GameState* g_;  // read only through the queries above
  int seat_;
};

// The policy interface.
using PolicyFn = Action (*)(const PolicyView& view, Rng& rng, PolicyScratch& scratch);
// A search policy (search.hpp pimc_action) with its settings.
using SearchFn = Action (*)(const PolicyView& view, Rng& rng, PolicyScratch& scratch,
                            const SearchConfig& cfg);
// What a registered policy is: a decision rule, or a search over sampled worlds (never a
// rollout policy: a search's rollouts must not search).
enum class PolicyKind : std::uint8_t { kRule = 0, kSearch = 1 };
const char* policy_kind_name(PolicyKind c);  // "rule", "search"
struct PolicyEntry {
  const char* name;
  PolicyKind kind = PolicyKind::kRule;
  PolicyFn fn = nullptr;      // kRule
  SearchFn search = nullptr;  // kSearch
  SearchConfig budget{};      // kSearch: its settings (rollouts per decision, ...)
};
// Every policy, id = index (PolicyId). The one place to add a policy: policy.cpp.
const std::vector<PolicyEntry>& policy_registry();
// The registry entry of a registered policy (nullptr for a model, learned.hpp, or a bad id).
const PolicyEntry* policy_entry(PolicyId k);
// True for a registered policy of kind kSearch.
bool is_search_policy(PolicyId k);

// The heuristic's plan (配牌) for a hand: its split into plays, classified at `level`, as the
// heuristic makes it before a decision (policy.cpp "Planner"; tests/test_analysis_planner.py).
// `minimal` claims the plan has the fewest plays possible; it is set when the number of plays
// meets plays_lower_bound (analysis.hpp), so min_plays must agree.
struct HeuristicPlan {
  std::vector<Play> plays;
  bool minimal = false;
};
HeuristicPlan heuristic_plan(const Cards& hand, int level, const Rules& rules);
namespace detail {
// The plan as the first planner made it (policy.cpp ReferencePlanner): heuristic_plan must
// return the same plays (tests/test_analysis_planner.py).
std::vector<Play> reference_heuristic_plan(const Cards& hand, int level, const Rules& rules);
}  // namespace detail

// The decision of the player to act (g.current_player()). `rng` is that seat's stream.
Action choose_action(PolicyId kind, const GameState& g, Rng& rng, PolicyScratch& scratch);
// The same from a view: a registered policy or a loaded model (learned.hpp).
Action decide(PolicyId kind, const PolicyView& view, Rng& rng, PolicyScratch& scratch);

}  // namespace daguai
