// libFuzzer target for the analyzer core: gpufleet::Analyzer::analyze_json, the one entry point
// every door uses. It must never crash, hang, abort, leak, or print NaN/Infinity, for any input.
//
// Input format (first byte = mode):
//   'B' <gpu_instances> SEP <model_config> SEP <workloads> [SEP <request>]
//        Mode B: fuzz the catalogs. Each of the (up to) three parts replaces that catalog text; an
//        EMPTY part keeps the shipped file. An Analyzer is built over them and asked a fixed set of
//        requests (validate, catalog, precisions, fit, performance, recommend, migrate, cost,
//        workload_set, decide, placement, plan, memory, estimate, right_size, a demand-sized
//        recommend) plus the optional 4th part as one more request.
//   'C' <gpu_instances> SEP <model_config> SEP <workloads> [SEP <request>]
//        Mode C: as B, but only the 4th part is asked (validate when there is none); reproducers of
//        one catalog-dependent fault of one question are written this way.
//   anything else
//        Mode A (most inputs): the rest of the input is one request, answered by a static Analyzer
//        built once over the shipped catalogs.
//   SEP is "\n@@\n" (a raw newline cannot occur inside a JSON string, so it never splits valid JSON
//   text in the middle of a token that matters).
//
// The shipped catalogs are read once in LLVMFuzzerInitialize from $GPUFLEET_CONFIG_DIR (default
// "config", relative to the current directory).
//
// Every answer is checked, and any violation abort()s so libFuzzer records the input:
//   * the answer text parses as JSON (nlohmann::json::parse) and is an object with a boolean "ok";
//   * ok=false answers carry a non-empty "errors" array of {code,file,path,message} strings;
//     ok=true answers carry "question" and "result";
//   * no number anywhere in the answer is NaN or +-Infinity. nlohmann_json dumps a non-finite
//     double as `null`, so the check walks the Json the analyzer built BEFORE it is dumped: the
//     request is parsed exactly as analyze_json does (detail::parse_checked) and Analyzer::analyze
//     is called on it; in mode A (and for mode B's extra request) analyze_json is also called and
//     its text must equal the dump of that Json (the real entry point, and determinism);
//   * no "internal_error" (an exception escaped the analysis and was caught by the last-resort
//     handler) unless GPUFLEET_FUZZ_ALLOW_INTERNAL=1.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpufleet/analyzer.hpp"
#include "api/analyzer_access.hpp"
#include "catalog/catalog.hpp"
#include "support/json_guard.hpp"

