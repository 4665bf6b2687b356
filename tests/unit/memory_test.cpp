#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "fleet/seed_memory.hpp"
#include "support.hpp"
#include "api/analyzer_access.hpp"

using namespace gpufleet;

TEST_CASE("precisions reproduce the seed's 35B table: 140 / 70 / 70 / 35 / 35 GB") {
  Json r = test::ask(test::shipped(), {{"question", "precisions"}, {"model", {{"size", "medium"}}}});
  REQUIRE(r["ok"] == true);
  std::map<std::string, double> got;
  for (const auto& row : r["result"]["precisions"]) got[row["precision"]] = row["weights_gb"];
  // Seed 004, "Precision Format Comparison" output for a 35B model.
  CHECK(got["fp32"] == 140);
  CHECK(got["fp16"] == 70);
  CHECK(got["bf16"] == 70);
  CHECK(got["fp8"] == 35);
  CHECK(got["int8"] == 35);
}

TEST_CASE("a parameter count works like a size class") {
  Json r = test::ask(test::shipped(), {{"question", "precisions"}, {"model", {{"params_b", 7}}}});
  REQUIRE(r["ok"] == true);
  CHECK(r["result"]["precisions"][1]["weights_gb"] == 14);  // 7B x 2 bytes
}

TEST_CASE("fine-tuning and inference overheads follow the seed's memory planning") {
  const Catalog& c = *catalog_of(test::shipped());
  ModelSpec small{"small", std::string("small"), 13e9, 1.5};
  const Precision& fp16 = *c.precision("fp16");
  // Seed 004: inference = model size x 1.2, training = model size x 1.5.
  CHECK(memory_requirement(c, small, WorkloadType::kInference, fp16).total_bytes == Approx(31.2e9));
  CHECK(memory_requirement(c, small, WorkloadType::kTraining, fp16).total_bytes == Approx(39e9));
  ModelSpec bare{"20B", std::nullopt, 20e9, 0};
  CHECK(memory_requirement(c, bare, WorkloadType::kFineTuning, fp16).total_bytes == Approx(60e9));
}

TEST_CASE("fit uses usable memory and counts the GPUs needed") {
  const Catalog& c = *catalog_of(test::shipped());
  ModelSpec small{"small", std::string("small"), 13e9, 1.5};
  auto need = memory_requirement(c, small, WorkloadType::kInference, *c.precision("fp16"));  // 31.2 GB
  const InstanceType& l4 = *c.instance("g6.xlarge");  // 22,888 MiB = 24.0 GB usable
  Fit one = fit_on(l4, 1, need);
  CHECK_FALSE(one.fits);
  CHECK(one.gpus_needed == 2);
  Fit two = fit_on(l4, 2, need);
  CHECK(two.fits);
  CHECK(two.utilization == Approx(31.2e9 / (2 * 22888.0 * 1048576)));
}

TEST_CASE("a model too large for the setup gets CANNOT FIT MODEL and concrete ways out") {
  // Full training of a 35B dense decoder (34.616 B parameters): 16 bytes per parameter (bf16
  // weights and gradients, fp32 master weights and Adam moments) = 553.9 GB, the optimizer step's
  // peak (the activations are freed before it); one 80 GiB H100 holds 15 %.
  Json r = test::ask(test::shipped(), {{"question", "fit"}, {"model", {{"size", "medium"}}},
                                       {"workload", "training"}, {"precision", "bf16"},
                                       {"instance", "P5"}, {"gpus", 1}});
  REQUIRE(r["ok"] == true);
  const Json& res = r["result"];
  CHECK(res["status"] == "CANNOT FIT MODEL");
  CHECK(res["fit"]["per_gpu_gb"].get<double>() > 34.616e9 * 16 / 1e9);
  const Json& ways = res["ways_out"];
  // The same family: enough H100s to shard 560 GB over (at least 8), whole p5.48xlarge instances.
  CHECK(ways["more_gpus"]["gpus"].get<double>() >= 8);
  CHECK(ways["more_gpus"]["instance"] == "p5.48xlarge");
  CHECK(ways["more_gpus"]["runs"] == true);
  CHECK_THAT(ways["summary"].get<std::string>(), Catch::Contains("NVIDIA H100"));
  // The seed's rule on request: 70 GB x 1.5 = 105 GB, over the 85.9 GB of one H100.
  Json seed = test::ask(test::shipped(), {{"question", "fit"}, {"model", {{"size", "medium"}}},
                                          {"workload", "training"}, {"precision", "bf16"}, {"instance", "P5"},
                                          {"gpus", 1}, {"memory_method", "seed"}});
  REQUIRE(seed["ok"] == true);
  CHECK(seed["result"]["status"] == "CANNOT FIT MODEL");
  CHECK(seed["result"]["memory"]["total_gb"] == Approx(105));
  CHECK(seed["result"]["fit"]["per_gpu_gb"] == Approx(105));
}

