// The policy interface: what a policy sees (PolicyView), what it may reuse (PolicyScratch),
// and the names of what a policy is - its id (an index of the catalog, catalog/catalog.hpp,
// or a loaded model's id, learned/models.hpp) and its kind (rule, search or model).
//
// Policies see views, not states: a policy receives a PolicyView of the seat to act - its own
// hand and public facts (R16), with GameState's query names - and its own random stream
// (Rng::stream(seed, game, kPolicy, seat)). The rule policies live beside this file (one file
// each: random.cpp, greedy.cpp, heuristic.cpp), the search in search/, the learned player in
// learned/; the catalog above them all lists them (catalog/policies.def) and turns ids into
// decisions. Adding a policy is one file plus one line of that list.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <daguai/core/rng.hpp>
#include <daguai/game/infostate.hpp>
#include <daguai/game/state.hpp>
#include <daguai/players/planner.hpp>
#include <daguai/plays/moves.hpp>

namespace daguai {

// A policy id: the index of its catalog entry (catalog/policies.def; the first ones are
// named here because the layers below the catalog use them), or kFirstModel + i for the
// i-th loaded model (learned/models.hpp).
enum class PolicyId : std::uint16_t { kRandom = 0, kGreedy = 1, kHeuristic = 2, kPimc = 3 };

// What a policy is: a decision rule, a search over sampled worlds (never a rollout policy:
// a search's rollouts must not search), or a loaded network (learned/).
enum class PolicyKind : std::uint8_t { kRule = 0, kSearch = 1, kModel = 2 };
const char* policy_kind_name(PolicyKind k);  // "rule", "search", "model"

// Scratch space reused across decisions (no allocation after warm-up).
struct PolicyScratch {
  PlayList plays;
  std::vector<Action> actions;
  std::vector<Play> plan;  // heuristic: the current decomposition of the hand
  Cards plan_hand;         // the hand the plan was made for
  int plan_level = -1;     // and its level: one scratch serves games of other levels
  PlanMemo plan_memo;      // what the plan was made from (planner.hpp update_plan)
  // A new game: no plan left from another.
  void forget_plan() {
    plan.clear();
    plan_hand = Cards{};
    plan_level = -1;
    plan_memo = {};
  }
};

// What a policy sees: the information state of the seat to act (R16) with the query names
// of GameState. hand(s) of another seat throws; info() builds the full InfoState
// (infostate.hpp: known cards, unseen cards, forced-pass constraints) for search.
//
// A decision from a view (act(view), the server's bots) runs on a world made from that view
// (sampler.hpp make_world), which keeps the public state and the seat's hand but not the
// round's log. The second constructor keeps the view itself, so info() answers with the
// view's own facts and history, exactly what information_state gives on the real game: a
// search with inference from play then reads the same history either way (R16, R17).
class PolicyView {
 public:
  explicit PolicyView(const GameState& g) : g_(&g), seat_(g.current_player()) {}
  // `world` made from `view` (make_world); both must outlive the PolicyView.
  PolicyView(const GameState& world, const InfoState& view)
      : g_(&world), seat_(world.current_player()), view_(&view) {}
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
  // with_history: this round's public history too (search inference; empty without a log).
  InfoState info(bool with_history = false) const {
    if (!view_) return information_state(*g_, seat_, with_history);
    InfoState v = *view_;
    if (!with_history) v.history.clear();
    v.legal.clear();  // as information_state without with_legal
    return v;
  }

 private:
  const GameState* g_;  // read only through the queries above
  int seat_;
  const InfoState* view_ = nullptr;  // the view a world was made from, if any
};

// A rule policy's decision for the seat to act.
using PolicyFn = Action (*)(const PolicyView& view, Rng& rng, PolicyScratch& scratch);
// Any policy's decision by id: the catalog's decide (catalog/catalog.hpp). A layer below the
// catalog that plays a policy by id (play_out, the search's rollouts) is handed this by its
// caller, since it cannot name the policies above it.
using DecideFn = Action (*)(PolicyId id, const PolicyView& view, Rng& rng, PolicyScratch& scratch);

}  // namespace daguai
