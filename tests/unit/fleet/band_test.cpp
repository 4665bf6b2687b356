// Error bands (fleet/band.hpp): a known throughput band gives hand-computed replica, instance and
// cost ranges; a known set of cases gives a known band on the answers (median, p90, n, pool).
#include "fleet/band.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "api/analyzer_access.hpp"
#include "support.hpp"
#include "tools/accuracy/accuracy.hpp"

using namespace gpufleet;

namespace {

const Catalog& shipped_catalog() { return *catalog_of(test::shipped()); }

const InstanceType& one_gpu_instance(const Catalog& c) {
  for (const auto& it : c.instances)
    if (it.gpus == 1 && it.accelerator_kind == "gpu" && it.price_flags.empty() &&
        it.on_demand_usd_per_hour)
      return it;
  FAIL("no priced one-GPU instance in the shipped catalog");
  return c.instances.front();
}

// A fleet sized for 30 requests/s of 200 output tokens: a copy decodes 1,000 tokens/s (5
// requests/s, 3.5 at the target utilization of 0.7), so the demand needs ceil(30 / 3.5) = 9
// copies, and the road added one for queueing: 10 copies of one GPU, 10,000 tokens/s, 60 % used.
Deployment sized_fleet(const Catalog& c) {
  Deployment d;
  d.instance = &one_gpu_instance(c);
  d.layout.replicas = 10;
  d.gpus = 10;
  d.instance_count = 10;
  d.inference = InferenceEstimate{};
  d.output_tokens_per_s = 10000;
  d.utilization = 0.6;
  d.sized_for_demand = true;
  d.demand_rps = 30;
  d.copy_rps = 3.5;
  d.copies_beyond_demand = 1;
  return d;
}

Workload serving() {
  Workload w;
  w.demand.requests_per_s = 30;
  w.demand.output_tokens = 200;
  return w;
}

}  // namespace

TEST_CASE("a throughput band sizes the fleet between the replicas the demand needs at its ends") {
  const Catalog& c = shipped_catalog();
  const Deployment d = sized_fleet(c);
  const Billing billing;
  Deployment priced = d;
  price(c, billing, false, priced);
  REQUIRE(priced.cost.usd_per_month);
  const double month = *priced.cost.usd_per_month, hour = *priced.cost.usd_per_hour;
  // p90 = 25 %: the throughput measures 1,000 / 1.25 = 800 to 1,000 / 0.75 = 1,333 tokens/s a copy.
  // Slow: a copy serves 3.5 x 0.8 = 2.8 requests/s, ceil(30 / 2.8) = ceil(10.71) = 11, plus the
  // one for queueing: 12 copies, 12 x 800 = 9,600 tokens/s. Fast: 3.5 / 0.75 = 4.667, ceil(6.43) =
  // 7, plus one: 8 copies, 8 x 1,333.3 = 10,667 tokens/s.
  const BandEnd slow = at_throughput(c, serving(), billing, d, 1 / 1.25);
  const BandEnd fast = at_throughput(c, serving(), billing, d, 1 / 0.75);
  CHECK(slow.replicas == 12);
  CHECK(slow.instance_count == 12);
  CHECK(slow.gpus == 12);
  CHECK(slow.output_tokens_per_s == Approx(9600));
  CHECK(fast.replicas == 8);
  CHECK(fast.instance_count == 8);
  CHECK(fast.output_tokens_per_s == Approx(8 * 1000 / 0.75));
  // The cost follows the instances; the $ per 1M tokens is the fleet's cost over the tokens the
  // demand asks for (6,000 a second), whatever the fleet could serve.
  CHECK(*slow.usd_per_month == Approx(month * 12 / 10));
  CHECK(*fast.usd_per_month == Approx(month * 8 / 10));
  CHECK(*slow.usd_per_million_tokens == Approx(hour * 12 / 10 / (6000 * 3600) * 1e6));
  CHECK(*fast.usd_per_million_tokens == Approx(hour * 8 / 10 / (6000 * 3600) * 1e6));
}

