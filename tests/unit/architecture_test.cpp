// Architectures read from Hugging Face config.json objects, and the parameter counts and KV-cache
// sizes that follow: the shipped catalog against its published figures, the measurement cases of
// tests/data/cases against their exact safetensors totals, and bad configs named by JSON path.
#include "model/architecture.hpp"
#include "catalog/architecture_reader.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>

#include "support.hpp"
#include "api/analyzer_access.hpp"

using namespace gpufleet;

namespace {

// Significant digits of a whole number: 8030261248 has 10, 7610000000 has 3.
int significant_digits(double value) {
  std::string digits = std::to_string(static_cast<long long>(std::llround(value)));
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  return static_cast<int>(digits.size());
}

const Json& memory_cases() {
  static const Json cases =
      Json::parse(test::read_file(test::source_path("tests/data/cases/memory_cases_dev.json")));
  return cases;
}

// The architecture of a measurement case (tests/data/cases/memory_cases_dev.json) by its id.
Architecture case_architecture(const std::string& id) {
  for (const auto& c : memory_cases()) {
    if (c["id"] != id) continue;
    Errors errors;
    auto arch =
        read_architecture(c["model"]["architecture"], "case " + id, "/model/architecture", errors);
    INFO(id << (errors.empty() ? std::string()
                               : ": " + errors.front().path + " " + errors.front().message));
    REQUIRE(arch);
    return *arch;
  }
  FAIL("no case " << id);
  return {};
}

Architecture from_config(const Json& config) {
  Errors errors;
  auto arch = read_architecture(config, "test", "/config", errors);
  INFO((errors.empty() ? std::string() : errors.front().path + " " + errors.front().message));
  REQUIRE(arch);
  return *arch;
}

const NamedModel& named(const std::string& key) {
  const NamedModel* m = catalog_of(test::shipped())->model(key);
  INFO(key);
  REQUIRE(m);
  return *m;
}

Json llama_3_8b_config() {
  return {{"model_type", "llama"},     {"num_hidden_layers", 32},      {"hidden_size", 4096},
          {"num_attention_heads", 32}, {"num_key_value_heads", 8},     {"intermediate_size", 14336},
          {"vocab_size", 128256},      {"tie_word_embeddings", false}, {"hidden_act", "silu"}};
}

}  // namespace

TEST_CASE("every catalog model's computed parameters match its published figure") {
  const auto& models = catalog_of(test::shipped())->models;
  REQUIRE(models.size() >= 30);
  for (const auto& m : models) {
    INFO(m.key << ": computed " << m.params.total << ", published " << m.published_parameters);
    REQUIRE(m.published_parameters > 0);
    const double rel = std::fabs(m.params.total - m.published_parameters) / m.published_parameters;
    if (significant_digits(m.published_parameters) > 4) {
      CHECK(rel <= 1e-4);  // an exact count (safetensors total)
    } else {
      // A rounded model-card figure (124M, 9.24B); whisper's README sizes run 1-3 % above.
      CHECK(rel <= 0.035);
    }
    CHECK(m.params.active <= m.params.total);
    if (m.published_active_parameters > 0) {
      // Mixtral 12.9B and DeepSeek-V3 37B active: rounded model-card figures.
      INFO("active: computed " << m.params.active << ", published "
                               << m.published_active_parameters);
      CHECK(std::fabs(m.params.active - m.published_active_parameters) /
                m.published_active_parameters <=
            0.035);
    }
    CHECK(m.params.linear > 0);
    CHECK(m.params.linear + m.params.embedding + m.params.lm_head + m.params.other ==
          Approx(m.params.total).epsilon(1e-9));
  }
}

TEST_CASE("parameter counts of the measurement cases' architectures are exact") {
  struct Expected {
    const char* id;
    double params;
  };
  // model.params of each case: safetensors totals from the model repositories.
  const Expected expected[] = {
      {"GT12", 15517456384},  // bigcode/octocoder (gpt_bigcode, multi-query)
      {"GT17", 2849757184},   // bigscience/T0_3B (t5)
      {"GT20", 12921057280},  // bigscience/mt0-xxl (mt5)
      {"GT23", 7069016064},   // bigscience/bloomz-7b1
      {"GT24", 8030261248},   // meta-llama/Llama-3.1-8B
      {"GT29", 70553706496},  // meta-llama/Llama-3.1-70B
      {"GT34", 4022468096},   // Qwen/Qwen3-4B
      {"GT36", 6050882784},   // EleutherAI/gpt-j-6b
      {"GT40", 1543304960},   // openai/whisper-large-v2
  };
  for (const auto& e : expected) {
    INFO(e.id);
    CHECK(count_parameters(case_architecture(e.id)).total == e.params);
  }
}

