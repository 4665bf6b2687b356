#pragma once
// Internal: the concrete models and memory-model constants of model_config.json.

#include "catalog/catalog.hpp"
#include "support/json_reader.hpp"

namespace gpufleet::detail {

void read_model_catalog(const Reader& r, const Json& doc, Catalog& catalog);

}  // namespace gpufleet::detail
