// The architecture-aware memory model, through the "memory" question: the per-GPU breakdown of a
// concrete model (weights in every format, KV cache, activations, training states, parallelism,
// serving engines), the capacity answers, and its errors.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <random>

#include "support.hpp"
#include "api/analyzer_access.hpp"

using namespace gpufleet;

namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

Json memory(Json request) {
  request["question"] = "memory";
  if (!request.contains("model")) request["model"] = {{"name", "llama-3-8b"}};
  const Json answer = test::ask(test::shipped(), request);
  INFO(request.dump() << " -> " << answer.dump().substr(0, 600));
  REQUIRE(answer["ok"] == true);
  return answer["result"];
}

// The basis of one line of the per-GPU breakdown; "" when the line is absent.
std::string line_basis(const Json& result, const std::string& key) {
  for (const auto& l : result["per_gpu"]) {
    if (l["key"] == key) return l["basis"].get<std::string>();
  }
  return "";
}

using test::line;

const NamedModel& named(const std::string& key) {
  const NamedModel* m = catalog_of(test::shipped())->model(key);
  INFO(key);
  REQUIRE(m);
  return *m;
}

Json error_of(Json request) {
  request["question"] = "memory";
  if (!request.contains("model")) request["model"] = {{"name", "llama-3-8b"}};
  const Json answer = test::ask(test::shipped(), request);
  INFO(request.dump());
  REQUIRE(answer["ok"] == false);
  REQUIRE(!answer["errors"].empty());
  return answer["errors"];
}

bool has_error(const Json& errors, const std::string& code, const std::string& path) {
  for (const auto& e : errors) {
    if (e["code"] == code && e["path"] == path && e["file"] == "request") return true;
  }
  return false;
}

}  // namespace

TEST_CASE(
    "Llama-3-8B in bf16, 8K context, batch 1, on an A100-40GB: 14.96 GiB of weights, 128 KiB per "
    "token") {
  const Json r =
      memory({{"weight_format", "bf16"}, {"context", 8192}, {"batch", 1}, {"gpu", "A100-40GB"}});
  CHECK(r["model"]["parameters"] == 8030261248.0);
  CHECK(r["model"]["kv_cache_kib_per_token"] == 128.0);
  CHECK(r["weights_gib"].get<double>() == Approx(14.96).epsilon(0.01));
  CHECK(line(r, "weights") / kGiB == Approx(14.96).epsilon(0.01));
  CHECK(line(r, "kv_cache") == 8192.0 * 128 * 1024);
  CHECK(r["gpu"]["fits"] == true);
  CHECK(r["gpu"]["capacity_gib"] == 40.0);
  // The lines add up to the total.
  double sum = 0;
  for (const auto& l : r["per_gpu"]) sum += l["bytes"].get<double>();
  CHECK(sum == Approx(r["total_bytes"].get<double>()).epsilon(1e-6));
  CHECK(r["tensors_gib"].get<double>() <= r["total_gib"].get<double>());
}

TEST_CASE("the KV cache grows linearly with batch and context") {
  const double one = line(memory({{"batch", 1}, {"context", 2048}}), "kv_cache");
  REQUIRE(one == 2048.0 * 128 * 1024);
  CHECK(line(memory({{"batch", 4}, {"context", 2048}}), "kv_cache") == Approx(4 * one));
  CHECK(line(memory({{"batch", 1}, {"context", 4096}}), "kv_cache") == Approx(2 * one));
  CHECK(line(memory({{"batch", 3}, {"context", 6144}}), "kv_cache") == Approx(9 * one));
  // Generated tokens are cached too.
  CHECK(line(memory({{"batch", 1}, {"context", 1024}, {"new_tokens", 1024}}), "kv_cache") ==
        Approx(one));
}

TEST_CASE(
    "grouped-query attention caches less than the same model with as many KV heads as heads") {
  Json gqa = catalog_of(test::shipped())->model_config_doc["models"]["llama-3-8b"]["config"];
  Json mha = gqa;
  mha["num_key_value_heads"] = mha["num_attention_heads"];
  const Json a = memory({{"model", {{"hf_config", gqa}}}, {"context", 4096}});
  const Json b = memory({{"model", {{"hf_config", mha}}}, {"context", 4096}});
  CHECK(line(a, "kv_cache") < line(b, "kv_cache"));
  CHECK(line(b, "kv_cache") == Approx(4 * line(a, "kv_cache")));  // 32 / 8 heads
  CHECK(b["model"]["kv_cache_kib_per_token"] == 512.0);
}

TEST_CASE("a sliding window caps the KV cache at the window") {
  const auto& mistral = named("mistral-7b-v0.1");
  REQUIRE(mistral.arch.sliding_window == 4096);
  const double window_bytes =
      4096.0 * 128 * 1024;  // 32 layers x 2 x 8 KV heads x 128 x 2 bytes per token
  CHECK(line(memory({{"model", {{"name", "mistral-7b-v0.1"}}}, {"context", 32768}}), "kv_cache") ==
        Approx(window_bytes));
  CHECK(line(memory({{"model", {{"name", "mistral-7b-v0.1"}}}, {"context", 2048}}), "kv_cache") ==
        Approx(window_bytes / 2));
}

