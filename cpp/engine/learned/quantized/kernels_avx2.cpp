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

// B blocks from column col, their sums stored.
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

__attribute__((target("avx2"))) void sum_rows_avx2(std::int32_t* out, const std::int32_t* init,
                                                   const std::int16_t* w, int width, Terms& t) {
  const int n = pair_offsets(t, width);
  int col = 0;
  for (; col + 64 <= width; col += 64) store_blocks<2>(out, init, t, w, n, col);
  for (; col < width; col += 32) store_blocks<1>(out, init, t, w, n, col);
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

// ---- a candidate's layers, in chunks ----------------------------------------------------
// A candidate's terms are chunks: inputs 2c and 2c + 1 of a layer as one term (row c, the two
// values side by side), summed against the layer's weights in pair_interleaved layout
// (quantize.hpp): one pmaddwd per 8 columns with no unpacking. A chunk with one nonzero input
// carries a zero partner, which adds nothing: the same integers as any other order.

// The chunks of v (8 pairs of int16, chunks c0 .. c0 + 7) selected by `mask` appended to t.
__attribute__((target("avx2"), always_inline)) inline void compress_chunks(__m256i v, unsigned mask,
                                                                           int c0, Terms& t) {
  const __m256i idx =
      _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(&kCompress.idx[mask])));
  const int n = t.n;
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(t.row.data() + n),
                      _mm256_add_epi32(idx, _mm256_set1_epi32(c0)));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(t.value.data() + 2 * n),
                      _mm256_permutevar8x32_epi32(v, idx));
  t.n = n + __builtin_popcount(mask);
}

// 16 int32 (a: inputs 0-7, b: 8-15), each within int16, as 8 chunks of int16 pairs in order.
__attribute__((target("avx2"), always_inline)) inline __m256i pack16(__m256i a, __m256i b) {
  return _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), 0xd8);
}

// The nonzero chunks of 16 values (pack16) as terms, chunks c0 ..
__attribute__((target("avx2"), always_inline)) inline void chunk_terms(__m256i packed, int c0,
                                                                       Terms& t) {
  const unsigned mask = unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(
                            _mm256_cmpeq_epi32(packed, _mm256_setzero_si256())))) ^
                        0xffu;
  compress_chunks(packed, mask, c0, t);
}

// The sums of B blocks of 32 columns from column `col` over the chunks of t, in 4B registers
// of 8 columns in order.
template <int B>
__attribute__((target("avx2"), always_inline)) inline void accumulate_chunks(
    __m256i* acc, const std::int32_t* init, const Terms& t, const std::int16_t* wp, int width,
    int col) {
  for (int q = 0; q < 4 * B; ++q)
    acc[q] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(init + col + 8 * q));
  const std::int16_t* base = wp + 2 * std::size_t(col);
  const std::size_t stride = 2 * std::size_t(width);
  const std::int32_t* row = t.row.data();
  const std::int16_t* value = t.value.data();
  for (int c = 0; c < t.n; ++c) {
    std::int32_t pv;
    std::memcpy(&pv, value + 2 * c, sizeof pv);
    const __m256i v = _mm256_set1_epi32(pv);
    const std::int16_t* r = base + std::size_t(row[c]) * stride;
    for (int q = 0; q < 4 * B; ++q)
      acc[q] = _mm256_add_epi32(
          acc[q],
          _mm256_madd_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(r + 16 * q)), v));
  }
}

template <int B>
__attribute__((target("avx2"), always_inline)) inline void activate_chunks(
    const std::int32_t* init, const Terms& t, const std::int16_t* wp, int width, int col,
    __m128i sh, Terms& next) {
  __m256i acc[4 * B];
  accumulate_chunks<B>(acc, init, t, wp, width, col);
  for (int q = 0; q < 4 * B; q += 2)  // activations are within int16: packing is exact
    chunk_terms(pack16(activate8(acc[q], sh), activate8(acc[q + 1], sh)), (col + 8 * q) / 2, next);
}

