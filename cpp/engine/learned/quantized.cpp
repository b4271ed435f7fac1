#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <string>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

#include <daguai/learned/format.hpp>
#include <daguai/learned/quantized.hpp>

namespace daguai {

namespace {

// Later layers: every row's |bias| + in * kActMax * |w| stays below this, so no sum can
// overflow whatever the activations are.
constexpr double kAccLimit = 2147483647.0 * 0.98;
constexpr int kCacheEntries = 8;  // states kept per thread (one per seat of a table, and more)

std::atomic<std::uint64_t> next_serial{1};
std::atomic<int> kernel_cap{int(QuantKernel::kAvx512)};  // the best allowed
std::atomic<bool> cache_allowed{true};

int padded(int w) { return (w + kQuantPad - 1) / kQuantPad * kQuantPad; }

// Rows are stored swizzled within each block of 32 columns: the k-th group of 8 int16 holds
// columns 4k..4k+3 and then 16+4k..16+4k+3. An unpack of two such rows (per 128-bit lane)
// then interleaves the two rows' columns in order, ready for pmaddwd: with AVX-512 one
// unpack gives columns 0-15 (low) and 16-31 (high) of a block; with AVX2, columns 0-7 and
// 16-23 from its first 16 int16, 8-15 and 24-31 from its second. The portable sum reads
// through the same map.
constexpr int kSwizzle[32] = {0, 1, 2, 3, 8,  9,  10, 11, 16, 17, 18, 19, 24, 25, 26, 27,
                              4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31};

int swizzled(int j) { return (j & ~31) | kSwizzle[j & 31]; }

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

QuantizedLayer quantize_later(const std::vector<float>& w, const std::vector<float>& b, int in,
                              int out) {
  int shift = 24;
  while (shift >= 0 && !later_scale_fits(w, b, in, out, shift)) --shift;
  if (shift < 0)
    throw ModelError("model file: weights too large to quantize (a layer's |w| sums past " +
                     std::to_string(int(kAccLimit / kActMax)) + ")");
  QuantizedLayer L;
  L.out = out;
  L.out_padded = padded(out);
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
  if (out == 1) {  // the output row, one int32 per input column in order, padded with zeros
    L.dense.assign(std::size_t(padded(in)), 0);
    for (int i = 0; i < in; ++i)
      L.dense[std::size_t(i)] = L.w[std::size_t(i) * std::size_t(L.out_padded)];
  }
  return L;
}

// A list of (row, value) terms: a sum of value * row over the rows of a matrix. Values are
// within +-32767 (int16), so two products and their sum fit int32 (pmaddwd cannot overflow).
// The SIMD sums read the terms two at a time: the values of a pair as one int32 and the rows
// of a pair side by side (pad() first gives an odd last term a zero partner on its own row).
struct Terms {
  std::vector<std::int32_t> row;  // sized once (reserve); n counts the terms in use
  std::vector<std::int16_t> value;
  int n = 0;
  void reserve(std::size_t cap) {  // 32 more: a vector store of 16 may pass the last term
    if (row.size() < cap + 32) row.resize(cap + 32), value.resize(cap + 32);
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

// The activations of a layer's sums, ReLU then >> shift (units 2^-kActShift, C++20: an
// arithmetic shift) clipped to kActMax, as the next layer's terms (its nonzero inputs: about
// 10% after layer 0). Any order of the terms gives the same sums.
inline std::int32_t activation(std::int32_t y, int shift) {
  return std::clamp(y >> shift, 0, kActMax);
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

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define DAGUAI_QUANT_AVX2 1

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

// The same with AVX-512 (BW, VNNI): B blocks of 32 columns, one register per 16 columns,
// up to 256 columns (16 sums) in one pass over the pairs.
template <int B>
__attribute__((target("avx512f,avx512bw,avx512vnni"), always_inline)) inline void accumulate_avx512(
    __m512i* acc, const std::int32_t* init, const Terms& t, const std::int16_t* w, int width, int n,
    int col) {
  for (int b = 0; b < 2 * B; ++b) acc[b] = _mm512_loadu_si512(init + col + 16 * b);
  for (int p = 0; p < n; ++p) {
    const __m512i v = _mm512_set1_epi32(t.pair_value(p));
    const auto [r0, r1] = pair_rows(t, w, width, p, col);
    for (int b = 0; b < B; ++b) {
      const __m512i a0 = _mm512_loadu_si512(r0 + 32 * b);
      const __m512i a1 = _mm512_loadu_si512(r1 + 32 * b);
      acc[2 * b] = _mm512_dpwssd_epi32(acc[2 * b], _mm512_unpacklo_epi16(a0, a1), v);
      acc[2 * b + 1] = _mm512_dpwssd_epi32(acc[2 * b + 1], _mm512_unpackhi_epi16(a0, a1), v);
    }
  }
}

template <int B>
__attribute__((target("avx512f,avx512bw,avx512vnni"), always_inline)) inline void sum_blocks_avx512(
    std::int32_t* out, const std::int32_t* init, const Terms& t, const std::int16_t* w, int width,
    int n, int col) {
  __m512i acc[2 * B];
  accumulate_avx512<B>(acc, init, t, w, width, n, col);
  for (int b = 0; b < 2 * B; ++b) _mm512_storeu_si512(out + col + 16 * b, acc[b]);
}

// 16 terms from 16 lanes: the nonzero values (each within int16) and their rows, compressed
// in registers, then plain stores (a compressing store is slow on some CPUs).
__attribute__((target("avx512f,avx512bw,avx512vnni"), always_inline)) inline void compress_terms(
    __m512i v, __m512i rows, __mmask16 nz, Terms& t) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(t.value.data() + t.n),
                      _mm512_cvtepi32_epi16(_mm512_maskz_compress_epi32(nz, v)));
  _mm512_storeu_si512(t.row.data() + t.n, _mm512_maskz_compress_epi32(nz, rows));
  t.n += __builtin_popcount(unsigned(nz));
}

// The activations of the sums, compressed to the next layer's terms in registers.
template <int B>
__attribute__((target("avx512f,avx512bw,avx512vnni"), always_inline)) inline void act_blocks_avx512(
    const std::int32_t* init, const Terms& t, const std::int16_t* w, int width, int n, int col,
    int shift, Terms& next) {
  __m512i acc[2 * B];
  accumulate_avx512<B>(acc, init, t, w, width, n, col);
  const __m128i sh = _mm_cvtsi32_si128(shift);
  const __m512i zero = _mm512_setzero_si512(), top = _mm512_set1_epi32(kActMax);
  const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  for (int b = 0; b < 2 * B; ++b) {
    const __m512i a = _mm512_min_epi32(_mm512_max_epi32(_mm512_sra_epi32(acc[b], sh), zero), top);
    compress_terms(a, _mm512_add_epi32(iota, _mm512_set1_epi32(col + 16 * b)),
                   _mm512_test_epi32_mask(a, a), next);
  }
}

__attribute__((target("avx512f,avx512bw,avx512vnni"))) void sum_activate_avx512(
    const std::int32_t* init, const std::int16_t* w, int width, Terms& t, int shift, Terms& next) {
  const int n = t.pad();
  next.clear();
  int col = 0;
  for (; col + 256 <= width; col += 256)
    act_blocks_avx512<8>(init, t, w, width, n, col, shift, next);
  for (; col + 128 <= width; col += 128)
    act_blocks_avx512<4>(init, t, w, width, n, col, shift, next);
  for (; col < width; col += 32) act_blocks_avx512<1>(init, t, w, width, n, col, shift, next);
}

// The activations of B blocks, summed with the output row into `dot` (AVX-512).
template <int B>
__attribute__((target("avx512f,avx512bw,avx512vnni"), always_inline)) inline void
act_dot_blocks_avx512(const std::int32_t* init, const Terms& t, const std::int16_t* w, int width,
                      int n, int col, int shift, const std::int32_t* dense, __m512i& dot) {
  __m512i acc[2 * B];
  accumulate_avx512<B>(acc, init, t, w, width, n, col);
  const __m128i sh = _mm_cvtsi32_si128(shift);
  const __m512i zero = _mm512_setzero_si512(), top = _mm512_set1_epi32(kActMax);
  for (int b = 0; b < 2 * B; ++b) {
    const __m512i a = _mm512_min_epi32(_mm512_max_epi32(_mm512_sra_epi32(acc[b], sh), zero), top);
    dot = _mm512_add_epi32(dot, _mm512_mullo_epi32(a, _mm512_loadu_si512(dense + col + 16 * b)));
  }
}

__attribute__((target("avx512f,avx512bw,avx512vnni"))) std::uint32_t activate_dot_avx512(
    const std::int32_t* init, const std::int16_t* w, int width, Terms& t, int shift,
    const std::int32_t* dense) {
  const int n = t.pad();
  __m512i dot = _mm512_setzero_si512();
  int col = 0;
  for (; col + 256 <= width; col += 256)
    act_dot_blocks_avx512<8>(init, t, w, width, n, col, shift, dense, dot);
  for (; col + 128 <= width; col += 128)
    act_dot_blocks_avx512<4>(init, t, w, width, n, col, shift, dense, dot);
  for (; col < width; col += 32)
    act_dot_blocks_avx512<1>(init, t, w, width, n, col, shift, dense, dot);
  return std::uint32_t(_mm512_reduce_add_epi32(dot));
}

__attribute__((target("avx512f,avx512bw,avx512vnni"))) void sum_rows_avx512(
    std::int32_t* out, const std::int32_t* init, const std::int16_t* w, int width, Terms& t) {
  const int n = t.pad();
  int col = 0;
  for (; col + 256 <= width; col += 256) sum_blocks_avx512<8>(out, init, t, w, width, n, col);
  for (; col + 128 <= width; col += 128) sum_blocks_avx512<4>(out, init, t, w, width, n, col);
  for (; col < width; col += 32) sum_blocks_avx512<1>(out, init, t, w, width, n, col);
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

bool cpu_has_avx2() { return __builtin_cpu_supports("avx2"); }
bool cpu_has_avx512() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vnni");
}
#else
#define DAGUAI_QUANT_AVX2 0
bool cpu_has_avx2() { return false; }
bool cpu_has_avx512() { return false; }
#endif

// A candidate's terms, portable: quantize, subtract the base, the nonzero ones.
void action_terms_portable(const float* a, int n, const std::int32_t* sub, int row0,
                           std::vector<std::int32_t>& x, Terms& t) {
  x.resize(std::size_t(n));
  quantize_portable(a, n, x.data());
  for (int i = 0; i < n; ++i) x[std::size_t(i)] -= sub[i];
  nonzero_terms_portable(x.data(), n, row0, t);
}

#if DAGUAI_QUANT_AVX2
// quantize_input of the 16 floats at x selected by `in` (0 in the other lanes), AVX-512.
__attribute__((target("avx512f,avx512bw,avx512vnni"), always_inline)) inline __m512i quantize16(
    const float* x, __mmask16 in) {
  const __m512 scale = _mm512_set1_ps(float(1 << kInShift)), lo = _mm512_set1_ps(-32767.0f),
               hi = _mm512_set1_ps(32767.0f), half = _mm512_set1_ps(0.5f);
  const __m512i sign = _mm512_set1_epi32(std::int32_t(0x80000000u));
  __m512 s = _mm512_mul_ps(_mm512_maskz_loadu_ps(in, x), scale);
  s = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(s, s, _CMP_ORD_Q), s);  // a NaN is 0
  s = _mm512_min_ps(_mm512_max_ps(s, lo), hi);
  const __m512 r = _mm512_castsi512_ps(
      _mm512_or_si512(_mm512_castps_si512(half), _mm512_and_si512(_mm512_castps_si512(s), sign)));
  return _mm512_maskz_cvttps_epi32(in, _mm512_add_ps(s, r));
}

// The lanes of the 16 inputs from i of n.
inline __mmask16 lanes_from(int i, int n) {
  return n - i >= 16 ? __mmask16(0xffff) : __mmask16((1u << (n - i)) - 1u);
}

__attribute__((target("avx512f,avx512bw,avx512vnni"))) void quantize_avx512(const float* x, int n,
                                                                            std::int32_t* out) {
  for (int i = 0; i < n; i += 16)
    _mm512_mask_storeu_epi32(out + i, lanes_from(i, n), quantize16(x + i, lanes_from(i, n)));
}

// The 16 lanes v (rows row0 + i ..) as terms: compressed, or one by one when one leaves int16.
__attribute__((target("avx512f,avx512bw,avx512vnni"), always_inline)) inline void lanes_as_terms(
    __m512i v, int row0, int i, Terms& t) {
  const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  if (_mm512_cmpgt_epi32_mask(_mm512_abs_epi32(v), _mm512_set1_epi32(32767))) {  // to split
    alignas(64) std::int32_t lanes[16];
    _mm512_store_si512(lanes, v);
    for (int k = 0; k < 16; ++k) t.add(row0 + i + k, lanes[k]);
    return;
  }
  compress_terms(v, _mm512_add_epi32(iota, _mm512_set1_epi32(row0 + i)),
                 _mm512_test_epi32_mask(v, v), t);
}

__attribute__((target("avx512f,avx512bw,avx512vnni"))) void nonzero_terms_avx512(
    const std::int32_t* x, int n, int row0, Terms& t) {
  for (int i = 0; i < n; i += 16)
    lanes_as_terms(_mm512_maskz_loadu_epi32(lanes_from(i, n), x + i), row0, i, t);
}

// A candidate's terms in one pass of 16 inputs (AVX-512): quantize, subtract, compress the
// nonzero ones; the last pass masked.
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void action_terms_avx512(
    const float* a, int n, const std::int32_t* sub, int row0, std::vector<std::int32_t>&,
    Terms& t) {
  for (int i = 0; i < n; i += 16) {
    const __mmask16 in = lanes_from(i, n);
    lanes_as_terms(_mm512_sub_epi32(quantize16(a + i, in), _mm512_maskz_loadu_epi32(in, sub + i)),
                   row0, i, t);
  }
}
#endif

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
};

// What the integer pass reads.
struct Model {
  int inputs, state_inputs, h0, h0p, shift0;
  QuantizedNetwork::Shared shared;
  std::uint64_t serial;
  const std::int16_t* w0;
  const std::int32_t* b0;
  const std::vector<QuantizedLayer>* layers;
};

struct StateEntry {
  std::uint64_t serial = 0, stamp = 0;
  std::vector<std::int32_t> x;    // the quantized state, zero-padded to a multiple of 16
  std::vector<std::int32_t> acc;  // the decision's base: bias + its layer-0 sums, modulo 2^32
};

struct Scratch {
  std::array<StateEntry, kCacheEntries> cache;
  std::uint64_t clock = 0;
  std::vector<std::int32_t> xs, xa, sub;
  Terms terms, next;
};

// This thread's scratch (one lookup of the thread-local per pass).
__attribute__((noinline)) Scratch& thread_scratch() {
  thread_local Scratch s;
  return s;
}

int padded16(int n) { return (n + 15) / 16 * 16; }

__attribute__((always_inline)) inline int count_diffs(const std::int32_t* a, const std::int32_t* b,
                                                      int n) {
  int d = 0;
  for (int i = 0; i < n; ++i) d += a[i] != b[i];
  return d;
}

// The terms of state inputs x (rows from 0). A term at a hand input [shared.state,
// shared.state + len) is also a term at its action row, the hand after a decision that plays
// nothing: so the state's sums are the decision's base, and each candidate adds only the
// differences of its own hand after (the faces it plays).
__attribute__((always_inline)) inline void state_terms(const Model& m, const std::int32_t* x,
                                                       const Kernels& k, Terms& t) {
  t.clear();
  k.nonzero(x, m.state_inputs, 0, t);
  const int lo = m.shared.state, hi = lo + m.shared.len;
  const int to = m.state_inputs + m.shared.action - lo;
  for (int j = 0, n = t.size(); j < n; ++j) {  // rows in increasing order
    const int r = t.row[std::size_t(j)];
    if (r >= hi) break;
    if (r >= lo) t.add(r + to, t.value[std::size_t(j)]);
  }
}

// The state's base sums: from the cached state with the fewest differences, updated by
// them, or afresh (and then cached in the least recently used entry). Either way the same
// integers.
__attribute__((always_inline)) inline StateEntry& state_sums(const Model& m, Scratch& s,
                                                             const Kernels& k) {
  const std::int32_t* x = s.xs.data();
  const int padded = padded16(m.state_inputs);  // the padding is zero in every copy of x
  // The entry whose first 64 inputs (the hand comes first) differ least, then its whole count:
  // the choice only decides the speed, not the integers.
  StateEntry* best = nullptr;
  int best_diffs = 0;
  if (cache_allowed.load(std::memory_order_relaxed)) {
    const int head = std::min(padded, 64);
    for (StateEntry& e : s.cache) {
      if (e.serial != m.serial) continue;
      const int d = count_diffs(e.x.data(), x, head);
      if (!best || d < best_diffs) best = &e, best_diffs = d;
    }
    if (best) best_diffs = count_diffs(best->x.data(), x, padded);
  }
  if (best && best_diffs * 4 <= m.state_inputs) {
    std::int32_t* old = best->x.data();
    for (int i = 0; i < padded; ++i) old[i] = x[i] - old[i];  // the differences
    state_terms(m, old, k, s.terms);
    k.sum(best->acc.data(), best->acc.data(), m.w0, m.h0p, s.terms);
    std::copy(x, x + padded, old);
  } else {
    best = &s.cache[0];  // the least recently used entry
    for (StateEntry& e : s.cache)
      if (e.stamp < best->stamp) best = &e;
    best->serial = m.serial;
    best->x.assign(x, x + padded);
    best->acc.resize(std::size_t(m.h0p));
    state_terms(m, x, k, s.terms);
    k.sum(best->acc.data(), m.b0, m.w0, m.h0p, s.terms);
  }
  best->stamp = ++s.clock;
  return *best;
}

// One candidate from the decision's base: its action inputs, the hidden layers, and the last
// hidden layer's activations summed with the output row (the output layer, width 1).
__attribute__((always_inline)) inline float candidate(const Model& m, const std::int32_t* base,
                                                      const float* a, Scratch& s,
                                                      const Kernels& k) {
  s.terms.clear();
  k.action_terms(a, m.inputs - m.state_inputs, s.sub.data(), m.state_inputs, s.xa, s.terms);
  Terms* in = &s.terms;
  Terms* out = &s.next;
  const std::int32_t* init = base;
  const std::int16_t* w = m.w0;
  int width = m.h0p, shift = m.shift0;
  for (std::size_t l = 0;; ++l) {
    const QuantizedLayer& L = (*m.layers)[l];
    if (l + 1 == m.layers->size()) {  // L is the output: exact, it cannot overflow
      const std::uint32_t y =
          std::uint32_t(L.b[0]) + k.activate_dot(init, w, width, *in, shift, L.dense.data());
      return float(std::int32_t(y)) * std::ldexp(1.0f, -(kActShift + L.shift));
    }
    k.sum_activate(init, w, width, *in, shift, *out);
    std::swap(in, out);
    init = L.b.data(), w = L.w.data(), width = L.out_padded, shift = L.shift;
  }
}

// The whole pass, written once and compiled three times (portable, AVX2, AVX-512), each copy
// with its own kernels: integers, so the copies cannot differ.
__attribute__((always_inline)) inline void forward_body(const Model& m, const float* state,
                                                        const float* actions, int n, float* q,
                                                        const Kernels& k) {
  Scratch& s = thread_scratch();
  // Room for every term: a difference splits in two at most, and so does its copy at a hand
  // row; activations are within int16.
  s.terms.reserve(2 * std::size_t(m.inputs) + kMaxModelWidth);
  s.next.reserve(2 * std::size_t(m.inputs) + kMaxModelWidth);
  s.xs.assign(std::size_t(padded16(m.state_inputs)), 0);
  k.quantize(state, m.state_inputs, s.xs.data());
  const StateEntry& e = state_sums(m, s, k);
  const int action_inputs = m.inputs - m.state_inputs;
  s.sub.assign(std::size_t(action_inputs) + 16, 0);  // each candidate's inputs minus these
  for (int f = 0; f < m.shared.len; ++f)
    s.sub[std::size_t(m.shared.action + f)] = s.xs[std::size_t(m.shared.state + f)];
  for (int c = 0; c < n; ++c)
    q[c] = candidate(m, e.acc.data(), actions + std::size_t(c) * action_inputs, s, k);
}

void forward_portable(const Model& m, const float* state, const float* actions, int n, float* q) {
  static const Kernels k{&sum_rows_portable, &sum_activate_portable,  &activate_dot_portable,
                         &quantize_portable, &nonzero_terms_portable, &action_terms_portable};
  forward_body(m, state, actions, n, q, k);
}

#if DAGUAI_QUANT_AVX2
__attribute__((target("avx2"))) void forward_avx2(const Model& m, const float* state,
                                                  const float* actions, int n, float* q) {
  static const Kernels k{&sum_rows_avx2, &sum_activate_avx2,  &activate_dot_avx2,
                         &quantize_avx2, &nonzero_terms_avx2, &action_terms_avx2};
  forward_body(m, state, actions, n, q, k);
}

__attribute__((target("avx2,avx512f,avx512bw,avx512vnni"))) void forward_avx512(
    const Model& m, const float* state, const float* actions, int n, float* q) {
  static const Kernels k{&sum_rows_avx512, &sum_activate_avx512,  &activate_dot_avx512,
                         &quantize_avx512, &nonzero_terms_avx512, &action_terms_avx512};
  forward_body(m, state, actions, n, q, k);
}
#endif

}  // namespace