TEST_CASE("KV-cache formats: fp8 halves bf16, q8_0 stores 34 bytes per 32 elements") {
  const Json bf16 = memory({{"context", 4096}});
  const Json fp8 = memory({{"context", 4096}, {"kv_cache_format", "fp8"}});
  const Json q8 = memory({{"context", 4096}, {"kv_cache_format", "q8_0"}});
  CHECK(line(fp8, "kv_cache") == Approx(line(bf16, "kv_cache") / 2));
  CHECK(fp8["model"]["kv_cache_kib_per_token"] == 64.0);
  CHECK(line(q8, "kv_cache") == Approx(4096.0 * 2048 * 32 * 34 / 32));
  CHECK(q8["model"]["kv_cache_kib_per_token"] == 68.0);
}

TEST_CASE("weight formats: nf4 < int8 < bf16, with embeddings and the head left unquantized") {
  const ParameterCount& p = named("llama-3-8b").params;
  const double bf16 = line(memory({{"weight_format", "bf16"}}), "weights");
  const double int8 = line(memory({{"weight_format", "int8"}}), "weights");
  const double nf4 = line(memory({{"weight_format", "nf4"}}), "weights");
  CHECK(bf16 == 2 * p.total);
  CHECK(nf4 < int8);
  CHECK(int8 < bf16);
  // nf4 = 4.5 bits per linear weight (64-weight blocks, fp32 absmax) + 16-bit everything else.
  CHECK(nf4 > p.linear * 0.5625);
  CHECK(nf4 == Approx(p.linear * 4.5 / 8 + (p.total - p.linear) * 2).epsilon(1e-6));
  CHECK(int8 == Approx(p.linear + (p.total - p.linear) * 2).epsilon(1e-6));
}

TEST_CASE("GGUF Q4_K_M of Llama-3.1-8B weighs 4.58 GiB (llama.cpp quantize README)") {
  const Json r = memory({{"model", {{"name", "llama-3.1-8b"}}},
                         {"weight_format", "gguf_q4_k_m"},
                         {"engine", "llama.cpp"}});
  CHECK(line(r, "weights") / kGiB == Approx(4.58).epsilon(0.01));
}

TEST_CASE("training states: optimizer bytes per parameter") {
  const double params = named("llama-3-8b").params.total;
  const Json base = {{"mode", "full_finetune"}, {"context", 512}, {"master_weights", false}};
  auto with = [&](const char* optimizer) {
    Json request = base;
    request["optimizer"] = optimizer;
    return memory(request);
  };
  // bf16 parameters stepped by torch.optim.AdamW: two bf16 moments (zeros_like the parameter).
  CHECK(line(with("adamw"), "optimizer") == Approx(4 * params));
  CHECK(line(with("adamw_8bit"), "optimizer") == Approx(2 * params));
  CHECK(line(with("sgd"), "optimizer") == 0);
  CHECK(line(with("adamw"), "gradients") == Approx(2 * params));  // bf16 gradients
  CHECK(line(memory({{"context", 512}}), "optimizer") == 0);      // inference keeps none
}

TEST_CASE("paged optimizer states count in the device's memory, not in PyTorch's statistics") {
  const double params = named("llama-3-8b").params.total;
  const Json paged = {{"mode", "full_finetune"},
                      {"context", 512},
                      {"master_weights", false},
                      {"optimizer", "paged_adamw_8bit"},
                      {"gpu", "H100-SXM-80GB"}};
  Json plain = paged;
  plain["optimizer"] = "adamw_8bit";
  const Json p = memory(paged), n = memory(plain);
  // 80 GB leaves room for every page: the same 2 bytes per parameter sit on the GPU either way.
  CHECK(line(p, "optimizer") == Approx(2 * params));
  CHECK(line(n, "optimizer") == Approx(2 * params));
  // bitsandbytes' cudaMallocManaged pages are outside the caching allocator: what
  // torch.cuda.max_memory_allocated shows lacks them, nvidia-smi's used memory holds them.
  CHECK(p["tensors_gib"].get<double>() ==
        Approx(n["tensors_gib"].get<double>() - 2 * params / kGiB).margin(0.01));
  CHECK(p["total_gib"].get<double>() == Approx(n["total_gib"].get<double>()).margin(0.01));
}

TEST_CASE("LoRA trains only the adapters") {
  const Json r =
      memory({{"mode", "lora"}, {"lora", {{"rank", 8}, {"target_modules", {"q_proj", "v_proj"}}}}});
  // q_proj: 4096 -> 4096; v_proj: 4096 -> 1024 (8 KV heads x 128); 32 layers.
  const double expected = 8.0 * (4096 + 4096) * 32 + 8.0 * (4096 + 1024) * 32;
  CHECK(r["trainable_parameters"] == expected);
  CHECK(line(r, "optimizer") == Approx(8 * expected));
  CHECK(line(r, "weights") == Approx(2 * named("llama-3-8b").params.total).epsilon(0.001));
}

TEST_CASE("Adafactor under LoRA keeps statistics of the adapters only") {
  const Json lora = {{"mode", "lora"},
                     {"optimizer", "adafactor"},
                     {"lora", {{"rank", 8}, {"target_modules", {"q_proj", "v_proj"}}}}};
  const double trainable = memory(lora)["trainable_parameters"].get<double>();
  // Row + column statistics of the adapters, fp32: about 2 x trainable / 4096 x 4 bytes; the frozen
  // embeddings (525 M parameters) keep no state.
  CHECK(line(memory(lora), "optimizer") == Approx(trainable * 2 / 4096 * 4));
  const Json full = {{"mode", "full_finetune"}, {"optimizer", "adafactor"}, {"context", 512}};
  CHECK(line(memory(full), "optimizer") > 1e9);  // the full model's unfactored vectors and tables
}

