// The bad-input corpus (tests/cases/bad): each fixture is one fault in a request or in a catalog
// file, answered with the error code and JSON path recorded in expected.json. The node test of the
// WebAssembly core asserts the same manifest.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace gpufleet;

TEST_CASE("every bad-input fixture gets its expected error code, file and path") {
  const std::string dir = test::source_path("tests/cases/bad/");
  const Json manifest = Json::parse(test::read_file(dir + "expected.json"));
  REQUIRE(manifest.size() >= 50);
  for (const auto& [name, want] : manifest.items()) {
    INFO(name);
    const std::string target = want["target"];
    const std::string text = test::read_file(dir + name + "." + target);
    CatalogSources sources = test::config_sources();
    std::string request = R"({"question": "validate"})";
    if (target == "request.json") request = text;
    if (target == kGpuInstancesFile) sources.gpu_instances_json = text;
    if (target == kModelConfigFile) sources.model_config_json = text;
    if (target == kWorkloadsFile) sources.workloads_json = text;
    const Analyzer analyzer(sources);
    const Json answer = Json::parse(analyzer.analyze_json(request));
    REQUIRE(answer["ok"] == false);
    bool found = false;
    for (const auto& e : answer["errors"]) {
      CHECK_FALSE(e["message"].get<std::string>().empty());
      found = found || (e["code"] == want["code"] && e["file"] == want["file"] && e["path"] == want["path"]);
    }
    if (!found) FAIL_CHECK("got " << answer["errors"].dump());
  }
}
