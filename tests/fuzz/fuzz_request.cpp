// libFuzzer target: requests. The input is one request text, answered by an Analyzer built once
// per process over the shipped catalog and every price file of $GPUFLEET_CONFIG_DIR (default
// "config"), so that each execution is one question (fuzz_check.hpp says what each answer must be).
// Catalogs and price files are fuzzed by fuzz_catalog.cpp.

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

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gpufleet::fuzz::ask(*g_analyzer, std::string_view(reinterpret_cast<const char*>(data), size),
                      true);
  return 0;
}
