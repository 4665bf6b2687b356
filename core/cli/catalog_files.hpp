#pragma once
// The CLI's file I/O: the three catalog files of a config directory, and request, plan, config.json
// and case files, each read within the analyzer's limits.

#include <cstddef>
#include <string>

#include "gpufleet/analyzer.hpp"
#include "json.hpp"

namespace gpufleet::cli {

struct CatalogFiles {
  CatalogSources sources;
  Errors errors;  // missing_file for each file that could not be read
};

// The most entries read under prices/ (provider folders and their files, all together): a folder
// of millions of files, or a link to a large tree, is refused rather than read for minutes.
constexpr std::size_t kMaxPriceEntries = 10000;

// The catalogs of `dir`: its three files and prices/<provider>/<region>.json. A link that cannot be
// resolved (a loop, a dangling link) is an error naming it; nothing is followed more than one
// level below prices/. With `request`, a question that prices only the regions it names and each
// provider's usual region (fit, cost, recommend, ...) reads only those regions' price files.
CatalogFiles read_catalog_dir(const std::string& dir, const Json* request = nullptr);

// Where the catalogs are, and why there: the --config option when given, else $GPUFLEET_CONFIG,
// else the installation the executable belongs to (<prefix>/share/gpufleet/config from
// <prefix>/bin/gpufleet), else the source tree the CLI was built from. The last two count only
// when they hold gpu_instances.json; dir is empty when no place does.
struct CatalogLocation {
  std::string dir;
  std::string how;     // "--config", "GPUFLEET_CONFIG", "installed", "source tree"; "" when none
  std::string looked;  // the places tried, for the message when none is found
};
CatalogLocation find_catalog_dir(const std::string& option_dir, const char* argv0);

// "catalogs: DIR (how)", or why none was found.
std::string describe(const CatalogLocation& location);

// Reads a regular file ("-": standard input) into out, stopping after limit_bytes: "" when read,
// else why not (unreadable, a directory, a FIFO or device, larger than the limit).
std::string read_text(const std::string& path, std::string& out, std::size_t limit_bytes);

}  // namespace gpufleet::cli
