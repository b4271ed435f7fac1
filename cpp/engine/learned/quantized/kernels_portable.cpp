// The portable copy of the integer pass's kernels: plain C++ a compiler vectorizes.
#include <cstdint>
#include <vector>

#include <daguai/learned/format.hpp>
#include <daguai/learned/quantized/forward.hpp>
#include <daguai/learned/quantized/kernels.hpp>

namespace daguai::detail {

namespace {

// out[j] = init[j] + the sum over terms of value * w[row][j], modulo 2^32, for j < width (a
// multiple of 32): exact in any order, so every copy below gives the same integers.
void sum_rows_portable(std::int32_t* out, const std::int32_t* init, const std::int16_t* w,
                       int width, Terms& t) {
  // Summed in the rows' stored (swizzled) order, a loop a compiler vectorizes, then put back
  // in column order.
  std::uint32_t acc[kMaxModelWidth];  // width <= kMaxModelWidth (format.hpp)
  for (int j = 0; j < width; ++j) acc[swizzled(j)] = std::uint32_t(init[j]);
  for (int k = 0; k < t.size(); ++k) {
    const std::int16_t* row = w + std::size_t(t.row[std::size_t(k)]) * std::size_t(width);
    const std::int16_t v = t.value[std::size_t(k)];  // int16 x int16: a widening multiply
    for (int j0 = 0; j0 < width; j0 += 32)  // blocks of 32: a fixed trip count to vectorize
      for (int j = j0; j < j0 + 32; ++j)
        acc[j] += std::uint32_t(std::int32_t(v) * std::int32_t(row[j]));
  }
  for (int j = 0; j < width; ++j) out[j] = std::int32_t(acc[swizzled(j)]);
}

void sum_activate_portable(const std::int32_t* init, const std::int16_t* w, int width, Terms& t,
                           int shift, Terms& next) {
  std::int32_t y[kMaxModelWidth];
  sum_rows_portable(y, init, w, width, t);
  next.clear();
  for (int j = 0; j < width; ++j) next.add(j, activation(y[j], shift));
}

// The last hidden layer: its activations' sum with the output row `dense` (one int32 per
// column, natural order), modulo 2^32; the output layer's bound keeps the true sum in int32.
std::uint32_t activate_dot_portable(const std::int32_t* init, const std::int16_t* w, int width,
                                    Terms& t, int shift, const std::int32_t* dense) {
  std::int32_t y[kMaxModelWidth];
  sum_rows_portable(y, init, w, width, t);
  std::uint32_t dot = 0;
  for (int j = 0; j < width; ++j)
    dot += std::uint32_t(activation(y[j], shift)) * std::uint32_t(dense[j]);
  return dot;
}

void quantize_portable(const float* x, int n, std::int32_t* out) {
  for (int i = 0; i < n; ++i) out[i] = quantize_input(x[i]);
}

void nonzero_terms_portable(const std::int32_t* x, int n, int row0, Terms& t) {
  for (int i = 0; i < n; ++i)
    if (x[i] != 0) t.add(row0 + i, x[i]);
}

// A candidate's terms, portable: quantize, subtract the base, the nonzero ones.
void action_terms_portable(const float* a, int n, const std::int32_t* sub, int row0,
                           std::vector<std::int32_t>& x, Terms& t) {
  x.resize(std::size_t(n));
  quantize_portable(a, n, x.data());
  for (int i = 0; i < n; ++i) x[std::size_t(i)] -= sub[i];
  nonzero_terms_portable(x.data(), n, row0, t);
}

}  // namespace

void forward_portable(const Model& m, const float* state, const float* actions, int n, float* q) {
  static const Kernels k{&sum_rows_portable, &sum_activate_portable,  &activate_dot_portable,
                         &quantize_portable, &nonzero_terms_portable, &action_terms_portable};
  forward_body(m, state, actions, n, q, k);
}

}  // namespace daguai::detail
