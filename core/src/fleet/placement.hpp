#pragma once
// Several models on one instance: each model is placed whole onto GPUs by memory (first fit,
// largest first); a model larger than one GPU takes enough whole GPUs of its own.

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "pricing/cost.hpp"

namespace gpufleet {

struct ModelLoad {
  std::string name;
  double bytes = 0;  // memory the model needs while serving
  std::string basis;
};

struct GpuSlot {
  int instance = 0;  // which instance of a split
  int gpu = 0;       // GPU index within the instance
  double used_bytes = 0;
  std::vector<std::string> models;
};

struct Packing {
  const InstanceType* instance = nullptr;
  int instance_count = 0;
  bool fits = false;
  std::vector<GpuSlot> gpus;
  std::vector<std::string> unplaced;
};

// Packs the models onto `instance_count` instances of one type.
Packing pack(const InstanceType& instance, int instance_count, const std::vector<ModelLoad>& models);

}  // namespace gpufleet
