#pragma once
// The CLI reads and prints the analyzer's JSON answers with nlohmann_json, as any door may.

#include <nlohmann/json.hpp>

namespace gpufleet {
using Json = nlohmann::ordered_json;
}  // namespace gpufleet