TEST_CASE("ZeRO-2 over 8 GPUs divides gradients and optimizer states by 8, not the weights") {
  // A short context: both peak at the optimizer step, where every gradient is held.
  const Json one = memory({{"mode", "full_finetune"}, {"context", 128}});
  const Json zero2 =
      memory({{"mode", "full_finetune"}, {"context", 128}, {"gpus", 8}, {"sharding", "zero2"}});
  CHECK(line(zero2, "gradients") == Approx(line(one, "gradients") / 8));
  CHECK(line(zero2, "optimizer") == Approx(line(one, "optimizer") / 8));
  CHECK(line(zero2, "weights") == Approx(line(one, "weights")));
}

TEST_CASE("gradient checkpointing lowers the activations") {
  // 8 x 2048 tokens: without checkpointing the backward pass's start is the step's peak.
  const Json plain = memory({{"mode", "full_finetune"},
                             {"context", 2048},
                             {"batch", 8},
                             {"gradient_checkpointing", false}});
  const Json gc = memory({{"mode", "full_finetune"},
                          {"context", 2048},
                          {"batch", 8},
                          {"gradient_checkpointing", true}});
  CHECK(line(gc, "activations") < line(plain, "activations"));
  CHECK(gc["total_bytes"].get<double>() < plain["total_bytes"].get<double>());
}

TEST_CASE("tensor parallelism over 2 GPUs halves the weights and the KV cache per GPU") {
  const Json one = memory({{"context", 4096}});
  const Json tp2 = memory({{"context", 4096}, {"tensor_parallel", 2}});
  CHECK(line(tp2, "weights") == Approx(line(one, "weights") / 2).epsilon(0.01));
  CHECK(line(tp2, "kv_cache") == Approx(line(one, "kv_cache") / 2));
  CHECK(tp2["settings"]["gpus"] == 2.0);
}

TEST_CASE("vLLM on an A100-40GB reports its KV-cache pool and concurrent sequences") {
  const Json r = memory({{"engine", "vllm"}, {"gpu", "A100-40GB"}, {"max_model_len", 8192}});
  REQUIRE(r.contains("kv_cache_capacity"));
  const Json& kv = r["kv_cache_capacity"];
  CHECK(kv["tokens"].get<double>() > 0);
  CHECK(kv["concurrent_sequences"].get<double>() >= 1);
  // tokens x 128 KiB = the pool (to the rounding of GiB to 3 decimals).
  CHECK(kv["tokens"].get<double>() * 128 * 1024 / kGiB ==
        Approx(kv["gib"].get<double>()).epsilon(0.001));
  CHECK(kv["concurrent_sequences"].get<double>() == std::floor(kv["tokens"].get<double>() / 8192));
  // The pool is taken from gpu_memory_utilization (0.9 by default) of the device.
  CHECK(r["total_gib"].get<double>() <= 40.0);
  const Json smaller = memory({{"engine", "vllm"},
                               {"gpu", "A100-40GB"},
                               {"max_model_len", 8192},
                               {"gpu_memory_utilization", 0.7}});
  REQUIRE(smaller.contains("kv_cache_capacity"));
  CHECK(smaller["kv_cache_capacity"]["tokens"].get<double>() < kv["tokens"].get<double>());
  // Too small a share for weights and the profiled activations: no pool, and a note says why.
  const Json none = memory({{"engine", "vllm"},
                            {"gpu", "A100-40GB"},
                            {"max_model_len", 8192},
                            {"gpu_memory_utilization", 0.3}});
  CHECK_FALSE(none.contains("kv_cache_capacity"));
  CHECK_FALSE(none["notes"].empty());
}

TEST_CASE("vLLM releases: a version string picks the band of its profile run") {
  const EngineProfile& vllm = catalog_of(test::shipped())->memory.engines.at("vllm");
  CHECK(parse_engine_version("0.6.4-0.6.5 (main with PR #10511, 2024-12)") == 6004);
  CHECK(parse_engine_version("V1 engine, ~0.9.2-0.10 (2025-07)") == 9002);
  CHECK(parse_engine_version("~0.6.x") == 6000);
  CHECK(parse_engine_version("0.10") == 10000);
  CHECK(parse_engine_version("version not stated") == 0);
  CHECK(profile_band(vllm, "0.2.4")->generation == "v0");
  CHECK(profile_band(vllm, "0.7.3")->generation == "v0");  // V1 became the default in 0.8.0
  CHECK(profile_band(vllm, "V1 engine, ~0.8.4")->large_gpu_serve_batched_tokens == 0);
  CHECK(profile_band(vllm, "V0 engine, 0.9.1")->generation == "v0");
  CHECK(profile_band(vllm, "0.10.1")->large_gpu_serve_batched_tokens == 8192);
  CHECK(profile_band(vllm, "") == profile_band(vllm, "0.10"));
}