TEST_CASE("a fleet not sized for a demand keeps its replicas while its capacity and $ per token move") {
  const Catalog& c = shipped_catalog();
  Deployment d = sized_fleet(c);
  d.sized_for_demand = false;
  d.utilization = 0;
  Workload w;
  const BandEnd slow = at_throughput(c, w, Billing{}, d, 1 / 1.5);
  CHECK(slow.replicas == 10);
  CHECK(slow.instance_count == 10);
  CHECK(slow.output_tokens_per_s == Approx(10000 / 1.5));
  Deployment priced = d;
  price(c, Billing{}, false, priced);
  // $ per 1M tokens over the capacity: x 1.5 when the throughput is / 1.5.
  CHECK(*slow.usd_per_million_tokens ==
        Approx(*priced.cost.usd_per_hour / (10000 * 3600) * 1e6 * 1.5));
}

TEST_CASE(
    "a job's hours and cost scale with its throughput, and its deadline is checked at the slow "
    "end") {
  const Catalog& c = shipped_catalog();
  Deployment d;
  d.instance = &one_gpu_instance(c);
  d.gpus = 1;
  d.instance_count = 1;
  d.training = TrainingEstimate{};
  d.output_tokens_per_s = 2000;
  d.run_hours = 100;
  Workload w;
  w.task = WorkloadType::kFineTuning;
  w.demand.deadline_days = 5;  // 120 hours
  const BandEnd slow = at_throughput(c, w, Billing{}, d, 1 / 1.3);
  const BandEnd fast = at_throughput(c, w, Billing{}, d, 1 / 0.7);
  CHECK(*slow.run_hours == Approx(130));
  CHECK(*fast.run_hours == Approx(70));
  CHECK(slow.misses_deadline);
  CHECK_FALSE(fast.misses_deadline);
  CHECK(*slow.usd_per_run == Approx(130 * *slow.usd_per_hour));
  CHECK(slow.replicas == d.layout.replicas);
}

TEST_CASE(
    "the band of a kind: its vendor's entry, the largest group without one, none unmeasured") {
  const Catalog& c = shipped_catalog();
  const MeasuredError* largest = nullptr;
  for (const auto& e : c.measured_error)
    if (e.quantity == "throughput" && e.phase == "inference" && e.engine == "vllm" &&
        (!largest || e.n > largest->n))
      largest = &e;
  REQUIRE(largest);
  CHECK(measured_error(c, "throughput", "inference", "vllm", "") == largest);
  const MeasuredError* on = measured_error(c, "throughput", "inference", "vllm", largest->vendor);
  REQUIRE(on);
  CHECK(on->vendor == largest->vendor);
  CHECK(measured_error(c, "throughput", "inference", "vllm", "no-such-vendor") == nullptr);
  CHECK(measured_error(c, "throughput", "inference", "no-such-engine", "") == nullptr);
}

TEST_CASE("a memory band: used / (1 + p90) to used / (1 - p90) against the capacity") {
  const MemoryBand fits = memory_band(60e9, 80e9, 20);  // 50 to 75 GB
  CHECK(fits.bytes.low == Approx(50e9));
  CHECK(*fits.bytes.high == Approx(75e9));
  CHECK(fits.fits_low);
  CHECK(fits.fits_high);
  const MemoryBand may = memory_band(70e9, 80e9, 20);  // 58.3 to 87.5 GB
  CHECK(may.fits_low);
  CHECK_FALSE(may.fits_high);
  const MemoryBand unbounded = memory_band(70e9, 80e9, 120);
  CHECK_FALSE(unbounded.bytes.high);
  CHECK_FALSE(unbounded.fits_high);
}

namespace {
CaseOutcome outcome(const char* source, double error_pct) {
  CaseOutcome o;
  o.quantity = "memory";
  o.phase = "training";
  o.engine = "transformers";
  o.vendor = "nvidia";
  o.confidence = "high";
  o.source = source;
  o.error_pct = error_pct;
  return o;
}
}  // namespace

