// The throughput model ("estimate" question, core/src/throughput.cpp): the must-show
// figures, the roofline's arithmetic, properties that follow from it, ranking by $ per token with
// latency targets, and the accuracy summary over the throughput dev cases.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "support.hpp"
#include "pricing/prices.hpp"
#include "support/text.hpp"

using namespace gpufleet;

namespace {

Json estimate(Json request) {
  request["question"] = "estimate";
  const Json r = test::ask(test::shipped(), request);
  INFO(r.dump().substr(0, 600));
  REQUIRE(r["ok"] == true);
  return r["result"];
}

Json llama8b(const std::string& gpu, const std::string& format = "fp8", double concurrency = 64) {
  return {{"model", {{"name", "llama-3.1-8b"}}},
          {"weight_format", format},
          {"gpu", gpu},
          {"input_tokens", 1000},
          {"output_tokens", 1000},
          {"concurrency", concurrency}};
}

}  // namespace

TEST_CASE("estimate: Llama 3.1 8B fp8 on an H100, 1000 in / 1000 out at 64 concurrent requests") {
  const Json r = estimate(llama8b("H100"));
  const Json& e = r["inference"];
  CHECK(r["device"]["gpu"] == "H100-SXM-80GB");  // "H100" means the SXM part most instances carry
  CHECK(e["prefill"]["bound"] == "compute");
  CHECK(e["decode"]["bound"] == "memory bandwidth");
  CHECK(e["time_to_first_token_ms"].get<double>() > 0);
  // Throughput = concurrency x output / (batch prefill + output x one decode step).
  const double tps =
      64 * 1000 /
      ((e["batch_prefill_ms"].get<double>() + 1000 * e["decode_step_ms"].get<double>()) /
       1000);
  CHECK(e["output_tokens_per_s"].get<double>() == Approx(tps).epsilon(0.01));
  // Its TPOT is the capacity's: capacity x TPOT = concurrency (Little's law).
  CHECK(e["output_tokens_per_s"].get<double>() * e["time_per_output_token_ms"].get<double>() / 1000 ==
        Approx(64).epsilon(0.002));
  // $ per 1M output tokens = $/h / (tokens/s x 3600) x 1e6 on the instance it was priced on.
  const double usd = r["instance"]["usd_per_hour"].get<double>() /
                     (e["output_tokens_per_s"].get<double>() *
                      r["instance"]["model_copies"].get<double>() * 3600) *
                     1e6;
  CHECK(e["usd_per_million_output_tokens"].get<double>() == Approx(usd).epsilon(0.01));
  // Decode reads the fp8 weights and the KV cache of 64 sequences at the mean context each step.
  const double bytes = r["model"]["weights_gb"].get<double>() * 1e9 +
                       64 * 1500 * 131072.0;  // 128 KiB of KV per token
  CHECK(e["decode"]["memory_ms"].get<double>() ==
        Approx(bytes / (3350e9 * 0.75) * 1e3).epsilon(0.03));
}

TEST_CASE(
    "estimate: more bandwidth, fewer weight bytes and tensor parallelism shorten the decode step") {
  const double h100 = estimate(llama8b("H100"))["inference"]["time_per_output_token_ms"];
  const double h200 = estimate(llama8b("H200"))["inference"]["time_per_output_token_ms"];
  const double bf16 = estimate(llama8b("H100", "bf16"))["inference"]["time_per_output_token_ms"];
  Json tp2 = llama8b("H100");
  tp2["tensor_parallel"] = 2;
  tp2["gpus"] = 2;
  const double split = estimate(tp2)["inference"]["time_per_output_token_ms"];
  CHECK(h200 < h100);
  CHECK(bf16 > h100);
  CHECK(split < h100);
  // More concurrent requests: more tokens per second, each token a little later.
  const Json one = estimate(llama8b("H100", "fp8", 1))["inference"];
  const Json many = estimate(llama8b("H100", "fp8", 128))["inference"];
  CHECK(many["output_tokens_per_s"].get<double>() > 10 * one["output_tokens_per_s"].get<double>());
  CHECK(many["time_per_output_token_ms"].get<double>() >
        one["time_per_output_token_ms"].get<double>());
}

TEST_CASE(
    "estimate: training throughput, time and cost follow 6N FLOPs per token at the GPU's MFU") {
  const Json r = estimate({{"model", {{"name", "llama-3.1-8b"}}},
                           {"weight_format", "bf16"},
                           {"instance", "p5.48xlarge"},
                           {"phase", "training"},
                           {"context", 2048},
                           {"dataset_tokens", 1e9},
                           {"tensor_parallel", 1},
                           {"gradient_checkpointing", false},
                           {"gpus", 8}});
  const Json& t = r["training"];
  // Attention, 12 x 32 layers x 4096 x 2048 FLOPs per token, at the H100's share of the matmuls'
  // rate (training_attention); the rest at the MFU.
  const double attention = 12.0 * 32 * 4096 * 2048;
  const CatalogLoad load = load_catalog(test::config_sources());
  REQUIRE(load.catalog);
  const double share = load.catalog->throughput.training_attention.at("H100");
  const double matmul_rate = load.catalog->throughput.training_mfu.at("H100-SXM-80GB");
  const double flops = t["gflop_per_token"].get<double>() * 1e9, matmuls = flops - attention;
  // Outside the matmuls: the loss over 128,256 logits (4 accesses of 2 bytes) and AdamW's step
  // once per 2048-token micro-batch over the eighth of the 8.03 B parameters whose fp32 states
  // this GPU holds (the road's ZeRO-3 recipe: 21 passes of 4 bytes, then the bf16 copy's 6), both
  // at the H100's 3,350 GB/s x 0.887.
  const double stream = 3350e9 * 0.887;
  const double loss_s = 128256.0 * 4 * 2 / stream;
  const double optimizer_s = 8.030261248e9 / 8 * (21 * 4 + 6) / stream / 2048;
  // transformers, the training engine, runs each layer's elementwise ops one by one: 606,208
  // bytes per layer's forward, twice that backward (throughput_training_test.cpp).
  const double layers_s = 32 * 606208.0 * 3 / stream;
  CHECK(1 / t["tokens_per_s_per_gpu"].get<double>() ==
        Approx((matmuls + attention / share) / (989.5e12 * matmul_rate) + loss_s + optimizer_s +
               layers_s)
            .epsilon(0.001));
  // The MFU shown is the whole step's: model FLOPs per second over the peak, below the matmuls'
  // rate by attention's slower share.
  CHECK(t["mfu"].get<double>() ==
        Approx(t["tokens_per_s_per_gpu"].get<double>() * flops / 989.5e12).epsilon(0.001));
  CHECK(t["mfu"].get<double>() < matmul_rate);
  CHECK(t["gpu_hours"].get<double>() ==
        Approx(1e9 / t["tokens_per_s_per_gpu"].get<double>() / 3600).epsilon(0.01));
  CHECK(t["usd_on_demand"].get<double>() > 0);
}

TEST_CASE("training under tensor parallelism waits for four all-reduces per layer, six with full recomputation") {
  const CatalogLoad load = load_catalog(test::config_sources());
  REQUIRE(load.catalog);
  const ThroughputConstants& k = load.catalog->throughput;
  ThroughputQuestion q;
  q.arch = load.catalog->model("llama-3.1-70b")->arch;
  q.params = count_parameters(q.arch);
  q.device = load.catalog->device(*load.catalog->gpu("H100"));
  q.compute = "bf16";
  q.sequence = 8192;
  CHECK_THAT(estimate_training(k, q).basis, !Catch::Contains("all-reduces"));
  // One sequence's activations (8192 x 8192 x 2 bytes) in a ring over 8 GPUs on 450 GB/s NVLink.
  const double allreduce_s = k.allreduce_latency_us * 1e-6 +
                             2.0 * 7 / 8 * 8192 * 8192 * 2 / (450e9 * k.interconnect_efficiency);
  for (const bool recompute : {false, true}) {
    q.full_recompute = recompute;
    q.tensor_parallel = 1;
    const TrainingEstimate alone = estimate_training(k, q);
    q.tensor_parallel = 8;
    const TrainingEstimate t = estimate_training(k, q);
    const double per_token = (recompute ? 6 : 4) * 80 * allreduce_s / 8192;
    CHECK(1 / t.tokens_per_s_per_gpu == Approx(1 / alone.tokens_per_s_per_gpu + 8 * per_token).epsilon(1e-9));
    CHECK_THAT(t.basis, Catch::Contains(std::string(recompute ? "6" : "4") + " tensor-parallel all-reduces per layer"));
  }
}

TEST_CASE("ranking by $ per 1M output tokens honours the latency target") {
  const Json base = {{"model", {{"name", "llama-3.1-70b"}}},
                     {"weight_format", "fp8"},
                     {"rank", true},
                     {"input_tokens", 1000},
                     {"output_tokens", 500},
                     {"limit", 1000}};
  Json loose = base, tight = base;
  loose["max_tpot_ms"] = 60;
  tight["max_tpot_ms"] = 25;
  const Json a = estimate(loose), b = estimate(tight);
  REQUIRE(a["ranked"].size() > 3);
  double previous = 0;
  for (const auto& row : a["ranked"]) {
    CHECK(row["usd_per_million_output_tokens"].get<double>() >= previous);
    previous = row["usd_per_million_output_tokens"].get<double>();
    CHECK(row["time_per_output_token_ms"].get<double>() <= 60);
  }
  for (const auto& row : b["ranked"]) CHECK(row["time_per_output_token_ms"].get<double>() <= 25);
  CHECK(b["ranked"].size() <= a["ranked"].size());  // a tighter target never adds candidates
  for (const auto& x : a["excluded"]) CHECK_FALSE(x["reason"].get<std::string>().empty());
  // A priced GPU the catalog gives no speed (the RTX PRO 6000 of G7e) is listed with that reason,
  // not left out without a word.
  bool g7e = false;
  for (const auto& x : a["excluded"]) {
    if (x["instance"].get<std::string>().rfind("g7e.", 0) != 0) continue;
    g7e = true;
    CHECK_THAT(x["reason"].get<std::string>(), Catch::Contains("no memory bandwidth or TFLOPS"));
  }
  CHECK(g7e);
}

TEST_CASE("estimate refuses what it cannot estimate, naming the field") {
  Json no_specs = llama8b("RTX-PRO-6000-Server");
  Json r = test::ask(test::shipped(), (no_specs["question"] = "estimate", no_specs));
  REQUIRE(r["ok"] == false);
  CHECK(r["errors"][0]["path"] == "/gpu");
  Json clash = llama8b("A100-40GB");
  clash["instance"] = "p5.48xlarge";
  clash["question"] = "estimate";
  r = test::ask(test::shipped(), clash);
  REQUIRE(r["ok"] == false);
  CHECK(r["errors"][0]["path"] == "/instance");
}

