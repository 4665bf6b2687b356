#pragma once
// Relative performance of setups from the catalog's figures alone (no model given): aggregate
// memory bandwidth for serving, dense tensor TFLOPS for training. With a model, the questions
// ask the road (core/src/fleet/road.hpp) for tokens/s instead.

#include <string>

#include "catalog/catalog.hpp"
#include "pricing/cost.hpp"

namespace gpufleet {

struct Performance {
  double score = 0;   // aggregate TFLOPS (training) / GB/s (inference)
  std::string unit;   // "TFLOPS" | "GB/s"
  std::string bound;  // "compute" | "memory_bandwidth"
  std::string basis;  // the arithmetic, in words
};

Performance performance_of(const Catalog& catalog, const Placement& placement, WorkloadType workload,
                           const Precision& precision);

}  // namespace gpufleet
