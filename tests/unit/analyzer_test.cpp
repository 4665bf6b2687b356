// The entry point never throws: every bad request is an error naming the request path.
#include <catch2/catch.hpp>
#include <cctype>
#include <map>
#include <string>
#include <vector>

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

TEST_CASE("the catalog's model_name resolves a name as typed the way a request's model.name does") {
  const auto name = [](const char* typed) {
    return test::ask(test::shipped(),
                     {{"question", "catalog"}, {"section", "model_name"}, {"model_name", typed}});
  };
  const Json hf = name("meta-llama/Llama-3.1-8B-Instruct");
  REQUIRE(hf["ok"] == true);
  const Json& found = hf["result"]["model_name"];
  CHECK(found["key"] == "llama-3.1-8b");
  CHECK(found["typed"] == "meta-llama/Llama-3.1-8B-Instruct");
  CHECK(found["message"].is_null());
  // The same model as a request that names it (its label is the catalog model's name).
  const Json named = test::ask(
      test::shipped(),
      {{"question", "precisions"}, {"model", {{"name", "meta-llama/Llama-3.1-8B-Instruct"}}}});
  REQUIRE(named["ok"] == true);
  CHECK(found["name"] == named["result"]["model"]["label"]);
  CHECK(name("llama3 8b")["result"]["model_name"]["key"] == "llama-3-8b");
  // Every model by the name the catalog's lists show (the page offers them as typed names).
  const Json models = test::ask(test::shipped(), {{"question", "catalog"}, {"section", "models"}});
  for (const Json& m : models["result"]["concrete_models"]) {
    INFO(m["name"]);
    CHECK(name(m["name"].get<std::string>().c_str())["result"]["model_name"]["key"] == m["key"]);
  }
  const Json unknown = name("llama 3.1 9000b")["result"]["model_name"];
  CHECK(unknown["key"].is_null());
  REQUIRE(!unknown["suggestions"].empty());
  CHECK(unknown["message"].get<std::string>().find("config.json") != std::string::npos);
  // The answer holds the name and nothing of the catalog's listing.
  CHECK(!name("gpt2")["result"].contains("instances"));
  // The section needs the name.
  const Json missing =
      test::ask(test::shipped(), {{"question", "catalog"}, {"section", "model_name"}});
  REQUIRE(missing["ok"] == false);
  CHECK(missing["errors"][0]["path"] == "/model_name");
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
  for (const char* key : {"model_sizes", "concrete_models", "gpus", "memory_menus", "precision_formats", "workloads",
                          "tasks", "priorities", "pricing_modes", "ways_to_pay"}) {
    INFO(key);
    CHECK(menus["result"][key] == all["result"][key]);
  }
  CHECK_FALSE(menus["result"].contains("providers"));
  CHECK_FALSE(menus["result"].contains("memory_planning"));
  // Providers by the catalog's names, for a page that never shows a key.
  REQUIRE(menus["result"]["provider_names"].size() == all["result"]["providers"].size());
  for (const auto& [key, terms] : all["result"]["providers"].items()) {
    INFO(key);
    CHECK(menus["result"]["provider_names"][key] == terms["name"]);
  }
  CHECK(menus["result"]["provider_names"]["gcp"] == "Google Cloud");
  CHECK(menus.dump().size() * 2 < all.dump().size());
}

