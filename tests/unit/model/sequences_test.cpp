// sequences_that_fit (model/sequences.hpp): the sequences one copy holds, checked against the
// memory model itself asked one batch at a time (engines without a pool) and against the pool's
// own tokens (pool engines); then the same figure through every question that reports it.
#include <cmath>

#include <catch2/catch.hpp>

#include "api/analyzer_access.hpp"
#include "model/sequences.hpp"
#include "support.hpp"

using namespace gpufleet;

namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

MemoryQuestion serving(const Catalog& catalog, const std::string& model, const std::string& engine, double gib) {
  MemoryQuestion q;
  q.arch = catalog.model(model)->arch;
  q.mode = TrainMode::kInference;
  q.engine = engine;
  q.sequence = 2000;
  q.new_tokens = 500;
  q.max_model_len = 2500;
  q.gpu_memory_bytes = gib * kGiB;
  q.explain = false;
  return q;
}

// The largest batch whose memory stays within the limit, by asking every batch from 1 up.
double by_counting(const Catalog& catalog, MemoryQuestion q, double limit) {
  double n = 0;
  for (double b = 1; b < 10000; ++b) {
    q.batch = b;
    const MemoryAnswer a = estimate_memory(catalog.memory, q);
    if (!a.estimate || a.estimate->total_bytes > limit) break;
    n = b;
  }
  return n;
}

}  // namespace

TEST_CASE("sequences_that_fit: engines without a pool, the largest batch the memory model holds") {
  const Catalog& catalog = *catalog_of(test::shipped());
  for (const char* engine : {"transformers", "llama.cpp"}) {
    for (const double gib : {24.0, 48.0, 80.0}) {
      const MemoryQuestion q = serving(catalog, "llama-3.1-8b", engine, gib);
      const MemoryAnswer one = estimate_memory(catalog.memory, q);
      REQUIRE(one.estimate);
      const double counted = by_counting(catalog, q, gib * kGiB);
      INFO(engine << " on " << gib << " GiB: counted " << counted);
      CHECK(counted >= 1);
      CHECK(sequences_that_fit(catalog.memory, q, *one.estimate, gib * kGiB) == counted);
      // A limit below the device (a share of it) holds fewer, counted the same way.
      CHECK(sequences_that_fit(catalog.memory, q, *one.estimate, 0.8 * gib * kGiB) == by_counting(catalog, q, 0.8 * gib * kGiB));
    }
  }
  // Not one sequence: 0.
  const MemoryQuestion big = serving(catalog, "llama-3.1-70b", "transformers", 24);
  const MemoryAnswer a = estimate_memory(catalog.memory, big);
  REQUIRE(a.estimate);
  CHECK(sequences_that_fit(catalog.memory, big, *a.estimate, 24 * kGiB) == 0);
}

TEST_CASE("sequences_that_fit: a pool engine, the whole sequences its pool holds") {
  const Catalog& catalog = *catalog_of(test::shipped());
  const MemoryQuestion q = serving(catalog, "llama-3.1-8b", "vllm", 80);
  const MemoryAnswer a = estimate_memory(catalog.memory, q);
  REQUIRE(a.estimate);
  REQUIRE(a.estimate->kv_pool_bytes);
  const MemoryEstimate& e = *a.estimate;
  const double per_token = e.kv_bytes_per_token;
  CHECK(sequences_that_fit(catalog.memory, q, e, 80 * kGiB) == std::floor(std::floor(*e.kv_pool_bytes / per_token) / 2500));
  // Within 70 % of the device: what the share leaves beside the copy's memory outside the pool.
  const double outside = e.total_bytes - *e.kv_pool_bytes;
  CHECK(sequences_that_fit(catalog.memory, q, e, 0.7 * 80 * kGiB) ==
        std::floor((0.7 * 80 * kGiB - outside) / (per_token * 2500)));
}

TEST_CASE("the sequences that fit: one figure from fit, memory and estimate, whatever the engine") {
  for (const char* engine : {"vllm", "sglang", "transformers", "llama.cpp"}) {
    const Json fit = test::ask(test::shipped(), {{"question", "fit"}, {"model", {{"name", "llama-3.1-8b"}}},
                                                {"workload", "inference"}, {"weight_format", "bf16"}, {"engine", engine},
                                                {"instance", "g6e.xlarge"}, {"gpus", 1}});
    REQUIRE(fit["ok"] == true);
    const Json& d = fit["result"]["deployment"];
    const double n = d["max_concurrency_by_kv_cache"].get<double>();
    INFO(engine << ": fit says " << n);
    CHECK(n >= 1);
    const Json memory = test::ask(test::shipped(), {{"question", "memory"}, {"model", {{"name", "llama-3.1-8b"}}},
                                                   {"workload", "inference"}, {"weight_format", "bf16"}, {"engine", engine},
                                                   {"gpu", "L40S"}, {"demand", Json::object()}});
    REQUIRE(memory["ok"] == true);
    const Json& r = memory["result"];
    if (r.contains("kv_cache_capacity")) {
      CHECK(r["kv_cache_capacity"]["concurrent_sequences"] == n);
    } else {
      CHECK(r["gpu"]["concurrent_sequences_at_context"] == n);
      CHECK(r["gpu"]["largest_batch"] == n);
    }
    const Json estimate = test::ask(test::shipped(), {{"question", "estimate"}, {"model", {{"name", "llama-3.1-8b"}}},
                                                     {"weight_format", "bf16"}, {"engine", engine}, {"instance", "g6e.xlarge"},
                                                     {"demand", Json::object()}});
    REQUIRE(estimate["ok"] == true);
    CHECK(estimate["result"]["inference"]["max_concurrency_by_kv_cache"] == n);
  }
}
