#pragma once
// The CLI's file I/O: the three catalog files of a config directory, and request, plan, config.json
// and case files, each read within the analyzer's limits.

#include <cstddef>
#include <string>

#include "gpufleet/catalog.hpp"

namespace gpufleet::cli {

struct CatalogFiles {
  CatalogSources sources;
  Errors errors;  // missing_file for each file that could not be read
};

CatalogFiles read_catalog_dir(const std::string& dir);

// Reads a regular file ("-": standard input) into out, stopping after limit_bytes: "" when read,
// else why not (unreadable, a directory, a FIFO or device, larger than the limit).
std::string read_text(const std::string& path, std::string& out, std::size_t limit_bytes);

}  // namespace gpufleet::cli