template <int B>
__attribute__((target("avx2"), always_inline)) inline void dot_chunks(
    const std::int32_t* init, const Terms& t, const std::int16_t* wp, int width, int col,
    __m128i sh, const std::int32_t* dense, __m256i& dot) {
  __m256i acc[4 * B];
  accumulate_chunks<B>(acc, init, t, wp, width, col);
  for (int q = 0; q < 4 * B; ++q)
    dot = _mm256_add_epi32(
        dot, _mm256_mullo_epi32(
                 activate8(acc[q], sh),
                 _mm256_loadu_si256(reinterpret_cast<const __m256i*>(dense + col + 8 * q))));
}

// A hidden layer over chunks: its activations as the next layer's chunks.
__attribute__((target("avx2"))) void sum_activate_avx2(const std::int32_t* init,
                                                       const std::int16_t* wp, int width, Terms& t,
                                                       int shift, Terms& next) {
  const __m128i sh = _mm_cvtsi32_si128(shift);
  next.clear();
  int col = 0;
  for (; col + 64 <= width; col += 64) activate_chunks<2>(init, t, wp, width, col, sh, next);
  for (; col < width; col += 32) activate_chunks<1>(init, t, wp, width, col, sh, next);
}

// The last hidden layer over chunks: its activations times the output row `dense`, summed in
// registers (modulo 2^32), one horizontal sum at the end.
__attribute__((target("avx2"))) std::uint32_t activate_dot_avx2(const std::int32_t* init,
                                                                const std::int16_t* wp, int width,
                                                                Terms& t, int shift,
                                                                const std::int32_t* dense) {
  const __m128i sh = _mm_cvtsi32_si128(shift);
  __m256i dot = _mm256_setzero_si256();
  int col = 0;
  for (; col + 64 <= width; col += 64) dot_chunks<2>(init, t, wp, width, col, sh, dense, dot);
  for (; col < width; col += 32) dot_chunks<1>(init, t, wp, width, col, sh, dense, dot);
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(dot), _mm256_extracti128_si256(dot, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
  return std::uint32_t(_mm_cvtsi128_si32(s));
}

// Input i's value v as chunks (several when v leaves int16, as Terms::add splits it).
inline void add_to_chunk(Terms& t, int i, std::int32_t v) {
  while (v != 0) {
    const std::int32_t part = v < -32767 ? -32767 : (v > 32767 ? 32767 : v);
    t.row[std::size_t(t.n)] = i / 2;
    t.value[2 * std::size_t(t.n) + std::size_t(i % 2)] = std::int16_t(part);
    t.value[2 * std::size_t(t.n) + std::size_t(1 - i % 2)] = 0;
    ++t.n;
    v -= part;
  }
}

// A candidate's chunks, 16 inputs at a time: quantize, subtract the decision's base, the
// nonzero chunks (inputs numbered from 0, the first action input; row0 is not needed).
__attribute__((target("avx2"))) void action_terms_avx2(const float* a, int n,
                                                       const std::int32_t* sub, int,
                                                       std::vector<std::int32_t>&, Terms& t) {
  for (int i = 0; i < n; i += 16) {
    const __m256i v0 = _mm256_sub_epi32(quantize8(a, i, n), load8(sub, i, n));
    const __m256i v1 = _mm256_sub_epi32(quantize8(a, i + 8, n), load8(sub, i + 8, n));
    const __m256i top = _mm256_set1_epi32(32767), bottom = _mm256_set1_epi32(-32767);
    const __m256i big = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpgt_epi32(v0, top), _mm256_cmpgt_epi32(bottom, v0)),
        _mm256_or_si256(_mm256_cmpgt_epi32(v1, top), _mm256_cmpgt_epi32(bottom, v1)));
    if (__builtin_expect(!_mm256_testz_si256(big, big), 0)) {  // beyond int16: one by one
      alignas(32) std::int32_t lanes[16];
      _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), v0);
      _mm256_store_si256(reinterpret_cast<__m256i*>(lanes + 8), v1);
      for (int k = 0; k < 16; ++k) add_to_chunk(t, i + k, lanes[k]);
      continue;
    }
    chunk_terms(pack16(v0, v1), i / 2, t);
  }
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
                         &quantize_avx2, &nonzero_terms_avx2, &action_terms_avx2,
                         /*chunks=*/true};
  forward_body(m, state, actions, n, q, k);
}

}  // namespace daguai::detail
#endif
