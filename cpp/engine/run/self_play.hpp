// The learned player's self-play generator, which the trainer's actors call
// (python/daguai/learn/, docs/learning.md): a runner above the catalog, since a seat may play
// any policy.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <daguai/core/rules.hpp>
#include <daguai/learned/features.hpp>
#include <daguai/players/policy.hpp>

namespace daguai {

// Plays rounds games first_game .. first_game + n - 1 (random start states, as
// Game(start="random"), or fresh ones). Seat s plays policies[s] (a model id or a hand-written
// policy). At a play decision of a seat with record[s] that has two or more candidates:
//   - with probability epsilon the seat plays a uniformly random candidate (state diversity);
//   - with probability `branch` the decision is also *branched*: from a copy of the state the
//     seat's own choice `main` and one alternative `alt` are each applied and the round is
//     played out, every seat playing its *continuation policy* (common random numbers: the
//     same streams in both branches), and both are recorded: frame 2i is (state, main, its
//     outcome), frame 2i+1 is (state, alt, its outcome). `alt` is, with probability 1/2 when
//     the seat plays a network, the network's best other candidate, else a uniformly random
//     other candidate.
// With `r11`, the R11 decisions of a recorded seat (tribute, anti-tribute, return, offer, take)
// are recorded too: their candidates are one per abstract id as in play, `main` is the
// network's pick when its file says it makes them (Network::decides_r11, else the heuristic's
// choice), and every one of them with two or more candidates is branched (they are about two
// a round against hundreds of play decisions). They draw from streams of their own
// (Rng::stream(seed, game, kExplore, kSeats + seat), and play-outs from b = 2^32 on), so with
// a network that does not make them the play decisions' frames are those of a run without r11.
// Each seat's continuation policy is drawn per game from `continuation` (uniformly, from
// Rng::stream(seed, game, kContinuation, seat); no draw when the pool has one policy, so the
// default pool {heuristic} gives the frames of a heuristic play-out). The pair's outcome
// difference estimates Q_c(s, alt) - Q_c(s, main), the continuation's advantage, with far
// less variance than two separate rounds (the deal, the hands and later choices are shared).
// The exploration draws come from Rng::stream(seed, game, kExplore, seat), a play-out's from
// Rng::stream(seed, game, kContinuation, 6 (b + 1) + seat) for the game's b-th branched
// decision. Deterministic in its arguments and the models' files (R17).
struct Frames {
  std::vector<float> state, action;  // frames x kStateFeatures, frames x kActionFeatures
  std::vector<float> target;         // the branch's round outcome for the seat's team (R13)
  std::vector<float> score;          // the seat's round score change in that branch (R13)
  std::vector<std::uint64_t> game;
  std::vector<std::int8_t> seat;
  std::size_t size() const { return target.size(); }
};
struct SelfPlayConfig {
  Rules rules;
  std::uint64_t seed = 0, first_game = 0;
  std::int64_t n = 0;
  std::array<PolicyId, kSeats> policies{};
  std::array<bool, kSeats> record{};
  double epsilon = 0;
  double branch = 1;
  bool random_start = true;
  bool r11 = false;
  // The continuation pool: models or hand-written policies, not searches (GameError).
  std::vector<PolicyId> continuation{PolicyId::kHeuristic};
};
// The largest continuation pool (python/daguai/learn/config.py reads it: MAX_CONTINUATION).
constexpr int kMaxContinuation = 64;
// The largest n of one self_play call.
constexpr std::int64_t kMaxSelfPlayGames = std::int64_t(1) << 24;
// A config from policy names (catalog names, 'learned' or .dgn paths), checked: one policy
// and one record flag per seat of the rules' table, n in [0, kMaxSelfPlayGames], epsilon and
// branch in [0, 1], 1 to kMaxContinuation continuation policies (GameError naming the first
// problem; the catalog's errors for a name).
SelfPlayConfig self_play_config(const Rules& rules, std::uint64_t seed, std::uint64_t first_game,
                                std::int64_t n, const std::vector<std::string>& policies,
                                const std::vector<bool>& record, double epsilon, double branch,
                                bool random_start, const std::vector<std::string>& continuation,
                                bool r11 = false);
// The rounds played (main lines) are counted in *rounds.
void self_play(const SelfPlayConfig& cfg, Frames* out, std::int64_t* rounds = nullptr);

}  // namespace daguai
