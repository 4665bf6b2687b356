// The auto-scaling simulation (fleet/autoscale.hpp) with known answers, and the autoscale
// question's answers and refusals through the analyzer.
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "fleet/autoscale.hpp"
#include "support.hpp"

using namespace gpufleet;

namespace {

// A copy of 64 slots serving 10 requests/s (a slot held 6.4 s), prompts prefilled in 10 ms.
ReplicaModel replica() {
  ReplicaModel m;
  m.concurrency = 64;
  m.copy_rps = 10;
  m.prefill_rps = 100;
  m.prefill_s = 0.01;
  m.ttft_ms = 50;
  m.target_utilization = 0.7;
  m.max_ttft_ms = 500;
  m.gpus = 1;
  m.usd_per_unit_hour = 4;
  m.committed_usd_per_unit_hour = 2.4;
  return m;
}

AutoscaleQuestion question(std::vector<double> rps) {
  AutoscaleQuestion q;
  q.rps = std::move(rps);
  q.replica = replica();
  q.month_scale = 720.0 / static_cast<double>(q.rps.size());
  std::vector<int> needed;
  for (double x : q.rps) needed.push_back(replicas_needed(q.replica, x));
  q.settings.min_replicas = std::max(1, *std::min_element(needed.begin(), needed.end()));
  q.settings.max_replicas = *std::max_element(needed.begin(), needed.end());
  q.settings.target = target_rps_per_replica(q.replica) * q.replica.hold_s();
  q.settings.cold_start_s = 360;
  return q;
}

// A diurnal day: a trough at 04:00, a peak 5x the trough at 16:00.
std::vector<double> diurnal(double trough) {
  std::vector<double> rps;
  for (int h = 0; h < 24; ++h) rps.push_back(trough * (3 - 2 * std::cos((h - 4) * M_PI / 12)));
  return rps;
}

const PolicyRun& run_of(const AutoscaleResult& r, ScalingPolicy p) {
  for (const auto& run : r.runs)
    if (run.policy == p) return run;
  FAIL("no run of " << to_string(p));
  return r.runs.front();
}

Json ask(const Json& request) { return test::ask(test::shipped(), request); }

Json autoscale_request(Json profile) {
  return {{"question", "autoscale"},
          {"model", {{"name", "llama-3.1-8b"}}},
          {"instance", "p5.4xlarge"},
          {"demand", {{"input_tokens", 500}, {"output_tokens", 200}, {"max_ttft_ms", 500}}},
          {"profile", std::move(profile)}};
}

}  // namespace

TEST_CASE("autoscale: the needed replicas are the road's for each rate") {
  const ReplicaModel m = replica();
  CHECK(replicas_needed(m, 0) == 0);
  CHECK(replicas_needed(m, 6.9) == 1);   // 6.9 / (10 x 0.7) = 0.99
  CHECK(replicas_needed(m, 7.1) == 2);
  CHECK(replicas_needed(m, 70) == 10);
  CHECK(target_rps_per_replica(m) == Approx(7));
  // Above the p95 target's reach the count grows until it is met.
  ReplicaModel tight = m;
  tight.max_ttft_ms = 60;  // 10 ms of queueing
  CHECK(replicas_needed(tight, 70) >= 10);
  CHECK(p95_ttft_ms(tight, 70, replicas_needed(tight, 70)) <= 60);
  CHECK(replicas_meeting_slo(m, 70) <= replicas_needed(m, 70));
}

TEST_CASE("autoscale: the committed base is the count needed in more than a share c/o of the hours") {
  std::vector<int> needed(12, 2);
  needed.insert(needed.end(), 12, 10);
  CHECK(committed_base_replicas(needed, 0.6, 1.0) == 2);
  CHECK(committed_base_replicas(needed, 0.4, 1.0) == 10);
  CHECK(committed_base_replicas(needed, 1.2, 1.0) == 0);
  CHECK(committed_base_replicas(std::vector<int>(24, 3), 0.6, 1.0) == 3);
}

