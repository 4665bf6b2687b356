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
  std::string source;  // the publication it comes from (source_key of its "source")
  double predicted = 0;  // in the case's own unit
  double measured = 0;
  std::string unit;
  double error_pct = 0;  // (predicted - measured) / measured x 100
  bool skipped = false;
  std::string reason;                    // why it was skipped
  std::vector<std::string> assumptions;  // values the case left open and the harness chose
  std::optional<MemoryEstimate> estimate;
};

inline constexpr double kMinBandSources = 3;

struct AccuracySummary {
  double n = 0;  // high- and medium-confidence cases predicted
  double median_abs_err_pct = 0;
  double p90_abs_err_pct = 0;
  double max_abs_err_pct = 0;
  double skipped = 0;
};

// The expected error of a kind of figure on a source the model was not tuned on: leave one source
// out. The model's constants are fixed, so the error on a held-out source is its cases' error, and
// averaging over the folds weighs every source equally, however many cases it gave.
struct ErrorBand {
  double n = 0;        // cases
  double sources = 0;  // publications they come from
  double median_abs_err_pct = 0;
  double p90_abs_err_pct = 0;
};

// The publication a case's "source" names: its first word ("owner/repo:path@commit" or an
// address), with the path when the first word is a bare "owner/repo"; the commit left off.
std::string source_key(const std::string& source);
// Quantiles of |error| with every source weighted equally (each case 1 / (its source's cases x
// sources)), interpolated between the midpoints of the cases' cumulative weights. Counts the
// high- and medium-confidence cases predicted of `members`.
ErrorBand source_weighted_band(const std::vector<CaseOutcome>& members);
CaseOutcome evaluate_case(const Catalog& catalog, const Json& measurement_case);
AccuracySummary summarize(const std::vector<CaseOutcome>& outcomes, const std::string& quantity);
// The expected error answers carry (model_config.json "measured_error", scripts/accuracy-doc.sh),
// per quantity x phase x engine x vendor: the source-weighted band of the kind's cases, or, when
// they come from fewer than kMinBandSources publications, of the engine's on any vendor ("pool":
// "engine"), else of the quantity x phase ("pool": "phase").
Json summarize_by_kind(const std::vector<CaseOutcome>& outcomes);

}  // namespace gpufleet
