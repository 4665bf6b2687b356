#pragma once
// What the CLI reads besides its arguments: request, plan and case files (or standard input).

#include <optional>
#include <string>

#include "json.hpp"

namespace gpufleet::cli {

// The text of FILE, or of standard input for "-", within the analyzer's request limit; nullopt
// (after saying why) when it cannot be read; throws CLI::ValidationError naming the file when its
// text is not UTF-8 (a usage error).
std::optional<std::string> read_input(const std::string& file);

// FILE's text as one JSON value (placed into a request as a value, never spliced into its text),
// nested no deeper than a request may be; nullopt after saying why.
std::optional<Json> read_value(const std::string& file);

// One request against the catalogs of config_dir: the answer text (indent as
// Analyzer::analyze_json's), or the file errors. The price files read are those the request needs
// (read_catalog_dir), and every file where the answer could differ with them all read.
std::string ask(const std::string& config_dir, const std::string& request, int indent = -1);

}  // namespace gpufleet::cli
