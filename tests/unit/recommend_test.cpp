#include <catch2/catch.hpp>

#include <set>

#include "gpufleet/recommend.hpp"
#include "support.hpp"

using namespace gpufleet;

namespace {

Json recommend_request(const char* priority) {
  return {{"question", "recommend"}, {"model", {{"params_b", 13}}}, {"workload", "inference"},
          {"precision", "fp16"}, {"priority", priority}};
}

}  // namespace

TEST_CASE("recommend ranks by the chosen priority") {
  Json cost = test::ask(test::shipped(), recommend_request("cost"));
  REQUIRE(cost["ok"] == true);
  const Json& by_cost = cost["result"]["candidates"];
  REQUIRE(by_cost.size() >= 5);
  bool unpriced_seen = false;
  for (std::size_t i = 1; i < by_cost.size(); ++i) {
    if (!by_cost[i]["cost"]["usd_per_month"].is_number()) {
      unpriced_seen = true;  // unpriced options go last
      continue;
    }
    CHECK_FALSE(unpriced_seen);
    CHECK(by_cost[i - 1]["cost"]["usd_per_month"].get<double>() <= by_cost[i]["cost"]["usd_per_month"].get<double>());
  }
  // Inferentia2 holds 31.2 GB in its 32 GiB for $0.7582/h; among GPUs one 48 GB L40S at $1.861/h.
  CHECK(by_cost[0]["instance"] == "inf2.xlarge");
  Json gpus_only = recommend_request("cost");
  gpus_only["kinds"] = {"gpu"};
  // GCP n1-standard-8 + 2 x T4 for $1.08/h (machine $0.38 + GPUs $0.70) is the cheapest GPU pair.
  CHECK(test::ask(test::shipped(), gpus_only)["result"]["candidates"][0]["instance"] == "n1-standard-8+2xT4");
  gpus_only["providers"] = {"aws"};
  CHECK(test::ask(test::shipped(), gpus_only)["result"]["candidates"][0]["instance"] == "g6e.xlarge");
  Json perf = test::ask(test::shipped(), recommend_request("performance"));
  const Json& by_perf = perf["result"]["candidates"];
  for (std::size_t i = 1; i < by_perf.size(); ++i) {
    const Json& a = by_perf[i - 1];
    const Json& b = by_perf[i];
    if (!b["cost"]["usd_per_month"].is_number() || b["performance"]["score"] == 0) continue;
    CHECK(a["performance"]["score"].get<double>() >= b["performance"]["score"].get<double>());
  }
  CHECK(by_perf[0]["family"] == "P6");  // B200, 8 TB/s
}

TEST_CASE("recommend ranks options from all three providers, each naming provider, region and source") {
  Json r = test::ask(test::shipped(), {{"question", "recommend"}, {"model", {{"params_b", 13}}}, {"workload", "inference"},
                                       {"precision", "fp16"}});
  REQUIRE(r["ok"] == true);
  std::set<std::string> providers;
  for (const auto& c : r["result"]["candidates"]) {
    providers.insert(c["placement"]["provider"].get<std::string>());
    CHECK_FALSE(c["placement"]["region"].get<std::string>().empty());
    CHECK_FALSE(c["placement"]["source"].get<std::string>().empty());
    CHECK(c["cost"]["provider"] == c["placement"]["provider"]);
  }
  CHECK(providers == std::set<std::string>{"aws", "azure", "gcp"});
}

TEST_CASE("recommend honours family filters, budget and hardware support") {
  Json r = test::ask(test::shipped(), {{"question", "recommend"}, {"model", {{"size", "small"}}},
                                       {"workload", "inference"}, {"precision", "fp8"},
                                       {"families", {"G4dn", "G5", "G6", "G6e"}},
                                       {"max_usd_per_month", 2000}});
  REQUIRE(r["ok"] == true);
  for (const auto& c : r["result"]["candidates"]) {
    CHECK((c["family"] == "G6" || c["family"] == "G6e"));  // FP8 needs Ada or newer
    CHECK(c["cost"]["usd_per_month"].get<double>() <= 2000);
  }
  std::set<std::string> excluded;
  for (const auto& e : r["result"]["excluded"]) excluded.insert(e["family"]);
  CHECK(excluded.count("G4dn") == 1);
  CHECK(excluded.count("G5") == 1);
}