TEST_CASE("throughput summary over the dev cases: the figures reached, and the earlier cases' bounds tightened") {
  Json cases =
      Json::parse(test::read_file(test::source_path("tests/data/cases/throughput_cases_dev.json")));
  auto summary = [](const Json& c) {
    const Json r = test::ask(test::shipped(), {{"question", "accuracy"}, {"cases", c}});
    REQUIRE(r["ok"] == true);
    return r["result"]["summary"]["throughput"];
  };
  // The targets are median <= 10 % and p90 <= 25 %. Over all 88 cases the median is met
  // (7.49 %) and so is the p90 (24.73 %): 8.16 % / 28.27 % before FP8 matmuls ran at their GPU's
  // measured share of peak at their own size (7.82 % / 26.12 %), training under tensor
  // parallelism waited for its all-reduces (7.99 % / 24.73 %: torchtitan's 70B FSDP x TP +73 ->
  // +15 %; NeMo's 70B at TP 4 and Llama 3's 405B at TP 8 fall 10-13 points to -12 %) and vLLM's
  // multi-step scheduling paid its host step once per num_scheduler_steps decode steps. Still above
  // 25 %: FP8 short prefill (-47 %), long-context AWQ decode (now -5 %, below), MT-NLG's pipeline,
  // MLPerf's offline batch (-28 %, -32 %; see below), vLLM 0.6.0's 405B on MI300X (+39 %),
  // Llama-2-13B on Trainium (-34 %) and torchtitan's Float8 8B runs on 500 W H100s (+25 %,
  // +28 %). The bounds hold the figures reached.
  Json measured_here = Json::array(), others = Json::array();
  for (const auto& c : cases) {
    (c["id"].get<std::string>().rfind("MEAS-", 0) == 0 ? measured_here : others).push_back(c);
  }
  // The 41 speeds scripts/measure wrote on one H200 (transformers generate at batch 1 and 8, eager
  // and SDPA; training steps of 2 x 1024 tokens): 65.21 % / 205.24 % when they were added
  // (training's optimizer step, recomputation and eager attention, and the host's launches).
  // transformers' kernels per layer as profiled on 5.17 by attention implementation and model type
  // (Qwen3 eager b1 decode +78 -> +9 %, Llama eager b1 +35 -> +3 %, Qwen3 eager b1 prefill +145 ->
  // +50 %; GPT-2 XL's SDPA decode +162 -> +393 %: its layers launch 21 kernels, not 40, and the
  // cuDNN graph its SDPA steps build is not modelled) and eager attention's 32 bytes per score
  // in prefill (Qwen3 eager b8 x 2048 +254 -> +38 %, Llama +117 -> +23 %): 39.77 % / 193.44 %.
  // The batched decode cases compare decode steps with decode steps (their metric was
  // output_tokens_per_second, which adds the prompt's pass the measurement left out; Qwen3 fp32 b4
  // -44 -> -1 %, Llama SDPA b8 +4 -> +18 %): 39.22 % / 193.44 %. transformers' elementwise
  // kernels in a prompt pass (84 x hidden + 28 x query + 32 x key + 10 x MLP bytes per token and
  // layer; Qwen3 SDPA b8 x 2048 prefill +54 -> +4 %, Llama SDPA +24 -> +1 %, Qwen3 eager +38 ->
  // +17 %, Llama eager +23 -> +8 %): 31.98 % / 193.44 %.
  // Training (merged with the above; figures of that branch alone): 35.28 % / 145.03 % with the training step's AdamW pass, checkpointing's second forward, eager
  // attention's scores, autocast's casts and LoRA's 4N FLOPs with peft's fp32 adapters: its 21
  // MEAS-*-TRAIN cases 65.21 % / 195.50 % -> 34.44 % / 60.31 % (qwen3-4b bf16 sdpa +65 -> +26 %,
  // amp eager +158 -> +36 %, sdpa gc +193 -> +79 %; llama-3.1-8b LoRA eager gc +72 -> +14 %; fp32
  // -32 -> -34 %, gpt2-medium +133 -> +116 %). transformers' elementwise ops one kernel each
  // (norms, activation, rotary embeddings, sums): 32.35 % / 145.03 %, the TRAIN cases 19.58 % /
  // 39.95 % (gpt2-medium +116 -> +41 %, gpt2-xl +60 -> +17 %, qwen3-4b bf16 sdpa +26 -> +12 %,
  // llama-3.1-8b full sdpa -7 -> -14 %).
  // Both together: 17.27 % / 56.92 % (the TRAIN cases 19.58 % / 39.95 %, DEC and PRE 12.97 % / 172.81 %).
  const Json here = summary(measured_here);
  INFO(here.dump());
  // Then the 20 speeds of the small plan (Qwen2/Qwen3 0.5-1.7B), kept apart until these
  // mechanisms were judged on them (114.75 % / 317.94 % with the kernels per layer alone, 60.94 % /
  // 197.29 % with the training step: SDPA decode of three of the four models 3-4x over, the cuDNN
  // graph not modelled; training of the 0.5-0.6B models 61-172 % over): 61 cases at 19.58 % /
  // 172.10 %.
  CHECK(here["n"].get<double>() == 61);
  CHECK(here["median_abs_err_pct"].get<double>() <= 19.6);
  CHECK(here["p90_abs_err_pct"].get<double>() <= 172.2);
  cases = others;
  const Json all = summary(cases);
  INFO(all.dump());
  // Round 3 added 12 batch-1 decode cases from the Qwen speed benchmarks (transformers generate
  // and vLLM 0.4.2): 100 cases at 7.18 % / 27.76 %. transformers' eager host time fit the Qwen3
  // runs on H20 within 3 % but put the Qwen2 runs on A100 (transformers 4.38.2, PyTorch 2.1) 35-53
  // % over; with the A100's own host time per kernel (throughput_model.eager_us_per_kernel, from
  // the Qwen2.5 benchmark's A100 rows, none of them a case) they are within -8 to +4 %: 6.72 %
  // / 24.06 %. Round 4 added SGLang's DeepSeek-V3 decode on 8 x B200 (batch 1, 32) and 8 x MI300X
  // (batch 4, low): the cases SGLang's MLA + MoE layer time is calibrated on; 102 cases at 7.18 %
  // / 27.48 %, 6.72 % / 23.97 % with the A100's host time per kernel. Training's attention at its
  // own rate (training_attention: torchtitan's Float8 8B runs +25 and +28 -> +9 and +11 %, its 70B
  // +15 -> +8 %; Llama 3's 405B at 131k tokens +6 -> -14 %): 6.72 % / 22.42 %. Round 5 added
  // llm-foundry's runs at long sequences, a 125M model and 512 GPUs, and Llama 2 70B's GPU-hours:
  // 110 cases at 6.26 % / 22.23 %. AutoAWQ's decode attention, one thread block per head over the
  // whole context (head_block_gb_per_s, from README rows that are no case), brings its long-context
  // decode (D16) from +45 % to -5 %: 5.75 % / 21.89 %. MLPerf's Llama 2 70B cases at the dataset's
  // mean prompt (222.3 tokens, not the 512 assumed) and, on H100, the submissions' own TP 2 and
  // 896-sequence batch: S12 -28 -> +9 %, S16 -32 -> +5 %, but B200's FP4 run (S14) -4 -> +49 % (no
  // measured FP4 share of peak): 5.75 % / 20.70 %. Inference passes stream at the read-only
  // benchmark's share (Dot; an MI300X x0.769 of the H100's, not Triad's x0.871): AZ-MI-8B-2048-2048
  // +20.5 -> +12.8 %, AZ-MI-405B-2048-2048 +22.4 -> +21.2 %, AZ-MI-8B-128-2048 -0.3 -> -4.7 %: 5.75
  // % / 20.63 %. Training's loss over the vocabulary's logits (4 accesses per logit at the Triad
  // share): MPT-125M (T33) +21.9 -> +17.3 %: 5.75 % / 19.86 %. Activation checkpointing now runs
  // the forward again (llm-foundry's own HFU column, MFU x 8/6, says the GPUs did): its
  // checkpointed runs, whose matmul rate the figure from its runs without checkpointing undershoots
  // (MPT-70B's HFU is 55-57 %, MPT-7B's MFU 46 %), fall: T4 -0.6 -> -25.5 %, T5 +2.5 -> -23.1 %, T9
  // +3.0 -> -22.8 %, T10 +7.4 -> -19.4 %, T31 +5.1 -> -21.1 %, TT-70B-2D +13.0 -> -8.0 %;
  // Megatron-LM's 1T (T21) reports the FLOPs its GPUs ran, recomputation included (-2.1 -> -0.4 %
  // as hardware_tflops_per_gpu); LLaMA-65B (T14) checkpoints selectively (+10.8 %, unchanged): 7.81
  // % / 22.26 %.
  CHECK(all["n"].get<double>() == 110);
  CHECK(all["skipped"].get<double>() == 0);
  CHECK(all["median_abs_err_pct"].get<double>() <= 7.9);
  CHECK(all["p90_abs_err_pct"].get<double>() <= 22.3);
  // The 73 cases of the earlier rounds: 7.98 % / 26.20 % before Metal's time per layer and vLLM's
  // 256-sequence cap, 7.30 % / 24.34 % with them, 6.67 % / 23.19 % with FP8 matmuls by size,
  // 7.06 % / 23.19 % with training's tensor-parallel all-reduces (NeMo's and Llama 3's TP runs lower).
  // 7.06 % / 22.66 % with training's attention at its own rate, 6.77 % / 21.77 % with
  // AutoAWQ's attention per head, 6.77 % / 19.98 % with MLPerf's mean prompt and layout, 7.06 % /
  // 19.46 % with AutoAWQ's host launches (its batch-1 GEMV row D14 -4 -> -14 %, D15 +20 -> +16 %).
  const std::set<std::string> added = {
      "AZ-MI-8B-128-128",   "AZ-MI-8B-128-2048",   "AZ-MI-8B-2048-2048",  "AZ-MI-70B-128-128",
      "AZ-MI-70B-128-2048", "AZ-MI-70B-2048-2048", "AZ-MI-405B-128-128",  "AZ-MI-405B-2048-2048",
      "AMD-MI-405B-128-2048", "NX-OPT13B",         "NX-OPT66B",           "NX-TRN1-L13B",
      "TT-8B-F8-8",         "TT-8B-F8-128",        "TT-70B-2D",
      "QW3-T-0.6B-BF16-1",  "QW3-T-1.7B-BF16-1",   "QW3-T-4B-BF16-1",     "QW3-T-8B-BF16-1",
      "QW3-T-14B-BF16-1",   "QW3-T-32B-BF16-1",    "QW2-T-0.5B-BF16-1",   "QW2-T-1.5B-BF16-1",
      "QW2-T-7B-BF16-1",    "QW2-V-0.5B-BF16-1",   "QW2-V-1.5B-BF16-1",   "QW2-V-7B-BF16-1",
      "DSV3-B200-SGL-1",    "DSV3-B200-SGL-32",    "DSV3-MI300X-SGL-4",   "T28",
      "T29",                "T30",                 "T31",                 "T32",
      "T33",                "T34",                 "T35",                 "T36",
      "T37"};
  Json earlier = Json::array();
  for (const auto& c : cases) {
    if (!added.count(c["id"].get<std::string>())) earlier.push_back(c);
  }
  const Json before = summary(earlier);
  INFO(before.dump());
  CHECK(before["n"].get<double>() == 73);
  // 7.98 % / 22.76 % once checkpointed runs pay their second forward (llm-foundry's T4, T5, T9,
  // T10 and Megatron's T21 among them, above).
  CHECK(before["median_abs_err_pct"].get<double>() <= 8.0);
  CHECK(before["p90_abs_err_pct"].get<double>() <= 22.8);
}

