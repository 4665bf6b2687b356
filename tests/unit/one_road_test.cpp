// One road, finished (issue 30): memory, estimate and right_size read the workload through the
// one reader and size it through the road, so the six disagreements between them and fit,
// performance and recommend are gone. Each case below failed on the code before.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace gpufleet;

namespace {

Json result(const Json& request) {
  Json r = test::ask(test::shipped(), request);
  INFO(request.dump() << " -> " << r.dump().substr(0, 3000));
  REQUIRE(r["ok"] == true);
  return r["result"];
}

Json refusal(const Json& request) {
  Json r = test::ask(test::shipped(), request);
  INFO(request.dump() << " -> " << r.dump().substr(0, 3000));
  REQUIRE(r["ok"] == false);
  return r["errors"][0];
}

double one_stream_performance(const Json& model, const char* precision, const char* instance, double gpus) {
  const Json p = result({{"question", "performance"}, {"model", model}, {"precision", precision},
                         {"instances", {{{"instance", instance}, {"gpus", gpus}}}}});
  return p["setups"][0]["score"].get<double>();
}

}  // namespace

TEST_CASE("a: estimate takes the road's engine default: the same one-stream tokens/s as performance") {
  // Llama 3.1 70B fp16, TP 4 on one p5.48xlarge, 500/200 tokens, one stream.
  const Json model = {{"name", "llama-3.1-70b"}};
  const double perf = one_stream_performance(model, "fp16", "p5.48xlarge", 4);
  const Json e = result({{"question", "estimate"}, {"model", model}, {"weight_format", "fp16"},
                         {"instance", "p5.48xlarge"}, {"tensor_parallel", 4}, {"concurrency", 1}});
  CHECK(e["inference"]["single_stream_tokens_per_s"].get<double>() == Approx(perf).margin(0.11));
  CHECK(e["settings"]["engine"] == "vllm");
  CHECK(e["settings"]["input_tokens"] == 500);
  CHECK(e["settings"]["output_tokens"] == 200);
}

TEST_CASE("performance and estimate give the same tokens/s for the same model, layout, tokens and engine") {
  for (const Json& model : {Json{{"name", "llama-3.1-8b"}}, Json{{"name", "qwen2.5-7b"}}, Json{{"name", "gemma-2-9b"}}}) {
    for (const char* instance : {"g6e.xlarge", "p5.4xlarge", "g5.xlarge"}) {
      const Json p = result({{"question", "performance"}, {"model", model}, {"precision", "bf16"},
                             {"instances", {{{"instance", instance}, {"gpus", 1}}}}});
      const Json request = {{"question", "estimate"}, {"model", model}, {"weight_format", "bf16"}, {"instance", instance}};
      if (p["setups"][0]["deployment"]["runs"] == false) {
        CHECK(test::ask(test::shipped(), request)["ok"] == false);
        continue;
      }
      const Json e = result(request);
      CHECK(p["setups"][0]["score"].get<double>() ==
            Approx(e["inference"]["single_stream_tokens_per_s"].get<double>()).margin(0.11));
    }
  }
}

TEST_CASE("c: memory refuses a tensor-parallel degree the engines cannot shard, and takes pipeline stages") {
  const Json e = refusal({{"question", "memory"}, {"model", {{"name", "llama-3.1-70b"}}}, {"weight_format", "bf16"},
                          {"gpu", "H100"}, {"tensor_parallel", 3}});
  CHECK(e["path"] == "/tensor_parallel");
  CHECK(e["message"].get<std::string>().find("64 attention heads") != std::string::npos);
  CHECK(e["message"].get<std::string>().find("divides") != std::string::npos);  // the way out
  const Json f = result({{"question", "fit"}, {"model", {{"name", "llama-3.1-70b"}}}, {"workload", "inference"},
                         {"precision", "bf16"}, {"instance", "p5.48xlarge"}, {"gpus", 3}});
  CHECK(f["status"] != "FITS");
  const Json pp = result({{"question", "memory"}, {"model", {{"name", "llama-3.1-70b"}}}, {"weight_format", "bf16"},
                          {"gpu", "H100"}, {"tensor_parallel", 2}, {"pipeline_parallel", 2}});
  CHECK(pp["settings"]["pipeline_parallel"] == 2);
  CHECK(pp["settings"]["gpus"] == 4);
}

