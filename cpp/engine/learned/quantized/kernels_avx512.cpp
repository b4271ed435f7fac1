// The AVX-512 copy (BW, VNNI) of the integer pass's kernels. Only its functions carry the
// target attribute, so the rest of the build keeps the project's -march.
#include <daguai/learned/quantized/kernels.hpp>

#if DAGUAI_QUANT_X86
#include <immintrin.h>

#include <cstdint>
#include <vector>

#include <daguai/learned/format.hpp>
#include <daguai/learned/quantized/forward.hpp>

namespace daguai::detail {

namespace {

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

}  // namespace

__attribute__((target("avx2,avx512f,avx512bw,avx512vnni"))) void forward_avx512(
    const Model& m, const float* state, const float* actions, int n, float* q) {
  static const Kernels k{&sum_rows_avx512, &sum_activate_avx512,  &activate_dot_avx512,
                         &quantize_avx512, &nonzero_terms_avx512, &action_terms_avx512};
  forward_body(m, state, actions, n, q, k);
}

}  // namespace daguai::detail
#endif