TEST_CASE("estimate with tensor parallelism: whole-model KV cache, an instance with enough GPUs") {
  // Llama 3.1 70B: 80 layers x 8 KV heads x 128 x 2 (K, V) x 2 bytes = 320 KiB per token for the
  // whole model (vLLM's figure), whatever the tensor-parallel degree.
  const Json r = estimate({{"model", {{"name", "llama-3.1-70b"}}},
                           {"weight_format", "bf16"},
                           {"instance", "P5"},
                           {"tensor_parallel", 8},
                           {"input_tokens", 1000},
                           {"output_tokens", 1000},
                           {"concurrency", 64}});
  CHECK(r["model"]["kv_cache_kib_per_token"].get<double>() == Approx(320));
  CHECK(r["instance"]["instance"] == "p5.48xlarge");  // the family's size with 8 GPUs
  CHECK(r["instance"]["gpus"].get<double>() == 8);
  // A decode step reads the weights and 64 sequences' KV at the mean context of 1500 tokens.
  const std::string basis = r["inference"]["decode"]["basis"].get<std::string>();
  const double bytes_gb = (141.11e9 + 64 * 1500 * 320 * 1024.0) / 1e9;
  CHECK(basis.find(std::to_string(static_cast<int>(bytes_gb))) != std::string::npos);
}

TEST_CASE(
    "estimate refuses what cannot run: too few GPUs for the layout, weights that do not fit") {
  Json few = {{"question", "estimate"},
              {"model", {{"name", "llama-3.1-70b"}}},
              {"weight_format", "bf16"},
              {"instance", "p5.4xlarge"},
              {"tensor_parallel", 8}};
  Json r = test::ask(test::shipped(), few);
  CHECK(r["ok"] == false);
  CHECK(r["errors"][0]["path"] == "/tensor_parallel");
  Json big = {{"question", "estimate"},
              {"model", {{"name", "llama-3.1-70b"}}},
              {"weight_format", "bf16"},
              {"gpu", "H100"}};
  r = test::ask(test::shipped(), big);
  CHECK(r["ok"] == false);
  CHECK(r["errors"][0]["message"].get<std::string>().find("does not fit") != std::string::npos);
  big["tensor_parallel"] = 2;  // 70.6 GB per GPU of an 80 GB H100: fits
  CHECK(test::ask(test::shipped(), big)["ok"] == true);
}

TEST_CASE("estimate names a bad phase or an empty GPU instead of guessing") {
  Json req = {{"question", "estimate"},
              {"model", {{"name", "llama-3.1-8b"}}},
              {"gpu", "H100"},
              {"phase", "trainin"}};
  Json r = test::ask(test::shipped(), req);
  CHECK(r["ok"] == false);
  CHECK(r["errors"][0]["path"] == "/phase");
  req["phase"] = "training";
  req["gpu"] = "";
  r = test::ask(test::shipped(), req);
  CHECK(r["ok"] == false);
  CHECK(r["errors"][0]["path"] == "/gpu");
}

TEST_CASE("ranking includes Inferentia and Trainium, each marked as an uncalibrated estimate") {
  const Json a = estimate({{"model", {{"name", "llama-3.1-8b"}}},
                           {"weight_format", "bf16"},
                           {"rank", true},
                           {"limit", 1000}});
  bool inferentia = false, trainium = false;
  for (const auto& row : a["ranked"]) {
    const bool neuron = row["gpu"] == "Inferentia2" || row["gpu"] == "Trainium1";
    CHECK(row["estimate_note"].is_string() == neuron);
    inferentia |= row["gpu"] == "Inferentia2";
    trainium |= row["gpu"] == "Trainium1";
  }
  CHECK(inferentia);
  CHECK(trainium);
}

TEST_CASE(
    "training with full recomputation: same model FLOPs per token, one more forward on the "
    "hardware") {
  // 8B x 16 bytes of weights, gradients and optimizer states (128 GB) sharded over 8 H100s: one
  // H100 alone cannot hold them, and the estimate refuses it.
  Json req = {{"model", {{"name", "llama-3.1-8b"}}},
              {"weight_format", "bf16"},
              {"instance", "p5.48xlarge"},
              {"gpus", 8},
              {"context", 2048},
              {"phase", "training"},
              {"gradient_checkpointing", false},
              {"dataset_tokens", 1e9}};
  const Json plain = estimate(req)["training"];
  req["gradient_checkpointing"] = true;
  const Json recompute = estimate(req)["training"];
  // Each layer's forward runs again in the backward (non-reentrant torch.utils.checkpoint per
  // layer): 2 x 7.505 B matmul parameters at 989.5 TFLOPS and attention's forward third (4 x 32 x
  // 4096 x 2048 FLOPs) at 70 % of it, over the matmuls' 0.43: 38.88 us more per token; and
  // transformers' elementwise ops of the forward again, 32 x 606,208 bytes at 3,350 GB/s x 0.887:
  // 6.53 us.
  CHECK(
      1 / recompute["tokens_per_s_per_gpu"].get<double>() ==
      Approx(1 / plain["tokens_per_s_per_gpu"].get<double>() + 38.88e-6 + 6.53e-6).epsilon(0.002));
  // MFU counts model FLOPs (6N + attention); the hardware runs 8N (llm-foundry reports MFU and
  // HFU = MFU x 8/6).
  CHECK(recompute["gflop_per_token"] == plain["gflop_per_token"]);
  CHECK(plain["hfu"].get<double>() == Approx(plain["mfu"].get<double>()));
  CHECK(recompute["hfu"].get<double>() ==
        Approx(recompute["mfu"].get<double>() * 8 / 6).epsilon(0.002));
}

TEST_CASE("an estimate without its basis texts (the ranking's search) has the same figures") {
  const CatalogLoad load = load_catalog(test::config_sources());
  REQUIRE(load.catalog);
  const Catalog& c = *load.catalog;
  const NamedModel* model = c.model("llama-3.1-8b");
  const GpuSpec* gpu = c.gpu("H100");
  REQUIRE(model);
  REQUIRE(gpu);
  ThroughputQuestion q;
  q.arch = model->arch;
  q.params = count_parameters(q.arch);
  q.weight_bytes = q.params.total * 2;
  q.kv_bytes_per_token = 128 * 1024;
  q.device = c.device(*gpu);
  q.input_tokens = 1000;
  q.output_tokens = 1000;
  for (double batch : {1.0, 16.0, 0.0}) {
    INFO("batch " << batch);
    q.batch = batch;
    q.explain = true;
    const InferenceEstimate told = estimate_inference(c.throughput, q);
    q.explain = false;
    const InferenceEstimate bare = estimate_inference(c.throughput, q);
    CHECK(bare.ttft_ms == told.ttft_ms);
    CHECK(bare.tpot_ms == told.tpot_ms);
    CHECK(bare.batch == told.batch);
    CHECK(bare.output_tokens_per_s == told.output_tokens_per_s);
    CHECK(bare.limit == told.limit);
    CHECK_FALSE(told.decode.basis.empty());
    CHECK(bare.decode.basis.empty());
    CHECK(bare.prefill.basis.empty());
    CHECK(bare.first_token.basis.empty());
  }
}

TEST_CASE("the ranking keeps whole rows of a fractional limit") {
  const Json base = {{"model", {{"name", "llama-3.1-8b"}}}, {"weight_format", "bf16"}, {"rank", true},
                     {"input_tokens", 1000}, {"output_tokens", 500}};
  Json all = base, cut = base;
  all["limit"] = 1000;
  cut["limit"] = 2.5;
  const Json every = estimate(all), two = estimate(cut);
  REQUIRE(every["ranked"].size() > 3);
  REQUIRE(two["ranked"].size() == 2);
  CHECK(two["ranked"][0] == every["ranked"][0]);
  CHECK(two["ranked"][1] == every["ranked"][1]);
  CHECK(two["candidates"] == every["candidates"]);
}

TEST_CASE("mixture of experts in decode: one sequence reads the experts it is routed to") {
  // Mixtral 8x7B routes each token to 2 of 8 experts: 12.9B of its 46.7B parameters are active
  // (Mistral AI's release notes). At fp8, one sequence's decode step reads about the active
  // weights; 64 sequences touch nearly every expert of every layer (1 - (6/8)^64).
  auto mixtral = [](double concurrency) {
    // SGLang: a decode step is its kernels' time alone (model_config.json gives it no host time).
    // vLLM adds a fixed per-step scheduling overhead (4 ms) and transformers' eager generate its
    // kernel launches, neither memory traffic: they would dilute the ratio of bytes read that this
    // test is about.
    return estimate({{"model", {{"name", "mixtral-8x7b-v0.1"}}}, {"weight_format", "fp8"}, {"gpu", "H100"},
                     {"engine", "sglang"}, {"input_tokens", 1000}, {"output_tokens", 1000},
                     {"concurrency", concurrency}});
  };
  const Json one = mixtral(1), many = mixtral(64);
  const double kv_gb = 1500 * 128.0 * 1024 / 1e9;  // mean context x KV per token
  const double one_tpot = one["inference"]["decode_step_ms"].get<double>();
  const double many_tpot = many["inference"]["decode_step_ms"].get<double>();
  // Both steps are bound by memory bandwidth, so their times are in the ratio of the bytes read:
  // the active weights (fp8: a byte each) at batch 1, all weights at 64.
  REQUIRE(one["inference"]["decode"]["bound"] == "memory bandwidth");
  REQUIRE(many["inference"]["decode"]["bound"] == "memory bandwidth");
  const double active_gb = one["model"]["active_parameters_billion"].get<double>();
  const double all_gb = one["model"]["weights_gb"].get<double>();
  CHECK(many_tpot / one_tpot == Approx((all_gb + 64 * kv_gb) / (active_gb + kv_gb)).epsilon(0.03));
  CHECK(many_tpot / one_tpot > 4);  // reading every expert at batch 1 gave about 1.3
  CHECK(one["inference"]["decode"]["basis"].get<std::string>().find("experts its tokens touch") !=
        std::string::npos);
}

