// The learned player's Q-network, evaluated natively (its file: format.hpp).
//
// Hidden layers are ReLU, the output linear. The player plays the integer pass
// (quantized.hpp), made from the file's float weights at load. The float pass stays as the
// reference that matches the trainer: it splits layer 0 into its state columns (computed once
// per decision) and its action columns (per candidate), skips zero inputs (the features are
// sparse counts), and is compiled with -ffp-contract=off so that every machine computes the
// same sums in the same order (R17: same seed, same game).
#pragma once

#include <string>
#include <vector>

#include <daguai/learned/features.hpp>
#include <daguai/learned/format.hpp>
#include <daguai/learned/quantized.hpp>

namespace daguai {

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

  // Q of every candidate: state[kStateFeatures], actions[n][kActionFeatures] -> q[n]. The
  // integer pass, what the learned player plays.
  void evaluate(const float* state, const float* actions, int n, float* q) const {
    quantized_.evaluate(state, actions, n, q);
  }
  // The same in float, the reference (the trainer's network computes this up to rounding).
  void evaluate_float(const float* state, const float* actions, int n, float* q) const;

 private:
  std::vector<int> widths_;
  float margin_ = 0;
  std::string meta_;
  // layer 0 split and transposed (input-major: row i = the weights from input i)
  std::vector<float> w0_state_, w0_action_, b0_;
  // hidden layers 1..L-1 and the output layer, input-major
  std::vector<std::vector<float>> w_, b_;
  QuantizedNetwork quantized_;
  std::string raw_;  // the file's bytes (to_bytes)
};

}  // namespace daguai
