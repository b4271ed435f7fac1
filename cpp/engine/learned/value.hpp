// A value network for the search's worlds (docs/learning.md "A value for the search's worlds").
//
// The search's rollouts run in sampled worlds, where every hand is known. A value network
// estimates, from such a perfect-information state, the round's score change (R13) of one
// seat if every seat plays on as the learned player does. The search (search.hpp,
// SearchConfig::value) cuts a rollout after a few decisions and reads this estimate in place
// of playing to the end.
//
// Inputs: float32[kWorldFeatures] for (state g, seat s), seats relative to s as in the
// observation (encode.hpp):
//   [0, 633)     the observation tensor of s (encode_observation of s's information state)
//   [633, 903)   face counts of the hand of seat (s + k) % seats, k = 1..5, 54 each
//                (R18: at 4p2d the slots k = 4, 5 stay zero)
// Value file (.dgv), every number little-endian, read with format.hpp's reader and limits:
//   char[4] "DGNV"; u32 format = 1; u32 feature_version = kValueVersion; u32 input_dim;
//   u32 layers L (hidden, 1..8); u32 width[L]; u32 meta_len; meta_len bytes of UTF-8 JSON;
//   float32 arrays in PyTorch's Linear layout (weight [out][in], then bias [out]): hidden
//   layers with ReLU, then the output layer (out = 1, linear); u64 FNV-1a hash of the bytes.
// The pass is float, summed in a fixed order (-ffp-contract=off): the same on every machine
// (R17).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <daguai/core/table.hpp>
#include <daguai/game/state.hpp>
#include <daguai/io/encode.hpp>
#include <daguai/learned/format.hpp>

namespace daguai {

constexpr int kValueVersion = 1;
constexpr int kWorldHands = kObsSize;                 // offset of the others' hands
constexpr int kWorldFeatures = kWorldHands + 5 * 54;  // 903

// The inputs for seat `seat` of g (0 .. seats-1; GameError otherwise).
void encode_world_features(const GameState& g, int seat, float* out);

class ValueNet {
 public:
  // Parses a .dgv file's bytes (ModelError naming the first problem).
  static ValueNet from_bytes(const std::string& bytes);
  static ValueNet from_file(const std::string& path);
  const std::string& to_bytes() const { return raw_; }
  const std::vector<int>& widths() const { return widths_; }
  const std::string& meta() const { return meta_; }

  // The estimate for inputs x[kWorldFeatures] (zero inputs are skipped: the sums run over
  // the nonzero inputs in index order).
  float evaluate(const float* x) const;
  // The estimated score change of `seat` in g's round from here.
  float value(const GameState& g, int seat) const;

 private:
  std::vector<int> widths_;
  std::string meta_, raw_;
  std::vector<std::vector<float>> w_, b_;  // per layer (hidden..., output), input-major
};

// The value network of each table of R18, read from the path set (none ships: Python's
// _core.learned._set_builtin_value sets one; "" unsets it). builtin_value is nullptr when
// none is set for the table; a bad file raises ModelError at the first use.
void set_builtin_value(const std::string& path, TableKind table);
std::shared_ptr<const ValueNet> builtin_value(TableKind table);

}  // namespace daguai
