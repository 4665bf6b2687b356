#pragma once
// The road's parts that its files share (devices, memory, speed, the sizing loop): not for
// questions, which ask through road.hpp.

#include <cstddef>
#include <optional>
#include <string>

#include "fleet/road.hpp"
#include "support/text.hpp"

namespace gpufleet::road_parts {

// Room for the setups one workload's sweep usually asks about (a recommendation over every region:
// about 40 GPU x layout setups): the memos seldom move what they hold as they grow.
constexpr std::size_t kSetupsKept = 64;

inline std::string num(double x) { return text::short_number(x); }
inline std::string gb(double bytes) { return num(text::round_to(bytes / 1e9, 2)) + " GB"; }

void refuse(Deployment& d, std::string why, std::string way_out);

// Devices and links (road_devices.cpp).
bool neuron(const InstanceType& it);
bool spans_instances(const InstanceType& it);
std::string pipeline_refusal(const InstanceType& it);
TensorLink link_figures(const InstanceType& it, double tp);
std::string served_model_type_refusal(const Catalog& catalog, const Workload& w,
                                      const InstanceType& it);

// Memory (road_memory.cpp).
// The whole model in its format (no parallel split) and its KV cache per token: what the
// throughput model splits over its ranks.
struct WholeModel {
  double weight_bytes = 0;
  double kv_bytes_per_token = 0;
};
std::optional<WholeModel> whole_model(const Catalog& catalog, const Workload& w,
                                      const std::string& compute);
const MemoryAnswer& memory_of(const Catalog& catalog, const Workload& w, const Deployment& d,
                              const std::string& compute, double batch);
bool size_memory(const Catalog& catalog, const Workload& w, const std::string& compute,
                 Deployment& d);

// Speed (road_speed.cpp).
void size_serving(const Catalog& catalog, const Workload& w, const Billing& billing,
                  const WholeModel& whole, const std::string& compute,
                  std::optional<double> fixed_copies, Deployment& d);
void size_training(const Catalog& catalog, const Workload& w, const WholeModel& whole,
                   const std::string& compute, Deployment& d);

}  // namespace gpufleet::road_parts
