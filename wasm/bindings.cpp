// Registrations only: the Analyzer is built once from the three catalog texts, then asked.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "gpufleet/analyzer.hpp"

namespace {

// The answer crosses as a view of its UTF-8 bytes, which the facade decodes at once with
// TextDecoder: embind's std::string return scans every byte twice in JavaScript (scripts/bench.sh,
// README "Performance"). The view stays valid until the next question.
class Door {
 public:
  Door(const std::string& gpu_instances, const std::string& model_config, const std::string& workloads)
      : analyzer_(gpufleet::CatalogSources{gpu_instances, model_config, workloads}) {}
  emscripten::val analyze_bytes(const std::string& request) {
    answer_ = analyzer_.analyze_json(request);
    return emscripten::val(emscripten::typed_memory_view(answer_.size(), reinterpret_cast<const unsigned char*>(answer_.data())));
  }

 private:
  gpufleet::Analyzer analyzer_;
  std::string answer_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(gpufleet) {
  emscripten::class_<Door>("Analyzer")
      .constructor<const std::string&, const std::string&, const std::string&>()
      .function("analyzeBytes", &Door::analyze_bytes);
}
