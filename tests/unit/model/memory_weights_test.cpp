// The memory model's weights part (core/src/model/memory_weights.cpp), through the "memory"
// question: the rotary-embedding tables older transformers releases keep in every attention layer,
// and the loading peak of a checkpoint that stores tied embeddings twice.
// The rest of its figures are checked in memory_model_test.cpp.
#include <catch2/catch.hpp>

#include "api/analyzer_access.hpp"
#include "support.hpp"

using namespace gpufleet;

namespace {

Json memory(const std::string& model, const std::string& version) {
  Json request = {{"question", "memory"},
                  {"model", {{"name", model}}},
                  {"mode", "inference"},
                  {"engine", "transformers"},
                  {"context", 1024}};
  if (!version.empty()) request["engine_version"] = version;
  const Json answer = test::ask(test::shipped(), request);
  INFO(request.dump() << " -> " << answer.dump().substr(0, 600));
  REQUIRE(answer["ok"] == true);
  return answer["result"];
}

using test::line;

}  // namespace

TEST_CASE("transformers before 4.45 keeps rotary cos/sin tables in every Qwen2 and Mistral layer") {
  for (const char* key : {"qwen2.5-7b", "mistral-7b-v0.1"}) {
    const Architecture& a = catalog_of(test::shipped())->model(key)->arch;
    INFO(key);
    // Each attention layer: cos and sin over every position, head_dim wide, in the model's bf16.
    const double tables = a.layers * 2 * a.max_positions * a.head_dim * 2;
    const Json old = memory(key, "4.38.2"), current = memory(key, "4.45.0"),
               unnamed = memory(key, "");
    CHECK(line(old, "rope_tables") == Approx(tables));
    CHECK(line(current, "rope_tables") == 0);
    CHECK(line(unnamed, "rope_tables") == 0);
    CHECK(old["total_bytes"].get<double>() - current["total_bytes"].get<double>() ==
          Approx(tables));
  }
  // Llama's attention layers are not listed: no tables whatever the release.
  CHECK(line(memory("llama-3-8b", "4.38.2"), "rope_tables") == 0);
}

namespace {

Json awq(const std::string& model, const std::string& engine, bool head_copy, double context) {
  const Json request = {{"question", "memory"},
                        {"model", {{"name", model}}},
                        {"mode", "inference"},
                        {"engine", engine},
                        {"weight_format", "awq_int4"},
                        {"context", context},
                        {"checkpoint_head_copy", head_copy}};
  const Json answer = test::ask(test::shipped(), request);
  INFO(request.dump() << " -> " << answer.dump().substr(0, 600));
  REQUIRE(answer["ok"] == true);
  return answer["result"];
}

double sum_lines(const Json& result) {
  double sum = 0;
  for (const auto& l : result["per_gpu"]) sum += l["bytes"].get<double>();
  return sum;
}

}  // namespace

TEST_CASE("a checkpoint with tied embeddings saved twice peaks while transformers loads it") {
  const Architecture& a = catalog_of(test::shipped())->model("gemma-2-9b")->arch;
  REQUIRE(a.tied_embeddings);
  const double copy = a.vocab * a.hidden * 2;  // the second copy, 16-bit as the checkpoint keeps it
  const Json plain = awq("gemma-2-9b", "transformers", false, 16);
  const Json copied = awq("gemma-2-9b", "transformers", true, 16);
  const double weights = line(plain, "weights");
  // A short run stays below the loading moment: the peak is the weights and the copy.
  const double run_tensors = plain["tensors_gib"].get<double>();
  CHECK(weights + copy > run_tensors * 1073741824.0);
  CHECK(copied["tensors_gib"].get<double>() ==
        Approx((weights + copy) / 1073741824.0).epsilon(0.002));
  CHECK(line(copied, "loading_peak") > 0);
  CHECK(sum_lines(copied) - sum_lines(plain) == Approx(line(copied, "loading_peak")));
  // A long run rises above it: nothing changes.
  const Json long_plain = awq("gemma-2-9b", "transformers", false, 8192);
  const Json long_copied = awq("gemma-2-9b", "transformers", true, 8192);
  CHECK(line(long_copied, "loading_peak") == 0);
  CHECK(long_copied["tensors_gib"] == long_plain["tensors_gib"]);
  // Engines that skip the second copy, and models without tied embeddings, have no such line.
  CHECK(line(awq("gemma-2-9b", "vllm", true, 16), "loading_peak") == 0);
  CHECK(line(awq("llama-3-8b", "transformers", true, 16), "loading_peak") == 0);
}

namespace {

Json weights_of(const std::string& model, const std::string& format, const std::string& engine) {
  const Json request = {{"question", "memory"}, {"model", {{"name", model}}}, {"mode", "inference"},
                        {"engine", engine},     {"weight_format", format},    {"context", 1024}};
  const Json answer = test::ask(test::shipped(), request);
  INFO(request.dump() << " -> " << answer.dump().substr(0, 600));
  REQUIRE(answer["ok"] == true);
  return answer["result"];
}

}  // namespace

