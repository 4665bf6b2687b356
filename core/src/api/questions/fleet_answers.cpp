#include "api/questions/fleet_answers.hpp"

#include <utility>

#include "api/answers.hpp"
#include "fleet/decide.hpp"
#include "fleet/placement.hpp"
#include "fleet/plan.hpp"
#include "support/decimal.hpp"

#include <map>

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
    if (!r.expect_object(e, ep)) return nullptr;
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
      if (!r.expect_object(w, wp)) return nullptr;
      static const std::vector<std::string> kFields{"name", "instance", "count", "hours_per_month", "schedule",
                                                    "use_spot", "pricing", "spot_share", "notes"};
      for (const auto& [key, _] : w.items()) {
        if (std::find(kFields.begin(), kFields.end(), key) == kFields.end()) {
          r.fail("unknown_field", Reader::child(wp, key), "a plan workload takes " + names_of(kFields) + "; got \"" + key + "\"");
          return nullptr;
        }
      }
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

namespace {

Json packing_json(const Catalog& catalog, const Packing& packing, const Billing& billing) {
  Json gpus = Json::array();
  for (const auto& slot : packing.gpus) {
    gpus.push_back({{"instance", slot.instance},
                    {"gpu", slot.gpu},
                    {"used_gb", report::gb(slot.used_bytes)},
                    {"capacity_gb", report::gb(packing.instance->memory_per_gpu_bytes)},
                    {"models", slot.models}});
  }
  Placement p;
  p.instance = packing.instance;
  p.instance_count = packing.instance_count;
  p.gpus = packing.instance->gpus * packing.instance_count;
  Json j;
  j["instance"] = packing.instance->name;
  j["family"] = packing.instance->family_key;
  j["provider"] = packing.instance->provider;
  j["region"] = packing.instance->region;
  j["gpu_type"] = packing.instance->gpu_type;
  j["instance_count"] = packing.instance_count;
  j["fits"] = packing.fits;
  j["gpus"] = std::move(gpus);
  j["unplaced"] = packing.unplaced;
  j["cost"] = report::cost(cost_of(catalog, p, billing));
  return j;
}

}  // namespace

Json answer_placement(const Catalog& catalog, Session& s, const Json& req) {
  Reader& r = s.reader();
  const Json* list = r.member(req, "models", "", true);
  if (!list) return nullptr;
  if (!list->is_array() || list->empty() || list->size() > 64) {
    r.fail("wrong_type", "/models", "expected an array of 1 to 64 models, got " + Reader::describe(*list));
    return nullptr;
  }
  std::vector<ModelLoad> models;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string mp = "/models/" + decimal::whole(i);
    const Json& m = (*list)[i];
    if (!r.expect_object(m, mp)) return nullptr;
    ModelLoad load;
    load.name = r.string(m, "name", mp, true).value_or("");
    if (m.contains("memory_gb")) {
      auto gb = r.number(m, "memory_gb", mp, true, {0, 100000, true});
      if (!gb) return nullptr;
      load.bytes = *gb * 1e9;
      load.basis = "given: " + report::short_number(*gb) + " GB";
    } else {
      for (const auto& [key, _] : m.items()) {
        static const std::vector<std::string> kItem{"name", "model", "workload", "precision", "weight_format", "kv_cache_format", "engine", "demand", "memory_method"};
        if (std::find(kItem.begin(), kItem.end(), key) == kItem.end())
          r.fail("unknown_field", Reader::child(mp, key), "a placement model takes memory_gb or " + names_of(kItem) + "; got \"" + key + "\"");
      }
      auto w = s.road_workload(m, mp, false);
      if (!w) return nullptr;
      if (w->seed_memory) {
        const MemoryRequirement need = seed_requirement(catalog, *w);
        load.bytes = need.total_bytes;
        load.basis = w->model.label + " at " + w->weight_format + " (rule of thumb): " + report::short_number(need.weights_bytes / 1e9) +
                     " GB x " + report::short_number(need.multiplier) + " = " + report::short_number(report::round_to(need.total_bytes / 1e9, 2)) + " GB";
      } else {
        // What one copy holds on one GPU serving one sequence of the demand's shape (an engine
        // that grows its cache with the batch; vLLM would take its whole share of the GPU).
        if (w->engine.empty()) w->engine = w->serving() ? "transformers" : "";
        MemoryQuestion q = memory_question(*w, Layout{}, 1, 0, w->weight_format == "fp32" ? "fp32" : "bf16");
        q.gpu_memory_bytes.reset();
        const MemoryAnswer a = estimate_memory(catalog.memory, q);
        if (!a.estimate) {
          r.fail("cannot_answer", mp + "/model", a.faults.empty() ? "the memory model cannot size it" : a.faults.front().second);
          return nullptr;
        }
        load.bytes = a.estimate->total_bytes;
        load.basis = w->model.label + " " + to_string(w->task) + " at " + w->weight_format + ", one " +
                     report::short_number(w->demand.input_tokens + w->demand.output_tokens) + "-token sequence (" + w->engine_key() +
                     "): " + report::short_number(report::round_to(load.bytes / 1e9, 2)) + " GB, architecture-aware memory model";
      }
    }
    if (!r.ok()) return nullptr;
    if (load.name.empty()) {
      r.fail("out_of_range", mp + "/name", "expected a non-empty name for the model");
      return nullptr;
    }
    models.push_back(load);
  }
  auto billed = s.billing(req, "");
  std::vector<std::string> providers = s.providers(req, "");
  auto max_instances = r.number(req, "max_instances", "", false, {1, 16});
  std::optional<Placement> fixed;
  if (req.contains("instance")) fixed = s.placement(req, "");
  if (!billed || !r.ok()) return nullptr;

  Json result;
  Json loads = Json::array();
  for (const auto& m : models) loads.push_back({{"name", m.name}, {"memory_gb", report::gb(m.bytes)}, {"basis", m.basis}});
  result["models"] = std::move(loads);
  if (fixed) {
    result["on_instance"] = packing_json(catalog, pack(*fixed->instance, fixed->instance_count, models), *billed);
  }
  // Every priced instance type, on one instance and split over up to max_instances of it.
  struct Option {
    Packing packing;
    double usd_per_month;
  };
  std::optional<Option> single, split;
  const int most = static_cast<int>(max_instances.value_or(4));
  for (const InstanceType& it : catalog.instances) {
    if (!it.on_demand_usd_per_hour || !it.price_flags.empty() || it.accelerator_kind == "cpu") continue;
    if (!providers.empty() && std::find(providers.begin(), providers.end(), it.provider) == providers.end()) continue;
    for (int k = 1; k <= most; ++k) {
      Packing packing = pack(it, k, models);
      if (!packing.fits) continue;
      Placement p{&it, it.gpus * k, k, it.name, false};
      const auto monthly = cost_of(catalog, p, *billed).usd_per_month;
      if (!monthly) break;
      if (k == 1 && (!single || *monthly < single->usd_per_month)) single = Option{packing, *monthly};
      if (!split || *monthly < split->usd_per_month) split = Option{packing, *monthly};
      break;  // more instances of the same type only cost more
    }
  }
  result["cheapest_single_instance"] = single ? packing_json(catalog, single->packing, *billed) : Json(nullptr);
  result["cheapest_split"] = split ? packing_json(catalog, split->packing, *billed) : Json(nullptr);
  result["basis"] = "each model is placed whole on GPUs by memory, largest first, first fit; a model "
                    "larger than one GPU takes enough whole GPUs of one instance";
  return result;
}

