#include "model/queueing.hpp"

#include <algorithm>
#include <cmath>

namespace gpufleet {
namespace {

constexpr double kForever = 1e9;

// The exponential tail of the M/D/1 wait: P(W > t) ~ a exp(-rate t), capped at rho = P(W > 0).
struct Md1Tail {
  double rho = 0, a = 0, rate = 0, knee = 0;  // knee: where a exp(-rate t) falls to rho
};

Md1Tail md1_tail(double rho, double service_s) {
  Md1Tail m;
  m.rho = rho;
  if (rho <= 0 || service_s <= 0) return m;
  // x = g D solves rho (e^x - 1) = x, x > 0 (Cramer-Lundberg; g(x) is convex, negative just
  // above 0 when rho < 1): bisection on a bracket, then Newton.
  double lo = 0, hi = 1;
  while (rho * (std::exp(hi) - 1) - hi < 0 && hi < 700) hi *= 2;
  double x = hi;
  for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; ++i) {
    x = (lo + hi) / 2;
    (rho * (std::exp(x) - 1) - x < 0 ? lo : hi) = x;
  }
  x = (lo + hi) / 2;
  m.rate = x / service_s;
  m.a = (1 - rho) / (rho * std::exp(x) - 1);
  m.knee = m.a > rho ? std::log(m.a / rho) / m.rate : 0;
  return m;
}

double tail(const Md1Tail& m, double t) {
  if (m.rho <= 0) return 0;
  return t <= m.knee ? m.rho : std::min(m.rho, m.a * std::exp(-m.rate * t));
}

// P(W1 + W2 > t): W1 = 0 with probability 1 - c, else Exp(theta); W2 with the tail above.
//   = (1 - c) T2(t) + c [ e^{-theta t} + theta e^{-theta t} \int_0^t e^{theta v} T2(v) dv ]
double sum_tail(double c, double theta, const Md1Tail& m, double t) {
  double integral = 0;  // theta e^{-theta t} \int_0^t e^{theta v} T2(v) dv, without overflow
  if (m.rho > 0) {
    const double flat_end = std::min(t, m.knee);
    integral += m.rho * (std::exp(-theta * (t - flat_end)) - std::exp(-theta * t));
    if (t > m.knee) {
      const double d = theta - m.rate;
      if (std::fabs(d) < 1e-12 * theta) {
        integral += theta * m.a * std::exp(-theta * t) * (t - m.knee);
      } else {
        integral += theta * m.a * (std::exp(-m.rate * t) - std::exp(-theta * t + d * m.knee)) / d;
      }
    }
  }
  const double slot = c > 0 ? c * (std::exp(-theta * t) + integral) : 0;
  return (1 - c) * tail(m, t) + slot;
}

}  // namespace

double md1_wait_tail(double rho, double service_s, double t) { return tail(md1_tail(rho, service_s), t); }

QueueDelay queue_delay(double rate_per_s, double slots, double hold_s, double prefill_s, double percentile) {
  QueueDelay q;
  const double c = std::max(1.0, std::floor(slots));
  const double load = rate_per_s * hold_s;  // offered load, erlangs
  if (rate_per_s <= 0) return q;
  const double rho = rate_per_s * prefill_s;
  if (load >= c || rho >= 1) {
    q.slot_wait_probability = load >= c ? 1 : 0;
    q.prefill_busy_probability = std::min(1.0, rho);
    q.p95_wait_s = q.mean_wait_s = kForever;
    return q;
  }
  // Erlang B by its recurrence (stable for hundreds of slots), then Erlang C.
  double b = 1;
  for (double k = 1; k <= c; ++k) b = load * b / (k + load * b);
  const double wait_probability = c * b / (c - load * (1 - b));
  q.slot_wait_probability = wait_probability;
  q.prefill_busy_probability = rho;
  const double theta = c / hold_s - rate_per_s;  // P(W1 > t) = C exp(-theta t)
  const Md1Tail m = md1_tail(rho, prefill_s);
  q.mean_wait_s = wait_probability / theta + rho * prefill_s / (2 * (1 - rho));
  const double beyond = 1 - std::clamp(percentile, 0.0, 1.0);
  if (sum_tail(wait_probability, theta, m, 0) <= beyond) return q;  // most requests never wait
  double lo = 0, hi = std::max(prefill_s, 1 / theta);
  while (sum_tail(wait_probability, theta, m, hi) > beyond && hi < kForever) hi *= 2;
  for (int i = 0; i < 100 && hi - lo > 1e-9 * hi; ++i) {
    const double mid = (lo + hi) / 2;
    (sum_tail(wait_probability, theta, m, mid) > beyond ? lo : hi) = mid;
  }
  q.p95_wait_s = (lo + hi) / 2;
  return q;
}

}  // namespace gpufleet
