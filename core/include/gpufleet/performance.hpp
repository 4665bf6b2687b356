#pragma once
// Relative performance between setups, from the catalog's compute, memory bandwidth and
// interconnect fields: inference decode is memory-bandwidth bound, training compute bound.

#include <string>

#include "gpufleet/catalog.hpp"
#include "gpufleet/cost.hpp"

namespace gpufleet {

struct Performance {
  double score = 0;    // aggregate TFLOPS (training) or GB/s (inference) after scaling
  std::string unit;    // "TFLOPS" | "GB/s"
  std::string bound;   // "compute" | "memory_bandwidth"
  std::string basis;   // the arithmetic, in words
};

Performance performance_of(const Catalog& catalog, const Placement& placement,
                           WorkloadType workload, const Precision& precision);

}  // namespace gpufleet
