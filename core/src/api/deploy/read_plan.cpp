// A fleet plan as deploy's source (docs/deploy.md): each workload of each environment is a node
// group of its instance type, count, hours and way to pay. A plan names no model, so only the
// infrastructure targets apply to its workloads.

#include <algorithm>
#include <cctype>
#include <cmath>

#include "api/deploy/read_answer.hpp"
#include "support/decimal.hpp"
#include "support/text.hpp"

namespace gpufleet::detail::deploy {
namespace {

// "Production inference", "Real-time inference" -> "production-inference-real-time-inference":
// a Kubernetes and Terraform name, unique within the plan since environments and workloads are.
std::string site_name(const std::string& environment, const std::string& workload) {
  std::string name;
  for (char c : environment + "-" + workload) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c));
    if (keep)
      name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!name.empty() && name.back() != '-')
      name += '-';
  }
  if (name.size() > 50) name.resize(50);
  while (!name.empty() && name.back() == '-') name.pop_back();
  return name.empty() ? "workload" : name;
}

// On-demand base and spot above it from the workload's way to pay; a mixed workload's spot share
// of its count rounded to whole instances.
void plan_pricing(const Json& asked, const Json& cost, const std::string& where, Site& s) {
  const std::string pricing = text_at(cost, "pricing");
  const double count = s.instances.value;
  s.pricing = pricing == "spot" || pricing == "mixed" ? pricing : "on_demand";
  if (s.pricing == "on_demand") {
    s.on_demand_base = {count,
                        "every instance on demand (" + where + ".cost.pricing " + pricing + ")"};
    s.on_demand_above_base_pct = {100, "on demand (" + pricing + ")"};
  } else if (s.pricing == "spot") {
    s.on_demand_base = {0, "no on-demand base: all spot (" + where + ".cost.pricing spot)"};
    s.on_demand_above_base_pct = {0, "spot (" + where + ".cost.pricing spot)"};
  } else {
    const double share = asked.contains("spot_share") ? number_at(asked, "spot_share") : 0.5;
    const double spot = std::round(count * share);
    s.on_demand_base = {count - spot, "plan workload count " + text::short_number(count) +
                                          " less spot_share " + text::short_number(share) +
                                          " of it (" + text::short_number(spot) +
                                          ", rounded): the instances on demand"};
    s.on_demand_above_base_pct = {0, "spot above the on-demand base (pricing mixed)"};
  }
  s.on_demand_base_replicas = s.on_demand_base;
}

Site workload_site(const Catalog& catalog, const std::string& plan, const Json& env,
                   const Json& row, const Json& asked, const std::string& where) {
  Site s;
  s.role = "plan";
  s.instance = catalog.instance(text_at(row, "instance"));
  if (!s.instance) return s;
  s.region = text_at(row, "region");
  s.name = site_name(text_at(env, "name"), text_at(row, "name"));
  s.plan_workload = "workload \"" + text_at(row, "name") + "\" of environment \"" +
                    text_at(env, "name") + "\" of plan \"" + plan + "\"";
  s.gpus_per_instance = {s.instance->gpus,
                         "gpu_instances.json: " + s.instance->name + "'s GPUs per instance"};
  s.instances = {number_at(row, "count"), where + ".count"};
  s.min_instances = s.max_instances = s.mean_instances = s.replicas = s.instances;
  s.instances_per_replica = {1, "a plan workload counts instances"};
  s.gpus_per_replica = s.gpus_per_instance;
  const Json& cost = member(row, "cost");
  s.hours_per_month = {number_at(cost, "monthly_hours"),
                       where + ".cost.monthly_hours (" + text_at(cost, "schedule") + ")"};
  s.usd_per_month = {number_at(cost, "usd_per_month"), where + ".cost.usd_per_month"};
  plan_pricing(asked, cost, where, s);
  return s;
}

}  // namespace

std::vector<Site> read_plan(const Catalog& catalog, const Json& from, const Json& result) {
  const Json& envs = member(result, "environments");
  const Json& asked = member(member(from, "plan"), "environments");
  static const Json kNone = Json::object();
  std::vector<Site> sites;
  for (std::size_t i = 0; i < envs.size(); ++i) {
    const Json& rows = member(envs[i], "workloads");
    const Json& asked_rows = i < asked.size() ? member(asked[i], "workloads") : kNone;
    for (std::size_t j = 0; j < rows.size(); ++j)
      sites.push_back(workload_site(
          catalog, text_at(result, "name"), envs[i], rows[j],
          asked_rows.is_array() && j < asked_rows.size() ? asked_rows[j] : kNone,
          "plan result.environments/" + decimal::whole(i) + "/workloads/" + decimal::whole(j)));
  }
  return sites;
}

}  // namespace gpufleet::detail::deploy
