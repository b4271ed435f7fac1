// Search over hidden information: perfect-information Monte Carlo (PIMC)
// with a race between the candidates.
//
// For a decision of seat s with view v: sample worlds (sampler.hpp); a rollout of candidate
// i in world k plays i, then every seat follows the rollout policy (default heuristic) to the
// end of the round. Its value is the round's score change of seat s (R13: it grows with the
// size of the win); its outcome (win / draw / loss of s's team) is kept for analyze.
// Common random numbers: world k's hands come from Rng::stream(seed, 0, kSample, k) and its
// rollouts from Rng::stream(seed, k, kPolicy, seat) for every candidate, so candidates are
// compared on the same deals and the same rollout choices; every candidate sees worlds
// 0, 1, 2, ... in order, so any two are compared on the worlds they share.
//
// The race (sequential halving; docs/search.md "The race"): the budget of B rollouts is
// split evenly over R rounds. In round r every candidate still running is played in the
// same new worlds until each has seen N_r worlds; then the lower half of the challengers (by
// mean value over those N_r worlds, ties to the earlier candidate) stops. Without an
// incumbent R = ceil(log2 n) and the last one running is best. With an incumbent (the
// rollout policy's own choice, pimc) the incumbent never stops; the challengers are halved
// to one in ceil(log2(n - 1)) rounds, and a final round plays the incumbent and that
// challenger with what is left of the budget: the challenger replaces the incumbent only if,
// over at least 4 worlds, its paired mean advantage is positive and above two standard
// errors (few worlds are noisy: do not switch on noise). A round gives each candidate at
// least one new world, so a budget below the number of candidates is exceeded.
// Every (candidate, world) value depends only on (view, seed, candidate, world): results are
// the same for any number of threads (the rollouts of a round run in parallel).
//
// With cfg.ms > 0 the race is run with budgets B, 2B, 4B, ... (reusing every rollout already
// played) until the time is spent, and the last race that finished is the result (then it
// depends on the machine's speed). If even the first race does not finish in time, the result
// is partial: rounds = 0, each candidate with the worlds it finished, the best mean among those
// with the most worlds. A decision with a single legal action costs no search.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <daguai/game/infostate.hpp>
#include <daguai/players/play_out.hpp>
#include <daguai/players/policy.hpp>
#include <daguai/search/inference.hpp>

