// The integer network: quantized at load (quantized/quantize.cpp), evaluated by the best kernel
// copy this CPU has (quantized/kernels_*.cpp, each running the one pass of forward.hpp).
#include <algorithm>
#include <atomic>
#include <utility>

#include <daguai/learned/quantized.hpp>
#include <daguai/learned/quantized/kernels.hpp>
#include <daguai/learned/quantized/quantize.hpp>

namespace daguai {

namespace {

std::atomic<std::uint64_t> next_serial{1};
std::atomic<int> kernel_cap{int(QuantKernel::kAvx512)};  // the best allowed

// The kernel copies this CPU can run.
#if DAGUAI_QUANT_X86
bool cpu_has_avx2() { return __builtin_cpu_supports("avx2"); }
bool cpu_has_avx512() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vnni");
}
#else
bool cpu_has_avx2() { return false; }
bool cpu_has_avx512() { return false; }
#endif

}  // namespace

QuantizedNetwork::QuantizedNetwork(const std::vector<float>& w0, const std::vector<float>& b0,
                                   int inputs, int state_inputs, int h0,
                                   const std::vector<std::vector<float>>& w,
                                   const std::vector<std::vector<float>>& b, Shared shared)
    : inputs_(inputs),
      state_inputs_(state_inputs),
      h0_(h0),
      h0p_(detail::quant_padded(h0)),
      shared_(shared),
      serial_(next_serial.fetch_add(1)) {
  detail::QuantizedFirst first = detail::quantize_first(w0, b0, inputs, h0);
  s0_ = first.shift;
  w0_ = std::move(first.w);
  b0_ = std::move(first.b);
  w0_pairs_ = detail::pair_interleaved(w0_, state_inputs, inputs - state_inputs, h0p_);
  for (std::size_t k = 0; k < w.size(); ++k) {
    const int in = k == 0 ? h0 : int(b[k - 1].size());
    layers_.push_back(detail::quantize_later(w[k], b[k], in, int(b[k].size())));
  }
}

void QuantizedNetwork::evaluate(const float* state, const float* actions, int n, float* q) const {
  const detail::Model m{
      inputs_,         state_inputs_, h0_,        h0p_,       kInShift + s0_ - kActShift,
      shared_,         serial_,       w0_.data(), b0_.data(), &layers_,
      w0_pairs_.data()};
#if DAGUAI_QUANT_X86
  switch (quantized_kernel()) {
    case QuantKernel::kAvx512:
      return detail::forward_avx512(m, state, actions, n, q);
    case QuantKernel::kAvx2:
      return detail::forward_avx2(m, state, actions, n, q);
    case QuantKernel::kPortable:
      break;
  }
#endif
  detail::forward_portable(m, state, actions, n, q);
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

}  // namespace daguai