TEST_CASE("autoscale: a flat profile needs the same replicas every hour, and every policy costs the same") {
  AutoscaleQuestion q = question(std::vector<double>(24, 30));
  const AutoscaleResult r = autoscale(q, needs_of(q));
  CHECK(r.peak == 5);
  for (const auto& run : r.runs) {
    INFO(to_string(run.policy));
    for (double x : run.replicas) CHECK(x == Approx(5));
    CHECK(run.usd_per_month == Approx(5 * 4 * 720));
    CHECK(run.slo_attainment() == 1);
  }
}

TEST_CASE("autoscale: without cold start and delays the reactive schedule is the oracle's") {
  AutoscaleQuestion q = question({5, 5, 20, 60, 60, 30, 10, 3, 80, 80, 15, 40, 5, 5, 20, 60, 60, 30, 10, 3, 80, 80, 15, 40});
  q.settings.cold_start_s = 0;
  q.settings.scale_up_delay_s = 0;
  q.settings.scale_down_delay_s = 0;
  q.settings.control_period_s = 60;
  const AutoscaleResult r = autoscale(q, needs_of(q));
  const PolicyRun& reactive = run_of(r, ScalingPolicy::kTargetTracking);
  const PolicyRun& oracle = run_of(r, ScalingPolicy::kOracle);
  for (std::size_t i = 0; i < q.rps.size(); ++i) {
    INFO("hour " << i);
    CHECK(reactive.replicas[i] == Approx(std::max(oracle.replicas[i], 1.0 * q.settings.min_replicas)));
  }
  CHECK(reactive.slo_attainment() == 1);
  CHECK(oracle.slo_attainment() == 1);
}

TEST_CASE("autoscale: a longer cold start never raises the SLO attainment") {
  for (ScalingMetric metric : {ScalingMetric::kConcurrency, ScalingMetric::kRequestsPerS}) {
    double last = 2;
    for (double cold : {0.0, 60.0, 300.0, 900.0, 1800.0, 3600.0}) {
      AutoscaleQuestion q = question(diurnal(20));
      q.settings.metric = metric;
      if (metric == ScalingMetric::kRequestsPerS) q.settings.target = target_rps_per_replica(q.replica);
      q.settings.cold_start_s = cold;
      const double slo = run_of(autoscale(q, needs_of(q)), ScalingPolicy::kTargetTracking).slo_attainment();
      INFO(to_string(metric) << " cold start " << cold << " s: " << slo);
      CHECK(slo <= last + 1e-12);
      last = slo;
    }
  }
  // A step from 5 to 80 requests/s: the replicas asked for arrive 30 minutes late.
  std::vector<double> step(24, 5);
  std::fill(step.begin() + 12, step.end(), 80);
  AutoscaleQuestion q = question(step);
  q.settings.cold_start_s = 1800;
  const PolicyRun late = run_of(autoscale(q, needs_of(q)), ScalingPolicy::kTargetTracking);
  CHECK(late.slo_attainment() < 1);
  CHECK(late.slo_attainment() == Approx(1 - 0.5 * 80 / (12 * 5 + 12 * 80.0)).epsilon(0.02));
}

TEST_CASE("autoscale: the oracle costs least, a schedule no more than the peak, replicas within bounds") {
  std::mt19937_64 rng(33);
  std::uniform_real_distribution<double> level(0, 120);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = trial % 2 ? 168 : 24;
    std::vector<double> rps(n);
    for (double& x : rps) x = trial % 3 == 0 ? std::round(level(rng)) : level(rng);
    for (auto policy : {ScalingPolicy::kTargetTracking, ScalingPolicy::kScheduled}) {
      AutoscaleQuestion q = question(rps);
      q.settings.policy = policy;
      q.settings.tolerance = 0;  // the HPA's tolerance may hold up to 10 % under the target: cheaper than the oracle
      q.settings.cold_start_s = trial * 90.0;
      const AutoscaleResult r = autoscale(q, needs_of(q));
      const PolicyRun& asked = run_of(r, policy);
      INFO("trial " << trial << " " << to_string(policy));
      CHECK(run_of(r, ScalingPolicy::kOracle).usd_per_month <= asked.usd_per_month + 1e-6);
      if (policy == ScalingPolicy::kScheduled)
        CHECK(asked.usd_per_month <= run_of(r, ScalingPolicy::kAlwaysPeak).usd_per_month + 1e-6);
      for (const auto& run : r.runs) {
        for (double x : run.replicas) {
          CHECK(x >= 0);
          CHECK(x <= q.settings.max_replicas + 1e-9);
        }
        CHECK(run.slo_attainment() >= 0);
        CHECK(run.slo_attainment() <= 1);
        CHECK(std::isfinite(run.usd_per_month));
      }
    }
  }
}

