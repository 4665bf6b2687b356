// Each seed scenario of config/workloads.json yields a result consistent with its expected_outcome.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace gpufleet;

namespace {

Json run(const char* id) {
  Json r = test::ask(test::shipped(), {{"question", "workload"}, {"id", id}});
  REQUIRE(r["ok"] == true);
  CHECK(r["result"]["expected_outcome"].get<std::string>().size() > 0);
  return r["result"];
}

const Json& recommended(const Json& result) {
  const Json& report = result["report"];
  REQUIRE(report["recommendation"]["action"] == "migrate");
  for (const auto& c : report["alternatives"]) {
    if (c["instance"] == report["recommendation"]["instance"]) return c;
  }
  FAIL("recommended instance missing from the alternatives");
  return report;
}

}  // namespace

TEST_CASE("workload inference_small_p5: significant cost savings with G6/G6e") {
  Json w = run("inference_small_p5");
  CHECK(w["report"]["current"]["instance"] == "p5.4xlarge");
  const Json& pick = recommended(w);
  CHECK((pick["family"] == "G6" || pick["family"] == "G6e"));
  // Savings against the resolved current setup, from catalog prices: p5.4xlarge $6.88/h.
  const double current = 6.88 * 720;
  const double candidate = pick["cost"]["usd_per_month"];
  CHECK(pick["savings_usd_per_month"].get<double>() == Approx(current - candidate).margin(0.01));
  CHECK(pick["savings_pct"].get<double>() > 50);
}

TEST_CASE("workload fine_tuning_medium_p5: G6e as a cost-effective alternative to P-series") {
  Json w = run("fine_tuning_medium_p5");
  const Json& pick = recommended(w);
  CHECK(pick["family"] == "G6e");
  CHECK(pick["fit"]["fits"] == true);
  CHECK(pick["savings_pct"].get<double>() > 50);
}

TEST_CASE("workload training_large_p4d: 2-3x performance improvement with P5/P6") {
  Json w = run("training_large_p4d");
  CHECK(w["report"]["request"]["priority"] == "performance");
  const Json& pick = recommended(w);
  CHECK((pick["family"] == "P5" || pick["family"] == "P5e" || pick["family"] == "P6"));
  CHECK(pick["performance"]["ratio_to_current"].get<double>() >= 2.0);
  // The like-for-like P5 upgrade lands in the seed's 2-3x band: training tokens/s from the
  // throughput model, 989.5 dense TFLOPS at 43 % MFU (H100) over 312 at 55 % (A100) = 2.48; the
  // peaks alone would claim 3.17.
  bool p5_seen = false;
  for (const auto& c : w["report"]["alternatives"]) {
    if (c["family"] == "P5" && c["sizing"] == "same_gpu_count") {
      p5_seen = true;
      CHECK(c["performance"]["unit"] == "tokens/s");
      CHECK(c["performance"]["ratio_to_current"].get<double>() ==
            Approx(989.5 * 0.43 / (312 * 0.55)).margin(0.01));
      CHECK(c["performance"]["usd_per_million_tokens"].get<double>() > 0);
    }
  }
  CHECK(p5_seen);
  CHECK_FALSE(w["report"]["warnings"].empty());  // spot training: checkpoint
}

TEST_CASE("workload inference_massive_p5e: higher performance with P6") {
  Json w = run("inference_massive_p5e");
  CHECK(w["report"]["current"]["fit"]["fits"] == true);
  const Json& pick = recommended(w);
  CHECK(pick["family"] == "P6");
  CHECK(pick["performance"]["ratio_to_current"].get<double>() > 1.5);  // 8000 vs 4800 GB/s
}

TEST_CASE("workload batch_inference_g5: right-sizing cuts cost") {
  Json w = run("batch_inference_g5");
  const Json& pick = recommended(w);
  CHECK(pick["placement"]["gpus_used"].get<double>() < 4);
  CHECK(pick["savings_pct"].get<double>() > 30);
  CHECK_FALSE(w["report"]["warnings"].empty());  // spot inference warning
}

TEST_CASE("workload production_serving_g4dn: consolidate onto one T4") {
  Json w = run("production_serving_g4dn");
  const Json& pick = recommended(w);
  CHECK(pick["placement"]["gpus_used"] == 1);
  CHECK(pick["savings_pct"].get<double>() > 50);
  CHECK(w["report"]["warnings"].empty());  // on-demand serving: nothing to warn about
}

TEST_CASE("workload research_training_g6e: right-size and cut the bill") {
  Json w = run("research_training_g6e");
  const Json& pick = recommended(w);
  CHECK(pick["savings_pct"].get<double>() > 50);
  CHECK(pick["cost"]["usd_per_month"].get<double>() <
        w["report"]["current"]["cost"]["usd_per_month"].get<double>());
}

TEST_CASE("workload sets run every member in order") {
  Json r = test::ask(test::shipped(), {{"question", "workload_set"}, {"id", "comprehensive_suite"}});
  REQUIRE(r["ok"] == true);
  const Json& reports = r["result"]["reports"];
  REQUIRE(reports.size() == 4);
  CHECK(reports[0]["id"] == "fine_tuning_medium_p5");
  CHECK(reports[3]["id"] == "inference_massive_p5e");
  Json list = test::ask(test::shipped(), {{"question", "workloads"}});
  CHECK(list["result"]["workloads"].size() == 7);
  CHECK(list["result"]["workload_sets"].size() == 5);
}
