#pragma once
// Runs work that should never throw; where the build has exceptions, one that escapes becomes
// an error answer instead of a crash. The WebAssembly build has none (smaller, faster code): there
// nlohmann_json aborts on a misuse, which the fuzzer (built the same way) hunts for.

#include <exception>
#include <utility>

namespace gpufleet::detail {

template <typename Work, typename OnError>
auto guarded(Work&& work, OnError&& on_error) -> decltype(work()) {
#if defined(__cpp_exceptions)
  try {
    return std::forward<Work>(work)();
  } catch (const std::exception& e) {
    return std::forward<OnError>(on_error)(e.what());
  }
#else
  (void)on_error;
  return std::forward<Work>(work)();
#endif
}

}  // namespace gpufleet::detail
