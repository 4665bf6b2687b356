#include "model/queueing.hpp"

#include <algorithm>
#include <cmath>

namespace gpufleet {

QueueDelay queue_delay(double rate_per_s, double slots, double hold_s, double prefill_s) {
  QueueDelay q;
  constexpr double kForever = 1e9;
  const double c = std::max(1.0, std::floor(slots));
  const double load = rate_per_s * hold_s;  // offered load, erlangs
  if (rate_per_s <= 0) return q;
  if (load >= c) {
    q.slot_wait_probability = 1;
    q.p95_wait_s = kForever;
    return q;
  }
  // Erlang B by its recurrence (stable for hundreds of slots), then Erlang C.
  double b = 1;
  for (double k = 1; k <= c; ++k) b = load * b / (k + load * b);
  const double wait_probability = c * b / (c - load * (1 - b));
  q.slot_wait_probability = wait_probability;
  // P(W > t) = C exp(-(c mu - lambda) t): the 95th percentile.
  const double drain_per_s = c / hold_s - rate_per_s;
  const double slot_wait = wait_probability > 0.05 ? std::log(wait_probability / 0.05) / drain_per_s : 0;
  const double rho = rate_per_s * prefill_s;
  if (rho >= 1) {
    q.p95_wait_s = kForever;
    return q;
  }
  const double prefill_wait = rho * prefill_s / (2 * (1 - rho));
  q.p95_wait_s = slot_wait + prefill_wait;
  return q;
}

}  // namespace gpufleet
