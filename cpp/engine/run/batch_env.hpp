// A batch of N environments stepped together: actions in, observations,
// masks, rewards and done flags out, in caller-owned buffers. One environment = one seat-
// agnostic game: the observation is that of the player to act.
//
// Episodes: one round (default) or one match. Environment i's k-th episode is
// GameState(rules, seed, game = k * n + i): so a trajectory can be reproduced by stepping a
// daguai.Game(seed, rules, game=...) with the same actions. When an action ends an episode,
// done[i] = 1, rewards[i] hold the round's score changes (R13) of the seats (6, or 4 at 4p2d), and
// the environment is reset at once: the observation returned is the new episode's first one.
//
// Start states (docs/learning.md): every episode's game is GameState(rules, seed, game,
// auto_pass, start) — with Start::kRandom, round episodes begin at random levels, often with
// a tribute exchange (state.hpp). Round episodes run with max_rounds = 1, so that the state
// after the last action is the finished round (encoded into final_obs), not the next deal.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include <daguai/game/state.hpp>
#include <daguai/io/encode.hpp>
#include <daguai/players/policy.hpp>

namespace daguai {

class BatchEnv {
 public:
  BatchEnv(int n, const Rules& rules, std::uint64_t seed, bool matches, bool auto_pass,
           Start start = Start::kFresh);

  int size() const { return int(envs_.size()); }
  const Rules& rules() const { return rules_; }  // the episodes' (max_rounds = 1 for rounds)
  std::uint64_t seed() const { return seed_; }
  bool matches() const { return matches_; }
  bool auto_pass() const { return auto_pass_; }
  int seats() const { return table_of(rules_).seats; }  // R18: reward row width
  const GameState& game(int i) const { return envs_[std::size_t(i)].g; }
  std::uint64_t game_index(int i) const { return envs_[std::size_t(i)].game; }
  const std::vector<Action>& legal(int i) const { return envs_[std::size_t(i)].legal; }
  std::int64_t episodes_done() const { return episodes_done_; }
  Start start() const { return start_; }

  // Restart every environment at its first episode.
  void reset();
  // End environment i's episode now (truncation) and start its next episode.
  void truncate(int i);
  // Validate every action (throws GameError naming the environment; nothing applied), then
  // apply them. abstract: ids (encode.hpp); else indices into legal(i). rewards: n x 6,
  // done: n, final_obs: n x kObsSize (each may be null). Where an episode ends, final_obs
  // row i is the observation of its last state seen by the learner seat that acted.
  void step(const std::int32_t* actions, bool abstract, float* rewards, std::uint8_t* done,
            float* final_obs = nullptr);
  // Observation of the player to act (n x kObsSize), abstract masks (n x kNumAbstract, may
  // be null), player to act (n, may be null).
  void observe(float* obs, std::int8_t* mask, std::int32_t* to_act);
  // Candidate features of every legal action: offsets (n + 1) into rows of kCandFeatures.
  void candidates(std::vector<float>* features, std::int64_t* offsets) const;
  // Built-in opponents: kinds[s] = a policy id on the seats the learner does not
  // control, -1 on the learner's seats (at least one). Opponent seats are played in C++
  // inside reset/step with the streams (seed, game, kPolicy, seat): observations are only
  // ever of learner seats; rewards of rounds the opponents end are reported on that step.
  // Restarts every environment.
  void set_opponents(const std::array<int, kSeats>& kinds);
  const std::array<int, kSeats>& opponents() const { return opponents_; }

  // Pickling (subprocess vector environments): what a BatchEnv is beyond its constructor's
  // arguments. Every game and every opponent's stream follows from (seed, game index) and the
  // decisions made in it (R17), so an environment is saved as its episode number and the learner's
  // decisions in that episode (indices into legal(i), in order); restore() replays them with the
  // opponents, the same code as step(), and the copy then steps exactly as the original.
  struct Saved {
    std::array<int, kSeats> opponents{};
    std::int64_t episodes_done = 0;
    std::vector<std::int64_t> episodes;                // per environment
    std::vector<std::vector<std::int32_t>> decisions;  // per environment
  };
  Saved save() const;
  // Throws GameError naming the first inconsistency (a count, an index out of range, an
  // episode that would end before its decisions are replayed); this object is then unchanged.
  void restore(const Saved& s);

 private:
  struct Env {
    explicit Env(GameState state) : g(std::move(state)) {}
    GameState g;
    std::vector<Action> legal;
    std::int32_t index[kNumAbstract];  // abstract id -> index into legal (-1 unavailable)
    std::uint8_t mask[kNumAbstract];
    bool mask_fresh = false;
    std::uint64_t game = 0;
    std::int64_t episode = 0;
    std::array<Rng, kSeats> rngs;         // opponents' streams
    std::vector<std::int32_t> decisions;  // the learner's, this episode (save / restore)
  };
  // Apply legal index k of environment i (the body of step() for one environment); returns
  // true if the episode ended (and a new one started).
  bool apply(Env& e, int i, std::int32_t k, float* r, float* final_obs);
  void check_opponents(const std::array<int, kSeats>& kinds) const;
  // Play opponent seats until a learner seat is to act; adds round rewards into r (may be
  // null); returns true if the episode ended.
  bool advance(Env& e, float* r);
  std::array<int, kSeats> opponents_{{-1, -1, -1, -1, -1, -1}};
  std::array<PolicyScratch, kSeats> scratch_;
  void start(Env& e, int i, std::int64_t episode);
  void refresh(Env& e);

  Rules rules_;
  std::uint64_t seed_;
  bool matches_, auto_pass_;
  Start start_;
  int n_;
  std::vector<Env> envs_;
  std::int64_t episodes_done_ = 0;
};

}  // namespace daguai
