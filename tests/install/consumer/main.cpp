// Asks the installed library one question against the installed catalogs and prints the answer.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "gpufleet/analyzer.hpp"

static std::string read(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

int main() {
  const std::string dir = CATALOG_DIR;
  gpufleet::CatalogSources sources;
  sources.gpu_instances_json = read(dir + "/gpu_instances.json");
  sources.model_config_json = read(dir + "/model_config.json");
  sources.workloads_json = read(dir + "/workloads.json");
  sources.price_files.push_back(
      {"prices/aws/us-east-1.json", read(dir + "/prices/aws/us-east-1.json")});
  const gpufleet::Analyzer analyzer(sources);
  std::cout << analyzer.analyze_json(R"({"question": "cost", "instance": "P5", "gpus": 8})")
            << "\n";
  return analyzer.catalog_ok() ? 0 : 1;
}