TEST_CASE("vLLM's profile run: the token budget and dummy requests of each release") {
  const NamedModel& m = named("llama-3-8b");
  const double h = m.arch.hidden, vocab = m.arch.vocab, I = m.arch.intermediate;
  auto layer = [&](double tokens) { return tokens * (3 * h + 3 * I) * 2; };
  auto sampler = [&](double rows) { return rows * vocab * 28; };
  auto profiled = [&](Json request) {
    request["engine"] = "vllm";
    return line(memory(request), "activations");
  };
  // V0 without chunked prefill profiles max(max_model_len, 2048) tokens in 256 dummy sequences;
  // beyond 32K tokens it chunks prefills at 2048.
  CHECK(profiled({{"engine_version", "0.6.5"}, {"gpu", "H100-SXM-80GB"}, {"max_model_len", 8192}}) ==
        Approx(std::max(layer(8192), 8192 * h * 2 + sampler(256))));
  CHECK(profiled({{"engine_version", "0.6.5"}, {"gpu", "H100-SXM-80GB"}, {"max_model_len", 65536}}) ==
        Approx(std::max(layer(2048), 2048 * h * 2 + sampler(256))));
  // V1 serves 2048 tokens per step on an A100 whatever the context, 8192 and 1024 requests on an
  // H100; the LLM class (offline) takes 8192 on the A100.
  const double a100 = profiled({{"gpu", "A100-80GB"}, {"max_model_len", 32768}});
  CHECK(a100 == Approx(std::max(layer(2048), 2048 * h * 2 + sampler(256))));
  CHECK(profiled({{"gpu", "A100-80GB"}, {"max_model_len", 32768}, {"engine_entrypoint", "offline"}}) ==
        Approx(std::max(layer(8192), 8192 * h * 2 + sampler(256))));
  CHECK(profiled({{"gpu", "H100-SXM-80GB"}, {"max_model_len", 32768}}) ==
        Approx(std::max(layer(8192), 8192 * h * 2 + sampler(1024))));
  // The request's own settings win.
  CHECK(profiled({{"gpu", "H100-SXM-80GB"},
                  {"max_num_batched_tokens", 32768},
                  {"max_num_seqs", 64}}) ==
        Approx(std::max(layer(32768), 32768 * h * 2 + sampler(64))));
  // The profiled peak is far below the one-log constant of 9.5 bytes per logit per token.
  CHECK(a100 < 2048 * vocab * 9.5);
}

TEST_CASE("vLLM releases that size the pool from free device memory also charge the CUDA context") {
  auto pool = [](const char* version) {
    const Json r = memory({{"engine", "vllm"},
                           {"gpu", "A100-80GB"},
                           {"max_model_len", 8192},
                           {"engine_version", version}});
    return line(r, "kv_cache");
  };
  const double context = line(memory({{"engine", "vllm"}, {"gpu", "A100-80GB"}}), "cuda_context");
  REQUIRE(context > 0);
  // 0.6.4 (vllm#9352) and V1 before 0.9.2 (vllm#19312) count everything on the device.
  CHECK(pool("0.6.5") - pool("0.6.4") == Approx(context));
  CHECK(pool("0.9.2") - pool("0.9.1") == Approx(context));
  CHECK(pool("0.6.3") == Approx(pool("0.6.5")));
}

TEST_CASE("vLLM 0.17+ profiles the Triton top-k/top-p sampler, not the sort of the vocabulary") {
  const NamedModel& m = named("llama-3-8b");
  const double h = m.arch.hidden, vocab = m.arch.vocab;
  auto profiled = [](const char* version) {
    return line(memory({{"engine", "vllm"}, {"gpu", "H100-SXM-80GB"}, {"max_model_len", 8192},
                        {"engine_version", version}}),
                "activations");
  };
  // 1024 dummy requests on an H100 sample one row of the vocabulary each.
  CHECK(profiled("0.16.0") == Approx(8192 * h * 2 + 1024 * vocab * 28));
  CHECK(profiled("0.17.0") == Approx(8192 * h * 2 + 1024 * vocab * 17.5));
  CHECK(profiled("0.19.0") == Approx(profiled("0.17.0")));
}

TEST_CASE("vLLM under tensor parallelism holds NCCL buffers outside PyTorch on NVLink GPUs only") {
  auto non_torch = [](const char* gpu, int tp) {
    return line(memory({{"engine", "vllm"}, {"gpu", gpu}, {"max_model_len", 8192},
                        {"tensor_parallel", tp}}),
                "non_torch");
  };
  const double mib = 1024.0 * 1024;
  CHECK(non_torch("H100-SXM-80GB", 1) == Approx(102 * mib).epsilon(0.001));
  CHECK(non_torch("H100-SXM-80GB", 2) == Approx((102 + 1864) * mib).epsilon(0.001));
  CHECK(non_torch("H100-SXM-80GB", 4) == Approx(non_torch("H100-SXM-80GB", 2)));
  // PCIe consumer GPUs without peer access: NCCL goes through host memory.
  CHECK(non_torch("RTX-4090", 2) == Approx(non_torch("RTX-4090", 1)));
  // The buffers come out of the KV pool.
  const Json tp2 = memory({{"engine", "vllm"}, {"gpu", "H100-SXM-80GB"}, {"max_model_len", 8192},
                           {"tensor_parallel", 2}});
  const double weights = line(tp2, "weights"), acts = line(tp2, "activations");
  const double budget = 0.9 * catalog_of(test::shipped())->gpu("H100-SXM-80GB")->usable_bytes();
  CHECK(line(tp2, "kv_cache") == Approx(budget - weights - acts - line(tp2, "non_torch")).epsilon(1e-6));
}

