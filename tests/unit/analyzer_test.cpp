// The entry point never throws: every bad request is an error naming the request path.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace gpufleet;

namespace {

Json first_error(const std::string& request_text) {
  Json r = Json::parse(test::shipped().analyze_json(request_text));
  REQUIRE(r["ok"] == false);
  REQUIRE_FALSE(r["errors"].empty());
  CHECK(r["errors"][0]["file"] == "request");
  return r["errors"][0];
}

}  // namespace

TEST_CASE("bad requests come back as errors with a JSON path") {
  struct Case { const char* request; const char* code; const char* path; };
  const Case cases[] = {
      {"{", "invalid_json", ""},
      {"", "invalid_json", ""},
      {"[1]", "wrong_type", ""},
      {"{}", "missing_field", "/question"},
      {R"({"question": 3})", "wrong_type", "/question"},
      {R"({"question": "teleport"})", "unknown_name", "/question"},
      {R"({"question": "precisions"})", "missing_field", "/model"},
      {R"({"question": "precisions", "model": {"size": "gigantic"}})", "unknown_name", "/model/size"},
      {R"({"question": "precisions", "model": {"params_b": -5}})", "out_of_range", "/model/params_b"},
      {R"({"question": "precisions", "model": {"params_b": "7"}})", "wrong_type", "/model/params_b"},
      {R"({"question": "precisions", "model": {"params_b": 1e400}})", "invalid_json", "/model/params_b"},
      {R"({"question": "validate", "question": "validate"})", "duplicate_key", "/question"},
      {"\xEF\xBB\xBF{\"question\": \"validate\"}", "invalid_json", ""},
      {R"({"question": "precisions", "model": {}})", "missing_field", "/model"},
      {R"({"question": "fit", "model": {"size": "small"}, "workload": "gaming", "precision": "fp16", "instance": "P5"})",
       "unknown_name", "/workload"},
      {R"({"question": "fit", "model": {"size": "small"}, "workload": "inference", "precision": "fp3", "instance": "P5"})",
       "unknown_name", "/precision"},
      {R"({"question": "fit", "model": {"size": "small"}, "workload": "inference", "precision": "fp16", "instance": "Q9"})",
       "unknown_name", "/instance"},
      {R"({"question": "fit", "model": {"size": "small"}, "workload": "inference", "precision": "fp16", "instance": "P5", "gpus": 0})",
       "out_of_range", "/gpus"},
      {R"({"question": "cost", "instance": "P5", "hours_per_month": 1000})", "out_of_range", "/hours_per_month"},
      {R"({"question": "recommend", "model": {"size": "small"}, "workload": "inference", "precision": "fp16", "priority": "cheap"})",
       "unknown_name", "/priority"},
      {R"({"question": "recommend", "model": {"size": "small"}, "workload": "inference", "precision": "fp16", "families": ["X1"]})",
       "unknown_name", "/families/0"},
      {R"({"question": "migrate", "model": {"size": "small"}, "workload": "inference", "precision": "fp16"})",
       "missing_field", "/current"},
      {R"({"question": "migrate", "current": {"instance": "P5", "gpus": -1}, "model": {"size": "small"}, "workload": "inference", "precision": "fp16"})",
       "out_of_range", "/current/gpus"},
      {R"({"question": "workload", "id": "nope"})", "unknown_name", "/id"},
      {R"({"question": "workload_set", "id": 7})", "wrong_type", "/id"},
      {R"({"question": "catalog", "section": "secrets"})", "unknown_name", "/section"},
      {R"({"question": "performance", "workload": "training", "instances": []})", "wrong_type", "/instances"},
      // null is not "the default", at any depth
      {R"({"question": "recommend", "model": {"size": "small"}, "workload": "inference", "limit": null})", "wrong_type", "/limit"},
      {R"({"question": "fit", "model": {"size": "small"}, "workload": "inference", "instance": "G6e", "gpus": null})",
       "wrong_type", "/gpus"},
      {R"({"question": "recommend", "model": {"size": "small"}, "workload": "inference", "demand": {"requests_per_s": null}})",
       "wrong_type", "/demand/requests_per_s"},
      {R"({"question": "precisions", "model": {"params_b": null}})", "wrong_type", "/model/params_b"},
      // typos and fields that do not apply where they are given
      {R"({"question": "migrate", "current": {"instance": "P4d", "gpu": 8}, "model": {"size": "small"}, "workload": "inference"})",
       "unknown_field", "/current/gpu"},
      {R"({"question": "placement", "models": [{"name": "a", "memroy_gb": 3}]})", "unknown_field", "/models/0/memroy_gb"},
      {R"({"question": "placement", "models": [{"name": "a", "memory_gb": 3}, {"name": "", "memory_gb": 2}]})",
       "out_of_range", "/models/1/name"},
      {R"({"question": "memory", "model": {"name": "llama-3.1-8b"}, "mode": "full_finetune", "sharding": "zero9"})",
       "unknown_name", "/sharding"},
      {R"({"question": "performance", "workload": "inference", "instances": [{"instance": "P5", "gpus": 1, "x": 1}]})",
       "unknown_field", "/instances/0/x"},
      {R"({"question": "precisions", "model": {"size": "small", "bogus": 1}})", "unknown_field", "/model/bogus"},
      {R"({"question": "estimate", "model": {"name": "llama-3.1-8b"}, "gpu": "H100", "max_ttft_ms": 100})",
       "unknown_field", "/max_ttft_ms"},
      {R"({"question": "estimate", "model": {"name": "llama-3.1-8b"}, "gpu": "H100", "epochs": 3})", "unknown_field", "/epochs"},
      {R"({"question": "estimate", "model": {"name": "llama-3.1-8b"}, "gpu": "H100", "rank": true})", "unknown_field", "/gpu"},
      {R"({"question": "estimate", "model": {"name": "llama-3.1-8b"}, "gpu": "H100", "phase": "training", "concurrency": 8})",
       "unknown_field", "/concurrency"},
  };
  for (const Case& c : cases) {
    INFO(c.request);
    Json e = first_error(c.request);
    CHECK(e["code"] == c.code);
    CHECK(e["path"] == c.path);
    CHECK_FALSE(e["message"].get<std::string>().empty());
  }
}

