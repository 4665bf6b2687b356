#pragma once
// The JSON document type every layer above this one reads and writes (ordered: answers keep the
// order their members were written in).

#include <nlohmann/json.hpp>

namespace gpufleet {

using Json = nlohmann::ordered_json;

}  // namespace gpufleet
