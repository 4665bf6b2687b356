// The memory model's activations part (core/src/model/memory_activations.cpp), through the
// "memory" question: the prefill peak of eager attention when generating.
// The rest of its figures are checked in memory_model_test.cpp.
#include <catch2/catch.hpp>

#include "api/analyzer_access.hpp"
#include "support.hpp"

using namespace gpufleet;

namespace {

Json generate(const std::string& attention) {
  const Json request = {{"question", "memory"}, {"model", {{"name", "qwen3-4b"}}},
                        {"mode", "inference"},  {"engine", "transformers"},
                        {"context", 2048},      {"new_tokens", 128},
                        {"batch", 8},           {"attention", attention}};
  const Json answer = test::ask(test::shipped(), request);
  INFO(request.dump() << " -> " << answer.dump().substr(0, 600));
  REQUIRE(answer["ok"] == true);
  return answer["result"];
}

using test::line;

// The memory question's result for `model` on the transformers engine in bf16, with `fields`.
Json transformers_bf16(const std::string& model, const Json& fields) {
  Json request = {{"question", "memory"},
                  {"model", {{"name", model}}},
                  {"engine", "transformers"},
                  {"weight_format", "bf16"}};
  request.update(fields);
  const Json answer = test::ask(test::shipped(), request);
  INFO(request.dump() << " -> " << answer.dump().substr(0, 600));
  REQUIRE(answer["ok"] == true);
  return answer["result"];
}

const Json kLoraQV = {{"rank", 8}, {"target_modules", {"q_proj", "v_proj"}}};

}  // namespace

TEST_CASE("eager attention's prefill peaks in its fp32 softmax over bf16 scores") {
  // Qwen3-4B, 8 prompts of 2048 tokens: 8 x 32 heads x 2048 x 2048 scores, each held as the bf16
  // input, its fp32 copy and the fp32 softmax output (2 + 4 + 4 bytes), beside the residual, Q, K,
  // V and repeat_kv's copies of K and V to all 32 heads (2560 + 4096 + 2 x 1024 + 2 x 4096
  // elements x 2 bytes per token); the cache of the 128 generated tokens (144 KiB per token) comes
  // after the prefill. = 10,737,418,240 + 553,648,128 - 150,994,944 bytes; the H200 measured
  // 20.50 GiB for the whole run (MEAS-qwen3-4b-inference-bf16-eager-b8x2048-new128-MEM), the
  // estimate 20.26 GiB.
  const Json eager = generate("eager");
  CHECK(line(eager, "activations") == 8.0 * 32 * 2048 * 2048 * 10 +
                                          16384.0 * (2560 + 4096 + 2048 + 8192) * 2 -
                                          8.0 * 128 * 147456);
  // SDPA's flash kernel keeps no scores: one layer's intermediates are the peak.
  const Json sdpa = generate("sdpa");
  CHECK(line(sdpa, "activations") ==
        Approx(16384.0 * (3 * 2560 + 3 * 9728) * 2 - 8.0 * 128 * 147456));
}

TEST_CASE("GPT-2 under autocast: gelu_new's elementwise ops and the fp32 residual stream") {
  // GPT-2 medium (h = 1024, 24 layers, MLP 4096 wide) with fp32 parameters under bf16 autocast,
  // 16 x 1024 tokens, SDPA, dropout 0.1 (GPT2Config's default), counted from modeling_gpt2.py:
  //   attention: ln_1's fp32 input 4h, c_attn's bf16 cast 2h, Q K V 6h, the attention output 2h
  //   (c_proj's input), resid_dropout's mask 1h = 15h;
  //   MLP: ln_2's fp32 input 4h, c_fc's cast 2h, gelu_new over 4h elements (pow's fp32 copy 4,
  //   tanh's fp32 output 4, 0.5 * x in bf16 2, 1 + tanh in fp32 4, c_proj's bf16 cast 2: 16
  //   bytes each) 64h, the mask 1h = 71h;
  // 86 x 1024 bytes per token per layer. The H200 measured 46.28 GiB for the whole step
  // (MEAS-gpt2-medium-full_finetune-amp_bf16-sdpa-b16x1024-nogc-MEM), the estimate 44.44 GiB.
  const Json request = {{"question", "memory"},
                        {"model", {{"name", "gpt2-medium"}}},
                        {"mode", "full_finetune"},
                        {"weight_format", "fp32"},
                        {"compute_precision", "amp_bf16"},
                        {"master_weights", false},
                        {"batch", 16},
                        {"context", 1024},
                        {"gradient_checkpointing", false}};
  const Json answer = test::ask(test::shipped(), request);
  REQUIRE(answer["ok"] == true);
  CHECK(line(answer["result"], "activations") == Approx(16384.0 * 24 * 86 * 1024));
  // In bf16 without autocast the same ops keep 16-bit tensors: 2-byte norm inputs and no casts,
  // 5 x 2 bytes per MLP element: (2h + 10h + h) + (2h + 2h + 4 x 10h + h) = 13h + 45h.
  Json bf16 = request;
  bf16["weight_format"] = "bf16";
  bf16["compute_precision"] = "bf16";
  const Json plain = test::ask(test::shipped(), bf16);
  REQUIRE(plain["ok"] == true);
  CHECK(line(plain["result"], "activations") == Approx(16384.0 * 24 * (13 + 45) * 1024));
}

