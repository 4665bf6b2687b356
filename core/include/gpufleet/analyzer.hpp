#pragma once
// The one entry point every door uses (CLI, WebAssembly, tests): an Analyzer owns the catalog,
// parsed and validated once, and answers JSON requests with JSON responses. It never throws.
//
// Request:  {"question": "fit", "model": {"size": "medium"}, "workload": "inference", ...}
// Response: {"ok": true, "question": "fit", "catalog": {...}, "result": {...}}
//       or  {"ok": false, "errors": [{"code", "file", "path", "message"}, ...]}
// docs/api.md lists every question and field.

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "gpufleet/catalog.hpp"

namespace gpufleet {

// The largest texts the analyzer parses: a request (or any file a door reads into one) and each
// catalog file. Doors that read files stop there instead of reading the rest.
inline constexpr std::size_t kMaxRequestBytes = 1 << 20;
inline constexpr std::size_t kMaxCatalogBytes = 16 << 20;
// The largest answer analyze_json returns; a larger one is refused (too_large) instead.
inline constexpr std::size_t kMaxAnswerBytes = 8 << 20;

class Analyzer {
 public:
  explicit Analyzer(const CatalogSources& sources);

  // Answers one request. Never throws; every fault comes back as {"ok": false, ...}. The answer is
  // compact JSON; an indent of 0 or more pretty-prints it (the CLI's `analyze`, the golden files).
  std::string analyze_json(const std::string& request, int indent = -1) const;
  Json analyze(const Json& request) const;

  bool catalog_ok() const { return catalog_ != nullptr; }
  const Errors& catalog_errors() const { return catalog_errors_; }
  const Catalog* catalog() const { return catalog_.get(); }

 private:
  Json answer(const Json& request, Errors& errors) const;
  std::shared_ptr<const Catalog> view(const RegionChoice& choice) const;

  std::shared_ptr<const Catalog> catalog_;
  Errors catalog_errors_;
  // The catalog priced in the regions recent questions named, built once per choice.
  mutable std::mutex views_mutex_;
  mutable std::map<std::string, std::shared_ptr<const Catalog>> views_;
};

Json errors_response(const Errors& errors);

}  // namespace gpufleet
