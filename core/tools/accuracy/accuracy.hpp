#pragma once
// The accuracy harness: measurement cases (the schema of shared/data/CASES.md) turned into memory
// questions, predicted by the same core, and compared with what was measured.

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "model/memory_model.hpp"

namespace gpufleet {

struct CaseOutcome {
  std::string id;
  std::string quantity;    // memory | throughput
  std::string confidence;  // high | medium | low
  std::string metric;
  std::string phase;   // inference | training (the case's workload mode)
  std::string engine;  // the engine of memory_model.engines it ran, else its framework's name
  std::string vendor;  // of its GPU (nvidia, amd, aws), "" when the catalog does not know the GPU
  double predicted = 0;  // in the case's own unit
  double measured = 0;
  std::string unit;
  double error_pct = 0;  // (predicted - measured) / measured x 100
  bool skipped = false;
  std::string reason;                    // why it was skipped
  std::vector<std::string> assumptions;  // values the case left open and the harness chose
  std::optional<MemoryEstimate> estimate;
};

struct AccuracySummary {
  double n = 0;  // high- and medium-confidence cases predicted
  double median_abs_err_pct = 0;
  double p90_abs_err_pct = 0;
  double max_abs_err_pct = 0;
  double skipped = 0;
};

CaseOutcome evaluate_case(const Catalog& catalog, const Json& measurement_case);
AccuracySummary summarize(const std::vector<CaseOutcome>& outcomes, const std::string& quantity);
// The summary per quantity x phase x engine over the high- and medium-confidence cases predicted:
// the expected error answers carry (model_config.json "measured_error", scripts/accuracy-doc.sh).
Json summarize_by_kind(const std::vector<CaseOutcome>& outcomes);

}  // namespace gpufleet