TEST_CASE("autoscale answers: a flat profile is the steady recommend count at the same monthly cost") {
  Json req = autoscale_request({{"requests_per_s", std::vector<double>(24, 40)}});
  const Json a = ask(req);
  INFO(a.dump().substr(0, 3000));
  REQUIRE(a["ok"] == true);
  const Json& r = a["result"];
  Json rec = {{"question", "recommend"},
              {"model", {{"name", "llama-3.1-8b"}}},
              {"workload", "inference"},
              {"families", {"P5"}},
              {"demand", {{"requests_per_s", 40}, {"input_tokens", 500}, {"output_tokens", 200}, {"max_ttft_ms", 500}}}};
  const Json b = ask(rec);
  INFO(b.dump().substr(0, 3000));
  REQUIRE(b["ok"] == true);
  const Json& best = b["result"]["candidates"][0];
  REQUIRE(best["instance"] == "p5.4xlarge");
  const double replicas = best["layout"]["replicas"].get<double>();
  CHECK(r["recommended"]["min_replicas"].get<double>() == replicas);
  CHECK(r["recommended"]["max_replicas"].get<double>() == replicas);
  for (const Json& p : r["policies"]) {
    INFO(p["name"]);
    CHECK(p["usd_per_month"].get<double>() == Approx(best["usd_per_month"].get<double>()).epsilon(1e-4));
    CHECK(p["slo_attainment"] == 1);
  }
  CHECK(r["policies"].size() == 3);
}

TEST_CASE("autoscale: copies packed on whole instances are billed by the instance, as recommend bills them") {
  // Four one-GPU copies of an 8-GPU instance occupy one instance, billed whole.
  ReplicaModel m = replica();
  m.copies_per_unit = 8;
  m.gpus_per_unit = 8;
  m.usd_per_unit_hour = 20;
  CHECK(m.units(0) == 0);
  CHECK(m.units(1) == 1);
  CHECK(m.units(8) == 1);
  CHECK(m.units(9) == 2);
  AutoscaleQuestion q = question(std::vector<double>(24, 20));
  q.replica = m;
  const AutoscaleResult r = autoscale(q, needs_of(q));
  for (const auto& run : r.runs) {
    INFO(to_string(run.policy));
    CHECK(run.usd_per_month == Approx(20 * 720.0 * m.units(r.peak)));
  }

  // The answer on p4d.24xlarge (8 x A100): the same monthly cost as recommend's first pick on
  // that type for the same steady demand, whatever the copies per instance.
  Json req = autoscale_request({{"requests_per_s", std::vector<double>(24, 12)}});
  req["instance"] = "p4d.24xlarge";
  const Json a = ask(req);
  INFO(a.dump().substr(0, 2000));
  REQUIRE(a["ok"] == true);
  Json rec = {{"question", "recommend"},
              {"model", {{"name", "llama-3.1-8b"}}},
              {"workload", "inference"},
              {"families", {"P4d"}},
              {"demand", {{"requests_per_s", 12}, {"input_tokens", 500}, {"output_tokens", 200}, {"max_ttft_ms", 500}}}};
  const Json b = ask(rec);
  REQUIRE(b["ok"] == true);
  const Json& best = b["result"]["candidates"][0];
  REQUIRE(best["instance"] == "p4d.24xlarge");
  const Json& d = a["result"]["deployment"];
  CHECK(d["replicas_per_instance"].get<int>() * d["gpus_per_replica"].get<double>() <= 8);
  CHECK(a["result"]["recommended"]["max_replicas"] == best["layout"]["replicas"]);
  for (const Json& p : a["result"]["policies"]) {
    INFO(p["name"]);
    CHECK(p["usd_per_month"].get<double>() == Approx(best["usd_per_month"].get<double>()).epsilon(1e-4));
    CHECK(p["instance_hours_per_month"].get<double>() == Approx(720 * best["instance_count"].get<double>()));
  }
}