TEST_CASE("migration report compares against the current setup") {
  Json r = test::ask(test::shipped(), {{"question", "migrate"}, {"current", {{"instance", "P5"}, {"gpus", 1}}},
                                       {"model", {{"size", "small"}}}, {"workload", "inference"},
                                       {"precision", "fp16"}});
  REQUIRE(r["ok"] == true);
  const Json& res = r["result"];
  CHECK(res["current"]["instance"] == "p5.4xlarge");
  CHECK(res["current"]["placement"]["resolved_from_family"] == true);
  const double current_monthly = res["current"]["cost"]["usd_per_month"];
  CHECK(current_monthly == Approx(6.88 * 720));
  for (const auto& c : res["alternatives"]) {
    INFO(c["instance"].get<std::string>());
    CHECK(c["fit"]["fits"] == true);
    if (c["cost"]["usd_per_month"].is_number()) {
      const double expected = 100 * (current_monthly - c["cost"]["usd_per_month"].get<double>()) / current_monthly;
      CHECK(c["savings_pct"].get<double>() == Approx(expected).margin(0.05));
    }
    CHECK((c["risk_level"] == "low" || c["risk_level"] == "medium" || c["risk_level"] == "high"));
    CHECK_FALSE(c["reasons"].empty());
  }
  CHECK(res["recommendation"]["action"] == "migrate");
  CHECK(res["best_by_priority"].contains("balanced"));
}

TEST_CASE("spot for inference is warned about") {
  Json r = test::ask(test::shipped(), {{"question", "migrate"}, {"current", {{"instance", "g5.xlarge"}, {"gpus", 1}}},
                                       {"model", {{"params_b", 7}}}, {"workload", "inference"},
                                       {"precision", "fp16"}, {"use_spot", true}});
  REQUIRE(r["ok"] == true);
  REQUIRE_FALSE(r["result"]["warnings"].empty());
  CHECK_THAT(r["result"]["warnings"][0].get<std::string>(), Catch::Contains("production inference"));
  CHECK(r["result"]["current"]["cost"]["pricing"] == "spot");
  CHECK(r["result"]["current"]["risk_level"] == "high");
}

TEST_CASE("relative performance follows the bound of the workload") {
  Json r = test::ask(test::shipped(), {{"question", "performance"}, {"workload", "training"}, {"precision", "bf16"},
                                       {"instances", {{{"instance", "P4d"}, {"gpus", 8}}, {{"instance", "P5"}, {"gpus", 8}}}}});
  REQUIRE(r["ok"] == true);
  // Dense BF16: H100 989.5 vs A100 312 TFLOPS (gpu_specs_reference.json, vendor datasheets).
  CHECK(r["result"]["setups"][1]["ratio_to_first"].get<double>() == Approx(989.5 / 312).epsilon(0.001));
  Json inf = test::ask(test::shipped(), {{"question", "performance"}, {"workload", "inference"},
                                         {"instances", {{{"instance", "P4de"}, {"gpus", 1}}, {{"instance", "P5e"}, {"gpus", 1}}}}});
  // Bandwidth: H200 4800 vs A100-80GB 2039 GB/s.
  CHECK(inf["result"]["setups"][1]["ratio_to_first"].get<double>() == Approx(4800.0 / 2039).epsilon(0.001));
  CHECK(inf["result"]["setups"][1]["bound"] == "memory_bandwidth");
}

TEST_CASE("recommend prices tokens with the throughput model and honours a latency target") {
  // 13B fp16 = 26 GB of weights read per token: on one A10G (600 GB/s) a stream decodes at most
  // 600 / 26 = 23 tokens/s; the throughput model adds its bandwidth efficiency below that.
  Json per_token = recommend_request("cost_per_token");
  Json r = test::ask(test::shipped(), per_token);
  REQUIRE(r["ok"] == true);
  const Json& ranked = r["result"]["candidates"];
  REQUIRE(ranked.size() >= 5);
  double previous = 0;
  bool a10g_seen = false;
  for (const auto& c : ranked) {
    const Json& perf = c["performance"];
    if (!perf["usd_per_million_tokens"].is_number()) continue;
    CHECK(perf["unit"] == "tokens/s");
    const double usd = perf["usd_per_million_tokens"].get<double>();
    CHECK(usd >= previous - 1e-6);  // most tokens per dollar first
    previous = usd;
    // $ per 1M tokens = $/h over tokens per hour.
    CHECK(usd == Approx(c["cost"]["usd_per_hour"].get<double>() /
                        (perf["score"].get<double>() * 3600) * 1e6)
                     .epsilon(0.01));
    CHECK(perf["time_per_output_token_ms"].get<double>() ==
          Approx(1000 / perf["score"].get<double>()).epsilon(0.01));
    if (c["family"] == "G5") {  // A10G: 600 GB/s per GPU
      CHECK(perf["score"].get<double>() <=
            600 * c["placement"]["gpus_used"].get<double>() / 26 + 1e-6);
      a10g_seen = true;
    }
  }
  CHECK(a10g_seen);
  per_token["max_tpot_ms"] = 30;
  Json fast = test::ask(test::shipped(), per_token);
  REQUIRE(fast["ok"] == true);
  CHECK(fast["result"]["candidates"].size() < ranked.size());
  for (const auto& c : fast["result"]["candidates"])
    CHECK(c["performance"]["time_per_output_token_ms"].get<double>() <= 30);
  bool excluded_for_speed = false;
  for (const auto& e : fast["result"]["excluded"])
    excluded_for_speed |= e["reason"].get<std::string>().find("per output token") != std::string::npos;
  CHECK(excluded_for_speed);
}