TEST_CASE("BERT-large: 335,141,888 parameters, plus 2,050 for a 2-label classification head") {
  const auto& bert = named("bert-large-uncased");
  CHECK(bert.params.total == 335141888);
  // GT02's architecture is AutoModelForSequenceClassification with 2 labels: 1024 x 2 + 2.
  CHECK(count_parameters(case_architecture("GT02")).total == 335141888 + 2050);
}

TEST_CASE("catalog models that match the cases exactly") {
  CHECK(named("llama-3.1-8b").params.total == 8030261248);
  CHECK(named("llama-3-8b").params.total == 8030261248);
  CHECK(named("llama-3.1-70b").params.total == 70553706496);
  CHECK(named("octocoder").params.total == 15517456384);
  CHECK(named("whisper-large-v2").params.total == 1543304960);
  CHECK(named("gpt-j-6b").params.total == 6050882784);
  CHECK(named("qwen3-4b").params.total == 4022468096);
}

TEST_CASE("mixture of experts: active parameters are what one token passes through") {
  const auto& mixtral = named("mixtral-8x7b-v0.1");
  CHECK(mixtral.params.total == Approx(46.70e9).epsilon(0.001));
  CHECK(mixtral.params.active == Approx(12.9e9).epsilon(0.01));  // 2 of 8 experts
  const auto& deepseek = named("deepseek-v3");
  CHECK(deepseek.params.total == Approx(671e9).epsilon(0.01));
  CHECK(deepseek.params.active == Approx(37e9).epsilon(0.035));  // 8 of 256 routed + 1 shared
  CHECK(deepseek.arch.moe());
  CHECK(deepseek.arch.mla());
  // A dense model is all active.
  CHECK(named("llama-3-8b").params.active == named("llama-3-8b").params.total);
}

TEST_CASE("Qwen2-MoE: the shared expert has its own width and gate (14.3B total, 2.7B active)") {
  // Qwen1.5-MoE-A2.7B's config.json; its model card: "14.3B parameters in total and 2.7B
  // activated parameters during runtime".
  const Json config = {{"model_type", "qwen2_moe"},  {"num_hidden_layers", 24},
                       {"hidden_size", 2048},        {"num_attention_heads", 16},
                       {"num_key_value_heads", 16},  {"intermediate_size", 5632},
                       {"moe_intermediate_size", 1408}, {"num_experts", 60},
                       {"num_experts_per_tok", 4},   {"shared_expert_intermediate_size", 5632},
                       {"vocab_size", 151936},       {"tie_word_embeddings", false}};
  const Architecture a = from_config(config);
  CHECK(a.shared_experts == 1);
  CHECK(a.shared_intermediate == 5632);
  const ParameterCount p = count_parameters(a);
  CHECK(p.total == Approx(14.3e9).epsilon(0.005));
  CHECK(p.active == Approx(2.7e9).epsilon(0.01));
  // Without the shared expert the count would be 5.8 % short.
  Json routed_only = config;
  routed_only.erase("shared_expert_intermediate_size");
  CHECK(count_parameters(from_config(routed_only)).total < 0.95 * p.total);
}

// Llama 4's text model as its config.json gives it (the multimodal config's text_config; the
// vision tower is not counted): Scout 16 experts on every layer, Maverick 128 on every other.
Json llama4_config(double experts, double moe_step) {
  return {{"model_type", "llama4"},
          {"text_config",
           {{"model_type", "llama4_text"}, {"num_hidden_layers", 48}, {"hidden_size", 5120},
            {"num_attention_heads", 40}, {"num_key_value_heads", 8}, {"head_dim", 128},
            {"intermediate_size", 8192}, {"intermediate_size_mlp", 16384},
            {"num_local_experts", experts}, {"num_experts_per_tok", 1},
            {"interleave_moe_layer_step", moe_step}, {"attention_chunk_size", 8192},
            {"vocab_size", 202048}, {"tie_word_embeddings", false}}}};
}

