#include "gpufleet/analyzer.hpp"
#include "api/analyzer_access.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "pricing/cost.hpp"
#include "fleet/decide.hpp"
#include "fleet/seed_memory.hpp"
#include "fleet/seed_score.hpp"
#include "fleet/placement.hpp"
#include "fleet/plan.hpp"
#include "fleet/recommend.hpp"
#include "fleet/decide.hpp"
#include "fleet/recommend.hpp"
#include "fleet/road.hpp"
#include "support/decimal.hpp"
#include "api/questions/fleet_answers.hpp"
#include "api/questions/memory_answers.hpp"
#include "support/guarded.hpp"
#include "pricing/prices.hpp"
#include "support/json_guard.hpp"
#include "support/json_reader.hpp"
#include "catalog/fields.hpp"
#include "api/session.hpp"
#include "api/answers.hpp"
#include "support/small_sort.hpp"

namespace gpufleet {
namespace {

using detail::kMaxGpus;
using detail::kRequest;
using detail::lower;
using detail::names_of;
using detail::Range;
using detail::Reader;
using detail::Session;
using report::round_to;

Json ok(const Catalog& catalog, const std::string& question, Json result) {
  Json j = report::object(4);
  j["ok"] = true;
  j["question"] = question;
  Json info;
  // catalog_info is optional and user-edited: read only the strings that are there.
  for (const char* key : {"name", "version", "date"}) {
    auto it = catalog.info.is_object() ? catalog.info.find(key) : catalog.info.end();
    info[key] = catalog.info.is_object() && it != catalog.info.end() && it->is_string() ? it->get<std::string>() : "";
  }
  // The oldest price the answer could use; the doors say how many days ago that is.
  const std::string as_of = catalog.prices_as_of();
  info["prices_as_of"] = as_of.empty() ? Json(nullptr) : Json(as_of);
  j["catalog"] = std::move(info);
  j["result"] = std::move(result);
  return j;
}

// An answer about a named instance whose price the catalog flags says so first (price_flags),
// before any figure it priced.
Json price_flags_first(Json result, const Cost& cost) {
  if (cost.price_flags.empty()) return result;
  Json out = report::object(result.size() + 1);
  report::add(out, "price_flags", report::price_flags(cost.price_flags));
  for (auto& [key, value] : result.items()) out[key] = std::move(value);
  return out;
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
    row["native_on_families"] = std::move(families);
    row["description"] = p.description;
    rows.push_back(std::move(row));
  }
  Json result;
  result["model"] = {{"label", model->label}, {"parameters_billion", round_to(model->parameters / 1e9, 3)}};
  result["precisions"] = std::move(rows);
  result["basis"] = "weights = parameters x bytes per parameter; GB = 1e9 bytes";
  return result;
}

// What a deployment holds per GPU, as the seed's weights + overhead and as lines.
Json memory_summary(const Catalog& catalog, const Workload& w, const Deployment& d) {
  if (w.seed_memory) return report::memory(seed_requirement(catalog, w));
  Json j = report::object(6);
  const double weights = d.memory ? d.memory->weights_per_gpu_bytes : 0;
  report::add(j, "weights_gb", report::gb(weights));
  report::add(j, "overhead_gb", report::gb(std::max(0.0, d.memory_per_gpu_bytes - weights)));
  report::add(j, "overhead_covers", w.serving() ? "KV cache, activations and runtime, per GPU"
                                                : "gradients, optimizer states, activations and runtime, per GPU");
  report::add(j, "total_gb", report::gb(d.memory_per_gpu_bytes));
  report::add(j, "per_gpu", d.memory ? report::memory_lines(*d.memory) : Json::array());
  report::add(j, "basis", "architecture-aware memory model, per GPU of the layout (GB = 1e9 bytes)");
  return j;
}

Json answer_fit(const Catalog& catalog, Session& s, const Json& req) {
  auto q = s.question(false);
  auto p = s.placement(req, "");
  if (!q || !p) return nullptr;
  const Deployment d = deploy_on_gpus(catalog, q->w, q->billing, *p->instance, p->gpus);
  Json result;
  result["request"] = report::question(*q);
  result["placement"] = report::placement(*p);
  result["memory"] = memory_summary(catalog, q->w, d);
  Json fit = report::object(6);
  report::add(fit, "fits", d.runs());
  report::add(fit, "gpus", round_to(p->gpus, 3));
  report::add(fit, "per_gpu_gb", report::gb(d.memory_per_gpu_bytes));
  report::add(fit, "capacity_per_gpu_gb", report::gb(d.capacity_per_gpu_bytes));
  report::add(fit, "utilization_pct", d.capacity_per_gpu_bytes > 0 ? round_to(100 * d.memory_per_gpu_bytes / d.capacity_per_gpu_bytes, 1) : 0.0);
  result["fit"] = std::move(fit);
  result["status"] = d.runs() ? "FITS" : d.refusal.rfind("does not fit", 0) == 0 ? "CANNOT FIT MODEL" : "CANNOT RUN";
  result["deployment"] = report::deployment(d, true);
  if (!d.runs()) result["ways_out"] = report::ways_out(ways_out(catalog, *q, *p->instance, p->gpus));
  // The road priced the deployment without the other ways to pay, which this answer lists.
  const Placement priced{d.instance, d.gpus, std::max(1, d.instance_count), d.instance->name, false};
  const Cost cost = cost_of(catalog, priced, q->billing);
  result["cost"] = report::cost(cost, true);
  return price_flags_first(std::move(result), cost);
}

// The same placement in every region asked, cheapest first, each against the first region named
// (or the provider's usual region with "all"): seed 003's "5-15 % lower in us-west-2", computed.
Json cost_by_region(const Catalog& catalog, Session& s, const Json& req, const Placement& p, const Billing& billed) {
  auto choice = detail::read_region_choice(catalog, req, s.reader());
  if (!choice) return nullptr;
  std::vector<std::pair<const InstanceType*, Cost>> rows;
  for (const InstanceType* offer : detail::offers_in(catalog, p.instance->name, *choice)) {
    Placement here = p;
    here.instance = offer;
    rows.emplace_back(offer, cost_of(catalog, here, billed));
  }
  detail::small_stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    if (a.second.usd_per_month.has_value() != b.second.usd_per_month.has_value()) return a.second.usd_per_month.has_value();
    return a.second.usd_per_month.value_or(0) < b.second.usd_per_month.value_or(0);
  });
  const std::string reference = choice->all || !req["regions"].is_array() || req["regions"].empty()
                                    ? catalog.usual_region(p.instance->provider)
                                    : lower(req["regions"][0].get<std::string>());
  const Cost* base = nullptr;
  for (const auto& [offer, cost] : rows) {
    if (offer->region == reference && cost.usd_per_month) base = &cost;
  }
  Json list = Json::array();
  for (const auto& [offer, cost] : rows) {
    Json row = report::object(8);
    row["region"] = offer->region;
    row["usd_per_hour"] = report::report_optional(cost.usd_per_hour, 4);
    row["usd_per_month"] = report::report_optional(cost.usd_per_month, 2);
    row["pricing"] = cost.pricing;
    if (base && cost.usd_per_month && *base->usd_per_month > 0) {
      row["difference_usd_per_month"] = round_to(*cost.usd_per_month - *base->usd_per_month, 2);
      row["difference_pct"] = round_to(100 * (*cost.usd_per_month / *base->usd_per_month - 1), 1);
    }
    if (!offer->price_flags.empty()) {
      row["suspect"] = offer->price_flags;
      row["suspect_reason"] = price_flag_name(offer->price_flags.front());
    }
    if (!cost.note.empty()) row["note"] = cost.note;
    list.push_back(std::move(row));
  }
  return {{"reference_region", reference}, {"regions", std::move(list)}};
}

