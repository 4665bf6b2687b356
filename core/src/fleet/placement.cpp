#include "fleet/placement.hpp"
#include "support/decimal.hpp"
#include "support/small_sort.hpp"

#include <algorithm>
#include <cmath>

namespace gpufleet {

Packing pack(const InstanceType& instance, int instance_count, const std::vector<ModelLoad>& models) {
  Packing p;
  p.instance = &instance;
  p.instance_count = instance_count;
  const int per_instance = std::max(1, static_cast<int>(std::floor(instance.gpus + 1e-9)));
  const double capacity = instance.memory_per_gpu_bytes;
  for (int i = 0; i < instance_count; ++i) {
    for (int g = 0; g < per_instance; ++g) p.gpus.push_back({i, g, 0, {}});
  }
  std::vector<const ModelLoad*> order;
  for (const auto& m : models) order.push_back(&m);
  detail::small_stable_sort(order.begin(), order.end(),
                   [](const ModelLoad* a, const ModelLoad* b) { return a->bytes > b->bytes; });
  for (const ModelLoad* m : order) {
    bool placed = false;
    if (m->bytes <= capacity) {
      for (auto& slot : p.gpus) {
        if (slot.used_bytes + m->bytes <= capacity) {
          slot.used_bytes += m->bytes;
          slot.models.push_back(m->name);
          placed = true;
          break;
        }
      }
    } else if (capacity > 0) {
      // Needs several whole GPUs of one instance, empty ones, side by side.
      const double gpus_needed = std::ceil(m->bytes / capacity);
      const int need = gpus_needed > static_cast<double>(p.gpus.size()) ? static_cast<int>(p.gpus.size()) + 1
                                                                       : static_cast<int>(gpus_needed);
      for (int i = 0; i < instance_count && !placed; ++i) {
        std::vector<GpuSlot*> free;
        for (auto& slot : p.gpus) {
          if (slot.instance == i && slot.models.empty()) free.push_back(&slot);
        }
        if (static_cast<int>(free.size()) >= need) {
          for (int k = 0; k < need; ++k) {
            free[k]->used_bytes = m->bytes / need;
            free[k]->models.push_back(m->name + " (" + decimal::whole(k + 1) + "/" + decimal::whole(need) + ")");
          }
          placed = true;
        }
      }
    }
    if (!placed) p.unplaced.push_back(m->name);
  }
  p.fits = p.unplaced.empty();
  return p;
}

}  // namespace gpufleet
