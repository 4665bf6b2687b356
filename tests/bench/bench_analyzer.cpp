// Native benchmarks (Google Benchmark) of one estimate and of the sweep in tests/bench/sweep.json.
// scripts/bench.sh runs them beside the same sweep on the WebAssembly core.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gpufleet/analyzer.hpp"

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::string kRoot = GPUFLEET_SOURCE_DIR;

const gpufleet::Analyzer& analyzer() {
  static const gpufleet::Analyzer a(gpufleet::CatalogSources{read(kRoot + "/config/gpu_instances.json"),
                                                             read(kRoot + "/config/model_config.json"),
                                                             read(kRoot + "/config/workloads.json")});
  return a;
}

const gpufleet::Json& sweep() {
  static const gpufleet::Json doc = gpufleet::Json::parse(read(kRoot + "/tests/bench/sweep.json"));
  return doc;
}

void BM_CatalogLoad(benchmark::State& state) {
  const gpufleet::CatalogSources sources{read(kRoot + "/config/gpu_instances.json"),
                                         read(kRoot + "/config/model_config.json"),
                                         read(kRoot + "/config/workloads.json")};
  for (auto _ : state) {
    gpufleet::Analyzer a(sources);
    benchmark::DoNotOptimize(a.catalog_ok());
  }
}
BENCHMARK(BM_CatalogLoad)->Unit(benchmark::kMillisecond);

void BM_OneEstimate(benchmark::State& state) {
  const std::string request = sweep()["one_estimate"].dump();
  for (auto _ : state) benchmark::DoNotOptimize(analyzer().analyze_json(request));
}
BENCHMARK(BM_OneEstimate)->Unit(benchmark::kMicrosecond);

void BM_Sweep(benchmark::State& state) {
  std::vector<std::string> requests;
  for (const auto& r : sweep()["sweep"]) requests.push_back(r.dump());
  for (auto _ : state) {
    for (const auto& r : requests) benchmark::DoNotOptimize(analyzer().analyze_json(r));
  }
  state.counters["requests"] = static_cast<double>(requests.size());
}
BENCHMARK(BM_Sweep)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
