#include "catalog_files.hpp"

#include <algorithm>
#include <cstdlib>
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

namespace {

// The running executable's path: /proc/self/exe where there is one, else argv[0] when it names a
// path; "" when neither does.
std::filesystem::path executable(const char* argv0) {
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && !self.empty()) return self;
  if (argv0 != nullptr && std::string(argv0).find('/') != std::string::npos) {
    auto path = std::filesystem::weakly_canonical(argv0, ec);
    if (!ec) return path;
  }
  return {};
}

bool holds_catalogs(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::is_regular_file(dir / kGpuInstancesFile, ec);
}

}  // namespace

CatalogLocation find_catalog_dir(const std::string& option_dir, const char* argv0) {
  if (!option_dir.empty()) return {option_dir, "--config", ""};
  if (const char* env = std::getenv("GPUFLEET_CONFIG"); env != nullptr && *env != '\0') {
    return {env, "GPUFLEET_CONFIG", ""};
  }
  CatalogLocation none{"", "", "GPUFLEET_CONFIG (not set)"};
  if (const auto exe = executable(argv0); !exe.empty()) {
    const auto installed = (exe.parent_path() / GPUFLEET_INSTALLED_CONFIG_DIR).lexically_normal();
    if (holds_catalogs(installed)) return {installed.string(), "installed", ""};
    none.looked += ", " + installed.string();
  }
  if (holds_catalogs(GPUFLEET_SOURCE_CONFIG_DIR)) {
    return {GPUFLEET_SOURCE_CONFIG_DIR, "source tree", ""};
  }
  none.looked += std::string(", ") + GPUFLEET_SOURCE_CONFIG_DIR;
  return none;
}

std::string describe(const CatalogLocation& location) {
  if (location.dir.empty()) {
    return "no catalogs found (looked in " + location.looked +
           "): pass --config DIR or set GPUFLEET_CONFIG to a directory holding " +
           kGpuInstancesFile + ", " + kModelConfigFile + " and " + kWorkloadsFile;
  }
  const std::string why = location.how == "installed"     ? "installed with the executable"
                          : location.how == "source tree" ? "the source tree it was built from"
                                                          : "from " + location.how;
  return "catalogs: " + location.dir + " (" + why + ")";
}

}  // namespace gpufleet::cli
