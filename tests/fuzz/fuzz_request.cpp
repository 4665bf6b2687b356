// libFuzzer target: requests. The input is one request text, answered by an Analyzer built once
// per process over the shipped catalog and every price file of $GPUFLEET_CONFIG_DIR (default
// "config"), so that each execution is one question (fuzz_check.hpp says what each answer must be).
// Catalogs and price files are fuzzed by fuzz_catalog.cpp. The answer is checked as analyze_json
// builds it (parse_checked, analyze, dump); calling analyze_json a second time to compare (the entry
// point itself, and determinism) would halve the executions, so it is done only with
// GPUFLEET_FUZZ_TWICE=1 (the catalog target always does it for its input's own request).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "fuzz_check.hpp"

namespace {

const gpufleet::Analyzer* g_analyzer = nullptr;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  static const gpufleet::Analyzer analyzer(gpufleet::fuzz::shipped_sources(true));
  if (!analyzer.catalog_ok()) {
    std::fprintf(stderr, "fuzz_request: the shipped catalog does not load:\n");
    for (const auto& e : analyzer.catalog_errors()) {
      std::fprintf(stderr, "  %s %s %s: %s\n", e.code.c_str(), e.file.c_str(), e.path.c_str(),
                   e.message.c_str());
    }
    std::exit(1);
  }
  g_analyzer = &analyzer;
  return 0;
}

static bool twice() {
  static const bool on = [] {
    const char* value = std::getenv("GPUFLEET_FUZZ_TWICE");
    return value && std::string_view(value) == "1";
  }();
  return on;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gpufleet::fuzz::ask(*g_analyzer, std::string_view(reinterpret_cast<const char*>(data), size),
                      twice());
  return 0;
}
