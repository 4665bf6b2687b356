#include "gpufleet/analyzer.hpp"

#include <algorithm>
#include <cmath>

#include "gpufleet/cost.hpp"
#include "gpufleet/decide.hpp"
#include "gpufleet/memory.hpp"
#include "gpufleet/performance.hpp"
#include "gpufleet/placement.hpp"
#include "gpufleet/plan.hpp"
#include "gpufleet/recommend.hpp"
#include "guarded.hpp"
#include "json_guard.hpp"
#include "json_reader.hpp"
#include "report.hpp"

namespace gpufleet {
namespace {

using detail::lower;
using detail::Range;
using detail::Reader;
using report::round_to;

constexpr const char* kRequest = "request";
constexpr double kMaxGpus = 4096;
constexpr double kMaxHoursPerMonth = 744;  // 31 days x 24 h

// A failed request: the errors collected while reading it.
struct Invalid {
  Errors errors;
};

std::string names_of(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

class Session {
 public:
  Session(const Catalog& catalog, const Json& request, Errors& errors)
      : catalog_(catalog), request_(request), r_(kRequest, errors) {}

  std::optional<ModelSpec> model(const Json& obj, const std::string& path) {
    const Json* m = r_.object(obj, "model", path, true);
    if (!m) return std::nullopt;
    const std::string mp = path + "/model";
    const bool has_size = m->contains("size"), has_params = m->contains("params_b");
    if (has_size == has_params) {
      r_.fail(has_size ? "wrong_type" : "missing_field", mp,
              "expected exactly one of \"size\" (a model size class) or \"params_b\" (billions of "
              "parameters)");
      return std::nullopt;
    }
    ModelSpec spec;
    if (has_params) {
      auto b = r_.number(*m, "params_b", mp, true, {0, 100000, true});
      if (!b) return std::nullopt;
      spec.parameters = *b * 1e9;
      spec.label = report::short_number(*b) + "B parameters";
      return spec;
    }
    auto key = r_.string(*m, "size", mp, true);
    if (!key) return std::nullopt;
    const ModelSize* size = catalog_.model_size(*key);
    if (!size) {
      std::vector<std::string> keys;
      for (const auto& s : catalog_.model_sizes) keys.push_back(s.key);
      r_.fail("unknown_name", mp + "/size",
              "expected one of " + names_of(keys) + ", got \"" + *key + "\"");
      return std::nullopt;
    }
    spec.size = size->key;
    spec.parameters = size->parameter_count_billion * 1e9;
    spec.training_overhead_multiplier = size->memory_overhead_multiplier;
    spec.label = size->key + " (" + report::short_number(size->parameter_count_billion) + "B)";
    return spec;
  }

  std::optional<WorkloadType> workload(const Json& obj, const std::string& path, bool required) {
    auto text = r_.string(obj, "workload", path, required);
    if (!text) return required ? std::nullopt : std::optional(WorkloadType::kInference);
    auto type = parse_workload_type(*text);
    if (!type) {
      r_.fail("unknown_name", path + "/workload",
              "expected one of inference, fine_tuning, training, got \"" + *text + "\"");
    }
    return type;
  }

  const Precision* precision(const Json& obj, const std::string& path, bool required) {
    auto text = r_.string(obj, "precision", path, required);
    if (!text) return required ? nullptr : catalog_.precision("fp16");
    const Precision* p = catalog_.precision(*text);
    if (!p) {
      std::vector<std::string> keys;
      for (const auto& x : catalog_.precisions) keys.push_back(x.key);
      r_.fail("unknown_name", path + "/precision",
              "expected one of " + names_of(keys) + ", got \"" + *text + "\"");
    }
    return p;
  }

  std::optional<Placement> placement(const Json& obj, const std::string& path) {
    auto name = r_.string(obj, "instance", path, true);
    auto gpus = r_.number(obj, "gpus", path, false, {0, kMaxGpus, true});
    if (!name) return std::nullopt;
    auto p = place(catalog_, *name, gpus.value_or(1));
    if (!p) {
      r_.fail("unknown_name", path + "/instance",
              "expected an instance family (e.g. P5) or instance type (e.g. p5.48xlarge) of "
              "gpu_instances.json, got \"" + *name + "\"");
    }
    return p;
  }

  // Hours (hours_per_month or a schedule) and the way they are paid (use_spot or pricing).
  std::optional<Billing> billing(const Json& obj, const std::string& path) {
    Billing b;
    const bool has_hours = obj.contains("hours_per_month"), has_schedule = obj.contains("schedule");
    if (has_hours && has_schedule) {
      r_.fail("wrong_type", path + "/schedule", "give hours_per_month or schedule, not both");
      return std::nullopt;
    }
    if (has_hours) {
      auto hours = r_.number(obj, "hours_per_month", path, true, {0, kMaxHoursPerMonth, true});
      if (!hours) return std::nullopt;
      b.hours_per_month = *hours;
      b.schedule_basis = report::short_number(*hours) + " h/month";
    } else if (has_schedule) {
      if (!schedule(obj, path, b)) return std::nullopt;
    }
    const bool has_spot = obj.contains("use_spot"), has_pricing = obj.contains("pricing");
    if (has_spot && has_pricing) {
      r_.fail("wrong_type", path + "/pricing", "give use_spot or pricing, not both");
      return std::nullopt;
    }
    if (has_spot) {
      auto spot = r_.boolean(obj, "use_spot", path, true);
      if (!spot) return std::nullopt;
      b.mode = *spot ? PaymentMode::kSpot : PaymentMode::kOnDemand;
    } else if (has_pricing) {
      auto text = r_.string(obj, "pricing", path, true);
      if (!text) return std::nullopt;
      auto mode = parse_payment_mode(lower(*text));
      if (!mode) {
        r_.fail("unknown_name", path + "/pricing",
                "expected one of on_demand, spot, mixed, reserved_1y, reserved_3y, got \"" + *text + "\"");
        return std::nullopt;
      }
      b.mode = *mode;
    }
    if (obj.contains("spot_share")) {
      if (b.mode != PaymentMode::kMixed) {
        r_.fail("wrong_type", path + "/spot_share", "spot_share only applies to \"pricing\": \"mixed\"");
        return std::nullopt;
      }
      auto share = r_.number(obj, "spot_share", path, true, {0, 1});
      if (!share) return std::nullopt;
      b.spot_share = *share;
    } else if (b.mode == PaymentMode::kMixed) {
      b.spot_share = 0.5;  // seed 003: "with 50% spot instances"
    }
    return b;
  }

  bool schedule(const Json& obj, const std::string& path, Billing& b) {
    const std::string sp = path + "/schedule";
    const Json* s = r_.object(obj, "schedule", path, true);
    if (!s) return false;
    static const std::vector<std::string> kForms{"hours_per_month", "hours_per_day", "hours_per_week",
                                                 "always_on", "off_hours_per_day"};
    static const std::vector<std::string> kAllowed{"hours_per_month", "hours_per_day", "hours_per_week",
                                                   "always_on", "off_hours_per_day", "days_per_month",
                                                   "weeks_per_month"};
    int forms = 0;
    for (const auto& [key, _] : s->items()) {
      if (std::find(kAllowed.begin(), kAllowed.end(), key) == kAllowed.end()) {
        r_.fail("unknown_field", Reader::child(sp, key), "a schedule takes " + names_of(kAllowed) +
                                                             "; got \"" + key + "\"");
        return false;
      }
      forms += std::find(kForms.begin(), kForms.end(), key) != kForms.end();
    }
    if (forms != 1 && !(forms == 2 && s->contains("always_on") && s->contains("hours_per_month"))) {
      r_.fail("wrong_type", sp, "expected exactly one of " + names_of(kForms));
      return false;
    }
    const double days = r_.number(*s, "days_per_month", sp, false, {0, 31, true})
                            .value_or(kAlwaysOnHoursPerMonth / 24);
    const std::string days_text = report::short_number(report::round_to(days, 1)) + " days";
    if (s->contains("always_on")) {
      auto on = r_.boolean(*s, "always_on", sp, true);
      if (!on) return false;
      if (!*on) {
        r_.fail("out_of_range", sp + "/always_on", "expected true (use another form for part-time use)");
        return false;
      }
      auto hours = r_.number(*s, "hours_per_month", sp, false, {672, kMaxHoursPerMonth});
      b.hours_per_month = hours.value_or(kAlwaysOnHoursPerMonth);
      b.schedule_basis = hours ? "24/7 at " + report::short_number(*hours) + " h/month"
                               : "24/7: 730 h/month (8,760 h / 12)";
    } else if (s->contains("hours_per_month")) {
      auto hours = r_.number(*s, "hours_per_month", sp, true, {0, kMaxHoursPerMonth, true});
      if (!hours) return false;
      b.hours_per_month = *hours;
      b.schedule_basis = report::short_number(*hours) + " h/month";
    } else if (s->contains("hours_per_day")) {
      auto per_day = r_.number(*s, "hours_per_day", sp, true, {0, 24, true});
      if (!per_day) return false;
      b.hours_per_month = *per_day * days;
      b.schedule_basis = report::short_number(*per_day) + " h/day x " + days_text + " = " +
                         report::short_number(report::round_to(b.hours_per_month, 1)) + " h/month";
    } else if (s->contains("hours_per_week")) {
      auto per_week = r_.number(*s, "hours_per_week", sp, true, {0, 168, true});
      const double weeks = r_.number(*s, "weeks_per_month", sp, false, {0, 31.0 / 7, true})
                               .value_or(kAlwaysOnHoursPerMonth / 168);
      if (!per_week) return false;
      b.hours_per_month = *per_week * weeks;
      b.schedule_basis = report::short_number(*per_week) + " h/week x " +
                         report::short_number(report::round_to(weeks, 2)) + " weeks = " +
                         report::short_number(report::round_to(b.hours_per_month, 1)) + " h/month";
    } else {
      auto off = r_.number(*s, "off_hours_per_day", sp, true, {0, 24});
      if (!off || *off >= 24) {
        if (off) r_.fail("out_of_range", sp + "/off_hours_per_day", "expected fewer than 24 hours off a day");
        return false;
      }
      b.hours_per_month = (24 - *off) * days;
      b.schedule_basis = "scale to zero " + report::short_number(*off) + " h/day: " +
                         report::short_number(24 - *off) + " h/day x " + days_text + " = " +
                         report::short_number(report::round_to(b.hours_per_month, 1)) + " h/month";
    }
    if (b.hours_per_month > kMaxHoursPerMonth) {
      r_.fail("out_of_range", sp, "the schedule gives " + report::short_number(b.hours_per_month) +
                                      " h/month; a month has at most 744 h");
      return false;
    }
    return true;
  }

  std::vector<std::string> providers(const Json& obj, const std::string& path) {
    std::vector<std::string> list = r_.strings(obj, "providers", path, false);
    for (std::size_t i = 0; i < list.size(); ++i) {
      list[i] = lower(list[i]);
      bool known = catalog_.providers.count(list[i]) > 0;
      for (const auto& f : catalog_.families) known = known || f.provider == list[i];
      if (!known) {
        r_.fail("unknown_name", path + "/providers/" + std::to_string(i),
                "expected a provider of the catalog (aws, gcp, azure), got \"" + list[i] + "\"");
      }
    }
    return list;
  }

  // Fields shared by fit, recommend and migrate.
  std::optional<Question> question(bool with_priority) {
    Question q;
    auto m = model(request_, "");
    auto w = workload(request_, "", true);
    q.precision = precision(request_, "", true);
    auto billed = billing(request_, "");
    q.providers = providers(request_, "");
    q.kinds = r_.strings(request_, "kinds", "", false);
    for (std::size_t i = 0; i < q.kinds.size(); ++i) {
      static const std::vector<std::string> kKinds{"gpu", "trainium", "inferentia", "cpu"};
      if (std::find(kKinds.begin(), kKinds.end(), q.kinds[i]) == kKinds.end()) {
        r_.fail("unknown_name", "/kinds/" + std::to_string(i), "expected one of " + names_of(kKinds) + ", got \"" + q.kinds[i] + "\"");
      }
    }
    if (with_priority) {
      if (auto text = r_.string(request_, "priority", "", false)) {
        if (auto p = parse_priority(*text)) {
          q.priority = *p;
        } else {
          r_.fail("unknown_name", "/priority",
                  "expected one of cost, performance, balanced, got \"" + *text + "\"");
        }
      }
    }
    if (!m || !w || !q.precision || !billed) return std::nullopt;
    q.billing = *billed;
    q.model = *m;
    q.workload = *w;
    return q;
  }

  Reader& reader() { return r_; }

 private:
  const Catalog& catalog_;
  const Json& request_;
  Reader r_;
};

Json ok(const Catalog& catalog, const std::string& question, Json result) {
  Json j;
  j["ok"] = true;
  j["question"] = question;
  Json info;
  // catalog_info is optional and user-edited: read only the strings that are there.
  for (const char* key : {"name", "version", "date"}) {
    auto it = catalog.info.is_object() ? catalog.info.find(key) : catalog.info.end();
    info[key] = catalog.info.is_object() && it != catalog.info.end() && it->is_string() ? it->get<std::string>() : "";
  }
  j["catalog"] = info;
  j["result"] = std::move(result);
  return j;
}

Json answer_precisions(const Catalog& catalog, Session& s, const Json& req) {
  auto model = s.model(req, "");
  if (!model) return nullptr;
  Json rows = Json::array();
  for (const Precision& p : catalog.precisions) {
    Json row;
    row["precision"] = p.key;
    row["name"] = p.name;
    row["bytes_per_parameter"] = p.bytes_per_parameter;
    row["weights_gb"] = report::gb(weights_bytes(model->parameters, p));
    row["weights_bytes"] = round_to(weights_bytes(model->parameters, p), 0);
    row["native_architectures"] = p.native_architectures;
    Json families = Json::array();
    for (const Family& f : catalog.families) {
      const InstanceType& sample = catalog.instances[f.instances.front()];
      // CPUs run every format in software: "native" speaks of accelerators only.
      if (sample.accelerator_kind != "cpu" && catalog.precision_native(p, sample)) families.push_back(f.key);
    }
    row["native_on_families"] = families;
    row["description"] = p.description;
    rows.push_back(row);
  }
  Json result;
  result["model"] = {{"label", model->label}, {"parameters_billion", round_to(model->parameters / 1e9, 3)}};
  result["precisions"] = rows;
  result["basis"] = "weights = parameters x bytes per parameter; GB = 1e9 bytes";
  return result;
}

Json answer_fit(const Catalog& catalog, Session& s, const Json& req) {
  auto q = s.question(false);
  auto p = s.placement(req, "");
  if (!q || !p) return nullptr;
  const MemoryRequirement need = memory_requirement(catalog, q->model, q->workload, *q->precision);
  Candidate c = evaluate(catalog, *q, *p, need);
  Json result;
  result["request"] = report::question(*q);
  result["placement"] = report::placement(*p);
  result["memory"] = report::memory(need);
  result["fit"] = report::fit(c.fit);
  result["status"] = c.fit.fits ? "FITS" : "CANNOT FIT MODEL";
  if (!catalog.precision_native(*q->precision, *p->instance)) {
    result["warning"] = q->precision->name + " is not native on " + p->instance->gpu_type;
  }
  if (!c.fit.fits) result["ways_out"] = report::ways_out(catalog, *q, ways_out(catalog, *q, *p));
  result["cost"] = report::cost(c.cost);
  return result;
}

Json answer_cost(const Catalog& catalog, Session& s, const Json& req) {
  auto p = s.placement(req, "");
  auto billed = s.billing(req, "");
  if (!p || !billed) return nullptr;
  Json result;
  result["placement"] = report::placement(*p);
  result["cost"] = report::cost(cost_of(catalog, *p, *billed));
  Billing spot = *billed;
  spot.mode = PaymentMode::kSpot;
  result["spot"] = report::cost(cost_of(catalog, *p, spot));
  result["pricing_note"] = "prices are per instance-hour; N GPUs are served by whole instances";
  return result;
}

Json answer_performance(const Catalog& catalog, Session& s, const Json& req) {
  auto w = s.workload(req, "", true);
  const Precision* precision = s.precision(req, "", false);
  const Json* list = s.reader().member(req, "instances", "", true);
  if (list && (!list->is_array() || list->empty())) {
    s.reader().fail("wrong_type", "/instances",
                    "expected a non-empty array of {\"instance\", \"gpus\"}, got " + Reader::describe(*list));
    return nullptr;
  }
  if (!list || !w || !precision) return nullptr;
  std::vector<Placement> placements;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string path = "/instances/" + std::to_string(i);
    if (!s.reader().expect_object((*list)[i], path)) return nullptr;
    auto p = s.placement((*list)[i], path);
    if (!p) return nullptr;
    placements.push_back(*p);
  }
  Json rows = Json::array();
  double reference = 0;
  for (const auto& p : placements) {
    const Performance perf = performance_of(catalog, p, *w, *precision);
    if (reference == 0) reference = perf.score;
    Json row;
    row["placement"] = report::placement(p);
    row["score"] = round_to(perf.score, 1);
    row["unit"] = perf.unit;
    row["bound"] = perf.bound;
    row["ratio_to_first"] = reference > 0 ? round_to(perf.score / reference, 3) : 0.0;
    row["basis"] = perf.basis;
    rows.push_back(row);
  }
  Json result;
  result["workload"] = to_string(*w);
  result["precision"] = precision->key;
  result["setups"] = rows;
  result["basis"] =
      "relative performance from catalog fields: inference uses memory bandwidth (token generation "
      "reads every weight per token), training and fine-tuning use dense tensor TFLOPS; several "
      "GPUs scale by interconnect_multiplier";
  return result;
}

Json answer_recommend(const Catalog& catalog, Session& s, const Json& req) {
  auto q = s.question(true);
  Reader& r = s.reader();
  std::vector<std::string> families = r.strings(req, "families", "", false);
  for (std::size_t i = 0; i < families.size(); ++i) {
    if (!catalog.family(families[i])) {
      r.fail("unknown_name", "/families/" + std::to_string(i),
             "expected an instance family of gpu_instances.json, got \"" + families[i] + "\"");
      return nullptr;
    }
  }
  auto budget = r.number(req, "max_usd_per_month", "", false, {0, 1e9, true});
  auto min_gpus = r.number(req, "min_gpus", "", false, {0, kMaxGpus});
  auto limit = r.number(req, "limit", "", false, {1, 1000});
  if (!q) return nullptr;
  q->families = families;
  q->max_usd_per_month = budget;
  q->min_gpus = min_gpus.value_or(0);
  Recommendation rec = recommend(catalog, *q);
  Json result;
  result["request"] = report::question(*q);
  result["memory"] = report::memory(rec.need);
  Json ranked = Json::array();
  for (const auto& c : rec.ranked) {
    if (limit && ranked.size() >= static_cast<std::size_t>(*limit)) break;
    ranked.push_back(report::candidate(c));
  }
  result["candidates"] = ranked;
  Json excluded = Json::array();
  for (const auto& e : rec.excluded) excluded.push_back({{"family", e.family}, {"reason", e.reason}});
  result["excluded"] = excluded;
  result["ranking"] = q->priority == Priority::kCost ? "lowest monthly cost first"
                      : q->priority == Priority::kPerformance
                          ? "highest relative performance first"
                          : "highest performance per dollar first";
  result["pricing_note"] = "prices are per instance-hour; N GPUs are served by whole instances";
  return result;
}

Json answer_migrate(const Catalog& catalog, Session& s, const Json& req) {
  auto q = s.question(true);
  const Json* current = s.reader().object(req, "current", "", true);
  std::optional<Placement> p = current ? s.placement(*current, "/current") : std::nullopt;
  if (!q || !p) return nullptr;
  return report::migration(catalog, migration_report(catalog, *q, *p), *q);
}

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
  for (std::size_t i = 0; i < envs->size(); ++i) {
    const std::string ep = "/plan/environments/" + std::to_string(i);
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
      const std::string wp = ep + "/workloads/" + std::to_string(j);
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
  j["gpus"] = gpus;
  j["unplaced"] = packing.unplaced;
  j["cost"] = report::cost(cost_of(catalog, p, billing));
  return j;
}

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
    const std::string mp = "/models/" + std::to_string(i);
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
      auto spec = s.model(m, mp);
      auto workload = s.workload(m, mp, false);
      const Precision* precision = s.precision(m, mp, false);
      if (!spec || !workload || !precision) return nullptr;
      const MemoryRequirement need = memory_requirement(catalog, *spec, *workload, *precision);
      load.bytes = need.total_bytes;
      load.basis = spec->label + " " + to_string(*workload) + " at " + precision->name + ": " +
                   report::short_number(need.weights_bytes / 1e9) + " GB x " +
                   report::short_number(need.multiplier) + " = " +
                   report::short_number(report::round_to(need.total_bytes / 1e9, 2)) + " GB";
    }
    if (load.name.empty()) return nullptr;
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
  result["models"] = loads;
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
    if (!it.on_demand_usd_per_hour || !it.price_flags.empty()) continue;
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
  auto model = s.model(req, "");
  auto workload = s.workload(req, "", true);
  in.precision = s.precision(req, "", false);
  auto billed = s.billing(req, "");
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
  if (!model || !workload || !in.precision || !billed || !r.ok()) return nullptr;
  in.model = *model;
  in.workload = *workload;
  in.billing = *billed;
  return decide(catalog, in);
}

