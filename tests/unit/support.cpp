#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gpufleet::test {

std::string source_path(const std::string& relative) {
  return std::string(GPUFLEET_SOURCE_DIR) + "/" + relative;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

CatalogSources config_sources(const std::string& dir) {
  CatalogSources sources{read_file(source_path(dir + "/gpu_instances.json")),
                         read_file(source_path(dir + "/model_config.json")),
                         read_file(source_path(dir + "/workloads.json")), {}};
  // Every region's prices, as the CLI loads them.
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& provider : std::filesystem::directory_iterator(source_path(dir + "/prices"), ec)) {
    if (!provider.is_directory()) continue;
    for (const auto& file : std::filesystem::directory_iterator(provider.path(), ec)) {
      if (file.path().extension() == ".json") {
        names.push_back("prices/" + provider.path().filename().string() + "/" + file.path().filename().string());
      }
    }
  }
  std::sort(names.begin(), names.end());
  for (const auto& name : names) sources.price_files.push_back({name, read_file(source_path(dir + "/" + name))});
  return sources;
}

CatalogSources edited(const char* file, const std::function<void(Json&)>& edit, CatalogSources base) {
  std::string& text = std::string(file) == kGpuInstancesFile ? base.gpu_instances_json
                      : std::string(file) == kModelConfigFile ? base.model_config_json
                                                              : base.workloads_json;
  Json doc = Json::parse(text);
  edit(doc);
  text = doc.dump();
  return base;
}

const Analyzer& shipped() {
  static const Analyzer analyzer(config_sources());
  return analyzer;
}

Json ask(const Analyzer& analyzer, const Json& request) {
  return Json::parse(analyzer.analyze_json(request.dump()));
}

int non_finite_numbers(const Json& value) {
  if (value.is_number_float()) return std::isfinite(value.get<double>()) ? 0 : 1;
  int count = 0;
  if (value.is_structured()) {
    for (const auto& child : value) count += non_finite_numbers(child);
  }
  return count;
}

double line(const Json& result, const std::string& key) {
  for (const auto& l : result["per_gpu"])
    if (l["key"] == key) return l["bytes"].get<double>();
  return 0;
}

}  // namespace gpufleet::test
