#pragma once
// The one entry point every door uses (CLI, WebAssembly, tests): an Analyzer owns the catalog,
// parsed and validated once, and answers JSON requests with JSON responses. It never throws.
//
// Request:  {"question": "fit", "model": {"size": "medium"}, "workload": "inference", ...}
// Response: {"ok": true, "question": "fit", "catalog": {...}, "result": {...}}
//       or  {"ok": false, "errors": [{"code", "file", "path", "message"}, ...]}
// docs/api.md lists every question and field.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "gpufleet/errors.hpp"

namespace gpufleet {

// The largest texts the analyzer parses: a request (or any file a door reads into one) and each
// catalog file. Doors that read files stop there instead of reading the rest.
inline constexpr std::size_t kMaxRequestBytes = 1 << 20;
inline constexpr std::size_t kMaxCatalogBytes = 16 << 20;
// The largest answer analyze_json returns; a larger one is refused (too_large) instead. The
// largest accepted catalog's largest question (tests/bench/large-catalog.mjs: every scenario of a
// 14-scenario set against 825 families) answers 8.4 MB as compact JSON.
inline constexpr std::size_t kMaxAnswerBytes = 16 << 20;

// One region's prices (config/prices/<provider>/<region>.json), named as the door found it.
struct PriceFile {
  std::string name;  // "prices/aws/us-east-1.json": the file of its errors
  std::string text;
};

// The text of the three catalog files and of the price files loaded (the core does no file I/O).
struct CatalogSources {
  std::string gpu_instances_json;
  std::string model_config_json;
  std::string workloads_json;
  std::vector<PriceFile> price_files;
};

// The catalog files, as their errors name them.
inline constexpr const char* kGpuInstancesFile = "gpu_instances.json";
inline constexpr const char* kModelConfigFile = "model_config.json";
inline constexpr const char* kWorkloadsFile = "workloads.json";

class Analyzer {
 public:
  explicit Analyzer(const CatalogSources& sources);
  ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  // Answers one request. Never throws; every fault comes back as {"ok": false, ...}. The answer is
  // compact JSON; an indent of 0 or more pretty-prints it (the CLI's `analyze`, the golden files).
  std::string analyze_json(const std::string& request, int indent = -1) const;

  bool catalog_ok() const;
  const Errors& catalog_errors() const;

  struct State;  // the catalog and its regional views (core/src/api/analyzer_access.hpp)

 private:
  std::unique_ptr<State> state_;
  friend const State& state_of(const Analyzer& analyzer);
};

// {"ok": false, "errors": [...]} as the analyzer answers it, for faults a door finds itself
// (a missing catalog folder, an unreadable file).
std::string errors_json(const Errors& errors, int indent = -1);

}  // namespace gpufleet
