// The AVX2 copy of the integer pass's kernels. Only its functions carry the target attribute,
// so the rest of the build keeps the project's -march and this file needs no flags of its own.
#include <daguai/learned/quantized/kernels.hpp>

#if DAGUAI_QUANT_X86
#include <immintrin.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <daguai/learned/format.hpp>
#include <daguai/learned/quantized/forward.hpp>

namespace daguai::detail {

namespace {

// For each 8-bit mask, the indices of its set bits in increasing order, one byte each (then
// zeros): the permutation that packs the selected lanes of 8 to the front, with no branch
// (AVX2 has no compress instruction; a loop over the bits mispredicts at every group).
struct CompressTable {
  std::uint64_t idx[256];
};
constexpr CompressTable make_compress_table() {
  CompressTable t{};
  for (int m = 0; m < 256; ++m) {
    int k = 0;
    for (int b = 0; b < 8; ++b)
      if ((m >> b) & 1) t.idx[m] |= std::uint64_t(b) << (8 * k++);
  }
  return t;
}
alignas(64) constexpr CompressTable kCompress = make_compress_table();

// The lanes of v selected by `mask` (each within int16) appended to t as terms, rows row0 +
// lane, in lane order: all 8 lanes are stored (t has room past its end), t.n counts the
// selected ones.
__attribute__((target("avx2"), always_inline)) inline void compress8(__m256i v, unsigned mask,
                                                                     int row0, Terms& t) {
  const __m256i idx =
      _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(&kCompress.idx[mask])));
  const __m256i picked = _mm256_permutevar8x32_epi32(v, idx);
  const int n = t.n;
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(t.row.data() + n),
                      _mm256_add_epi32(idx, _mm256_set1_epi32(row0)));
  // the 8 values as int16 (within range, so the saturation never acts), lanes 0-3 and 4-7
  // brought together in the low half
  const __m256i packed = _mm256_permute4x64_epi64(_mm256_packs_epi32(picked, picked), 0x08);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(t.value.data() + n), _mm256_castsi256_si128(packed));
  t.n = n + __builtin_popcount(mask);
}

// The pairs of t (after pad()) ready for the kernel: each row's offset into the weights, in
// int16 (row * width), in t.off. Computed once per layer, not once per block of columns.
__attribute__((target("avx2"), always_inline)) inline int pair_offsets(Terms& t, int width) {
  const int n = t.pad();
  const __m256i wv = _mm256_set1_epi32(width);
  for (int i = 0; i < 2 * n; i += 8)  // t has room past its end (reserve)
    _mm256_storeu_si256(
        reinterpret_cast<__m256i*>(t.off.data() + i),
        _mm256_mullo_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.row.data() + i)),
                           wv));
  return n;
}

// The sums of B blocks of 32 columns from column `col` over the n pairs of t, in 4B
// registers: per block, columns 0-7, 16-23, 8-15, 24-31 (the swizzle, quantize.hpp).
constexpr int kAt[4] = {0, 16, 8, 24};
template <int B>
__attribute__((target("avx2"), always_inline)) inline void accumulate_avx2(
    __m256i* acc, const std::int32_t* init, const Terms& t, const std::int16_t* w, int n, int col) {
  for (int b = 0; b < B; ++b)
    for (int q = 0; q < 4; ++q)
      acc[4 * b + q] =
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(init + col + 32 * b + kAt[q]));
  const std::int16_t* wc = w + col;
  const std::int32_t* off = t.off.data();
  const std::int16_t* value = t.value.data();
  for (int p = 0; p < n; ++p) {
    std::int32_t pv;
    std::memcpy(&pv, value + 2 * p, sizeof pv);  // the pair's two values (the first low)
    const __m256i v = _mm256_set1_epi32(pv);
    const std::int16_t* r0 = wc + off[2 * p];
    const std::int16_t* r1 = wc + off[2 * p + 1];
    for (int h = 0; h < 2 * B; ++h) {  // 16 int16 of each row
      const __m256i a0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r0 + 16 * h));
      const __m256i a1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r1 + 16 * h));
      const int q = 4 * (h / 2) + 2 * (h % 2);  // h even: columns 0-7, 16-23; odd: 8-15, 24-31
      acc[q] = _mm256_add_epi32(acc[q], _mm256_madd_epi16(_mm256_unpacklo_epi16(a0, a1), v));
      acc[q + 1] =
          _mm256_add_epi32(acc[q + 1], _mm256_madd_epi16(_mm256_unpackhi_epi16(a0, a1), v));
    }
  }
}

// The activations of 8 sums, ReLU then >> shift clipped to kActMax (activation()).
__attribute__((target("avx2"), always_inline)) inline __m256i activate8(__m256i y, __m128i sh) {
  return _mm256_min_epi32(_mm256_max_epi32(_mm256_sra_epi32(y, sh), _mm256_setzero_si256()),
                          _mm256_set1_epi32(kActMax));
}