namespace {

struct Setup {
  std::shared_ptr<const Catalog> catalog;
  ThroughputQuestion q;
};

// Llama 3.1 70B in FP8 (weights ~1 byte per parameter, 160 KiB of KV per token) on one H100.
Setup llama70b_fp8_h100() {
  const CatalogLoad load = load_catalog(test::config_sources());
  REQUIRE(load.catalog);
  Setup s{load.catalog, {}};
  const NamedModel* model = s.catalog->model("llama-3.1-70b");
  const GpuSpec* gpu = s.catalog->gpu("H100");
  REQUIRE(model);
  REQUIRE(gpu);
  s.q.arch = model->arch;
  s.q.params = count_parameters(s.q.arch);
  s.q.weight_bytes = s.q.params.total;
  s.q.kv_bytes_per_token = 160 * 1024;
  s.q.device = s.catalog->device(*gpu);
  s.q.compute = "fp8";
  s.q.input_tokens = 128;
  s.q.output_tokens = 2048;
  s.q.batch = 0;
  return s;
}

}  // namespace

TEST_CASE("a decode step adds its attention's KV reads to its matmuls, at one sequence it is their memory time") {
  Setup s = llama70b_fp8_h100();
  s.q.batch = 1;
  const InferenceEstimate one = estimate_inference(s.catalog->throughput, s.q);
  // Batch 1: both kernel classes are memory-bound, the step is the bytes over the bandwidth.
  CHECK(one.decode.seconds == Approx(one.decode.memory_s));
  s.q.batch = 256;
  const InferenceEstimate many = estimate_inference(s.catalog->throughput, s.q);
  // Batch 256: the matmuls are compute-bound, the KV reads come on top of them (one roofline over
  // the whole step would give max(compute, memory) and hide them).
  REQUIRE(many.decode.compute_s > 0);
  CHECK(many.decode.seconds > std::max(many.decode.compute_s, many.decode.memory_s) * 1.05);
  CHECK(many.decode.seconds < many.decode.compute_s + many.decode.memory_s);
}

TEST_CASE(
    "MLA's latent KV is read whole by every tensor-parallel GPU, split KV heads by their share") {
  // DeepSeek-V3's latent (512 + 64 per layer) is shared by all 128 heads: SGLang and vLLM keep it
  // on every GPU of the group (the memory model sizes it so), so each GPU reads all of it each
  // step and more GPUs do not shorten those reads. Llama 3.1 70B's 8 KV heads split 8 ways.
  const CatalogLoad load = load_catalog(test::config_sources());
  REQUIRE(load.catalog);
  auto kv_memory_s = [&](const std::string& name, double tp) {
    ThroughputQuestion q;
    q.arch = load.catalog->model(name)->arch;
    q.params = count_parameters(q.arch);
    q.weight_bytes = 0;  // the step's KV reads alone
    q.kv_bytes_per_token = 70272;
    q.device = load.catalog->device(*load.catalog->gpu("H200"));
    q.tensor_parallel = tp;
    q.batch = 32;
    q.input_tokens = 1000;
    q.output_tokens = 200;
    return estimate_inference(load.catalog->throughput, q).decode.memory_s;
  };
  CHECK(kv_memory_s("deepseek-v3", 8) == Approx(kv_memory_s("deepseek-v3", 2)));
  CHECK(kv_memory_s("llama-3.1-70b", 8) == Approx(kv_memory_s("llama-3.1-70b", 2) / 4));
  // The whole cache at one GPU's stream: 32 sequences x 1100 tokens (mean context) x 70,272 bytes.
  const Json h200 = estimate({{"model", {{"name", "llama-3.1-8b"}}}, {"gpu", "H200"}})["device"];
  INFO(h200.dump());
  CHECK(kv_memory_s("deepseek-v3", 8) >
        32 * 1100 * 70272.0 / (h200["bandwidth_gb_per_s"].get<double>() * 1e9));
}

TEST_CASE("a sliding-window layer's decode reads only its window of the KV cache") {
  // Gemma 2 9B: a 4096-token window on every other layer. Past the window, a step's KV reads grow
  // with the context at half the rate of a model whose every layer attends to all of it.
  const CatalogLoad load = load_catalog(test::config_sources());
  REQUIRE(load.catalog);
  auto kv_memory_s = [&](double context) {
    ThroughputQuestion q;
    q.arch = load.catalog->model("gemma-2-9b")->arch;
    q.params = count_parameters(q.arch);
    q.weight_bytes = 0;  // the step's KV reads alone
    q.kv_bytes_per_token = 344064;
    q.device = load.catalog->device(*load.catalog->gpu("H100"));
    q.batch = 4;
    q.input_tokens = context;
    q.output_tokens = 2;  // mean context = input + 1
    return estimate_inference(load.catalog->throughput, q).decode.memory_s;
  };
  REQUIRE(load.catalog->model("gemma-2-9b")->arch.sliding_window == 4096);
  // Below the window every layer reads the whole context; past it, half the layers stop growing.
  CHECK(kv_memory_s(2000) / kv_memory_s(1000) == Approx(2001.0 / 1001).epsilon(1e-6));
  CHECK(kv_memory_s(20000) / kv_memory_s(10000) ==
        Approx((0.5 * 20001 + 0.5 * 4096) / (0.5 * 10001 + 0.5 * 4096)).epsilon(1e-6));
}

TEST_CASE("TensorRT-LLM's KV pool is a share of the memory the weights leave free, vLLM's of the device") {
  Setup s = llama70b_fp8_h100();
  const ThroughputConstants& k = s.catalog->throughput;
  REQUIRE(k.engines.count("tensorrt-llm"));
  REQUIRE(k.engines.count("vllm"));
  const double memory = s.q.device.memory_bytes, weights = s.q.weight_bytes;
  const double per_seq = s.q.kv_bytes_per_token * (128 + 2048);
  s.q.engine = "tensorrt-llm";
  const double f = k.engines.at("tensorrt-llm").kv_fraction;
  CHECK(estimate_inference(k, s.q).max_batch_by_kv == std::floor((memory - weights) * f / per_seq));
  s.q.engine = "vllm";
  const double g = k.engines.at("vllm").kv_fraction;
  CHECK(estimate_inference(k, s.q).max_batch_by_kv == std::floor((memory * g - weights) / per_seq));
  // 70 GB of weights on 80 GiB: the free-memory share holds about twice the sequences.
  s.q.engine = "tensorrt-llm";
  const double trt = estimate_inference(k, s.q).max_batch_by_kv;
  s.q.engine = "vllm";
  CHECK(trt > 1.5 * estimate_inference(k, s.q).max_batch_by_kv);
}

TEST_CASE("FP8 training runs the layers' matmuls at the FP8 peak, attention and the output layer at 16 bits") {
  Setup s = llama70b_fp8_h100();
  s.q.sequence = 8192;
  s.q.compute = "bf16";
  const TrainingEstimate bf16 = estimate_training(s.catalog->throughput, s.q);
  s.q.compute = "fp8";
  const TrainingEstimate fp8 = estimate_training(s.catalog->throughput, s.q);
  const double attention = fp8.attention_flops_per_token;
  const double layers = 6 * (s.q.params.active - s.q.params.embedding - s.q.params.lm_head);
  const double output = fp8.flops_per_token - attention - layers;
  const double p16 = 989.5e12, p8 = 1979e12;
  REQUIRE(output > 0);
  CHECK(1 / fp8.tokens_per_s_per_gpu ==
        Approx((layers / p8 + output / p16 + attention / (p16 * fp8.attention_share)) /
                   fp8.matmul_mfu +
               fp8.loss_s_per_token)
            .epsilon(1e-9));
  // Faster than bf16, short of twice as fast.
  CHECK(fp8.tokens_per_s_per_gpu > 1.3 * bf16.tokens_per_s_per_gpu);
  CHECK(fp8.tokens_per_s_per_gpu < 1.9 * bf16.tokens_per_s_per_gpu);
  CHECK_THAT(fp8.basis, Catch::Contains("FP8 runs the other matmuls only"));
}

TEST_CASE("training runs attention at its measured share of the matmuls' rate, by GPU family") {
  Setup s = llama70b_fp8_h100();
  const ThroughputConstants& k = s.catalog->throughput;
  s.q.compute = "bf16";
  s.q.sequence = 8192;
  const double h100 = k.training_attention.at("H100");
  REQUIRE(h100 < 1);
  const TrainingEstimate t = estimate_training(k, s.q);
  CHECK(t.attention_share == h100);
  // 12 x layers x query width x sequence, the same FLOPs MFU counts.
  CHECK(t.attention_flops_per_token == 12.0 * 80 * 8192 * 8192);
  const double matmuls = t.flops_per_token - t.attention_flops_per_token;
  const double peak = 989.5e12;
  CHECK(1 / t.tokens_per_s_per_gpu ==
        Approx((matmuls / peak + t.attention_flops_per_token / (peak * h100)) / t.matmul_mfu +
               t.loss_s_per_token)
            .epsilon(1e-9));
  CHECK_THAT(t.basis, Catch::Contains("of the matmuls' rate"));
  // Fused kernels (Transformer Engine) run it at the matmuls' rate: faster, nothing said.
  s.q.fused_attention = true;
  const TrainingEstimate fused = estimate_training(k, s.q);
  CHECK(fused.attention_share == 1);
  CHECK(1 / fused.tokens_per_s_per_gpu ==
        Approx(t.flops_per_token / (t.matmul_mfu * peak) + t.loss_s_per_token).epsilon(1e-9));
  CHECK_THAT(fused.basis, !Catch::Contains("of the matmuls' rate"));
  s.q.fused_attention = false;
  // A GPU the table names only by family (an H100 of another memory) takes the family's share;
  // a GPU without a row, the default's.
  s.q.device.name = "H100-96GB (HBM2e)";
  CHECK(estimate_training(k, s.q).attention_share == h100);
  s.q.device = s.catalog->device(*s.catalog->gpu("L40S"));
  CHECK(estimate_training(k, s.q).attention_share == k.training_attention.at("default"));
  s.q.device = s.catalog->device(*s.catalog->gpu("A100-80GB"));
  CHECK(estimate_training(k, s.q).attention_share == k.training_attention.at("A100"));
}