TEST_CASE("autoscale refusals name the field or the line") {
  auto error_of = [](const Json& req) {
    const Json a = ask(req);
    INFO(a.dump().substr(0, 2000));
    REQUIRE(a["ok"] == false);
    return a["errors"][0];
  };
  CHECK(error_of(autoscale_request({{"requests_per_s", std::vector<double>(23, 1)}}))["path"] == "/profile/requests_per_s");
  std::vector<double> negative(24, 1);
  negative[3] = -1;
  CHECK(error_of(autoscale_request({{"requests_per_s", negative}}))["path"] == "/profile/requests_per_s/3");
  const Json bad_line = error_of(autoscale_request({{"csv", "timestamp,requests\n2026-11-01T00:00:00Z,100\n2026-11-01T00:05:00Z,abc\n"}}));
  CHECK(bad_line["path"] == "/profile/csv");
  CHECK(bad_line["message"].get<std::string>().find("line 3") != std::string::npos);
  const Json long_csv = error_of(autoscale_request({{"csv", "1700000000,5\n1740000000,5\n"}}));
  CHECK(long_csv["code"] == "too_large");
  CHECK(error_of(autoscale_request({{"requests_per_s", std::vector<double>(24, 0)}}))["path"] == "/profile");
  Json both = autoscale_request({{"requests_per_s", std::vector<double>(24, 1)}, {"csv", "1,1"}});
  CHECK(error_of(both)["path"] == "/profile");
}

TEST_CASE("autoscale reads a CSV export bucketed to UTC hours") {
  Json csv = Json::array({"timestamp,requests"});
  // Two days of 5-minute counts: 3,600 requests an hour (1 request/s), 7,200 from 12:00 to 18:00.
  for (int m = 0; m < 48 * 60; m += 5) {
    const int h = (m / 60) % 24;
    const int day = 1 + m / 1440;
    char line[64];
    std::snprintf(line, sizeof line, "2026-11-%02dT%02d:%02d:00Z,%d", day, h, m % 60, h >= 12 && h < 18 ? 600 : 300);
    csv.push_back(line);
  }
  const Json a = ask(autoscale_request({{"csv", csv}}));
  INFO(a.dump().substr(0, 2000));
  REQUIRE(a["ok"] == true);
  const Json& p = a["result"]["profile"];
  CHECK(p["intervals"] == 48);
  CHECK(p["requests_per_s"][0] == 1);
  CHECK(p["requests_per_s"][13] == 2);
  CHECK(p["start"] == "2026-11-01T00:00Z");
  CHECK(a["result"]["notes"].dump().find("no row") == std::string::npos);
}

TEST_CASE("autoscale: CSV hours without rows are said, and a sampled rate is never 0 by omission") {
  // Rates sampled at 00:00, 01:00 and 04:00 (hours 2 and 3 missing): they hold 01:00's rate.
  const Json rates = ask(autoscale_request({{"csv", "2026-11-01T00:00:00Z,4\n2026-11-01T01:00:00Z,6\n2026-11-01T04:00:00Z,8\n"},
                                            {"csv_values", "rate"}}));
  INFO(rates.dump().substr(0, 2000));
  REQUIRE(rates["ok"] == true);
  CHECK(rates["result"]["profile"]["requests_per_s"] == Json::array({4, 6, 6, 6, 8}));
  CHECK_THAT(rates["result"]["notes"][0].get<std::string>(), Catch::StartsWith("2 of the profile's 5 hours have no row: each holds"));
  // Counts are a log of requests: an hour without rows had none, and the answer says so.
  const Json counts = ask(autoscale_request({{"csv", "2026-11-01T00:00:00Z,3600\n2026-11-01T02:00:00Z,7200\n"}}));
  REQUIRE(counts["ok"] == true);
  CHECK(counts["result"]["profile"]["requests_per_s"] == Json::array({1, 0, 2}));
  CHECK_THAT(counts["result"]["notes"][0].get<std::string>(), Catch::Contains("read as hours without requests"));
}

