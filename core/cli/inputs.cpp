#include "inputs.hpp"

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <vector>

#include <CLI/CLI.hpp>

#include "catalog_files.hpp"
#include "edges.hpp"
#include "gpufleet/analyzer.hpp"

namespace gpufleet::cli {

std::optional<std::string> read_input(const std::string& file) {
  std::string text;
  if (const std::string fault = read_text(file, text, gpufleet::kMaxRequestBytes); !fault.empty()) {
    std::cerr << "gpufleet: " << fault << "\n";
    return std::nullopt;
  }
  if (const std::size_t at = utf8_error_at(text); at != std::string::npos) {
    // Every file the CLI reads is JSON or CSV text: UTF-8 (RFC 8259), a usage error otherwise.
    throw CLI::ValidationError(file == "-" ? "standard input" : file,
                               "is not valid UTF-8 text (the first bad byte is at offset " + std::to_string(at) +
                                   "); save it as UTF-8");
  }
  return text;
}

std::optional<Json> read_value(const std::string& file) {
  auto text = read_input(file);
  if (!text) return std::nullopt;
  // The keys of each open object: a key given twice is an error, as in the analyzer's own parser.
  std::vector<std::vector<std::string>> keys;
  try {
    return Json::parse(*text, [&](int depth, Json::parse_event_t event, Json& parsed) {
      if (depth > 32) throw std::runtime_error("nesting deeper than 32 levels");
      if (event == Json::parse_event_t::object_start) keys.emplace_back();
      if (event == Json::parse_event_t::object_end) keys.pop_back();
      if (event == Json::parse_event_t::key) {
        const std::string& key = parsed.get_ref<const std::string&>();
        if (std::find(keys.back().begin(), keys.back().end(), key) != keys.back().end())
          throw std::runtime_error("the key \"" + key + "\" appears twice in one object");
        keys.back().push_back(key);
      }
      return true;
    });
  } catch (const std::exception& e) {
    std::cerr << "gpufleet: " << file << " is not one JSON value: " << e.what() << "\n";
    return std::nullopt;
  }
}

namespace {

// An answer about a named instance whose price is flagged (result.price_flags): its stand-in is the
// provider's cheapest trustworthy region, which may be one the request did not read.
bool names_flagged_price(const std::string& answer) {
  const Json r = Json::parse(answer, nullptr, false);
  if (r.is_discarded() || !r.is_object() || !r.contains("result") || !r["result"].is_object())
    return false;
  const Json& flags = r["result"].value("price_flags", Json());
  return flags.is_array() && !flags.empty();
}

}  // namespace

std::string ask(const std::string& config_dir, const std::string& request, int indent) {
  const Json parsed = Json::parse(request, nullptr, false);
  auto files = read_catalog_dir(config_dir, parsed.is_discarded() ? nullptr : &parsed);
  if (!files.errors.empty()) return gpufleet::errors_json(files.errors, indent);
  std::string answer = gpufleet::Analyzer(files.sources).analyze_json(request, indent);
  if (!names_flagged_price(answer)) return answer;
  files = read_catalog_dir(config_dir);
  if (!files.errors.empty()) return gpufleet::errors_json(files.errors, indent);
  return gpufleet::Analyzer(files.sources).analyze_json(request, indent);
}

}  // namespace gpufleet::cli
