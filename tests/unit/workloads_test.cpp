// Each seed scenario of config/workloads.json yields a result consistent with its expected_outcome.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace gpufleet;

namespace {

Json run(const char* id) {
  Json r = test::ask(test::shipped(), {{"question", "workload"}, {"id", id}});
  REQUIRE(r["ok"] == true);
  CHECK(r["result"]["expected_outcome"].get<std::string>().size() > 0);
  return r["result"];
}

const Json& recommended(const Json& result) {
  const Json& report = result["report"];
  REQUIRE(report["recommendation"]["action"] == "migrate");
  for (const auto& c : report["alternatives"]) {
    if (c["instance"] == report["recommendation"]["instance"]) return c;
  }
  FAIL("recommended instance missing from the alternatives");
  return report;
}

}  // namespace

TEST_CASE("workload inference_small_p5: significant cost savings with G6/G6e") {
  Json w = run("inference_small_p5");
  CHECK(w["report"]["current"]["instance"] == "p5.4xlarge");
  const Json& pick = recommended(w);
  CHECK((pick["family"] == "G6" || pick["family"] == "G6e"));
  // Savings against the resolved current setup, from catalog prices: p5.4xlarge $6.88/h.
  const double current = 6.88 * 720;
  const double candidate = pick["cost"]["usd_per_month"];
  CHECK(pick["savings_usd_per_month"].get<double>() == Approx(current - candidate).margin(0.01));
  CHECK(pick["savings_pct"].get<double>() > 50);
}

// Full fine-tuning needs about 16 bytes per parameter under the default recipe (bf16 weights and
// gradients, fp32 master weights and Adam moments), 4-7x the seed's x1.5: the scenarios that train
// on the seed's hardware no longer fit it, and the report says so and moves to what does.
TEST_CASE("workload fine_tuning_medium_p5: 2 H100s cannot fine-tune 35B, the report moves to what can") {
  Json w = run("fine_tuning_medium_p5");
  const Json& current = w["report"]["current"];
  CHECK(current["runs"] == false);  // 560 GB of states on 2 x 80 GiB
  CHECK(w["report"].contains("ways_out"));
  const Json& pick = recommended(w);
  CHECK(pick["runs"] == true);
  // Whatever is picked holds at least the 16 bytes per parameter across its GPUs.
  CHECK(pick["gpus"].get<double>() * pick["capacity_per_gpu_gib"].get<double>() * 1.073741824 >= 35 * 16);
  // The seed expected G6e: 8 x L40S hold 384 GB, under the 560 GB needed, so G6e is excluded.
  bool g6e_excluded = false;
  for (const auto& e : w["report"]["excluded"]) g6e_excluded = g6e_excluded || e["family"] == "G6e";
  CHECK(g6e_excluded);
}

TEST_CASE("workload training_large_p4d: 70B training does not fit one p4d (the seed's 61 %), P5/P6 train it faster per GPU") {
  Json w = run("training_large_p4d");
  CHECK(w["report"]["request"]["priority"] == "performance");
  CHECK(w["report"]["current"]["runs"] == false);  // 1,120 GB of states on 8 x 40 GiB
  const Json& pick = recommended(w);
  CHECK(pick["gpus"].get<double>() * pick["capacity_per_gpu_gib"].get<double>() * 1.073741824 >= 70 * 16);
  // Per GPU, H100 trains 989.5 dense TFLOPS x 43 % MFU against the A100's 312 x 55 %: 2.48x, the
  // seed's 2-3x band (the peaks alone would claim 3.17), both without tensor parallelism (P5 and
  // P4de's 80 GB A100s hold a copy's share each, and so do P4d's 40 GB A100s over 32 GPUs).
  double a100 = 0, h100 = 0, a100_40gb = 0;
  for (const auto& c : w["report"]["alternatives"]) {
    if (c["family"] == "P4de") a100 = c["tokens_per_s_per_gpu"];
    if (c["family"] == "P5") h100 = c["tokens_per_s_per_gpu"];
    if (c["family"] == "P4d") {
      a100_40gb = c["tokens_per_s_per_gpu"];
      // 32 x 40 GB A100s hold a copy's share each at tensor parallel 1 (39.3 of 40 GiB): the
      // loss's backward and the recomputed layer come one after the other, not at once.
      CHECK(c["layout"]["tensor_parallel"] == 1);
      CHECK(c["gpus"] == 32);
    }
  }
  REQUIRE(a100 > 0);
  // Attention (12 x 80 x 8192 x 2048 of Llama 3.1 70B's 433 GFLOP per token at 2048 tokens) runs at
  // 93 % of the matmuls' rate on an A100 and 70 % on an H100 (training_attention): 2.45x.
  // The step's memory passes (the loss, AdamW's step over each GPU's share of the states,
  // transformers' elementwise ops) run at the bandwidths' ratio, 3,350 / 2,039 = 1.64: they pull
  // the ratio below, by under 5 %.
  const double f = 12.0 * 80 * 8192 * 2048 / 433e9;
  const double compute_ratio =
      989.5 * 0.43 / (312 * 0.55) * (1 + f * (1 / 0.93 - 1)) / (1 + f * (1 / 0.7 - 1));
  CHECK(h100 / a100 < compute_ratio);
  CHECK(h100 / a100 == Approx(compute_ratio).epsilon(0.05));
  CHECK(h100 / a100 > 3350.0 / 2039);
  CHECK(a100_40gb > 0.9 * a100);  // the 40 GB A100's lower memory bandwidth (1,555 GB/s, not 2,039)
  CHECK(a100_40gb < a100);
  CHECK_FALSE(w["report"]["warnings"].empty());  // spot training: checkpoint
}

