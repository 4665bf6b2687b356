#pragma once
// Fleet plans: environments of workloads, each a number of instances on a schedule and a way to
// pay, costed per workload, per environment and in total, and re-priced on every provider.

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "pricing/cost.hpp"

namespace gpufleet {

struct PlanWorkload {
  std::string name;
  Placement placement;  // instance type x count
  Billing billing;
};

struct PlanEnvironment {
  std::string name;
  std::vector<PlanWorkload> workloads;
};

struct Plan {
  std::string name;
  std::vector<PlanEnvironment> environments;
};

// Another provider's instance type for what runs on one: the same accelerator (with at least its
// memory) at least as many times per instance, priced and not flagged: of those with the fewest
// accelerators, the cheapest with at least the original's vCPUs and RAM, or where a provider has
// none, its nearest host and what it lacks.
struct Equivalent {
  const InstanceType* instance = nullptr;
  std::vector<std::string> short_of;  // "vCPUs 4 of 8", "RAM 15 of 16 GiB"
};
std::vector<Equivalent> equivalents(const Catalog& catalog, const InstanceType& instance);

// `count` x `it` for a month of `billing` (on-demand base), or nullopt when unpriced.
std::optional<double> monthly_usd(const Catalog& catalog, const InstanceType& it, int count,
                                  const Billing& billing);

}  // namespace gpufleet