TEST_CASE("d: fit on a named instance without a GPU count means the whole instance, and says so") {
  for (const char* instance : {"p4d.24xlarge", "p5en.48xlarge"}) {
    const Json f = result({{"question", "fit"}, {"model", {{"name", "llama-3.1-70b"}}}, {"workload", "inference"},
                           {"precision", "bf16"}, {"instance", instance}});
    CHECK(f["placement"]["gpus_used"] == 8);
    CHECK(f["fit"]["gpus"] == 8);
    CHECK(f["placement"]["note"].get<std::string>().find("all 8") != std::string::npos);
    CHECK(f["status"] == "FITS");
  }
  // A family: the smallest size that holds the job, said.
  const Json g = result({{"question", "fit"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                         {"precision", "bf16"}, {"instance", "G6e"}});
  CHECK(g["status"] == "FITS");
  CHECK(g["placement"]["instance"] == "g6e.xlarge");
  CHECK(g["placement"]["note"].get<std::string>().find("smallest size of G6e") != std::string::npos);
  const Json big = result({{"question", "fit"}, {"model", {{"name", "llama-3.1-70b"}}}, {"workload", "inference"},
                           {"precision", "bf16"}, {"instance", "G6e"}});
  CHECK(big["status"] == "FITS");
  CHECK(big["fit"]["gpus"].get<double>() >= 4);
}

TEST_CASE("e: a fit means at least one sequence at the asked length, everywhere") {
  // Llama 3.1 70B bf16 at 8k on 2 x H100 with TP 2 under vLLM: the pool holds 5,387 tokens.
  const Json m = result({{"question", "memory"}, {"model", {{"name", "llama-3.1-70b"}}}, {"weight_format", "bf16"},
                         {"gpu", "H100"}, {"tensor_parallel", 2}, {"context", 8192}, {"engine", "vllm"}});
  CHECK(m["gpu"]["fits"] == false);
  CHECK(m["gpu"]["reason"].get<std::string>().find("no whole") != std::string::npos);
  bool h100_listed = false;
  for (const Json& g : m["gpus"])
    if (g["gpu"] == m["gpu"]["gpu"]) {
      h100_listed = true;
      CHECK(g["fits"] == false);
    }
  CHECK(h100_listed);
  // Llama 3.1 70B fp8 at its full 128k window on one H100: no whole sequence either.
  const Json g = result({{"question", "memory"}, {"model", {{"name", "llama-3.1-70b"}}}, {"weight_format", "fp8"},
                         {"gpu", "H100"}, {"context", 131072}, {"engine", "vllm"}});
  CHECK(g["gpu"]["fits"] == false);
}

TEST_CASE("b: memory on a GPU and fit on an instance of that GPU give one verdict (vLLM's A100 budget)") {
  // Llama 3.1 70B bf16, an 8,000 + 192-token sequence, vLLM, TP 2 over two A100 80GB. vLLM keeps
  // its small profile budget (2,048 tokens, 256 sequences) on A100s, the large one (8,192 / 1,024)
  // only on other GPUs of 70 GiB or more. The road did not tell the memory model which GPU it
  // was on, so p4de.24xlarge's A100s were profiled as H100s: 0.82 GiB of pool, CANNOT FIT, where
  // memory --gpu A100-80GB left 3.5 GiB and said it fits.
  const Json m = result({{"question", "memory"}, {"model", {{"name", "llama-3.1-70b"}}}, {"weight_format", "bf16"},
                         {"gpu", "A100-80GB"}, {"gpus", 2}, {"tensor_parallel", 2}, {"context", 8000},
                         {"new_tokens", 192}, {"engine", "vllm"}});
  CHECK(m["gpu"]["fits"] == true);
  const Json f = result({{"question", "fit"}, {"model", {{"name", "llama-3.1-70b"}}}, {"workload", "inference"},
                         {"weight_format", "bf16"}, {"engine", "vllm"}, {"instance", "p4de.24xlarge"}, {"gpus", 2},
                         {"demand", {{"input_tokens", 8000}, {"output_tokens", 192}}}});
  CHECK(f["fit"]["fits"] == true);
  CHECK(f["deployment"]["layout"]["tensor_parallel"] == 2);
  // The same pool, token for token (the road's line shows the part its concurrency fills).
  const std::string pool = std::to_string(m["kv_cache_capacity"]["tokens"].get<long long>()) + " tokens at";
  CHECK(m["kv_cache_capacity"]["tokens"].get<double>() > 8192);
  bool same_pool = false;
  for (const Json& line : f["memory"]["per_gpu"])
    if (line["key"] == "kv_cache") same_pool = line["basis"].get<std::string>().find(pool) != std::string::npos;
  CHECK(same_pool);
  // The H100's large budget stays where vLLM uses it (case e): the same setup on p5's H100s.
  const Json h = result({{"question", "fit"}, {"model", {{"name", "llama-3.1-70b"}}}, {"workload", "inference"},
                         {"weight_format", "bf16"}, {"engine", "vllm"}, {"instance", "p5.48xlarge"}, {"gpus", 2},
                         {"demand", {{"input_tokens", 8000}, {"output_tokens", 192}}}});
  CHECK(h["fit"]["fits"] == false);
}

TEST_CASE("b: an instance type the catalog lists is found by name in every region view") {
  // p4de.24xlarge has no price in eu-west-1: it is found, judged, and its cost says where it is priced.
  const Json f = result({{"question", "fit"}, {"model", {{"name", "llama-3.1-70b"}}}, {"workload", "inference"},
                         {"weight_format", "bf16"}, {"instance", "p4de.24xlarge"}, {"gpus", 2}, {"region", "eu-west-1"}});
  CHECK(f["placement"]["instance"] == "p4de.24xlarge");
  CHECK_THAT(f["cost"]["note"].get<std::string>(), Catch::Contains("no price in eu-west-1") && Catch::Contains("us-east-1"));
}

TEST_CASE("memory, estimate and right_size read the model as the road does: size and params_b too") {
  // A size class and a parameter count are the road's generic decoder: memory's weights are the
  // same 13B that fit's placement sizes.
  const Json m = result({{"question", "memory"}, {"model", {{"params_b", 13}}}, {"weight_format", "fp16"}});
  CHECK(m["model"]["parameters_billion"].get<double>() == Approx(13).epsilon(0.02));
  CHECK_THAT(m["model"]["shape"].get<std::string>(), !Catch::Equals(""));
  const Json sized = result({{"question", "memory"}, {"model", {{"size", "small"}}}});
  CHECK(sized["total_bytes"].get<double>() > 0);
  const Json e = result({{"question", "estimate"}, {"model", {{"params_b", 8}}}, {"gpu", "H100"}});
  CHECK(e["inference"]["output_tokens_per_s"].get<double>() > 0);
  const Json r = result({{"question", "right_size"}, {"models", {{{"model", {{"size", "medium"}}}}}}});
  CHECK(r["models"][0]["min_vram_gb"].get<double>() > 0);
  // A faulty model form is named with its item's path.
  const Json bad = refusal({{"question", "right_size"}, {"models", {{{"model", {{"size", "huge"}}}}}}});
  CHECK(bad["path"] == "/models/0/model/size");
}

TEST_CASE("estimate on a named instance without tensor_parallel takes the layout the ranking gives it, with the same figures") {
  // Llama 3.1 70B (141 GB of weights) on p4d.24xlarge (8 x A100 40GB): TP 1 cannot hold it, which
  // estimate refused before; the ranking runs it at the tensor-parallel degree with the lowest $ per token.
  const Json model = {{"name", "llama-3.1-70b"}};
  const Json ranked = result({{"question", "estimate"}, {"model", model}, {"rank", true}, {"limit", 1000}});
  const Json* row = nullptr;
  for (const Json& r : ranked["ranked"])
    if (r["instance"] == "p4d.24xlarge") row = &r;
  REQUIRE(row != nullptr);
  const Json e = result({{"question", "estimate"}, {"model", model}, {"instance", "p4d.24xlarge"}});
  CHECK(e["device"]["tensor_parallel"] == (*row)["tensor_parallel"]);
  CHECK((*row)["tensor_parallel"].get<double>() > 1);
  CHECK_THAT(e["device"]["layout_note"].get<std::string>(), Catch::Contains("no tensor_parallel given"));
  CHECK(e["inference"]["output_tokens_per_s"].get<double>() * e["instance"]["model_copies"].get<double>() ==
        Approx((*row)["output_tokens_per_s"].get<double>()).epsilon(0.001));
  CHECK(e["inference"]["usd_per_million_output_tokens"].get<double>() ==
        Approx((*row)["usd_per_million_output_tokens"].get<double>()).epsilon(0.001));
  // A degree the request gives is kept, and says nothing about the layout.
  const Json asked = result({{"question", "estimate"}, {"model", model}, {"instance", "p4d.24xlarge"}, {"tensor_parallel", 4}});
  CHECK(asked["device"]["tensor_parallel"] == 4);
  CHECK_FALSE(asked["device"].contains("layout_note"));
}

TEST_CASE(
    "estimate trains on all of a named instance's GPUs, as fit takes them, with recommend's "
    "measured error") {
  // Llama 3.1 8B full fine-tuning needs about 134 GB on one GPU: refused on p4d.24xlarge before,
  // now over its 8 A100s; the expected error is the one recommend's band carries for training on
  // NVIDIA GPUs.
  const Json model = {{"name", "llama-3.1-8b"}};
  const Json e = result({{"question", "estimate"},
                         {"model", model},
                         {"instance", "p4d.24xlarge"},
                         {"phase", "training"},
                         {"dataset_tokens", 1e9}});
  CHECK_THAT(e["device"]["layout_note"].get<std::string>(),
             Catch::Contains("all 8 GPUs of p4d.24xlarge"));
  const Json rec = result({{"question", "recommend"},
                           {"model", model},
                           {"workload", "fine_tuning"},
                           {"families", {"P4d"}},
                           {"demand", {{"dataset_tokens", 1e9}}}});
  REQUIRE(rec["candidates"].size() >= 1);
  const Json& band_error = rec["candidates"][0]["band"]["expected_error"];
  REQUIRE(band_error["n"].get<int>() > 0);
  CHECK(e["expected_error"]["n"] == band_error["n"]);
  CHECK(e["expected_error"]["p90_abs_err_pct"] == band_error["p90_abs_err_pct"]);
  CHECK(e["expected_error"].value("stands_in", Json()) == band_error.value("stands_in", Json()));
  CHECK(e["expected_error"]["from"] == band_error["from"]);
}

TEST_CASE(
    "estimate's instance says whose zone its spot price is, where the provider prices zones") {
  // config/prices/aws/us-east-1.json: g5.2xlarge spot $0.4738 in the cheapest of 5 zones, their
  // median $0.5036; Azure prices spot by region, so its instance carries no basis.
  const Json aws = result({{"question", "estimate"},
                           {"model", {{"name", "llama-3.1-8b"}}},
                           {"instance", "g5.2xlarge"}});
  CHECK(aws["instance"]["spot_usd_per_hour"] == 0.4738);
  CHECK(aws["instance"]["spot_basis"] ==
        "the cheapest of 5 zones with spot in us-east-1 (their median $0.5036/h per instance)");
  const Json azure = result({{"question", "estimate"},
                             {"model", {{"name", "llama-3.1-8b"}}},
                             {"instance", "Standard_NC24ads_A100_v4"}});
  CHECK(azure["instance"]["spot_usd_per_hour"].is_number());
  CHECK_FALSE(azure["instance"].contains("spot_basis"));
  // A flagged price is taken from another region: the basis names that region's zones, as cost's does.
  const Json model = {{"name", "llama-3.1-8b"}};
  const Json flagged = result({{"question", "estimate"}, {"model", model}, {"instance", "a3-highgpu-8g"}});
  const Json cost = result({{"question", "cost"}, {"instance", "a3-highgpu-8g"}});
  REQUIRE(flagged["instance"].contains("priced_from_region"));
  CHECK(flagged["instance"]["spot_basis"] == cost["cost"]["spot_basis"]);
  CHECK_THAT(flagged["instance"]["spot_basis"].get<std::string>(),
             Catch::Contains(flagged["instance"]["priced_from_region"].get<std::string>()));
}
