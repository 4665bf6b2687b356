#pragma once
// Recommendations: every family that can hold the workload, priced, scored and ranked by a
// priority; the migration report of seed 004 compares them with a current setup.

#include <optional>
#include <string>
#include <vector>

#include "gpufleet/catalog.hpp"
#include "gpufleet/cost.hpp"
#include "gpufleet/memory.hpp"
#include "gpufleet/performance.hpp"

namespace gpufleet {

enum class Priority { kCost, kPerformance, kBalanced };
std::string to_string(Priority priority);
std::optional<Priority> parse_priority(const std::string& text);

struct Candidate {
  Placement placement;
  std::string sizing;  // "right_sized" | "same_gpu_count" | "current"
  Fit fit;
  Cost cost;
  Performance performance;
  std::optional<double> performance_ratio;  // against the current setup
  std::optional<double> savings_pct;        // monthly, against the current setup
  std::optional<double> savings_usd_per_month;
  std::string risk_level;        // low | medium | high
  std::string migration_complexity;  // none | low | medium | high
  std::vector<std::string> reasons;
};

struct Excluded {
  std::string family;
  std::string reason;
};

struct Question {
  ModelSpec model;
  WorkloadType workload = WorkloadType::kInference;
  const Precision* precision = nullptr;
  Billing billing;
  Priority priority = Priority::kCost;
  std::vector<std::string> families;   // empty = all
  std::vector<std::string> providers;  // empty = all (a migration defaults to the current one)
  // Accelerator kinds (gpu, trainium, inferentia, cpu). Empty = the accelerators that suit the
  // workload (Trainium trains, Inferentia serves; CPU only when asked); a migration defaults to
  // the current kind.
  std::vector<std::string> kinds;
  std::optional<double> max_usd_per_month;
  std::optional<double> max_tpot_ms;  // inference: slowest single-stream time per output token
  double min_gpus = 0;
};

struct Recommendation {
  MemoryRequirement need;
  std::vector<Candidate> ranked;  // best first for the priority
  std::vector<Excluded> excluded;
};

// Candidates ranked for q.priority. With `current`, candidates also come at the current GPU count
// and carry ratios, savings, risk and complexity against it.
Recommendation recommend(const Catalog& catalog, const Question& q,
                         const Candidate* current = nullptr);

// Scores one placement the way recommend() scores candidates.
Candidate evaluate(const Catalog& catalog, const Question& q, const Placement& placement,
                   const MemoryRequirement& need);

// Ways out of a setup that cannot hold the model.
struct WaysOut {
  std::vector<std::string> lower_precisions;  // that fit on the same GPUs
  std::optional<Placement> more_gpus;         // same family, enough GPUs
  std::vector<Placement> larger_gpus;         // families whose GPUs hold it at the same count
};
WaysOut ways_out(const Catalog& catalog, const Question& q, const Placement& placement);

struct MigrationReport {
  Candidate current;
  std::string assessment;  // one paragraph about the current setup
  Recommendation options;
  std::optional<std::size_t> recommended;  // index into options.ranked
  struct Pick {
    Priority priority;
    std::size_t index;
  };
  std::vector<Pick> best_by_priority;
  std::vector<std::string> warnings;
  std::optional<WaysOut> ways_out;  // when the current setup cannot hold the model
};

MigrationReport migration_report(const Catalog& catalog, const Question& q,
                                 const Placement& current);

}  // namespace gpufleet