TEST_CASE("after a bad request the next good one still works") {
  for (int i = 0; i < 100; ++i) (void)test::shipped().analyze_json("{\"question\": [");
  Json r = Json::parse(test::shipped().analyze_json(R"({"question": "validate"})"));
  CHECK(r["ok"] == true);
  CHECK(r["result"]["valid"] == true);
}

TEST_CASE("every answer carries the catalog version it used") {
  Json r = Json::parse(test::shipped().analyze_json(R"({"question": "workloads"})"));
  REQUIRE(r["ok"] == true);
  CHECK_FALSE(r["catalog"]["version"].get<std::string>().empty());
  CHECK_FALSE(r["catalog"]["date"].get<std::string>().empty());
}

TEST_CASE("compact answers are the pretty-printed ones without the whitespace between tokens") {
  const std::string request = R"({"question": "fit", "model": {"size": "small"}, "workload": "inference",
                                  "precision": "fp16", "instance": "G6e"})";
  const std::string compact = test::shipped().analyze_json(request);
  const std::string pretty = test::shipped().analyze_json(request, 2);
  CHECK(compact.find('\n') == std::string::npos);
  CHECK(pretty.find('\n') != std::string::npos);
  CHECK(compact.size() < pretty.size());
  CHECK(Json::parse(compact) == Json::parse(pretty));
}

TEST_CASE("the catalog's menus list every instance of the full listing without prices or sources") {
  const Json all = test::ask(test::shipped(), {{"question", "catalog"}, {"section", "all"}});
  const Json menus = test::ask(test::shipped(), {{"question", "catalog"}, {"section", "menus"}});
  REQUIRE(all["ok"] == true);
  REQUIRE(menus["ok"] == true);
  const Json& full = all["result"]["instances"];
  const Json& menu = menus["result"]["instances"];
  REQUIRE(menu.size() == full.size());
  REQUIRE(menu.size() > 50);
  for (std::size_t i = 0; i < menu.size(); ++i) {
    INFO(full[i].dump());
    for (const char* key : {"family", "instance", "provider", "accelerator_kind", "gpu_type", "gpus"}) {
      CHECK(menu[i][key] == full[i][key]);
    }
    CHECK(menu[i].size() == 6);  // no price, spec or source
  }
  for (const char* key : {"model_sizes", "concrete_models", "gpus", "memory_menus", "precision_formats", "workloads"}) {
    INFO(key);
    CHECK(menus["result"][key] == all["result"][key]);
  }
  CHECK_FALSE(menus["result"].contains("providers"));
  CHECK_FALSE(menus["result"].contains("memory_planning"));
  CHECK(menus.dump().size() * 2 < all.dump().size());
}