TEST_CASE("SGLang keeps its static share of the memory free before loading, less the weights") {
  const double mib = 1024.0 * 1024;
  const double device = catalog_of(test::shipped())->gpu("H100-SXM-80GB")->usable_bytes();
  auto serve = [](const char* gpu, int tp, double share = 0) {
    Json req = {{"engine", "sglang"}, {"gpu", gpu}, {"max_model_len", 8192}, {"tensor_parallel", tp}};
    if (share > 0) req["gpu_memory_utilization"] = share;
    return memory(req);
  };
  const Json one = serve("H100-SXM-80GB", 1);
  // No profiled forward pass: the share's remainder is left to activations, none is charged.
  CHECK(line(one, "activations") == 0);
  CHECK(line(one, "non_torch") == 0);
  // The pool takes its share whatever the batch: no largest batch or context is searched for.
  CHECK_FALSE(one["gpu"].contains("largest_batch"));
  const double free1 = device - line(one, "cuda_context");
  CHECK(line(one, "kv_cache") == Approx(0.88 * free1 - line(one, "weights")).epsilon(1e-9));
  // The default share falls with the tensor-parallel size, and NVLink groups hold 2058 MiB of
  // communication buffers before the weights load.
  const Json tp2 = serve("H100-SXM-80GB", 2);
  CHECK(line(tp2, "non_torch") == Approx(2058 * mib));
  const double free2 = device - line(tp2, "cuda_context") - line(tp2, "non_torch");
  CHECK(line(tp2, "kv_cache") == Approx(0.87 * free2 - line(tp2, "weights")).epsilon(1e-9));
  const Json tp8 = serve("H100-SXM-80GB", 8);
  CHECK(line(tp8, "kv_cache") == Approx(0.81 * free2 - line(tp8, "weights")).epsilon(1e-9));
  // PCIe GPUs without peer access: no such buffers.
  CHECK(line(serve("RTX-4090", 2), "non_torch") == 0);
  // A share the request names replaces the default.
  const Json asked = serve("H100-SXM-80GB", 1, 0.7);
  CHECK(line(asked, "kv_cache") == Approx(0.7 * free1 - line(asked, "weights")).epsilon(1e-9));
  // A share smaller than the weights leaves no pool, and a note says so.
  const Json none = memory({{"engine", "sglang"}, {"gpu", "A100-40GB"}, {"tensor_parallel", 1},
                            {"model", {{"name", "llama-3-70b"}}}, {"max_model_len", 8192}});
  CHECK_FALSE(none.contains("kv_cache_capacity"));
  CHECK_FALSE(none["notes"].empty());
}

TEST_CASE("FSDP with CPU offload keeps the largest unit's gradient on the GPU, ZeRO-3 none") {
  const NamedModel& m = named("llama-3-8b");
  auto offloaded = [](const char* sharding) {
    return memory({{"mode", "full_finetune"}, {"context", 2048}, {"gpus", 8},
                   {"sharding", sharding}, {"cpu_offload", true}, {"gradient_checkpointing", true}});
  };
  const double layer = m.params.linear / m.arch.layers;
  const double unit = std::max({layer, m.params.embedding, m.params.lm_head});
  CHECK(line(offloaded("fsdp"), "gradients") == Approx(unit * 2));  // bf16 gradients
  CHECK(line(offloaded("zero3"), "gradients") == 0);
  CHECK(line(offloaded("fsdp"), "optimizer") == 0);
}

TEST_CASE("CTranslate2 frees through cudaMallocAsync: no allocator cache beside its tensors") {
  // Release threshold 0 (model_config.json engines.ctranslate2.allocator_reserve_source): the
  // device holds the tensors at their peak and the 309 MiB runtime context, nothing else.
  const Json r = memory({{"engine", "ctranslate2"}, {"context", 4096}, {"batch", 4}});
  REQUIRE(line(r, "activations") > 0);
  CHECK(line(r, "allocator_reserve") == 0);
  // By hand: 4 x 4096 tokens x 128 KiB of KV; a prefill layer over 16384 tokens holds
  // 3 x 4096 + 3 x 14336 values per token in 2 bytes; + the weights and the context.
  CHECK(line(r, "kv_cache") == 4.0 * 4096 * 128 * 1024);
  CHECK(line(r, "activations") == Approx(16384.0 * (3 * 4096 + 3 * 14336) * 2));
  const double hand =
      line(r, "weights") + 4.0 * 4096 * 128 * 1024 + 16384.0 * 55296 * 2 + 309.0 * 1024 * 1024;
  CHECK(r["total_bytes"].get<double>() == Approx(hand).epsilon(1e-9));
}

TEST_CASE("vLLM with no room for a KV pool says what took the memory") {
  const Json r = memory({{"engine", "vllm"},
                         {"gpu", "A100-40GB"},
                         {"max_num_batched_tokens", 262144},
                         {"max_model_len", 8192}});
  CHECK_FALSE(r.contains("kv_cache_capacity"));
  REQUIRE_FALSE(r["notes"].empty());
  const std::string note = r["notes"][0].get<std::string>();
  CHECK(note.find("profiled activations") != std::string::npos);
  CHECK(note.find("leave no room for a KV cache") != std::string::npos);
}