TEST_CASE(
    "training's loss moves each token's logits four times at the GPU's read-and-write stream "
    "share") {
  Setup s = llama70b_fp8_h100();
  ThroughputConstants k = s.catalog->throughput;
  s.q.compute = "bf16";
  s.q.sequence = 4096;
  s.q.device = s.catalog->device(*s.catalog->gpu("A100-80GB"));
  REQUIRE(k.loss_logit_accesses == 4);
  // 128,256 logits x 4 accesses x 2 bytes = 1.026 MB per token at 2,039 GB/s x 0.887 (Triad):
  // 0.5673 us, added to the matmuls' and attention's time of every token.
  const TrainingEstimate t = estimate_training(k, s.q);
  CHECK(t.loss_s_per_token == Approx(0.5673e-6).epsilon(1e-3));
  CHECK_THAT(t.basis, Catch::Contains("us per token for the loss over 128256 logits"));
  k.loss_logit_accesses = 0;
  const TrainingEstimate bare = estimate_training(k, s.q);
  CHECK(bare.loss_s_per_token == 0);
  CHECK(1 / t.tokens_per_s_per_gpu ==
        Approx(1 / bare.tokens_per_s_per_gpu + 0.5673e-6).epsilon(1e-6));
  // fp32 training keeps 4-byte logits: twice the bytes.
  k.loss_logit_accesses = 4;
  s.q.compute = "fp32";
  CHECK(estimate_training(k, s.q).loss_s_per_token == Approx(2 * 0.5673e-6).epsilon(1e-3));
}

TEST_CASE("training's MFU falls with the sequence and is lower for a smaller model at the same sequence") {
  Setup s = llama70b_fp8_h100();
  const ThroughputConstants& k = s.catalog->throughput;
  s.q.compute = "bf16";
  // The MFU a run shows: model FLOPs per second over the peak.
  auto mfu = [&](const char* model, double sequence) {
    s.q.arch = s.catalog->model(model)->arch;
    s.q.params = count_parameters(s.q.arch);
    s.q.sequence = sequence;
    return estimate_training(k, s.q).tflops_per_gpu * 1e12 / 989.5e12;
  };
  auto mfu_of = [&](double sequence) {
    s.q.sequence = sequence;
    return estimate_training(k, s.q).tflops_per_gpu * 1e12 / 989.5e12;
  };
  CHECK(mfu("llama-3.1-8b", 8192) < mfu("llama-3.1-8b", 2048));
  CHECK(mfu("llama-3.1-8b", 8192) < mfu("llama-3.1-70b", 8192));
  // llm-foundry's MPT-1B (24 layers of width 2048, 16 heads, a 4x MLP, vocabulary 50368, tied;
  // 1.32B parameters) on 8 x H100 without checkpointing: MFU 41.82 % at 2048 tokens and 33.54 % at
  // 32768 (scripts/train/benchmarking/README.md). The ratio of the two rows, within 5 %.
  Architecture& a = s.q.arch;
  a.layers = 24, a.hidden = 2048, a.heads = a.kv_heads = 16, a.head_dim = 128;
  a.gated_mlp = false, a.intermediate = 8192, a.vocab = 50368, a.tied_embeddings = true;
  s.q.params = count_parameters(a);
  CHECK(s.q.params.total == Approx(1.32e9).epsilon(0.02));
  CHECK(mfu_of(32768) / mfu_of(2048) == Approx(33.54 / 41.82).epsilon(0.05));
}

TEST_CASE("tied embeddings still cost an output-layer matmul: vocabulary x width FLOPs per token") {
  Setup s = llama70b_fp8_h100();
  s.q.compute = "bf16";
  s.q.sequence = 4096;
  const TrainingEstimate untied = estimate_training(s.catalog->throughput, s.q);
  s.q.arch.tied_embeddings = true;
  s.q.params = count_parameters(s.q.arch);
  REQUIRE(s.q.params.lm_head == 0);
  const TrainingEstimate tied = estimate_training(s.catalog->throughput, s.q);
  // Tying removes the head's parameters, not its 6 x vocabulary x width FLOPs per token.
  CHECK(tied.flops_per_token == Approx(untied.flops_per_token).epsilon(1e-12));
  // A batch-1 prefill is compute-bound on the same FLOPs, tied or not.
  s.q.batch = 1;
  s.q.input_tokens = 4096;
  const double tied_prefill = estimate_inference(s.catalog->throughput, s.q).prefill.compute_s;
  s.q.arch.tied_embeddings = false;
  s.q.params = count_parameters(s.q.arch);
  CHECK(tied_prefill == Approx(estimate_inference(s.catalog->throughput, s.q).prefill.compute_s).epsilon(1e-12));
}

TEST_CASE("vLLM's host work per step comes on top of every decode step and prompt pass") {
  Setup s = llama70b_fp8_h100();
  const ThroughputConstants& k = s.catalog->throughput;
  REQUIRE(k.engines.count("vllm"));
  const double host = k.engines.at("vllm").step_overhead_ms;
  REQUIRE(host > 0);
  s.q.batch = 8;
  s.q.engine = "tensorrt-llm";
  const InferenceEstimate trt = estimate_inference(k, s.q);
  s.q.engine = "vllm";
  const InferenceEstimate vllm = estimate_inference(k, s.q);
  CHECK(vllm.decode_step_ms == Approx(trt.decode_step_ms + host).epsilon(1e-9));
  CHECK(vllm.ttft_ms == Approx(trt.ttft_ms + host).epsilon(1e-9));
  CHECK(1000 / vllm.batch1_decode_tokens_per_s == Approx(1000 / trt.batch1_decode_tokens_per_s + host).epsilon(1e-9));
  CHECK_THAT(vllm.decode.basis, Catch::Contains("host work per step"));
  // Multi-step scheduling: one host step for every num_scheduler_steps decode steps.
  s.q.scheduler_steps = 10;
  const InferenceEstimate multi = estimate_inference(k, s.q);
  CHECK(multi.decode_step_ms == Approx(trt.decode_step_ms + host / 10).epsilon(1e-9));
  CHECK(multi.ttft_ms == Approx(trt.ttft_ms + host).epsilon(1e-9));  // a prompt is scheduled alone
  CHECK_THAT(multi.decode.basis, Catch::Contains("once per 10 steps"));
}

TEST_CASE("AutoAWQ's GEMM kernel dequantizes its weights again for every 16 rows of a prompt") {
  Setup s = llama70b_fp8_h100();
  const ThroughputConstants& k = s.catalog->throughput;
  REQUIRE(k.engines.count("autoawq"));
  const InferenceEngine& awq = k.engines.at("autoawq");
  REQUIRE(awq.tile_rows == 16);
  s.q.compute = "fp16";
  s.q.weight_format = "awq_int4";
  s.q.weight_bytes = s.q.params.linear * 4.25 / 8;
  s.q.batch = 1;
  s.q.input_tokens = 2048;
  s.q.engine = "autoawq";
  const InferenceEstimate e = estimate_inference(k, s.q);
  // 2048 rows are 128 tiles: the linear weights pass through the kernel 128 times.
  const double tiled = s.q.params.linear * 128 / awq.tile_weights_per_s;
  CHECK(e.prefill.seconds > tiled);
  CHECK(e.prefill.bound == "compute");
  CHECK_THAT(e.prefill.basis, Catch::Contains("for every 16 rows"));
  // The same prompt through an engine that multiplies at the 16-bit roofline is faster.
  s.q.engine = "";
  CHECK(estimate_inference(k, s.q).prefill.seconds < 0.5 * e.prefill.seconds);
  // A decode step of up to 16 sequences is one tile; the 17th sequence starts a second one.
  s.q.engine = "autoawq";
  s.q.input_tokens = 64;
  s.q.output_tokens = 64;
  const double one_tile = s.q.params.linear / awq.tile_weights_per_s;
  s.q.batch = 16;
  CHECK(estimate_inference(k, s.q).decode.compute_s >= one_tile);
  CHECK(estimate_inference(k, s.q).decode.compute_s < 2 * one_tile);
  s.q.batch = 17;
  CHECK(estimate_inference(k, s.q).decode.compute_s >= 2 * one_tile);
  s.q.batch = 1;
  // Another format through the same engine: no tiled kernel.
  s.q.weight_format = "gptq_int4";
  s.q.input_tokens = 2048;
  CHECK(estimate_inference(k, s.q).prefill.seconds < 0.5 * e.prefill.seconds);
}

TEST_CASE("AutoAWQ's decode attention streams each head's cache in one thread block") {
  Setup s = llama70b_fp8_h100();
  const ThroughputConstants& k = s.catalog->throughput;
  REQUIRE(k.engines.count("autoawq"));
  const double rate = k.engines.at("autoawq").head_block_gb_per_s * 1e9;
  REQUIRE(rate > 0);
  s.q.compute = "fp16";
  s.q.weight_format = "awq_int4";
  s.q.weight_bytes = s.q.params.linear * 4.25 / 8;
  s.q.engine = "autoawq";
  s.q.batch = 1;
  s.q.input_tokens = 2048;
  s.q.output_tokens = 2048;
  // Batch 1 at a mean context of 3072 tokens: one block per query head reads its KV head's
  // 3072 x 160 KiB / 8 heads (all 80 layers) at one block's rate, far slower than the GPU's
  // bandwidth would read the whole cache.
  const double per_head_s = 3072.0 * 160 * 1024 / 8 / rate;
  const InferenceEstimate e = estimate_inference(k, s.q);
  CHECK(e.decode.memory_s >= per_head_s);
  CHECK_THAT(e.decode.basis, Catch::Contains("in one thread block"));
  s.q.engine = "";
  const InferenceEstimate split = estimate_inference(k, s.q);
  // The weights' reads are the same; the cache's read at the GPU's bandwidth becomes the block's.
  const double kv_s = 3072.0 * 160 * 1024 /
                      (s.q.device.bandwidth_gb_per_s * 1e9 * k.decode_bandwidth_efficiency);
  CHECK(kv_s < per_head_s);
  CHECK(e.decode.memory_s - split.decode.memory_s == Approx(per_head_s - kv_s).epsilon(0.01));
  // One stream's decode (the single-stream figure) pays it too.
  s.q.engine = "autoawq";
  CHECK(single_stream_decode(k, s.q, 3072).memory_s >= per_head_s);
  // Many sequences: the blocks fill the GPU and the cache's bytes over its bandwidth take longer.
  s.q.batch = 64;
  const InferenceEstimate many = estimate_inference(k, s.q);
  s.q.engine = "";
  CHECK(many.decode.memory_s == Approx(estimate_inference(k, s.q).decode.memory_s));
}

