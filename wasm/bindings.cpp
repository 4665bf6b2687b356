// The door of the WebAssembly core: plain C functions over the module's memory, no embind (whose
// registrations and JavaScript glue cost more than the page's whole catalog; scripts/bench.sh).
// The facade (gpufleet.js) copies UTF-8 bytes in and decodes the answer's bytes out at once.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "gpufleet/analyzer.hpp"

namespace {

// An analyzer built once from the three catalog texts, and its last answer (valid until the next
// question).
struct Door {
  Door(std::string gpu_instances, std::string model_config, std::string workloads,
       std::vector<gpufleet::PriceFile> prices)
      : analyzer(gpufleet::CatalogSources{std::move(gpu_instances), std::move(model_config),
                                          std::move(workloads), std::move(prices)}) {}
  gpufleet::Analyzer analyzer;
  std::string answer;
};

// Price files staged for the next analyzer created.
std::vector<gpufleet::PriceFile> staged_prices;

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE void gpufleet_stage_prices(const char* name, std::size_t name_size, const char* text,
                                                std::size_t text_size) {
  staged_prices.push_back({{name, name_size}, {text, text_size}});
}

EMSCRIPTEN_KEEPALIVE void* gpufleet_create(const char* gpu_instances, std::size_t gpu_instances_size,
                                           const char* model_config, std::size_t model_config_size,
                                           const char* workloads, std::size_t workloads_size) {
  return new Door({gpu_instances, gpu_instances_size}, {model_config, model_config_size},
                  {workloads, workloads_size}, std::exchange(staged_prices, {}));
}

// The answer's first byte; its length is gpufleet_answer_size's.
EMSCRIPTEN_KEEPALIVE const char* gpufleet_analyze(void* door, const char* request,
                                                  std::size_t request_size) {
  auto* d = static_cast<Door*>(door);
  d->answer = d->analyzer.analyze_json(std::string(request, request_size));
  return d->answer.data();
}

EMSCRIPTEN_KEEPALIVE std::size_t gpufleet_answer_size(void* door) {
  return static_cast<Door*>(door)->answer.size();
}

EMSCRIPTEN_KEEPALIVE void gpufleet_destroy(void* door) { delete static_cast<Door*>(door); }

}  // extern "C"
