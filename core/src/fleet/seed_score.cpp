#include "fleet/seed_score.hpp"

#include "support/decimal.hpp"
#include "support/text.hpp"

namespace gpufleet {
namespace {

// The relative score of the seed: aggregate bandwidth or TFLOPS.
Performance catalog_score(const Catalog& catalog, const InstanceType& it, double gpus,
                          double scaling, bool serving, const Precision& precision) {
  Performance perf;
  if (serving) {
    perf.bound = "memory_bandwidth";
    perf.unit = "GB/s";
    perf.score = gpus * it.memory_bandwidth_gb_per_s * scaling;
    perf.basis = "token generation is memory-bandwidth bound: " + decimal::general(gpus) + " GPU x " +
                 decimal::general(it.memory_bandwidth_gb_per_s) + " GB/s" +
                 (it.bandwidth_from_factor ? " (from memory_bandwidth_factor)" : "") + " x scaling " +
                 decimal::fixed(scaling, 2);
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
    perf.basis = "training is compute bound: " + decimal::general(gpus) + " GPU x " +
                 decimal::general(tflops) + " TFLOPS (" + which + ", dense) x scaling " +
                 decimal::fixed(scaling, 2);
  }
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