Json answer_decide(const Catalog& catalog, Session& s, const Json& req) {
  Reader& r = s.reader();
  DecisionInput in;
  auto w = s.road_workload(req, "", true);
  auto billed = s.billing(req, "");
  in.providers = s.providers(req, "");
  auto pick = [&](const char* key, const std::vector<std::string>& allowed, std::string& out) {
    if (auto text = r.string(req, key, "", false)) {
      const std::string v = lower(*text);
      if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
        r.fail("unknown_name", std::string("/") + key, "expected one of " + names_of(allowed) + ", got \"" + *text + "\"");
      } else {
        out = v;
      }
    }
  };
  pick("framework", {"pytorch", "tensorflow", "jax", "other"}, in.framework);
  pick("model_kind", {"transformer", "cnn", "mixed", "simple"}, in.model_kind);
  pick("goal", {"cost", "performance", "balanced", "flexibility", "experimentation"}, in.goal);
  in.latency_ms = r.number(req, "latency_ms", "", false, {0, 3.6e6, true});
  in.edge = r.boolean(req, "edge", "", false).value_or(false);
  in.batch = r.boolean(req, "batch", "", false).value_or(false);
  if (!w || !billed || !r.ok()) return nullptr;
  in.w = std::move(*w);
  in.billing = *billed;
  const Decision d = decide(catalog, in);
  Json options = Json::array();
  for (const DecisionOption& o : d.options) {
    Json option;
    option["kind"] = o.kind;
    option["name"] = o.name;
    option["suitable"] = o.suitable;
    option["migration_complexity"] = o.migration_complexity;
    option["risk_level"] = o.risk_level;
    option["cheapest_instance"] = o.cheapest ? report::candidate(*o.cheapest) : Json(nullptr);
    option["reasons"] = o.reasons;
    option["recommended"] = o.recommended;
    options.push_back(std::move(option));
  }
  Json out;
  out["decision_tree"] = d.tree;
  out["branch"] = d.branch;
  out["recommended_kind"] = d.kind;
  out["recommended_families"] = d.families;
  out["request"] = report::workload(in.w);
  out["options"] = std::move(options);
  if (!d.prices_disagree.empty()) out["prices_disagree"] = d.prices_disagree;
  out["source"] = "the Compute Resource Selection guide's decision trees for training and inference; prices and fit computed for this workload";
  return out;
}

}  // namespace gpufleet::detail
