// The AVX2 copy of the integer pass's kernels. Only its functions carry the target attribute,
// so the rest of the build keeps the project's -march and this file needs no flags of its own.
#include <daguai/learned/quantized/kernels.hpp>

#if DAGUAI_QUANT_X86
#include <immintrin.h>

#include <cstdint>
#include <vector>

#include <daguai/learned/format.hpp>
#include <daguai/learned/quantized/forward.hpp>

namespace daguai::detail {

namespace {

// B blocks of 32 columns from column `col`, every pair, the sums kept in 4B registers: per
// block, columns 0-7, 16-23, 8-15, 24-31 (the swizzle above).
template <int B>
__attribute__((target("avx2"), always_inline)) inline void sum_blocks_avx2(
    std::int32_t* out, const std::int32_t* init, const Terms& t, const std::int16_t* w, int width,
    int n, int col) {
  constexpr int kAt[4] = {0, 16, 8, 24};
  __m256i acc[4 * B];
  for (int b = 0; b < B; ++b)
    for (int q = 0; q < 4; ++q)
      acc[4 * b + q] =
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(init + col + 32 * b + kAt[q]));
  for (int p = 0; p < n; ++p) {
    const __m256i v = _mm256_set1_epi32(t.pair_value(p));
    const auto [r0, r1] = pair_rows(t, w, width, p, col);
    for (int h = 0; h < 2 * B; ++h) {  // 16 int16 of each row
      const __m256i a0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r0 + 16 * h));
      const __m256i a1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r1 + 16 * h));
      const int q = 4 * (h / 2) + 2 * (h % 2);  // h even: columns 0-7, 16-23; odd: 8-15, 24-31
      acc[q] = _mm256_add_epi32(acc[q], _mm256_madd_epi16(_mm256_unpacklo_epi16(a0, a1), v));
      acc[q + 1] =
          _mm256_add_epi32(acc[q + 1], _mm256_madd_epi16(_mm256_unpackhi_epi16(a0, a1), v));
    }
  }
  for (int b = 0; b < B; ++b)
    for (int q = 0; q < 4; ++q)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + col + 32 * b + kAt[q]), acc[4 * b + q]);
}

__attribute__((target("avx2"))) void sum_rows_avx2(std::int32_t* out, const std::int32_t* init,
                                                   const std::int16_t* w, int width, Terms& t) {
  const int n = t.pad();
  int col = 0;
  for (; col + 64 <= width; col += 64) sum_blocks_avx2<2>(out, init, t, w, width, n, col);
  for (; col < width; col += 32) sum_blocks_avx2<1>(out, init, t, w, width, n, col);
}

// The activations of 8 sums at columns col..col+7 as terms (AVX2).
__attribute__((target("avx2"), always_inline)) inline void activate_avx2(__m256i y, int col,
                                                                         int shift, Terms& next) {
  const __m256i a = _mm256_min_epi32(
      _mm256_max_epi32(_mm256_sra_epi32(y, _mm_cvtsi32_si128(shift)), _mm256_setzero_si256()),
      _mm256_set1_epi32(kActMax));
  unsigned mask = unsigned(_mm256_movemask_ps(
                      _mm256_castsi256_ps(_mm256_cmpeq_epi32(a, _mm256_setzero_si256())))) ^
                  0xffu;
  alignas(32) std::int32_t lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), a);
  while (mask) {
    const int k = __builtin_ctz(mask);
    next.row[std::size_t(next.n)] = col + k;
    next.value[std::size_t(next.n)] = std::int16_t(lanes[k]);
    ++next.n;
    mask &= mask - 1;
  }
}

template <int B>
__attribute__((target("avx2"), always_inline)) inline void act_blocks_avx2(
    const std::int32_t* init, const Terms& t, const std::int16_t* w, int width, int n, int col,
    int shift, Terms& next) {
  constexpr int kAt[4] = {0, 16, 8, 24};
  alignas(32) std::int32_t y[32 * B];
  sum_blocks_avx2<B>(y - col, init, t, w, width, n, col);  // writes y[0 .. 32B)
  for (int b = 0; b < B; ++b)
    for (int q = 0; q < 4; ++q)
      activate_avx2(_mm256_load_si256(reinterpret_cast<const __m256i*>(y + 32 * b + kAt[q])),
                    col + 32 * b + kAt[q], shift, next);
}

__attribute__((target("avx2"))) void sum_activate_avx2(const std::int32_t* init,
                                                       const std::int16_t* w, int width, Terms& t,
                                                       int shift, Terms& next) {
  const int n = t.pad();
  next.clear();
  int col = 0;
  for (; col + 64 <= width; col += 64) act_blocks_avx2<2>(init, t, w, width, n, col, shift, next);
  for (; col < width; col += 32) act_blocks_avx2<1>(init, t, w, width, n, col, shift, next);
}

