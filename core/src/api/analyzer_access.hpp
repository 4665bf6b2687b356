#pragma once
// What the core's own tools and tests see of an Analyzer beyond analyze_json: its catalog and the
// parsed request path. Internal to the core (the doors use gpufleet/analyzer.hpp only).

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "catalog/catalog.hpp"
#include "gpufleet/analyzer.hpp"
#include "support/json.hpp"

namespace gpufleet {

struct Analyzer::State {
  std::shared_ptr<const Catalog> catalog;
  Errors catalog_errors;
  // The catalog priced in the regions recent questions named, built once per choice.
  mutable std::mutex views_mutex;
  mutable std::map<std::string, std::shared_ptr<const Catalog>> views;
};

const Analyzer::State& state_of(const Analyzer& analyzer);

// The analyzer's catalog, or nullptr when it failed to load.
inline const Catalog* catalog_of(const Analyzer& analyzer) { return state_of(analyzer).catalog.get(); }
// One parsed request answered (analyze_json without the text).
Json analyze(const Analyzer& analyzer, const Json& request);
Json errors_response(const Errors& errors);

}  // namespace gpufleet
