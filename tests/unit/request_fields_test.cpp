// The request field table (core/src/api/request_fields.cpp) is the one place the questions and the
// request fields' allowed values are listed: the dispatch, the request schema, the catalog's menus
// (the page's lists) and the CLI (tests/cli/cli_test.sh: --help and the choices) read it, so a
// question or a value added there appears in every door without being typed there.
#include "api/request_fields.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

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

namespace {

// Every object of `j` as a JSON pointer, but those under a Hugging Face config (its own keys, read
// by the architecture reader) and the accuracy harness's measured cases.
void objects_of(const Json& j, const std::string& path, std::vector<std::string>& out) {
  if (j.is_object()) {
    out.push_back(path);
    for (const auto& [key, value] : j.items()) {
      if (key != "hf_config" && !(path.empty() && key == "cases"))
        objects_of(value, path + "/" + key, out);
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i)
      objects_of(j[i], path + "/" + std::to_string(i), out);
  }
}

}  // namespace

TEST_CASE(
    "an unknown key is refused at every depth of every question, with its pointer and the keys "
    "allowed") {
  const std::string dir = test::source_path("tests/cases/");
  int objects = 0;
  std::set<std::string> questions;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() < 13 || name.substr(name.size() - 13) != ".request.json") continue;
    const Json request = Json::parse(test::read_file(entry.path().string()), nullptr, false);
    if (request.is_discarded() || ask(request)["ok"] != true) continue;  // the bad cases
    questions.insert(request["question"].get<std::string>());
    std::vector<std::string> paths;
    objects_of(request, "", paths);
    for (const std::string& path : paths) {
      INFO(name << " " << (path.empty() ? "/" : path));
      Json edited = request;
      Json& target = edited[Json::json_pointer(path)];
      std::string sibling;  // a key that is allowed there
      for (const auto& [key, _] : target.items()) {
        if (key != "question" && sibling.empty()) sibling = key;
      }
      target["zz_not_a_field"] = 1;
      const Json answer = ask(edited);
      REQUIRE(answer["ok"] == false);
      bool named = false;
      for (const auto& e : answer["errors"]) {
        if (e["code"] != "unknown_field" || e["path"] != path + "/zz_not_a_field") continue;
        const std::string message = e["message"];
        named = message.find("zz_not_a_field") != std::string::npos &&
                message.find(sibling) != std::string::npos;
      }
      if (!named) FAIL_CHECK("got " << answer["errors"].dump());
      ++objects;
    }
  }
  CHECK(questions.size() >= 15);
  CHECK(objects >= 60);
}

TEST_CASE("a fleet plan's environment refuses a schedule at its level (it billed 720 h)") {
  Json request = {{"question", "plan"},
                  {"plan",
                   {{"name", "p"},
                    {"environments",
                     {{{"name", "dev"},
                       {"schedule", {{"hours_per_day", 8}}},
                       {"workloads", {{{"name", "w"}, {"instance", "G6e"}}}}}}}}}};
  Json answer = ask(request);
  REQUIRE(answer["ok"] == false);
  CHECK(answer["errors"][0]["code"] == "unknown_field");
  CHECK(answer["errors"][0]["path"] == "/plan/environments/0/schedule");
  CHECK(answer["errors"][0]["message"].get<std::string>().find("name, workloads") !=
        std::string::npos);
  // Where it belongs, the schedule is read.
  request["plan"]["environments"][0].erase("schedule");
  request["plan"]["environments"][0]["workloads"][0]["schedule"] = {{"hours_per_day", 8}};
  CHECK(ask(request)["ok"] == true);
}

TEST_CASE("a placement model given by memory takes its name and memory_gb only") {
  Json request = {{"question", "placement"},
                  {"models", {{{"name", "a"}, {"memory_gb", 20}, {"precision", "int4"}}}}};
  Json answer = ask(request);
  REQUIRE(answer["ok"] == false);
  CHECK(answer["errors"][0]["code"] == "unknown_field");
  CHECK(answer["errors"][0]["path"] == "/models/0/precision");
  CHECK(answer["errors"][0]["message"].get<std::string>().find("name, memory_gb") !=
        std::string::npos);
  request["models"][0].erase("precision");
  CHECK(ask(request)["ok"] == true);
}

TEST_CASE("a switch's own bad value is named at the switch, not at the fields that depend on it") {
  const Json base = {{"question", "estimate"}, {"model", {{"name", "llama-3-8b"}}}};
  Json request = base;
  request["rank"] = "yes";
  request["max_ttft_ms"] = 500;
  Json answer = ask(request);
  REQUIRE(answer["ok"] == false);
  REQUIRE(answer["errors"].size() == 1);
  CHECK(answer["errors"][0]["code"] == "wrong_type");
  CHECK(answer["errors"][0]["path"] == "/rank");
  request = base;
  request["phase"] = "train";
  request["dataset_tokens"] = 1e9;
  answer = ask(request);
  REQUIRE(answer["ok"] == false);
  REQUIRE(answer["errors"].size() == 1);
  CHECK(answer["errors"][0]["path"] == "/phase");
  CHECK(answer["errors"][0]["message"].get<std::string>().find("inference, training") !=
        std::string::npos);
  request["phase"] = "Training";  // any case, as everywhere: read, and the question goes on
  answer = ask(request);
  for (const auto& e : answer["errors"]) CHECK(e["path"] != "/phase");
}

TEST_CASE("an error inside a list of strings names its own index") {
  Json request = {{"question", "recommend"},
                  {"model", {{"size", "small"}}},
                  {"workload", "inference"},
                  {"providers", {"aws", 7, "nowhere"}},
                  {"kinds", {"gpu", false, "tpu"}}};
  const Json answer = ask(request);
  REQUIRE(answer["ok"] == false);
  std::set<std::string> paths;
  for (const auto& e : answer["errors"])
    paths.insert(e["path"].get<std::string>() + " " + e["code"].get<std::string>());
  CHECK(paths == std::set<std::string>{"/providers/1 wrong_type", "/kinds/1 wrong_type"});
  request["providers"] = Json::parse(R"(["aws", "nowhere"])");
  request["kinds"] = Json::parse(R"(["gpu", "tpu"])");
  const Json second = ask(request);
  INFO(second.dump());
  std::set<std::string> named;
  for (const auto& e : second["errors"]) named.insert(e["path"].get<std::string>());
  CHECK(named == std::set<std::string>{"/providers/1", "/kinds/1"});
}
