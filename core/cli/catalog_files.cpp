#include "catalog_files.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "gpufleet/analyzer.hpp"

namespace gpufleet::cli {

std::string read_text(const std::string& path, std::string& out, std::size_t limit_bytes) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) return "cannot read " + path + ": no such file";
    if (std::filesystem::is_directory(status)) return path + " is a directory, not a file";
    // A FIFO could block forever and a device never end: only regular files are read.
    if (!std::filesystem::is_regular_file(status)) return path + " is not a regular file (a FIFO, socket or device)";
    file.open(path, std::ios::binary);
    if (!file) return "cannot read " + path;
    in = &file;
  }
  out.clear();
  char chunk[65536];
  while (*in && out.size() <= limit_bytes) {
    in->read(chunk, sizeof chunk);
    out.append(chunk, static_cast<std::size_t>(in->gcount()));
  }
  if (out.size() > limit_bytes) {
    out.clear();
    return (path == "-" ? std::string("standard input") : path) + " is larger than the limit of " +
           std::to_string(limit_bytes) + " bytes";
  }
  return "";
}

CatalogFiles read_catalog_dir(const std::string& dir) {
  CatalogFiles files;
  auto read = [&](const char* name, std::string& out) {
    const std::string path = dir + "/" + name;
    if (const std::string fault = read_text(path, out, kMaxCatalogBytes); !fault.empty()) {
      files.errors.push_back({"missing_file", name, "", fault});
    }
  };
  read(kGpuInstancesFile, files.sources.gpu_instances_json);
  read(kModelConfigFile, files.sources.model_config_json);
  read(kWorkloadsFile, files.sources.workloads_json);
  // Every region's prices (prices/<provider>/<region>.json): the CLI prices any region asked.
  std::error_code ec;
  std::vector<std::string> names;
  for (const auto& provider : std::filesystem::directory_iterator(dir + "/prices", ec)) {
    if (!provider.is_directory()) continue;
    for (const auto& file : std::filesystem::directory_iterator(provider.path(), ec)) {
      if (file.path().extension() == ".json") {
        names.push_back("prices/" + provider.path().filename().string() + "/" + file.path().filename().string());
      }
    }
  }
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    PriceFile price{name, ""};
    read(name.c_str(), price.text);
    files.sources.price_files.push_back(std::move(price));
  }
  return files;
}

}  // namespace gpufleet::cli