Json workload_summary(const Workload& w) {
  Json j;
  j["id"] = w.id;
  j["name"] = w.name;
  j["description"] = w.description;
  const Scenario& sc = w.scenario;
  j["scenario"] = {{"current_instance", sc.current_instance},
                   {"current_gpu_count", sc.current_gpu_count},
                   {"workload_type", to_string(sc.workload_type)},
                   {"model_size", sc.model_size},
                   {"monthly_hours", sc.monthly_hours},
                   {"use_spot", sc.use_spot},
                   {"precision", sc.precision},
                   {"priority", sc.priority}};
  j["expected_outcome"] = w.expected_outcome;
  j["tags"] = w.tags;
  return j;
}

Json run_workload(const Catalog& catalog, const Workload& w) {
  const Scenario& sc = w.scenario;
  Question q;
  const ModelSize* size = catalog.model_size(sc.model_size);
  q.model.size = size->key;
  q.model.parameters = size->parameter_count_billion * 1e9;
  q.model.training_overhead_multiplier = size->memory_overhead_multiplier;
  q.model.label = size->key + " (" + report::short_number(size->parameter_count_billion) + "B)";
  q.workload = sc.workload_type;
  q.precision = catalog.precision(sc.precision);
  q.billing.hours_per_month = sc.monthly_hours;
  q.billing.schedule_basis = report::short_number(sc.monthly_hours) + " h/month";
  q.billing.mode = sc.use_spot ? PaymentMode::kSpot : PaymentMode::kOnDemand;
  q.priority = parse_priority(sc.priority).value_or(Priority::kCost);
  const Placement current = *place(catalog, sc.current_instance, sc.current_gpu_count);
  Json j = workload_summary(w);
  j["report"] = report::migration(catalog, migration_report(catalog, q, current), q);
  return j;
}

