#include <daguai/learned/quantized/accumulator.hpp>

namespace daguai {

namespace detail {

std::atomic<bool> quantized_cache_allowed{true};

__attribute__((noinline)) Scratch& thread_scratch() {
  thread_local Scratch s;
  return s;
}

}  // namespace detail

void set_quantized_cache(bool allowed) { detail::quantized_cache_allowed.store(allowed); }

}  // namespace daguai
