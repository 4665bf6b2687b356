// libFuzzer target: catalogs and price files. Each input builds an Analyzer over fuzzed files and
// asks it questions (fuzz_check.hpp says what each answer must be). Input format (first byte):
//   'B' <gpu_instances> SEP <model_config> SEP <workloads> [SEP <request>]
//        the three catalog files (an EMPTY part keeps the shipped file), then a fixed set of
//        requests (one of each kind that reads the catalog differently) and the optional request;
//   'C' as B, but only the optional request is asked (validate without one): a reproducer of one
//        catalog-dependent fault of one question is written this way;
//   'P' <price file> [SEP <request>]
//        the shipped catalog files and one price file, prices/aws/us-east-1.json, then the requests
//        that read prices (region-specific) and the optional request;
//   anything else: ignored (requests alone are fuzz_request.cpp's).
// SEP is "\n@@\n" (a raw newline cannot occur inside a JSON string). The catalog files are read
// once from $GPUFLEET_CONFIG_DIR (default "config"); the catalog modes load no other price file.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"

namespace {

using gpufleet::Analyzer;
using gpufleet::CatalogSources;

constexpr std::string_view kSep = "\n@@\n";

CatalogSources g_shipped;

const std::vector<std::string>& catalog_requests() {
  static const std::vector<std::string> kRequests = {
      R"({"question": "validate"})",
      R"({"question": "catalog", "section": "all"})",
      R"({"question": "precisions", "model": {"size": "medium"}})",
      R"({"question": "fit", "model": {"size": "small"}, "workload": "inference", "precision": "fp16", "instance": "G6e", "gpus": 1})",
      R"({"question": "performance", "workload": "training", "precision": "bf16", "instances": [{"instance": "P5", "gpus": 8}, {"instance": "G6e", "gpus": 1}, {"instance": "G6e", "gpus": 3}]})",
      R"({"question": "recommend", "model": {"size": "large"}, "workload": "fine_tuning", "precision": "fp8", "priority": "balanced", "use_spot": true})",
      R"({"question": "migrate", "current": {"instance": "P5", "gpus": 8}, "model": {"size": "large"}, "workload": "training", "precision": "bf16", "hours_per_month": 500, "use_spot": true, "priority": "performance"})",
      R"({"question": "cost", "instance": "G6e", "gpus": 3, "schedule": {"hours_per_week": 40, "weeks_per_month": 4}, "pricing": "mixed", "spot_share": 0.5})",
      R"({"question": "workload_set", "id": "comprehensive_suite"})",
      R"({"question": "decide", "model": {"params_b": 13}, "workload": "training", "precision": "bf16", "goal": "cost"})",
      R"({"question": "placement", "models": [{"name": "a", "memory_gb": 60}, {"name": "b", "model": {"size": "medium"}, "workload": "inference", "precision": "fp8"}], "use_spot": true})",
      R"({"question": "plan", "plan": {"name": "p", "environments": [{"name": "dev", "workloads": [{"name": "w", "instance": "G6e", "count": 2, "schedule": {"hours_per_day": 8, "days_per_month": 22}, "pricing": "on_demand"}, {"name": "t", "instance": "P5", "count": 1, "schedule": {"always_on": true}, "pricing": "spot"}]}]}})",
      R"({"question": "memory", "model": {"name": "llama-3-8b"}, "mode": "full_finetune", "gpu": "H100-SXM-80GB", "gpus": 2, "sharding": "zero3"})",
      R"({"question": "estimate", "model": {"name": "llama-3-8b"}, "weight_format": "fp8", "rank": true, "max_ttft_ms": 500})",
      R"({"question": "estimate", "model": {"name": "llama-3-8b"}, "phase": "training", "instance": "P5", "gpus": 8, "dataset_tokens": 1e9})",
      R"({"question": "right_size", "models": [{"model": {"name": "llama-3-8b"}, "weight_format": "int8"}]})",
      R"({"question": "recommend", "model": {"name": "llama-3-8b"}, "workload": "inference", "demand": {"requests_per_s": 50, "max_ttft_ms": 500}, "priority": "reliability"})",
  };
  return kRequests;
}

// The questions that read a region's prices, asked of a fuzzed price file.
const std::vector<std::string>& price_requests() {
  static const std::vector<std::string> kRequests = {
      R"({"question": "validate"})",
      R"({"question": "catalog", "section": "instances", "region": "us-east-1"})",
      R"({"question": "cost", "instance": "g6e.xlarge", "region": "us-east-1", "pricing": "mixed"})",
      R"({"question": "recommend", "model": {"name": "llama-3-8b"}, "workload": "inference", "demand": {"requests_per_s": 5}, "regions": ["us-east-1"], "providers": ["aws"]})",
      R"({"question": "estimate", "model": {"name": "llama-3-8b"}, "rank": true, "region": "us-east-1", "providers": ["aws"], "limit": 5})",
      R"({"question": "spot", "model": {"name": "llama-3-8b"}, "workload": "inference", "demand": {"requests_per_s": 5}, "region": "us-east-1", "providers": ["aws"]})",
  };
  return kRequests;
}

// The parts of `rest` split at SEP, at most `most` (the last keeps any later separator).
std::vector<std::string_view> split(std::string_view rest, std::size_t most) {
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < most) {
    const std::size_t at = rest.find(kSep);
    if (at == std::string_view::npos) break;
    parts.push_back(rest.substr(0, at));
    rest.remove_prefix(at + kSep.size());
  }
  parts.push_back(rest);
  return parts;
}

