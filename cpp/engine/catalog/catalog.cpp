#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

#include <daguai/catalog/catalog.hpp>
#include <daguai/catalog/over_model.hpp>
#include <daguai/io/encode.hpp>
#include <daguai/learned/learned.hpp>
#include <daguai/learned/models.hpp>
#include <daguai/learned/value.hpp>

namespace daguai {

// The rule policies' functions, declared from the list (each is defined in its own file).
#define DAGUAI_RULE_POLICY(name, function) \
  Action function(const PolicyView& view, Rng& rng, PolicyScratch& scratch);
#define DAGUAI_SEARCH_POLICY(name, rollouts)
#define DAGUAI_MODEL_SEARCH_POLICY(name, rollouts, model, top)
#define DAGUAI_INFERENCE_SEARCH_POLICY(name, rollouts, inference)
#define DAGUAI_REPLY_SEARCH_POLICY(name, rollouts, model, top, plies)
#include <daguai/catalog/policies.def>
#undef DAGUAI_RULE_POLICY
#undef DAGUAI_SEARCH_POLICY
#undef DAGUAI_MODEL_SEARCH_POLICY
#undef DAGUAI_INFERENCE_SEARCH_POLICY
#undef DAGUAI_REPLY_SEARCH_POLICY

namespace {

PolicyEntry rule_entry(const char* name, PolicyFn fn) {
  PolicyEntry e;
  e.name = name;
  e.kind = PolicyKind::kRule;
  e.fn = fn;
  return e;
}

PolicyEntry search_entry(const char* name, int rollouts) {
  PolicyEntry e;
  e.name = name;
  e.kind = PolicyKind::kSearch;
  e.budget = search_config();
  e.budget.rollouts = rollouts;
  return e;
}

// The model's play decisions by Q, best first (a RankFn, search.hpp); none outside the play
// phase, where the learned policy plays as the heuristic (learned.hpp).
void model_rank(PolicyId id, const PolicyView& view, PolicyScratch& scratch,
                std::vector<Action>* ranked) {
  ranked->clear();
  const auto net = model_of(id, view.rules().table);
  if (!net || view.phase() != Phase::kPlay) return;
  thread_local Decision d;
  prepare_decision(view, net.get(), scratch, &d);
  const int n = d.size();
  if (n < 2) return;
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[std::size_t(i)] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return d.q[std::size_t(a)] > d.q[std::size_t(b)]; });
  for (int i : order) ranked->push_back(d.cands.actions[std::size_t(i)]);
}

// log P(a | view) under the learned model of play (inference.hpp, a LogProbFn): the softmax at
// temperature t over the shipped network's Q of its candidates (one per abstract id) at the
// view's table, for a's abstract id; 0 outside the play phase, with one candidate, or where
// the table has no network.
double model_log_prob(const PolicyView& view, const Action& a, double t, PolicyScratch& scratch) {
  static const int learned = find_model_policy(kBuiltinModel);  // looked up once, as the expert
  if (learned < 0 || view.phase() != Phase::kPlay) return 0.0;
  const auto net = model_of(PolicyId(learned), view.rules().table);
  if (!net) return 0.0;
  thread_local Decision d;
  prepare_decision(view, net.get(), scratch, &d);
  const int n = d.size();
  if (n < 2) return 0.0;
  const int level = view.level_rank(), id = abstract_id(a, level);
  int k = -1;
  double top = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    if (abstract_id(d.cands.actions[std::size_t(i)], level) == id) k = i;
    top = std::max(top, double(d.q[std::size_t(i)]) / t);
  }
  if (k < 0) throw GameError("inference: a decision outside the network's candidates");
  double sum = 0.0;  // log-sum-exp from the largest term, in candidate order
  for (int i = 0; i < n; ++i) sum += std::exp(double(d.q[std::size_t(i)]) / t - top);
  return double(d.q[std::size_t(k)]) / t - top - std::log(sum);
}

PolicyEntry model_search_entry(const char* name, int rollouts, const char* model, int top) {
  PolicyEntry e = search_entry(name, rollouts);
  e.incumbent_model = model;
  e.budget.model_top = top;
  e.budget.rank = &model_rank;
  return e;
}

PolicyEntry reply_search_entry(const char* name, int rollouts, const char* model, int top,
                               int plies) {
  PolicyEntry e = model_search_entry(name, rollouts, model, top);
  e.budget.model_plies = plies;
  return e;
}

