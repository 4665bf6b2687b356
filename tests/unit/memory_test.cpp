#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "fleet/seed_memory.hpp"
#include "support.hpp"
#include "api/analyzer_access.hpp"

using namespace gpufleet;

TEST_CASE("precisions reproduce the seed's 35B table: 140 / 70 / 70 / 35 / 35 GB") {
  Json r = test::ask(test::shipped(), {{"question", "precisions"}, {"model", {{"size", "medium"}}}});
  REQUIRE(r["ok"] == true);
  std::map<std::string, double> got;
  for (const auto& row : r["result"]["precisions"]) got[row["precision"]] = row["weights_gb"];
  // Seed 004, "Precision Format Comparison" output for a 35B model.
  CHECK(got["fp32"] == 140);
  CHECK(got["fp16"] == 70);
  CHECK(got["bf16"] == 70);
  CHECK(got["fp8"] == 35);
  CHECK(got["int8"] == 35);
}

TEST_CASE("a parameter count works like a size class") {
  Json r = test::ask(test::shipped(), {{"question", "precisions"}, {"model", {{"params_b", 7}}}});
  REQUIRE(r["ok"] == true);
  CHECK(r["result"]["precisions"][1]["weights_gb"] == 14);  // 7B x 2 bytes
}

TEST_CASE("fine-tuning and inference overheads follow the seed's memory planning") {
  const Catalog& c = *catalog_of(test::shipped());
  ModelSpec small{"small", std::string("small"), 13e9, 1.5};
  const Precision& fp16 = *c.precision("fp16");
  // Seed 004: inference = model size x 1.2, training = model size x 1.5.
  CHECK(memory_requirement(c, small, WorkloadType::kInference, fp16).total_bytes == Approx(31.2e9));
  CHECK(memory_requirement(c, small, WorkloadType::kTraining, fp16).total_bytes == Approx(39e9));
  ModelSpec bare{"20B", std::nullopt, 20e9, 0};
  CHECK(memory_requirement(c, bare, WorkloadType::kFineTuning, fp16).total_bytes == Approx(60e9));
}

TEST_CASE("fit uses usable memory and counts the GPUs needed") {
  const Catalog& c = *catalog_of(test::shipped());
  ModelSpec small{"small", std::string("small"), 13e9, 1.5};
  auto need = memory_requirement(c, small, WorkloadType::kInference, *c.precision("fp16"));  // 31.2 GB
  const InstanceType& l4 = *c.instance("g6.xlarge");  // 22,888 MiB = 24.0 GB usable
  Fit one = fit_on(l4, 1, need);
  CHECK_FALSE(one.fits);
  CHECK(one.gpus_needed == 2);
  Fit two = fit_on(l4, 2, need);
  CHECK(two.fits);
  CHECK(two.utilization == Approx(31.2e9 / (2 * 22888.0 * 1048576)));
}

TEST_CASE("a model too large for the setup gets CANNOT FIT MODEL and concrete ways out") {
  // Full training of a 35B dense decoder: 16 bytes per parameter (bf16 weights and gradients,
  // fp32 master weights and Adam moments) = 560 GB before activations; one 80 GiB H100 holds 15 %.
  Json r = test::ask(test::shipped(), {{"question", "fit"}, {"model", {{"size", "medium"}}},
                                       {"workload", "training"}, {"precision", "bf16"},
                                       {"instance", "P5"}, {"gpus", 1}});
  REQUIRE(r["ok"] == true);
  const Json& res = r["result"];
  CHECK(res["status"] == "CANNOT FIT MODEL");
  CHECK(res["fit"]["per_gpu_gb"].get<double>() > 560);
  const Json& ways = res["ways_out"];
  // The same family: enough H100s to shard 560 GB over (at least 8), whole p5.48xlarge instances.
  CHECK(ways["more_gpus"]["gpus"].get<double>() >= 8);
  CHECK(ways["more_gpus"]["instance"] == "p5.48xlarge");
  CHECK(ways["more_gpus"]["runs"] == true);
  CHECK_THAT(ways["summary"].get<std::string>(), Catch::Contains("NVIDIA H100"));
  // The seed's rule on request: 70 GB x 1.5 = 105 GB, over the 85.9 GB of one H100.
  Json seed = test::ask(test::shipped(), {{"question", "fit"}, {"model", {{"size", "medium"}}},
                                          {"workload", "training"}, {"precision", "bf16"}, {"instance", "P5"},
                                          {"gpus", 1}, {"memory_method", "seed"}});
  REQUIRE(seed["ok"] == true);
  CHECK(seed["result"]["status"] == "CANNOT FIT MODEL");
  CHECK(seed["result"]["memory"]["total_gb"] == Approx(105));
  CHECK(seed["result"]["fit"]["per_gpu_gb"] == Approx(105));
}