// maybe_unused: the page's module leaves cost and performance out (kPageLeavesOut below).
[[maybe_unused]] Json answer_cost(const Catalog& catalog, Session& s, const Json& req) {
  auto p = s.placement(req, "");
  auto billed = s.billing(req, "");
  if (!p || !billed) return nullptr;
  Json result;
  result["placement"] = report::placement(*p);
  const Cost cost = cost_of(catalog, *p, *billed);
  result["cost"] = report::cost(cost, true);
  Billing spot = *billed;
  spot.mode = PaymentMode::kSpot;
  result["spot"] = report::cost(cost_of(catalog, *p, spot));
  result["pricing_note"] = "Prices are per instance-hour; N GPUs are served by whole instances";
  if (req.contains("regions")) result["by_region"] = cost_by_region(catalog, s, req, *p, *billed);
  return price_flags_first(std::move(result), cost);
}

[[maybe_unused]] Json answer_performance(const Catalog& catalog, Session& s, const Json& req) {
  Reader& r = s.reader();
  const Json* list = r.member(req, "instances", "", true);
  if (list && (!list->is_array() || list->empty() || list->size() > 64)) {
    r.fail("wrong_type", "/instances", "expected an array of 1 to 64 {\"instance\", \"gpus\"}, got " + Reader::describe(*list));
    return nullptr;
  }
  std::optional<Workload> w;
  std::optional<WorkloadType> task;
  const Precision* precision = nullptr;
  if (req.contains("model")) {
    w = s.road_workload(req, "", false);
  } else {
    task = s.workload(req, "", true);
    precision = s.precision(req, "", false);
  }
  auto billed = s.billing(req, "");
  if (!list || !billed || !r.ok() || (!w && !(task && precision))) return nullptr;
  std::vector<Placement> placements;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string path = "/instances/" + decimal::whole(i);
    if (!r.expect_object((*list)[i], path)) return nullptr;
    detail::fields::check_fields(r, (*list)[i], path, "placement");
    auto p = s.placement((*list)[i], path);
    if (!p) return nullptr;
    placements.push_back(*p);
  }
  if (!r.ok()) return nullptr;
  Json rows = Json::array();
  double reference = 0;
  for (const auto& p : placements) {
    Json row = report::object(8);
    report::add(row, "placement", report::placement(p));
    if (w) {
      const Deployment d = deploy_on_gpus(catalog, *w, *billed, *p.instance, p.gpus);
      const double score = !d.runs() ? 0 : d.inference ? d.inference->batch1_decode_tokens_per_s : d.output_tokens_per_s;
      if (reference == 0) reference = score;
      report::add(row, "score", round_to(score, 1));
      report::add(row, "unit", w->serving() ? "tokens/s (one stream)" : "training tokens/s");
      report::add(row, "ratio_to_first", reference > 0 ? round_to(score / reference, 3) : 0.0);
      report::add(row, "deployment", report::deployment(d, true));
      report::add(row, "bound", d.bound);
    } else {
      const Performance perf = performance_of(catalog, p, *task, *precision);
      if (reference == 0) reference = perf.score;
      report::add(row, "score", round_to(perf.score, 1));
      report::add(row, "unit", perf.unit);
      report::add(row, "bound", perf.bound);
      report::add(row, "ratio_to_first", reference > 0 ? round_to(perf.score / reference, 3) : 0.0);
      report::add(row, "basis", perf.basis);
    }
    rows.push_back(std::move(row));
  }
  Json result;
  result["request"] = w ? report::workload(*w) : Json{{"workload", to_string(*task)}, {"precision", precision->key}};
  result["setups"] = std::move(rows);
  result["basis"] = w ? "the road's deployment of the model on each setup: one stream's decode (serving) or the "
                        "training tokens/s, with the layout that runs on those GPUs (estimate gives the same figures)"
                      : "relative performance from catalog fields (give a model for tokens/s): inference uses memory "
                        "bandwidth, training dense tensor TFLOPS; several GPUs scale by interconnect_multiplier";
  return result;
}

