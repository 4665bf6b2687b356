#pragma once
// Seed 002's decision framework: GPU, Trainium, Inferentia or CPU for a workload, with the branch
// of the decision tree that applies, the reasons, and the cheapest valid deployment of each kind (the
// road's); where the tree and the prices disagree, the answer says so.

#include <optional>
#include <string>
#include <vector>

#include "fleet/recommend.hpp"
#include "fleet/road.hpp"
#include "catalog/catalog.hpp"
#include "pricing/cost.hpp"

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

// One kind of hardware for the workload: whether it suits, why, and its cheapest valid deployment.
struct DecisionOption {
  std::string kind, name;
  bool suitable = true;
  std::string migration_complexity, risk_level;
  std::vector<std::string> reasons;
  std::optional<Candidate> cheapest;
  bool recommended = false;
};

struct Decision {
  std::string tree, branch, kind;     // the guide's decision tree, its line, the kind it picks
  std::vector<std::string> families;  // the guide's pick, in preference order
  std::vector<DecisionOption> options;
  std::string prices_disagree;  // empty when the cheapest suitable kind is the tree's
};

Decision decide(const Catalog& catalog, const DecisionInput& input);

}  // namespace gpufleet