TEST_CASE("Llama 4: interleaved experts with a shared expert, and chunked attention on 3 layers of 4") {
  // By hand: attention 2 x 5120 x 5120 + 2 x 5120 x 1024 = 62,914,560 a layer; an expert (and the
  // shared expert) 3 x 5120 x 8192 = 125,829,120; the dense MLP 3 x 5120 x 16384; routers
  // experts x 5120; two norms of 5120; untied embeddings 2 x 202048 x 5120 and the final norm.
  const double attention = 62914560, expert = 125829120, dense = 251658240, norms = 2 * 5120;
  const double embeddings = 2.0 * 202048 * 5120 + 5120;
  const Architecture scout = from_config(llama4_config(16, 1));
  CHECK(scout.multimodal_type == "llama4");
  CHECK(scout.dense_layers == 0);
  CHECK(scout.chunked_attention);
  CHECK(scout.sliding_window == 8192);
  CHECK(scout.sliding_layer_share == Approx(36.0 / 48));  // every 4th layer is global (NoPE)
  const ParameterCount s = count_parameters(scout);
  CHECK(s.total == Approx(48 * (attention + 17 * expert + 16 * 5120 + norms) + embeddings));
  // Meta's model card: 17B active, 109B total with the vision tower (about 1B here uncounted).
  CHECK(s.active == Approx(17e9).epsilon(0.02));
  CHECK(s.total > 107e9);
  CHECK(s.total < 109e9);
  const Architecture maverick = from_config(llama4_config(128, 2));
  CHECK(maverick.dense_layers == 24);
  const ParameterCount m = count_parameters(maverick);
  CHECK(m.total == Approx(24 * (attention + 129 * expert + 128 * 5120 + norms) +
                          24 * (attention + dense + norms) + embeddings));
  CHECK(m.total == Approx(400e9).epsilon(0.005));  // "400B total"
  CHECK(m.active == Approx(17e9).epsilon(0.02));
}

TEST_CASE("KV-cache elements per token per layer") {
  SECTION(
      "Llama-3-8B, grouped-query: 2 x 8 KV heads x 128 = 2048; 128 KiB per token in bf16 over 32 "
      "layers") {
    const auto& arch = named("llama-3-8b").arch;
    CHECK(kv_elements_per_token_per_layer(arch) == 2048);
    CHECK(kv_elements_per_token_per_layer(arch) * 2 * arch.layers == 128 * 1024);
  }
  SECTION("DeepSeek-V3, multi-head latent attention: the 512 latent + the 64 rope key") {
    CHECK(kv_elements_per_token_per_layer(named("deepseek-v3").arch) == 512 + 64);
  }
  SECTION("octocoder, multi-query: one K and one V head of 128") {
    CHECK(kv_elements_per_token_per_layer(named("octocoder").arch) == 256);
    CHECK(kv_elements_per_token_per_layer(case_architecture("GT12")) == 256);
  }
  SECTION("a config without num_key_value_heads is multi-head") {
    Json config = llama_3_8b_config();
    config.erase("num_key_value_heads");
    CHECK(kv_elements_per_token_per_layer(from_config(config)) == 2 * 32 * 128);
  }
}

TEST_CASE("a config.json read from a request equals the catalog's architecture") {
  const Architecture a = from_config(llama_3_8b_config());
  CHECK(a.kind == ArchKind::kDecoder);
  CHECK(a.head_dim == 128);
  CHECK(a.gated_mlp);
  CHECK_FALSE(a.tied_embeddings);
  CHECK(count_parameters(a).total == 8030261248);
}

