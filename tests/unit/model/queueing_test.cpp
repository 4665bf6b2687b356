// The queue model's percentile of the wait before a request's prefill, checked against a
// simulation of the same model: the slot wait of M/M/c (with Erlang C's probability, an
// exponential wait) plus an independent M/D/1 prefill queue simulated by Lindley's recursion
// W' = max(0, W + D - A), A exponential. Seeded, so the figures are the same on every run.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "model/queueing.hpp"

using namespace gpufleet;

namespace {

std::vector<double> md1_waits(double rate, double service, std::size_t n, std::mt19937_64& rng) {
  std::exponential_distribution<double> arrival(rate);
  std::vector<double> out;
  out.reserve(n);
  double w = 0;
  for (std::size_t i = 0; i < n + 20000; ++i) {  // the first 20,000 warm the queue up
    w = std::max(0.0, w + service - arrival(rng));
    if (i >= 20000) out.push_back(w);
  }
  return out;
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(p * (v.size() - 1))];
}

// The p of the simulated sum of the slot wait and the prefill wait.
double simulated(double rate, double slots, double hold, double prefill, double p) {
  std::mt19937_64 rng(20261128);
  const QueueDelay q = queue_delay(rate, slots, hold, 0);  // Erlang C alone: its probability
  const double theta = slots / hold - rate;
  std::bernoulli_distribution waits(q.slot_wait_probability);
  std::exponential_distribution<double> slot_wait(theta);
  std::vector<double> prefill_waits = md1_waits(rate, prefill, 400000, rng);
  std::shuffle(prefill_waits.begin(), prefill_waits.end(), rng);  // independent of the slot wait
  for (double& w : prefill_waits) w += waits(rng) ? slot_wait(rng) : 0;
  return percentile(prefill_waits, p);
}

}  // namespace

TEST_CASE("queueing: the M/D/1 tail matches a simulated M/D/1 queue beyond its knee") {
  std::mt19937_64 rng(7);
  for (double rho : {0.5, 0.8, 0.95}) {
    const std::vector<double> w = md1_waits(rho / 0.1, 0.1, 400000, rng);
    for (double t : {0.2, 0.5, 1.0}) {
      const double share = static_cast<double>(std::count_if(w.begin(), w.end(), [&](double x) { return x > t; })) / w.size();
      if (share < 1e-3) continue;  // too few samples to compare
      INFO("rho " << rho << " t " << t << " simulated " << share);
      // Consecutive waits are correlated (fewer independent samples than 400,000): 10 %.
      CHECK(md1_wait_tail(rho, 0.1, t) == Approx(share).epsilon(0.10));
    }
    CHECK(md1_wait_tail(rho, 0.1, 0) == Approx(rho));
  }
}

TEST_CASE("queueing: the p95 wait is the 95th percentile of the simulated slot wait + prefill wait") {
  struct Setup {
    double rate, slots, hold, prefill;
  };
  for (const Setup s : {Setup{10, 8, 0.7, 0.05}, Setup{12, 16, 1.2, 0.06}, Setup{4, 2, 0.4, 0.2}, Setup{30, 64, 2.0, 0.03}}) {
    const QueueDelay q = queue_delay(s.rate, s.slots, s.hold, s.prefill);
    const double sim = simulated(s.rate, s.slots, s.hold, s.prefill, 0.95);
    INFO("rate " << s.rate << " slots " << s.slots << " hold " << s.hold << " prefill " << s.prefill
                 << ": model " << q.p95_wait_s << " s, simulation " << sim << " s");
    CHECK(q.p95_wait_s == Approx(sim).epsilon(0.05).margin(1e-3));
    // Above the mean wait whenever waiting is common: a percentile, not a mean.
    if (q.slot_wait_probability + q.prefill_busy_probability > 0.3) CHECK(q.p95_wait_s > q.mean_wait_s);
  }
}

TEST_CASE("queueing: other percentiles, a light load and a saturated copy") {
  const QueueDelay p50 = queue_delay(10, 8, 0.7, 0.05, 0.5), p99 = queue_delay(10, 8, 0.7, 0.05, 0.99);
  CHECK(p50.p95_wait_s == Approx(simulated(10, 8, 0.7, 0.05, 0.5)).epsilon(0.08).margin(2e-3));
  CHECK(p99.p95_wait_s == Approx(simulated(10, 8, 0.7, 0.05, 0.99)).epsilon(0.05));
  CHECK(queue_delay(0.01, 8, 0.7, 0.05).p95_wait_s == 0);  // 95 % of requests never wait
  CHECK(queue_delay(20, 8, 0.5, 0.01).p95_wait_s >= 1e8);   // 10 erlangs on 8 slots
  CHECK(queue_delay(25, 64, 0.5, 0.05).p95_wait_s >= 1e8);  // prefill at rho 1.25
}