TEST_CASE("autoscale reads a named shape of config/traffic_shapes.json, synthetic and said so") {
  const Json a = ask(autoscale_request({{"shape", "diurnal_5x"}, {"peak_requests_per_s", 200}}));
  INFO(a.dump().substr(0, 2000));
  REQUIRE(a["ok"] == true);
  const Json& p = a["result"]["profile"];
  CHECK(p["synthetic"] == true);
  CHECK(p["shape_source"].get<std::string>().rfind("synthetic", 0) == 0);
  REQUIRE(p["requests_per_s"].size() == 24);
  CHECK(p["requests_per_s"][16] == 200);
  CHECK(p["requests_per_s"][4] == 40);
  CHECK(p["month"] == "24 h profile x 30 days (a 720 h month, as recommend's)");
  const Json week = ask(autoscale_request({{"shape", "business_hours"}, {"peak_requests_per_s", 50}}));
  REQUIRE(week["ok"] == true);
  CHECK(week["result"]["profile"]["requests_per_s"].size() == 168);
  CHECK(week["result"]["profile"]["month"] == "168 h profile x 720/168 weeks (a 720 h month, as recommend's)");
  const Json unknown = ask(autoscale_request({{"shape", "tuesday"}, {"peak_requests_per_s", 50}}));
  REQUIRE(unknown["ok"] == false);
  CHECK(unknown["errors"][0]["path"] == "/profile/shape");
  const Json no_peak = ask(autoscale_request({{"shape", "flat"}}));
  REQUIRE(no_peak["ok"] == false);
  CHECK(no_peak["errors"][0]["path"] == "/profile/peak_requests_per_s");
}

TEST_CASE("autoscale at a throughput factor: the need, the peak and the bounds follow the copy's capacity") {
  // 35 requests/s on copies of 10 at 0.7: ceil(35 / 7) = 5; at half the throughput ceil(35 / 3.5) = 10,
  // at twice it ceil(35 / 14) = 3 (the TTFT target of 500 ms is met at each: prefill 10 ms).
  AutoscaleQuestion q = question({7, 35, 14});
  const AutoscaleResult nominal = autoscale(q, needs_of(q));
  CHECK(nominal.peak == 5);
  const AutoscaleResult slow = autoscale_at_throughput(q, 0.5, true, true);
  const AutoscaleResult fast = autoscale_at_throughput(q, 2.0, true, true);
  CHECK(slow.peak == 10);
  CHECK(fast.peak == 3);
  CHECK(slow.needed == std::vector<int>{2, 10, 4});
  CHECK(fast.needed == std::vector<int>{1, 3, 1});
  // Always-peak bills the peak every hour: its cost follows the peak (4 $/h a unit, 720 h a month).
  CHECK(run_of(slow, ScalingPolicy::kAlwaysPeak).usd_per_month == Approx(10 * 4 * 720.0));
  CHECK(run_of(fast, ScalingPolicy::kAlwaysPeak).usd_per_month == Approx(3 * 4 * 720.0));
  // Bounds the request set stay: a maximum of 6 caps the slow end's target tracking at 6 replicas.
  q.settings.policy = ScalingPolicy::kTargetTracking;
  q.settings.max_replicas = 6;
  const AutoscaleResult capped = autoscale_at_throughput(q, 0.5, false, true);
  const auto& tracked = run_of(capped, ScalingPolicy::kTargetTracking).replicas;
  CHECK(*std::max_element(tracked.begin(), tracked.end()) <= 6.0 + 1e-9);
}
