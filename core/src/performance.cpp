#include "gpufleet/performance.hpp"

#include <cstdio>

#include "report.hpp"

namespace gpufleet {
namespace {

// The relative score of the seed: aggregate bandwidth or TFLOPS.
Performance catalog_score(const Catalog& catalog, const InstanceType& it, double gpus,
                          double scaling, bool serving, const Precision& precision) {
  Performance perf;
  char text[256];
  if (serving) {
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
  return perf;
}

// A score the catalog cannot give: which figure it lacks.
Performance not_estimated(Performance perf, const std::string& missing, const std::string& gpu) {
  perf.score = 0;
  perf.basis = "not estimated: the catalog has no " + missing + " for " + gpu;
  return perf;
}

}  // namespace

Performance performance_of(const Catalog& catalog, const Placement& placement, WorkloadType workload,
                           const Precision& precision) {
  const InstanceType& it = *placement.instance;
  const double gpus = placement.gpus;
  // Several GPUs share one model: scaling is limited by the interconnect; across instances the
  // network limits it again.
  double scaling = (gpus > 1 ? it.interconnect_multiplier : 1.0) * it.gpu_fraction;
  if (placement.instance_count > 1) scaling *= it.interconnect_multiplier;
  const bool serving = workload == WorkloadType::kInference || workload == WorkloadType::kBatchInference;
  const Performance perf = catalog_score(catalog, it, gpus, scaling, serving, precision);
  if (perf.score > 0) return perf;
  return not_estimated(perf, serving ? "memory bandwidth figure" : "compute figure", it.gpu_type);
}

}  // namespace gpufleet
