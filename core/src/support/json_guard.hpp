#pragma once
// Parses untrusted JSON text within limits (size, nesting depth, string length) and rejects what
// nlohmann_json would accept silently (duplicate keys, a byte-order mark), each fault an Error
// with the JSON pointer where it was found. Internal to the core.

#include <cstddef>
#include <optional>
#include <string>

#include "gpufleet/analyzer.hpp"
#include "support/json.hpp"
#include "gpufleet/errors.hpp"

namespace gpufleet::detail {

struct ParseLimits {
  std::size_t max_bytes;
  int max_depth;
  std::size_t max_string_bytes;
};

inline constexpr ParseLimits kRequestLimits{kMaxRequestBytes, 32, 4096};
inline constexpr ParseLimits kCatalogLimits{kMaxCatalogBytes, 32, 65536};

std::optional<Json> parse_checked(const std::string& text, const std::string& file,
                                  const ParseLimits& limits, Errors& errors);

}  // namespace gpufleet::detail
