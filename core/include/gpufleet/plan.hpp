#pragma once
// Fleet plans: environments of workloads, each a number of instances on a schedule and a way to
// pay, costed per workload, per environment and in total, and re-priced on every provider.

#include <optional>
#include <string>
#include <vector>

#include "gpufleet/catalog.hpp"
#include "gpufleet/cost.hpp"

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

// The cheapest instance type of each provider holding the same accelerator at least as many
// times per instance (priced, not flagged), keyed by provider.
std::vector<const InstanceType*> equivalents(const Catalog& catalog, const InstanceType& instance);

Json plan_report(const Catalog& catalog, const Plan& plan);

}  // namespace gpufleet
