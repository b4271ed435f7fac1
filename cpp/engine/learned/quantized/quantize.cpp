#include <algorithm>
#include <cmath>
#include <string>

#include <daguai/learned/format.hpp>
#include <daguai/learned/quantized/quantize.hpp>

namespace daguai::detail {

namespace {

// Later layers: every row's |bias| + in * kActMax * |w| stays below this, so no sum can
// overflow whatever the activations are.
constexpr double kAccLimit = 2147483647.0 * 0.98;

// Whether scale 2^shift keeps every weight of a later layer within int16 and every row's sum
// within int32.
bool later_scale_fits(const std::vector<float>& w, const std::vector<float>& b, int in, int out,
                      int shift) {
  const double s = std::ldexp(1.0, shift);
  for (int o = 0; o < out; ++o) {
    double sum = std::fabs(std::nearbyint(double(b[std::size_t(o)]) * s * (1 << kActShift)));
    for (int i = 0; i < in; ++i) {
      const double q = std::nearbyint(double(w[std::size_t(i) * std::size_t(out) + o]) * s);
      if (std::fabs(q) > 32767.0) return false;
      sum += std::fabs(q) * kActMax;
    }
    if (sum > kAccLimit) return false;
  }
  return true;
}

}  // namespace

std::vector<std::int16_t> pair_interleaved(const std::vector<std::int16_t>& w, int row0, int rows,
                                           int width) {
  std::vector<std::int16_t> p(std::size_t((rows + 1) / 2) * std::size_t(width) * 2, 0);
  for (int r = 0; r < rows; ++r)
    for (int j = 0; j < width; ++j)
      p[(std::size_t(r / 2) * std::size_t(width) + std::size_t(j)) * 2 + std::size_t(r % 2)] =
          w[std::size_t(row0 + r) * std::size_t(width) + std::size_t(swizzled(j))];
  return p;
}

QuantizedFirst quantize_first(const std::vector<float>& w0, const std::vector<float>& b0,
                              int inputs, int h0) {
  const int h0p = quant_padded(h0);
  float largest = 0.0f, bias = 0.0f;
  for (float v : w0) largest = std::max(largest, std::fabs(v));
  for (float v : b0) bias = std::max(bias, std::fabs(v));
  QuantizedFirst f;
  f.shift = 24;
  while (f.shift >= 0 && (std::nearbyint(double(largest) * std::ldexp(1.0, f.shift)) > 32767.0 ||
                          double(bias) * std::ldexp(1.0, f.shift + kInShift) > 2147483647.0 * 0.5))
    --f.shift;
  if (f.shift < 0) throw ModelError("model file: layer 0 weights too large to quantize");
  const double s = std::ldexp(1.0, f.shift);
  f.w.assign(std::size_t(inputs) * std::size_t(h0p), 0);
  for (int i = 0; i < inputs; ++i)
    for (int j = 0; j < h0; ++j)
      f.w[std::size_t(i) * std::size_t(h0p) + std::size_t(swizzled(j))] =
          std::int16_t(std::nearbyint(double(w0[std::size_t(i) * std::size_t(h0) + j]) * s));
  f.b.assign(std::size_t(h0p), 0);
  for (int j = 0; j < h0; ++j)
    f.b[std::size_t(j)] =
        std::int32_t(std::nearbyint(double(b0[std::size_t(j)]) * s * (1 << kInShift)));
  return f;
}

QuantizedLayer quantize_later(const std::vector<float>& w, const std::vector<float>& b, int in,
                              int out) {
  int shift = 24;
  while (shift >= 0 && !later_scale_fits(w, b, in, out, shift)) --shift;
  if (shift < 0)
    throw ModelError("model file: weights too large to quantize (a layer's |w| sums past " +
                     std::to_string(int(kAccLimit / kActMax)) + ")");
  QuantizedLayer L;
  L.out = out;
  L.out_padded = quant_padded(out);
  L.shift = shift;
  const double s = std::ldexp(1.0, shift);
  L.w.assign(std::size_t(in) * std::size_t(L.out_padded), 0);
  L.b.assign(std::size_t(L.out_padded), 0);
  for (int o = 0; o < out; ++o) {
    for (int i = 0; i < in; ++i)
      L.w[std::size_t(i) * std::size_t(L.out_padded) + std::size_t(swizzled(o))] = std::int16_t(
          std::nearbyint(double(w[std::size_t(i) * std::size_t(out) + std::size_t(o)]) * s));
    L.b[std::size_t(o)] =
        std::int32_t(std::nearbyint(double(b[std::size_t(o)]) * s * (1 << kActShift)));
  }
  L.pairs = pair_interleaved(L.w, 0, in, L.out_padded);
  if (out == 1) {  // the output row, one int32 per input column in order, padded with zeros
    L.dense.assign(std::size_t(quant_padded(in)), 0);
    for (int i = 0; i < in; ++i)
      L.dense[std::size_t(i)] = L.w[std::size_t(i) * std::size_t(L.out_padded)];
  }
  return L;
}

}  // namespace daguai::detail
