#pragma once
// Seed 002's decision framework: GPU, Trainium, Inferentia or CPU for a workload, with the branch
// of the decision tree that applies, the reasons, and the cheapest valid deployment of each kind (the
// road's); where the tree and the prices disagree, the answer says so.

#include <optional>
#include <string>
#include <vector>

#include "fleet/road.hpp"
#include "gpufleet/catalog.hpp"
#include "gpufleet/cost.hpp"

namespace gpufleet {

struct DecisionInput {
  Workload w;
  std::vector<std::string> providers;
  std::string framework = "pytorch";      // pytorch | tensorflow | jax | other
  std::string model_kind = "transformer";  // transformer | cnn | mixed | simple
  std::string goal = "cost";  // cost | performance | balanced | flexibility | experimentation
  std::optional<double> latency_ms;  // a per-request latency target
  bool edge = false;
  bool batch = false;
  Billing billing;
};

Json decide(const Catalog& catalog, const DecisionInput& input);

}  // namespace gpufleet