Json answer_workload(const Catalog& catalog, Session& s, const Json& req) {
  auto id = s.reader().string(req, "id", "", true);
  if (!id) return nullptr;
  const Workload* w = catalog.workload(*id);
  if (!w) {
    std::vector<std::string> ids;
    for (const auto& x : catalog.workloads) ids.push_back(x.id);
    s.reader().fail("unknown_name", "/id", "expected one of " + names_of(ids) + ", got \"" + *id + "\"");
    return nullptr;
  }
  return run_workload(catalog, *w);
}

Json answer_workload_set(const Catalog& catalog, Session& s, const Json& req) {
  auto id = s.reader().string(req, "id", "", true);
  if (!id) return nullptr;
  const auto* members = catalog.workload_set(*id);
  if (!members) {
    std::vector<std::string> ids;
    for (const auto& [key, _] : catalog.workload_sets) ids.push_back(key);
    s.reader().fail("unknown_name", "/id", "expected one of " + names_of(ids) + ", got \"" + *id + "\"");
    return nullptr;
  }
  Json reports = Json::array();
  for (const auto& member : *members) reports.push_back(run_workload(catalog, *catalog.workload(member)));
  Json result;
  result["id"] = *id;
  result["reports"] = reports;
  return result;
}

Json answer_workloads(const Catalog& catalog) {
  Json list = Json::array();
  for (const auto& w : catalog.workloads) list.push_back(workload_summary(w));
  Json sets = Json::object();
  for (const auto& [key, members] : catalog.workload_sets) sets[key] = members;
  return {{"workloads", list}, {"workload_sets", sets}};
}

