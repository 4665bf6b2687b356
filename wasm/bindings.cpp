// Registrations only: the Analyzer is built once from the three catalog texts, then asked.
#include <emscripten/bind.h>

#include "gpufleet/analyzer.hpp"

namespace {

gpufleet::Analyzer* make_analyzer(const std::string& gpu_instances, const std::string& model_config,
                                  const std::string& workloads) {
  return new gpufleet::Analyzer(gpufleet::CatalogSources{gpu_instances, model_config, workloads});
}

}  // namespace

EMSCRIPTEN_BINDINGS(gpufleet) {
  emscripten::class_<gpufleet::Analyzer>("Analyzer")
      .constructor(&make_analyzer, emscripten::allow_raw_pointers())
      .function("analyzeJson", &gpufleet::Analyzer::analyze_json);
}
