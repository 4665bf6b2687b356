// Every input the fuzzers once crashed on now gets a structured answer. The files use the fuzz
// targets' formats (tests/fuzz/README.md): regressions/request/ holds requests (fuzz_request);
// regressions/catalog/ holds 'B'/'C' + the three catalog texts (an empty part keeps the shipped
// file) and an optional request, or 'P' + a price file and an optional request, separated by
// "\n@@\n" (fuzz_catalog).
#include <catch2/catch.hpp>

#include <filesystem>

#include "support.hpp"

using namespace gpufleet;

namespace {

std::vector<std::string> split(const std::string& text, const std::string& sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at; (at = text.find(sep, start)) != std::string::npos; start = at + sep.size()) {
    parts.push_back(text.substr(start, at - start));
  }
  parts.push_back(text.substr(start));
  return parts;
}

void check_answer(const std::string& answer) {
  const Json j = Json::parse(answer);
  REQUIRE(j.contains("ok"));
  if (!j["ok"].get<bool>()) {
    REQUIRE_FALSE(j["errors"].empty());
    for (const auto& e : j["errors"]) CHECK(e["code"] != "internal_error");
  }
}

}  // namespace

TEST_CASE("fuzzer findings stay fixed") {
  int replayed = 0;
  for (const char* target : {"request", "catalog"}) {
    const std::filesystem::path dir =
        test::source_path(std::string("tests/fuzz/regressions/") + target);
    if (!std::filesystem::exists(dir)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (!entry.is_regular_file() || entry.path().extension() == ".md") continue;
      INFO(entry.path().filename().string());
      const std::string input = test::read_file(entry.path().string());
      REQUIRE_FALSE(input.empty());
      std::vector<std::string> requests{
          R"({"question": "validate"})",
          R"({"question": "workload_set", "id": "comprehensive_suite"})"};
      CatalogSources sources = test::config_sources();
      if (std::string(target) == "request") {
        requests.push_back(input);
      } else if (input[0] == 'P') {
        const auto parts = split(input.substr(1), "\n@@\n");
        sources.price_files = {
            {"prices/aws/us-east-1.json", parts[0]}};  // as fuzz_catalog: this file alone
        if (parts.size() > 1) requests.push_back(parts[1]);
      } else {
        const auto parts = split(input.substr(1), "\n@@\n");
        if (parts.size() > 0 && !parts[0].empty()) sources.gpu_instances_json = parts[0];
        if (parts.size() > 1 && !parts[1].empty()) sources.model_config_json = parts[1];
        if (parts.size() > 2 && !parts[2].empty()) sources.workloads_json = parts[2];
        if (parts.size() > 3) requests.push_back(parts[3]);
      }
      const Analyzer analyzer(sources);
      for (const auto& request : requests) check_answer(analyzer.analyze_json(request));
      ++replayed;
    }
  }
  CHECK(replayed >= 3);
}
