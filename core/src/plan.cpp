#include "gpufleet/plan.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "report.hpp"

namespace gpufleet {
namespace {

using report::round_to;

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

std::optional<double> monthly(const Catalog& catalog, const InstanceType& it, int count,
                              const Billing& billing) {
  Placement p;
  p.instance = &it;
  p.instance_count = count;
  p.gpus = it.gpus * count;
  return cost_of(catalog, p, billing).usd_per_month;
}

}  // namespace

std::vector<Equivalent> equivalents(const Catalog& catalog, const InstanceType& instance) {
  std::map<std::string, const InstanceType*> best;
  for (const InstanceType& it : catalog.instances) {
    if (!same_accelerator(instance, it) || it.gpus + 1e-9 < instance.gpus) continue;
    if (!it.on_demand_usd_per_hour || !it.price_flags.empty()) continue;
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
      e.short_of.push_back("vCPUs " + report::short_number(it->vcpus) + " of " + report::short_number(instance.vcpus));
    if (instance.ram_gib && it->ram_gib && *it->ram_gib + 1e-9 < *instance.ram_gib)
      e.short_of.push_back("RAM " + report::short_number(*it->ram_gib) + " of " + report::short_number(*instance.ram_gib) + " GiB");
    out.push_back(std::move(e));
  }
  return out;
}

Json plan_report(const Catalog& catalog, const Plan& plan) {
  Json environments = Json::array();
  double total = 0;
  bool total_known = true;
  std::map<std::string, double> by_provider;
  std::map<std::string, bool> provider_complete;
  for (const auto& [key, _] : catalog.providers) provider_complete[key] = true;
  for (const auto& f : catalog.families) provider_complete.emplace(f.provider, true);
  for (auto& [key, value] : provider_complete) by_provider[key] = 0;
  double cheapest_total = 0;
  Json cheapest_choices = Json::array();

  for (const PlanEnvironment& env : plan.environments) {
    Json workloads = Json::array();
    double env_total = 0;
    bool env_known = true;
    for (const PlanWorkload& w : env.workloads) {
      const InstanceType& it = *w.placement.instance;
      const Cost c = cost_of(catalog, w.placement, w.billing);
      Json row;
      row["name"] = w.name;
      row["instance"] = it.name;
      row["provider"] = it.provider;
      row["region"] = it.region;
      row["count"] = w.placement.instance_count;
      row["cost"] = report::cost(c);
      if (c.usd_per_month) {
        env_total += *c.usd_per_month;
      } else {
        env_known = false;
      }
      // The same workload on every provider's equivalent instance.
      Json alternatives = Json::array();
      std::optional<double> cheapest = c.usd_per_month;
      Json cheapest_choice = {{"workload", w.name}, {"environment", env.name}, {"instance", it.name},
                              {"provider", it.provider}, {"usd_per_month", report::report_optional(c.usd_per_month, 2)}};
      std::map<std::string, bool> seen;
      for (const Equivalent& eq : equivalents(catalog, it)) {
        const InstanceType* alt = eq.instance;
        const auto alt_monthly = monthly(catalog, *alt, w.placement.instance_count, w.billing);
        seen[alt->provider] = true;
        alternatives.push_back({{"provider", alt->provider},
                                {"region", alt->region},
                                {"instance", alt->name},
                                {"usd_per_month", report::report_optional(alt_monthly, 2)},
                                {"source", alt->source},
                                {"source_date", alt->source_date}});
        if (!eq.short_of.empty()) alternatives.back()["host_short_of"] = eq.short_of;
        if (alt_monthly) {
          by_provider[alt->provider] += *alt_monthly;
          if (!cheapest || *alt_monthly < *cheapest) {
            cheapest = alt_monthly;
            cheapest_choice = {{"workload", w.name}, {"environment", env.name}, {"instance", alt->name},
                               {"provider", alt->provider}, {"usd_per_month", round_to(*alt_monthly, 2)}};
          }
        }
      }
      for (auto& [provider, complete] : provider_complete) {
        if (!seen.count(provider)) complete = false;
      }
      row["alternatives"] = std::move(alternatives);
      workloads.push_back(std::move(row));
      if (cheapest) cheapest_total += *cheapest;
      cheapest_choices.push_back(cheapest_choice);
    }
    total += env_total;
    total_known = total_known && env_known;
    environments.push_back({{"name", env.name},
                            {"workloads", workloads},
                            {"usd_per_month", env_known ? Json(round_to(env_total, 2)) : Json(nullptr)}});
  }
  Json providers = Json::object();
  for (const auto& [provider, sum] : by_provider) {
    providers[provider] = provider_complete[provider]
                              ? Json(round_to(sum, 2))
                              : Json(nullptr);  // some workload has no equivalent there
  }
  Json out;
  out["name"] = plan.name;
  out["environments"] = std::move(environments);
  out["total_usd_per_month"] = total_known ? Json(round_to(total, 2)) : Json(nullptr);
  out["by_provider_usd_per_month"] = std::move(providers);
  out["by_provider_note"] =
      "the whole plan on one provider's equivalent instances (same accelerator and its memory, at least as "
      "many per instance, at least the vCPUs and RAM where the provider has such a host, else its nearest, "
      "host_short_of says what it lacks; cheapest on-demand base); null where some workload has no equivalent";
  out["cheapest_mix"] = {{"usd_per_month", round_to(cheapest_total, 2)}, {"choices", cheapest_choices}};
  if (total_known && total > 0) {
    out["cheapest_mix"]["savings_pct"] = round_to(100 * (1 - cheapest_total / total), 1);
  }
  return out;
}

}  // namespace gpufleet
