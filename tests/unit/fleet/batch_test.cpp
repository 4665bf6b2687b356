// Batch jobs on spot and on demand (fleet/batch.cpp): the generator, the policies' known answers
// and the earliest-deadline-first queue.
#include "fleet/batch.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

using namespace gpufleet::batch;

namespace {
// A 10-hour job on a pool at $3/h spot and $10/h on demand, 10 minutes down after a reclaim.
Job job_of(double deadline, double write_s = 60) {
  return {10, deadline, 600.0 / 3600, write_s / 3600};
}
Pools pools_of(double hazard) { return {3, 10, hazard, 10.0 / 60, 0}; }
}  // namespace

TEST_CASE("splitmix64 draws the reference sequence and exponential draws have the rate's mean",
          "[batch]") {
  SplitMix64 g(0);  // Vigna's splitmix64.c from state 0
  CHECK(g.next() == 0xE220A8397B1DCDAFULL);
  CHECK(g.next() == 0x6E789E6AA1B965F4ULL);
  SplitMix64 e(42);
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) sum += e.exponential(0.5);
  CHECK(sum / n == Approx(2.0).epsilon(0.02));
  CHECK(std::isinf(SplitMix64(1).exponential(0)));
  CHECK(trace_seed(1, 0, 0) != trace_seed(1, 0, 1));
  CHECK(trace_seed(1, 0, 0) != trace_seed(1, 1, 0));
  CHECK(trace_seed(1, 0, 0) != trace_seed(2, 0, 0));
}

TEST_CASE(
    "no interruptions and no deadline pressure: the deadline-aware plan is all spot at work x spot "
    "rate",
    "[batch]") {
  const PlanSummary p = plan(job_of(100), pools_of(0), Policy::kDeadlineAware, 7, 0, 200);
  CHECK(p.usd.p10 == Approx(10 * 3.0));
  CHECK(p.usd.p90 == Approx(10 * 3.0));
  CHECK(p.wall_hours.p50 == Approx(10));
  CHECK(p.p_switched == 0);
  CHECK(p.mean_interruptions == 0);
  CHECK(p.p_meet_deadline == 1);
  CHECK(p.checkpoint_interval_hours == 0);  // nothing to protect against
}

TEST_CASE(
    "a trace without an interruption costs the work plus its checkpoint writes at the spot rate",
    "[batch]") {
  const Job job = job_of(1000, 120);
  const Pools pools = pools_of(0.02);  // MTBI 50 h: Young/Daly sqrt(2 x 120 s x 50 h) = 2 h of work
  const double tau = checkpoint_interval_hours(job, pools);
  CHECK(tau == Approx(std::sqrt(2 * 120.0 * 50 * 3600) / 3600));
  const int writes = static_cast<int>(std::ceil(job.work_hours / tau)) - 1;
  int seen = 0;
  for (std::uint64_t k = 0; k < 200 && seen < 5; ++k) {
    const Run run = simulate(job, pools, Policy::kDeadlineAware, trace_seed(3, 0, k));
    if (run.interruptions > 0 ||
        run.wall_hours > job.work_hours + writes * job.checkpoint_write_hours + 1e-9)
      continue;
    ++seen;
    CHECK(run.usd == Approx((job.work_hours + writes * job.checkpoint_write_hours) * 3));
    CHECK(!run.switch_hours);
  }
  CHECK(seen == 5);
}

TEST_CASE("a deadline of work + restart leaves no slack: all on demand, and the deadline met",
          "[batch]") {
  for (double hazard : {0.0, 0.001, 0.1}) {
    const Job job = job_of(10 + 600.0 / 3600);
    const PlanSummary p = plan(job, pools_of(hazard), Policy::kDeadlineAware, 1, 0, 300);
    CHECK(p.p_switched == 1);
    CHECK(p.switch_hours->p90 == 0);
    CHECK(p.usd.p50 == Approx(10 * 10.0));
    CHECK(p.p_meet_deadline == 1);
    CHECK(p.mean_interruptions == 0);
  }
}

