#include "gpufleet/performance.hpp"

#include <cstdio>

namespace gpufleet {

Performance performance_of(const Catalog& catalog, const Placement& placement,
                           WorkloadType workload, const Precision& precision) {
  const InstanceType& it = *placement.instance;
  Performance perf;
  const double gpus = placement.gpus;
  // Several GPUs share one model: scaling is limited by the interconnect; across instances the
  // network limits it again.
  double scaling = (gpus > 1 ? it.interconnect_multiplier : 1.0) * it.gpu_fraction;
  if (placement.instance_count > 1) scaling *= it.interconnect_multiplier;
  char text[256];
  if (workload == WorkloadType::kInference) {
    perf.bound = "memory_bandwidth";
    perf.unit = "GB/s";
    perf.score = gpus * it.memory_bandwidth_gb_per_s * scaling;
    std::snprintf(text, sizeof text,
                  "token generation is memory-bandwidth bound: %g GPU x %g GB/s%s x scaling %.2f",
                  gpus, it.memory_bandwidth_gb_per_s,
                  it.bandwidth_from_factor ? " (from memory_bandwidth_factor)" : "", scaling);
  } else {
    double tflops = it.compute_tflops;
    std::string which = "compute_tflops";
    auto spec = catalog.gpus.find(it.gpu_model);
    if (spec != catalog.gpus.end()) {
      auto t = spec->second.tflops.find(precision.key);
      if (t != spec->second.tflops.end()) {
        tflops = t->second;
        which = precision.key;
      }
    }
    perf.bound = "compute";
    perf.unit = "TFLOPS";
    perf.score = gpus * tflops * scaling;
    std::snprintf(text, sizeof text,
                  "training is compute bound: %g GPU x %g TFLOPS (%s, dense) x scaling %.2f", gpus,
                  tflops, which.c_str(), scaling);
  }
  perf.basis = text;
  if (perf.score <= 0) {
    perf.score = 0;
    perf.basis = "not estimated: the catalog has no " +
                 std::string(workload == WorkloadType::kInference ? "memory bandwidth" : "compute") +
                 " figure for " + it.gpu_type;
  }
  return perf;
}

}  // namespace gpufleet
