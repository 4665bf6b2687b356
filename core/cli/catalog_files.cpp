#include "catalog_files.hpp"

#include <fstream>
#include <sstream>

namespace gpufleet::cli {

bool read_text(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  out = buffer.str();
  return true;
}

CatalogFiles read_catalog_dir(const std::string& dir) {
  CatalogFiles files;
  auto read = [&](const char* name, std::string& out) {
    const std::string path = dir + "/" + name;
    if (!read_text(path, out)) {
      files.errors.push_back({"missing_file", name, "", "cannot read " + path});
    }
  };
  read(kGpuInstancesFile, files.sources.gpu_instances_json);
  read(kModelConfigFile, files.sources.model_config_json);
  read(kWorkloadsFile, files.sources.workloads_json);
  return files;
}

}  // namespace gpufleet::cli
