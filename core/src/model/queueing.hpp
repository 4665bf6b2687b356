#pragma once
// Queueing at a demanded request rate, for a percentile of the time to first token.

namespace gpufleet {

struct QueueDelay {
  double slot_wait_probability = 0;  // Erlang C: a request finds every sequence slot busy
  double prefill_busy_probability = 0;  // M/D/1: a prompt finds another being prefilled (rho)
  double p95_wait_s = 0;  // 95th percentile of the wait before its own prefill starts
  double mean_wait_s = 0;
};

// One model copy with `slots` concurrent sequences, each held `hold_s` seconds, fed `rate_per_s`
// requests (Poisson). A request waits for a slot (M/M/c: with probability C, an exponential wait of
// rate c/hold - rate) and then behind prompts already queued for prefill (M/D/1 with a prefill of
// `prefill_s`: its waiting time's Cramer-Lundberg tail, A exp(-g t), capped at rho). The two waits
// are taken as independent; `percentile` (0-1, e.g. 0.95) of their sum is found by bisection on the
// closed-form tail of the sum. A saturated copy waits forever: the percentile is then 1e9 s.
QueueDelay queue_delay(double rate_per_s, double slots, double hold_s, double prefill_s,
                       double percentile = 0.95);

// The tail P(W > t) of the M/D/1 waiting time at load `rho` and service `service_s`, as queue_delay
// uses it: min(rho, A exp(-g t)), g the positive root of rho (e^{g D} - 1) = g D, A = (1 - rho) /
// (rho e^{g D} - 1).
double md1_wait_tail(double rho, double service_s, double t);

}  // namespace gpufleet