TEST_CASE("largest batch and largest context are the last that fit") {
  SECTION("batch") {
    const Json base = {{"context", 8192}, {"gpu", "A100-40GB"}};
    const Json r = memory(base);
    const double largest = r["gpu"]["largest_batch"].get<double>();
    REQUIRE(largest >= 1);
    Json at = base, over = base;
    at["batch"] = largest;
    over["batch"] = largest + 1;
    CHECK(memory(at)["gpu"]["fits"] == true);
    CHECK(memory(over)["gpu"]["fits"] == false);
  }
  SECTION("context (below the model's window)") {
    const Json base = {{"model", {{"name", "llama-3.1-8b"}}}, {"batch", 8}, {"gpu", "A100-40GB"}};
    const Json r = memory(base);
    const double largest = r["gpu"]["largest_context"].get<double>();
    REQUIRE(largest >= 1);
    REQUIRE(largest < named("llama-3.1-8b").arch.max_positions);
    // The largest prompt beside the generated tokens the answer held (the road's 200 by default).
    REQUIRE(r["settings"]["new_tokens"] == 200.0);
    Json at = base, over = base;
    at["context"] = largest;
    over["context"] = largest + 1;
    at["new_tokens"] = over["new_tokens"] = 200;
    CHECK(memory(at)["gpu"]["fits"] == true);
    CHECK(memory(over)["gpu"]["fits"] == false);
  }
  SECTION("context is capped at the model's window") {
    CHECK(memory({{"gpu", "H200-SXM-141GB"}})["gpu"]["largest_context"] == 8192.0);
  }
}

TEST_CASE("a Hugging Face config in the request answers like the named model") {
  const Json config = catalog_of(test::shipped())->model_config_doc["models"]["llama-3-8b"]["config"];
  const Json settings = {
      {"context", 8192}, {"batch", 2}, {"gpu", "A100-40GB"}, {"mode", "full_finetune"}};
  Json by_name = settings, by_config = settings;
  by_name["model"] = {{"name", "llama-3-8b"}};
  by_config["model"] = {{"hf_config", config}};
  const Json a = memory(by_name), b = memory(by_config);
  CHECK(a["per_gpu"] == b["per_gpu"]);
  CHECK(a["gpu"] == b["gpu"]);
  CHECK(a["model"]["parameters"] == b["model"]["parameters"]);
  CHECK(b["model"]["model_type"] == "llama");
}

TEST_CASE("model names are found by key, alias and Hugging Face id, case-insensitively") {
  CHECK(memory({{"model", {{"name", "Meta-Llama-3-8B"}}}})["model"]["key"] == "llama-3-8b");
  CHECK(memory({{"model", {{"name", "meta-llama/Meta-Llama-3-8B"}}}})["model"]["key"] ==
        "llama-3-8b");
}

TEST_CASE("bad memory requests name the field") {
  CHECK(has_error(error_of({{"engine", "nosuch"}}), "unknown_name", "/engine"));
  CHECK(has_error(error_of({{"weight_format", "int3"}}), "unknown_name", "/weight_format"));
  CHECK(has_error(error_of({{"mode", "full_finetune"}, {"optimizer", "adamx"}}), "unknown_name",
                  "/optimizer"));
  CHECK(has_error(error_of({{"kv_cache_format", "int2"}}), "unknown_name", "/kv_cache_format"));
  CHECK(has_error(error_of({{"mode", "sleep"}}), "unknown_name", "/mode"));
  CHECK(has_error(error_of({{"gpu", "Z100"}}), "unknown_name", "/gpu"));
  CHECK(has_error(error_of({{"model", {{"name", "nosuch"}}}}), "unknown_name", "/model/name"));
  CHECK(
      has_error(error_of({{"model", {{"hf_config", "llama"}}}}), "wrong_type", "/model/hf_config"));
  CHECK(has_error(error_of({{"model", Json::object()}}), "missing_field", "/model"));
  CHECK(has_error(error_of({{"batch", 0}}), "out_of_range", "/batch"));
  CHECK(has_error(error_of({{"context", -5}}), "out_of_range", "/context"));
  CHECK(has_error(error_of({{"batch", "4"}}), "wrong_type", "/batch"));
  Json config = catalog_of(test::shipped())->model_config_doc["models"]["llama-3-8b"]["config"];
  config["num_hidden_layers"] = -1;
  CHECK(has_error(error_of({{"model", {{"hf_config", config}}}}), "out_of_range",
                  "/model/hf_config/num_hidden_layers"));
}

TEST_CASE("every model in every mode and weight format answers with finite numbers only") {
  const Catalog& c = *catalog_of(test::shipped());
  std::vector<std::string> formats, engines, gpus;
  for (const auto& [key, _] : c.memory.weight_formats) formats.push_back(key);
  for (const auto& [key, _] : c.memory.engines) engines.push_back(key);
  for (const auto& [key, _] : c.gpus) gpus.push_back(key);
  const std::vector<std::string> modes{"load_only", "inference", "full_finetune",
                                       "lora",      "qlora",     "pretraining"};
  REQUIRE(formats.size() >= 10);
  std::mt19937 rng(20261123);
  auto pick = [&](const std::vector<std::string>& items) {
    return items[std::uniform_int_distribution<std::size_t>(0, items.size() - 1)(rng)];
  };
  int answered = 0, refused = 0;
  for (const auto& model : c.models) {
    for (const auto& mode : modes) {
      for (const auto& format : formats) {
        Json request{{"question", "memory"},
                     {"model", {{"name", model.key}}},
                     {"mode", mode},
                     {"weight_format", format}};
        // Every fourth request also varies the rest: engine, parallelism, GPU (and its bisections).
        if (answered % 4 == 0) {
          request.update({{"engine", pick(engines)},
                          {"batch", std::uniform_int_distribution<int>(1, 64)(rng)},
                          {"context", std::uniform_int_distribution<int>(1, 32768)(rng)},
                          {"new_tokens", std::uniform_int_distribution<int>(0, 512)(rng)},
                          {"gpus", 8},
                          {"tensor_parallel", std::uniform_int_distribution<int>(1, 2)(rng)},
                          {"sharding", pick({"none", "zero1", "zero2", "zero3", "fsdp"})},
                          {"gradient_checkpointing", std::bernoulli_distribution(0.5)(rng)},
                          {"cpu_offload", std::bernoulli_distribution(0.2)(rng)},
                          {"kv_cache_format", pick({"fp16", "bf16", "fp8", "q8_0", "q4_0"})},
                          {"gpu", pick(gpus)}});
        }
        INFO(request.dump());
        const Json answer = analyze(test::shipped(), request);
        ++answered;
        if (answer["ok"] != true) {
          // The one refusal a valid request may meet: a tensor-parallel degree the engines cannot
          // shard the model with (gpt2-xl's 25 heads at TP 2), refused at /tensor_parallel with why.
          REQUIRE(request.value("tensor_parallel", 1) > 1);
          REQUIRE(answer["errors"].size() == 1);
          const Json& e = answer["errors"][0];
          CHECK(e["code"] == "cannot_answer");
          CHECK(e["path"] == "/tensor_parallel");
          CHECK_THAT(e["message"].get<std::string>(), Catch::Contains("does not divide") || Catch::Contains("neither divides"));
          ++refused;
          continue;
        }
        REQUIRE(test::non_finite_numbers(answer) == 0);
        CHECK(answer["result"]["total_bytes"].get<double>() > 0);
      }
    }
  }
  CHECK(answered == static_cast<int>(c.models.size() * modes.size() * formats.size()));
  CHECK(refused < answered / 20);  // the refusals are the odd head counts, not the rule
}

