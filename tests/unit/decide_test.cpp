// Seed 002's decision framework: each branch of its decision trees, as the seed prints it.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace gpufleet;

namespace {

Json decide(Json fields) {
  Json request{{"question", "decide"}, {"precision", "bf16"}};
  request.update(fields);
  Json r = test::ask(test::shipped(), request);
  INFO(request.dump() << " -> " << r.dump().substr(0, 400));
  REQUIRE(r["ok"] == true);
  return r["result"];
}

}  // namespace

TEST_CASE("every branch of seed 002's decision trees") {
  struct Row { Json fields; const char* branch; const char* kind; };
  const Row rows[] = {
      // Large Model Training (>7B parameters)
      {{{"model", {{"params_b", 13}}}, {"workload", "training"}, {"goal", "cost"}}, "Budget Conscious + PyTorch -> AWS Trainium (Trn1)", "trainium"},
      {{{"model", {{"params_b", 13}}}, {"workload", "training"}, {"goal", "performance"}}, "Maximum Performance -> NVIDIA H100 (P5)", "gpu"},
      {{{"model", {{"params_b", 13}}}, {"workload", "training"}, {"goal", "balanced"}}, "Balanced Performance/Cost -> NVIDIA A100 (P4d)", "gpu"},
      {{{"model", {{"params_b", 13}}}, {"workload", "training"}, {"goal", "experimentation"}}, "Experimentation -> NVIDIA V100 (P3)", "gpu"},
      {{{"model", {{"params_b", 13}}}, {"workload", "training"}, {"goal", "cost"}, {"framework", "jax"}}, "Balanced Performance/Cost -> NVIDIA A100 (P4d)", "gpu"},
      // Medium Model Training (1B-7B parameters)
      {{{"model", {{"params_b", 3}}}, {"workload", "training"}, {"goal", "cost"}}, "Cost Optimization -> AWS Trainium (Trn1)", "trainium"},
      {{{"model", {{"params_b", 3}}}, {"workload", "fine_tuning"}, {"goal", "flexibility"}}, "Framework Flexibility -> NVIDIA A100 (P4d)", "gpu"},
      {{{"model", {{"params_b", 3}}}, {"workload", "training"}, {"goal", "experimentation"}}, "Quick Experiments -> NVIDIA T4 (G4dn)", "gpu"},
      {{{"model", {{"params_b", 3}}}, {"workload", "training"}, {"model_kind", "simple"}}, "CPU-only Models -> High-memory CPU instances (R5, M5)", "cpu"},
      // High-Throughput Inference
      {{{"model", {{"params_b", 7}}}, {"workload", "inference"}, {"goal", "cost"}}, "Transformer Models + Cost Focus -> AWS Inferentia (Inf2)", "inferentia"},
      {{{"model", {{"params_b", 7}}}, {"workload", "inference"}, {"model_kind", "mixed"}}, "Mixed Model Types -> NVIDIA A10G (G5)", "gpu"},
      {{{"model", {{"params_b", 1}}}, {"workload", "inference"}, {"latency_ms", 100}}, "Real-time Requirements -> NVIDIA T4 (G4dn)", "gpu"},
      {{{"model", {{"params_b", 0.1}}}, {"workload", "inference"}, {"model_kind", "simple"}}, "Simple Models -> CPU instances (M5, C5)", "cpu"},
      // Low-Latency Inference
      {{{"model", {{"params_b", 1}}}, {"workload", "inference"}, {"latency_ms", 8}, {"goal", "performance"}}, "Sub-10ms Requirements -> NVIDIA A10G (G5)", "gpu"},
      {{{"model", {{"params_b", 1}}}, {"workload", "inference"}, {"latency_ms", 8}, {"goal", "cost"}}, "Cost-Optimized -> AWS Inferentia (Inf2)", "inferentia"},
      {{{"model", {{"params_b", 0.1}}}, {"workload", "inference"}, {"edge", true}}, "Edge Deployment -> CPU instances", "cpu"},
      {{{"model", {{"params_b", 7}}}, {"workload", "inference"}, {"batch", true}}, "Batch Processing -> Any GPU option", "gpu"},
  };
  for (const Row& row : rows) {
    Json d = decide(row.fields);
    CHECK(d["branch"] == row.branch);
    CHECK(d["recommended_kind"] == row.kind);
    int recommended = 0;
    for (const auto& o : d["options"]) recommended += o["recommended"].get<bool>();
    CHECK(recommended == 1);
  }
}

TEST_CASE("Neuron hardware is unsuitable outside PyTorch and TensorFlow, and states why") {
  Json d = decide({{"model", {{"params_b", 7}}}, {"workload", "inference"}, {"framework", "jax"}});
  for (const auto& o : d["options"]) {
    if (o["kind"] == "inferentia" || o["kind"] == "trainium") {
      CHECK(o["suitable"] == false);
      CHECK(o["migration_complexity"] == "high");
    }
    if (o["kind"] == "gpu") {
      CHECK(o["suitable"] == true);
      CHECK(o["migration_complexity"] == "low");
      CHECK_FALSE(o["cheapest_instance"].is_null());
    }
  }
}