TEST_CASE("transformers' RMSNorms as PyTorch ops keep an fp32 copy and the normed input") {
  // Qwen3-4B (h = 2560, queries 32 x 128 = 4096, keys 8 x 128 = 1024, MLP 9728, 36 layers), bf16
  // full fine-tuning, 2 x 1024 tokens, SDPA, no checkpointing. Korthikanti et al.'s count per token
  // and layer: attention 2h + (h + 4096 + 2 x 1024 + 4096) x 2, MLP 2h + 2h + 4 x 2 x 9728 =
  // 118,784 bytes. LlamaRMSNorm's pow and product keep the fp32 copy (4) and the weight's product
  // the bf16 normed input (2) where the count has one 2-byte input: 2 norms x 4 x 2560 = 20,480;
  // q_norm and k_norm keep 6 bytes per query and key element, 6 x 5120 = 30,720.
  const Json result = transformers_bf16("qwen3-4b", {{"mode", "full_finetune"},
                                                      {"batch", 2},
                                                      {"context", 1024},
                                                      {"attention", "sdpa"},
                                                      {"gradient_checkpointing", false}});
  CHECK(line(result, "activations") == 2048.0 * 36 * (118784 + 20480 + 30720));
}

TEST_CASE("under LoRA a frozen linear layer keeps no input: only what the adapters read") {
  // Qwen3-4B (h = 2560, queries 4096, keys 1024, MLP 9728, 36 layers), bf16 LoRA r8 on q_proj and
  // v_proj with peft's fp32 adapters, 8 x 1024 tokens, SDPA, no checkpointing. Per token and layer:
  // attention 2h for the norm's input + (Q 4096 + K and V 2 x 1024 + the kernel's output 4096) x 2
  // = 25,600 (no 16-bit QKV input: the frozen q, k, v keep none, the adapters their fp32 casts);
  // MLP 2h + (gate, up, activation) 3 x 2 x 9728 = 63,488 (no gate/up input, no down input); the
  // frozen norms' fp32 copies 2 x 2 x 2560 = 10,240 and q/k norms 4 x 5120 = 20,480; the adapters
  // 2 x (2560 x 4 + 8 x 4) = 20,544. Sum 140,352 bytes.
  const Json result = transformers_bf16("qwen3-4b", {{"mode", "lora"},
                                                      {"lora", kLoraQV},
                                                      {"batch", 8},
                                                      {"context", 1024},
                                                      {"attention", "sdpa"},
                                                      {"gradient_checkpointing", false}});
  CHECK(line(result, "activations") == Approx(8192.0 * 36 * 140352));
}

TEST_CASE("transformers' loss holds three fp32 logit-sized tensors in its backward") {
  // nll_loss's dense gradient, the log-softmax's saved output and its gradient: 12 bytes per logit,
  // above the forward's end (bf16 logits 2 + fp32 copy 4 + log-softmax 4 = 10). LoRA r8 over
  // 8 x 1024 tokens: the backward pass's start is the step's peak.
  const Json result = transformers_bf16(
      "qwen3-4b", {{"mode", "lora"}, {"lora", kLoraQV}, {"batch", 8}, {"context", 1024}});
  CHECK(line(result, "logits") == Approx(8192.0 * 151936 * 12));
}

TEST_CASE(
    "under checkpointing the loss's backward and the recomputed layer come one after the other") {
  // Qwen3-4B LoRA r8 on q and v, 8 x 1024 tokens, checkpointed: the layers' inputs (36 x 8192 x
  // 2560 x 2 bytes) stay through the backward pass. The loss's backward (8192 x 151,936 x 12
  // bytes, 14.9 GB) comes first and frees the logits before the last layer is recomputed (2 x
  // 119,808 bytes per token, 2.0 GB): the backward pass's start, the larger, holds the inputs and
  // the logits, not the recomputed layer.
  const Json result = transformers_bf16("qwen3-4b", {{"mode", "lora"},
                                                      {"lora", kLoraQV},
                                                      {"batch", 8},
                                                      {"context", 1024},
                                                      {"gradient_checkpointing", true}});
  CHECK(line(result, "activations") == Approx(36.0 * 8192 * 2560 * 2));
  CHECK(line(result, "logits") == Approx(8192.0 * 151936 * 12));
}

TEST_CASE("FSDP keeps its root unit, the embeddings and the head, gathered through backward") {
  // Llama 3.1 8B full fine-tuning sharded with FSDP over 8 GPUs: its untied embedding and output
  // head (2 x 128,256 x 4096 parameters) stay gathered in bf16 from the forward's end on.
  const Json result = transformers_bf16("llama-3.1-8b", {{"mode", "full_finetune"},
                                                          {"gpus", 8},
                                                          {"sharding", "fsdp"},
                                                          {"batch", 8},
                                                          {"context", 4096}});
  CHECK(line(result, "root_unit") == Approx(2.0 * 128256 * 4096 * 2));
}