Json instance_rows(const Catalog& catalog) {
  Json rows = Json::array();
  for (const Family& f : catalog.families) {
    for (std::size_t index : f.instances) {
      const InstanceType& it = catalog.instances[index];
      Json row;
      row["family"] = f.key;
      row["instance"] = it.name;
      row["provider"] = it.provider;
      row["region"] = it.region;
      row["accelerator_kind"] = it.accelerator_kind;
      row["gpu_type"] = it.gpu_type;
      row["gpus"] = round_to(it.gpus, 3);
      row["gpu_memory_gb_label"] = it.gpu_memory_gb;
      row["memory_per_gpu_gb"] = report::gb(it.memory_per_gpu_bytes);
      row["vcpus"] = it.vcpus;
      row["ram_gib"] = it.ram_gib ? Json(*it.ram_gib) : Json(nullptr);
      row["on_demand_usd_per_hour"] = it.on_demand_usd_per_hour ? Json(*it.on_demand_usd_per_hour) : Json(nullptr);
      row["spot_usd_per_hour"] = it.spot_usd_per_hour ? Json(*it.spot_usd_per_hour) : Json(nullptr);
      row["compute_tflops"] = it.compute_tflops;
      row["memory_bandwidth_gb_per_s"] = round_to(it.memory_bandwidth_gb_per_s, 1);
      row["interconnect"] = it.interconnect_type;
      row["price_notes"] = it.price_notes;
      row["source"] = it.source;
      row["source_date"] = it.source_date;
      rows.push_back(row);
    }
  }
  return rows;
}