TEST_CASE("an estimate without its lines (a sweep's candidates) has the same figures as the explained one") {
  const Catalog& c = *catalog_of(test::shipped());
  std::vector<MemoryQuestion> questions;
  MemoryQuestion serve;  // vLLM's pool on one 80 GB GPU
  serve.arch = named("llama-3.1-8b").arch;
  serve.mode = TrainMode::kInference;
  serve.engine = "vllm";
  serve.gpu_memory_bytes = 80 * kGiB;
  serve.sequence = 1000;
  serve.new_tokens = 200;
  questions.push_back(serve);
  MemoryQuestion dynamic = serve;  // transformers' growing cache at batch 4
  dynamic.engine = "transformers";
  dynamic.batch = 4;
  questions.push_back(dynamic);
  MemoryQuestion train;  // full fine-tuning sharded over 8 GPUs, checkpointed, AdamW
  train.arch = named("llama-3.1-8b").arch;
  train.mode = TrainMode::kFullFinetune;
  train.engine = "transformers";
  train.compute = "bf16";
  train.gpus = 8;
  train.sharding = "zero3";
  train.master_weights = true;
  train.gradient_checkpointing = true;
  train.sequence = 2048;
  questions.push_back(train);
  for (const MemoryQuestion& q : questions) {
    INFO(q.engine << " mode " << static_cast<int>(q.mode));
    MemoryQuestion plain = q;
    plain.explain = false;
    const MemoryAnswer full = estimate_memory(c.memory, q), bare = estimate_memory(c.memory, plain);
    REQUIRE(full.estimate);
    REQUIRE(bare.estimate);
    CHECK(full.estimate->lines.size() >= 3);
    CHECK(bare.estimate->lines.empty());
    CHECK(bare.estimate->total_bytes == full.estimate->total_bytes);
    CHECK(bare.estimate->tensor_bytes == full.estimate->tensor_bytes);
    CHECK(bare.estimate->reserved_bytes == full.estimate->reserved_bytes);
    CHECK(bare.estimate->weights_per_gpu_bytes == full.estimate->weights_per_gpu_bytes);
    CHECK(bare.estimate->kv_cache_bytes == full.estimate->kv_cache_bytes);
    CHECK(bare.estimate->kv_pool_bytes == full.estimate->kv_pool_bytes);
    CHECK(bare.estimate->max_concurrent_sequences == full.estimate->max_concurrent_sequences);
  }
}

TEST_CASE("torch.optim's states take the parameters' dtype unless an fp32 master copy is stepped") {
  const double params = named("llama-3-8b").params.total;
  const Json bf16 = memory({{"mode", "full_finetune"}, {"context", 512}, {"master_weights", false}});
  CHECK(line(bf16, "optimizer") == Approx(4 * params));  // 2 moments x 2 bytes
  CHECK(line(bf16, "master_weights") == 0);
  const Json master = memory({{"mode", "full_finetune"}, {"context", 512}, {"master_weights", true}});
  CHECK(line(master, "optimizer") == Approx(8 * params));  // the optimizer steps the fp32 copy
  CHECK(line(master, "master_weights") == Approx(4 * params));
  const Json fp32 = memory({{"mode", "full_finetune"}, {"context", 512}, {"weight_format", "fp32"}});
  CHECK(line(fp32, "optimizer") == Approx(8 * params));
  // bitsandbytes' 8-bit states and LoRA's fp32 adapters are not the parameters' dtype.
  const Json lora = memory({{"mode", "lora"}, {"lora", {{"rank", 8}, {"target_modules", {"q_proj"}}}}});
  CHECK(line(lora, "optimizer") == Approx(8 * lora["trainable_parameters"].get<double>()));
  CHECK_THAT(line_basis(bf16, "optimizer"), Catch::Contains("no fp32 master copy"));
}