TEST_CASE("a known set of cases gives the answers a known band of median and p90 with n and pool") {
  // Sources A (errors 2, -4), B (10), C (-20): weights 1/6, 1/6, 1/3, 1/3; sorted |error| 2, 4, 10,
  // 20 at the midpoints 1/12, 3/12, 1/2, 5/6. Median = 10; p90 is past the last midpoint: 20.
  const std::vector<CaseOutcome> cases = {outcome("A", 2), outcome("A", -4), outcome("B", 10),
                                          outcome("C", -20)};
  const Json kinds = summarize_by_kind(cases);
  REQUIRE(kinds.size() == 1);
  CHECK(kinds[0]["median_abs_err_pct"] == 10.0);
  CHECK(kinds[0]["p90_abs_err_pct"] == 20.0);
  CHECK(kinds[0]["n"] == 4.0);
  CHECK(kinds[0]["sources"] == 3.0);
  CHECK(kinds[0]["pool"] == "kind");
  // That band, written into the catalog as scripts/accuracy-doc.sh writes it, is what a memory
  // answer of the kind shows, and its fit is judged at used / 1.2 and used / 0.8.
  const Analyzer a(test::edited("model_config.json",
                                [&](Json& doc) { doc["measured_error"]["kinds"] = kinds; }));
  const Json r = test::ask(a, {{"question", "memory"},
                               {"model", {{"name", "llama-3.1-8b"}}},
                               {"mode", "full_finetune"},
                               {"engine", "transformers"},
                               {"gpu", "H100-SXM-80GB"}});
  INFO(r.dump().substr(0, 600));
  const Json& e = r["result"]["expected_error"];
  CHECK(e["median_abs_err_pct"] == 10.0);
  CHECK(e["p90_abs_err_pct"] == 20.0);
  CHECK(e["n"] == 4);
  CHECK(e["sources"] == 3);
  CHECK_THAT(
      e["from"].get<std::string>(),
      Catch::Contains(
          "4 measured cases of transformers training memory on nvidia GPUs from 3 publications"));
  const Json& gpu = r["result"]["gpu"];
  const double used = gpu["used_gib"].get<double>();
  CHECK(gpu["fit_band"]["used_gib"]["low"].get<double>() == Approx(used / 1.2).epsilon(0.001));
  CHECK(gpu["fit_band"]["used_gib"]["high"].get<double>() == Approx(used / 0.8).epsilon(0.001));
  CHECK(gpu["fit_band"]["fits_at_high"] == (used / 0.8 <= gpu["capacity_gib"].get<double>()));
}

TEST_CASE("every recommendation carries the band of its throughput with its replicas and cost around it") {
  const Json r = test::ask(test::shipped(), {{"question", "recommend"},
                                             {"model", {{"name", "llama-3.1-8b"}}},
                                             {"workload", "inference"},
                                             {"kinds", {"gpu"}},
                                             {"demand", {{"requests_per_s", 50}}}});
  const Json& candidates = r["result"]["candidates"];
  REQUIRE(candidates.size() > 0);
  for (const Json& cand : candidates) {
    INFO(cand["instance"] << " " << cand["band"].dump());
    const Json& band = cand["band"];
    REQUIRE(band.contains("expected_error"));
    if (!band.contains("replicas")) {
      CHECK(band["expected_error"]["n"] == 0);  // no measured case of its kind: said, not guessed
      continue;
    }
    const double e = band["expected_error"]["p90_abs_err_pct"].get<double>() / 100;
    const double replicas = cand["layout"]["replicas"].get<double>();
    CHECK(band["replicas"]["low"].get<double>() <= replicas);
    CHECK(replicas <= band["replicas"]["high"].get<double>());
    // The capacity of these replicas: their tokens/s / (1 + p90) to / (1 - p90).
    const double tps = cand["output_tokens_per_s"].get<double>();
    CHECK(band["output_tokens_per_s"]["low"].get<double>() == Approx(tps / (1 + e)).epsilon(0.001));
    if (e < 1) CHECK(band["output_tokens_per_s"]["high"].get<double>() == Approx(tps / (1 - e)).epsilon(0.001));
    if (cand["usd_per_month"].is_null()) {  // unpriced: no cost at either end
      CHECK(band["usd_per_month"]["high"].is_null());
      continue;
    }
    const double month = cand["usd_per_month"].get<double>();
    CHECK(band["usd_per_month"]["low"].get<double>() <= month);
    CHECK(month <= band["usd_per_month"]["high"].get<double>());
    // On demand, a month is priced per instance: the cost's ends are the instances' ends.
    const double instances = cand["instance_count"].get<double>();
    CHECK(band["usd_per_month"]["high"].get<double>() ==
          Approx(month * band["instance_count"]["high"].get<double>() / instances).epsilon(0.001));
    if (e < 1) CHECK(band["replicas"]["low"].get<double>() >= 1);
    CHECK_THAT(band["text"].get<std::string>(),
               Catch::Contains("x " + cand["instance"].get<std::string>()));
  }
}

