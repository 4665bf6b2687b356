#pragma once
// JSON Schemas (draft 2020-12) of the catalog files, the price files, requests and responses,
// generated from the field definitions the core checks with (native builds only: the WebAssembly
// module leaves the emitter out). config/schemas/ holds them as files (scripts/update-schemas).

#include <string>
#include <vector>

namespace gpufleet {

// gpu_instances, model_config, workloads, prices, request, response.
const std::vector<std::string>& schema_names();

// The schema's text (indented by 2, ending in a newline), or "" for a name schema_names() lacks.
std::string json_schema(const std::string& name);

}  // namespace gpufleet
