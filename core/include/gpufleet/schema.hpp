#pragma once
// JSON Schemas (draft 2020-12) of the catalog files, the price files, requests and responses,
// generated from the field definitions the core checks with (native builds only: the WebAssembly
// module leaves the emitter out). config/schemas/ holds them as files (scripts/update-schemas).

#include <string>
#include <vector>

namespace gpufleet {

// gpu_instances, model_config, workloads, prices, request, response.
const std::vector<std::string>& schema_names();

// The questions and the request fields' allowed values, from the same field table, as JSON text:
// {"questions": [...], "values": {"workload": [...], "recipe.sharding": [...], ...}, "usual": [...]}
// ("usual": fields whose values are the usual ones, not all). The same object as the "request"
// member of the catalog question's menus, which the page reads; the CLI's choices read this.
std::string request_menus_json();

// docs/api.md's field reference in Markdown: every question with the fields it takes, and every
// request kind's fields with type, range or values and description (the same table).
std::string request_markdown();

// The schema's text (indented by 2, ending in a newline), or "" for a name schema_names() lacks.
std::string json_schema(const std::string& name);

}  // namespace gpufleet