Json answer_recommend(const Catalog& catalog, Session& s, const Json& req) {
  auto q = s.question(true);
  Reader& r = s.reader();
  std::vector<std::string> families = r.strings(req, "families", "", false);
  for (std::size_t i = 0; i < families.size(); ++i) {
    if (!catalog.family(families[i])) {
      r.fail("unknown_name", "/families/" + decimal::whole(i),
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
  Json result = report::object(6);
  result["request"] = report::question(*q);
  Json ranked = Json::array();
  for (const auto& c : rec.ranked) {
    if (limit && ranked.size() >= static_cast<std::size_t>(*limit)) break;
    ranked.push_back(report::candidate(c));
  }
  result["candidates"] = std::move(ranked);
  Json excluded = Json::array();
  for (const auto& e : rec.excluded) excluded.push_back(report::excluded(e));
  result["excluded"] = std::move(excluded);
  result["ranking"] = q->priority == Priority::kCost          ? (q->w.trains() && q->w.demand.dataset_tokens ? "lowest cost of the run first" : "lowest monthly cost first")
                      : q->priority == Priority::kPerformance ? "fastest first (tokens/s of one stream, or of the training job)"
                      : q->priority == Priority::kReliability ? "lowest monthly cost first, on demand, with 10% memory headroom and one spare copy"
                                                              : "lowest $ per 1M tokens first";
  result["pricing_note"] = "Each family's cheapest deployment: instance type x count x layout, sized for the demand";
  return result;
}

Json answer_migrate(const Catalog& catalog, Session& s, const Json& req) {
  auto q = s.question(true);
  const Json* current = s.reader().object(req, "current", "", true);
  if (current) detail::fields::check_fields(s.reader(), *current, "/current", "placement");
  std::optional<Placement> p = current ? s.placement(*current, "/current") : std::nullopt;
  if (!q || !p || !s.reader().ok()) return nullptr;
  const MigrationReport report = migration_report(catalog, *q, *p->instance, p->gpus);
  return price_flags_first(report::migration(report, *q), report.current.d.cost);
}

Json workload_summary(const WorkloadScenario& w) {
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

Json run_workload(const Catalog& catalog, const WorkloadScenario& scenario) {
  const Scenario& sc = scenario.scenario;
  Question q;
  q.w.model = size_class_model(catalog, *catalog.model_size(sc.model_size));
  q.w.seed_memory = !q.w.model.arch;
  q.w.task = sc.workload_type;
  q.w.weight_format = sc.precision;
  q.w.precision = catalog.precision(sc.precision);
  q.billing.hours_per_month = sc.monthly_hours;
  q.billing.schedule_basis = report::short_number(sc.monthly_hours) + " h/month";
  q.billing.mode = sc.use_spot ? PaymentMode::kSpot : PaymentMode::kOnDemand;
  q.priority = parse_priority(sc.priority).value_or(Priority::kCost);
  const Placement current = *place(catalog, sc.current_instance, sc.current_gpu_count);
  Json j = workload_summary(scenario);
  j["report"] = report::migration(migration_report(catalog, q, *current.instance, current.gpus), q);
  return j;
}

Json answer_workload(const Catalog& catalog, Session& s, const Json& req) {
  auto id = s.reader().string(req, "id", "", true);
  if (!id) return nullptr;
  const WorkloadScenario* w = catalog.workload(*id);
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
  result["reports"] = std::move(reports);
  return result;
}

Json answer_workloads(const Catalog& catalog) {
  Json list = Json::array();
  for (const auto& w : catalog.workloads) list.push_back(workload_summary(w));
  Json sets = Json::object();
  for (const auto& [key, members] : catalog.workload_sets) sets[key] = members;
  return {{"workloads", list}, {"workload_sets", sets}};
}

// Every instance type by family. `menu` keeps what a form offers as choices (names, provider,
// accelerator and GPUs), without prices, specs and sources.
Json instance_rows(const Catalog& catalog, bool menu) {
  Json rows = Json::array();
  for (const Family& f : catalog.families) {
    for (std::size_t index : f.instances) {
      const InstanceType& it = catalog.instances[index];
      Json row = report::object(menu ? 6 : 20);
      row["family"] = f.key;
      row["instance"] = it.name;
      row["provider"] = it.provider;
      if (!menu) row["region"] = it.region;
      row["accelerator_kind"] = it.accelerator_kind;
      row["gpu_type"] = it.gpu_type;
      row["gpus"] = round_to(it.gpus, 3);
      if (menu) {
        rows.push_back(std::move(row));
        continue;
      }
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
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

// The choices of a workload form that are the core's own (tasks, priorities, ways of paying),
// named for a person: text, not code, in the WebAssembly core (tests/unit/analyzer_test.cpp asks
// every key of the questions that take it).
constexpr const char* kChoices =
    R"j({"tasks":[{"key":"inference","name":"Inference (serving)"},{"key":"batch_inference","name":"Batch inference"},)j"
    R"j({"key":"fine_tuning","name":"Fine-tuning (full)"},{"key":"lora","name":"LoRA fine-tuning"},)j"
    R"j({"key":"qlora","name":"QLoRA fine-tuning"},{"key":"training","name":"Training"}],)j"
    R"j("priorities":[{"key":"cost","name":"Cost (lowest monthly cost)"},{"key":"performance","name":"Performance (fastest)"},)j"
    R"j({"key":"balanced","name":"Balanced (performance per dollar)"},{"key":"reliability","name":"Reliability (memory headroom)"}],)j"
    R"j("pricing_modes":[{"key":"on_demand","name":"On-demand"},{"key":"spot","name":"Spot"},)j"
    R"j({"key":"mixed","name":"Mixed spot + on-demand"},{"key":"reserved_1y","name":"1-year commitment (each provider's usual one)"},)j"
    R"j({"key":"reserved_3y","name":"3-year commitment (each provider's usual one)"}]})j";

// Those choices, the providers' names and every way to pay of the catalog. priced: a provider-wide discount; else
// priced_for names the families with one of their own.
void choice_menus(const Catalog& catalog, Json& result) {
  Errors errors;
  if (auto choices = detail::parse_checked(kChoices, "menus", detail::kRequestLimits, errors))
    for (auto& [key, value] : choices->items()) result[key] = std::move(value);
  Json& names = result["provider_names"] = Json::object();
  for (const auto& [provider, terms] : catalog.providers) names[provider] = catalog.provider_name(provider);
  Json& ways = result["ways_to_pay"] = Json::array();
  for (const auto& [provider, terms] : catalog.providers) {
    for (const WayToPay& w : terms.ways) {
      Json way;
      way["key"] = w.id;
      way["provider"] = provider;
      way["kind"] = w.kind;
      way["term_years"] = w.term_years;
      way["upfront"] = w.upfront;
      way["priced"] = w.discount_pct.has_value();
      way["name"] = way_name(w);
      for (const auto& [_, figure] : w.families)
        if (!w.discount_pct && figure.offered && figure.discount_pct) way["priced_for"].push_back(figure.key);
      ways.push_back(std::move(way));
    }
  }
}

Json answer_catalog(const Catalog& catalog, Session& s, const Json& req) {
  const std::string section = lower(s.reader().string(req, "section", "", false).value_or("all"));
  static const std::vector<std::string> kSections{"all",       "menus",     "instances", "models",
                                                  "precisions", "workloads", "files"};
  if (std::find(kSections.begin(), kSections.end(), section) == kSections.end()) {
    s.reader().fail("unknown_name", "/section",
                    "expected one of " + names_of(kSections) + ", got \"" + section + "\"");
    return nullptr;
  }
  Json result;
  result["info"] = catalog.info;
  // "menus": what a form offers as choices (a page's first question), without prices and sources.
  const bool menu_only = section == "menus";
  const bool all = section == "all";
  if (all || menu_only || section == "instances") result["instances"] = instance_rows(catalog, menu_only);
  if (all || section == "instances") {
    // Spot notice and commitment discounts, with their sources.
    result["providers"] = catalog.gpu_instances_doc.value("providers", Json::object());
  }
  if (all || menu_only || section == "models") {
    Json sizes = Json::array();
    for (const auto& m : catalog.model_sizes) {
      sizes.push_back({{"size", m.key},
                       {"name", m.name},
                       {"description", m.description},
                       {"parameter_count_billion", m.parameter_count_billion},
                       {"memory_overhead_multiplier", m.memory_overhead_multiplier},
                       {"examples", m.examples}});
    }
    result["model_sizes"] = std::move(sizes);
    if (!menu_only) result["memory_planning"] = catalog.model_config_doc.value("memory_planning", Json::object());
    // Concrete models and the memory model's menus (formats, KV-cache formats, optimizers, engines).
    Json named = Json::array();
    for (const auto& m : catalog.models) {
      named.push_back({{"key", m.key}, {"name", m.name}, {"hf_id", m.hf_id}, {"model_type", m.arch.model_type},
                       {"parameters_billion", round_to(m.params.total / 1e9, 3)},
                       {"max_context", m.arch.max_positions}});  // sources: the memory answer and catalog files
    }
    result["concrete_models"] = std::move(named);
    // The GPUs a model can be sized against, smallest usable memory first.
    Json gpus = Json::array();
    for (const auto& [key, g] : catalog.gpus) {
      const double mib = g.usable_memory_mib.value_or(g.memory_gb * 1024);
      gpus.push_back({{"key", key}, {"vendor", g.vendor}, {"capacity_gib", round_to(mib / 1024, 3)},
                      {"estimable", g.memory_bandwidth_gb_per_s.has_value() && !g.tflops.empty()}});
    }
    detail::small_stable_sort(gpus.begin(), gpus.end(), [](const Json& a, const Json& b) {
      return a["capacity_gib"].get<double>() < b["capacity_gib"].get<double>();
    });
    result["gpus"] = std::move(gpus);
    Json menus;
    auto keys = [](const auto& map) {
      Json list = Json::array();
      for (const auto& [key, _] : map) list.push_back(key);
      return list;
    };
    menus["weight_formats"] = keys(catalog.memory.weight_formats);
    menus["kv_cache_formats"] = keys(catalog.memory.kv_bytes);
    menus["optimizers"] = keys(catalog.memory.optimizers);
    Json engines = Json::array();
    for (const auto& [key, e] : catalog.memory.engines) engines.push_back({{"key", key}, {"name", e.name}});
    menus["engines"] = std::move(engines);
    result["memory_menus"] = std::move(menus);
  }
  if (all || menu_only) choice_menus(catalog, result);
  if (all || menu_only || section == "precisions") result["precision_formats"] = catalog.model_config_doc["precision_formats"];
  if (all || menu_only || section == "workloads") result["workloads"] = answer_workloads(catalog);
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
  result["instances_without_on_demand_price"] = std::move(unpriced);
  Json warnings = Json::array();
  for (const auto& w : catalog.warnings) {
    warnings.push_back({{"code", w.code}, {"name", price_flag_name(w.code)}, {"file", w.file}, {"path", w.path}, {"message", w.message}});
  }
  result["warnings"] = std::move(warnings);
  return result;
}

// Every question, the request fields it reads (space-separated: a table of text costs the
// WebAssembly core no code; anything else is a typo worth reporting; "!" marks a field the question
// requires, for the request schema) and the function that answers it. Called through this table, each answer stays a function of its own: the WebAssembly engine
// compiles a question's code when it is first asked, not all of them with the first answer.
using Answer = Json (*)(const Catalog&, Session&, const Json&);
struct QuestionEntry {
  const char* name;
  const char* fields;
  Answer answer;
};
#if GPUFLEET_PAGE_MODULE
// The page's module (wasm/CMakeLists.txt, gpufleet_page_wasm) leaves out the questions no view of the
// page asks: 13 KB gzipped of the page's first download (docs/performance.md).
constexpr const char* kPageLeavesOut[] = {"cost", "performance", "right_size", "estimate"};
#endif
constexpr QuestionEntry kQuestions[] = {
    {"precisions", "model!", answer_precisions},
    {"fit", "model! workload! precision instance! gpus hours_per_month schedule use_spot pricing spot_share max_tpot_ms weight_format kv_cache_format engine demand recipe memory_method region regions", answer_fit},
#if !GPUFLEET_PAGE_MODULE  // kPageLeavesOut
    {"cost", "instance! gpus hours_per_month schedule use_spot pricing spot_share region regions", answer_cost},
    {"performance", "workload precision instances! model hours_per_month schedule use_spot pricing spot_share weight_format kv_cache_format engine demand recipe memory_method region regions", answer_performance},
#endif
    {"recommend", "model! workload! precision hours_per_month schedule use_spot pricing spot_share priority families providers kinds max_usd_per_month min_gpus limit max_tpot_ms weight_format kv_cache_format engine demand recipe memory_method region regions", answer_recommend},
    {"migrate", "current! model! workload! precision hours_per_month schedule use_spot pricing spot_share priority providers kinds max_tpot_ms weight_format kv_cache_format engine demand recipe memory_method region regions", answer_migrate},
    {"workload", "id!", answer_workload},
    {"plan", "plan! region regions", detail::answer_plan},
    {"decide", "model! workload! precision providers framework model_kind goal latency_ms edge batch hours_per_month schedule use_spot pricing spot_share weight_format kv_cache_format engine demand recipe memory_method region regions", detail::answer_decide},
    {"placement", "models! instance gpus providers max_instances hours_per_month schedule use_spot pricing spot_share region regions", detail::answer_placement},
    {"workload_set", "id!", answer_workload_set},
    {"workloads", "", [](const Catalog& c, Session&, const Json&) { return answer_workloads(c); }},
    {"catalog", "section region regions", answer_catalog},
    {"validate", "", [](const Catalog& c, Session&, const Json&) { return answer_validate(c); }},
    {"memory", detail::kMemoryFields, detail::answer_memory},
#if GPUFLEET_ACCURACY  // a native harness: the WebAssembly module leaves it out
    {"accuracy", "cases!", detail::answer_accuracy},
#endif
#if !GPUFLEET_PAGE_MODULE  // kPageLeavesOut
    {"right_size", "models! hours_per_month providers region regions", detail::answer_right_size},
    {"estimate", "model! phase weight_format kv_cache_format compute_precision gpu instance gpus tensor_parallel input_tokens output_tokens concurrency context dataset_tokens epochs gradient_checkpointing engine batch rank max_ttft_ms max_tpot_ms providers limit region regions", detail::answer_estimate},
#endif
};

}  // namespace

#if !defined(__EMSCRIPTEN__)
std::vector<detail::QuestionFields> detail::question_fields() {
  std::vector<QuestionFields> out;
  for (const QuestionEntry& q : kQuestions) out.push_back({q.name, q.fields});
  return out;
}
#endif

Json errors_response(const Errors& errors) {
  Json list = Json::array();
  for (const auto& e : errors) {
    list.push_back({{"code", e.code}, {"file", e.file}, {"path", e.path}, {"message", e.message}});
  }
  return {{"ok", false}, {"errors", list}};
}

namespace {

Json answer(const Analyzer::State& state, const Json& request, Errors& errors);

std::shared_ptr<const Catalog> view(const Analyzer::State& state, const RegionChoice& choice) {
  constexpr std::size_t kViewsKept = 16;  // each is a copy of the catalog's instance types
  const std::string key = choice.key();
  std::lock_guard<std::mutex> lock(state.views_mutex);
  if (auto found = state.views.find(key); found != state.views.end()) return found->second;
  if (state.views.size() >= kViewsKept) state.views.clear();
  return state.views[key] = regional_view(*state.catalog, choice);
}

}  // namespace

Analyzer::Analyzer(const CatalogSources& sources) : state_(std::make_unique<State>()) {
  detail::guarded(
      [&] {
        CatalogLoad load = load_catalog(sources);
        state_->catalog_errors = std::move(load.errors);
        state_->catalog = std::move(load.catalog);
      },
      [&](const char* what) {
        state_->catalog_errors.push_back({"internal_error", "", "", std::string("catalog load failed: ") + what});
      });
}

Analyzer::~Analyzer() = default;

std::string errors_json(const Errors& errors, int indent) { return errors_response(errors).dump(indent); }

bool Analyzer::catalog_ok() const { return state_->catalog != nullptr; }
const Errors& Analyzer::catalog_errors() const { return state_->catalog_errors; }
const Analyzer::State& state_of(const Analyzer& analyzer) { return *analyzer.state_; }

Json analyze(const Analyzer& analyzer, const Json& request) {
  const Analyzer::State& state = state_of(analyzer);
  if (!state.catalog) return errors_response(state.catalog_errors);
  Errors errors;
  return detail::guarded([&] { return answer(state, request, errors); },
                         [&](const char* what) {
                           errors.push_back({"internal_error", kRequest, "", std::string("unexpected failure: ") + what});
                           return errors_response(errors);
                         });
}

namespace {

Json answer(const Analyzer::State& state, const Json& request, Errors& errors) {
  {
    Reader r(kRequest, errors);
    if (!r.expect_object(request, "")) return errors_response(errors);
    auto question = r.string(request, "question", "", true);
    if (!question) return errors_response(errors);
    const std::string q = lower(*question);
    auto known = std::find_if(std::begin(kQuestions), std::end(kQuestions),
                              [&](const QuestionEntry& entry) { return q == entry.name; });
    if (known == std::end(kQuestions)) {
#if GPUFLEET_PAGE_MODULE
      for (const char* left_out : kPageLeavesOut) {
        if (q != left_out) continue;
        r.fail("unknown_name", "/question",
               "the page's WebAssembly module leaves \"" + q + "\" out (no view of the page asks it): ask it through "
               "gpufleet/all/gpufleet.js beside the page, the npm package or the CLI");
        return errors_response(errors);
      }
#endif
#if !GPUFLEET_ACCURACY
      if (q == "accuracy") {
        r.fail("unknown_name", "/question",
               "this build has no accuracy harness (the WebAssembly module leaves it out): run it natively, "
               "gpufleet accuracy FILE... or scripts/accuracy.sh");
        return errors_response(errors);
      }
#endif
      std::vector<std::string> names;
      for (const auto& entry : kQuestions) names.push_back(entry.name);
      r.fail("unknown_name", "/question",
             "expected one of " + names_of(names) + ", got \"" + *question + "\"");
      return errors_response(errors);
    }
    std::vector<std::string> allowed = detail::words(known->fields);
    for (auto& name : allowed) {
      if (!name.empty() && name.back() == '!') name.pop_back();
    }
    for (const auto& [key, _] : request.items()) {
      if (key != "question" && std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        r.fail("unknown_field", Reader::child("", key),
               "\"" + q + "\" takes " + (allowed.empty() ? "no other field" : names_of(allowed)) +
                   "; got \"" + key + "\"");
      }
    }
    if (!errors.empty()) return errors_response(errors);
    std::shared_ptr<const Catalog> catalog = state.catalog;
    if (request.contains("region") || request.contains("regions")) {
      auto choice = detail::read_region_choice(*state.catalog, request, r);
      if (!choice) return errors_response(errors);
      catalog = view(state, *choice);
    }
    Session s(*catalog, request, errors);
    Json result = known->answer(*catalog, s, request);
    if (!errors.empty() || result.is_null()) {
      if (errors.empty()) errors.push_back({"cannot_answer", kRequest, "", "the request could not be answered"});
      return errors_response(errors);
    }
    return ok(*catalog, q, std::move(result));
  }
}

}  // namespace

std::string Analyzer::analyze_json(const std::string& request, int indent) const {
  Errors errors;
  auto parsed = detail::parse_checked(request, kRequest, detail::kRequestLimits, errors);
  const Json response = parsed ? analyze(*this, *parsed) : errors_response(errors);
  std::string text = response.dump(indent, ' ', false, Json::error_handler_t::replace);
  if (text.size() > kMaxAnswerBytes) {
    return errors_response({{"too_large", kRequest, "",
                             "the answer would be " + decimal::whole(text.size()) + " bytes, over the limit of " +
                                 decimal::whole(kMaxAnswerBytes) + ": ask for less (a limit, fewer models or rows, a narrower catalog)"}})
        .dump(indent);
  }
  return text;
}

}  // namespace gpufleet
