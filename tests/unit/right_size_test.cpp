#include <catch2/catch.hpp>
#include <string>

#include "support.hpp"

using namespace gpufleet;

namespace {

Json right_size(const Json& model_request) {
  Json r = test::ask(test::shipped(), {{"question", "right_size"},
                                       {"providers", {"aws"}},
                                       {"models", Json::array({model_request})}});
  REQUIRE(r["ok"] == true);
  return r["result"]["models"][0];
}

Json fits_on(const std::string& model, const std::string& gpu, double gpus) {
  Json r = test::ask(test::shipped(), {{"question", "memory"},
                                       {"model", {{"name", model}}},
                                       {"weight_format", "fp16"},
                                       {"context", 2048},
                                       {"gpu", gpu},
                                       {"gpus", gpus},
                                       {"tensor_parallel", gpus}});
  REQUIRE(r["ok"] == true);
  return r["result"]["gpu"];
}

}  // namespace

// Seed 000, "Right-Size Your GPU": Model | Min VRAM | Optimal GPU. The seed's Whisper figures are
// openai/whisper's README requirements ("~1 GB" ... "~10 GB"), upper bounds for a beam-5
// transcription; the Llama rows are the FP16 weights.
TEST_CASE(
    "seed 000 right-sizing: Whisper rows fit the seed's minimum VRAM and the T4 is the smallest "
    "GPU that holds them") {
  const struct {
    const char* model;
    double seed_min_vram_gb;
  } rows[] = {{"whisper-tiny", 1},   {"whisper-base", 1},      {"whisper-small", 2},
              {"whisper-medium", 5}, {"whisper-large-v2", 10}, {"whisper-large-v3", 10}};
  for (const auto& row : rows) {
    CAPTURE(row.model);
    Json m =
        right_size({{"model", {{"name", row.model}}}, {"weight_format", "fp16"}, {"beams", 5}});
    CHECK(m["min_vram_gb"].get<double>() <= row.seed_min_vram_gb);
    CHECK(m["min_vram_gb"].get<double>() >
          row.seed_min_vram_gb / 4);  // the same order as the seed's figure
    CHECK(
        m["smallest_gpu"] ==
        "T4");  // seed: "T4 (16GB)"; large-v3's A10G is chosen for speed (performance, not memory)
  }
}

TEST_CASE("seed 000 right-sizing: Llama 7B FP16 needs 14 GB and fits a T4 or an A10G") {
  Json m = right_size(
      {{"model", {{"name", "llama-2-7b"}}}, {"weight_format", "fp16"}, {"context", 2048}});
  CHECK(m["weights_gb"].get<double>() == Approx(14).epsilon(0.05));  // seed: 14 GB
  CHECK(m["smallest_gpu"] == "T4");                                  // seed: "T4 / A10G"
  CHECK(fits_on("llama-2-7b", "T4", 1)["fits"] == true);
  CHECK(fits_on("llama-2-7b", "A10G", 1)["fits"] == true);
}

TEST_CASE("seed 000 right-sizing: Llama 13B FP16 needs 26 GB, more than one A10G holds: two A10G") {
  Json m = right_size(
      {{"model", {{"name", "llama-2-13b"}}}, {"weight_format", "fp16"}, {"context", 2048}});
  CHECK(m["weights_gb"].get<double>() == Approx(26).epsilon(0.02));  // seed: 26 GB
  CHECK(fits_on("llama-2-13b", "A10G", 1)["fits"] == false);
  CHECK(fits_on("llama-2-13b", "A10G", 2)["fits"] == true);  // seed: "A10G (need 2x)"
}

// Seed 000, "Quick Reference: GPU Selection by Workload": Cost/hr and Monthly (24/7) at the seed's
// prices are price x 720 h, and each recommended GPU holds the workload's model.
TEST_CASE("seed 000 quick reference: monthly cost is the seed's hourly price x 720 h") {
  const struct {
    double usd_per_hour, seed_monthly;
  } rows[] = {{0.53, 382}, {0.75, 540}, {1.01, 727}, {1.21, 872}, {3.06, 2203}, {32.77, 23594}};
  for (const auto& row : rows) {
    CAPTURE(row.usd_per_hour);
    CHECK(row.usd_per_hour * 720 == Approx(row.seed_monthly).margin(1));
  }
}

TEST_CASE("seed 000 quick reference: each recommended GPU holds its workload") {
  CHECK(fits_on("whisper-small", "T4", 1)["fits"] == true);   // Whisper Base/Small: T4, g4dn.xlarge
  CHECK(fits_on("whisper-medium", "T4", 1)["fits"] == true);  // Whisper Medium: T4, g4dn.2xlarge
  CHECK(fits_on("whisper-large-v3", "A10G", 1)["fits"] ==
        true);  // Whisper Large-v3: A10G, g5.xlarge
  Json r = test::ask(
      test::shipped(),
      {{"question", "right_size"},
       {"models",
        Json::array({{{"model", {{"name", "whisper-large-v3"}}}, {"weight_format", "fp16"}}})},
       {"providers", {"aws"}}});
  REQUIRE(r["ok"] == true);
  CHECK(r["result"]["models"][0]["cheapest_instance"]["usd_per_month"].get<double>() > 0);
}

TEST_CASE("right_size rejects an unknown model with its path") {
  Json r = test::ask(
      test::shipped(),
      {{"question", "right_size"}, {"models", Json::array({{{"model", {{"name", "nosuch"}}}}})}});
  REQUIRE(r["ok"] == false);
  CHECK(r["errors"][0]["path"] == "/models/0/model/name");
}

TEST_CASE("right_size names a misspelt field of a model instead of ignoring it") {
  const Json r = test::ask(test::shipped(),
                           {{"question", "right_size"},
                            {"models", {{{"model", {{"name", "whisper-small"}}}, {"enginee", "x"}}}}});
  CHECK(r["ok"] == false);
  CHECK(r["errors"][0]["code"] == "unknown_field");
  CHECK(r["errors"][0]["path"] == "/models/0/enginee");
}
