// Property: any valid request gets an answer whose every number is finite (no NaN or infinity
// can reach an output), over thousands of random requests from a fixed seed.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "support.hpp"
#include "api/analyzer_access.hpp"

using namespace gpufleet;

TEST_CASE("random valid requests never produce NaN or infinity") {
  const Analyzer& analyzer = test::shipped();
  const Catalog& c = *catalog_of(analyzer);
  std::mt19937 rng(20261122);
  auto pick = [&](const auto& items) { return items[std::uniform_int_distribution<std::size_t>(0, items.size() - 1)(rng)]; };
  auto log_uniform = [&](double lo, double hi) {
    return std::exp(std::uniform_real_distribution<double>(std::log(lo), std::log(hi))(rng));
  };
  std::vector<std::string> instances, sizes, precisions;
  for (const auto& it : c.instances) instances.push_back(it.name);
  for (const auto& f : c.families) instances.push_back(f.key);
  for (const auto& s : c.model_sizes) sizes.push_back(s.key);
  for (const auto& p : c.precisions) precisions.push_back(p.key);
  const std::vector<std::string> workloads{"inference", "fine_tuning", "training"};
  const std::vector<std::string> priorities{"cost", "performance", "balanced"};
  const std::vector<std::string> questions{"precisions", "fit", "cost", "performance", "recommend", "migrate"};

  int answered = 0;
  for (int i = 0; i < 3000; ++i) {
    Json model = std::bernoulli_distribution(0.5)(rng) ? Json{{"size", pick(sizes)}}
                                                        : Json{{"params_b", log_uniform(1e-6, 99999)}};
    const double gpus = std::bernoulli_distribution(0.8)(rng) ? std::ceil(log_uniform(1, 4096)) : log_uniform(1e-6, 4096);
    const double hours = log_uniform(1e-6, 744);
    const std::string q = pick(questions);
    Json request{{"question", q}};
    if (q == "precisions") {
      request["model"] = model;
    } else if (q == "cost") {
      request.update({{"instance", pick(instances)}, {"gpus", gpus}, {"hours_per_month", hours}});
    } else if (q == "performance") {
      request.update({{"workload", pick(workloads)}, {"precision", pick(precisions)},
                      {"instances", {{{"instance", pick(instances)}, {"gpus", gpus}}, {{"instance", pick(instances)}, {"gpus", 1}}}}});
    } else {
      request.update({{"model", model}, {"workload", pick(workloads)}, {"precision", pick(precisions)},
                      {"hours_per_month", hours}, {"use_spot", std::bernoulli_distribution(0.5)(rng)}});
      if (q == "fit") request.update({{"instance", pick(instances)}, {"gpus", gpus}});
      if (q == "recommend") request.update({{"priority", pick(priorities)}, {"min_gpus", std::floor(log_uniform(1, 64))}});
      if (q == "migrate") request.update({{"priority", pick(priorities)}, {"current", {{"instance", pick(instances)}, {"gpus", gpus}}}});
    }
    INFO(request.dump());
    const Json answer = analyze(analyzer, request);
    REQUIRE(answer["ok"] == true);
    REQUIRE(test::non_finite_numbers(answer) == 0);
    ++answered;
  }
  CHECK(answered == 3000);
}

TEST_CASE("random catalogs at the edges of their ranges never produce NaN or infinity, in any question") {
  std::mt19937 rng(20261124);
  auto pick = [&](std::initializer_list<double> xs) {
    return *(xs.begin() + std::uniform_int_distribution<std::size_t>(0, xs.size() - 1)(rng));
  };
  const std::vector<Json> requests = {
      {{"question", "recommend"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
       {"demand", {{"requests_per_s", 50}, {"max_ttft_ms", 500}}}},
      {{"question", "recommend"}, {"model", {{"params_b", 70}}}, {"workload", "fine_tuning"}, {"demand", {{"dataset_tokens", 2e9}}}},
      {{"question", "fit"}, {"model", {{"size", "small"}}}, {"workload", "inference"}, {"instance", "G6e"}, {"gpus", 1}},
      {{"question", "migrate"}, {"current", {{"instance", "P4d"}, {"gpus", 8}}}, {"model", {{"size", "large"}}}, {"workload", "training"}},
      {{"question", "estimate"}, {"model", {{"name", "llama-3.1-70b"}}}, {"weight_format", "fp8"}, {"rank", true}},
      {{"question", "estimate"}, {"model", {{"name", "llama-3.1-8b"}}}, {"phase", "training"}, {"instance", "P5"}, {"gpus", 8},
       {"dataset_tokens", 1e9}},
      {{"question", "decide"}, {"model", {{"params_b", 13}}}, {"workload", "inference"}},
      {{"question", "placement"}, {"models", {{{"name", "a"}, {"memory_gb", 30}}, {{"name", "b"}, {"model", {{"size", "small"}}}}}}},
      {{"question", "workload_set"}, {"id", "comprehensive_suite"}},
      {{"question", "performance"}, {"workload", "training"}, {"precision", "bf16"}, {"instances", {{{"instance", "P5"}, {"gpus", 8}}}}},
      {{"question", "right_size"}, {"models", {{{"model", {{"name", "llama-3.1-8b"}}}}}}},
  };
  int catalogs = 0, answers = 0;
  for (int round = 0; round < 24; ++round) {
    CatalogSources sources = test::edited(kGpuInstancesFile, [&](Json& doc) {
      for (auto& [_, gpu] : doc["gpus"].items()) {
        gpu["memory_bandwidth_gb_per_s"] = pick({1, 1e6, 3350});
        gpu["memory_gb"] = pick({0.1, 4096, 80});
        if (gpu.contains("tflops"))
          for (auto& [__, t] : gpu["tflops"].items()) t = pick({0, 0.001, 1e6, 989});
      }
      for (auto& [_, family] : doc["gpu_instances"].items()) {
        family["compute_tflops"] = pick({0, 0.001, 1e6});
        family["interconnect_bandwidth_gbps"] = pick({0, 0.001, 1e6});
        family["memory_bandwidth_factor"] = pick({0, 1e-4, 10});
        family["interconnect_multiplier"] = pick({0, 1});
        if (family.contains("on_demand_cost_per_hour"))
          family["on_demand_cost_per_hour"] = pick({1e-6, 10000});
      }
    });
    sources = test::edited(kModelConfigFile, [&](Json& doc) {
      for (const char* table : {"training_mfu", "training_attention", "link_gb_per_s"})
        for (auto& [key, value] : doc["throughput_model"][table].items())
          if (value.is_number()) value = pick({0, 0.001, 1e5});
    }, sources);
    const Analyzer analyzer(sources);
    INFO("round " << round << ": " << (analyzer.catalog_errors().empty() ? "" : analyzer.catalog_errors().front().path + " " + analyzer.catalog_errors().front().message));
    REQUIRE(analyzer.catalog_ok());
    ++catalogs;
    for (const Json& request : requests) {
      const Json answer = analyze(analyzer, request);
      INFO(request.dump());
      CHECK(test::non_finite_numbers(answer) == 0);
      answers += answer["ok"] == true;
    }
  }
  CHECK(catalogs == 24);
  CHECK(answers > 24 * 3);  // most questions still answer at the edges
}
