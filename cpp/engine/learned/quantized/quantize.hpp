// Quantization of the learned network: its integer units and the integer weights made at
// load from the float file (quantized.hpp gives the scheme; the forward pass reads these).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace daguai {

constexpr int kInShift = 10;    // input units: 2^-10
constexpr int kActShift = 9;    // activation units: 2^-9
constexpr int kActMax = 32767;  // the largest activation: 64 - 2^-9
constexpr int kQuantPad = 32;   // widths padded to 32 int16 (one AVX-512 register)

struct QuantizedLayer {
  int out = 0, out_padded = 0;
  int shift = 0;                // w_q = round(w * 2^shift)
  std::vector<std::int16_t> w;  // [in][out_padded], input-major, each row swizzled (kSwizzle below)
  std::vector<std::int32_t> b;  // [out_padded], units 2^-(kActShift + shift)
  std::vector<std::int32_t> dense;  // the output layer (out 1): w as [padded(in)], in order
  std::vector<std::int16_t> pairs;  // w for the AVX2 copy (pair_interleaved below)
};

// The input quantization: x * 2^kInShift clamped to +-32767, plus 0.5 away from zero, then
// truncated toward zero (a NaN is 0). The AVX2 copy does the same float operations.
inline std::int16_t quantize_input(float x) {
  float s = x * float(1 << kInShift);  // exact: a power-of-two scale
  if (!(s == s)) s = 0.0f;
  s = std::min(std::max(s, -32767.0f), 32767.0f);
  return std::int16_t(int(s + std::copysign(0.5f, s)));
}

namespace detail {

inline int quant_padded(int w) { return (w + kQuantPad - 1) / kQuantPad * kQuantPad; }

// Rows are stored swizzled within each block of 32 columns: the k-th group of 8 int16 holds
// columns 4k..4k+3 and then 16+4k..16+4k+3. An unpack of two such rows (per 128-bit lane)
// then interleaves the two rows' columns in order, ready for pmaddwd: with AVX-512 one
// unpack gives columns 0-15 (low) and 16-31 (high) of a block; with AVX2, columns 0-7 and
// 16-23 from its first 16 int16, 8-15 and 24-31 from its second. The portable sum reads
// through the same map.
inline constexpr int kSwizzle[32] = {0, 1, 2, 3, 8,  9,  10, 11, 16, 17, 18, 19, 24, 25, 26, 27,
                                     4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31};

constexpr int swizzled(int j) { return (j & ~31) | kSwizzle[j & 31]; }

// The AVX2 copy's layout of rows [row0, row0 + rows) of w (rows of `width` int16, swizzled):
// the rows two by two (chunk c: rows row0 + 2c and + 2c + 1, an odd last row with a zero
// partner), each chunk's two weights of a column side by side, columns in order:
// [chunk][width][2]. One pmaddwd of 8 columns' pairs with a broadcast pair of inputs then
// sums both rows into 8 columns, with no unpacking.
std::vector<std::int16_t> pair_interleaved(const std::vector<std::int16_t>& w, int row0, int rows,
                                           int width);

// Layer 0 from input-major float weights w0[inputs][h0] and bias b0: int16 weights at the
// largest scale 2^shift that keeps them within int16 (the bias within int32), rows swizzled
// and padded to quant_padded(h0). ModelError when no scale fits.
struct QuantizedFirst {
  int shift = 0;
  std::vector<std::int16_t> w;  // [inputs][padded(h0)]
  std::vector<std::int32_t> b;  // [padded(h0)], units 2^-(kInShift + shift)
};
QuantizedFirst quantize_first(const std::vector<float>& w0, const std::vector<float>& b0,
                              int inputs, int h0);

// A later layer w[in][out], b[out] at the largest power-of-two scale that keeps every sum within
// int32 whatever the activations. ModelError when no scale fits.
QuantizedLayer quantize_later(const std::vector<float>& w, const std::vector<float>& b, int in,
                              int out);

}  // namespace detail
}  // namespace daguai
