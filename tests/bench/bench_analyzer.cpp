// Native benchmarks (Google Benchmark) of one estimate, of the sweep and of the tool questions
// in tests/bench/sweep.json; scripts/bench.sh runs the same requests on the WebAssembly core.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gpufleet/analyzer.hpp"
#include "api/analyzer_access.hpp"

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::string kRoot = GPUFLEET_SOURCE_DIR;

// The shipped catalog with every region's prices, as the CLI loads it.
gpufleet::CatalogSources shipped_sources() {
  gpufleet::CatalogSources sources{read(kRoot + "/config/gpu_instances.json"), read(kRoot + "/config/model_config.json"),
                                   read(kRoot + "/config/workloads.json"), {}};
  std::vector<std::string> names;
  for (const auto& provider : std::filesystem::directory_iterator(kRoot + "/config/prices")) {
    if (!provider.is_directory()) continue;
    for (const auto& file : std::filesystem::directory_iterator(provider.path())) {
      names.push_back("prices/" + provider.path().filename().string() + "/" + file.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  for (const auto& name : names) sources.price_files.push_back({name, read(kRoot + "/config/" + name)});
  return sources;
}

const gpufleet::Analyzer& analyzer() {
  static const gpufleet::Analyzer a(shipped_sources());
  return a;
}

const gpufleet::Json& sweep() {
  static const gpufleet::Json doc = gpufleet::Json::parse(read(kRoot + "/tests/bench/sweep.json"));
  return doc;
}

void BM_CatalogLoad(benchmark::State& state) {
  const gpufleet::CatalogSources sources = shipped_sources();
  for (auto _ : state) {
    gpufleet::Analyzer a(sources);
    benchmark::DoNotOptimize(a.catalog_ok());
  }
}
BENCHMARK(BM_CatalogLoad)->Unit(benchmark::kMillisecond);

// What the CLI reads for a question that prices where it is asked (core/cli/catalog_files.cpp):
// the catalog with only each provider's usual region's prices (aws us-east-1, gcp us-central1,
// azure eastus), against BM_CatalogLoad's every region.
void BM_CatalogLoadUsualRegions(benchmark::State& state) {
  gpufleet::CatalogSources sources = shipped_sources();
  const auto catalog = gpufleet::Json::parse(sources.gpu_instances_json);
  std::vector<std::string> usual;
  for (const auto& [key, provider] : catalog["providers"].items()) {
    usual.push_back("prices/" + key + "/" + provider["region"].get<std::string>() + ".json");
  }
  std::erase_if(sources.price_files, [&](const gpufleet::PriceFile& f) {
    return std::find(usual.begin(), usual.end(), f.name) == usual.end();
  });
  if (sources.price_files.size() != usual.size()) {
    state.SkipWithError("a usual region's price file is missing");
    return;
  }
  for (auto _ : state) {
    gpufleet::Analyzer a(sources);
    benchmark::DoNotOptimize(a.catalog_ok());
  }
}
BENCHMARK(BM_CatalogLoadUsualRegions)->Unit(benchmark::kMillisecond);

// What `gpufleet cost --instance g5.xlarge` reads (core/cli/catalog_files.cpp): the catalog with
// its provider's usual region's prices only (aws us-east-1), against BM_CatalogLoad's every region.
void BM_CatalogLoadOneRegion(benchmark::State& state) {
  gpufleet::CatalogSources sources = shipped_sources();
  std::erase_if(sources.price_files,
                [](const gpufleet::PriceFile& f) { return f.name != "prices/aws/us-east-1.json"; });
  if (sources.price_files.size() != 1) {
    state.SkipWithError("prices/aws/us-east-1.json is missing");
    return;
  }
  for (auto _ : state) {
    gpufleet::Analyzer a(sources);
    benchmark::DoNotOptimize(a.catalog_ok());
  }
}
BENCHMARK(BM_CatalogLoadOneRegion)->Unit(benchmark::kMillisecond);

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

// The page's tool questions, each alone (sweep.json "tools"): autoscale over 168 hours choosing
// among every candidate family, spot over every pool, regions over every region.
void BM_Tool(benchmark::State& state, const char* name) {
  const std::string request = sweep()["tools"][name].dump();
  for (auto _ : state) benchmark::DoNotOptimize(analyzer().analyze_json(request));
}
BENCHMARK_CAPTURE(BM_Tool, autoscale_168h_every_family, "autoscale_168h_every_family")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Tool, spot_every_pool, "spot_every_pool")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Tool, regions_every_region, "regions_every_region")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Tool, batch_20_jobs_1000_traces, "batch_20_jobs_1000_traces")
    ->Unit(benchmark::kMillisecond);

// The catalog with every family copied `copies` times under new names (synthetic offers at the
// shipped prices and specs): how the demand-sized recommendation grows with the catalog.
gpufleet::CatalogSources scaled_catalog(int copies) {
  gpufleet::CatalogSources sources = shipped_sources();
  gpufleet::Json doc = gpufleet::Json::parse(sources.gpu_instances_json);
  const gpufleet::Json families = doc["gpu_instances"];
  for (int c = 1; c < copies; ++c) {
    const std::string suffix = "-copy" + std::to_string(c);
    for (const auto& [key, family] : families.items()) {
      gpufleet::Json copy = family;
      if (copy.contains("instance_type")) copy["instance_type"] = copy["instance_type"].get<std::string>() + suffix;
      if (copy.contains("sizes")) {
        gpufleet::Json sizes = gpufleet::Json::object();
        for (const auto& [name, size] : copy["sizes"].items()) sizes[name + suffix] = size;
        copy["sizes"] = sizes;
      }
      doc["gpu_instances"][key + suffix] = copy;
    }
  }
  sources.gpu_instances_json = doc.dump();
  // Each copy is offered wherever its original is, at its prices.
  for (auto& file : sources.price_files) {
    gpufleet::Json prices = gpufleet::Json::parse(file.text);
    const gpufleet::Json offers = prices["offers"];
    for (int c = 1; c < copies; ++c) {
      for (const auto& [name, offer] : offers.items()) prices["offers"][name + "-copy" + std::to_string(c)] = offer;
    }
    file.text = prices.dump();
  }
  return sources;
}

void BM_ScaleCurve(benchmark::State& state) {
  const gpufleet::Analyzer a(scaled_catalog(static_cast<int>(state.range(0))));
  const std::string request = sweep()["scale_curve"].dump();
  if (!a.catalog_ok() || gpufleet::Json::parse(a.analyze_json(request))["ok"] != true) {
    state.SkipWithError("the scaled catalog or its recommendation failed: nothing to time");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(a.analyze_json(request));
  state.counters["instance_types"] = static_cast<double>(catalog_of(a)->instances.size());
  state.counters["offers"] = static_cast<double>(catalog_of(a)->offers->size());
}
BENCHMARK(BM_ScaleCurve)->Arg(1)->Arg(4)->Arg(16)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