TEST_CASE("AutoAWQ's fused modules launch their kernels one by one: a batch-1 step waits for the host") {
  // AutoAWQ 0.1.6 runs its fused layers in eager PyTorch and its benchmark times one forward per
  // step: Vicuna 7B (dev case D14, RTX 4090, batch 1) launches 32 layers x 12 kernels + 4 per step
  // at 15 us each (model_config.json throughput_model.engines.autoawq.eager_host) = 5.82 ms,
  // longer than the GPU takes for its 3.9 GB of 4-bit weights (5.26 ms at 75 % of 1008 GB/s).
  const CatalogLoad load = load_catalog(test::config_sources());
  REQUIRE(load.catalog);
  const InferenceEngine& awq = load.catalog->throughput.engines.at("autoawq");
  REQUIRE(awq.kernels_per_layer == 12);
  REQUIRE(awq.kernels_per_step == 4);
  REQUIRE(awq.us_per_kernel == 15);
  Json d14;
  for (const auto& c : Json::parse(
           test::read_file(test::source_path("tests/data/cases/throughput_cases_dev.json")))) {
    if (c["id"] == "D14") d14 = c;
  }
  REQUIRE(d14["workload"]["batch_size"] == 1);
  auto predicted = [](const Json& c) {
    const Json r = test::ask(test::shipped(), {{"question", "accuracy"}, {"cases", Json::array({c})}});
    REQUIRE(r["ok"] == true);
    return r["result"]["cases"][0]["predicted"].get<double>();
  };
  CHECK(predicted(d14) == Approx(1000 / ((32 * 12 + 4) * 0.015)).epsilon(1e-4));
  // Eight sequences: still one 16-row tile, the same launches; 24 are two tiles (2 x 6.48 B
  // linear weights / 1.65e12 per s = 7.85 ms), longer than the launches: bound by the device.
  d14["workload"]["batch_size"] = 8;
  CHECK(8000 / predicted(d14) == Approx((32 * 12 + 4) * 0.015).epsilon(1e-4));
  d14["workload"]["batch_size"] = 24;
  CHECK(24000 / predicted(d14) > 7.85);
}

TEST_CASE("Apple and AWS Neuron devices add their time per layer to every step, whatever the engine") {
  Setup s = llama70b_fp8_h100();
  const ThroughputConstants& k = s.catalog->throughput;
  REQUIRE(k.layer_overhead_us.count("apple"));
  REQUIRE(k.layer_overhead_us.count("aws"));
  s.q.batch = 1;
  s.q.engine = "tensorrt-llm";  // no host step of its own
  const InferenceEstimate nvidia = estimate_inference(k, s.q);
  for (const char* vendor : {"apple", "aws"}) {
    s.q.device.vendor = vendor;
    const InferenceEstimate e = estimate_inference(k, s.q);
    const double per_step_ms = s.q.arch.layers * k.layer_overhead_us.at(vendor) * 1e-3;
    CHECK(per_step_ms > 1);  // 80 layers x about 0.1 ms
    CHECK(e.decode_step_ms == Approx(nvidia.decode_step_ms + per_step_ms).epsilon(1e-9));
    CHECK(e.ttft_ms == Approx(nvidia.ttft_ms + per_step_ms).epsilon(1e-9));
    CHECK_THAT(e.decode.basis, Catch::Contains("per layer per step on " + std::string(vendor)));
  }
  // The same holds with no engine named: it is the platform's time, not an engine's.
  s.q.engine = "";
  s.q.device.vendor = "nvidia";
  const double bare = estimate_inference(k, s.q).decode_step_ms;
  s.q.device.vendor = "aws";
  CHECK(estimate_inference(k, s.q).decode_step_ms ==
        Approx(bare + s.q.arch.layers * k.layer_overhead_us.at("aws") * 1e-3).epsilon(1e-9));
}

TEST_CASE("an MI300X streams and multiplies at its measured shares of peak over the H100's") {
  Setup s = llama70b_fp8_h100();
  const ThroughputConstants& k = s.catalog->throughput;
  const GpuSpec* mi300x = s.catalog->gpu("MI300X");
  REQUIRE(mi300x);
  s.q.device = s.catalog->device(*mi300x);
  s.q.engine = "tensorrt-llm";
  const double bw_share = k.bandwidth_efficiency.at("MI300X") / k.bandwidth_efficiency.at("default");
  // The read-only stream (Dot), as a pass reads its weights and KV cache: 3.87 of 5.3 TB/s over
  // the H100's 3.18 of 3.35, 0.769 (Triad's 4.09 / 5.3 over 2.97 / 3.35 would say 0.871).
  CHECK(bw_share == Approx(0.769).epsilon(1e-3));
  const double fp8_share = k.matmul_efficiency.at("MI300X fp8") / k.matmul_efficiency.at("default fp8");
  REQUIRE(bw_share < 1);
  REQUIRE(fp8_share < 1);
  // One sequence: the step is memory-bound, its memory time the bytes over the scaled bandwidth.
  s.q.batch = 1;
  const InferenceEstimate one = estimate_inference(k, s.q);
  const double bytes = s.q.weight_bytes + (128 + 1024) * s.q.kv_bytes_per_token;
  CHECK(one.decode.memory_s ==
        Approx(bytes / (5300e9 * k.decode_bandwidth_efficiency * bw_share)).epsilon(1e-6));
  CHECK_THAT(one.decode.basis, Catch::Contains("measured share of peak"));
  // A 2048-token prompt is compute-bound: its FLOPs at the FP8 peak x long-prompt MFU x the share.
  s.q.input_tokens = 2048;
  const InferenceEstimate e = estimate_inference(k, s.q);
  REQUIRE(e.first_token.bound == "compute");
  const double flops = 2 * 2048 * (s.q.params.active - s.q.params.embedding) +
                       2 * s.q.arch.layers * s.q.arch.heads * s.q.arch.head_dim * 2048.0 * 2048;
  // Its matmuls (2048 rows x a quarter of a layer's weights: a square GEMM of side about 7,500)
  // run at the MI300X's share at that size (between the tables' 4096 and 8192 rows) over the
  // H100's best-shape share, not at the best-shape ratio.
  auto ratio = [&](const char* n) {
    return k.matmul_efficiency.at(std::string("MI300X fp8 n=") + n) / k.matmul_efficiency.at("default fp8");
  };
  const double prompt_share = flops / (e.first_token.compute_s * 2614.9e12 * k.prefill_mfu_long);
  CHECK(prompt_share > std::min(ratio("4096"), ratio("8192")));
  CHECK(prompt_share < std::max(ratio("4096"), ratio("8192")));
  CHECK(prompt_share != Approx(fp8_share).epsilon(0.01));
  // 256 sequences' decode GEMMs are smaller (a side of about 2,600): a smaller share, below the
  // ratio at 4096 rows and above that at 2048.
  s.q.batch = 256;
  const InferenceEstimate wide = estimate_inference(k, s.q);
  REQUIRE(wide.decode.bound == "compute");
  const double gemm = 2 * 256 * (s.q.params.active - s.q.params.embedding);
  const double attn = 4 * s.q.arch.layers * s.q.arch.heads * s.q.arch.head_dim * (128 + 1024.0) * 256;
  const double decode_share = (gemm + attn) / (wide.decode.compute_s * 2614.9e12 * k.decode_mfu);
  CHECK(decode_share > ratio("2048"));
  CHECK(decode_share < ratio("4096"));
  CHECK(decode_share < prompt_share);
  // The H100's own FP8 GEMMs follow its table the same way: 256 rows reach less than the best
  // shape's share; 16-bit matmuls, with no sized rows, keep theirs.
  Setup h100 = llama70b_fp8_h100();
  h100.q.batch = 256;
  h100.q.engine = "tensorrt-llm";
  const InferenceEstimate hd = estimate_inference(k, h100.q);
  REQUIRE(hd.decode.bound == "compute");
  const double h_share = (gemm + attn) / (hd.decode.compute_s * 1979e12 * k.decode_mfu);
  auto h_row = [&](const char* n) {
    return k.matmul_efficiency.at(std::string("default fp8 n=") + n) / k.matmul_efficiency.at("default fp8");
  };
  CHECK(h_share > h_row("2048"));
  CHECK(h_share < h_row("4096"));
  h100.q.compute = "bf16";
  const InferenceEstimate wide16 = estimate_inference(k, h100.q);
  CHECK(wide16.decode.compute_s == Approx((gemm + attn) / (989.5e12 * k.decode_mfu)).epsilon(1e-3));
  // A GPU the tables do not name keeps the calibrated efficiencies.
  Setup h = llama70b_fp8_h100();
  h.q.batch = 1;
  h.q.engine = "tensorrt-llm";
  const double h_bytes = h.q.weight_bytes + (128 + 1024) * h.q.kv_bytes_per_token;
  CHECK(estimate_inference(k, h.q).decode.memory_s ==
        Approx(h_bytes / (3350e9 * k.decode_bandwidth_efficiency)).epsilon(1e-6));
  // (Its 16-bit matmuls, whose table has no sized rows: FP8 ones follow the H100's sized rows.)
  h.q.compute = "bf16";
  CHECK_THAT(estimate_inference(k, h.q).decode.basis, !Catch::Contains("measured share of peak"));
}

TEST_CASE("vLLM runs at most 256 sequences at once, other engines the serving block's cap") {
  Setup s = llama70b_fp8_h100();
  const ThroughputConstants& k = s.catalog->throughput;
  const GpuSpec* mi300x = s.catalog->gpu("MI300X");
  REQUIRE(mi300x);
  s.q.device = s.catalog->device(*mi300x);  // 192 GB: the pool holds far more than 512 sequences
  s.q.kv_bytes_per_token = 16 * 1024;
  s.q.batch = 0;
  s.q.engine = "vllm";
  const InferenceEstimate v = estimate_inference(k, s.q);
  REQUIRE(v.max_batch_by_kv > 1000);
  CHECK(v.batch == 256);
  CHECK(serving_max_batch(k, "vllm") == 256);
  s.q.engine = "tensorrt-llm";
  CHECK(estimate_inference(k, s.q).batch == k.serving_max_batch);
  CHECK(serving_max_batch(k, "") == k.serving_max_batch);
}

