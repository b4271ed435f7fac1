// The learned player's network in integers: what the player plays (network.hpp keeps the
// float pass as the reference that matches the trainer).
//
// Quantized at load from the float file, so a file needs no new format and old files keep
// playing:
//   - inputs:   x_q = round(x * 2^kInShift), clamped to +-32767;
//   - layer 0:  int16 weights w_q = round(w * 2^s0), s0 the largest that keeps every weight
//               within int16; int32 sums in units of 2^-(kInShift + s0);
//   - hidden activations: ReLU, rounded down to units of 2^-kActShift, clipped to kActMax;
//   - later layers: int16 weights with a per-layer power-of-two scale, chosen so that no sum
//               can leave int32 (the bound is checked at load for every row).
// Integer sums are exact in any order, so the copies (AVX-512, AVX2, portable) compute the
// same integers on every machine without compiler flags (R17: same seed, same game), and the
// state part can be kept per thread and updated by the inputs that changed since a cached
// state (an NNUE-style accumulator) with the same result as summing it afresh. Layer 0 sums
// wrap modulo 2^32, which is exact whenever the true sum fits: a pre-activation below
// 2^(31 - kInShift - s0) in size (1,024 for the shipped model, whose largest seen is 54).
#pragma once

#include <cstdint>
#include <vector>

#include <daguai/learned/quantized/quantize.hpp>

namespace daguai {

class QuantizedNetwork {
 public:
  QuantizedNetwork() = default;
  // From input-major float weights: layer 0 as w0[inputs][h0] with bias b0, then each later
  // layer (hidden ones, then the output of width 1) as w[in][out] and b[out]. ModelError when a
  // layer's weights are too large for any scale.
  // `shared` = {s, a, len}: action inputs [a, a + len) are mostly state inputs [s, s + len)
  // (the hand after a decision and the hand): their rows are summed once per decision and
  // each candidate adds only the differences. Any inputs give the same integers.
  struct Shared {
    int state = 0, action = 0, len = 0;
  };
  QuantizedNetwork(const std::vector<float>& w0, const std::vector<float>& b0, int inputs,
                   int state_inputs, int h0, const std::vector<std::vector<float>>& w,
                   const std::vector<std::vector<float>>& b, Shared shared);

  // Q of every candidate as float (the integer output times its unit).
  void evaluate(const float* state, const float* actions, int n, float* q) const;

 private:
  int inputs_ = 0, state_inputs_ = 0, h0_ = 0, h0p_ = 0, s0_ = 0;
  Shared shared_;
  std::uint64_t serial_ = 0;  // names these weights in the per-thread accumulator cache
  std::vector<std::int16_t>
      w0_;  // [inputs][h0p_], input-major, each row swizzled (kSwizzle, quantized/quantize.hpp)
  std::vector<std::int32_t> b0_;        // [h0p_]
  std::vector<std::int16_t> w0_pairs_;  // the action rows of w0_ for the AVX2 copy
  std::vector<QuantizedLayer> layers_;
};

// The integer pass's kernels: each gives the same integers. The best this CPU has is used
// unless a test or benchmark caps it (set_quantized_kernel, for this process).
enum class QuantKernel : int { kPortable = 0, kAvx2 = 1, kAvx512 = 2 };
QuantKernel best_quantized_kernel();
QuantKernel quantized_kernel();  // the one in use
void set_quantized_kernel(QuantKernel cap);
// Turns the per-thread state cache off (every state summed afresh) or back on, for the tests
// that check the cached result is the same.
void set_quantized_cache(bool allowed);

}  // namespace daguai
