#pragma once
// Recommendations and migration reports: the road's best deployment on every instance type of
// every family that may hold the workload, ranked by a priority; a migration compares them with
// the current deployment evaluated on the same road.

#include <optional>
#include <string>
#include <vector>

#include "fleet/band.hpp"
#include "fleet/road.hpp"
#include "catalog/catalog.hpp"
#include "pricing/cost.hpp"

namespace gpufleet {

// reliability: on-demand capacity only, 10 % memory headroom per GPU, one spare model copy (N+1).
enum class Priority { kCost, kPerformance, kBalanced, kReliability };
std::string to_string(Priority priority);
std::optional<Priority> parse_priority(const std::string& text);

struct Candidate {
  Deployment d;
  std::string sizing;  // "right_sized" | "current"
  std::optional<double> performance_ratio;  // against the current deployment
  std::optional<double> capacity_ratio;     // output tokens/s against the current fleet's
  std::optional<double> savings_pct;        // monthly, against the current deployment
  std::optional<double> savings_usd_per_month;
  std::string risk_level = "low";            // low | medium | high
  std::string migration_complexity = "none";  // none | low | medium | high
  std::vector<std::string> reasons;
  std::optional<DeploymentBand> band;  // its figures at the measured error of its throughput
};

// Speed for the priorities: tokens/s of one stream (serving) or of the whole job (training).
double speed(const Deployment& d);
// $ per 1M tokens: output tokens served, or training tokens processed.
std::optional<double> usd_per_million_tokens(const Deployment& d);

struct Excluded {
  std::string family;
  std::string reason;
  std::string way_out;
};

struct Question {
  Workload w;
  Billing billing;
  Priority priority = Priority::kCost;
  std::vector<std::string> families;   // empty = all
  std::vector<std::string> providers;  // empty = all (a migration defaults to the current one)
  // Accelerator kinds (gpu, trainium, inferentia, cpu). Empty = those that suit the task
  // (Trainium trains, Inferentia serves; CPU only when asked); a migration defaults to the
  // current kind.
  std::vector<std::string> kinds;
  std::optional<double> max_usd_per_month;
  double min_gpus = 0;
};

struct Recommendation {
  std::vector<Candidate> ranked;  // best first for the priority
  std::vector<Excluded> excluded;
};

Recommendation recommend(const Catalog& catalog, const Question& q, const Candidate* current = nullptr);

// The reasons, risk and complexity of a deployment as a candidate.
Candidate as_candidate(const Catalog& catalog, const Question& q, Deployment d);

// Ways out of a deployment that cannot run.
struct WaysOut {
  std::vector<std::string> formats;        // weight formats that run on the same GPUs
  std::optional<Deployment> more_gpus;     // the same family, enough GPUs
  std::vector<Deployment> other_families;  // the cheapest deployment of other families
};
WaysOut ways_out(const Catalog& catalog, const Question& q, const InstanceType& it, double gpus);

struct MigrationReport {
  Candidate current;
  std::string assessment;
  Recommendation options;
  std::optional<std::size_t> recommended;  // index into options.ranked
  struct Pick {
    Priority priority;
    std::size_t index;
  };
  std::vector<Pick> best_by_priority;
  std::vector<std::string> warnings;
  std::optional<WaysOut> ways_out;  // when the current deployment cannot run the workload
};

MigrationReport migration_report(const Catalog& catalog, const Question& q, const InstanceType& it, double gpus);

}  // namespace gpufleet
