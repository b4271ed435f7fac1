// Determinization: complete worlds consistent with what one seat knows (docs/search.md
// "Sampling worlds", with the argument of why it is exact).
//
// The target: the hidden cards (InfoState::unseen) dealt as physical cards, hidden_count(s)
// to each other seat s on top of known[s], every assignment of the physical cards equally
// likely, restricted to the worlds that satisfy the view's constraint model
// (constraints.hpp). A multiset assignment then has the probability of the deals producing
// it, prod c_f! / prod n_{s,f}!, renormalised over the consistent ones.
//
// Two stages, both aimed at that target, neither able to fail:
//   1. rejection: a Fisher-Yates deal of the unseen cards, kept if consistent (exactly the
//      target), up to kRejectAttempts deals;
//   2. a swap chain (only when every deal was rejected): from a consistent start (a local
//      search over card swaps, then, if that stalls, an exhaustive search, which finds one
//      because the true hands are one), kChainSweeps * (hidden cards) Metropolis steps:
//      swap two hidden physical cards of different seats, chosen uniformly among such
//      pairs of positions, and keep the swap if the world stays consistent. The proposal is
//      symmetric, so the uniform distribution over consistent physical assignments (the
//      target) is stationary.
//
// World k of sample_worlds(v, n, seed) uses Rng::stream(seed, 0, kSample, k) only, so
// results depend on (view, seed, k) and never on n's split or the number of threads.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <daguai/beliefs/constraints.hpp>
#include <daguai/core/rng.hpp>
#include <daguai/game/infostate.hpp>
#include <daguai/game/state.hpp>

namespace daguai {

constexpr int kRejectAttempts = 500;
constexpr int kChainSweeps = 20;
// Restarts of the local search for a consistent start, then the exhaustive search's bound:
// beyond it sample_worlds raises GameError rather than run for an unbounded time (a known
// limit: the exhaustive search is exponential in the worst case, docs/search.md).
constexpr int kStartRestarts = 256;
constexpr long kExhaustiveNodes = 20'000'000;

// How a world is drawn: kAuto as above; kReject / kChain force one stage (tests measure
// each against exhaustive enumeration; kReject may then fail with GameError).
enum class SampleMethod : std::uint8_t { kAuto = 0, kReject = 1, kChain = 2 };

// What drawing one world took.
struct SampleStats {
  int attempts = 0;      // rejection deals
  bool chain = false;    // the swap chain made the world
  long start_steps = 0;  // chain: swaps of the start search (exhaustive nodes added)
};

// Whether full hands agree with every constraint of the view (constraints.hpp).
bool consistent(const InfoState& v, const Hands& hands);

// One consistent assignment of the hidden cards into `hands`.
SampleStats sample_hands(const Constraints& c, Rng& rng, Hands* hands,
                         SampleMethod method = SampleMethod::kAuto);

// The exhaustive search alone (sample_hands' last resort): a consistent assignment of the
// hidden cards into `hands` (true), or false when none exists; `nodes` counts its steps, and
// beyond kExhaustiveNodes it raises GameError. Deterministic: no generator.
bool exhaustive_hands(const Constraints& c, Hands* hands, long* nodes);

// The world of the view with these hands: GameState's world constructor on the view's public
// state, the hands and the viewer's own exchange (no log; later deals from (seed, game)).
GameState make_world(const InfoState& v, const Hands& hands, std::uint64_t seed,
                     std::uint64_t game);

// n worlds (n >= 1, GameError otherwise), world k from stream (seed, 0, kSample, k).
std::vector<GameState> sample_worlds(const InfoState& v, int n, std::uint64_t seed);
// The hands of world k alone (what sample_worlds' world k holds).
Hands sample_world_hands(const InfoState& v, std::uint64_t seed, std::uint64_t k,
                         SampleMethod method = SampleMethod::kAuto, SampleStats* stats = nullptr);
Hands sample_world_hands(const Constraints& c, std::uint64_t seed, std::uint64_t k,
                         SampleMethod method = SampleMethod::kAuto, SampleStats* stats = nullptr);

}  // namespace daguai