Json answer_catalog(const Catalog& catalog, Session& s, const Json& req) {
  const std::string section = lower(s.reader().string(req, "section", "", false).value_or("all"));
  static const std::vector<std::string> kSections{"all", "instances", "models", "precisions",
                                                  "workloads", "files"};
  if (std::find(kSections.begin(), kSections.end(), section) == kSections.end()) {
    s.reader().fail("unknown_name", "/section",
                    "expected one of " + names_of(kSections) + ", got \"" + section + "\"");
    return nullptr;
  }
  Json result;
  result["info"] = catalog.info;
  const bool all = section == "all";
  if (all || section == "instances") {
    result["instances"] = instance_rows(catalog);
    // Spot notice and commitment discounts, with their sources.
    result["providers"] = catalog.gpu_instances_doc.value("providers", Json::object());
  }
  if (all || section == "models") {
    Json sizes = Json::array();
    for (const auto& m : catalog.model_sizes) {
      sizes.push_back({{"size", m.key},
                       {"name", m.name},
                       {"description", m.description},
                       {"parameter_count_billion", m.parameter_count_billion},
                       {"memory_overhead_multiplier", m.memory_overhead_multiplier},
                       {"examples", m.examples}});
    }
    result["model_sizes"] = sizes;
    result["memory_planning"] = catalog.model_config_doc.value("memory_planning", Json::object());
  }
  if (all || section == "precisions") result["precision_formats"] = catalog.model_config_doc["precision_formats"];
  if (all || section == "workloads") result["workloads"] = answer_workloads(catalog);
  if (section == "files") {
    result["files"] = {{kGpuInstancesFile, catalog.gpu_instances_doc},
                       {kModelConfigFile, catalog.model_config_doc},
                       {kWorkloadsFile, catalog.workloads_doc}};
  }
  return result;
}

