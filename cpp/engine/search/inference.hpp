// Inference from play: worlds weighted by how likely the other seats' decisions of this
// round are in them under a model of play (docs/search.md "Inference from play").
//
// The model "heuristic": a seat makes the heuristic's choice (players/heuristic.hpp, seen
// from that seat's hand at that moment in the world) with probability 1 - eps, and any other
// legal decision with probability eps / (legal decisions - 1); a decision with a single legal
// action says nothing (factor 1). The observed decision "is" the heuristic's choice when it
// is the same action or a play of the same group of equivalent plays (candidates.hpp): the
// rest of the round cannot tell those apart, so neither can the likelihood.
//
// The model "learned": a seat plays the abstract action (encode.hpp: plays that differ only
// in suits, kickers or which joker share one) of candidate i of the learned network
// (learned.hpp, seen from that seat's view at that moment in the world) with probability
// softmax(Q / T)_i, T the fitted temperature. The network belongs to a layer above this one,
// so the search reaches it through a function it is given (SearchConfig::log_prob; the
// catalog's model_log_prob). Tribute-phase decisions count 1 as under the heuristic model.
//
// The weight of a world is the product of these factors over every play-phase decision of
// this round by a seat other than the viewer, forced passes excepted (they are already hard
// constraints). Tribute-phase decisions (tribute, return, offer, take) count 1. It is computed
// by rebuilding the round's play-phase start in the world (each hand then = its hand now +
// what it has played this round) and replaying the view's public history, asking the model
// at each decision; a world where the history cannot be replayed (under auto_pass, a seat
// passed by choice where the world gives it no beating play) has weight 0.
// A view without history (a game that does not record its log) gives every world weight 1.
//
// How the search uses it: sampling-importance-resampling per world slot. World k of an
// inferred search draws m = inference_worlds uniform consistent worlds (sampler.hpp indices
// k*m .. k*m+m-1 of the same seed) and keeps one with probability proportional to its weight
// (uniformly when all weigh 0), drawn from Rng::stream(seed, k, kSample, kInferencePick).
// So world k depends only on (view, seed, k): never on threads or batching (R17).
#pragma once

#include <cstdint>
#include <string>

#include <daguai/beliefs/constraints.hpp>
#include <daguai/game/infostate.hpp>
#include <daguai/players/policy.hpp>

namespace daguai {

enum class Inference : std::uint8_t { kNone = 0, kHeuristic = 1, kLearned = 2 };

// log P(decision a | view) under a model of play with temperature t (the catalog's
// model_log_prob: the learned network's softmax); 0 when the model says nothing (one
// candidate, or no network for the table).
using LogProbFn = double (*)(const PolicyView& view, const Action& a, double t,
                             PolicyScratch& scratch);

// The fitted noise rate of the heuristic model (docs/search.md: the maximum-likelihood eps
// over the decisions of pimc24, learned and heuristic_exact seats in self-play).
constexpr double kHeuristicNoise = 0.24;
// The fitted temperature of the learned model (docs/search.md: the maximum-likelihood T of the
// shipped network's softmax over the same self-play decisions).
constexpr double kLearnedTemperature = 0.049;
constexpr int kInferenceWorlds = 8;  // m: uniform worlds drawn per kept world (docs/search.md)
constexpr int kMaxInferenceWorlds = 1024;
constexpr std::uint64_t kInferencePick = 0x1Fu;  // the stream index of the resampling draw

// "none" / "heuristic" / "learned"; GameError naming any other value.
Inference parse_inference(const std::string& name);
const char* inference_name(Inference m);
// GameError unless 1 <= worlds <= kMaxInferenceWorlds, 0 < noise < 1 and
// kMinTemperature <= temperature <= kMaxTemperature.
constexpr double kMinTemperature = 1e-4, kMaxTemperature = 1e4;
void check_inference_settings(int worlds, double noise, double temperature = kLearnedTemperature);

// A model of play and its setting: the heuristic's choice with noise `noise` (asked through
// `decide`, the catalog's dispatcher), or the learned softmax at `temperature` (through
// `log_prob`).
struct PlayModel {
  Inference mode = Inference::kHeuristic;
  double noise = kHeuristicNoise;
  double temperature = kLearnedTemperature;
  DecideFn decide = nullptr;
  LogProbFn log_prob = nullptr;
};

// log P(the other seats' play-phase decisions of this round | the world's hands now) under the
// model; -infinity for a world the history rules out. `seed` feeds the heuristic's generator.
// Mode kNone: 0.
double play_log_likelihood(const InfoState& v, const Hands& hands, const PlayModel& model,
                           std::uint64_t seed, PolicyScratch& scratch);

// The hands of world k of a search with this inference, m uniform worlds drawn per kept one
// (kNone or m = 1: sample_world_hands(c, seed, k)).
Hands inferred_world_hands(const InfoState& v, const Constraints& c, const PlayModel& model, int m,
                           std::uint64_t seed, std::uint64_t k, PolicyScratch& scratch);

}  // namespace daguai