// B blocks from column col: the sums stored (sum_rows), their activations as the next
// layer's terms (sum_activate), or their activations times the output row added to dot.
template <int B>
__attribute__((target("avx2"), always_inline)) inline void store_blocks(std::int32_t* out,
                                                                        const std::int32_t* init,
                                                                        const Terms& t,
                                                                        const std::int16_t* w,
                                                                        int n, int col) {
  __m256i acc[4 * B];
  accumulate_avx2<B>(acc, init, t, w, n, col);
  for (int b = 0; b < B; ++b)
    for (int q = 0; q < 4; ++q)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + col + 32 * b + kAt[q]), acc[4 * b + q]);
}

template <int B>
__attribute__((target("avx2"), always_inline)) inline void activate_blocks(
    const std::int32_t* init, const Terms& t, const std::int16_t* w, int n, int col, __m128i sh,
    Terms& next) {
  __m256i acc[4 * B];
  accumulate_avx2<B>(acc, init, t, w, n, col);
  for (int b = 0; b < B; ++b)
    for (int q = 0; q < 4; ++q) {  // the nonzero activations (each > 0) as terms
      const __m256i a = activate8(acc[4 * b + q], sh);
      const unsigned mask = unsigned(
          _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(a, _mm256_setzero_si256()))));
      compress8(a, mask, col + 32 * b + kAt[q], next);
    }
}

template <int B>
__attribute__((target("avx2"), always_inline)) inline void dot_blocks(
    const std::int32_t* init, const Terms& t, const std::int16_t* w, int n, int col, __m128i sh,
    const std::int32_t* dense, __m256i& dot) {
  __m256i acc[4 * B];
  accumulate_avx2<B>(acc, init, t, w, n, col);
  for (int b = 0; b < B; ++b)
    for (int q = 0; q < 4; ++q)
      dot = _mm256_add_epi32(
          dot,
          _mm256_mullo_epi32(
              activate8(acc[4 * b + q], sh),
              _mm256_loadu_si256(reinterpret_cast<const __m256i*>(dense + col + 32 * b + kAt[q]))));
}

__attribute__((target("avx2"))) void sum_rows_avx2(std::int32_t* out, const std::int32_t* init,
                                                   const std::int16_t* w, int width, Terms& t) {
  const int n = pair_offsets(t, width);
  int col = 0;
  for (; col + 64 <= width; col += 64) store_blocks<2>(out, init, t, w, n, col);
  for (; col < width; col += 32) store_blocks<1>(out, init, t, w, n, col);
}

__attribute__((target("avx2"))) void sum_activate_avx2(const std::int32_t* init,
                                                       const std::int16_t* w, int width, Terms& t,
                                                       int shift, Terms& next) {
  const int n = pair_offsets(t, width);
  const __m128i sh = _mm_cvtsi32_si128(shift);
  next.clear();
  int col = 0;
  for (; col + 64 <= width; col += 64) activate_blocks<2>(init, t, w, n, col, sh, next);
  for (; col < width; col += 32) activate_blocks<1>(init, t, w, n, col, sh, next);
}

// The last hidden layer: its activations times the output row `dense`, summed in registers
// (modulo 2^32), one horizontal sum at the end.
__attribute__((target("avx2"))) std::uint32_t activate_dot_avx2(const std::int32_t* init,
                                                                const std::int16_t* w, int width,
                                                                Terms& t, int shift,
                                                                const std::int32_t* dense) {
  const int n = pair_offsets(t, width);
  const __m128i sh = _mm_cvtsi32_si128(shift);
  __m256i dot = _mm256_setzero_si256();
  int col = 0;
  for (; col + 64 <= width; col += 64) dot_blocks<2>(init, t, w, n, col, sh, dense, dot);
  for (; col < width; col += 32) dot_blocks<1>(init, t, w, n, col, sh, dense, dot);
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(dot), _mm256_extracti128_si256(dot, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
  return std::uint32_t(_mm_cvtsi128_si32(s));
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

// The nonzero lanes of v as terms (row0 + i + lane), in order: compressed, or one by one (as
// Terms::add splits them) when one leaves int16.
__attribute__((target("avx2"), always_inline)) inline void lanes8_as_terms(__m256i v, int row0,
                                                                           int i, Terms& t) {
  const __m256i big = _mm256_or_si256(_mm256_cmpgt_epi32(v, _mm256_set1_epi32(32767)),
                                      _mm256_cmpgt_epi32(_mm256_set1_epi32(-32767), v));
  if (__builtin_expect(!_mm256_testz_si256(big, big), 0)) {
    alignas(32) std::int32_t lanes[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), v);
    for (int k = 0; k < 8; ++k) t.add(row0 + i + k, lanes[k]);
    return;
  }
  const unsigned mask = unsigned(_mm256_movemask_ps(
                            _mm256_castsi256_ps(_mm256_cmpeq_epi32(v, _mm256_setzero_si256())))) ^
                        0xffu;
  compress8(v, mask, row0 + i, t);
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
