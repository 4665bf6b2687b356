#include "fleet/seed_memory.hpp"

#include <cmath>

namespace gpufleet {

double weights_bytes(double parameters, const Precision& precision) {
  return parameters * precision.bytes_per_parameter;
}

MemoryRequirement memory_requirement(const Catalog& catalog, const ModelSpec& model,
                                     WorkloadType workload, const Precision& precision) {
  MemoryRequirement need;
  need.weights_bytes = weights_bytes(model.parameters, precision);
  const MemoryPlanning& plan = catalog.planning;
  switch (workload) {
    case WorkloadType::kInference:
    case WorkloadType::kBatchInference:
      need.multiplier = plan.inference_multiplier;
      need.overhead_label = "batching and KV-cache context";
      need.multiplier_basis = "memory_planning.inference_multiplier";
      break;
    case WorkloadType::kFineTuning:
    case WorkloadType::kLora:
    case WorkloadType::kQlora:
    case WorkloadType::kTraining: {
      const bool training = workload == WorkloadType::kTraining;
      need.overhead_label = "gradients and optimizer states";
      if (model.size && model.training_overhead_multiplier > 0) {
        need.multiplier = model.training_overhead_multiplier;
        need.multiplier_basis = "model_sizes." + *model.size + ".memory_overhead_multiplier";
      } else {
        need.multiplier = training ? plan.training_multiplier : plan.fine_tuning_multiplier;
        need.multiplier_basis = training ? "memory_planning.training_multiplier"
                                         : "memory_planning.fine_tuning_multiplier";
      }
      break;
    }
  }
  need.total_bytes = need.weights_bytes * need.multiplier;
  need.overhead_bytes = need.total_bytes - need.weights_bytes;
  return need;
}

Fit fit_on(const InstanceType& instance, double gpus, const MemoryRequirement& need) {
  Fit fit;
  fit.gpus = gpus;
  fit.capacity_per_gpu_bytes = instance.memory_per_gpu_bytes;
  fit.per_gpu_bytes = gpus > 0 ? need.total_bytes / gpus : need.total_bytes;
  const double capacity = fit.capacity_per_gpu_bytes * gpus;
  fit.utilization = capacity > 0 ? need.total_bytes / capacity : 0;
  fit.fits = capacity > 0 && need.total_bytes <= capacity;
  fit.gpus_needed = fit.capacity_per_gpu_bytes > 0
                        ? std::max(1.0, std::ceil(need.total_bytes / fit.capacity_per_gpu_bytes))
                        : 0;
  return fit;
}

}  // namespace gpufleet
