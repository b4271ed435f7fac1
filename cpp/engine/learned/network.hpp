// The learned player's Q-network, evaluated natively (its file: format.hpp).
//
// Hidden layers are ReLU, the output linear. The player plays the integer pass
// (quantized.hpp), made from the file's float weights at load. The float pass stays as the
// reference that matches the trainer: it splits layer 0 into its state columns (computed once
// per decision) and its action columns (per candidate), skips zero inputs (the features are
// sparse counts), and is compiled with -ffp-contract=off so that every machine computes the
// same sums in the same order (R17: same seed, same game).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <daguai/learned/features.hpp>
#include <daguai/learned/format.hpp>
#include <daguai/learned/quantized.hpp>

namespace daguai {

// The float pass's pieces, shared by the Q-network's reference pass (network.cpp) and the value
// network (value.hpp): weights turned input-major, the inner loop, the dense layers. Sums run in
// input order, and the files that use them are compiled with -ffp-contract=off (CMakeLists.txt),
// so every machine computes the same floats (R17).
namespace detail {

// Columns [col0, col0 + cols) of w, [out][in] row-major -> [cols][out] (input-major: the
// weights from one input are contiguous).
inline std::vector<float> transposed(const std::vector<float>& w, int out, int in, int col0,
                                     int cols) {
  std::vector<float> t(std::size_t(cols) * std::size_t(out));
  for (int o = 0; o < out; ++o)
    for (int i = 0; i < cols; ++i)
      t[std::size_t(i) * std::size_t(out) + std::size_t(o)] =
          w[std::size_t(o) * std::size_t(in) + std::size_t(col0 + i)];
  return t;
}

// y[0..n) += x * w[0..n) (vectorizes over the outputs).
inline void axpy(float* y, float x, const float* w, int n) {
  for (int j = 0; j < n; ++j) y[j] += x * w[j];
}

// The dense layers w[k] (input-major, [in][out]) and b[k] applied to x[0..in): ReLU after each
// but the last; the inputs that are 0 skipped, the others summed in input order. x and y hold
// the widest layer; returns the last layer's first output.
inline float forward_layers(std::vector<float>& x, std::vector<float>& y, int in,
                            const std::vector<std::vector<float>>& w,
                            const std::vector<std::vector<float>>& b) {
  for (std::size_t k = 0; k < w.size(); ++k) {
    const int out = int(b[k].size());
    std::copy(b[k].begin(), b[k].end(), y.begin());
    for (int i = 0; i < in; ++i)
      if (x[std::size_t(i)] != 0.0f)
        axpy(y.data(), x[std::size_t(i)], &w[k][std::size_t(i) * std::size_t(out)], out);
    const bool hidden = k + 1 < w.size();
    for (int j = 0; j < out; ++j)
      x[std::size_t(j)] = hidden ? std::max(y[std::size_t(j)], 0.0f) : y[std::size_t(j)];
    in = out;
  }
  return x[0];
}

}  // namespace detail

// The `decides` word of a format-2 .dgn file (format.hpp).
constexpr std::uint32_t kDecidesR11 = 1;

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
  // Whether the network also makes the R11 decisions (tribute, return, take, offer,
  // anti-tribute; a format-2 file's `decides` bit 0); else the player keeps the heuristic's.
  bool decides_r11() const { return r11_; }
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
  bool r11_ = false;
  std::string meta_;
  // layer 0 split and transposed (input-major: row i = the weights from input i)
  std::vector<float> w0_state_, w0_action_, b0_;
  // hidden layers 1..L-1 and the output layer, input-major
  std::vector<std::vector<float>> w_, b_;
  QuantizedNetwork quantized_;
  std::string raw_;  // the file's bytes (to_bytes)
};

}  // namespace daguai
