// "catalog": the catalog's rows and the menus a form offers (the page's first question).

#include "api/questions/questions.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "api/answers.hpp"
#include "api/request_fields.hpp"
#include "catalog/model_names.hpp"
#include "pricing/prices.hpp"
#include "support/json_guard.hpp"
#include "support/small_sort.hpp"
#include "support/text.hpp"

namespace gpufleet::detail {
namespace {

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

// The choices of a workload form that are the core's own (tasks with the memory question's mode for
// each, priorities, ways of paying), named for a person: text, not code, in the WebAssembly core (tests/unit/analyzer_test.cpp asks
// every key of the questions that take it).
constexpr const char* kChoices =
    R"j({"tasks":[{"key":"inference","name":"Inference (serving)","memory_mode":"inference"},)j"
    R"j({"key":"batch_inference","name":"Batch inference","memory_mode":"inference"},)j"
    R"j({"key":"fine_tuning","name":"Fine-tuning (full)","memory_mode":"full_finetune"},)j"
    R"j({"key":"lora","name":"LoRA fine-tuning","memory_mode":"lora"},)j"
    R"j({"key":"qlora","name":"QLoRA fine-tuning","memory_mode":"qlora"},{"key":"training","name":"Training","memory_mode":"pretraining"}],)j"
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

// A model's name as typed: the catalog model it names (key, name, how it matched), else null with
// the nearest models, ranked, and the way out (a Hugging Face config.json).
Json model_name_answer(const Catalog& catalog, const std::string& typed) {
  const ModelNameMatch match = resolve_model_name(catalog.models, typed);
  Json suggestions = Json::array();
  for (const NamedModel* m : match.suggestions)
    suggestions.push_back({{"key", m->key}, {"name", m->name}});
  Json j = report::object(7);
  j["typed"] = typed;
  j["key"] = match.model ? Json(match.model->key) : Json(nullptr);
  j["name"] = match.model ? Json(match.model->name) : Json(nullptr);
  j["matched_by"] = match.model ? Json(match.how) : Json(nullptr);
  j["suggestions"] = std::move(suggestions);
  j["message"] = match.model ? Json(nullptr) : Json(unknown_model_message(match, typed));
  return j;
}

}  // namespace

Json answer_catalog(const Catalog& catalog, Session& s, const Json& req) {
  const std::string section = pick(s.reader(), "catalog", req, "section").value_or("all");
  const auto typed = s.reader().string(req, "model_name", "", section == "model_name");
  if (!s.reader().ok()) return nullptr;
  Json result;
  if (typed) result["model_name"] = model_name_answer(catalog, *typed);
  if (section == "model_name") return result;
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
  if (all || menu_only) {
    choice_menus(catalog, result);
    // The questions and the request fields' allowed values (the field table's): the page's and
    // the CLI's lists of values.
    result["request"] = request_menus();
  }
  if (all || menu_only || section == "precisions") result["precision_formats"] = catalog.model_config_doc["precision_formats"];
  if (all || menu_only || section == "workloads") result["workloads"] = workload_list(catalog);
  if (section == "files") {
    result["files"] = {{kGpuInstancesFile, catalog.gpu_instances_doc},
                       {kModelConfigFile, catalog.model_config_doc},
                       {kWorkloadsFile, catalog.workloads_doc}};
  }
  return result;
}

}  // namespace gpufleet::detail
