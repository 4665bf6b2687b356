// One workload, one road: every sizing question gives the same memory, speed and price for the
// same workload, never answers for a setup that cannot run, and sizes for the demand.
#include "fleet/road.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <tuple>

#include "api/analyzer_access.hpp"
#include "api/answers.hpp"
#include "catalog/catalog.hpp"
#include "pricing/prices.hpp"
#include "support.hpp"

using namespace gpufleet;

namespace {

Json result(const Json& request) {
  Json r = test::ask(test::shipped(), request);
  INFO(request.dump() << " -> " << r.dump().substr(0, 2000));
  REQUIRE(r["ok"] == true);
  return r["result"];
}

Json refusal(const Json& request) {
  Json r = test::ask(test::shipped(), request);
  INFO(r.dump().substr(0, 2000));
  REQUIRE(r["ok"] == false);
  return r["errors"][0];
}

constexpr double kGiBPerGB = 1e9 / (1024.0 * 1024 * 1024);

}  // namespace

TEST_CASE("fit, memory, recommend and migrate give the same per-GPU memory, performance and estimate the same tokens/s") {
  int compared = 0;
  for (const char* model : {"llama-3.1-8b", "mistral-7b-v0.1", "qwen2.5-7b", "llama-3.1-70b"}) {
    for (const char* task : {"inference", "fine_tuning", "lora"}) {
      for (const char* family : {"G6e", "P4de", "P5", "G5"}) {
        const Json workload = {{"model", {{"name", model}}}, {"workload", task}, {"precision", "bf16"}};
        Json rec = workload;
        rec["question"] = "recommend";
        rec["families"] = {family};
        const Json r = result(rec);
        if (r["candidates"].empty()) continue;
        const Json& c = r["candidates"][0];
        // fit on the same instance and GPUs: the road picks the same layout, same memory.
        Json fit = workload;
        fit["question"] = "fit";
        fit["instance"] = c["instance"];
        fit["gpus"] = c["gpus"].get<double>() / c["instance_count"].get<double>();
        if (c["instance_count"] != 1) continue;
        const Json f = result(fit);
        const Json& d = f["deployment"];
        if (d["layout"] != c["layout"]) continue;
        CHECK(d["memory_per_gpu_gb"] == c["memory_per_gpu_gb"]);
        // migrate from that deployment: its current figure is the same.
        Json mig = workload;
        mig["question"] = "migrate";
        mig["current"] = {{"instance", c["instance"]}, {"gpus", fit["gpus"]}};
        CHECK(result(mig)["current"]["memory_per_gpu_gb"] == c["memory_per_gpu_gb"]);
        // the memory question with the road's settings: the same lines, byte for byte.
        if (std::string(task) != "inference") {
          Json mem = {{"question", "memory"}, {"model", {{"name", model}}}, {"weight_format", "bf16"},
                      {"mode", std::string(task) == "lora" ? "lora" : "full_finetune"}, {"optimizer", "adamw"},
                      {"master_weights", std::string(task) != "lora"}, {"gradient_checkpointing", true},
                      {"context", 2048}, {"batch", 1}, {"gpus", c["gpus"]},
                      {"tensor_parallel", c["layout"]["tensor_parallel"]},
                      {"sharding", c["layout"]["replicas"].get<double>() > 1 ? "zero3" : "none"}, {"gpu", nullptr}};
          mem.erase("gpu");
          const Json m = result(mem);
          CHECK(m["total_gib"].get<double>() == Approx(c["memory_per_gpu_gib"].get<double>()).margin(0.006));
        }
        ++compared;
      }
    }
  }
  CHECK(compared >= 20);
  // performance and estimate: one stream's decode on the same instance, same shape.
  for (const char* model : {"llama-3.1-8b", "qwen2.5-7b", "gemma-2-9b"}) {
    for (const char* instance : {"g6e.xlarge", "p5.4xlarge", "g5.xlarge", "a2-ultragpu-1g"}) {
      const Json p = result({{"question", "performance"}, {"model", {{"name", model}}}, {"precision", "bf16"},
                             {"demand", {{"input_tokens", 1000}, {"output_tokens", 1000}}},
                             {"instances", {{{"instance", instance}, {"gpus", 1}}}}});
      // The road serves with vLLM (its host step per decode step included): estimate with the same engine.
      const Json request = {{"question", "estimate"}, {"model", {{"name", model}}}, {"weight_format", "bf16"},
                            {"instance", instance}, {"input_tokens", 1000}, {"output_tokens", 1000}, {"engine", "vllm"}};
      if (p["setups"][0]["deployment"]["runs"] == false) {
        CHECK(test::ask(test::shipped(), request)["ok"] == false);  // refused by both
        continue;
      }
      const Json e = result(request);
      CHECK(p["setups"][0]["score"].get<double>() ==
            Approx(e["inference"]["single_stream_tokens_per_s"].get<double>()).margin(0.11));
    }
  }
}

TEST_CASE("training recommendations hold weights, gradients and optimizer states on every candidate") {
  for (const Json& model : {Json{{"name", "llama-3.1-70b"}}, Json{{"size", "large"}}}) {
    for (const char* task : {"fine_tuning", "training"}) {
      const Json r = result({{"question", "recommend"}, {"model", model}, {"workload", task}, {"precision", "bf16"}});
      REQUIRE_FALSE(r["candidates"].empty());
      const double params_b = r["request"]["model"]["parameters_billion"];
      for (const auto& c : r["candidates"]) {
        INFO(c["instance"] << " x" << c["instance_count"]);
        CHECK(c["memory_per_gpu_gib"].get<double>() <= c["capacity_per_gpu_gib"].get<double>());
        // At least 12 bytes per parameter across the GPUs (16 under the default recipe).
        CHECK(c["gpus"].get<double>() * c["capacity_per_gpu_gib"].get<double>() / kGiBPerGB >= 12 * params_b);
      }
    }
  }
}

