// The integer pass's kernels: what one copy (portable, AVX2, AVX-512) computes, the terms they
// read, and each copy's forward pass (kernels_portable.cpp, kernels_avx2.cpp,
// kernels_avx512.cpp). Every copy gives the same integers (quantized.hpp says why).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include <daguai/learned/quantized.hpp>
#include <daguai/learned/quantized/quantize.hpp>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define DAGUAI_QUANT_X86 1
#else
#define DAGUAI_QUANT_X86 0
#endif

namespace daguai::detail {

// A list of (row, value) terms: a sum of value * row over the rows of a matrix. Values are
// within +-32767 (int16), so two products and their sum fit int32 (pmaddwd cannot overflow).
// The SIMD sums read the terms two at a time: the values of a pair as one int32 and the rows
// of a pair side by side (pad() first gives an odd last term a zero partner on its own row).
struct Terms {
  std::vector<std::int32_t> row;  // sized once (reserve); n counts the terms in use
  std::vector<std::int16_t> value;
  std::vector<std::int32_t> off;  // the AVX2 kernels' scratch: row * width
  int n = 0;
  void reserve(std::size_t cap) {  // 32 more: a vector store of 16 may pass the last term
    if (row.size() < cap + 32) row.resize(cap + 32), value.resize(cap + 32), off.resize(cap + 32);
  }
  void clear() { n = 0; }
  void add(int r, std::int32_t v) {   // v may leave int16: then as several terms
    if (v >= -32767 && v <= 32767) {  // the usual case: one term
      row[std::size_t(n)] = r;
      value[std::size_t(n)] = std::int16_t(v);
      n += v != 0;
      return;
    }
    while (v != 0) {
      const std::int32_t part = v < -32767 ? -32767 : (v > 32767 ? 32767 : v);
      row[std::size_t(n)] = r;
      value[std::size_t(n)] = std::int16_t(part);
      ++n;
      v -= part;
    }
  }
  int size() const { return n; }
  // The number of pairs, after giving an odd last term a zero partner (a zero adds nothing).
  int pad() {
    if (n & 1) row[std::size_t(n)] = row[std::size_t(n - 1)], value[std::size_t(n)] = 0;
    return (n + 1) / 2;
  }
  // Pair p: its two values as one int32 (the first in the low half, as pmaddwd reads them).
  std::int32_t pair_value(int p) const {
    std::int32_t v;
    std::memcpy(&v, value.data() + 2 * p, sizeof v);
    return v;
  }
};

// The activations of a layer's sums, ReLU then >> shift (units 2^-kActShift, C++20: an
// arithmetic shift) clipped to kActMax, as the next layer's terms (its nonzero inputs: about
// 10% after layer 0). Any order of the terms gives the same sums.
inline std::int32_t activation(std::int32_t y, int shift) {
  return std::clamp(y >> shift, 0, kActMax);
}

// The rows of pair p, from column col: w's rows are `width` int16 apart.
struct PairRows {
  const std::int16_t* r0;
  const std::int16_t* r1;
};
inline PairRows pair_rows(const Terms& t, const std::int16_t* w, int width, int p, int col) {
  const std::int32_t* r = t.row.data() + 2 * p;
  return {w + std::size_t(r[0]) * std::size_t(width) + col,
          w + std::size_t(r[1]) * std::size_t(width) + col};
}

// One copy's vector kernels (portable, AVX2 or AVX-512): the same integers in every copy.
struct Kernels {
  void (*sum)(std::int32_t*, const std::int32_t*, const std::int16_t*, int, Terms&);
  void (*sum_activate)(const std::int32_t*, const std::int16_t*, int, Terms&, int, Terms&);
  // the last hidden layer and the output: sum of activation * dense, modulo 2^32
  std::uint32_t (*activate_dot)(const std::int32_t*, const std::int16_t*, int, Terms&, int,
                                const std::int32_t*);
  void (*quantize)(const float*, int, std::int32_t*);
  void (*nonzero)(const std::int32_t*, int, int, Terms&);
  // a candidate's terms: quantize_input(a[i]) - sub[i] where nonzero, as rows row0 + i
  void (*action_terms)(const float* a, int n, const std::int32_t* sub, int row0,
                       std::vector<std::int32_t>& scratch, Terms& t);
  // The AVX2 copy: a candidate's terms are chunks (Terms::row the chunk, the pair's two values
  // at value[2c], value[2c + 1]) of the weights in pair_interleaved layout (Model::w0_pairs,
  // QuantizedLayer::pairs), which sum_activate and activate_dot then read.
  bool chunks = false;
};

// What the integer pass reads.
struct Model {
  int inputs, state_inputs, h0, h0p, shift0;
  QuantizedNetwork::Shared shared;
  std::uint64_t serial;
  const std::int16_t* w0;
  const std::int32_t* b0;
  const std::vector<QuantizedLayer>* layers;
  const std::int16_t* w0_pairs;  // the action rows of w0, pair_interleaved
};

// Each copy's whole pass (forward.hpp, compiled once per copy with that copy's kernels).
void forward_portable(const Model& m, const float* state, const float* actions, int n, float* q);
#if DAGUAI_QUANT_X86
void forward_avx2(const Model& m, const float* state, const float* actions, int n, float* q);
void forward_avx512(const Model& m, const float* state, const float* actions, int n, float* q);
#endif

}  // namespace daguai::detail
