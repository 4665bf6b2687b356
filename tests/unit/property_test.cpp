// Property: any valid request gets an answer whose every number is finite (no NaN or infinity
// can reach an output), over thousands of random requests from a fixed seed.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "support.hpp"

using namespace gpufleet;

TEST_CASE("random valid requests never produce NaN or infinity") {
  const Analyzer& analyzer = test::shipped();
  const Catalog& c = *analyzer.catalog();
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
    const Json answer = analyzer.analyze(request);
    REQUIRE(answer["ok"] == true);
    REQUIRE(test::non_finite_numbers(answer) == 0);
    ++answered;
  }
  CHECK(answered == 3000);
}