TEST_CASE("both deadline policies always meet a deadline on-demand capacity can meet", "[batch]") {
  for (Policy policy : {Policy::kDeadlineAware, Policy::kUniformProgress}) {
    for (double hazard : {0.001, 0.05, 0.3, 2.0}) {
      for (double write_s : {0.0, 30.0, 600.0}) {
        for (double deadline : {10.0, 10.2, 11.0, 15.0, 20.0, 40.0}) {
          Pools pools = pools_of(hazard);
          for (double down_h : {10.0 / 60, 5.0}) {
            pools.down_mean_hours = down_h;
            const PlanSummary p = plan(job_of(deadline, write_s), pools, policy, 11, 2, 300);
            INFO("policy " << static_cast<int>(policy) << ", hazard " << hazard << ", write "
                           << write_s << " s, deadline " << deadline << " h, down " << down_h);
            CHECK(p.p_meet_deadline == 1);
            CHECK(p.wall_hours.p90 <= deadline + 1e-9);
            CHECK(p.mean_on_demand_hours <= deadline + 1e-9);
          }
        }
      }
    }
  }
}

TEST_CASE("uniform progress: no interruption is all spot, no slack is all on demand", "[batch]") {
  const PlanSummary free = plan(job_of(100), pools_of(0), Policy::kUniformProgress, 7, 0, 200);
  CHECK(free.usd.p90 == Approx(10 * 3.0));
  CHECK(free.p_switched == 0);
  CHECK(free.mean_on_demand_hours == 0);
  for (double hazard : {0.0, 0.001, 0.1}) {
    const PlanSummary p = plan(job_of(10 + 600.0 / 3600), pools_of(hazard),
                               Policy::kUniformProgress, 1, 0, 300);
    CHECK(p.p_switched == 1);
    CHECK(p.usd.p50 == Approx(10 * 10.0));
    CHECK(p.mean_on_demand_hours == Approx(10));
  }
}

TEST_CASE(
    "uniform progress runs on demand while spot is down at the start, then back on spot once "
    "ahead of the pace",
    "[batch]") {
  // Work 10 h, deadline 40 h, restart 10 min, a 60 s checkpoint; the pool is down half the time
  // (MTBI 20 h, 20 h down). A trace that starts down for b hours: uniform progress runs on demand
  // from 0 (it is behind the pace 10 t / 40 at once) and, by the hysteresis, stays until it is
  // ahead of the pace two restarts later, t >= (2 x 1/6 x 10 / 40) / (1 - 10 / 40) = 0.111 h, and
  // spot is up: at b, when it writes its checkpoint and goes back to spot.
  const Job job = job_of(40);
  Pools pools = pools_of(0.05);
  pools.down_mean_hours = 20;
  int seen = 0;
  for (std::uint64_t k = 0; k < 400 && seen < 3; ++k) {
    const std::uint64_t seed = trace_seed(9, 0, k);
    SplitMix64 g(seed);
    if (g.uniform() < 0.5) continue;  // starts up
    const double b = g.exponential(1 / 20.0);
    if (b < 0.2 || b > 5) continue;
    ++seen;
    const Run up = simulate(job, pools, Policy::kUniformProgress, seed);
    const Run aware = simulate(job, pools, Policy::kDeadlineAware, seed);
    INFO("trace " << k << ", down for " << b << " h");
    CHECK(up.switch_hours == 0.0);
    CHECK(up.on_demand_hours >= b + 60.0 / 3600 - 1e-9);
    CHECK(up.met);
    CHECK((!aware.switch_hours || *aware.switch_hours > 0));  // the safety net waits it out
  }
  CHECK(seen == 3);
}

