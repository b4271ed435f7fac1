// Search over hidden information (issue 9): perfect-information Monte Carlo (PIMC).
//
// For a decision of seat s with view v: sample worlds (sampler.hpp), and in every world play
// each candidate action followed by a rollout to the end of the round, every seat playing
// the rollout policy (default heuristic). A candidate's value in a world is the round's
// score change of seat s (R13: it grows with the size of the win). Without a prior the
// candidate with the best mean is chosen (ties: the earlier one); with a prior (the rollout
// policy's own choice) another candidate replaces it only if, over at least 4 worlds, its
// paired mean advantage over the prior is positive and above two standard errors (few
// worlds are noisy: do not switch on noise).
// Common random numbers: in world k every candidate's rollout uses the same policy streams
// Rng::stream(seed, k, kPolicy, seat), so candidates are compared on the same deals and
// the same rollout choices. Why PIMC rather than IS-MCTS: docs/search.md.
//
// Budget: cfg.rollouts total rollouts, i.e. worlds = clamp(rollouts / candidates,
// min_worlds, max_worlds); or, with cfg.ms > 0, worlds are added in blocks of `threads`
// until the time is spent (then results depend on the machine). World k's results depend
// only on (view, seed, k): results are the same for any number of threads. A decision with
// a single legal action costs no search.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "infostate.hpp"
#include "policy.hpp"

namespace daguai {

struct CandidateStats {
  Action action;
  int n = 0;  // rollouts
  int wins = 0, draws = 0, losses = 0;
  double score = 0;  // sum of the seat's round score changes
  double mean() const { return n ? double(wins - losses) / n : 0.0; }
  double mean_score() const { return n ? score / n : 0.0; }
};

struct SearchResult {
  std::vector<CandidateStats> candidates;  // in legal-action order
  int best = 0;                            // index into candidates
  int worlds = 0;
};

// Evaluate `actions` (legal for the view's seat, who must be to act) over sampled worlds.
SearchResult search(const InfoState& v, const std::vector<Action>& actions, const SearchConfig& cfg,
                    std::uint64_t seed, int prior = -1);

// One rollout from `g` to the end of its round (or the match): every seat plays `policy`
// with the streams of (seed, game); returns the round's winner (team) or -1 for a draw
// (the round's result is then g.results().back()).
int rollout_round(GameState& g, PolicyKind policy, std::uint64_t seed, std::uint64_t game);

// The "pimc" policy (registered in policy.cpp). With more than cfg.max_candidates legal
// actions it searches a subset: the rollout policy's own choice, pass, then per play size
// the lowest keys (prune_candidates).
Action pimc_action(const PolicyView& view, Rng& rng, PolicyScratch& scratch);
void prune_candidates(const PolicyView& view, const Action& prior, int keep,
                      std::vector<Action>* actions);
bool is_search_policy(PolicyKind k);  // the pimc family (never a rollout policy)

}  // namespace daguai
