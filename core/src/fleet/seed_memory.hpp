#pragma once
// Memory: how many bytes a model needs for a workload at a precision, and whether that fits the
// GPUs of an instance. All arithmetic in bytes; GB shown to people are decimal (1e9 bytes).

#include <optional>
#include <string>

#include "model/architecture.hpp"
#include "catalog/catalog.hpp"

namespace gpufleet {

// The model a question is about: a catalog model, a pasted config.json, a size class or a bare
// parameter count (the last two become a generic dense decoder of that size).
struct ModelSpec {
  std::string label;                 // "Meta Llama 3.1 8B", "medium (35B)" or "13B parameters"
  std::optional<std::string> size;   // size-class key when given as a class
  double parameters = 0;             // total parameters
  double training_overhead_multiplier = 0;  // the size's memory_overhead_multiplier, if a class
  std::optional<Architecture> arch;  // absent only when the catalog names no generic shape
  std::string shape_basis;           // how the architecture was chosen
  const NamedModel* named = nullptr;
  // The name as typed and which spelling matched ("alias", "hf_id", "normalized"), when it was not
  // the catalog's key.
  std::optional<std::pair<std::string, std::string>> typed_name;
};

struct MemoryRequirement {
  double weights_bytes = 0;
  double overhead_bytes = 0;  // optimizer states and gradients, or batching and KV context
  double total_bytes = 0;
  double multiplier = 1;
  std::string overhead_label;    // what the overhead stands for
  std::string multiplier_basis;  // where the multiplier comes from
};

double weights_bytes(double parameters, const Precision& precision);

MemoryRequirement memory_requirement(const Catalog& catalog, const ModelSpec& model,
                                     WorkloadType workload, const Precision& precision);

struct Fit {
  double gpus = 0;
  double per_gpu_bytes = 0;           // requirement split evenly over the GPUs
  double capacity_per_gpu_bytes = 0;  // usable memory of one GPU
  double utilization = 0;             // requirement / total capacity
  bool fits = false;
  double gpus_needed = 0;             // smallest whole GPU count that fits
};

Fit fit_on(const InstanceType& instance, double gpus, const MemoryRequirement& need);

}  // namespace gpufleet