QuantizedNetwork::QuantizedNetwork(const std::vector<float>& w0, const std::vector<float>& b0,
                                   int inputs, int state_inputs, int h0,
                                   const std::vector<std::vector<float>>& w,
                                   const std::vector<std::vector<float>>& b, Shared shared)
    : inputs_(inputs),
      state_inputs_(state_inputs),
      h0_(h0),
      h0p_(padded(h0)),
      shared_(shared),
      serial_(next_serial.fetch_add(1)) {
  float largest = 0.0f, bias = 0.0f;
  for (float v : w0) largest = std::max(largest, std::fabs(v));
  for (float v : b0) bias = std::max(bias, std::fabs(v));
  s0_ = 24;
  while (s0_ >= 0 && (std::nearbyint(double(largest) * std::ldexp(1.0, s0_)) > 32767.0 ||
                      double(bias) * std::ldexp(1.0, s0_ + kInShift) > 2147483647.0 * 0.5))
    --s0_;
  if (s0_ < 0) throw ModelError("model file: layer 0 weights too large to quantize");
  const double s = std::ldexp(1.0, s0_);
  w0_.assign(std::size_t(inputs) * std::size_t(h0p_), 0);
  for (int i = 0; i < inputs; ++i)
    for (int j = 0; j < h0; ++j)
      w0_[std::size_t(i) * std::size_t(h0p_) + std::size_t(swizzled(j))] =
          std::int16_t(std::nearbyint(double(w0[std::size_t(i) * std::size_t(h0) + j]) * s));
  b0_.assign(std::size_t(h0p_), 0);
  for (int j = 0; j < h0; ++j)
    b0_[std::size_t(j)] =
        std::int32_t(std::nearbyint(double(b0[std::size_t(j)]) * s * (1 << kInShift)));
  for (std::size_t k = 0; k < w.size(); ++k) {
    const int in = k == 0 ? h0 : int(b[k - 1].size());
    layers_.push_back(quantize_later(w[k], b[k], in, int(b[k].size())));
  }
}

void QuantizedNetwork::evaluate(const float* state, const float* actions, int n, float* q) const {
  const Model m{inputs_, state_inputs_, h0_,        h0p_,       kInShift + s0_ - kActShift,
                shared_, serial_,       w0_.data(), b0_.data(), &layers_};
#if DAGUAI_QUANT_AVX2
  switch (quantized_kernel()) {
    case QuantKernel::kAvx512:
      return forward_avx512(m, state, actions, n, q);
    case QuantKernel::kAvx2:
      return forward_avx2(m, state, actions, n, q);
    case QuantKernel::kPortable:
      break;
  }
#endif
  forward_portable(m, state, actions, n, q);
}

QuantKernel best_quantized_kernel() {
  return cpu_has_avx512() ? QuantKernel::kAvx512
                          : (cpu_has_avx2() ? QuantKernel::kAvx2 : QuantKernel::kPortable);
}

QuantKernel quantized_kernel() {
  return QuantKernel(
      std::min(kernel_cap.load(std::memory_order_relaxed), int(best_quantized_kernel())));
}

void set_quantized_kernel(QuantKernel k) { kernel_cap.store(int(k)); }
void set_quantized_cache(bool allowed) { cache_allowed.store(allowed); }

}  // namespace daguai