__attribute__((target("avx2"))) std::uint32_t activate_dot_avx2(const std::int32_t* init,
                                                                const std::int16_t* w, int width,
                                                                Terms& t, int shift,
                                                                const std::int32_t* dense) {
  alignas(32) std::int32_t y[kMaxModelWidth];
  sum_rows_avx2(y, init, w, width, t);
  const __m128i sh = _mm_cvtsi32_si128(shift);
  __m256i dot = _mm256_setzero_si256();
  for (int j = 0; j < width; j += 8) {  // width: a multiple of 32
    const __m256i a = _mm256_min_epi32(
        _mm256_max_epi32(
            _mm256_sra_epi32(_mm256_load_si256(reinterpret_cast<const __m256i*>(y + j)), sh),
            _mm256_setzero_si256()),
        _mm256_set1_epi32(kActMax));
    dot = _mm256_add_epi32(
        dot,
        _mm256_mullo_epi32(a, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(dense + j))));
  }
  alignas(32) std::uint32_t lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), dot);
  std::uint32_t sum = 0;
  for (std::uint32_t v : lanes) sum += v;
  return sum;
}

// The lanes of the 8 inputs from i of n, as an AVX2 load mask.
__attribute__((target("avx2"), always_inline)) inline __m256i lanes8_from(int i, int n) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(n - i), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

// The 8 values from x[i] of n (0 past n): a plain load, or a masked one (slow on some CPUs)
// for the last 8.
__attribute__((target("avx2"), always_inline)) inline __m256 load8(const float* x, int i, int n) {
  return n - i >= 8 ? _mm256_loadu_ps(x + i) : _mm256_maskload_ps(x + i, lanes8_from(i, n));
}
__attribute__((target("avx2"), always_inline)) inline __m256i load8(const std::int32_t* x, int i,
                                                                    int n) {
  return n - i >= 8 ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i))
                    : _mm256_maskload_epi32(x + i, lanes8_from(i, n));
}

// quantize_input of the 8 floats from x[i] of n (0 past n), AVX2.
__attribute__((target("avx2"), always_inline)) inline __m256i quantize8(const float* x, int i,
                                                                        int n) {
  const __m256i in = lanes8_from(i, n);
  const __m256 scale = _mm256_set1_ps(float(1 << kInShift)), lo = _mm256_set1_ps(-32767.0f),
               hi = _mm256_set1_ps(32767.0f), half = _mm256_set1_ps(0.5f),
               sign = _mm256_set1_ps(-0.0f);
  __m256 s = _mm256_mul_ps(load8(x, i, n), scale);
  s = _mm256_and_ps(s, _mm256_cmp_ps(s, s, _CMP_ORD_Q));  // a NaN is 0
  s = _mm256_min_ps(_mm256_max_ps(s, lo), hi);
  s = _mm256_add_ps(s, _mm256_or_ps(_mm256_and_ps(half, _mm256_castsi256_ps(in)),
                                    _mm256_and_ps(s, sign)));  // 0 in the other lanes
  return _mm256_cvttps_epi32(s);
}

// quantize_input of n floats, as int32.
__attribute__((target("avx2"))) void quantize_avx2(const float* x, int n, std::int32_t* out) {
  for (int i = 0; i < n; i += 8) {  // a masked store (slow on some CPUs) only for the last 8
    const __m256i q = quantize8(x, i, n);
    if (n - i >= 8)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), q);
    else
      _mm256_maskstore_epi32(out + i, lanes8_from(i, n), q);
  }
}

// The nonzero lanes of v as terms (row0 + i + lane), in order.
__attribute__((target("avx2"), always_inline)) inline void lanes8_as_terms(__m256i v, int row0,
                                                                           int i, Terms& t) {
  unsigned mask = unsigned(_mm256_movemask_ps(
                      _mm256_castsi256_ps(_mm256_cmpeq_epi32(v, _mm256_setzero_si256())))) ^
                  0xffu;
  if (!mask) return;
  alignas(32) std::int32_t lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), v);
  while (mask) {
    const int k = __builtin_ctz(mask);
    t.add(row0 + i + k, lanes[k]);
    mask &= mask - 1;
  }
}

// A candidate's terms in one pass of 8 inputs (AVX2): quantize, subtract, the nonzero ones.
__attribute__((target("avx2"))) void action_terms_avx2(const float* a, int n,
                                                       const std::int32_t* sub, int row0,
                                                       std::vector<std::int32_t>&, Terms& t) {
  for (int i = 0; i < n; i += 8)
    lanes8_as_terms(_mm256_sub_epi32(quantize8(a, i, n), load8(sub, i, n)), row0, i, t);
}

// The nonzero x[i] as terms (row0 + i, x[i]), in order of i.
__attribute__((target("avx2"))) void nonzero_terms_avx2(const std::int32_t* x, int n, int row0,
                                                        Terms& t) {
  for (int i = 0; i < n; i += 8) lanes8_as_terms(load8(x, i, n), row0, i, t);
}

}  // namespace

__attribute__((target("avx2"))) void forward_avx2(const Model& m, const float* state,
                                                  const float* actions, int n, float* q) {
  static const Kernels k{&sum_rows_avx2, &sum_activate_avx2,  &activate_dot_avx2,
                         &quantize_avx2, &nonzero_terms_avx2, &action_terms_avx2};
  forward_body(m, state, actions, n, q, k);
}

}  // namespace daguai::detail
#endif