TEST_CASE("transformers' eager generate: a batch-1 decode step waits for the host's kernel launches") {
  // Llama 3.1 8B with SDPA (transformers' default attention): 32 layers x 46 kernels + 30 per step,
  // at 15 us each (model_config.json throughput_model.engines.transformers.eager_host) = 22.53 ms,
  // more than its bf16 weights take to stream on an H100; a CUDA-graph engine (vLLM) pays its
  // scheduler step instead.
  Json request = llama8b("H100", "bf16", 1);
  request["engine"] = "transformers";
  const Json eager = estimate(request)["inference"];
  INFO(eager.dump().substr(0, 600));
  CHECK(eager["decode"]["bound"] == "host (kernel launches)");
  // On an H100 SDPA runs cuDNN attention, whose graph each step's new key length builds: + 37 ms;
  // the request's attention picks the kernels (eager attention: 53 per layer, no cuDNN graph).
  CHECK(eager["decode_step_ms"].get<double>() ==
        Approx((32 * 46 + 30) * 0.015 + 37).epsilon(0.001));
  request["attention"] = "eager";
  CHECK(estimate(request)["inference"]["decode_step_ms"].get<double>() ==
        Approx((32 * 53 + 30) * 0.015).epsilon(0.001));
  request.erase("attention");
  CHECK_THAT(eager["decode"]["basis"].get<std::string>(), Catch::Contains("5-25 us by host CPU"));
  request["engine"] = "vllm";
  const Json graphs = estimate(request)["inference"];
  CHECK(graphs["decode_step_ms"].get<double>() < eager["decode_step_ms"].get<double>());
  CHECK(graphs["decode"]["bound"] != "host (kernel launches)");
  // A large batch is bound by the device again: 250 sequences' KV cache at 1500 tokens (49 GB) and
  // the weights take longer to read than the same 22.53 ms of launches.
  request["engine"] = "transformers";
  request["concurrency"] = 250;
  const Json big = estimate(request)["inference"];
  CHECK(big["decode"]["bound"] != "host (kernel launches)");
}

namespace {

// Qwen3 4B in bf16 on one H200 through transformers' generate, one sequence of 512 + 256 tokens.
Setup qwen3_4b_transformers_h200() {
  const CatalogLoad load = load_catalog(test::config_sources());
  REQUIRE(load.catalog);
  Setup s{load.catalog, {}};
  const NamedModel* model = s.catalog->model("qwen3-4b");
  const GpuSpec* gpu = s.catalog->gpu("H200");
  REQUIRE(model);
  REQUIRE(gpu);
  s.q.arch = model->arch;
  s.q.params = count_parameters(s.q.arch);
  s.q.weight_bytes = 2 * s.q.params.total;
  s.q.kv_bytes_per_token = 36 * 2 * 8 * 128 * 2;  // layers x K and V x KV heads x head width x bf16
  s.q.device = s.catalog->device(*gpu);
  s.q.compute = "bf16";
  s.q.engine = "transformers";
  s.q.input_tokens = 512;
  s.q.output_tokens = 256;
  s.q.batch = 1;
  return s;
}

}  // namespace

TEST_CASE(
    "transformers' kernels per layer follow the attention implementation and the model type") {
  // Counted on transformers 5.17 (eager_host.kernels_per_layer_by): Qwen3's layers launch 66
  // kernels with eager attention and 59 with SDPA, a Llama's 53 eager; flash_attention_2, not
  // counted there, keeps kernels_per_layer (40). At one sequence each step is host-bound: layers x
  // kernels + 30 per step at 15 us (the H200 takes the engine's figure; its 8 GB of weights stream
  // in about 2 ms).
  Setup s = qwen3_4b_transformers_h200();
  REQUIRE(s.q.arch.model_type == "qwen3");
  REQUIRE(s.q.arch.layers == 36);
  REQUIRE(s.catalog->throughput.eager_us_per_kernel.count(s.q.device.name) == 0);
  s.q.new_attention_shapes = false;  // cuDNN attention's graphs built: the next test
  auto step_ms = [&](const std::string& attention) {
    s.q.attention = attention;
    const InferenceEstimate e = estimate_inference(s.catalog->throughput, s.q);
    INFO(e.decode.basis);
    CHECK(e.decode.bound == "host (kernel launches)");
    return e.decode_step_ms;
  };
  CHECK(step_ms("eager") == Approx((36 * 66 + 30) * 0.015).epsilon(1e-6));
  CHECK(step_ms("sdpa") == Approx((36 * 59 + 30) * 0.015).epsilon(1e-6));
  CHECK(step_ms("flash_attention_2") == Approx((36 * 40 + 30) * 0.015).epsilon(1e-6));
  CHECK_THAT(estimate_inference(s.catalog->throughput, s.q).decode.basis,
             Catch::Contains("launches 40 kernels per layer"));
  const NamedModel* llama = s.catalog->model("llama-3.1-8b");
  REQUIRE(llama);
  s.q.arch = llama->arch;
  s.q.params = count_parameters(s.q.arch);
  s.q.weight_bytes = 2 * s.q.params.total;
  CHECK(step_ms("eager") == Approx((32 * 53 + 30) * 0.015).epsilon(1e-6));
}

TEST_CASE("eager attention's prefill moves 32 bytes per score of every head's full square") {
  // Qwen3 4B, 8 prompts of 2048 tokens: eager attention writes 36 layers x 8 x 32 heads x 2048^2
  // scores (1.24e12 bytes at 32 bytes each) on top of what SDPA's pass moves, at the rate the pass
  // streams its weights (vLLM's pass moves the weights alone); the matmuls take the same time, the
  // host binds neither pass.
  Setup s = qwen3_4b_transformers_h200();
  s.q.batch = 8;
  s.q.input_tokens = 2048;
  s.q.attention = "sdpa";
  s.q.new_attention_shapes = false;  // SDPA's cuDNN graph has a test of its own
  const InferenceEstimate sdpa = estimate_inference(s.catalog->throughput, s.q);
  s.q.attention = "eager";
  const InferenceEstimate eager = estimate_inference(s.catalog->throughput, s.q);
  INFO(eager.prefill.basis);
  s.q.engine = "vllm";
  const double bytes_per_s =
      s.q.weight_bytes / estimate_inference(s.catalog->throughput, s.q).prefill.memory_s;
  const double bytes = 36.0 * 8 * 32 * 2048 * 2048 * 32;
  CHECK(eager.prefill.compute_s == Approx(sdpa.prefill.compute_s));
  CHECK(eager.prefill.memory_s - sdpa.prefill.memory_s ==
        Approx(bytes / bytes_per_s).epsilon(1e-6));
  CHECK(eager.prefill.seconds - sdpa.prefill.seconds == Approx(bytes / bytes_per_s).epsilon(1e-6));
  CHECK_THAT(eager.prefill.basis, Catch::Contains("32 bytes per score"));
  // One request's own prompt pays its one sequence's scores.
  CHECK(eager.first_token.memory_s - sdpa.first_token.memory_s ==
        Approx(bytes / 8 / bytes_per_s).epsilon(1e-6));
  // Decode steps attend one query per sequence: no square of scores.
  CHECK(eager.decode.memory_s == Approx(sdpa.decode.memory_s));
}

TEST_CASE("transformers' elementwise kernels move every token's activations in every layer") {
  // Llama 3.1 8B (hidden 4096, 32 query and 8 KV heads of 128, MLP 14336), 8 prompts of 2048
  // tokens: 84 x 4096 + 28 x 4096 + 32 x 1024 + 10 x 14336 = 634,880 bytes per token and layer
  // (engines.transformers.eager_activation_bytes) x 32 layers x 16,384 tokens, at the rate the
  // pass streams its weights; vLLM's pass of the same prompts (fused kernels) moves the weights
  // alone.
  Setup s = qwen3_4b_transformers_h200();
  const NamedModel* llama = s.catalog->model("llama-3.1-8b");
  REQUIRE(llama);
  s.q.arch = llama->arch;
  s.q.params = count_parameters(s.q.arch);
  s.q.weight_bytes = 2 * s.q.params.total;
  s.q.batch = 8;
  s.q.input_tokens = 2048;
  const InferenceEstimate eager = estimate_inference(s.catalog->throughput, s.q);
  s.q.engine = "vllm";
  const InferenceEstimate fused = estimate_inference(s.catalog->throughput, s.q);
  INFO(eager.prefill.basis);
  const double bytes_per_s = s.q.weight_bytes / fused.prefill.memory_s;
  const double bytes = 634880.0 * 32 * 16384;
  CHECK(eager.prefill.memory_s - fused.prefill.memory_s ==
        Approx(bytes / bytes_per_s).epsilon(1e-6));
  CHECK_THAT(eager.prefill.basis, Catch::Contains("elementwise kernels"));
  // Qwen3 norms its queries and keys per head: 36 bytes more per element of both widths.
  Setup qwen = qwen3_4b_transformers_h200();
  qwen.q.batch = 8;
  qwen.q.input_tokens = 2048;
  const double qwen_token = 84 * 2560 + 28 * 4096 + 32 * 1024 + 10 * 9728 + 36 * (4096 + 1024);
  const InferenceEstimate q_eager = estimate_inference(qwen.catalog->throughput, qwen.q);
  qwen.q.engine = "vllm";
  const InferenceEstimate q_fused = estimate_inference(qwen.catalog->throughput, qwen.q);
  CHECK(q_eager.prefill.memory_s - q_fused.prefill.memory_s ==
        Approx(qwen_token * 36 * 16384 / (qwen.q.weight_bytes / q_fused.prefill.memory_s))
            .epsilon(1e-6));
  // fp32 compute (the norms skip their casts) is not counted.
  qwen.q.engine = "transformers";
  qwen.q.compute = "fp32";
  const InferenceEstimate fp32 = estimate_inference(qwen.catalog->throughput, qwen.q);
  qwen.q.engine = "vllm";
  CHECK(fp32.prefill.memory_s ==
        Approx(estimate_inference(qwen.catalog->throughput, qwen.q).prefill.memory_s));
}