void report_catalog(const Analyzer& analyzer) {
  if (!analyzer.catalog_ok() && analyzer.catalog_errors().empty()) {
    gpufleet::fuzz::fail("catalog rejected without any error", "(catalog mode)", "");
  }
  if (!gpufleet::fuzz::verbose()) return;
  std::fprintf(stderr, "fuzz_catalog: catalog %s", analyzer.catalog_ok() ? "loads" : "rejected:");
  for (const auto& e : analyzer.catalog_errors())
    std::fprintf(stderr, " [%s %s %s]", e.code.c_str(), e.file.c_str(), e.path.c_str());
  std::fprintf(stderr, "\n");
}

// Asks the fixed set (just the first when the catalog is refused: every question gets the same
// errors), then the input's own request, through the real entry point too.
void ask_all(const Analyzer& analyzer, const std::vector<std::string>& fixed,
             std::string_view extra) {
  if (analyzer.catalog_ok()) {
    for (const auto& request : fixed) gpufleet::fuzz::ask(analyzer, request, false);
  } else {
    gpufleet::fuzz::ask(analyzer, fixed.front(), false);
  }
  if (!extra.empty()) gpufleet::fuzz::ask(analyzer, extra, true);
}

void run_catalog_mode(std::string_view rest, bool fixed_set) {
  const std::vector<std::string_view> parts = split(rest, 4);
  CatalogSources sources = g_shipped;
  std::string* slots[3] = {&sources.gpu_instances_json, &sources.model_config_json,
                           &sources.workloads_json};
  for (std::size_t i = 0; i < parts.size() && i < 3; ++i) {
    if (!parts[i].empty()) *slots[i] = std::string(parts[i]);
  }
  const std::string_view extra = parts.size() > 3 ? parts[3] : std::string_view();
  const Analyzer analyzer(sources);
  report_catalog(analyzer);
  if (fixed_set) {
    ask_all(analyzer, catalog_requests(), extra);
  } else {
    gpufleet::fuzz::ask(analyzer,
                        extra.empty() ? std::string_view(catalog_requests().front()) : extra, true);
  }
}

void run_price_mode(std::string_view rest) {
  const std::vector<std::string_view> parts = split(rest, 2);
  CatalogSources sources = g_shipped;
  sources.price_files.push_back({"prices/aws/us-east-1.json", std::string(parts[0])});
  const Analyzer analyzer(sources);
  report_catalog(analyzer);
  ask_all(analyzer, price_requests(), parts.size() > 1 ? parts[1] : std::string_view());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  g_shipped = gpufleet::fuzz::shipped_sources(false);
  const Analyzer analyzer(g_shipped);
  if (!analyzer.catalog_ok()) {
    std::fprintf(stderr, "fuzz_catalog: the shipped catalog does not load\n");
    std::exit(1);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] == 'B' || data[0] == 'C') run_catalog_mode(rest, data[0] == 'B');
  if (data[0] == 'P') run_price_mode(rest);
  return 0;
}
