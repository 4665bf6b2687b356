#pragma once
// What both fuzz targets (fuzz_request.cpp, fuzz_catalog.cpp) share: the shipped catalog read once,
// and the checks every answer must pass. Any violation abort()s so that libFuzzer records the
// input:
//   * the answer text parses as JSON and is an object with a boolean "ok";
//   * ok=false answers carry a non-empty "errors" array of {code,file,path,message} strings;
//     ok=true answers carry "question" and "result";
//   * no number anywhere in the answer is NaN or +-Infinity (checked on the Json the analyzer
//   built,
//     before dumping turns such a number into null);
//   * no "internal_error" (an exception escaped the analysis) unless
//   GPUFLEET_FUZZ_ALLOW_INTERNAL=1.

#include <string>
#include <string_view>

#include "gpufleet/analyzer.hpp"

namespace gpufleet::fuzz {

// The catalog files of $GPUFLEET_CONFIG_DIR (default "config"), with its price files when asked.
CatalogSources shipped_sources(bool with_prices);

// Asks one request and checks the answer. With `entry_point`, Analyzer::analyze_json is called too
// and its text must equal the checked answer's (the real entry point, and determinism).
void ask(const Analyzer& analyzer, std::string_view request, bool entry_point);

// A fault of the catalog itself (rejected without an error, say): aborts with `what`.
[[noreturn]] void fail(const char* what, const std::string& request, const std::string& answer);

bool verbose();  // GPUFLEET_FUZZ_VERBOSE=1: say what each input loaded and answered

}  // namespace gpufleet::fuzz
