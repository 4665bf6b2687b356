#pragma once
// Queueing at a demanded request rate, for a p95 time to first token.

namespace gpufleet {

struct QueueDelay {
  double slot_wait_probability = 0;  // Erlang C: a request finds every sequence slot busy
  double p95_wait_s = 0;             // 95th percentile of the wait before its prefill starts
};

// One model copy with `slots` concurrent sequences, each held `hold_s` seconds, fed `rate_per_s`
// requests (Poisson): the p95 wait for a slot (M/M/c, Erlang C) plus the mean wait behind prompts
// already being prefilled (M/D/1 on a prefill of `prefill_s`). A saturated copy waits forever:
// the p95 is then 1e9 s.
QueueDelay queue_delay(double rate_per_s, double slots, double hold_s, double prefill_s);

}  // namespace gpufleet
