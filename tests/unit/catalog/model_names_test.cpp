#include "catalog/model_names.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "catalog/catalog.hpp"
#include "pricing/prices.hpp"
#include "support.hpp"

using namespace gpufleet;
using detail::model_name_form;
using detail::resolve_model_name;

namespace {

const Catalog& shipped_catalog() {
  static const CatalogLoad load = load_catalog(test::config_sources());
  REQUIRE(load.errors.empty());
  return *load.catalog;
}

std::string resolved(const std::string& typed) {
  const auto match = resolve_model_name(shipped_catalog().models, typed);
  return match.model ? match.model->key : "";
}

}  // namespace

TEST_CASE("model names as people type them resolve to the catalog's models (issue 37)") {
  // Issue 37's names, and the same models spelled the other ways people write them.
  CHECK(resolved("meta-llama/Llama-3.1-8B-Instruct") == "llama-3.1-8b");
  CHECK(resolved("Llama-3.1-8B-Instruct") == "llama-3.1-8b");
  CHECK(resolved("llama3 8b") == "llama-3-8b");
  CHECK(resolved("Qwen2.5-7B-Instruct") == "qwen2.5-7b");
  CHECK(resolved("qwen/qwen2.5-7b-chat") == "qwen2.5-7b");
  CHECK(resolved("Llama 3.1 8B") == "llama-3.1-8b");
  CHECK(resolved("LLAMA_3.1_70B") == "llama-3.1-70b");
  CHECK(resolved("meta-llama/Meta-Llama-3-70B-Instruct") == "llama-3-70b");
  CHECK(resolved("mistralai/Mistral-7B-Instruct-v0.1") == "mistral-7b-v0.1");
  CHECK(resolved("google/gemma-2-9b-it") == "gemma-2-9b");
  // Sizes and versions are not guessed: 3 is not 3.1, 8B is not 70B.
  CHECK(resolved("llama 3.2 8b") == "");
  CHECK(resolved("qwen2.5 14b") == "");
}

TEST_CASE("the resolver says which spelling matched") {
  const auto& models = shipped_catalog().models;
  CHECK(resolve_model_name(models, "llama-3.1-8b").how == "key");
  CHECK(resolve_model_name(models, "meta-llama/Llama-3.1-8B").how == "hf_id");
  CHECK(resolve_model_name(models, "llama3.1-8b").how == "alias");
  CHECK(resolve_model_name(models, "Llama-3.1-8B-Instruct").how == "alias");
  CHECK(resolve_model_name(models, "llama 3.1 8b instruct").how == "normalized");
}

TEST_CASE("every spelling the catalog lists names its own model and no other") {
  const auto& models = shipped_catalog().models;
  for (const auto& m : models) {
    std::vector<std::string> spellings{m.key, m.hf_id};
    spellings.insert(spellings.end(), m.aliases.begin(), m.aliases.end());
    for (const auto& name : spellings) {
      INFO(m.key << " spelled " << name << " (form " << model_name_form(name) << ")");
      const auto match = resolve_model_name(models, name);
      REQUIRE(match.model != nullptr);
      CHECK(match.model->key == m.key);
      // The normalized form alone reaches the same model (no two models share a form).
      const auto by_form = resolve_model_name(models, model_name_form(name) + " ");
      REQUIRE(by_form.model != nullptr);
      CHECK(by_form.model->key == m.key);
    }
  }
}

TEST_CASE("an unknown name gets the nearest models, ranked, and the config.json way out") {
  const auto& models = shipped_catalog().models;
  const auto llama = resolve_model_name(models, "llama 3.1 9b");
  REQUIRE(llama.model == nullptr);
  REQUIRE(!llama.suggestions.empty());
  CHECK(llama.suggestions.size() <= 5);
  CHECK(llama.suggestions.front()->key.rfind("llama-3.1", 0) == 0);
  const auto whisper = resolve_model_name(models, "wisper-large-v3");
  REQUIRE(!whisper.suggestions.empty());
  CHECK(whisper.suggestions.front()->key == "whisper-large-v3");
  const std::string message = detail::unknown_model_message(llama, "llama 3.1 9b");
  CHECK(message.find("did you mean llama-3.1-") != std::string::npos);
  CHECK(message.find("hf_config") != std::string::npos);
  // A name like nothing in the catalog gets no suggestions, only the way out.
  const auto none = resolve_model_name(models, "zzzz");
  CHECK(none.model == nullptr);
  CHECK(none.suggestions.empty());
  CHECK(detail::unknown_model_message(none, "zzzz").find("hf_config") != std::string::npos);
}

TEST_CASE(
    "every question's model name goes through the resolver, and the answer says what it resolved "
    "to") {
  const Json fit =
      test::ask(test::shipped(), {{"question", "fit"},
                                  {"model", {{"name", "meta-llama/Llama-3.1-8B-Instruct"}}},
                                  {"workload", "inference"},
                                  {"instance", "g6.xlarge"}});
  REQUIRE(fit["ok"] == true);
  const Json& model = fit["result"]["request"]["model"];
  CHECK(model["key"] == "llama-3.1-8b");
  CHECK(model["typed_name"]["typed"] == "meta-llama/Llama-3.1-8B-Instruct");
  CHECK(model["typed_name"]["matched_by"] == "normalized");

  const Json memory =
      test::ask(test::shipped(), {{"question", "memory"}, {"model", {{"name", "llama3 8b"}}}});
  REQUIRE(memory["ok"] == true);
  CHECK(memory["result"]["model"]["key"] == "llama-3-8b");
  CHECK(memory["result"]["model"]["typed_name"]["typed"] == "llama3 8b");

  // The catalog's own key needs no explanation.
  const Json by_key =
      test::ask(test::shipped(), {{"question", "memory"}, {"model", {{"name", "llama-3-8b"}}}});
  CHECK_FALSE(by_key["result"]["model"].contains("typed_name"));

  const Json unknown =
      test::ask(test::shipped(), {{"question", "memory"}, {"model", {{"name", "llama 3.1 9b"}}}});
  REQUIRE(unknown["ok"] == false);
  CHECK(unknown["errors"][0]["code"] == "unknown_name");
  CHECK(unknown["errors"][0]["path"] == "/model/name");
  CHECK(unknown["errors"][0]["message"].get<std::string>().find("did you mean") !=
        std::string::npos);
}