Json answer_validate(const Catalog& catalog) {
  Json result;
  result["valid"] = true;
  result["counts"] = {{"families", catalog.families.size()},
                      {"instance_types", catalog.instances.size()},
                      {"gpus", catalog.gpus.size()},
                      {"model_sizes", catalog.model_sizes.size()},
                      {"precision_formats", catalog.precisions.size()},
                      {"workloads", catalog.workloads.size()},
                      {"workload_sets", catalog.workload_sets.size()}};
  Json unpriced = Json::array();
  for (const auto& it : catalog.instances) {
    if (!it.on_demand_usd_per_hour) unpriced.push_back(it.name);
  }
  result["instances_without_on_demand_price"] = unpriced;
  Json warnings = Json::array();
  for (const auto& w : catalog.warnings) {
    warnings.push_back({{"code", w.code}, {"file", w.file}, {"path", w.path}, {"message", w.message}});
  }
  result["warnings"] = warnings;
  return result;
}

// Every question and the request fields it reads; anything else is a typo worth reporting.
const std::vector<std::pair<std::string, std::vector<std::string>>>& questions() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> kQuestions{
      {"precisions", {"model"}},
      {"fit",
       {"model", "workload", "precision", "instance", "gpus", "hours_per_month", "schedule",
        "use_spot", "pricing", "spot_share"}},
      {"cost", {"instance", "gpus", "hours_per_month", "schedule", "use_spot", "pricing", "spot_share"}},
      {"performance", {"workload", "precision", "instances"}},
      {"recommend",
       {"model", "workload", "precision", "hours_per_month", "schedule", "use_spot", "pricing",
        "spot_share", "priority", "families", "providers", "kinds", "max_usd_per_month", "min_gpus", "limit"}},
      {"migrate",
       {"current", "model", "workload", "precision", "hours_per_month", "schedule", "use_spot",
        "pricing", "spot_share", "priority", "providers", "kinds"}},
      {"workload", {"id"}},
      {"plan", {"plan"}},
      {"decide",
       {"model", "workload", "precision", "framework", "model_kind", "goal", "latency_ms", "edge", "batch",
        "hours_per_month", "schedule", "use_spot", "pricing", "spot_share"}},
      {"placement",
       {"models", "instance", "gpus", "providers", "max_instances", "hours_per_month", "schedule",
        "use_spot", "pricing", "spot_share"}},
      {"workload_set", {"id"}},
      {"workloads", {}},
      {"catalog", {"section"}},
      {"validate", {}},
  };
  return kQuestions;
}

}  // namespace

