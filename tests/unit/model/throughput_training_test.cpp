// The training estimate's step (core/src/model/throughput_training.cpp): the passes over memory
// outside its matmuls (the optimizer's step, eager attention's scores, autocast's and adapters'
// casts) and the forward that activation checkpointing runs again, each against a figure worked
// out by hand.
#include <catch2/catch.hpp>
#include <memory>

#include "pricing/prices.hpp"
#include "support.hpp"

using namespace gpufleet;

namespace {

struct Setup {
  std::shared_ptr<const Catalog> catalog;
  ThroughputQuestion q;
};

Setup training_on(const char* model, const char* gpu, double sequence) {
  const CatalogLoad load = load_catalog(test::config_sources());
  REQUIRE(load.catalog);
  Setup s{load.catalog, {}};
  REQUIRE(s.catalog->model(model));
  REQUIRE(s.catalog->gpu(gpu));
  s.q.arch = s.catalog->model(model)->arch;
  s.q.params = count_parameters(s.q.arch);
  s.q.device = s.catalog->device(*s.catalog->gpu(gpu));
  s.q.compute = "bf16";
  s.q.sequence = sequence;
  return s;
}

// An H200 streams reads and writes at 4,800 GB/s x 0.887 (bandwidth_efficiency "default triad").
constexpr double kH200TriadBytesPerS = 4800e9 * 0.887;

}  // namespace

TEST_CASE("torch's AdamW step is 21 passes over the parameters, once per step's tokens") {
  Setup s = training_on("llama-3.1-8b", "H200", 2048);
  const ThroughputConstants& k = s.catalog->throughput;
  REQUIRE(k.adamw_parameter_accesses == 21);
  REQUIRE(s.q.params.total == Approx(8.03026e9).epsilon(1e-5));
  const TrainingEstimate bare = estimate_training(k, s.q);
  CHECK(bare.optimizer_s_per_token == 0);  // no optimizer named: not counted
  s.q.optimizer = "adamw";
  s.q.step_tokens = 2048;
  // 8.030 B bf16 parameters x 21 x 2 bytes = 337.3 GB at 4,257.6 GB/s: 79.2 ms per step, 38.68 us
  // per token of a 2 x 1024-token step. (The probe's phi-3-mini, 3.82 B parameters, gives 37.7 ms
  // by the same count; its optimizer.step measured 52.4 ms: the foreach kernels stream under
  // Triad's share.)
  const TrainingEstimate t = estimate_training(k, s.q);
  CHECK(t.optimizer_s_per_token == Approx(38.68e-6).epsilon(1e-3));
  CHECK(1 / t.tokens_per_s_per_gpu ==
        Approx(1 / bare.tokens_per_s_per_gpu + t.optimizer_s_per_token).epsilon(1e-9));
  CHECK_THAT(t.basis, Catch::Contains("adamw step once per 2048 tokens per GPU"));
  // fp32 states and master weights: 4-byte passes, then the 16-bit copy (read 4, write 2).
  s.q.fp32_optimizer = true;
  CHECK(estimate_training(k, s.q).optimizer_s_per_token ==
        Approx(38.68e-6 * (21 * 4 + 6) / (21 * 2)).epsilon(1e-3));
  // ZeRO/FSDP over 8 GPUs: each steps an eighth of the parameters.
  s.q.fp32_optimizer = false;
  s.q.optimizer_shards = 8;
  CHECK(estimate_training(k, s.q).optimizer_s_per_token == Approx(38.68e-6 / 8).epsilon(1e-3));
  // Adapters step only their own parameters (a fraction of a percent): not counted.
  s.q.adapters = true;
  CHECK(estimate_training(k, s.q).optimizer_s_per_token == 0);
}

TEST_CASE(
    "activation checkpointing runs each layer's forward again: 2 FLOPs per parameter and a third "
    "of attention") {
  Setup s = training_on("llama-3.1-8b", "H100", 2048);
  const ThroughputConstants& k = s.catalog->throughput;
  const TrainingEstimate plain = estimate_training(k, s.q);
  s.q.full_recompute = true;
  const TrainingEstimate t = estimate_training(k, s.q);
  // 2 x 7.505 B matmul parameters (8.030 B less the 525 M of the input embedding) at 989.5 TFLOPS
  // = 15.17 us, + 4 x 32 layers x 4096 x 2048 attention FLOPs at 989.5 x 0.7 TFLOPS = 1.55 us,
  // over the matmuls' 0.43: 38.88 us per token.
  REQUIRE(k.training_mfu.at("H100-SXM-80GB") == 0.43);
  REQUIRE(k.training_attention.at("H100") == 0.7);
  CHECK(t.recompute_s_per_token == Approx(38.88e-6).epsilon(1e-3));
  CHECK(1 / t.tokens_per_s_per_gpu ==
        Approx(1 / plain.tokens_per_s_per_gpu + t.recompute_s_per_token).epsilon(1e-9));
  // The model FLOPs per token stay 6N + attention; the hardware's are 8/6 of them.
  CHECK(t.flops_per_token == plain.flops_per_token);
  CHECK(t.hfu == Approx(t.mfu * 8 / 6).epsilon(1e-12));
  CHECK_THAT(t.basis, Catch::Contains("activation checkpointing runs the forward again"));
}

