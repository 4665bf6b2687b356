#pragma once
// Reads gpu_instances.json into the catalog (catalog.cpp's read_catalog_files calls it).

#include "catalog/catalog.hpp"
#include "support/json_reader.hpp"

namespace gpufleet::detail {

void read_gpu_instances(const Reader& r, const Json& doc, Catalog& catalog);

}  // namespace gpufleet::detail