Json errors_response(const Errors& errors) {
  Json list = Json::array();
  for (const auto& e : errors) {
    list.push_back({{"code", e.code}, {"file", e.file}, {"path", e.path}, {"message", e.message}});
  }
  return {{"ok", false}, {"errors", list}};
}

Analyzer::Analyzer(const CatalogSources& sources) {
  detail::guarded(
      [&] {
        CatalogLoad load = load_catalog(sources);
        catalog_errors_ = std::move(load.errors);
        if (load.catalog) catalog_ = std::make_shared<const Catalog>(std::move(*load.catalog));
      },
      [&](const char* what) {
        catalog_errors_.push_back({"internal_error", "", "", std::string("catalog load failed: ") + what});
      });
}

Json Analyzer::analyze(const Json& request) const {
  if (!catalog_) return errors_response(catalog_errors_);
  Errors errors;
  return detail::guarded([&] { return answer(request, errors); },
                         [&](const char* what) {
                           errors.push_back({"internal_error", kRequest, "", std::string("unexpected failure: ") + what});
                           return errors_response(errors);
                         });
}

Json Analyzer::answer(const Json& request, Errors& errors) const {
  {
    Reader r(kRequest, errors);
    if (!r.expect_object(request, "")) return errors_response(errors);
    auto question = r.string(request, "question", "", true);
    if (!question) return errors_response(errors);
    const std::string q = lower(*question);
    auto known = std::find_if(questions().begin(), questions().end(),
                              [&](const auto& entry) { return entry.first == q; });
    if (known == questions().end()) {
      std::vector<std::string> names;
      for (const auto& entry : questions()) names.push_back(entry.first);
      r.fail("unknown_name", "/question",
             "expected one of " + names_of(names) + ", got \"" + *question + "\"");
      return errors_response(errors);
    }
    for (const auto& [key, _] : request.items()) {
      const auto& allowed = known->second;
      if (key != "question" && std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        r.fail("unknown_field", Reader::child("", key),
               "\"" + q + "\" takes " + (allowed.empty() ? "no other field" : names_of(allowed)) +
                   "; got \"" + key + "\"");
      }
    }
    if (!errors.empty()) return errors_response(errors);
    Session s(*catalog_, request, errors);
    Json result;
    if (q == "precisions") result = answer_precisions(*catalog_, s, request);
    else if (q == "fit") result = answer_fit(*catalog_, s, request);
    else if (q == "cost") result = answer_cost(*catalog_, s, request);
    else if (q == "performance") result = answer_performance(*catalog_, s, request);
    else if (q == "recommend") result = answer_recommend(*catalog_, s, request);
    else if (q == "migrate") result = answer_migrate(*catalog_, s, request);
    else if (q == "workload") result = answer_workload(*catalog_, s, request);
    else if (q == "plan") result = answer_plan(*catalog_, s, request);
    else if (q == "placement") result = answer_placement(*catalog_, s, request);
    else if (q == "decide") result = answer_decide(*catalog_, s, request);
    else if (q == "workload_set") result = answer_workload_set(*catalog_, s, request);
    else if (q == "workloads") result = answer_workloads(*catalog_);
    else if (q == "catalog") result = answer_catalog(*catalog_, s, request);
    else result = answer_validate(*catalog_);
    if (!errors.empty() || result.is_null()) {
      if (errors.empty()) errors.push_back({"cannot_answer", kRequest, "", "the request could not be answered"});
      return errors_response(errors);
    }
    return ok(*catalog_, q, std::move(result));
  }
}

std::string Analyzer::analyze_json(const std::string& request) const {
  Errors errors;
  auto parsed = detail::parse_checked(request, kRequest, detail::kRequestLimits, errors);
  const Json response = parsed ? analyze(*parsed) : errors_response(errors);
  return response.dump(2, ' ', false, Json::error_handler_t::replace);
}

}  // namespace gpufleet