namespace {

constexpr std::string_view kSep = "\n@@\n";
constexpr char kModeCatalog = 'B';
constexpr char kModeCatalogOneRequest = 'C';

gpufleet::CatalogSources g_shipped;
const gpufleet::Analyzer* g_analyzer = nullptr;  // built once, lives for the process
bool g_allow_internal = false;
bool g_verbose = false;  // GPUFLEET_FUZZ_VERBOSE=1: say whether each catalog loads and each answer is ok

[[noreturn]] void fail(const char* what, const std::string& request, const std::string& answer) {
  std::fprintf(stderr, "\n=== gpufleet fuzz invariant violated: %s\n", what);
  std::fprintf(stderr, "--- request (%zu bytes):\n%.2000s\n", request.size(), request.c_str());
  std::fprintf(stderr, "--- answer (%zu bytes):\n%.4000s\n", answer.size(), answer.c_str());
  std::fflush(stderr);
  std::abort();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fuzz_analyzer: cannot read %s (set GPUFLEET_CONFIG_DIR)\n", path.c_str());
    std::exit(1);
  }
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// True when `j` holds a NaN or +-Infinity; `where` is then its JSON pointer.
bool find_non_finite(const gpufleet::Json& j, std::string& where) {
  switch (j.type()) {
    case gpufleet::Json::value_t::number_float:
      if (!std::isfinite(j.get<double>())) return true;
      return false;
    case gpufleet::Json::value_t::object:
      for (const auto& [key, value] : j.items()) {
        if (find_non_finite(value, where)) {
          where = "/" + key + where;
          return true;
        }
      }
      return false;
    case gpufleet::Json::value_t::array:
      for (std::size_t i = 0; i < j.size(); ++i) {
        if (find_non_finite(j[i], where)) {
          where = "/" + std::to_string(i) + where;
          return true;
        }
      }
      return false;
    default:
      return false;
  }
}

// Checks the shape of an answer text (what every door sees).
void check_answer_text(const std::string& request, const std::string& answer) {
  // Built like the WebAssembly core: no exceptions, so parse without them.
  nlohmann::json parsed = nlohmann::json::parse(answer, nullptr, false);
  if (parsed.is_discarded()) fail("answer is not valid JSON", request, answer);
  if (!parsed.is_object()) fail("answer is not a JSON object", request, answer);
  auto ok = parsed.find("ok");
  if (ok == parsed.end() || !ok->is_boolean()) fail("answer has no boolean \"ok\"", request, answer);
  if (ok->get<bool>()) {
    if (!parsed.contains("question") || !parsed.contains("result")) {
      fail("ok answer without \"question\" or \"result\"", request, answer);
    }
  } else {
    auto errors = parsed.find("errors");
    if (errors == parsed.end() || !errors->is_array() || errors->empty()) {
      fail("ok=false answer without a non-empty \"errors\" array", request, answer);
    }
    for (const auto& e : *errors) {
      if (!e.is_object()) fail("error entry is not an object", request, answer);
      for (const char* key : {"code", "file", "path", "message"}) {
        auto it = e.find(key);
        if (it == e.end() || !it->is_string()) fail("error entry field missing or not a string", request, answer);
      }
      if (!g_allow_internal && e["code"] == "internal_error") {
        fail("internal_error: an exception escaped the analysis", request, answer);
      }
    }
  }
}

// Asks one request and checks the answer. The analysis runs through the same steps as
// Analyzer::analyze_json (parse_checked, analyze, dump) so that the Json can be inspected for
// NaN/Infinity before dumping turns them into null. With `entry_point`, analyze_json itself is
// also called and its text must be identical (determinism, and the real entry point is the one
// checked); mode B skips that second evaluation to afford more catalog mutations per second.
void ask(const gpufleet::Analyzer& analyzer, const std::string& request, bool entry_point) {
  gpufleet::Errors errors;
  auto parsed = gpufleet::detail::parse_checked(request, "request", gpufleet::detail::kRequestLimits, errors);
  const gpufleet::Json response = parsed ? analyze(analyzer, *parsed) : gpufleet::errors_response(errors);
  const std::string answer = response.dump(-1, ' ', false, gpufleet::Json::error_handler_t::replace);
  std::string where;
  if (find_non_finite(response, where)) {
    fail(("non-finite number in the answer at " + where).c_str(), request, answer);
  }
  check_answer_text(request, answer);
  if (g_verbose) {
    const bool ok = response.value("ok", false);
    std::fprintf(stderr, "fuzz_analyzer: %s %.70s\n",
                 ok ? "ok   " : ("error " + response["errors"][0].value("code", std::string()) + " " +
                              response["errors"][0].value("path", std::string())).c_str(),
                 request.c_str());
  }
  if (entry_point) {
    const std::string real = analyzer.analyze_json(request);
    if (real != answer) fail("analyze_json differs from a second evaluation (not deterministic)", request, real);
  }
}

// The fixed requests of mode B: one of each kind that reads the catalog differently.
const std::vector<std::string>& fixed_requests() {
  static const std::vector<std::string> kRequests = {
      R"({"question": "validate"})",
      R"({"question": "catalog", "section": "all"})",
      R"({"question": "precisions", "model": {"size": "medium"}})",
      R"({"question": "fit", "model": {"size": "small"}, "workload": "inference", "precision": "fp16", "instance": "G6e", "gpus": 1})",
      R"({"question": "performance", "workload": "training", "precision": "bf16", "instances": [{"instance": "P5", "gpus": 8}, {"instance": "G6e", "gpus": 1}, {"instance": "G6e", "gpus": 3}]})",
      R"({"question": "recommend", "model": {"size": "large"}, "workload": "fine_tuning", "precision": "fp8", "priority": "balanced", "use_spot": true})",
      R"({"question": "migrate", "current": {"instance": "P5", "gpus": 8}, "model": {"size": "large"}, "workload": "training", "precision": "bf16", "hours_per_month": 500, "use_spot": true, "priority": "performance"})",
      R"({"question": "cost", "instance": "G6e", "gpus": 3, "schedule": {"hours_per_week": 40, "weeks_per_month": 4}, "pricing": "mixed", "spot_share": 0.5})",
      R"({"question": "workload_set", "id": "comprehensive_suite"})",
      R"({"question": "decide", "model": {"params_b": 13}, "workload": "training", "precision": "bf16", "goal": "cost"})",
      R"({"question": "placement", "models": [{"name": "a", "memory_gb": 60}, {"name": "b", "model": {"size": "medium"}, "workload": "inference", "precision": "fp8"}], "use_spot": true})",
      R"({"question": "plan", "plan": {"name": "p", "environments": [{"name": "dev", "workloads": [{"name": "w", "instance": "G6e", "count": 2, "schedule": {"hours_per_day": 8, "days_per_month": 22}, "pricing": "on_demand"}, {"name": "t", "instance": "P5", "count": 1, "schedule": {"always_on": true}, "pricing": "spot"}]}]}})",
      R"({"question": "memory", "model": {"name": "llama-3-8b"}, "mode": "full_finetune", "gpu": "H100-SXM-80GB", "gpus": 2, "sharding": "zero3"})",
      R"({"question": "estimate", "model": {"name": "llama-3-8b"}, "weight_format": "fp8", "rank": true, "max_ttft_ms": 500})",
      R"({"question": "estimate", "model": {"name": "llama-3-8b"}, "phase": "training", "instance": "P5", "gpus": 8, "dataset_tokens": 1e9})",
      R"({"question": "right_size", "models": [{"model": {"name": "llama-3-8b"}, "weight_format": "int8"}]})",
      R"({"question": "recommend", "model": {"name": "llama-3-8b"}, "workload": "inference", "demand": {"requests_per_s": 50, "max_ttft_ms": 500}, "priority": "reliability"})",
  };
  return kRequests;
}

void run_catalog_mode(std::string_view rest, bool fixed_set) {
  std::vector<std::string_view> parts;
  while (parts.size() < 3) {
    const std::size_t at = rest.find(kSep);
    if (at == std::string_view::npos) break;
    parts.push_back(rest.substr(0, at));
    rest.remove_prefix(at + kSep.size());
  }
  parts.push_back(rest);  // the last catalog part, or the extra request after 3 separators

  gpufleet::CatalogSources sources = g_shipped;
  std::string* slots[3] = {&sources.gpu_instances_json, &sources.model_config_json, &sources.workloads_json};
  std::string extra_request;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i < 3) {
      if (!parts[i].empty()) *slots[i] = std::string(parts[i]);
    } else {
      extra_request = std::string(parts[i]);
    }
  }

  const gpufleet::Analyzer analyzer(sources);
  if (!analyzer.catalog_ok() && analyzer.catalog_errors().empty()) {
    fail("catalog rejected without any error", "(catalog mode)", "");
  }
  if (g_verbose) {
    std::fprintf(stderr, "fuzz_analyzer: catalog %s", analyzer.catalog_ok() ? "loads" : "rejected:");
    for (const auto& e : analyzer.catalog_errors()) {
      std::fprintf(stderr, " [%s %s %s]", e.code.c_str(), e.file.c_str(), e.path.c_str());
    }
    std::fprintf(stderr, "\n");
  }
  if (!fixed_set) {
    ask(analyzer, extra_request.empty() ? fixed_requests().front() : extra_request, true);
    return;
  }
  if (analyzer.catalog_ok()) {
    for (const auto& request : fixed_requests()) ask(analyzer, request, false);
  } else {
    ask(analyzer, fixed_requests().front(), false);  // every question gets the same catalog errors
  }
  if (!extra_request.empty()) ask(analyzer, extra_request, true);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  const char* dir_env = std::getenv("GPUFLEET_CONFIG_DIR");
  const std::string dir = (dir_env && *dir_env) ? dir_env : "config";
  g_shipped.gpu_instances_json = read_file(dir + "/" + gpufleet::kGpuInstancesFile);
  g_shipped.model_config_json = read_file(dir + "/" + gpufleet::kModelConfigFile);
  g_shipped.workloads_json = read_file(dir + "/" + gpufleet::kWorkloadsFile);
  const char* allow = std::getenv("GPUFLEET_FUZZ_ALLOW_INTERNAL");
  g_allow_internal = allow && std::string(allow) == "1";
  const char* verbose = std::getenv("GPUFLEET_FUZZ_VERBOSE");
  g_verbose = verbose && std::string(verbose) == "1";
  static const gpufleet::Analyzer analyzer(g_shipped);
  if (!analyzer.catalog_ok()) {
    std::fprintf(stderr, "fuzz_analyzer: the shipped catalog in %s does not load:\n", dir.c_str());
    for (const auto& e : analyzer.catalog_errors()) {
      std::fprintf(stderr, "  %s %s %s: %s\n", e.code.c_str(), e.file.c_str(), e.path.c_str(), e.message.c_str());
    }
    std::exit(1);
  }
  g_analyzer = &analyzer;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] == kModeCatalog || data[0] == kModeCatalogOneRequest) {
    run_catalog_mode(rest, data[0] == kModeCatalog);
  } else {
    ask(*g_analyzer, std::string(rest), true);
  }
  return 0;
}
