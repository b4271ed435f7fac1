// The integer forward pass, written once: each kernel copy (kernels_*.cpp) compiles it with its
// own kernels, so the three passes are the same code and cannot differ.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include <daguai/learned/format.hpp>
#include <daguai/learned/quantized/accumulator.hpp>
#include <daguai/learned/quantized/kernels.hpp>

namespace daguai::detail {

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
  const std::int16_t* w = k.chunks ? m.w0_pairs : m.w0;
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
    init = L.b.data(), w = k.chunks ? L.pairs.data() : L.w.data();
    width = L.out_padded, shift = L.shift;
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
  s.xs.resize(std::size_t(padded16(m.state_inputs)));  // written whole: no zeroing first
  k.quantize(state, m.state_inputs, s.xs.data());
  std::fill(s.xs.begin() + m.state_inputs, s.xs.end(), 0);  // the padding
  const StateEntry& e = state_sums(m, s, k);
  const int action_inputs = m.inputs - m.state_inputs;
  s.sub.assign(std::size_t(action_inputs) + 16, 0);  // each candidate's inputs minus these
  for (int f = 0; f < m.shared.len; ++f)
    s.sub[std::size_t(m.shared.action + f)] = s.xs[std::size_t(m.shared.state + f)];
  for (int c = 0; c < n; ++c)
    q[c] = candidate(m, e.acc.data(), actions + std::size_t(c) * action_inputs, s, k);
}

}  // namespace daguai::detail