TEST_CASE("the median cost does not rise as the deadline grows, and never tops all on demand",
          "[batch]") {
  for (double hazard : {0.001, 0.05, 0.3}) {
    for (double write_s : {0.0, 60.0}) {
      double last = 1e300;
      for (double deadline = 10; deadline <= 60; deadline += 2.5) {
        const PlanSummary p =
            plan(job_of(deadline, write_s), pools_of(hazard), Policy::kDeadlineAware, 5, 0, 500);
        INFO("hazard " << hazard << ", write " << write_s << " s, deadline " << deadline << " h");
        CHECK(p.usd.p50 <= last + 1e-9);
        CHECK(p.usd.p50 <= 10 * 10.0 + 1e-9);
        last = p.usd.p50;
      }
    }
  }
}

TEST_CASE(
    "all spot waits out the pool and may miss, all on demand is the work at the on-demand rate",
    "[batch]") {
  const PlanSummary od = plan(job_of(10), pools_of(0.3), Policy::kAllOnDemand, 1, 0, 100);
  CHECK(od.usd.p50 == Approx(100));
  CHECK(od.p_meet_deadline == 1);
  const PlanSummary sp = plan(job_of(11, 60), pools_of(0.3), Policy::kAllSpot, 1, 0, 500);
  CHECK(sp.mean_interruptions > 1);
  CHECK(sp.p_meet_deadline < 0.5);
  CHECK(sp.p_switched == 0);
  CHECK(sp.usd.p50 > 10 * 3.0);  // lost work and restarts are paid
  // The same seed draws the same traces.
  const PlanSummary again = plan(job_of(11, 60), pools_of(0.3), Policy::kAllSpot, 1, 0, 500);
  CHECK(again.usd.p50 == sp.usd.p50);
  CHECK(plan(job_of(11, 60), pools_of(0.3), Policy::kAllSpot, 2, 0, 500).usd.p50 != sp.usd.p50);
}

TEST_CASE("a launch is billed at least the provider's minimum", "[batch]") {
  Pools p = pools_of(0);
  p.minimum_billing_hours = 20;
  CHECK(simulate({10, 100, 0, 0}, p, Policy::kAllOnDemand, 1).usd == Approx(200));
  CHECK(simulate({10, 100, 0, 0}, p, Policy::kDeadlineAware, 1).usd == Approx(60));
}