TEST_CASE("an eager engine's host time per kernel is that of the servers its GPU ships in") {
  // The same batch-1 step, host-bound on both GPUs: its launches take layers x kernels_per_layer +
  // kernels_per_step times the A100's own figure (throughput_model.eager_us_per_kernel), and the
  // engine's us_per_kernel on a GPU the table does not name.
  const CatalogLoad load = load_catalog(test::config_sources());
  REQUIRE(load.catalog);
  const ThroughputConstants& k = load.catalog->throughput;
  const InferenceEngine& e = k.engines.at("transformers");
  const double a100_us = k.eager_us_per_kernel.at("A100-80GB");
  REQUIRE(k.eager_us_per_kernel.count("H100-SXM-80GB") == 0);
  REQUIRE(a100_us != e.us_per_kernel);
  // Llama 3.1 8B: 32 layers, SDPA (the question's default attention).
  const double launches = 32 * e.kernels_per_layer_by.at("sdpa") + e.kernels_per_step;
  Json request = llama8b("A100-80GB", "bf16", 1);
  request["engine"] = "transformers";
  const Json a100 = estimate(request)["inference"];
  INFO(a100.dump().substr(0, 600));
  CHECK(a100["decode"]["bound"] == "host (kernel launches)");
  CHECK(a100["decode_step_ms"].get<double>() == Approx(launches * a100_us / 1e3).epsilon(0.001));
  CHECK_THAT(a100["decode"]["basis"].get<std::string>(),
             Catch::Contains("at " + text::short_number(a100_us) + " us each"));
  request["gpu"] = "H100";
  const Json h100 = estimate(request)["inference"];
  CHECK(h100["decode_step_ms"].get<double>() ==
        Approx(launches * e.us_per_kernel / 1e3 + e.cudnn_graph.build_ms).epsilon(0.001));
}

TEST_CASE("SDPA on compute capability 9.0 builds cuDNN attention's graph for each new shape") {
  // PyTorch takes cuDNN attention first on compute capability 9.0 and 10.0 for 16-bit inputs, and
  // builds its graph for each key length the process has not run: every step of a generate() call.
  // Qwen3 4B on an H200 at batch 1: (36 x 59 + 30) launches x 15 us = 32.31 ms, + 37 ms.
  Setup s = qwen3_4b_transformers_h200();
  const InferenceEngine& e = s.catalog->throughput.engines.at("transformers");
  REQUIRE(e.cudnn_graph.build_ms == 37);
  REQUIRE(s.q.device.compute_capability == "9.0");
  const double launches_ms = (36 * 59 + 30) * 0.015;
  auto step_ms = [&] { return estimate_inference(s.catalog->throughput, s.q).decode_step_ms; };
  s.q.attention = "sdpa";
  CHECK(step_ms() == Approx(launches_ms + 37).epsilon(1e-6));
  CHECK_THAT(estimate_inference(s.catalog->throughput, s.q).decode.basis,
             Catch::Contains("+ 37 ms to build cuDNN attention's graph"));
  // The same shapes run before in the process (its graphs cached), eager attention, fp32 inputs
  // (no cuDNN attention) and an A100 (compute capability 8.0: flash first) build nothing.
  s.q.new_attention_shapes = false;
  CHECK(step_ms() == Approx(launches_ms).epsilon(1e-6));
  CHECK_THAT(estimate_inference(s.catalog->throughput, s.q).decode.basis,
             !Catch::Contains("cuDNN"));
  s.q.new_attention_shapes = true;
  s.q.attention = "eager";
  CHECK(step_ms() == Approx((36 * 66 + 30) * 0.015).epsilon(1e-6));
  s.q.attention = "sdpa";
  s.q.device.compute_capability = "8.0";
  CHECK(step_ms() == Approx(launches_ms).epsilon(1e-6));
  s.q.device.compute_capability = "10.0";
  CHECK(step_ms() == Approx(launches_ms + 37).epsilon(1e-6));
  s.q.compute = "fp32";
  CHECK(estimate_inference(s.catalog->throughput, s.q).decode.basis.find("cuDNN") ==
        std::string::npos);
}

TEST_CASE("an estimate's $ per 1M output tokens carries the band of its throughput's measured error") {
  Json request = llama8b("H100");
  request["instance"] = "p5.48xlarge";
  request.erase("gpu");
  const Json r = estimate(request);
  const Json& e = r["inference"];
  INFO(e.dump().substr(0, 800));
  REQUIRE(e["usd_per_million_output_tokens"].is_number());
  const double usd = e["usd_per_million_output_tokens"].get<double>();
  const double p90 = r["expected_error"]["p90_abs_err_pct"].get<double>() / 100;
  const Json& band = e["usd_per_million_output_tokens_band"];
  // Error = (predicted - measured) / measured: the throughput measures estimate / (1 +- p90), so
  // the cost per token, which divides by it, is usd x (1 -+ p90).
  CHECK(band["low"].get<double>() == Approx(usd * (1 - p90)).epsilon(0.001));
  CHECK(band["high"].get<double>() == Approx(usd * (1 + p90)).epsilon(0.001));
  CHECK(band["n"] == r["expected_error"]["n"]);
  CHECK(band["low"].get<double>() < usd);
  CHECK(usd < band["high"].get<double>());
}

TEST_CASE("SGLang's MLA + MoE layers add their kernel chain to every decode step, not to a prompt pass") {
  // DeepSeek-V3 (61 layers of MLA, routed experts on 58) on 8 x H200 at one sequence: with SGLang a
  // step takes 61 x mla_moe_layer_us more than the same step with no engine named; the prompt pass
  // and a dense model's step do not change.
  const CatalogLoad load = load_catalog(test::config_sources());
  REQUIRE(load.catalog);
  const ThroughputConstants& k = load.catalog->throughput;
  REQUIRE(k.engines.count("sglang"));
  const double us = k.engines.at("sglang").mla_moe_layer_us;
  REQUIRE(us > 0);
  auto step = [&](const std::string& model, const std::string& engine) {
    ThroughputQuestion q;
    q.arch = load.catalog->model(model)->arch;
    q.params = count_parameters(q.arch);
    q.weight_bytes = q.params.total;  // FP8: a byte per parameter
    q.kv_bytes_per_token = 70272;
    q.device = load.catalog->device(*load.catalog->gpu("H200"));
    q.compute = "fp8";
    q.tensor_parallel = 8;
    q.batch = 1;
    q.input_tokens = 128;
    q.output_tokens = 256;
    q.engine = engine;
    q.explain = true;
    return estimate_inference(k, q);
  };
  const InferenceEstimate plain = step("deepseek-v3", ""), sglang = step("deepseek-v3", "sglang");
  CHECK(sglang.decode_step_ms == Approx(plain.decode_step_ms + 61 * us / 1000).epsilon(1e-9));
  CHECK(1000 / sglang.batch1_decode_tokens_per_s ==
        Approx(1000 / plain.batch1_decode_tokens_per_s + 61 * us / 1000).epsilon(1e-9));
  CHECK(sglang.ttft_ms == Approx(plain.ttft_ms).epsilon(1e-12));
  CHECK_THAT(sglang.decode.basis, Catch::Contains("MLA + MoE kernel chain"));
  CHECK(step("llama-3.1-70b", "sglang").decode_step_ms ==
        Approx(step("llama-3.1-70b", "").decode_step_ms).epsilon(1e-12));
  CHECK(step("mixtral-8x7b-v0.1", "sglang").decode_step_ms ==
        Approx(step("mixtral-8x7b-v0.1", "").decode_step_ms).epsilon(1e-12));
}

TEST_CASE("SGLang's MLA + MoE layer time is the median its dev measurements imply") {
  // The rule model_config.json states for mla_moe_layer_us: each SGLang DeepSeek-V3 decode
  // measurement among the dev cases implies (measured time - the step without the chain) / (steps x
  // 61 layers); the constant is their median. The prediction without the chain is the shipped one
  // less the chain (it adds 61 x us to each decode step and nothing to the prompt pass).
  const CatalogLoad load = load_catalog(test::config_sources());
  REQUIRE(load.catalog);
  const double us = load.catalog->throughput.engines.at("sglang").mla_moe_layer_us;
  const double chain_s = 61 * us * 1e-6;
  auto implied_us = [&](const Json& cases) {
    const Json r = test::ask(test::shipped(), {{"question", "accuracy"}, {"cases", cases}});
    REQUIRE(r["ok"] == true);
    std::vector<double> out;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Json& c = cases[i];
      const Json& row = r["result"]["cases"][i];
      INFO(row.dump());
      const double measured = c["measured"]["value"].get<double>();
      const double predicted = row["predicted"].get<double>();
      const double steps = c["workload"]["output_length"].get<double>();
      const double batch = c["workload"]["batch_size"].get<double>();
      if (c["measured"]["metric"] == "ms_per_token") {
        out.push_back((measured / 1000 - (predicted / 1000 - chain_s)) / 61 * 1e6);
      } else {  // output tokens/s of the whole batch: batch x steps over prompt + steps x step
        const double without_s = batch * steps / predicted - steps * chain_s;
        out.push_back((batch * steps / measured - without_s) / (steps * 61) * 1e6);
      }
    }
    return out;
  };
  auto deepseek_sglang = [](const std::string& file) {
    Json picked = Json::array();
    for (const auto& c :
         Json::parse(test::read_file(test::source_path("tests/data/cases/" + file)))) {
      if (c["model"]["name"] == "deepseek-ai/DeepSeek-V3" &&
          c["runtime"]["framework"].get<std::string>().rfind("sglang", 0) == 0)
        picked.push_back(c);
    }
    return picked;
  };
  std::vector<double> dev = implied_us(deepseek_sglang("throughput_cases_dev.json"));
  REQUIRE(dev.size() == 3);
  std::sort(dev.begin(), dev.end());
  CHECK(us == Approx(dev[1]).margin(0.5));
  // SGLang v0.4.1.post2 on 8 x H200 (PT25-PT27, batch 1, 8, 32; not used for it): batch 1 and 8
  // imply the same time per layer within 2 % (the experts a batch of 8 touches explain the rest of
  // its longer step), and more than the constant: that release's kernels were slower than
  // 2025-05's.
  const std::vector<double> pub = implied_us(deepseek_sglang("throughput_cases_public.json"));
  REQUIRE(pub.size() == 3);
  CHECK(pub[1] == Approx(pub[0]).epsilon(0.02));
  CHECK(pub[0] > 1.4 * us);
}

TEST_CASE("training MFU by GPU falls back to the GPU's family before the default") {
  // H100-NVL-94GB has no figure of its own: the H100 family's (H100-SXM-80GB) applies, not
  // "default".
  const CatalogLoad load = load_catalog(test::config_sources());
  REQUIRE(load.catalog);
  const ThroughputConstants& k = load.catalog->throughput;
  REQUIRE(k.training_mfu.count("H100-NVL-94GB") == 0);
  REQUIRE(k.training_mfu.at("H100-SXM-80GB") != k.training_mfu.at("default"));
  const Json nvl = estimate({{"model", {{"name", "llama-3.1-8b"}}},
                             {"weight_format", "bf16"},
                             {"gpu", "H100-NVL-94GB"},
                             {"phase", "training"},
                             {"context", 2048},
                             {"gpus", 2}});
  CHECK_THAT(nvl["training"]["basis"].get<std::string>(),
             Catch::Contains("the matmuls at " +
                             text::short_number(k.training_mfu.at("H100-SXM-80GB") * 100) + " %"));
}
