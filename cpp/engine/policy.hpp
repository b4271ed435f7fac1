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
// Policies are deterministic functions of the game state and their own random stream
// (Rng::stream(seed, game, kPolicy, seat)).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "moves.hpp"
#include "rng.hpp"
#include "state.hpp"

namespace daguai {

enum class PolicyKind : std::uint8_t { kRandom = 0, kGreedy = 1, kHeuristic = 2 };
PolicyKind parse_policy(const std::string& name);  // throws GameError on an unknown name
const char* policy_name(PolicyKind k);

// Scratch space reused across decisions (no allocation after warm-up).
struct PolicyScratch {
  PlayList plays;
  std::vector<Action> actions;
  std::vector<Play> plan;  // heuristic: the current decomposition of the hand
  Cards plan_hand;         // the hand the plan was made for
};

// The decision of the player to act (g.current_player()). `rng` is that seat's stream.
Action choose_action(PolicyKind kind, const GameState& g, Rng& rng, PolicyScratch& scratch);

}  // namespace daguai
