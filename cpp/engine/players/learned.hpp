// The learned player (issue 18): features of (information state, candidate action), a small
// Q-network evaluated natively, the model registry, and the self-play generator the trainer's
// actors call (python/daguai/learn/, docs/learning.md "The learned player").
//
// Q(s, a) is the expected outcome of the round for the seat to act (R13: +1 its team wins,
// -1 it loses, 0 a draw) if it makes decision a now and plays on as the behaviour policy
// does (Deep Monte-Carlo, as DouZero / DanZero). Everything read is what the seat may know
// (R16): the InfoState of the seat (infostate.hpp), its own legal decisions, and the
// heuristic's choice, which is itself a function of that view.
//
// Candidates: in the play phase, one legal action per abstract id (encode.hpp: the canonical
// action of the id; plays that differ only in suits, kickers or which joker share it), so an
// opening lead of ~500 legal actions has ~60-120 candidates. The learned policy plays the
// candidate of highest Q (ties: the first in abstract-id order). In the tribute, return and
// take phases (R11) it plays as the heuristic does (the network is trained on play decisions).
//
// Network file (.dgn), every number little-endian (docs/learning.md "Weights file"):
//   char[4] "DGNN"; u32 format = 1; u32 feature_version = kLearnVersion;
//   u32 state_dim; u32 action_dim; u32 layers L (hidden, 1..8); u32 width[L];
//   float32 margin (the switching rule, learned_pick; finite, >= 0);
//   u32 meta_len; meta_len bytes of UTF-8 JSON (how the model was made);
//   float32 arrays in PyTorch's Linear layout (weight [out][in] row-major, then bias [out]):
//     layer 0: in = state_dim + action_dim (the input is [state features, action features]),
//     layer k: in = width[k-1], out = width[k]; output layer: in = width[L-1], out = 1;
//   u64 FNV-1a hash of every byte before it.
// Hidden layers are ReLU, the output linear. The forward pass splits layer 0 into its state
// columns (computed once per decision) and its action columns (per candidate), and skips
// zero inputs (the features are sparse counts); it is compiled with -ffp-contract=off so
// that every machine computes the same sums in the same order (R17: same seed, same game).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <daguai/io/encode.hpp>
#include <daguai/players/policy.hpp>

namespace daguai {

constexpr int kLearnVersion = 1;
// ---- state features: float32[kStateFeatures] ----------------------------------------------
//   [0, 633)    the observation tensor (encode.hpp, OBS_VERSION 1)
//   [633, 687)  unseen face counts: cards the seat cannot see (others' hands, unknown)
constexpr int kStateFeatures = kObsSize + 54;
// ---- action features: float32[kActionFeatures] per candidate ------------------------------
//   [0, 67)     the candidate features (encode.hpp: counts, kind, key, jokers, pass, size)
//   [67, 121)   face counts of the hand after the decision
//   121         1 if it is the heuristic's choice (the same abstract id)
//   122         cards left after the decision / 27
//   123         plays in the heuristic's plan (配牌) of the hand after the decision / 10
//   124         1 if the decision empties the hand (the seat goes out)
constexpr int kActionHandAfter = kCandFeatures;
constexpr int kActionHeuristic = kActionHandAfter + 54;
constexpr int kActionLeft = kActionHeuristic + 1;
constexpr int kActionPlan = kActionLeft + 1;
constexpr int kActionOut = kActionPlan + 1;
constexpr int kActionFeatures = kActionOut + 1;  // 125

// A model file that is not one (bad magic, sizes, hash, non-finite weights, other feature
// version): Python ModelError, a ValueError.
struct ModelError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

constexpr int kMaxModelLayers = 8;
constexpr int kMaxModelWidth = 4096;

// The file's closing hash: FNV-1a (64 bits) of `n` bytes.
std::uint64_t dgn_hash(const char* data, std::size_t n);

class Network {
 public:
  // Parses a .dgn file's bytes (ModelError naming the first problem).
  static Network from_bytes(const std::string& bytes);
  static Network from_file(const std::string& path);
  // The .dgn bytes of this network (from_bytes(to_bytes()) is identical).
  const std::string& to_bytes() const { return raw_; }

