#pragma once
// Errors are data: every fault the analyzer finds is one of these, never an exception.

#include <string>
#include <string_view>
#include <vector>

namespace gpufleet {

struct Error {
  std::string code;     // invalid_json | too_large | too_deep | duplicate_key | missing_field |
                        // wrong_type | out_of_range | unknown_name | unknown_field | duplicate_name |
                        // missing_file | cannot_answer | internal_error (docs/api.md)
  std::string file;     // "gpu_instances.json", "model_config.json", "workloads.json" or "request"
  std::string path;     // JSON pointer (RFC 6901) of the offending value, "" for the whole document
  std::string message;  // what was expected and what was found
};

using Errors = std::vector<Error>;

// Escapes one JSON-pointer reference token ("~" -> "~0", "/" -> "~1").
std::string pointer_token(std::string_view key);

}  // namespace gpufleet
