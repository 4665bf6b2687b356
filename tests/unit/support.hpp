#pragma once
// Shared helpers of the unit tests: the repository's catalogs, edited copies, one-call questions.

#include <functional>
#include <string>

#include "gpufleet/analyzer.hpp"
#include "support/json.hpp"

namespace gpufleet::test {

std::string source_path(const std::string& relative);  // path inside the repository
std::string read_file(const std::string& path);
CatalogSources config_sources(const std::string& dir = "config");

// The repository catalog with one document edited.
CatalogSources edited(const char* file, const std::function<void(Json&)>& edit,
                      CatalogSources base = config_sources());

const Analyzer& shipped();  // the analyzer over config/
Json ask(const Analyzer& analyzer, const Json& request);
int non_finite_numbers(const Json& value);  // NaN and infinities anywhere in a document
// Bytes of one line of a memory answer's per-GPU breakdown; 0 when the line is absent.
double line(const Json& result, const std::string& key);

}  // namespace gpufleet::test