  const std::vector<int>& widths() const { return widths_; }
  const std::string& meta() const { return meta_; }
  float margin() const { return margin_; }
  std::size_t parameters() const;

  // Q of every candidate: state[kStateFeatures], actions[n][kActionFeatures] -> q[n].
  void evaluate(const float* state, const float* actions, int n, float* q) const;

 private:
  std::vector<int> widths_;
  float margin_ = 0;
  std::string meta_;
  // layer 0 split and transposed (input-major: row i = the weights from input i)
  std::vector<float> w0_state_, w0_action_, b0_;
  // hidden layers 1..L-1 and the output layer, input-major
  std::vector<std::vector<float>> w_, b_;
  std::string raw_;  // the file's bytes (to_bytes)
};

// The features of the seat to act (v must be the seat's view and the seat to act).
void encode_state_features(const InfoState& v, float* out);

// Play-phase candidates of the seat to act with their action features. `heuristic` is the
// heuristic's decision; `index` of the candidate with its abstract id (or -1).
struct Candidates {
  std::vector<Action> actions;
  std::vector<float> features;  // actions.size() x kActionFeatures
  int heuristic = -1;
};
void learned_candidates(const PolicyView& view, const Action& heuristic, PolicyScratch& scratch,
                        Candidates* out);

// The index of the candidate the learned policy plays: the one of highest Q, but the
// heuristic's candidate unless another beats it by more than `margin` (the network's
// switching rule, stored in its file: deviate from the hand-written player only where the
// network is confident; ties: the first in abstract-id order).
int learned_pick(const float* q, int n, int heuristic, float margin);

// The decision of the learned policy with network `net` (nullptr: the heuristic's).
Action learned_action(const PolicyView& view, const Network* net, PolicyScratch& scratch);

// ---- the model registry: models as policies -----------------------------------------------
// Policy ids from kFirstModel on are loaded networks (the static registry, policy.cpp, holds
// the hand-written policies). A model is registered under a name: "learned" for the shipped
// model (its path set by Python at import: set_builtin_model), or the path of a .dgn file.
// A path's file is read again at every lookup and, if it changed, its new network replaces
// the old one (in-flight decisions keep theirs: shared ownership). At most kMaxModels names
// per process (ModelError after).
constexpr int kFirstModel = 64;
constexpr int kMaxModels = 128;
constexpr const char* kBuiltinModel = "learned";
void set_builtin_model(const std::string& path);
bool has_builtin_model();
// The policy id of a model name ("learned", or a path ending in .dgn; loaded on first use),
// or -1 if `name` names no model.
int find_model_policy(const std::string& name);
// The network behind a policy id, or nullptr for a hand-written policy.
std::shared_ptr<const Network> model_of(PolicyId k);
const char* model_name(PolicyId k);

// ---- the actors' generator -------------------------------------------------------------------
// Plays rounds games first_game .. first_game + n - 1 (random start states, as
// Game(start="random"), or fresh ones). Seat s plays policies[s] (a model id or a hand-written
// policy). At a play decision of a seat with record[s] that has two or more candidates:
//   - with probability epsilon the seat plays a uniformly random candidate (state diversity);
//   - with probability `branch` the decision is also *branched*: from a copy of the state the
//     seat's own choice `main` and one alternative `alt` are each applied and the round is
//     played out by every seat with the heuristic (common random numbers: the same streams
//     in both branches), and both are recorded: frame 2i is (state, main, its outcome), frame
//     2i+1 is (state, alt, its outcome). `alt` is, with probability 1/2 when the seat plays a
//     network, the network's best other candidate, else a uniformly random other candidate.
// The pair's outcome difference estimates Q_h(s, alt) - Q_h(s, main), the heuristic
// continuation's advantage, with far less variance than two separate rounds (the deal, the
// hands and later choices are shared). All draws come from Rng::stream(seed, game, kExplore,
// seat). Deterministic in its arguments (R17).
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
  std::array<PolicyId, 6> policies{};
  std::array<bool, 6> record{};
  double epsilon = 0;
  double branch = 1;
  bool random_start = true;
};
// The rounds played (main lines) are counted in *rounds.
void self_play(const SelfPlayConfig& cfg, Frames* out, std::int64_t* rounds = nullptr);

}  // namespace daguai
