#include "model/sequences.hpp"

#include <algorithm>
#include <cmath>

namespace gpufleet {
namespace {

constexpr double kMostSequences = 1e6;  // the request's largest batch

// A pool engine: the whole sequences its pool holds, and no more than the limit leaves for them
// beside what the copy holds outside the pool.
double in_pool(const MemoryQuestion& q, const MemoryEstimate& e, double limit) {
  if (!e.kv_pool_bytes) return 0;
  double n = e.max_concurrent_sequences.value_or(0);
  // A sequence's KV in the pool (sliding-window layers at their window, where the engine keeps
  // only that).
  const double per_sequence =
      e.kv_bytes_per_sequence > 0
          ? e.kv_bytes_per_sequence
          : e.kv_bytes_per_token * q.max_model_len.value_or(q.sequence + q.new_tokens);
  if (limit < e.total_bytes && per_sequence > 0)
    n = std::min(n, std::floor((limit - (e.total_bytes - *e.kv_pool_bytes)) / per_sequence));
  return std::max(0.0, n);
}

}  // namespace

double sequences_that_fit(const MemoryConstants& k, MemoryQuestion q, const MemoryEstimate& at_one,
                          double limit_bytes) {
  const auto engine = k.engines.find(q.engine);
  if (engine != k.engines.end() && engine->second.kv_policy == "pool")
    return in_pool(q, at_one, limit_bytes);
  // Other engines grow the KV cache and the activations with the batch: the memory at two
  // sequences gives the step, whose guess is then checked against the model itself.
  q.explain = false;
  auto total_at = [&](double batch) {
    q.batch = batch;
    const MemoryAnswer a = estimate_memory(k, q);
    return a.estimate ? a.estimate->total_bytes : limit_bytes + 1;
  };
  auto fits = [&](double batch) { return total_at(batch) <= limit_bytes; };
  const double one = q.batch == 1 ? at_one.total_bytes : total_at(1);
  if (one > limit_bytes) return 0;
  const double step = total_at(2) - one;
  double guess = step > 0 ? 1 + std::floor((limit_bytes - one) / step) : kMostSequences;
  guess = std::clamp(guess, 1.0, kMostSequences);
  // lo fits, hi does not (or is past the largest batch); widen from the guess, then bisect.
  double lo = 1, hi = kMostSequences + 1;
  if (fits(guess)) {
    lo = guess;
    for (double width = 1; lo + width <= kMostSequences; width *= 2) {
      if (!fits(lo + width)) {
        hi = lo + width;
        break;
      }
      lo += width;
    }
  } else {
    hi = guess;
    for (double width = 1; hi - width > 1; width *= 2) {
      if (fits(hi - width)) {
        lo = hi - width;
        break;
      }
      hi -= width;
    }
  }
  while (hi - lo > 1) {
    const double mid = std::floor((lo + hi) / 2);
    (fits(mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace gpufleet