TEST_CASE(
    "eager attention writes and reads every score, 52 bytes each in bf16, and runs its products at "
    "the matmuls' rate") {
  Setup s = training_on("qwen3-4b", "H200", 1024);
  const ThroughputConstants& k = s.catalog->throughput;
  const TrainingEstimate sdpa = estimate_training(k, s.q);
  s.q.eager_attention = true;
  const TrainingEstimate t = estimate_training(k, s.q);
  // 36 layers x 32 heads x 1024 keys = 1,179,648 scores per token; forward 8 accesses of 2 bytes
  // and 2 of 4 (the fp32 softmax), backward 8 of 2 and 3 of 4: 52 bytes, 61.34 MB per token at
  // 4,257.6 GB/s: 14.41 us.
  CHECK(t.memory_s_per_token == Approx(1179648.0 * 52 / kH200TriadBytesPerS).epsilon(1e-9));
  CHECK(t.memory_s_per_token == Approx(14.41e-6).epsilon(1e-3));
  CHECK(t.attention_share == 1);
  CHECK(sdpa.attention_share < 1);
  CHECK_THAT(t.basis, Catch::Contains("eager attention's scores"));
  // Checkpointing repeats the forward's 24 bytes: 21.06 us.
  s.q.full_recompute = true;
  CHECK(estimate_training(k, s.q).memory_s_per_token == Approx(21.06e-6).epsilon(1e-3));
}

TEST_CASE(
    "autocast casts fp32 weights to 16 bits every forward and their gradients back once per step") {
  Setup s = training_on("qwen3-4b", "H200", 1024);
  const ThroughputConstants& k = s.catalog->throughput;
  s.q.autocast_weights = true;
  s.q.step_tokens = 2048;
  // 4.02 B parameters x (read 4 + write 2, forward) + (read 2 + write 4, backward) = 48.3 GB per
  // 2048-token step at 4,257.6 GB/s: 5.54 us per token.
  REQUIRE(s.q.params.total == Approx(4.02e9).epsilon(0.01));
  const TrainingEstimate t = estimate_training(k, s.q);
  CHECK(t.memory_s_per_token ==
        Approx(s.q.params.total * 12 / 2048 / kH200TriadBytesPerS).epsilon(1e-9));
  CHECK(t.memory_s_per_token == Approx(5.54e-6).epsilon(0.01));
}

TEST_CASE(
    "LoRA: 4 FLOPs per frozen parameter, and peft's fp32 adapters cast and sum around every "
    "adapted module") {
  Setup s = training_on("llama-3.1-8b", "H200", 1024);
  const ThroughputConstants& k = s.catalog->throughput;
  const TrainingEstimate full = estimate_training(k, s.q);
  MemoryQuestion mq;
  mq.arch = s.q.arch;
  mq.mode = TrainMode::kLora;
  mq.compute = "bf16";
  mq.weight_format = "bf16";
  mq.batch = 4;
  mq.sequence = 1024;
  mq.lora_rank = 16;
  mq.lora_targets = {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"};
  const MemoryAnswer states = estimate_memory(s.catalog->memory, mq);
  REQUIRE(states.estimate);
  // 16 x (4096 + 4096 + 2 x (4096 + 1024) + 4096 + 4096 + 3 x (4096 + 14336)) x 32 layers.
  REQUIRE(states.estimate->trainable_parameters == 16.0 * 81920 * 32);
  take_training_recipe(s.catalog->memory, mq, states.estimate->trainable_parameters, s.q);
  CHECK(s.q.eager_layers);  // transformers, the memory question's engine
  s.q.eager_layers = false;
  CHECK(s.q.adapters);
  CHECK(s.q.adapter_features == 81920.0 * 32);
  CHECK(s.q.adapter_bytes == 4);
  CHECK(s.q.step_tokens == 4096);
  const TrainingEstimate t = estimate_training(k, s.q);
  const double matmuls = full.flops_per_token - full.attention_flops_per_token;
  CHECK(t.flops_per_token == Approx(matmuls * 4 / 6 + full.attention_flops_per_token));
  // fp32 adapters in a bf16 model: 10 + 28 bytes per input and output feature forward, 20 + 28
  // backward, 43 a feature on average: 2,621,440 features x 43 = 112.7 MB per token, 26.48 us.
  CHECK(t.memory_s_per_token == Approx(26.48e-6).epsilon(1e-3));
  CHECK(t.optimizer_s_per_token == 0);
  CHECK_THAT(t.basis, Catch::Contains("4 x"));
}

TEST_CASE(
    "transformers runs each layer's norms, activation, rotary embeddings and sums op by op: 606 KB "
    "per Llama layer's forward") {
  Setup s = training_on("llama-3.1-8b", "H200", 2048);
  const ThroughputConstants& k = s.catalog->throughput;
  const TrainingEstimate fused = estimate_training(k, s.q);
  s.q.eager_layers = true;
  const TrainingEstimate t = estimate_training(k, s.q);
  // Per token, a layer's forward in bf16: two RMSNorms (28 + 4 x 2 bytes per element of 4096),
  // SwiGLU's activation and product (10 x 14336), rotary embeddings on the 4096 query and 1024
  // key features (20 each), two residual sums (12 x 4096) and the attention output's transpose
  // (4 x 4096): 606,208 bytes; the backward twice that; 32 layers at 4,257.6 GB/s: 13.67 us.
  CHECK(t.memory_s_per_token == Approx(606208.0 * 3 * 32 / kH200TriadBytesPerS).epsilon(1e-9));
  CHECK(t.memory_s_per_token == Approx(13.67e-6).epsilon(1e-3));
  CHECK(1 / t.tokens_per_s_per_gpu ==
        Approx(1 / fused.tokens_per_s_per_gpu + t.memory_s_per_token).epsilon(1e-9));
  CHECK_THAT(t.basis, Catch::Contains("op by op"));
  // Checkpointing runs the forward's ops again: 18.23 us.
  s.q.full_recompute = true;
  CHECK(estimate_training(k, s.q).memory_s_per_token == Approx(18.23e-6).epsilon(1e-3));
}