TEST_CASE("decide does not call a CPU suitable for training a 7B model") {
  const Json r = result({{"question", "decide"}, {"model", {{"params_b", 7}}}, {"workload", "training"}});
  for (const auto& o : r["options"]) {
    if (o["kind"] == "cpu") CHECK(o["suitable"] == false);
    if (o["kind"] == "gpu") CHECK(o["suitable"] == true);
  }
}

TEST_CASE("a serving demand sizes instances, layout, utilization, monthly cost and $ per 1M tokens") {
  auto ask = [](double rps) {
    return result({{"question", "recommend"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                   {"families", {"G6e"}},
                   {"demand", {{"requests_per_s", rps}, {"input_tokens", 500}, {"output_tokens", 200}, {"max_ttft_ms", 500}}}});
  };
  const Json fifty = ask(50), hundred = ask(100);
  const Json& c = fifty["candidates"][0];
  for (const char* key : {"instance", "instance_count", "gpus", "layout", "memory_per_gpu_gb", "usd_per_month",
                          "usd_per_million_output_tokens", "output_tokens_per_s", "utilization_pct"})
    CHECK(c.contains(key));
  CHECK(c["p95_time_to_first_token_ms"].get<double>() <= 500);
  CHECK(c["utilization_pct"].get<double>() <= 70.01);
  // Capacity covers the demand: 50 requests/s x 200 output tokens at <= 70 % utilization.
  CHECK(c["output_tokens_per_s"].get<double>() * 0.7 >= 50 * 200 - 1e-6);
  // $ per 1M output tokens = the monthly bill's hourly rate over the tokens served.
  CHECK(c["usd_per_million_output_tokens"].get<double>() ==
        Approx(c["usd_per_hour"].get<double>() / (50 * 200 * 3600.0) * 1e6).epsilon(0.001));
  const double ratio = hundred["candidates"][0]["layout"]["replicas"].get<double>() / c["layout"]["replicas"].get<double>();
  CHECK(ratio >= 1.6);
  CHECK(ratio <= 2.4);
}

TEST_CASE("reliability keeps 10 % of each GPU's memory free by serving fewer sequences, on demand, N+1") {
  const Json demand = {{"requests_per_s", 50}, {"input_tokens", 500}, {"output_tokens", 200}, {"max_ttft_ms", 500}};
  auto ask = [&](const char* priority) {
    return result({{"question", "recommend"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                   {"priority", priority}, {"demand", demand}});
  };
  const Json reliable = ask("reliability"), cheap = ask("cost");
  // A pool engine fills its share of the device at full concurrency: headroom comes from running
  // fewer sequences, so families that fit stay candidates instead of being excluded.
  REQUIRE(reliable["candidates"].size() >= 10);
  for (const Json& c : reliable["candidates"]) {
    INFO(c["instance"]);
    CHECK(c["memory_per_gpu_gib"].get<double>() <= 0.9 * c["capacity_per_gpu_gib"].get<double>() + 0.01);
    CHECK(c["concurrency_per_replica"].get<double>() <= c["max_concurrency_by_kv_cache"].get<double>());
  }
  // N+1: with any one copy down, the others still serve the demand (50 requests/s x 200 tokens).
  for (const Json& c : reliable["candidates"]) {
    INFO(c["instance"]);
    const double copies = c["layout"]["replicas"].get<double>();
    REQUIRE(copies >= 2);
    CHECK(c["output_tokens_per_s"].get<double>() * (copies - 1) / copies >= 50 * 200);
    CHECK_THAT(c["reasons"].dump(), Catch::Contains("N+1"));
  }
  CHECK(reliable["candidates"][0]["usd_per_month"].get<double>() >= cheap["candidates"][0]["usd_per_month"].get<double>());
}

TEST_CASE("batch inference is sized for tokens a month or for a job within its deadline, at full utilization") {
  auto ask = [](const Json& demand) {
    return result({{"question", "recommend"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "batch_inference"},
                   {"families", {"G6e"}}, {"demand", demand}})["candidates"][0];
  };
  // 1e9 output tokens in 2 days is 5787 tokens/s; in 8 days a quarter of it.
  const Json fast = ask({{"dataset_tokens", 1e9}, {"deadline_days", 2}});
  const Json slow = ask({{"dataset_tokens", 1e9}, {"deadline_days", 8}});
  CHECK(fast["output_tokens_per_s"].get<double>() >= 1e9 / (2 * 86400.0));
  CHECK(fast["utilization_pct"].get<double>() <= 100.01);
  CHECK(fast["gpus"].get<double>() > slow["gpus"].get<double>());
  const Json monthly = ask({{"tokens_per_month", 1e9 / 2 * 30}});  // the same rate over a 720 h month
  CHECK(monthly["gpus"] == fast["gpus"]);
}

TEST_CASE("the seed method's memory is the deployment's memory, with no architecture lines beside it") {
  const Json f = result({{"question", "fit"}, {"model", {{"size", "small"}}}, {"workload", "inference"},
                         {"precision", "fp16"}, {"instance", "g6e.xlarge"}, {"gpus", 1}, {"memory_method", "seed"}});
  // seed 004: 13B x 2 bytes x 1.2 = 31.2 GB, whatever KV cache the sequences hold
  CHECK(f["deployment"]["memory_per_gpu_gb"].get<double>() == Approx(31.2).epsilon(0.001));
  CHECK_FALSE(f["deployment"].contains("memory_per_gpu"));
  CHECK(f["memory"]["multiplier"].get<double>() == Approx(1.2));
}

TEST_CASE("setups that cannot run are refused with the reason and a way out") {
  auto fit = [](const char* model, const char* precision, const char* instance, double gpus, const char* task = "inference") {
    return result({{"question", "fit"}, {"model", {{"name", model}}}, {"workload", task}, {"precision", precision},
                   {"instance", instance}, {"gpus", gpus}});
  };
  SECTION("fp8 on V100-16GB") {
    const Json r = fit("llama-3.1-8b", "fp8", "p3.2xlarge", 1);
    CHECK(r["status"] == "CANNOT RUN");
    CHECK_THAT(r["deployment"]["refusal"].get<std::string>(), Catch::Contains("fp8") && Catch::Contains("Volta"));
    CHECK_FALSE(r["deployment"]["way_out"].get<std::string>().empty());
  }
  SECTION("bf16 on T4") {
    const Json r = fit("llama-3.1-8b", "bf16", "g4dn.xlarge", 1);
    CHECK(r["status"] == "CANNOT RUN");
    CHECK_THAT(r["deployment"]["way_out"].get<std::string>(), Catch::Contains("fp16"));
  }
  SECTION("llama-3.1-8b bf16 on g6f.2xlarge, a quarter of an L4") {
    const Json r = fit("llama-3.1-8b", "bf16", "g6f.2xlarge", 1);
    CHECK(r["status"] == "CANNOT FIT MODEL");
    CHECK(r["ways_out"]["summary"].get<std::string>().size() > 0);
  }
  SECTION("llama-3.1-405b training on g4dn.xlarge") {
    const Json r = fit("llama-3.1-405b", "fp16", "g4dn.xlarge", 1, "training");
    CHECK(r["status"] == "CANNOT FIT MODEL");
    const Json e = refusal({{"question", "estimate"}, {"model", {{"name", "llama-3.1-405b"}}}, {"weight_format", "fp16"},
                            {"phase", "training"}, {"instance", "g4dn.xlarge"}, {"dataset_tokens", 1e9}});
    CHECK(e["code"] == "cannot_answer");
  }
  SECTION("tensor parallelism 3 for a 64-head model") {
    const Json r = fit("llama-3.1-70b", "bf16", "p4de.24xlarge", 3);
    CHECK(r["status"] == "CANNOT RUN");
    CHECK_THAT(r["deployment"]["refusal"].get<std::string>(), Catch::Contains("64 attention heads"));
    const Json e = refusal({{"question", "estimate"}, {"model", {{"name", "llama-3.1-70b"}}}, {"instance", "p4de.24xlarge"},
                            {"tensor_parallel", 3}, {"gpus", 3}});
    CHECK_THAT(e["message"].get<std::string>(), Catch::Contains("64 attention heads"));
  }
  SECTION("a concurrency above what the KV cache holds") {
    const Json e = refusal({{"question", "estimate"}, {"model", {{"name", "llama-3.1-8b"}}}, {"instance", "g6e.xlarge"},
                            {"concurrency", 100000}});
    CHECK(e["path"] == "/concurrency");
    CHECK_THAT(e["message"].get<std::string>(), Catch::Contains("KV cache holds"));
  }
}

TEST_CASE("serving on AWS Neuron takes the model types NxD Inference supports, and refuses the others") {
  auto fit = [](const char* model, const char* instance, double gpus) {
    return result({{"question", "fit"}, {"model", {{"name", model}}}, {"workload", "inference"}, {"precision", "bf16"},
                   {"instance", instance}, {"gpus", gpus}});
  };
  for (const char* model : {"gemma-2-27b", "deepseek-v3", "phi-3-mini-4k-instruct"}) {
    INFO(model);
    const Json r = fit(model, "inf2.48xlarge", 12);
    CHECK(r["status"] == "CANNOT RUN");
    CHECK_THAT(r["deployment"]["refusal"].get<std::string>(),
               Catch::StartsWith("model type ") && Catch::Contains("serving stack runs") && Catch::Contains("model-reference"));
    CHECK_THAT(r["deployment"]["way_out"].get<std::string>(), Catch::Contains("GPU instance"));
  }
  // Llama and Qwen 2.5 are on the list: no such refusal on Inferentia or Trainium.
  for (const auto& [model, instance] : {std::pair{"llama-3.1-70b", "inf2.48xlarge"}, {"qwen2.5-72b", "trn1.32xlarge"}}) {
    INFO(model);
    const Json r = fit(model, instance, 12);
    CHECK(r["deployment"].value("refusal", std::string()).find("model type") == std::string::npos);
  }
  // A recommendation among Neuron kinds has no candidate for an unsupported type (Llama has some); on GPUs it runs.
  auto neuron_picks = [](const char* model) {
    return result({{"question", "recommend"}, {"model", {{"name", model}}}, {"workload", "inference"},
                   {"precision", "bf16"}, {"kinds", {"inferentia", "trainium"}}})["candidates"].size();
  };
  CHECK(neuron_picks("gemma-2-9b") == 0);
  CHECK(neuron_picks("llama-3.1-8b") > 0);
  CHECK(fit("gemma-2-27b", "p4de.24xlarge", 1)["status"] == "FITS");
}

TEST_CASE("a refusal on AWS Neuron hardware counts Trainium chips, not GPUs") {
  // 70B full fine-tuning on 16 Trainium1 chips (32 GiB each) does not fit: the sentence and its way
  // out name the chips as what they are.
  const Json r = result({{"question", "fit"}, {"model", {{"params_b", 70}}}, {"workload", "fine_tuning"},
                         {"precision", "bf16"}, {"instance", "trn1.32xlarge"}, {"gpus", 16}});
  REQUIRE(r["deployment"]["runs"] == false);
  const std::string why = r["deployment"]["refusal"].get<std::string>() + " / " + r["deployment"]["way_out"].get<std::string>();
  INFO(why);
  CHECK_THAT(why, Catch::Contains("per Trainium chip over 16 x AWS Trainium1"));
  CHECK_THAT(why, Catch::Contains("more Trainium chips"));
  CHECK(why.find("GPU") == std::string::npos);
  // The same refusal on GPUs still says GPU.
  const Json g = result({{"question", "fit"}, {"model", {{"params_b", 70}}}, {"workload", "fine_tuning"},
                         {"precision", "bf16"}, {"instance", "g6e.12xlarge"}, {"gpus", 4}});
  REQUIRE(g["deployment"]["runs"] == false);
  CHECK_THAT(g["deployment"]["refusal"].get<std::string>(), Catch::Contains("per GPU"));
  // A ranked Inferentia candidate's reasons and notes name its chips and its kind, not "GPU" or a key.
  const Json rec = result({{"question", "recommend"}, {"model", {{"params_b", 13}}}, {"workload", "inference"},
                           {"precision", "fp16"}, {"kinds", {"inferentia"}}});
  REQUIRE(rec["candidates"].size() >= 1);
  const Json& inf = rec["candidates"][0];
  REQUIRE(inf["accelerator_kind"] == "inferentia");
  CHECK_THAT(inf["reasons"][0].get<std::string>(), Catch::StartsWith("fits: ") && Catch::Contains(" GB per Inferentia chip of "));
  for (const auto& note : inf["notes"]) CHECK(note.get<std::string>().rfind("inferentia:", 0) == std::string::npos);
}

TEST_CASE("tensor parallelism over Azure NC A100 v4's PCIe A100s pays PCIe bandwidth, not NVLink") {
  auto ttft = [](const char* instance) {
    const Json r = result({{"question", "estimate"}, {"model", {{"name", "llama-3.1-70b"}}}, {"instance", instance},
                           {"tensor_parallel", 4}, {"gpus", 4}, {"concurrency", 1},
                           {"input_tokens", 1000}, {"output_tokens", 1000}});
    return r;
  };
  // A 1,000-token prompt: its all-reduces (2 per layer, 8 KiB per token each) take 177 ms over
  // PCIe against 20 ms over NVSwitch, beside 173 ms of compute. At a 500-token prompt the compute
  // has a floor that the all-reduces do not (160 ms against 89 ms over PCIe): the gap narrows to
  // 1.45x, so the prompt length is set here, not left to the default.
  const Json pcie = ttft("Standard_NC96ads_A100_v4"), nvlink = ttft("Standard_ND96amsr_A100_v4");
  // PCIe Gen4 x16: 64 GB/s both ways, 32 one way (the catalog's interconnect_bandwidth_gbps / 2).
  CHECK(pcie["device"]["link_gb_per_s"] == 32);
  CHECK(nvlink["device"]["link_gb_per_s"] == 300);
  CHECK(pcie["inference"]["time_to_first_token_ms"].get<double>() >
        1.5 * nvlink["inference"]["time_to_first_token_ms"].get<double>());
}

TEST_CASE("a PCIe-only instance's tensor-parallel group pays its PCIe figure, never its GPU's NVLink") {
  const CatalogLoad load = load_catalog(test::config_sources());
  REQUIRE(load.errors.empty());
  const Catalog& c = *load.catalog;
  int pcie_only = 0;
  for (const auto& it : c.instances) {
    if (it.accelerator_kind == "cpu" || it.gpus < 2 || it.nvlink_domain_gpus != 1) continue;
    INFO(it.name);
    const TensorLink l = tensor_link(it, 2);
    CHECK(l.kind == "pcie");
    CHECK(l.gb_per_s == it.interconnect_bandwidth_gb_per_s / 2);
    CHECK(instance_device(c, it, 2).link_gb_per_s == l.gb_per_s);
    CHECK_THAT(l.basis, Catch::Contains("no NVLink domain") && Catch::Contains("PCIe"));
    ++pcie_only;
  }
  CHECK(pcie_only >= 20);  // 22: the multi-GPU sizes of G4dn, G5, G6, G6e, G7e, N1 T4, G2, NCasT4_v3, NCv3, NC A100 v4
  // The same A100 80GB: the GPU's own link is NVLink (300 GB/s one way), the PCIe cards get 32.
  const InstanceType& pcie = *c.instance("Standard_NC96ads_A100_v4");
  const InstanceType& nvswitch = *c.instance("Standard_ND96amsr_A100_v4");
  REQUIRE(c.gpu("A100-80GB") != nullptr);
  CHECK(c.device(*c.gpu("A100-80GB")).link_gb_per_s == 300);
  CHECK(tensor_link(pcie, 2).gb_per_s == 32);
  CHECK(tensor_link(nvswitch, 2).kind == "domain");
  CHECK(tensor_link(nvswitch, 8).gb_per_s == 300);
  // NCv3's V100 cards: PCIe Gen3 x16, 16 GB/s one way, where p3's SXM2 V100s get NVLink's 150.
  CHECK(tensor_link(*c.instance("Standard_NC24s_v3"), 4).gb_per_s == 16);
  CHECK(tensor_link(*c.instance("p3.16xlarge"), 4).gb_per_s == 150);
}

TEST_CASE("a tensor-parallel group larger than the NVLink domain crosses PCIe, a smaller one stays inside") {
  // p4de.24xlarge with its 8 A100s cut into NVLink pairs (as a family with bridged PCIe cards):
  // TP 2 stays in a pair at NVLink speed, TP 4 crosses pairs and is not costed as inside one.
  const auto sources = test::edited(kGpuInstancesFile, [](Json& d) { d["gpu_instances"]["P4de"]["nvlink_domain_gpus"] = 2; });
  const CatalogLoad load = load_catalog(sources);
  REQUIRE(load.errors.empty());
  const InstanceType& paired = *load.catalog->instance("p4de.24xlarge");
  const TensorLink two = tensor_link(paired, 2), four = tensor_link(paired, 4);
  CHECK(two.kind == "domain");
  CHECK(two.gb_per_s == 300);
  CHECK(four.kind == "pcie");
  CHECK(four.gb_per_s == 0);  // no PCIe figure between domains: the throughput model's PCIe class
  CHECK_THAT(four.basis, Catch::Contains("crosses") && Catch::Contains("2-GPU domains") &&
                             Catch::Contains(report::short_number(kUnknownLinkGbPerS) + " GB/s per direction assumed"));
  // The answer says which link and costs it: TP 4 over the pairs is slower than inside one NVSwitch.
  const Analyzer paired_analyzer(sources);
  const Json request = {{"question", "estimate"}, {"model", {{"name", "llama-3.1-70b"}}}, {"instance", "p4de.24xlarge"},
                        {"tensor_parallel", 4}, {"gpus", 4}, {"concurrency", 1}};
  const Json crossed = test::ask(paired_analyzer, request), inside = test::ask(test::shipped(), request);
  REQUIRE(crossed["ok"] == true);
  REQUIRE(inside["ok"] == true);
  CHECK(crossed["result"]["device"]["link"] == "pcie");
  CHECK(inside["result"]["device"]["link"] == "domain");
  CHECK(crossed["result"]["inference"]["time_to_first_token_ms"].get<double>() >
        1.5 * inside["result"]["inference"]["time_to_first_token_ms"].get<double>());
}

TEST_CASE("a size with fewer GPUs than its family's NVLink domain joins those it has") {
  const CatalogLoad load = load_catalog(test::config_sources());
  REQUIRE(load.errors.empty());
  const Catalog& c = *load.catalog;
  CHECK(tensor_link(*c.instance("p5.4xlarge"), 1).domain_gpus == 1);
  CHECK(tensor_link(*c.instance("p5.4xlarge"), 1).kind == "none");
  CHECK(tensor_link(*c.instance("a2-ultragpu-2g"), 2).domain_gpus == 2);
  CHECK(tensor_link(*c.instance("a2-ultragpu-2g"), 2).kind == "domain");
  CHECK(tensor_link(*c.instance("p3.8xlarge"), 4).domain_gpus == 4);
  CHECK(tensor_link(*c.instance("Standard_NC40ads_H100_v5"), 1).domain_gpus == 1);
  CHECK(tensor_link(*c.instance("Standard_NC80adis_H100_v5"), 2).kind == "domain");
}

TEST_CASE("a family that names no NVLink domain (as the seed's new-GPU entry) keeps its interconnect for the whole instance, said so") {
  const auto sources = test::edited(kGpuInstancesFile, [](Json& d) { d["gpu_instances"]["P4de"].erase("nvlink_domain_gpus"); });
  const CatalogLoad load = load_catalog(sources);
  REQUIRE(load.errors.empty());
  const TensorLink l = tensor_link(*load.catalog->instance("p4de.24xlarge"), 8);
  CHECK(l.kind == "domain");
  CHECK(l.gb_per_s == 300);
  CHECK_THAT(l.basis, Catch::Contains("names no domain"));
}

TEST_CASE("a size class or a parameter count is a generic dense decoder of that size, stated") {
  const Json r = result({{"question", "fit"}, {"model", {{"params_b", 13}}}, {"workload", "inference"},
                         {"precision", "fp16"}, {"instance", "g6e.xlarge"}});
  const std::string shape = r["request"]["model"]["shape"];
  CHECK_THAT(shape, Catch::Contains("Llama 3.1 8B") && Catch::Contains("layers"));
  // Its weights: 13 B x 2 bytes within 3 % (layers are whole).
  CHECK(r["memory"]["weights_gb"].get<double>() == Approx(26).epsilon(0.03));
}

TEST_CASE("a tensor-parallel deployment's memory summary splits the weights per GPU") {
  // Llama 3.1 70B in bf16 over 8 A100s: 70.55 B x 2 bytes = 141.1 GB, 17.64 GB per GPU; the
  // summary's weights + overhead add up to the GPU's total (the whole model was shown as per GPU).
  const Json r = test::ask(test::shipped(), {{"question", "fit"}, {"model", {{"name", "llama-3.1-70b"}}}, {"workload", "inference"},
                                             {"precision", "bf16"}, {"instance", "p4d.24xlarge"}, {"gpus", 8}});
  REQUIRE(r["ok"] == true);
  const Json& m = r["result"]["memory"];
  REQUIRE(r["result"]["deployment"]["layout"]["tensor_parallel"] == 8);
  CHECK(m["weights_gb"].get<double>() == Approx(141.1 / 8).epsilon(0.005));
  CHECK(m["weights_gb"].get<double>() + m["overhead_gb"].get<double>() == Approx(m["total_gb"].get<double>()).margin(0.02));
}

TEST_CASE("same_device: a type's offers in every region share its estimates, another link or memory does not") {
  const Catalog& c = *catalog_of(test::shipped());
  REQUIRE(c.offers != nullptr);
  // Every offer of an instance type presents the device its catalog entry does.
  int shared = 0;
  for (const auto& offer : *c.offers) {
    const InstanceType* home = c.instance(offer.name);
    if (!home || home == &offer || offer.accelerator_kind == "cpu") continue;
    INFO(offer.name << " in " << offer.region);
    CHECK(same_device(*home, offer, 1));
    ++shared;
  }
  CHECK(shared > 500);  // every region's prices are loaded
  // The A100 80GB on NVSwitch and on PCIe cards: a tensor-parallel pair is not the same device
  // (300 GB/s NVLink against 32 GB/s PCIe), and a copy of the NVSwitch type at one GPU is.
  const InstanceType& nvswitch = *c.instance("Standard_ND96amsr_A100_v4");
  const InstanceType& pcie = *c.instance("Standard_NC96ads_A100_v4");
  REQUIRE(nvswitch.gpu_model == pcie.gpu_model);
  CHECK_FALSE(same_device(nvswitch, pcie, 2));
  const InstanceType copy = nvswitch;
  CHECK(same_device(nvswitch, copy, 1));
  CHECK(same_device(nvswitch, copy, 8));
  // Less memory per GPU is another device (the memory holds the KV cache the batch depends on).
  InstanceType smaller = nvswitch;
  smaller.memory_per_gpu_bytes /= 2;
  CHECK_FALSE(same_device(nvswitch, smaller, 1));
  InstanceType quarter = nvswitch;
  quarter.gpu_fraction = 0.25;
  CHECK_FALSE(same_device(nvswitch, quarter, 1));
}

// A copy's capacity and its TPOT are one figure seen two ways: capacity x TPOT = concurrency
// (Little's law), for one GPU, tensor parallel and pipeline stages across instances alike; so a
// pipeline-parallel copy never serves more than concurrency / TPOT (the 405B over four p5.48xlarge
// once claimed 5,550 tokens/s at 256 sequences and 80 ms per token: at most 3,200).
TEST_CASE("every serving candidate's capacity x TPOT = its concurrency, pipeline stages included") {
  int pipelined = 0, checked = 0;
  for (const char* model : {"llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b"}) {
    const Json r = result({{"question", "recommend"}, {"model", {{"name", model}}}, {"workload", "inference"},
                           {"limit", 40}, {"demand", {{"requests_per_s", 2}, {"input_tokens", 500}, {"output_tokens", 200}}}});
    for (const Json& c : r["candidates"]) {
      if (!c.contains("concurrency_per_replica")) continue;
      const double copies = c["layout"]["replicas"].get<double>();
      const double per_copy = c["output_tokens_per_s"].get<double>() / copies;
      const double concurrency = c["concurrency_per_replica"].get<double>();
      INFO(model << " on " << c["instance"] << " x " << c["instance_count"] << ", layout " << c["layout"].dump());
      CHECK(per_copy * c["time_per_output_token_ms"].get<double>() / 1000 == Approx(concurrency).epsilon(0.005));
      CHECK(per_copy <= concurrency / (c["time_per_output_token_ms"].get<double>() / 1000) * 1.005);
      pipelined += c["layout"]["pipeline_parallel"].get<double>() > 1;
      ++checked;
    }
  }
  CHECK(checked >= 20);
  CHECK(pipelined >= 1);
}

// A job with a deadline costs the hours it runs, not a month: a 2-day batch-inference job on a
// $6.88/h instance once showed $4,953.60 "per month" (720 h) for a job of a day or two.
TEST_CASE("a batch-inference job with a deadline is priced as a job, by its hours") {
  const Json r = result({{"question", "recommend"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "batch_inference"},
                         {"demand", {{"dataset_tokens", 2e9}, {"deadline_days", 2}, {"input_tokens", 500}, {"output_tokens", 200}}},
                         {"limit", 10}});
  int jobs = 0;
  for (const Json& c : r["candidates"]) {
    if (!c.contains("run_hours")) continue;
    INFO(c.dump().substr(0, 800));
    ++jobs;
    CHECK(c["usd_per_month"].is_null());  // nothing recurs monthly
    const double hours = c["run_hours"].get<double>(), rate = c["usd_per_hour"].get<double>();
    CHECK(hours <= 48.01);  // within the deadline
    CHECK(hours == Approx(2e9 / c["output_tokens_per_s"].get<double>() / 3600).epsilon(0.002));
    CHECK(c["usd_per_run"].get<double>() == Approx(std::max(hours, 60.0 / 3600) * rate).epsilon(0.002));
    CHECK(c["usd_per_run"].get<double>() < rate * 720 / 10);  // a fraction of the month's bill
  }
  CHECK(jobs >= 3);
  // Ranked by the job's cost.
  for (std::size_t i = 1; i < r["candidates"].size(); ++i)
    if (r["candidates"][i - 1].contains("usd_per_run") && r["candidates"][i].contains("usd_per_run"))
      CHECK(r["candidates"][i - 1]["usd_per_run"].get<double>() <= r["candidates"][i]["usd_per_run"].get<double>() + 1e-6);
}

// Without a demand a migration compares one instance's capacity with another's: each alternative
// says by how much its capacity differs, first, instead of a bare saving.
TEST_CASE("a migration without a demand says how much capacity each alternative has against today's") {
  const Json r = result({{"question", "migrate"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                         {"current", {{"instance", "p5.48xlarge"}, {"gpus", 8}}}});
  const double today = r["current"]["performance"]["score"].get<double>();
  int said = 0;
  for (const Json& c : r["alternatives"]) {
    const Json& ratio = c["performance"]["capacity_ratio_to_current"];
    if (ratio.is_null()) continue;
    CHECK(ratio.get<double>() == Approx(c["performance"]["score"].get<double>() / today).epsilon(0.01).margin(0.0006));
    if (ratio.get<double>() < 0.95 || ratio.get<double>() > 1.05) {
      CHECK_THAT(c["reasons"][0].get<std::string>(), Catch::Contains("not the same capacity"));
      ++said;
    }
  }
  CHECK(said >= 1);
}

TEST_CASE("a first pick without a measured speed error is said before anything else") {
  const Json r = result({{"question", "recommend"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                         {"kinds", {"inferentia"}}, {"demand", {{"requests_per_s", 5}}}});
  REQUIRE(r["candidates"].size() >= 1);
  REQUIRE(r["candidates"][0]["uncalibrated"] == true);
  CHECK(r.begin().key() == "first_pick_caveat");
  const std::string caveat = r["first_pick_caveat"].get<std::string>();
  CHECK_THAT(caveat, Catch::Contains("compiled for AWS Neuron"));
  // The caveat states the same measured error as the first pick's band, never "no measured error" beside one.
  const Json& error = r["candidates"][0]["band"]["expected_error"];
  if (error["n"].get<int>() > 0) {
    CHECK_THAT(caveat, Catch::Contains("90 % within " + text::short_number(error["p90_abs_err_pct"].get<double>()) + " %"));
    CHECK_THAT(caveat, !Catch::Contains("no measured"));
  }
  const Json gpu = result({{"question", "recommend"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                           {"kinds", {"gpu"}}, {"demand", {{"requests_per_s", 5}}}});
  CHECK_FALSE(gpu.contains("first_pick_caveat"));
}

TEST_CASE("vLLM's hybrid KV cache manager: Gemma 3 27B's window layers keep their window, 32k fits one H100") {
  // Gemma 3 27B's text config (google/gemma-3-27b-it): 62 layers, 16 KV heads of 128, a 1024-token
  // window on five layers of every six. Full KV is 62 x 16 x 128 x 2 x 2 bytes = 496 KiB per token,
  // 16.6 GB for one 32,768-token sequence: more than the pool vLLM leaves on an H100 beside 54 GB of
  // bf16 weights. vLLM's hybrid KV cache manager (docs.vllm.ai design/hybrid_kv_cache_manager) keeps
  // a window layer's last sliding_window - 1 + max_num_batched_tokens tokens (8,192 batched tokens
  // on an H100): 10 full layers x 32,768 + 52 window layers x 9,215 tokens x 8 KiB = 6.61 GB.
  const Json gemma3 = {
      {"model_type", "gemma3"},
      {"text_config",
       {{"model_type", "gemma3_text"}, {"hidden_size", 5376}, {"intermediate_size", 21504},
        {"num_attention_heads", 32}, {"num_key_value_heads", 16}, {"head_dim", 128},
        {"num_hidden_layers", 62}, {"sliding_window", 1024}, {"vocab_size", 262208},
        {"max_position_embeddings", 131072}, {"hidden_activation", "gelu_pytorch_tanh"}}}};
  const Json r = result({{"question", "fit"}, {"model", {{"hf_config", gemma3}}}, {"workload", "inference"},
                         {"precision", "bf16"}, {"instance", "p5.4xlarge"},
                         {"demand", {{"input_tokens", 32000}, {"output_tokens", 768}}}});
  const Json& d = r["deployment"];
  INFO(d.dump().substr(0, 1500));
  REQUIRE(d["runs"] == true);
  CHECK(d["max_concurrency_by_kv_cache"].get<double>() >= 1);
  const double per_sequence_gb = 8192.0 * (10 * 32768 + 52 * 9215) / 1e9;
  for (const auto& line : r["memory"]["per_gpu"]) {
    if (line["key"] != "kv_cache") continue;
    const double held_gb = line["gib"].get<double>() / kGiBPerGB;
    const double sequences = d["concurrency_per_replica"].get<double>();
    // The layer shares are the config's 5 of 6 (51.67 window layers for 52): within 2 %.
    CHECK(held_gb == Approx(sequences * per_sequence_gb).epsilon(0.02));
    CHECK_THAT(line["basis"].get<std::string>(), Catch::Contains("sliding-window layers"));
  }
}

// Pipeline stages over an ordinary network (vLLM's docs: tensor parallel inside a node, pipeline
// parallel across nodes, no NVSwitch needed): Llama 3.1 405B in fp8 on 2 x g6e.48xlarge (8 x L40S
// 48 GB each, 400 Gbit/s with EFA). Each stage holds half the 126 layers over TP 8; the copy
// serves its concurrency c as 2 micro-batches of m = c / 2.
//
// The link's cost by hand, per micro-batch (hidden 16,384; vLLM sends hidden states and residual,
// 2 x 16,384 x 2 bytes = 65,536 bytes per token; 400 Gbit/s; 50 us per EFA message, 2 hops a step,
// the second the sampled tokens back to the first stage):
//   a decode step:  2 x 50 us + m x 65,536 x 8 / 400e9 s = 100 us + 1.31072 us x m
//   the prompts:    2 x 50 us + 500 m x 1.31072 us       = 100 us + 655.36 us x m
//   per output token, prompts interleaved (200 out): (100 + 655.36 m + 200 (100 + 1.31072 m)) / 200
//                 = 100.5 us + 4.58752 us x m   (m = 128: 0.688 ms on each token)
TEST_CASE(
    "405B fp8 on 2 x g6e.48xlarge: pipeline stages over EFA fit and serve, the link in every "
    "token's time") {
  const Json request = {{"question", "fit"},
                        {"model", {{"name", "llama-3.1-405b"}}},
                        {"workload", "inference"},
                        {"precision", "fp8"},
                        {"instance", "g6e.48xlarge"},
                        {"gpus", 16},
                        {"demand", {{"input_tokens", 500}, {"output_tokens", 200}}}};
  const Json r = result(request);
  const Json& d = r["deployment"];
  INFO(d.dump().substr(0, 3000));
  REQUIRE(r["status"] != "CANNOT RUN");
  CHECK(d["layout"]["pipeline_parallel"] == 2);
  CHECK(d["layout"]["tensor_parallel"] == 8);
  CHECK(d["instance_count"] == 2);
  CHECK_THAT(d["basis"]["pipeline_link"].get<std::string>(), Catch::Contains("400 Gbit/s efa"));
  CHECK_THAT(d["basis"]["decode"].get<std::string>(), Catch::Contains("between 2 pipeline stages"));
  const double c = d["concurrency_per_replica"].get<double>(),
               tpot = d["time_per_output_token_ms"].get<double>();
  const double m = std::ceil(c / 2);
  // Bounded by its own TPOT: capacity x TPOT = concurrency.
  CHECK(d["output_tokens_per_s"].get<double>() * tpot / 1000 == Approx(c).epsilon(0.005));

  // The same copy with a free link (no latency, 100 Tbit/s): the difference is the hand figure.
  auto free_link = test::edited(kGpuInstancesFile, [](Json& doc) {
    doc["gpu_instances"]["G6e"]["network_gbit_per_s"] = 1e5;
  });
  free_link = test::edited(
      kModelConfigFile,
      [](Json& doc) {
        doc["throughput_model"]["pipeline_parallel"]["rdma_message_latency_us"] = 0;
      },
      free_link);
  const Analyzer free_analyzer(free_link);
  const Json f = test::ask(free_analyzer, request);
  REQUIRE(f["ok"] == true);
  const Json& fd = f["result"]["deployment"];
  REQUIRE(fd["concurrency_per_replica"] == c);
  const double left_at_100tbit_ms = 917.504e-3 * m * 400 / 1e5 / 200;
  CHECK(tpot - fd["time_per_output_token_ms"].get<double>() ==
        Approx((100.5 + 4.58752 * m) / 1000 - left_at_100tbit_ms).epsilon(0.01));
}

// Where the catalog has no sourced network figure for the instances, stages across them cannot be
// costed: refused with that reason and a way out (GCP's A2 pages give only "up to 100 Gbps based
// on the machine type", AWS's P3 lacks an EFA source).
TEST_CASE(
    "pipeline stages across instances whose network the catalog lacks are refused, saying so") {
  for (const auto& [instance, model, precision] :
       {std::tuple{"a2-highgpu-8g", "llama-3.1-405b", "fp8"},
        std::tuple{"p3.16xlarge", "llama-3.1-70b", "fp16"}}) {
    const Json r = result({{"question", "fit"},
                           {"model", {{"name", model}}},
                           {"workload", "inference"},
                           {"precision", precision},
                           {"instance", instance},
                           {"gpus", 16}});
    INFO(instance << ": " << r.dump().substr(0, 1500));
    CHECK(r["status"] == "CANNOT RUN");
    CHECK_THAT(r["deployment"]["refusal"].get<std::string>(),
               Catch::Contains("lacks the network bandwidth between " + std::string(instance)));
    CHECK_FALSE(r["deployment"]["way_out"].get<std::string>().empty());
  }
}

// A recommendation for the 405B among G6e sizes now finds the two-instance pipeline (it was
// excluded: "only NVSwitch-class families ... across instances"), and it serves within its TPOT.
TEST_CASE(
    "recommend finds pipeline stages on a family without NVSwitch when its network is known") {
  const Json r =
      result({{"question", "recommend"},
              {"model", {{"name", "llama-3.1-405b"}}},
              {"workload", "inference"},
              {"precision", "fp8"},
              {"families", {"G6e"}},
              {"demand", {{"requests_per_s", 1}, {"input_tokens", 500}, {"output_tokens", 200}}}});
  INFO(r.dump().substr(0, 2000));
  REQUIRE_FALSE(r["candidates"].empty());
  const Json& c = r["candidates"][0];
  CHECK(c["layout"]["pipeline_parallel"].get<double>() >= 2);
  const double per_copy =
      c["output_tokens_per_s"].get<double>() / c["layout"]["replicas"].get<double>();
  CHECK(per_copy * c["time_per_output_token_ms"].get<double>() / 1000 ==
        Approx(c["concurrency_per_replica"].get<double>()).epsilon(0.005));
}