TEST_CASE("workload inference_massive_p5e: higher performance with P6") {
  Json w = run("inference_massive_p5e");
  CHECK(w["report"]["current"]["runs"] == true);
  const Json& pick = recommended(w);
  CHECK(pick["family"] == "P6");
  // Both copies run vLLM's 256 sequences (its default max_num_seqs; the H200's KV pool holds 307,
  // the B200's 714), where decode is partly compute-bound: faster than the bandwidth ratio (8000
  // vs 4800 GB/s), slower than the FP8 peaks' (4500 vs 1979 TFLOPS): 1.97.
  CHECK(pick["performance"]["ratio_to_current"].get<double>() > 8000.0 / 4800);
  CHECK(pick["performance"]["ratio_to_current"].get<double>() < 4500.0 / 1979);
}

TEST_CASE("workload batch_inference_g5: right-sizing cuts cost") {
  Json w = run("batch_inference_g5");
  const Json& pick = recommended(w);
  CHECK(pick["gpus"].get<double>() < 4);
  CHECK(pick["savings_pct"].get<double>() > 30);
  CHECK_FALSE(w["report"]["warnings"].empty());  // spot inference warning
}

TEST_CASE("workload production_serving_g4dn: consolidate onto one T4") {
  Json w = run("production_serving_g4dn");
  CHECK(w["report"]["current"]["runs"] == true);
  const Json& pick = recommended(w);
  CHECK(pick["gpus"] == 1);
  CHECK(pick["savings_pct"].get<double>() > 50);
  CHECK(w["report"]["warnings"].empty());  // on-demand serving: nothing to warn about
}

TEST_CASE("workload research_training_g6e: 13B full training needs more than 4 L40S, the report says so") {
  Json w = run("research_training_g6e");
  // 13B x 16 bytes = 208 GB of states over 4 x 48 GiB: it does not fit; the seed's x1.5 said 39 GB.
  CHECK(w["report"]["current"]["runs"] == false);
  const Json& pick = recommended(w);
  CHECK(pick["runs"] == true);
  CHECK(pick["gpus"].get<double>() * pick["capacity_per_gpu_gib"].get<double>() * 1.073741824 >= 13 * 16);
}

TEST_CASE("workload sets run every member in order") {
  Json r = test::ask(test::shipped(), {{"question", "workload_set"}, {"id", "comprehensive_suite"}});
  REQUIRE(r["ok"] == true);
  const Json& reports = r["result"]["reports"];
  REQUIRE(reports.size() == 4);
  CHECK(reports[0]["id"] == "fine_tuning_medium_p5");
  CHECK(reports[3]["id"] == "inference_massive_p5e");
  Json list = test::ask(test::shipped(), {{"question", "workloads"}});
  CHECK(list["result"]["workloads"].size() == 7);
  CHECK(list["result"]["workload_sets"].size() == 5);
}
