#pragma once
// Reads the three catalog files of a config directory (the only file I/O of the CLI).

#include <string>

#include "gpufleet/catalog.hpp"

namespace gpufleet::cli {

struct CatalogFiles {
  CatalogSources sources;
  Errors errors;  // missing_file for each file that could not be read
};

CatalogFiles read_catalog_dir(const std::string& dir);
bool read_text(const std::string& path, std::string& out);

}  // namespace gpufleet::cli
