#include "fleet/plan.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "pricing/prices.hpp"
#include "support/text.hpp"

namespace gpufleet {
namespace {

using text::round_to;

bool same_accelerator(const InstanceType& a, const InstanceType& b) {
  if (a.accelerator_kind != b.accelerator_kind) return false;
  if (a.accelerator_kind == "cpu") return b.memory_per_gpu_bytes >= a.memory_per_gpu_bytes;
  if (b.memory_per_gpu_bytes + 1 < a.memory_per_gpu_bytes) return false;
  if (!a.gpu_model.empty() || !b.gpu_model.empty()) return a.gpu_model == b.gpu_model;
  return a.gpu_type == b.gpu_type;
}

// How much of a's host b has: the smaller of its vCPU and RAM ratios (1 = at least as much).
double host_share(const InstanceType& a, const InstanceType& b) {
  double share = a.vcpus > 0 ? std::min(1.0, b.vcpus / a.vcpus) : 1.0;
  if (a.ram_gib && b.ram_gib && *a.ram_gib > 0) share = std::min(share, *b.ram_gib / *a.ram_gib);
  return share;
}


}  // namespace

std::optional<double> monthly_usd(const Catalog& catalog, const InstanceType& it, int count,
                              const Billing& billing) {
  Placement p;
  p.instance = &it;
  p.instance_count = count;
  p.gpus = it.gpus * count;
  return cost_of(catalog, p, billing).usd_per_month;
}

std::vector<Equivalent> equivalents(const Catalog& catalog, const InstanceType& instance) {
  std::map<std::string, const InstanceType*> best;
  for (const InstanceType& it : catalog.instances) {
    if (!same_accelerator(instance, it) || it.gpus + 1e-9 < instance.gpus) continue;
    if (!priced_on_demand(it)) continue;
    const InstanceType*& slot = best[it.provider];
    if (!slot) {
      slot = &it;
      continue;
    }
    // The fewest accelerators (no GPUs bought for their host), then the fuller host (up to all of
    // the original's), then the lower price.
    if (it.gpus > slot->gpus + 1e-9) continue;
    const double mine = host_share(instance, it), theirs = host_share(instance, *slot);
    if (it.gpus + 1e-9 < slot->gpus || mine > theirs + 1e-9 ||
        (mine > theirs - 1e-9 && *it.on_demand_usd_per_hour < *slot->on_demand_usd_per_hour))
      slot = &it;
  }
  std::vector<Equivalent> out;
  for (const auto& [_, it] : best) {
    Equivalent e{it, {}};
    if (it->vcpus + 1e-9 < instance.vcpus)
      e.short_of.push_back("vCPUs " + text::short_number(it->vcpus) + " of " + text::short_number(instance.vcpus));
    if (instance.ram_gib && it->ram_gib && *it->ram_gib + 1e-9 < *instance.ram_gib)
      e.short_of.push_back("RAM " + text::short_number(*it->ram_gib) + " of " + text::short_number(*instance.ram_gib) + " GiB");
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace gpufleet
