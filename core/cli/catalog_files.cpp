#include "catalog_files.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>

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

namespace {

// The entries of folder `path` ("prices", "prices/aws"), each with whether it is a folder; no entry
// followed through a symlink that cannot be resolved (a loop), and at most `room` entries counted
// against the bound of the whole prices folder. False, after recording why, when the folder cannot
// be listed whole.
bool list_folder(const std::filesystem::path& path, const std::string& name, std::size_t& room,
                 std::vector<std::pair<std::string, bool>>& out, Errors& errors) {
  std::error_code ec;
  std::filesystem::directory_iterator it(path, ec), end;
  if (ec) {
    // No prices folder is no prices; a folder that exists but cannot be listed is an error.
    if (ec != std::errc::no_such_file_or_directory) errors.push_back({"missing_file", name, "", "cannot list " + name + ": " + ec.message()});
    return false;
  }
  for (; it != end; it.increment(ec)) {
    if (ec) break;
    if (room-- == 0) {
      errors.push_back({"too_large", name, "",
                        "expected at most " + std::to_string(kMaxPriceEntries) + " entries under prices/ (providers and their region files)"});
      return false;
    }
    std::error_code kind_ec;
    // status() follows a symlink; a loop (ELOOP) or a dangling link is an entry that cannot be read.
    const auto status = it->status(kind_ec);
    const std::string entry = name + "/" + it->path().filename().string();
    if (kind_ec) {
      errors.push_back({"missing_file", entry, "", "cannot read " + entry + ": " + kind_ec.message()});
      continue;
    }
    out.emplace_back(it->path().filename().string(), std::filesystem::is_directory(status));
  }
  if (ec) {
    errors.push_back({"missing_file", name, "", "cannot list " + name + ": " + ec.message()});
    return false;
  }
  return true;
}

void list_price_files(const std::string& dir, std::vector<std::string>& names, Errors& errors) {
  std::size_t room = kMaxPriceEntries;
  std::vector<std::pair<std::string, bool>> providers;
  list_folder(dir + "/prices", "prices", room, providers, errors);
  for (const auto& [provider, is_folder] : providers) {
    if (!is_folder) continue;
    std::vector<std::pair<std::string, bool>> regions;
    const std::string folder = "prices/" + provider;
    list_folder(dir + "/" + folder, folder, room, regions, errors);
    for (const auto& [file, file_is_folder] : regions) {
      if (!file_is_folder && std::filesystem::path(file).extension() == ".json") names.push_back(folder + "/" + file);
    }
  }
}

// Questions whose answer reads the prices of the regions the request names and of each provider's
// usual region only; every other question (spot, regions, batch, plan, catalog, validate, ...) may
// look at every region.
constexpr const char* kPricedWhereAsked[] = {"fit", "cost", "performance", "recommend", "migrate", "estimate",
                                             "memory", "precisions", "decide", "placement", "right_size"};

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return text;
}

// The provider of the instance family or type the request's "instance" names, found as the core
// finds it (a family's key, its instance type or one of its sizes, in any case); "" when none.
std::string provider_of(const Json& catalog, const Json& request) {
  if (!request.contains("instance") || !request["instance"].is_string() ||
      !catalog.contains("gpu_instances") || !catalog["gpu_instances"].is_object()) {
    return "";
  }
  const std::string name = lower(request["instance"].get<std::string>());
  const auto names = [&](const std::string& key, const Json& family) {
    if (lower(key) == name) return true;
    if (family.contains("instance_type") && family["instance_type"].is_string() &&
        lower(family["instance_type"].get<std::string>()) == name)
      return true;
    if (!family.contains("sizes") || !family["sizes"].is_object()) return false;
    for (const auto& [size, _] : family["sizes"].items())
      if (lower(size) == name) return true;
    return false;
  };
  for (const auto& [key, family] : catalog["gpu_instances"].items()) {
    if (family.is_object() && names(key, family) && family.contains("provider") &&
        family["provider"].is_string()) {
      return family["provider"].get<std::string>();
    }
  }
  return "";
}

// The regions whose price files `request` reads: each provider's usual region (gpu_instances.json
// providers.<p>.region) and those it names; nullopt for every file (a question that may look at
// every region, "regions": "all", or a catalog or request this cannot read: the core then answers
// exactly as with every file read, errors included).
std::optional<std::set<std::string>> regions_read(const std::string& gpu_instances_json, const Json& request) {
  if (!request.is_object() || !request.contains("question") || !request["question"].is_string()) return std::nullopt;
  const std::string question = lower(request["question"].get<std::string>());
  if (std::none_of(std::begin(kPricedWhereAsked), std::end(kPricedWhereAsked), [&](const char* q) { return question == q; })) {
    return std::nullopt;
  }
  const Json catalog = Json::parse(gpu_instances_json, nullptr, false);
  if (catalog.is_discarded() || !catalog.is_object() || !catalog.contains("providers") || !catalog["providers"].is_object()) {
    return std::nullopt;
  }
  // `cost` prices one instance at its own provider (core/src/pricing/cost.cpp): that provider's
  // usual region only.
  std::string only = question == "cost" ? provider_of(catalog, request) : "";
  if (!catalog["providers"].contains(only)) only.clear();
  std::set<std::string> regions;
  for (const auto& [key, provider] : catalog["providers"].items()) {
    if (!provider.is_object() || !provider.contains("region") || !provider["region"].is_string()) return std::nullopt;
    if (only.empty() || key == only) regions.insert(provider["region"].get<std::string>());
  }
  if (request.contains("region")) {
    if (!request["region"].is_string()) return std::nullopt;
    regions.insert(request["region"].get<std::string>());
  }
  if (request.contains("regions")) {
    if (!request["regions"].is_array()) return std::nullopt;  // "all", or a value the core refuses
    for (const auto& r : request["regions"]) {
      if (!r.is_string()) return std::nullopt;
      regions.insert(r.get<std::string>());
    }
  }
  return regions;
}

// prices/<provider>/<region>.json -> region
std::string region_of(const std::string& name) { return std::filesystem::path(name).stem().string(); }

}  // namespace

CatalogFiles read_catalog_dir(const std::string& dir, const Json* request) {
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
  // The prices (prices/<provider>/<region>.json) of the regions the request reads, else every
  // region's: the CLI prices any region asked.
  std::vector<std::string> names;
  list_price_files(dir, names, files.errors);
  std::sort(names.begin(), names.end());
  if (const auto regions = request ? regions_read(files.sources.gpu_instances_json, *request) : std::nullopt) {
    std::vector<std::string> kept;
    for (const auto& name : names)
      if (regions->count(region_of(name))) kept.push_back(name);
    // A region no file prices: every file, so that the core names the regions there are.
    std::set<std::string> found;
    for (const auto& name : kept) found.insert(region_of(name));
    if (found.size() == regions->size()) names = std::move(kept);
  }
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