// One vocabulary (issue 30): memory, estimate and right_size read the road's names (workload,
// precision, demand, recipe); their older names stay as aliases and give the same answer.
namespace {
Json asked(Json request) { return test::ask(test::shipped(), request); }
}  // namespace

TEST_CASE("memory: the road's names and the older ones give the same answer (serving)") {
  const Json older = {{"question", "memory"}, {"model", {{"name", "llama-3.1-8b"}}}, {"mode", "inference"},
                      {"weight_format", "bf16"}, {"engine", "vllm"}, {"gpu", "L40S"},
                      {"context", 1000}, {"new_tokens", 300}};
  const Json road = {{"question", "memory"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                     {"precision", "bf16"}, {"engine", "vllm"}, {"gpu", "L40S"},
                     {"demand", {{"input_tokens", 1000}, {"output_tokens", 300}}}};
  const Json a = asked(older), b = asked(road);
  REQUIRE(a["ok"] == true);
  CHECK(a == b);
  CHECK(b["result"]["settings"]["context"] == 1000);
  CHECK(b["result"]["settings"]["new_tokens"] == 300);
  // The road's defaults go with the road's names: a demand without tokens is 500 + 200.
  Json defaults = road;
  defaults["demand"] = Json::object();
  const Json c = asked(defaults);
  REQUIRE(c["ok"] == true);
  CHECK(c["result"]["settings"]["context"] == 500);
  CHECK(c["result"]["settings"]["new_tokens"] == 200);
  // And so does a request with no tokens at all, whichever names it uses (the road's defaults everywhere).
  Json bare = older;
  bare.erase("context");
  bare.erase("new_tokens");
  CHECK(asked(bare)["result"] == c["result"]);
  // An older `context` alone is the whole sequence held: nothing generated beside it.
  Json context_only = bare;
  context_only["context"] = 1000;
  CHECK(asked(context_only)["result"]["settings"]["new_tokens"] == 0);
}

TEST_CASE("memory: a recipe reads as the older training fields") {
  const Json older = {{"question", "memory"}, {"model", {{"name", "llama-3.1-8b"}}}, {"mode", "full_finetune"},
                      {"weight_format", "bf16"}, {"gpu", "H100"}, {"gpus", 8}, {"context", 4096}, {"batch", 2},
                      {"optimizer", "adamw_8bit"}, {"gradient_checkpointing", true}, {"master_weights", true},
                      {"sharding", "zero3"}};
  const Json road = {{"question", "memory"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "fine_tuning"},
                     {"weight_format", "bf16"}, {"gpu", "H100"}, {"gpus", 8},
                     {"recipe", {{"sequence_length", 4096}, {"micro_batch", 2}, {"optimizer", "adamw_8bit"},
                                 {"gradient_checkpointing", true}, {"master_weights", true}, {"sharding", "zero3"}}}};
  const Json a = asked(older), b = asked(road);
  REQUIRE(a["ok"] == true);
  CHECK(a == b);
  // The recipe's defaults are the road's (activations recomputed, ZeRO-3, fp32 master weights).
  Json bare = road;
  bare["recipe"] = {{"sequence_length", 4096}, {"micro_batch", 2}, {"optimizer", "adamw_8bit"}};
  CHECK(asked(bare) == b);
  const Json lora_older = {{"question", "memory"}, {"model", {{"name", "llama-3.1-8b"}}}, {"mode", "lora"},
                           {"lora", {{"rank", 64}}}, {"context", 2048}};
  const Json lora_road = {{"question", "memory"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "lora"},
                          {"recipe", {{"lora_rank", 64}, {"sequence_length", 2048}}}};
  const Json la = asked(lora_older), lb = asked(lora_road);
  REQUIRE(la["ok"] == true);
  CHECK(la == lb);
  Json rank8 = lora_older;
  rank8["lora"]["rank"] = 8;
  CHECK(asked(rank8)["result"]["trainable_parameters"] != la["result"]["trainable_parameters"]);
}

// An older name is its road field exactly: the fields the request leaves out take the recipe's
// defaults (activations recomputed, fp32 master weights, ZeRO-3, 2048 tokens) either way.
TEST_CASE("memory and estimate: an older training name keeps no older defaults") {
  const Json older = {{"question", "memory"}, {"model", {{"name", "llama-3.1-8b"}}}, {"mode", "full_finetune"},
                      {"gpu", "H100"}, {"gpus", 8}, {"optimizer", "adamw_8bit"}};
  const Json road = {{"question", "memory"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "fine_tuning"},
                     {"gpu", "H100"}, {"gpus", 8}, {"recipe", {{"optimizer", "adamw_8bit"}}}};
  const Json a = asked(older), b = asked(road);
  REQUIRE(a["ok"] == true);
  CHECK(a == b);
  CHECK(a["result"]["settings"]["context"] == 2048);
  CHECK(a["result"]["settings"]["sharding"] == "zero3");
  // The task alone: the same answer as the road's name for it, with or without an empty recipe.
  Json bare_older = older, bare_road = road;
  bare_older.erase("optimizer");
  bare_road.erase("recipe");
  const Json c = asked(bare_older);
  CHECK(c == asked(bare_road));
  bare_road["recipe"] = Json::object();
  CHECK(c == asked(bare_road));
  const Json e_older = {{"question", "estimate"}, {"model", {{"name", "llama-3.1-8b"}}}, {"phase", "training"},
                        {"instance", "p5.48xlarge"}, {"gpus", 8}, {"batch", 4}};
  const Json e_road = {{"question", "estimate"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "training"},
                       {"instance", "p5.48xlarge"}, {"gpus", 8}, {"recipe", {{"micro_batch", 4}}}};
  const Json ea = asked(e_older);
  REQUIRE(ea["ok"] == true);
  CHECK(ea == asked(e_road));
}

TEST_CASE("estimate: the road's names and the older ones give the same answer") {
  const Json older = {{"question", "estimate"}, {"model", {{"name", "llama-3.1-8b"}}}, {"phase", "inference"},
                      {"weight_format", "fp8"}, {"gpu", "H100"}, {"input_tokens", 1000}, {"output_tokens", 1000},
                      {"concurrency", 64}};
  const Json road = {{"question", "estimate"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                     {"precision", "fp8"}, {"gpu", "H100"}, {"demand", {{"input_tokens", 1000}, {"output_tokens", 1000}}},
                     {"concurrency", 64}};
  const Json a = asked(older), b = asked(road);
  REQUIRE(a["ok"] == true);
  CHECK(a == b);
  CHECK(b["result"]["settings"]["input_tokens"] == 1000);
  const Json train_older = {{"question", "estimate"}, {"model", {{"name", "llama-3.1-8b"}}}, {"phase", "training"},
                            {"instance", "p5.48xlarge"}, {"gpus", 8}, {"context", 4096}, {"batch", 4}, {"gradient_checkpointing", true},
                            {"dataset_tokens", 1e9}, {"epochs", 2}};
  const Json train_road = {{"question", "estimate"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "training"},
                           {"instance", "p5.48xlarge"}, {"gpus", 8},
                           {"recipe", {{"sequence_length", 4096}, {"micro_batch", 4}, {"gradient_checkpointing", true}}},
                           {"demand", {{"dataset_tokens", 1e9}, {"epochs", 2}}}};
  const Json ta = asked(train_older), tb = asked(train_road);
  REQUIRE(ta["ok"] == true);
  CHECK(ta == tb);
  CHECK(ta["result"]["training"]["hours"].is_number());
}

TEST_CASE("right_size: a model item takes the road's names") {
  const Json older = {{"question", "right_size"},
                      {"models", {{{"model", {{"name", "llama-3.1-8b"}}}, {"mode", "inference"}, {"context", 8192}}}}};
  const Json exact = {{"question", "right_size"},
                      {"models", {{{"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                                   {"demand", {{"input_tokens", 8000}, {"output_tokens", 192}}}}}}};
  Json older_exact = older;
  older_exact["models"][0]["context"] = 8000;
  older_exact["models"][0]["new_tokens"] = 192;
  const Json a = asked(older_exact), b = asked(exact);
  REQUIRE(a["ok"] == true);
  CHECK(a == b);
}

TEST_CASE("a road name beside its older name is refused at the older name's path") {
  const Json both = {{"question", "memory"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                     {"mode", "inference"}};
  const Json r = asked(both);
  REQUIRE(r["ok"] == false);
  CHECK(r["errors"][0]["path"] == "/mode");
  const Json tokens = {{"question", "estimate"}, {"model", {{"name", "llama-3.1-8b"}}}, {"gpu", "H100"},
                       {"input_tokens", 100}, {"demand", {{"input_tokens", 100}}}};
  const Json t = asked(tokens);
  REQUIRE(t["ok"] == false);
  CHECK(t["errors"][0]["path"] == "/input_tokens");
  // A demand's field memory does not read is named, not ignored.
  const Json rate = {{"question", "memory"}, {"model", {{"name", "llama-3.1-8b"}}}, {"demand", {{"requests_per_s", 5}}}};
  const Json q = asked(rate);
  REQUIRE(q["ok"] == false);
  CHECK(q["errors"][0]["path"] == "/demand/requests_per_s");
  // estimate's training speed is a full run's: LoRA is refused with the way out.
  const Json lora = {{"question", "estimate"}, {"model", {{"name", "llama-3.1-8b"}}}, {"gpu", "H100"}, {"workload", "lora"}};
  const Json l = asked(lora);
  REQUIRE(l["ok"] == false);
  CHECK(l["errors"][0]["path"] == "/workload");
}

TEST_CASE(
    "Llama 4 in transformers: the chunked layers' cache holds one chunk, the global ones every "
    "token") {
  // Scout's text model at 32,768 tokens: 12 global layers x 32,768 + 36 chunked layers x 8,192
  // tokens, 2 x 8 KV heads x 128 x 2 bytes = 4 KiB per layer and token: 2,818,572,288 bytes.
  const Json text = {
      {"model_type", "llama4_text"}, {"num_hidden_layers", 48},        {"hidden_size", 5120},
      {"num_attention_heads", 40},   {"num_key_value_heads", 8},       {"head_dim", 128},
      {"intermediate_size", 8192},   {"intermediate_size_mlp", 16384}, {"num_local_experts", 16},
      {"num_experts_per_tok", 1},    {"attention_chunk_size", 8192},   {"vocab_size", 202048}};
  const Json r =
      test::ask(test::shipped(),
                {{"question", "memory"},
                 {"model", {{"hf_config", {{"model_type", "llama4"}, {"text_config", text}}}}},
                 {"workload", "inference"},
                 {"engine", "transformers"},
                 {"demand", {{"input_tokens", 32767}, {"output_tokens", 1}}},
                 {"gpu", "H200"}});
  REQUIRE(r["ok"] == true);
  const Json* kv = nullptr;
  for (const Json& c : r["result"]["per_gpu"])
    if (c["key"] == "kv_cache") kv = &c;
  REQUIRE(kv != nullptr);
  CHECK((*kv)["bytes"].get<double>() == Approx(4096.0 * (12 * 32768 + 36 * 8192)));
  CHECK((*kv)["basis"].get<std::string>().find("chunked-attention layers keep 8192") !=
        std::string::npos);
}