TEST_CASE("a deployment on devices its engine was never measured on takes the vendor's measured band by name") {
  const Catalog& c = shipped_catalog();
  const MeasuredError* aws = nullptr;
  for (const auto& e : c.measured_error)
    if (e.quantity == "throughput" && e.phase == "inference" && e.vendor == "aws" && (!aws || e.n > aws->n)) aws = &e;
  const Json r = test::ask(test::shipped(), {{"question", "recommend"},
                                             {"model", {{"name", "llama-3.1-8b"}}},
                                             {"workload", "inference"},
                                             {"kinds", {"inferentia"}},
                                             {"demand", {{"requests_per_s", 5}}}});
  const Json& candidates = r["result"]["candidates"];
  REQUIRE(candidates.size() > 0);
  const Json& e = candidates[0]["band"]["expected_error"];
  INFO(e.dump());
  if (!aws) {
    CHECK(e["n"] == 0);
    return;
  }
  CHECK(e["n"] == static_cast<std::int64_t>(aws->n));
  CHECK(e["p90_abs_err_pct"] == aws->p90_abs_err_pct);
  CHECK(e["stands_in"] == aws->engine);
  CHECK_THAT(e["from"].get<std::string>(), Catch::Contains("no case of vllm inference throughput on aws GPUs was measured"));
}

TEST_CASE(
    "performance on a model carries each setup's band: its one-stream score / (1 + p90) to / (1 - "
    "p90)") {
  const Json r =
      test::ask(test::shipped(),
                {{"question", "performance"},
                 {"model", {{"name", "llama-3.1-8b"}}},
                 {"instances", {{{"instance", "g6e.xlarge"}}, {{"instance", "p5.48xlarge"}}}}});
  REQUIRE(r["ok"] == true);
  for (const Json& setup : r["result"]["setups"]) {
    INFO(setup["placement"]["instance"]);
    const Json& band = setup["band"];
    REQUIRE(band["expected_error"]["n"].get<double>() > 0);
    const double e = band["expected_error"]["p90_abs_err_pct"].get<double>() / 100;
    const double score = setup["score"].get<double>();
    // The score is shown to 0.1 and its band computed from the unrounded figure.
    CHECK(band["score"]["low"].get<double>() == Approx(score / (1 + e)).margin(0.15));
    if (e < 1) CHECK(band["score"]["high"].get<double>() == Approx(score / (1 - e)).margin(0.15));
    // The same setup's deployment band as recommend words it: the fleet's capacity around its own.
    const double tps = setup["deployment"]["output_tokens_per_s"].get<double>();
    CHECK(band["output_tokens_per_s"]["low"].get<double>() == Approx(tps / (1 + e)).epsilon(0.001));
  }
}