TEST_CASE("transformers holds an fp8 checkpoint's output head apart from its tied embeddings") {
  const Architecture& a = catalog_of(test::shipped())->model("qwen3-4b")->arch;
  REQUIRE(a.tied_embeddings);
  // Qwen3-4B: a 151,936 x 2,560 head in bf16, 777,912,320 bytes (the FP8 checkpoint's 778 MB
  // shard).
  const double head = 151936.0 * 2560 * 2;
  REQUIRE(a.vocab * a.hidden * 2 == head);
  const Json fp8 = weights_of("qwen3-4b", "fp8", "transformers");
  const Json fp8_vllm = weights_of("qwen3-4b", "fp8", "vllm");
  CHECK(line(fp8, "weights") - line(fp8_vllm, "weights") == Approx(head));
  // 16-bit weights keep the head tied, and a model without tied embeddings has its head counted.
  const Json bf16 = weights_of("qwen3-4b", "bf16", "transformers");
  CHECK(line(bf16, "weights") == Approx(line(weights_of("qwen3-4b", "bf16", "vllm"), "weights")));
  CHECK(line(weights_of("llama-3-8b", "fp8", "transformers"), "weights") ==
        Approx(line(weights_of("llama-3-8b", "fp8", "vllm"), "weights")));
}

namespace {

// Qwen3-4B fully fine-tuned in bf16 (no master copy) with torch.optim.AdamW, 2 x 1024 tokens.
MemoryQuestion bf16_adamw(bool checkpointed) {
  MemoryQuestion q;
  q.arch = catalog_of(test::shipped())->model("qwen3-4b")->arch;
  q.mode = TrainMode::kFullFinetune;
  q.weight_format = "bf16";
  q.compute = "bf16";
  q.optimizer = "adamw";
  q.batch = 2;
  q.sequence = 1024;
  q.gradient_checkpointing = checkpointed;
  q.optimizer_step = "foreach";  // a plain torch.optim.AdamW(params)
  return q;
}

double line_of(const MemoryEstimate& e, const std::string& key) {
  double bytes = 0;
  for (const auto& l : e.lines)
    if (l.key == key) bytes += l.bytes;
  return bytes;
}

}  // namespace

TEST_CASE("torch.optim's foreach AdamW step peaks at weights, moments, gradients and a temporary") {
  const MemoryConstants& k = catalog_of(test::shipped())->memory;
  // 4,022,468,096 parameters x 2 bytes, five times (weights, exp_avg, exp_avg_sq, gradients and
  // the foreach step's sqrt of exp_avg_sq) = 40,224,680,960 bytes, 37.46 GiB; the H200 measured
  // 37.77 GiB (MEAS-qwen3-4b-full_finetune-bf16_adamw-sdpa-b2x1024-gc-MEM).
  const MemoryAnswer gc = estimate_memory(k, bf16_adamw(true));
  REQUIRE(gc.estimate);
  CHECK(gc.estimate->tensor_bytes == Approx(4022468096.0 * 2 * 5));
  CHECK(line_of(*gc.estimate, "optimizer_step") == Approx(4022468096.0 * 2));
  CHECK(line_of(*gc.estimate, "activations") == 0);  // freed before the step: not listed

  // Without checkpointing the backward pass's start is higher: the gradients are not listed
  // (zero_grad(set_to_none=True) freed them after the last step) and the step's lines neither.
  const MemoryAnswer eager = [&] {
    MemoryQuestion q = bf16_adamw(false);
    q.attention = "eager";
    return estimate_memory(k, q);
  }();
  REQUIRE(eager.estimate);
  CHECK(line_of(*eager.estimate, "gradients") == 0);
  CHECK(line_of(*eager.estimate, "optimizer_step") == 0);
  CHECK(eager.estimate->tensor_bytes > 4022468096.0 * 2 * 5);

  // Gradients zeroed in place (PyTorch 1.x, gradient accumulation) stay beside the activations, and
  // a per-parameter or fused step (transformers' Trainer from torch 2.8) makes no step-wide
  // temporary.
  for (const char* step : {"for-loop", "fused"}) {
    MemoryQuestion kept = bf16_adamw(true);
    kept.gradients_freed_after_step = false;
    kept.optimizer_step = step;
    const MemoryAnswer a = estimate_memory(k, kept);
    REQUIRE(a.estimate);
    INFO(step);
    CHECK(line_of(*a.estimate, "optimizer_step") == 0);
    CHECK(line_of(*a.estimate, "gradients") == Approx(4022468096.0 * 2));
    CHECK(a.estimate->tensor_bytes ==
          Approx(4022468096.0 * 2 * 4 + line_of(*a.estimate, "activations") +
                 line_of(*a.estimate, "logits")));
  }
}
