// The request field table (core/src/api/request_fields.cpp) is the one place the questions and the
// request fields' allowed values are listed: the dispatch, the request schema, the catalog's menus
// (the page's lists) and the CLI (tests/cli/cli_test.sh: --help and the choices) read it, so a
// question or a value added there appears in every door without being typed there.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "api/request_fields.hpp"
#include "gpufleet/schema.hpp"
#include "support.hpp"

using namespace gpufleet;

namespace {

Json ask(const Json& request) { return Json::parse(test::shipped().analyze_json(request.dump())); }

// The errors of an answer at `path` with code unknown_name (none for an answer).
bool refused(const Json& answer, const std::string& path) {
  if (answer["ok"] == true) return false;
  for (const auto& e : answer["errors"]) {
    if (e["path"] == path && e["code"] == "unknown_name") return true;
  }
  return false;
}

}  // namespace

TEST_CASE("request fields: every question of the table is answered, in the schema and in the menus") {
  const Json schema = Json::parse(json_schema("request"));
  const Json menus = ask({{"question", "catalog"}, {"section", "menus"}});
  REQUIRE(menus["ok"] == true);
  const Json listed = Json::parse(request_menus_json());
  CHECK(menus["result"]["request"] == listed);
  std::vector<std::string> questions;
  for (auto q = detail::questions_begin(); q != detail::questions_end(); ++q) questions.push_back(q->name);
  CHECK(questions.size() >= 18);
  CHECK(listed["questions"] == Json(questions));
  CHECK(schema["properties"]["question"]["enum"] == Json(questions));
  for (const auto& q : questions) {
    INFO(q);
    // Every question of the table has an answer (natively): asked with nothing, it says what is
    // missing or answers, never that the question is unknown.
    CHECK_FALSE(refused(ask({{"question", q}}), "/question"));
    // Every field a question takes is defined (its own, the shared ones).
    for (const auto& field : detail::field_names(*detail::question_fields(q))) {
      INFO(field);
      CHECK(detail::request_field(q, field) != nullptr);
    }
  }
}

TEST_CASE("request fields: every allowed value is one its reader takes, and others are refused") {
  const Json model = {{"size", "small"}};
  struct Case {
    const char* field;  // the menus' name
    Json request;       // without the field
    const char* path;   // where a refusal would be
  };
  const std::vector<Case> cases{
      {"workload", {{"question", "recommend"}, {"model", model}, {"limit", 1}}, "/workload"},
      {"priority", {{"question", "recommend"}, {"model", model}, {"workload", "inference"}, {"limit", 1}}, "/priority"},
      {"memory_method", {{"question", "recommend"}, {"model", model}, {"workload", "inference"}, {"limit", 1}}, "/memory_method"},
      {"section", {{"question", "catalog"}}, "/section"},
      {"decide.framework", {{"question", "decide"}, {"model", model}, {"workload", "inference"}}, "/framework"},
      {"decide.model_kind", {{"question", "decide"}, {"model", model}, {"workload", "inference"}}, "/model_kind"},
      {"decide.goal", {{"question", "decide"}, {"model", model}, {"workload", "inference"}}, "/goal"},
      {"memory.mode", {{"question", "memory"}, {"model", {{"name", "llama-3-8b"}}}, {"gpu", "H100"}}, "/mode"},
      {"memory.sharding", {{"question", "memory"}, {"model", {{"name", "llama-3-8b"}}}, {"gpu", "H100"}, {"mode", "full_finetune"}}, "/sharding"},
      {"estimate.phase", {{"question", "estimate"}, {"model", {{"name", "llama-3-8b"}}}, {"gpu", "H100"}}, "/phase"},
  };
  const Json values = Json::parse(request_menus_json())["values"];
  for (const auto& c : cases) {
    INFO(c.field);
    REQUIRE(values.contains(c.field));
    const std::string name = std::string(c.field).substr(std::string(c.field).find('.') + 1);
    for (const auto& v : values[c.field]) {
      INFO(v);
      Json request = c.request;
      request[name] = v;
      CHECK_FALSE(refused(ask(request), c.path));
    }
    Json request = c.request;
    request[name] = "no-such-value";
    CHECK(refused(ask(request), c.path));
  }
}