TEST_CASE("bad configs are errors naming the JSON path") {
  auto errors_of = [](const Json& config) {
    Errors errors;
    auto arch = read_architecture(config, "request", "/model/hf_config", errors);
    CHECK_FALSE(arch);
    return errors;
  };
  auto has = [](const Errors& errors, const std::string& code, const std::string& path) {
    for (const auto& e : errors) {
      if (e.code == code && e.path == path && e.file == "request" && !e.message.empty())
        return true;
    }
    return false;
  };
  SECTION("missing hidden_size") {
    Json config = llama_3_8b_config();
    config.erase("hidden_size");
    CHECK(has(errors_of(config), "missing_field", "/model/hf_config/hidden_size"));
  }
  SECTION("hidden_size of the wrong type") {
    Json config = llama_3_8b_config();
    config["hidden_size"] = "4096";
    CHECK(has(errors_of(config), "wrong_type", "/model/hf_config/hidden_size"));
  }
  SECTION("a negative layer count") {
    Json config = llama_3_8b_config();
    config["num_hidden_layers"] = -1;
    CHECK(has(errors_of(config), "out_of_range", "/model/hf_config/num_hidden_layers"));
  }
  SECTION("missing model_type") {
    Json config = llama_3_8b_config();
    config.erase("model_type");
    CHECK(has(errors_of(config), "missing_field", "/model/hf_config/model_type"));
  }
  SECTION("not an object") {
    CHECK(has(errors_of(Json::array({1, 2})), "wrong_type", "/model/hf_config"));
  }
  SECTION("more KV heads than heads, or a number that does not divide them") {
    Json config = llama_3_8b_config();
    config["num_key_value_heads"] = 64;
    CHECK(has(errors_of(config), "out_of_range", "/model/hf_config/num_key_value_heads"));
    config["num_key_value_heads"] = 5;
    CHECK(has(errors_of(config), "out_of_range", "/model/hf_config/num_key_value_heads"));
  }
  SECTION("a fractional head count or head width") {
    Json config = llama_3_8b_config();
    config["num_attention_heads"] = 2.5;
    CHECK(has(errors_of(config), "wrong_type", "/model/hf_config/num_attention_heads"));
    config = llama_3_8b_config();
    config["num_attention_heads"] = 24;  // 4096 / 24 is not whole
    config["num_key_value_heads"] = 8;
    CHECK(has(errors_of(config), "wrong_type", "/model/hf_config/head_dim"));
  }
  SECTION("a model_type whose structure is not known, with the supported list") {
    Json config = llama_3_8b_config();
    config["model_type"] = "mamba";
    Errors errors = errors_of(config);
    REQUIRE(has(errors, "unknown_name", "/model/hf_config/model_type"));
    CHECK(errors.front().message.find("llama") != std::string::npos);
    CHECK(errors.front().message.find("params_b") != std::string::npos);  // the way out
  }
  SECTION("zero experts with top-k routing, or a mixture-of-experts type without experts") {
    Json config = llama_3_8b_config();
    config["model_type"] = "mixtral";
    config["num_local_experts"] = 0;
    config["num_experts_per_tok"] = 2;
    CHECK(has(errors_of(config), "out_of_range", "/model/hf_config/num_local_experts"));
    config.erase("num_local_experts");
    CHECK(has(errors_of(config), "missing_field", "/model/hf_config/num_local_experts"));
    config = llama_3_8b_config();
    config["num_experts_per_tok"] = 2;  // routing with no experts to route to
    CHECK(has(errors_of(config), "missing_field", "/model/hf_config/num_local_experts"));
    config = llama_3_8b_config();
    config["model_type"] = "qwen3_moe";
    config["num_experts"] = 0;
    CHECK(has(errors_of(config), "out_of_range", "/model/hf_config/num_experts"));
  }
  SECTION("zero layers, heads or width") {
    for (const char* key :
         {"num_hidden_layers", "num_attention_heads", "hidden_size", "vocab_size"}) {
      Json config = llama_3_8b_config();
      config[key] = 0;
      CHECK(has(errors_of(config), "out_of_range", std::string("/model/hf_config/") + key));
    }
  }
  SECTION("more experts per token than experts") {
    Json config = llama_3_8b_config();
    config["model_type"] = "mixtral";
    config["num_local_experts"] = 8;
    config["num_experts_per_tok"] = 9;
    CHECK(has(errors_of(config), "out_of_range", "/model/hf_config/num_experts_per_tok"));
  }
}

TEST_CASE("a multimodal config is read from its text_config, with what the outer config says") {
  // LLaVA 1.5 7B's config.json shape: the language model under text_config (Llama 2 7B), the
  // vocabulary at the top; Gemma 3 likewise nests its text model as "gemma3_text".
  const Json flat = Json::parse(R"({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
      "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 32, "vocab_size": 32064,
      "max_position_embeddings": 4096})");
  Json nested = Json::parse(R"({"model_type": "llava", "vocab_size": 32064, "vision_config": {"hidden_size": 1024},
      "text_config": {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
      "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 32,
      "max_position_embeddings": 4096}})");
  Errors errors;
  auto a = read_architecture(nested, "request", "/model/hf_config", errors);
  auto b = read_architecture(flat, "request", "/model/hf_config", errors);
  REQUIRE(errors.empty());
  REQUIRE(a);
  CHECK(a->multimodal_type == "llava");
  CHECK(count_parameters(*a).total == count_parameters(*b).total);
  // A fault inside it names the inner path.
  nested["text_config"].erase("num_hidden_layers");
  Errors bad;
  CHECK_FALSE(read_architecture(nested, "request", "/model/hf_config", bad));
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].path == "/model/hf_config/text_config/num_hidden_layers");
  // Through a question: the basis says only the text model is counted.
  nested["text_config"]["num_hidden_layers"] = 32;
  Json r = test::ask(test::shipped(), {{"question", "fit"}, {"model", {{"hf_config", nested}}}, {"workload", "inference"},
                                       {"precision", "bf16"}, {"instance", "g6e.xlarge"}});
  REQUIRE(r["ok"] == true);
  CHECK_THAT(r["result"]["request"].dump(), Catch::Contains("vision tower is not counted"));
}
