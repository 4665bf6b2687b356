#include "fuzz_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "api/analyzer_access.hpp"
#include "support/json_guard.hpp"

namespace gpufleet::fuzz {
namespace {

bool env_is_1(const char* name) {
  const char* value = std::getenv(name);
  return value && std::string(value) == "1";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fuzz: cannot read %s (set GPUFLEET_CONFIG_DIR)\n", path.c_str());
    std::exit(1);
  }
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// True when `j` holds a NaN or +-Infinity; `where` is then its JSON pointer.
bool find_non_finite(const Json& j, std::string& where) {
  if (j.is_number_float()) return !std::isfinite(j.get<double>());
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      if (find_non_finite(value, where)) {
        where = "/" + key + where;
        return true;
      }
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (find_non_finite(j[i], where)) {
        where = "/" + std::to_string(i) + where;
        return true;
      }
    }
  }
  return false;
}

// The shape every door sees. Built like the WebAssembly core (no exceptions): parse without them.
void check_answer_text(const std::string& request, const std::string& answer) {
  nlohmann::json parsed = nlohmann::json::parse(answer, nullptr, false);
  if (parsed.is_discarded()) fail("answer is not valid JSON", request, answer);
  if (!parsed.is_object()) fail("answer is not a JSON object", request, answer);
  auto ok = parsed.find("ok");
  if (ok == parsed.end() || !ok->is_boolean())
    fail("answer has no boolean \"ok\"", request, answer);
  if (ok->get<bool>()) {
    if (!parsed.contains("question") || !parsed.contains("result"))
      fail("ok answer without \"question\" or \"result\"", request, answer);
    return;
  }
  auto errors = parsed.find("errors");
  if (errors == parsed.end() || !errors->is_array() || errors->empty()) {
    fail("ok=false answer without a non-empty \"errors\" array", request, answer);
  }
  static const bool allow_internal = env_is_1("GPUFLEET_FUZZ_ALLOW_INTERNAL");
  for (const auto& e : *errors) {
    if (!e.is_object()) fail("error entry is not an object", request, answer);
    for (const char* key : {"code", "file", "path", "message"}) {
      auto it = e.find(key);
      if (it == e.end() || !it->is_string())
        fail("error entry field missing or not a string", request, answer);
    }
    if (!allow_internal && e["code"] == "internal_error")
      fail("internal_error: an exception escaped the analysis", request, answer);
  }
}

}  // namespace

bool verbose() {
  static const bool on = env_is_1("GPUFLEET_FUZZ_VERBOSE");
  return on;
}

[[noreturn]] void fail(const char* what, const std::string& request, const std::string& answer) {
  std::fprintf(stderr, "\n=== gpufleet fuzz invariant violated: %s\n", what);
  std::fprintf(stderr, "--- request (%zu bytes):\n%.2000s\n", request.size(), request.c_str());
  std::fprintf(stderr, "--- answer (%zu bytes):\n%.4000s\n", answer.size(), answer.c_str());
  std::fflush(stderr);
  std::abort();
}

CatalogSources shipped_sources(bool with_prices) {
  const char* dir_env = std::getenv("GPUFLEET_CONFIG_DIR");
  const std::string dir = (dir_env && *dir_env) ? dir_env : "config";
  CatalogSources sources;
  sources.gpu_instances_json = read_file(dir + "/" + kGpuInstancesFile);
  sources.model_config_json = read_file(dir + "/" + kModelConfigFile);
  sources.workloads_json = read_file(dir + "/" + kWorkloadsFile);
  if (!with_prices) return sources;
  // As the CLI reads them (core/cli/catalog_files.cpp): prices/<provider>/<region>.json, sorted.
  std::vector<std::string> names;
  for (const auto& provider : std::filesystem::directory_iterator(dir + "/prices")) {
    if (!provider.is_directory()) continue;
    for (const auto& file : std::filesystem::directory_iterator(provider.path())) {
      if (file.path().extension() == ".json")
        names.push_back("prices/" + provider.path().filename().string() + "/" +
                        file.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  for (const auto& name : names) sources.price_files.push_back({name, read_file(dir + "/" + name)});
  return sources;
}

void ask(const Analyzer& analyzer, std::string_view request_view, bool entry_point) {
  const std::string request(request_view);
  Errors errors;
  auto parsed = detail::parse_checked(request, "request", detail::kRequestLimits, errors);
  const Json response = parsed ? analyze(analyzer, *parsed) : errors_response(errors);
  const std::string answer = response.dump(-1, ' ', false, Json::error_handler_t::replace);
  std::string where;
  if (find_non_finite(response, where))
    fail(("non-finite number in the answer at " + where).c_str(), request, answer);
  check_answer_text(request, answer);
  if (verbose()) {
    const bool ok = response.value("ok", false);
    std::fprintf(stderr, "fuzz: %s %.70s\n",
                 ok ? "ok   "
                    : ("error " + response["errors"][0].value("code", std::string()) + " " +
                       response["errors"][0].value("path", std::string()))
                          .c_str(),
                 request.c_str());
  }
  // analyze_json refuses an answer over its size limit, which the checked one above is not.
  if (entry_point && answer.size() <= kMaxAnswerBytes) {
    const std::string real = analyzer.analyze_json(request);
    if (real != answer)
      fail("analyze_json differs from a second evaluation (not deterministic)", request, real);
  }
}

}  // namespace gpufleet::fuzz