TEST_CASE("the menus' tasks, priorities and ways of paying are the values the questions take") {
  const Json menus = test::ask(test::shipped(), {{"question", "catalog"}, {"section", "menus"}})["result"];
  REQUIRE(menus["tasks"].size() == 6);
  for (const Json& t : menus["tasks"]) {
    INFO(t.dump());
    CHECK_FALSE(t["name"].get<std::string>().empty());
    const Json r = test::ask(test::shipped(), {{"question", "fit"}, {"model", {{"size", "small"}}},
                                               {"workload", t["key"]}, {"instance", "p5.48xlarge"}});
    CHECK(r["ok"] == true);
    CHECK(r["result"]["request"]["workload"] == t["key"]);
  }
  REQUIRE(menus["priorities"].size() == 4);
  for (const Json& p : menus["priorities"]) {
    INFO(p.dump());
    const Json r = test::ask(test::shipped(), {{"question", "recommend"}, {"model", {{"size", "small"}}},
                                               {"workload", "inference"}, {"priority", p["key"]}, {"limit", 1}});
    CHECK(r["ok"] == true);
  }
  std::vector<std::string> modes;
  for (const Json& m : menus["pricing_modes"]) modes.push_back(m["key"]);
  CHECK(modes == std::vector<std::string>{"on_demand", "spot", "mixed", "reserved_1y", "reserved_3y"});
}

TEST_CASE("the menus list every way to pay of every provider, and whether a price follows from it") {
  const Json all = test::ask(test::shipped(), {{"question", "catalog"}, {"section", "all"}})["result"];
  const Json ways = test::ask(test::shipped(), {{"question", "catalog"}, {"section", "menus"}})["result"]["ways_to_pay"];
  std::size_t count = 0;
  for (const auto& [provider, terms] : all["providers"].items()) count += terms.value("ways_to_pay", Json::object()).size();
  REQUIRE(ways.size() == count);
  REQUIRE(count > 20);
  // An instance of each provider to price each way on.
  const std::map<std::string, std::string> on{{"aws", "p4d.24xlarge"}, {"gcp", "a2-highgpu-1g"}, {"azure", "Standard_NC24ads_A100_v4"}};
  bool some_priced = false, some_not = false, some_for_families = false;
  for (const Json& w : ways) {
    INFO(w.dump());
    const Json& source = all["providers"][w["provider"].get<std::string>()]["ways_to_pay"][w["key"].get<std::string>()];
    CHECK(w["kind"] == source["kind"]);
    CHECK(w["term_years"] == source["term_years"]);
    CHECK(w["upfront"] == source["upfront"]);
    CHECK(w["priced"] == source.contains("discount_pct"));
    const std::string name = w["name"];
    CHECK(name.rfind(source["name"].get<std::string>(), 0) == 0);  // "EC2 Instance Savings Plan, 1 year, no upfront"
    CHECK(name.find(w["term_years"] == 1 ? "1 year," : "3 years,") != std::string::npos);
    REQUIRE(on.count(w["provider"]));
    const Json r = test::ask(test::shipped(), {{"question", "cost"}, {"instance", on.at(w["provider"])}, {"pricing", w["key"]}});
    REQUIRE(r["ok"] == true);
    const Json& cost = r["result"]["cost"];
    const bool family_priced = w.contains("priced_for");
    if (w["priced"] == true || family_priced) {
      some_priced = some_priced || w["priced"] == true;
      some_for_families = some_for_families || family_priced;
      if (w["priced"] == true) {
        CHECK(cost["way"] == w["key"]);
        CHECK(cost["basis"].get<std::string>().find(name) != std::string::npos);
      }
    } else {
      some_not = true;
      CHECK(cost["pricing"] == "on_demand");  // billed on demand, and the answer says why
      CHECK(cost["note"].get<std::string>().find("on-demand price used") != std::string::npos);
    }
  }
  CHECK(some_priced);
  CHECK(some_not);
  CHECK(some_for_families);
}

TEST_CASE("notes shown as sentences of their own start with a capital") {
  const Json rec = test::ask(test::shipped(), {{"question", "recommend"}, {"model", {{"size", "small"}}},
                                               {"workload", "inference"}, {"limit", 1}});
  const Json cost = test::ask(test::shipped(), {{"question", "cost"}, {"instance", "p5.48xlarge"}});
  for (const Json* r : {&rec, &cost}) {
    REQUIRE((*r)["ok"] == true);
    const std::string note = (*r)["result"]["pricing_note"];
    INFO(note);
    CHECK(std::isupper(static_cast<unsigned char>(note.front())));
  }
}
