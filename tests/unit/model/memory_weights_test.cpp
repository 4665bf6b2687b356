// The memory model's weights part (core/src/model/memory_weights.cpp), through the "memory"
// question: the rotary-embedding tables older transformers releases keep in every attention layer.
// The rest of its figures are checked in memory_model_test.cpp.
#include <catch2/catch.hpp>

#include "api/analyzer_access.hpp"
#include "support.hpp"

using namespace gpufleet;

namespace {

Json memory(const std::string& model, const std::string& version) {
  Json request = {{"question", "memory"},
                  {"model", {{"name", model}}},
                  {"mode", "inference"},
                  {"engine", "transformers"},
                  {"context", 1024}};
  if (!version.empty()) request["engine_version"] = version;
  const Json answer = test::ask(test::shipped(), request);
  INFO(request.dump() << " -> " << answer.dump().substr(0, 600));
  REQUIRE(answer["ok"] == true);
  return answer["result"];
}

double line(const Json& result, const std::string& key) {
  for (const auto& l : result["per_gpu"])
    if (l["key"] == key) return l["bytes"].get<double>();
  return 0;
}

}  // namespace

TEST_CASE("transformers before 4.45 keeps rotary cos/sin tables in every Qwen2 and Mistral layer") {
  for (const char* key : {"qwen2.5-7b", "mistral-7b-v0.1"}) {
    const Architecture& a = catalog_of(test::shipped())->model(key)->arch;
    INFO(key);
    // Each attention layer: cos and sin over every position, head_dim wide, in the model's bf16.
    const double tables = a.layers * 2 * a.max_positions * a.head_dim * 2;
    const Json old = memory(key, "4.38.2"), current = memory(key, "4.45.0"),
               unnamed = memory(key, "");
    CHECK(line(old, "rope_tables") == Approx(tables));
    CHECK(line(current, "rope_tables") == 0);
    CHECK(line(unnamed, "rope_tables") == 0);
    CHECK(old["total_bytes"].get<double>() - current["total_bytes"].get<double>() ==
          Approx(tables));
  }
  // Llama's attention layers are not listed: no tables whatever the release.
  CHECK(line(memory("llama-3-8b", "4.38.2"), "rope_tables") == 0);
}
