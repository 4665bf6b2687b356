// "plan": a fleet plan's monthly cost by environment and provider (seed 001).

#include "api/questions/questions.hpp"

#include <map>
#include <utility>

#include "api/answers.hpp"
#include "catalog/fields.hpp"
#include "fleet/plan.hpp"
#include "support/decimal.hpp"

namespace gpufleet::detail {
namespace {

using report::round_to;

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
        const auto alt_monthly = monthly_usd(catalog, *alt, w.placement.instance_count, w.billing);
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

}  // namespace

Json answer_plan(const Catalog& catalog, Session& s, const Json& req) {
  Reader& r = s.reader();
  const Json* doc = r.object(req, "plan", "", true);
  if (!doc) return nullptr;
  if (!fields::check_fields(r, *doc, "/plan", "plan")) return nullptr;
  Plan plan;
  plan.name = r.string(*doc, "name", "/plan", false).value_or("fleet plan");
  const Json* envs = r.member(*doc, "environments", "/plan", true);
  if (!envs) return nullptr;
  if (!envs->is_array() || envs->empty() || envs->size() > 100) {
    r.fail("wrong_type", "/plan/environments",
           "expected an array of 1 to 100 environments, got " + Reader::describe(*envs));
    return nullptr;
  }
  constexpr std::size_t kMaxPlanWorkloads = 1000;
  std::size_t rows = 0;
  for (std::size_t i = 0; i < envs->size(); ++i) {
    const std::string ep = "/plan/environments/" + decimal::whole(i);
    const Json& e = (*envs)[i];
    if (!r.expect_object(e, ep) || !fields::check_fields(r, e, ep, "plan_environment")) return nullptr;
    PlanEnvironment env;
    env.name = r.string(e, "name", ep, true).value_or("");
    const Json* list = r.member(e, "workloads", ep, true);
    if (!list) return nullptr;
    if (!list->is_array() || list->empty() || list->size() > 100) {
      r.fail("wrong_type", ep + "/workloads", "expected an array of 1 to 100 workloads, got " + Reader::describe(*list));
      return nullptr;
    }
    for (std::size_t j = 0; j < list->size(); ++j) {
      const std::string wp = ep + "/workloads/" + decimal::whole(j);
      if (++rows > kMaxPlanWorkloads) {  // docs/api.md, "Limits"
        r.fail("too_large", wp, "expected at most " + decimal::whole(kMaxPlanWorkloads) + " workloads in a plan");
        return nullptr;
      }
      const Json& w = (*list)[j];
      if (!r.expect_object(w, wp) || !fields::check_fields(r, w, wp, "plan_workload")) return nullptr;
      PlanWorkload pw;
      pw.name = r.string(w, "name", wp, true).value_or("");
      auto name = r.string(w, "instance", wp, true);
      auto count = r.number(w, "count", wp, false, {1, 10000});
      auto billed = s.billing(w, wp);
      if (!name || !billed) return nullptr;
      auto p = place(catalog, *name, 1);
      if (!p) {
        r.fail("unknown_name", wp + "/instance",
               "expected an instance type or family of gpu_instances.json, got \"" + *name + "\"");
        return nullptr;
      }
      p->instance_count = static_cast<int>(std::ceil(count.value_or(1)));
      p->gpus = p->instance->gpus * p->instance_count;
      pw.placement = *p;
      pw.billing = *billed;
      env.workloads.push_back(pw);
    }
    plan.environments.push_back(env);
  }
  if (!r.ok()) return nullptr;
  return plan_report(catalog, plan);
}

}  // namespace gpufleet::detail