TEST_CASE("quantiles interpolate between order statistics", "[batch]") {
  const Quantiles q = quantiles({11, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  CHECK(q.p10 == Approx(2));
  CHECK(q.p50 == Approx(6));
  CHECK(q.p90 == Approx(10));
}

TEST_CASE("quantiles by selection equal those of the sorted values, infinities included",
          "[batch]") {
  SplitMix64 g(7);
  for (std::size_t n : {1u, 2u, 3u, 10u, 11u, 999u, 1000u}) {
    std::vector<double> v;
    for (std::size_t i = 0; i < n; ++i)
      v.push_back(g.uniform() < 0.2 ? std::numeric_limits<double>::infinity()
                                    : std::floor(g.uniform() * 50));
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    const auto at = [&](double q) {  // the definition: linear between order statistics
      const double x = q * static_cast<double>(n - 1);
      const std::size_t i = static_cast<std::size_t>(std::floor(x));
      if (i + 1 >= n) return sorted.back();
      if (!std::isfinite(sorted[i + 1])) return sorted[i + 1];
      return sorted[i] + (x - static_cast<double>(i)) * (sorted[i + 1] - sorted[i]);
    };
    const Quantiles q = quantiles(v);
    INFO(n << " values");
    CHECK(q.p10 == at(0.1));
    CHECK(q.p50 == at(0.5));
    CHECK(q.p90 == at(0.9));
    // The same values with some of them given as copies of one value.
    for (double repeated : {0.0, 25.0, 49.0, std::numeric_limits<double>::infinity()}) {
      std::vector<double> rest;
      std::size_t copies = 0;
      for (double x : v) {
        if (x == repeated)
          ++copies;
        else
          rest.push_back(x);
      }
      const Quantiles r = quantiles(rest, repeated, copies);
      CHECK(r.p10 == q.p10);
      CHECK(r.p50 == q.p50);
      CHECK(r.p90 == q.p90);
    }
  }
}

TEST_CASE("a plan's traces are each exactly the simulation of that trace", "[batch]") {
  // plan() answers a trace that no interruption reaches from one run on a pool that never goes
  // down; every trace's cost must still be the one simulate() gives it, bit for bit.
  for (double hazard : {0.0, 1e-5, 0.001, 0.05, 0.3, 2.0}) {
    for (double write_s : {0.0, 30.0, 600.0}) {
      for (double deadline : {10.0, 10.2, 15.0, 40.0}) {
        for (Policy policy :
             {Policy::kAllSpot, Policy::kDeadlineAware, Policy::kUniformProgress}) {
          const Job job = job_of(deadline, write_s);
          const Pools pools = pools_of(hazard);
          const PlanSummary p = plan(job, pools, policy, 3, 4, 200);
          std::vector<double> wall;
          int met = 0;
          bool same = true;
          for (int k = 0; k < 200; ++k) {
            const Run run =
                simulate(job, pools, policy, trace_seed(3, 4, static_cast<std::uint64_t>(k)));
            same = same && run.usd == p.usd_by_trace[static_cast<std::size_t>(k)];
            wall.push_back(run.wall_hours);
            met += run.met ? 1 : 0;
          }
          INFO("hazard " << hazard << ", write " << write_s << " s, deadline " << deadline
                         << " h, policy " << static_cast<int>(policy));
          CHECK(same);
          const Quantiles w = quantiles(wall);
          CHECK(p.wall_hours.p10 == w.p10);
          CHECK(p.wall_hours.p50 == w.p50);
          CHECK(p.wall_hours.p90 == w.p90);
          CHECK(p.p_meet_deadline == met / 200.0);
        }
      }
    }
  }
}

TEST_CASE("earliest deadline first: one slot runs the jobs by deadline, each when it may start",
          "[batch]") {
  const std::vector<Queued> jobs{{0, 30}, {0, 10}, {5, 20}};
  const auto slots = edf_schedule(jobs, 1, [](std::size_t, double) { return 4.0; });
  REQUIRE(slots.size() == 3);
  CHECK(slots[0].job == 1);
  CHECK(slots[0].start_hours == 0);
  CHECK(slots[1].job == 2);
  CHECK(slots[1].start_hours == 5);  // free at 4, may start at 5
  CHECK(slots[2].job == 0);
  CHECK(slots[2].start_hours == 9);
  const auto wide = edf_schedule(jobs, 0, [](std::size_t, double) { return 4.0; });
  for (const Slot& s : wide) CHECK(s.start_hours == jobs[s.job].earliest_start_hours);
}

TEST_CASE(
    "a Young/Daly interval longer than the slack: the deadline-aware plan checkpoints more often "
    "and "
    "stays on spot instead of paying on demand from the start",
    "[batch]") {
  // MTBI 5,000 h: Young/Daly sqrt(2 x 60 s x 5,000 h) = 12.9 h of work, longer than the 10 h job.
  // A deadline of 15 h leaves 4.8 h of slack after a restart: a lost segment must be shorter.
  const Job job = job_of(15);
  const Pools pools = pools_of(1.0 / 5000);
  CHECK(checkpoint_interval_hours(job, pools) > job.work_hours);
  const PlanSummary aware = plan(job, pools, Policy::kDeadlineAware, 11, 0, 500);
  const PlanSummary spot = plan(job, pools, Policy::kAllSpot, 11, 0, 500);
  CHECK(aware.p_meet_deadline == 1);
  CHECK(aware.p_switched < 0.05);
  // The work at the spot rate plus a checkpoint write or two, far below on demand's $100.
  CHECK(aware.usd.p50 == Approx(10 * 3.0).epsilon(0.01));
  CHECK(aware.usd.p50 <= spot.usd.p50 + 3 * 60.0 / 3600 * 3 + 1e-9);
  // Checked at the first segment: lost just before its checkpoint, the rest on demand still ends
  // by the deadline (0 + 4.8 h + 1 min + 10 min restart + 10 h <= 15 h).
  CHECK(aware.wall_hours.p90 <= 15 + 1e-9);
}