// The estimate of the value network set for g's table (a ValueFn, search.hpp); 0 without one.
double model_value(const GameState& g, int seat) {
  const auto net = builtin_value(g.table().kind);
  return net ? double(net->value(g, seat)) : 0.0;
}

PolicyEntry inference_search_entry(const char* name, int rollouts, Inference inference) {
  PolicyEntry e = search_entry(name, rollouts);
  e.budget.inference = inference;
  return e;
}

std::vector<PolicyEntry> make_catalog() {
  std::vector<PolicyEntry> c = {
#define DAGUAI_RULE_POLICY(name, function) rule_entry(#name, &function),
#define DAGUAI_SEARCH_POLICY(name, rollouts) search_entry(#name, rollouts),
#define DAGUAI_MODEL_SEARCH_POLICY(name, rollouts, model, top) \
  model_search_entry(#name, rollouts, model, top),
#define DAGUAI_INFERENCE_SEARCH_POLICY(name, rollouts, inference) \
  inference_search_entry(#name, rollouts, Inference::inference),
#define DAGUAI_REPLY_SEARCH_POLICY(name, rollouts, model, top, plies) \
  reply_search_entry(#name, rollouts, model, top, plies),
#include <daguai/catalog/policies.def>
#undef DAGUAI_RULE_POLICY
#undef DAGUAI_SEARCH_POLICY
#undef DAGUAI_MODEL_SEARCH_POLICY
#undef DAGUAI_INFERENCE_SEARCH_POLICY
#undef DAGUAI_REPLY_SEARCH_POLICY
  };
  // the ids the layers below name (players/policy.hpp) are these lines of the list
  const std::pair<PolicyId, const char*> named[] = {{PolicyId::kRandom, "random"},
                                                    {PolicyId::kGreedy, "greedy"},
                                                    {PolicyId::kHeuristic, "heuristic"},
                                                    {PolicyId::kPimc, "pimc"}};
  for (const auto& [id, name] : named)
    if (std::size_t(id) >= c.size() || std::strcmp(c[std::size_t(id)].name, name) != 0)
      throw std::logic_error(std::string("policies.def: ") + name + " is not at its PolicyId");
  if (c.size() > std::size_t(kFirstModel))
    throw std::logic_error("policies.def: more policies than ids below the models");
  return c;
}

}  // namespace

const std::vector<PolicyEntry>& policy_catalog() {
  static const std::vector<PolicyEntry> catalog = make_catalog();
  return catalog;
}

const PolicyEntry* policy_entry(PolicyId id) {
  const auto& c = policy_catalog();
  return std::size_t(id) < c.size() ? &c[std::size_t(id)] : nullptr;
}

bool is_policy_id(int id) {
  if (id >= 0 && std::size_t(id) < policy_catalog().size()) return true;
  if (id >= kFirstOverModel)
    return id < kFirstOverModel + kMaxOverModels && over_model(PolicyId(id));
  return id >= kFirstModel && id < kFirstModel + kMaxModels && model_of(PolicyId(id)) != nullptr;
}

PolicyKind policy_kind(PolicyId id) {
  if (const PolicyEntry* e = policy_entry(id)) return e->kind;
  if (model_of(id)) return PolicyKind::kModel;
  if (over_model(id)) return PolicyKind::kSearch;
  throw GameError("unknown policy");
}

bool is_search_policy(PolicyId id) {
  const PolicyEntry* e = policy_entry(id);
  return (e && e->kind == PolicyKind::kSearch) || over_model(id);
}

PolicyId parse_policy(const std::string& name) {
  if (name.find('@') != std::string::npos) return over_model_policy(name);  // over_model.hpp
  const auto& c = policy_catalog();
  std::string names;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (name == c[i].name) return PolicyId(i);
    names += (i ? ", " : "") + std::string(c[i].name);
  }
  // models (learned/models.hpp): "learned" (the shipped model) or the path of a .dgn file
  if (const int id = find_model_policy(name); id >= 0) return PolicyId(id);
  if (has_builtin_model()) names += std::string(", ") + kBuiltinModel;
  throw GameError("unknown policy '" + name + "': expected one of " + names +
                  ", the path of a .dgn model file or SEARCH@MODEL");
}

const char* policy_name(PolicyId id) {
  if (const PolicyEntry* e = policy_entry(id)) return e->name;
  if (const OverModel* o = over_model(id)) return o->name.c_str();
  return model_name(id);
}

namespace {

// The policy id of a search entry's incumbent model, looked up once per entry (a model name
// is read from its file at every lookup); kNoPolicy without that model (then the search's
// incumbent is its rollout policy's choice, the plain search).
PolicyId incumbent_of(PolicyId id, const PolicyEntry& e) {
  // per entry: 0 = not looked up yet, else the model's id + 2 (1: no such model)
  static std::array<std::atomic<int>, kFirstModel> resolved{};
  std::atomic<int>& slot = resolved[std::size_t(id)];
  int k = slot.load(std::memory_order_acquire) - 2;
  if (k == -2) {
    k = find_model_policy(e.incumbent_model);
    slot.store(k + 2, std::memory_order_release);
  }
  return k < 0 ? kNoPolicy : PolicyId(k);
}

}  // namespace

Action decide(PolicyId id, const PolicyView& view, Rng& rng, PolicyScratch& scratch) {
  if (const PolicyEntry* e = policy_entry(id)) {
    if (e->kind != PolicyKind::kSearch) return e->fn(view, rng, scratch);
    if (!e->incumbent_model) return pimc_action(view, rng, scratch, e->budget);
    SearchConfig cfg = e->budget;
    cfg.incumbent = incumbent_of(id, *e);
    return pimc_action(view, rng, scratch, cfg);
  }
  if (const auto net = model_of(id, view.rules().table))
    return learned_action(view, net.get(), scratch);
  if (const OverModel* o = over_model(id)) {
    SearchConfig cfg = policy_entry(o->search)->budget;
    cfg.incumbent = o->model;
    return pimc_action(view, rng, scratch, cfg);
  }
  throw GameError("unknown policy");
}

Action rollout_decide(PolicyId id, const PolicyView& view, Rng& rng, PolicyScratch& scratch) {
  // one lookup for a rule policy, every decision of every rollout
  const PolicyEntry* e = policy_entry(id);
  if (e && e->kind != PolicyKind::kSearch) return e->fn(view, rng, scratch);
  if (e || over_model(id)) throw GameError("a rollout policy cannot be a search policy");
  return decide(id, view, rng, scratch);  // a model, or GameError for an unknown id
}

Action choose_action(PolicyId id, const PolicyView& view, Rng& rng, PolicyScratch& scratch) {
  if (view.match_over()) throw GameError("the match is over: no decision to choose");
  return decide(id, view, rng, scratch);
}

Action choose_action(PolicyId id, const GameState& g, Rng& rng, PolicyScratch& scratch) {
  return choose_action(id, PolicyView(g), rng, scratch);
}

TracedDecision traced_decision(PolicyId id, const GameState& g, std::uint64_t seed,
                               std::uint64_t game) {
  if (!is_search_policy(id))
    throw GameError(std::string("traced decision: '") + policy_name(id) +
                    "' is not a search policy");
  Rng rng = Rng::stream(seed, game, Stream::kPolicy, std::uint64_t(g.current_player()));
  PolicyScratch scratch;
  TracedDecision out;
  const SearchTraceScope scope(&out.trace);
  out.chosen = choose_action(id, g, rng, scratch);  // the policy's own path
  return out;
}

bool needs_history(int id) {
  if (const OverModel* o = id >= 0 ? over_model(PolicyId(id)) : nullptr) id = int(o->search);
  if (id < 0 || id >= int(policy_catalog().size())) return false;
  const PolicyEntry& e = policy_catalog()[std::size_t(id)];
  return e.kind == PolicyKind::kSearch && e.budget.inference != Inference::kNone;
}

void check_learned_inference(Inference mode, TableKind table) {
  if (mode != Inference::kLearned) return;
  const int learned = find_model_policy(kBuiltinModel);
  if (learned < 0 || !model_of(PolicyId(learned), table))
    throw GameError(
        "search: inference 'learned' needs a learned model for this table, and "
        "none is loaded");
}

ValueFn value_function(TableKind table) {
  if (!builtin_value(table))
    throw GameError(std::string("search: no value network is loaded for the table ") +
                    table_of(table).name);
  return &model_value;
}

SearchConfig search_config() {
  SearchConfig cfg;
  cfg.decide = &rollout_decide;
  cfg.log_prob = &model_log_prob;
  return cfg;
}

void check_search_config(const SearchConfig& cfg) {
  check_search_limits(cfg);
  if (is_search_policy(cfg.rollout))
    throw GameError("search: the rollout policy cannot be a search policy");
}

}  // namespace daguai
