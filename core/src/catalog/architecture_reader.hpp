#pragma once
// A Hugging Face config.json object read into the model's Architecture (catalog models and pasted
// configs alike).

#include <optional>
#include <string>
#include <vector>

#include "gpufleet/errors.hpp"
#include "model/architecture.hpp"
#include "support/json.hpp"

namespace gpufleet {

// Reads a Hugging Face config.json object. Faults are recorded against `file` and `path`.
std::optional<Architecture> read_architecture(const Json& config, const std::string& file,
                                              const std::string& path, Errors& errors);

// The model_type values read_architecture knows the structure of (any other is refused).
std::vector<std::string> supported_model_types();

}  // namespace gpufleet