TEST_CASE("attention implementations: eager keeps the scores, sdpa runs fused unless fp32 meets GQA") {
  const Architecture& a = named("llama-3-8b").arch;  // 32 heads over 8 KV heads: grouped-query
  // 16 sequences: the backward pass's start, which holds the activations, is the step's peak.
  const double s = 1024, layers = a.layers * 16, heads = a.heads;
  auto acts = [&](Json extra) {
    Json request = {{"mode", "full_finetune"},
                    {"context", s},
                    {"batch", 16},
                    {"gradient_checkpointing", false}};
    for (auto& [k, v] : extra.items()) request[k] = v;
    return line(memory(request), "activations");
  };
  const double sdpa = acts(Json::object());  // transformers' default
  CHECK(acts({{"attention", "sdpa"}}) == Approx(sdpa));
  CHECK(acts({{"attention", "flash_attention_2"}}) == Approx(sdpa));
  CHECK(acts({{"flash_attention", true}}) == Approx(sdpa));
  // Eager in bf16: the fp32 softmax output and the bf16 copy the value matmul keeps, 6 bytes per score.
  const double eager = acts({{"attention", "eager"}});
  CHECK(eager - sdpa == Approx(layers * heads * s * s * 6));
  CHECK(acts({{"flash_attention", false}}) == Approx(eager));
  // fp32 inputs: flash takes 16-bit only and the efficient kernel no GQA, so the math kernel keeps
  // the fp32 softmax (4 bytes per score), as eager does.
  const Json fp32 = {{"weight_format", "fp32"}};
  Json fp32_sdpa = fp32, fp32_eager = fp32, fp32_flash = fp32;
  fp32_eager["attention"] = "eager";
  fp32_flash["attention"] = "flash_attention_2";
  CHECK(acts(fp32_sdpa) == Approx(acts(fp32_eager)));
  CHECK(acts(fp32_sdpa) - acts(fp32_flash) == Approx(layers * heads * s * s * 4));
  // Without grouped-query attention (Llama 2 7B) the efficient kernel takes fp32: no scores.
  Json mha = {{"model", {{"name", "llama-2-7b"}}},
              {"mode", "full_finetune"},
              {"context", s},
              {"batch", 16},
              {"weight_format", "fp32"},
              {"gradient_checkpointing", false}};
  const double mha_sdpa = line(memory(mha), "activations");
  mha["attention"] = "flash_attention_2";
  CHECK(mha_sdpa == Approx(line(memory(mha), "activations")));
  CHECK(has_error(error_of({{"attention", "xformers"}}), "unknown_name", "/attention"));
  CHECK(has_error(error_of({{"attention", "eager"}, {"flash_attention", true}}), "cannot_answer", "/flash_attention"));
}

TEST_CASE("LoRA without checkpointing: frozen layers keep no input, adapted ones an fp32 cast") {
  // 32 x 512 tokens: full fine-tuning peaks at the backward pass's start, as LoRA does.
  const Json full = memory({{"mode", "full_finetune"},
                            {"context", 512},
                            {"batch", 32},
                            {"gradient_checkpointing", false}});
  auto lora = [&](double dropout) {
    return memory(
        {{"mode", "lora"},
         {"context", 512},
         {"batch", 32},
         {"gradient_checkpointing", false},
         {"lora", {{"rank", 8}, {"target_modules", {"q_proj", "v_proj"}}, {"dropout", dropout}}}});
  };
  // q_proj and v_proj take the 4096-wide hidden state: peft's fp32 cast of it (4 bytes) and
  // lora_A's rank-8 fp32 output, over 32 layers and 512 tokens. The frozen layers keep no input
  // (autograd saves a matmul's input for its weight's gradient only): not the 16-bit inputs of
  // q/k/v, of gate/up and of down_proj (2 x (4096 + 4096 + 14336) bytes) that full training keeps,
  // while SDPA's kernel keeps the output projection's input as its output; transformers'
  // RMSNorms, whose weights are frozen, keep no normed input (2 bytes per element of both norms).
  const double per_token = 32 * (2 * (4096 * 4 + 8 * 4) - 2 * 2 * 4096 - 2 * (4096 + 4096 + 14336));
  CHECK(line(lora(0), "activations") - line(full, "activations") == Approx(32 * 512 * per_token));
  // With lora_dropout the dropout's mask (1 byte) and fp32 output are kept instead of the cast.
  CHECK(line(lora(0.05), "activations") - line(lora(0), "activations") ==
        Approx(1.0 * 32 * 512 * 32 * 2 * 4096));
  CHECK(has_error(error_of({{"mode", "lora"}, {"lora", {{"dropout", 2}}}}), "out_of_range", "/lora/dropout"));
}

TEST_CASE("the loss upcasts 16-bit logits to fp32, and does not copy fp32 logits") {
  // An engine whose loss backward holds no more than its forward (accelerate's profile has no
  // eager_loss_backward): the forward's end, logits and their fp32 copy and log-softmax.
  const double vocab = named("llama-3-8b").arch.vocab;
  // 32 x 512 tokens: the backward pass's start, which holds the logits, is the step's peak.
  const Json bf16 = memory({{"mode", "full_finetune"},
                            {"context", 512},
                            {"batch", 32},
                            {"gradient_checkpointing", false},
                            {"engine", "accelerate"}});
  const Json fp32 = memory({{"mode", "full_finetune"},
                            {"context", 512},
                            {"batch", 32},
                            {"gradient_checkpointing", false},
                            {"weight_format", "fp32"},
                            {"engine", "accelerate"}});
  CHECK(line(bf16, "logits") == Approx(32 * 512 * vocab * (2 + 4 + 4)));
  CHECK(line(fp32, "logits") == Approx(32 * 512 * vocab * (4 + 4)));
}