namespace daguai {

constexpr PolicyId kNoPolicy = PolicyId(0xFFFF);

// A model's ranking of the seat's decisions, best first (the catalog's model_rank: the learned
// network's candidates by Q); empty when it ranks none (outside the play phase, no model).
using RankFn = void (*)(PolicyId id, const PolicyView& view, PolicyScratch& scratch,
                        std::vector<Action>* ranked);
// A value network's estimate of the round's score change of `seat` from g on, every hand read
// (g is a sampled world): the catalog's model_value (learned/value.hpp).
using ValueFn = double (*)(const GameState& g, int seat);
// With a value, a rollout's values are kept in thousandths of a point (kValueScale).
constexpr int kValueScale = 1000;

// Settings of a search: a catalog entry of kind search carries its own
// (catalog/policies.def: "pimc24" is the search with a budget of 24 rollouts).
struct SearchConfig {
  int rollouts = 256;       // budget in rollouts per decision (1 .. kMaxRollouts)
  double ms = 0;            // > 0: doubled budgets until this many milliseconds are spent
  int threads = 1;          // 1 .. kMaxThreads (workers.hpp); results do not depend on it
  int max_candidates = 16;  // pimc: race at most this many groups of plays (0 = all)
  PolicyId rollout = PolicyId::kHeuristic;  // the policy every seat plays in rollouts
  // pimc: the policy whose choice is the incumbent (kept unless a challenger is clearly
  // better); kNoPolicy: the rollout policy's. The catalog's expert sets the learned model.
  PolicyId incumbent = kNoPolicy;
  // pimc with an incumbent policy and a ranking: race the incumbent's group and the next
  // groups of `rank`'s order, model_top groups in all, instead of pimc's selection (the
  // expert: the network's best candidates; docs/search.md "expert"). 0: pimc's selection.
  int model_top = 0;
  RankFn rank = nullptr;
  // With an incumbent policy: the first model_plies decisions of every rollout (after the
  // candidate) are the incumbent policy's, the rest the rollout policy's (the expert's
  // rollouts begin with the network's replies; docs/search.md "expert_net8"). 0: none.
  int model_plies = 0;
  // With a value: every rollout plays value_plies decisions of the rollout policy after the
  // candidate (and the model's replies), then, unless its round is over, takes value(world,
  // seat) as its value in place of playing to the end, and the value's sign as its outcome
  // (docs/learning.md "A value for the search's worlds"). Every value of such a race
  // (CandidateStats.values, score) is in thousandths of a point (kValueScale). nullptr:
  // rollouts play to the end.
  int value_plies = 0;
  ValueFn value = nullptr;
  // How `rollout` is played: the catalog's rollout_decide (catalog/catalog.hpp), which
  // refuses a search policy; the catalog and the bindings set it.
  DecideFn decide = nullptr;
  // Inference from play (inference.hpp): resample each world from inference_worlds uniform
  // ones by the likelihood of the others' plays this round: kHeuristic, the heuristic's
  // choice with noise inference_noise; kLearned, the learned network's softmax at
  // inference_temperature (through log_prob, which the catalog sets). The view must carry
  // its history.
  Inference inference = Inference::kNone;
  int inference_worlds = kInferenceWorlds;   // 1 .. kMaxInferenceWorlds
  double inference_noise = kHeuristicNoise;  // in (0, 1)
  double inference_temperature = kLearnedTemperature;
  LogProbFn log_prob = nullptr;
  PlayModel play_model() const {
    return PlayModel{inference, inference_noise, inference_temperature, decide, log_prob};
  }
};

// Limits of one search (docs/errors.md): budgets in rollouts, and the worlds of one candidate.
constexpr long kMaxRollouts = 1L << 24;
constexpr double kMaxSearchMs = 3600.0 * 1000.0;
constexpr int kMaxModelPlies = 1000;

struct CandidateStats {
  Action action;
  int n = 0;  // worlds (rollouts) of this candidate in the race
  int wins = 0, draws = 0, losses = 0;
  double score = 0;                  // sum of the seat's round score changes
  int round = 0;                     // the last round of the race it ran in (0-based)
  std::vector<std::int32_t> values;  // value in worlds 0 .. n-1 (the score change)
  double mean() const { return n ? double(wins - losses) / n : 0.0; }
  double mean_score() const { return n ? score / n : 0.0; }
};

struct SearchResult {
  std::vector<CandidateStats> candidates;  // in the order given
  int best = 0;                            // index into candidates
  int worlds = 0;                          // the most worlds any candidate saw
  int rounds = 0;                          // rounds of the race
  long rollouts = 0;                       // rollouts of the race (the result's budget used)
  long budget = 0;                         // its budget (cfg.rollouts, or more with cfg.ms)
};

// Progress of a search: called on the calling thread between rounds with the rollouts
// played so far and the total planned (time mode: elapsed and allowed milliseconds).
// Returning false stops the search (GameError "search: interrupted").
using SearchProgress = std::function<bool(double done, double total)>;

// Race `actions` (legal for the view's seat, who must be to act) over sampled worlds.
// `incumbent` (an index, or -1) is the rollout policy's choice (see above).
SearchResult search(const InfoState& v, const std::vector<Action>& actions, const SearchConfig& cfg,
                    std::uint64_t seed, int incumbent = -1,
                    const SearchProgress& progress = SearchProgress());

// An analysis (daguai.analyze): the race of the groups of equivalent legal actions of the
// seat to act of `g`, at most cfg.max_candidates of them chosen as pimc chooses
// (candidate_arms), with `incumbent` (an index into g's legal actions, or -1) first. With
// `only` (indices into g's legal actions), only the groups holding one of them (and the
// incumbent's) race, every one of them (cfg.max_candidates is not read).
struct Analysis {
  SearchResult result;                       // one CandidateStats per arm, in the arms' order
  std::vector<std::vector<Action>> members;  // per arm, the actions of its group (the
                                             // incumbent first in its own)
  int groups = 0;                            // groups of the legal actions
};
// GameError when the match is over, `incumbent` is not -1 or a legal action's index, or an
// index of `only` is not a legal action's (play_indices gives them for actions).
Analysis analyze_decision(const GameState& g, const SearchConfig& cfg, std::uint64_t seed,
                          int incumbent, const SearchProgress& progress = SearchProgress(),
                          const std::vector<int>& only = {});

// The plays of an analysis restricted to some actions (analyze_decision's `only`):
// check_play_count refuses a count outside 1 .. the legal actions of `g` (GameError; called
// before the plays are read), play_indices checks each action as GameState::check does (its
// error names what is wrong) and gives its index among g's legal actions.
void check_play_count(const GameState& g, std::size_t count);
std::vector<int> play_indices(const GameState& g, const std::vector<Action>& plays);

// One rollout from `g` to the end of its round (or the match): every seat plays `policy`
// through `decide` with the streams of (seed, game) (play_out.hpp; `seats` is the caller's
// scratch, reused); returns the round's winner (team) or -1 for a draw (the round's result
// is then g.results().back()). `g` deals no next round (GameState::stop_after_this_round):
// it ends as a match that is over.
int rollout_round(GameState& g, PolicyId policy, DecideFn decide, std::uint64_t seed,
                  std::uint64_t game, Seats& seats);
int rollout_round(GameState& g, PolicyId policy, DecideFn decide, std::uint64_t seed,
                  std::uint64_t game);

// The search policies (catalog entries of kind search, each with its SearchConfig): the groups of
// equivalent plays (candidates.hpp), at most cfg.max_candidates of them chosen by select_candidates
// with the rollout policy's own choice as incumbent (or cfg.incumbent's choice and, with
// cfg.model_top, the groups of cfg.rank's best decisions), raced with the budget of cfg.
Action pimc_action(const PolicyView& view, Rng& rng, PolicyScratch& scratch,
                   const SearchConfig& cfg);

// What a search policy's decision saw, for the search's labels of positions (the labeller,
// docs/learning.md "Labels from the search"): the seed of its race, the arms it raced (the
// incumbent first) and the race. While a SearchTrace is active on a thread, every pimc_action
// on that thread records into it (the last one wins; the rollouts never search, so one
// decision of a search policy records once). `searched` is false for a decision the policy
// made without a race (a single legal action or a single arm): then arms and result are empty.
// Recording changes no decision: the policy plays exactly as without it.
struct SearchTrace {
  bool searched = false;
  std::uint64_t seed = 0;
  int incumbent = -1;        // the incumbent's index into arms (0 when searched)
  std::vector<Action> arms;  // the candidates raced, in the race's order
  SearchResult result;       // the race (result.best indexes arms)
};
// Records the pimc_action decisions of this thread into `trace` while alive (scopes nest: the
// inner one records). `trace` is cleared first.
class SearchTraceScope {
 public:
  explicit SearchTraceScope(SearchTrace* trace);
  ~SearchTraceScope();
  SearchTraceScope(const SearchTraceScope&) = delete;
  SearchTraceScope& operator=(const SearchTraceScope&) = delete;

 private:
  SearchTrace* previous_;
};

// GameError unless the budget is within the limits above (threads: workers.hpp) and the
// config has its rollout dispatcher (the catalog's check_search_config also refuses a search
// as the rollout policy).
void check_search_limits(const SearchConfig& cfg);

}  // namespace daguai
