#include "catalog/catalog.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "catalog/fields.hpp"
#include "catalog/gpu_instances_reader.hpp"
#include "catalog/model_catalog.hpp"
#include "support/decimal.hpp"
#include "support/json_guard.hpp"
#include "support/json_reader.hpp"
#include "support/small_sort.hpp"

namespace gpufleet {
namespace {

using detail::lower;
using detail::Range;
using detail::Reader;

constexpr double kMaxHoursPerMonth = 744.0;  // 31 days x 24 h
// What a catalog may hold (docs/api.md, "Limits"; the instance catalog's in
// gpu_instances_reader.cpp).
constexpr std::size_t kMaxWorkloads = 256;
constexpr std::size_t kMaxWorkloadSets = 64;


std::optional<Json> parse_document(const std::string& text, const char* file, Errors& errors) {
  auto doc = detail::parse_checked(text, file, detail::kCatalogLimits, errors);
  if (doc && !doc->is_object()) {
    errors.push_back({"wrong_type", file, "",
                      "expected a JSON object at the top level, got " + Reader::describe(*doc)});
    return std::nullopt;
  }
  return doc;
}

void read_model_config(const Reader& r, const Json& doc, Catalog& catalog) {
  if (const Json* sizes = r.object(doc, "model_sizes", "", true)) {
    for (const auto& [key, value] : sizes->items()) {
      const std::string path = Reader::child("/model_sizes", key);
      if (!r.expect_object(value, path)) continue;
      detail::fields::check_fields(r, value, path, "model_size");
      ModelSize size;
      size.key = key;
      size.name = r.string(value, "name", path, true).value_or(key);
      size.description = r.string(value, "description", path, false).value_or("");
      size.parameter_count_billion =
          r.number(value, "parameter_count_billion", path, true, {0, 100000, true}).value_or(0);
      size.memory_overhead_multiplier =
          r.number(value, "memory_overhead_multiplier", path, true, {1, 100}).value_or(1);
      size.typical_use_cases = r.strings(value, "typical_use_cases", path, false);
      size.examples = r.strings(value, "examples", path, false);
      catalog.model_sizes.push_back(size);
    }
  }
  if (const Json* precisions = r.object(doc, "precision_formats", "", true)) {
    for (const auto& [key, value] : precisions->items()) {
      const std::string path = Reader::child("/precision_formats", key);
      if (!r.expect_object(value, path)) continue;
      detail::fields::check_fields(r, value, path, "precision_format");
      Precision p;
      p.key = lower(key);
      p.name = r.string(value, "name", path, true).value_or(key);
      p.bytes_per_parameter =
          r.number(value, "bytes_per_parameter", path, true, {0, 16, true}).value_or(1);
      p.description = r.string(value, "description", path, false).value_or("");
      p.native_architectures = r.strings(value, "native_architectures", path, false);
      catalog.precisions.push_back(p);
    }
  }
  if (const Json* planning = r.object(doc, "memory_planning", "", true)) {
    detail::fields::check_fields(r, *planning, "/memory_planning", "memory_planning");
    auto& mp = catalog.planning;
    mp.training_multiplier =
        r.number(*planning, "training_multiplier", "/memory_planning", true, {1, 100}).value_or(1);
    mp.fine_tuning_multiplier =
        r.number(*planning, "fine_tuning_multiplier", "/memory_planning", true, {1, 100}).value_or(1);
    mp.inference_multiplier =
        r.number(*planning, "inference_multiplier", "/memory_planning", true, {1, 100}).value_or(1);
    mp.source = r.string(*planning, "source", "/memory_planning", false).value_or("");
  }
}

void read_workloads(const Reader& r, const Json& doc, Catalog& catalog) {
  if (const Json* workloads = r.object(doc, "workloads", "", true); workloads && r.at_most(*workloads, "/workloads", kMaxWorkloads, "workloads")) {
    for (const auto& [id, value] : workloads->items()) {
      const std::string path = Reader::child("/workloads", id);
      if (!r.expect_object(value, path)) continue;
      detail::fields::check_fields(r, value, path, "workload");
      WorkloadScenario w;
      w.id = id;
      w.name = r.string(value, "name", path, true).value_or(id);
      w.description = r.string(value, "description", path, false).value_or("");
      w.expected_outcome = r.string(value, "expected_outcome", path, false).value_or("");
      w.tags = r.strings(value, "tags", path, false);
      const Json* scenario = r.object(value, "scenario", path, true);
      if (!scenario) continue;
      const std::string sp = path + "/scenario";
      detail::fields::check_fields(r, *scenario, sp, "scenario");
      Scenario& s = w.scenario;
      if (auto inst = r.string(*scenario, "current_instance", sp, true)) {
        s.current_instance = *inst;
        if (!catalog.instance(*inst) && !catalog.family(*inst)) {
          r.fail("unknown_name", sp + "/current_instance",
                 "expected an instance family or instance type of gpu_instances.json, got \"" +
                     *inst + "\"");
        }
      }
      s.current_gpu_count =
          r.number(*scenario, "current_gpu_count", sp, true, {0, 4096, true}).value_or(1);
      if (auto type = r.string(*scenario, "workload_type", sp, true)) {
        if (auto parsed = parse_workload_type(*type)) {
          s.workload_type = *parsed;
        } else {
          r.fail("unknown_name", sp + "/workload_type",
                 "expected one of INFERENCE, FINE_TUNING, TRAINING, got \"" + *type + "\"");
        }
      }
      if (auto size = r.string(*scenario, "model_size", sp, true)) {
        s.model_size = lower(*size);
        if (!catalog.model_size(*size)) {
          r.fail("unknown_name", sp + "/model_size",
                 "expected a key of model_sizes in model_config.json, got \"" + *size + "\"");
        }
      }
      s.monthly_hours =
          r.number(*scenario, "monthly_hours", sp, false, {0, kMaxHoursPerMonth, true}).value_or(720);
      s.use_spot = r.boolean(*scenario, "use_spot", sp, false).value_or(false);
      s.precision = lower(r.string(*scenario, "precision", sp, false).value_or("fp16"));
      if (!catalog.precision(s.precision)) {
        r.fail("unknown_name", sp + "/precision",
               "expected a key of precision_formats in model_config.json, got \"" + s.precision +
                   "\"");
      }
      s.priority = lower(r.string(*scenario, "priority", sp, false).value_or("cost"));
      if (s.priority != "cost" && s.priority != "performance" && s.priority != "balanced") {
        r.fail("unknown_name", sp + "/priority",
               "expected one of cost, performance, balanced, got \"" + s.priority + "\"");
      }
      catalog.workloads.push_back(w);
    }
  }
  if (const Json* sets = r.object(doc, "workload_sets", "", false); sets && r.at_most(*sets, "/workload_sets", kMaxWorkloadSets, "workload sets")) {
    for (const auto& [id, value] : sets->items()) {
      const std::string path = Reader::child("/workload_sets", id);
      if (!value.is_array()) {
        r.fail("wrong_type", path, "expected an array of workload ids, got " + Reader::describe(value));
        continue;
      }
      if (!r.at_most(value, path, kMaxWorkloads, "workload ids")) continue;
      std::vector<std::string> members = r.strings(*sets, id, "/workload_sets", true);
      for (std::size_t i = 0; i < members.size(); ++i) {
        if (!catalog.workload(members[i])) {
          r.fail("unknown_name", path + "/" + decimal::whole(i),
                 "expected a workload id defined under \"workloads\", got \"" + members[i] + "\"");
        }
      }
      catalog.workload_sets.emplace_back(id, members);
    }
  }
}

template <typename T>
const T* find_by(const std::vector<T>& items, const std::string& wanted, std::string T::*key) {
  for (const auto& item : items) {
    if (detail::iequals(item.*key, wanted)) return &item;
  }
  return nullptr;
}

}  // namespace

std::string to_string(WorkloadType type) {
  switch (type) {
    case WorkloadType::kInference: return "inference";
    case WorkloadType::kBatchInference: return "batch_inference";
    case WorkloadType::kFineTuning: return "fine_tuning";
    case WorkloadType::kLora: return "lora";
    case WorkloadType::kQlora: return "qlora";
    case WorkloadType::kTraining: return "training";
  }
  return "inference";
}

std::optional<WorkloadType> parse_workload_type(const std::string& text) {
  std::string t = lower(text);
  std::replace(t.begin(), t.end(), '-', '_');
  if (t == "inference") return WorkloadType::kInference;
  if (t == "batch_inference" || t == "batch") return WorkloadType::kBatchInference;
  if (t == "fine_tuning" || t == "finetuning" || t == "full_finetune") return WorkloadType::kFineTuning;
  if (t == "lora") return WorkloadType::kLora;
  if (t == "qlora") return WorkloadType::kQlora;
  if (t == "training" || t == "pretraining") return WorkloadType::kTraining;
  return std::nullopt;
}

const Family* Catalog::family(const std::string& key) const {
  auto found = family_index.find(lower(key));
  return found == family_index.end() ? nullptr : &families[found->second];
}
const InstanceType* Catalog::instance(const std::string& name) const {
  auto found = instance_index.find(lower(name));
  return found == instance_index.end() ? nullptr : &instances[found->second];
}
const ModelSize* Catalog::model_size(const std::string& key) const {
  return find_by(model_sizes, key, &ModelSize::key);
}
const Precision* Catalog::precision(const std::string& key) const {
  return find_by(precisions, key, &Precision::key);
}
const WorkloadScenario* Catalog::workload(const std::string& id) const {
  return find_by(workloads, id, &WorkloadScenario::id);
}
std::string Catalog::usual_region(const std::string& provider) const {
  auto terms = providers.find(provider);
  if (terms != providers.end() && !terms->second.region.empty()) return terms->second.region;
  for (const auto& it : instances) {
    if (it.provider == provider) return it.region;
  }
  return "";
}

std::string Catalog::prices_as_of() const {
  std::string oldest;
  for (const auto& it : instances) {
    if (!it.on_demand_usd_per_hour && !it.spot_usd_per_hour) continue;
    const std::string& d = it.source_date;
    if (d.size() != 10 || d[4] != '-' || d[7] != '-') return "unknown";  // an undated snapshot
    if (oldest.empty() || d < oldest) oldest = d;
  }
  return oldest;
}

const WayToPay* ProviderTerms::way(const std::string& id) const {
  for (const auto& w : ways)
    if (w.id == id) return &w;
  return nullptr;
}

const ProviderTerms* Catalog::provider(const std::string& key) const {
  auto it = providers.find(key);  // catalog keys are lower case: the sizing loop's case
  if (it == providers.end()) it = providers.find(detail::lower(key));
  return it == providers.end() ? nullptr : &it->second;
}

std::string Catalog::provider_name(const std::string& key) const {
  const ProviderTerms* terms = provider(key);
  return terms && !terms->name.empty() ? terms->name : key;
}

std::string device_name(const InstanceType& it) {
  if (it.accelerator_kind == "trainium") return "Trainium chip";
  if (it.accelerator_kind == "inferentia") return "Inferentia chip";
  return "GPU";
}

std::string price_flag_name(const std::string& code) {
  static const std::map<std::string, std::string> kNames{
      {"cross_region_price", "on-demand far below the same instance's price in other regions"},
      {"marked_anomaly", "marked untrusted in the catalog's price overrides"},
      {"sentinel_price", "a placeholder price, not a real one"},
      {"spot_not_below_on_demand", "spot not below on-demand"},
      {"implausible_gpu_count", "an accelerator count no instance has"},
      {"unknown_name", "not used"},  // a price file or offer the catalog does not know
  };
  auto found = kNames.find(code);
  if (found != kNames.end()) return found->second;
  std::string words = code;
  std::replace(words.begin(), words.end(), '_', ' ');
  return words;
}

const std::vector<std::string>* Catalog::workload_set(const std::string& id) const {
  for (const auto& [key, members] : workload_sets) {
    if (detail::iequals(key, id)) return &members;
  }
  return nullptr;
}

bool Catalog::precision_native(const Precision& p, const InstanceType& it) const {
  if (it.accelerator_kind == "cpu") return true;  // software kernels for every format
  // The datasheet is the evidence: a precision is native where the spec lists its throughput.
  auto spec = gpus.find(it.gpu_model);
  if (spec != gpus.end() && !spec->second.tflops.empty()) return spec->second.tflops.count(p.key) > 0;
  if (it.arch.empty() || p.native_architectures.empty()) return true;  // unknown: not excluded
  return std::any_of(p.native_architectures.begin(), p.native_architectures.end(),
                     [&](const std::string& a) { return detail::istarts_with(it.arch, a); });
}

const NamedModel* Catalog::model(const std::string& key) const {
  for (const NamedModel& m : models) {
    if (detail::iequals(m.key, key) || detail::iequals(m.hf_id, key)) return &m;
    for (const auto& alias : m.aliases) {
      if (detail::iequals(alias, key)) return &m;
    }
  }
  return nullptr;
}

bool Catalog::gpu_has_nvlink(const std::string& gpu_key) const {
  return std::any_of(instances.begin(), instances.end(), [&](const InstanceType& it) {
    return it.nvlink_domain_gpus > 1 && it.gpus > 1 && detail::iequals(it.gpu_model, gpu_key);
  });
}

const GpuSpec* Catalog::gpu(const std::string& name) const {
  // Exact key first, then a GPU whose key starts with the name ("H100" -> "H100-SXM-80GB").
  if (name.empty()) return nullptr;  // an empty name is no GPU, not a prefix of every GPU
  if (auto exact = gpus.find(name); exact != gpus.end()) return &exact->second;  // the sizing loop's case
  for (const auto& [key, spec] : gpus) {
    if (detail::iequals(key, name)) return &spec;
  }
  // Several GPUs share the prefix ("H100" -> SXM and NVL): the one most instances carry.
  const GpuSpec* best = nullptr;
  std::size_t best_count = 0;
  for (const auto& [key, spec] : gpus) {
    if (!detail::istarts_with(key, name)) continue;
    const std::string& model = key;  // clang 14 cannot capture a structured binding
    const std::size_t count = static_cast<std::size_t>(
        std::count_if(instances.begin(), instances.end(), [&](const InstanceType& it) { return it.gpu_model == model; }));
    if (!best || count > best_count) {
      best = &spec;
      best_count = count;
    }
  }
  return best;
}

DeviceSpec Catalog::device(const GpuSpec& spec) const {
  DeviceSpec d;
  d.name = spec.name;
  d.vendor = spec.vendor;
  d.memory_bytes = spec.usable_bytes();
  d.bandwidth_gb_per_s = spec.memory_bandwidth_gb_per_s.value_or(0);
  d.tflops = spec.tflops;
  d.compute_capability = spec.compute_capability;
  auto link = throughput.link_gb_per_s.find(spec.name);
  d.link_gb_per_s = link != throughput.link_gb_per_s.end() ? link->second : 0;
  return d;
}

CatalogFiles read_catalog_files(const CatalogSources& sources) {
  CatalogFiles load;
  load.catalog = std::make_shared<Catalog>();
  auto& built = load.catalog;
  Catalog& catalog = *built;
  auto gpu_doc = parse_document(sources.gpu_instances_json, kGpuInstancesFile, load.errors);
  auto model_doc = parse_document(sources.model_config_json, kModelConfigFile, load.errors);
  auto workloads_doc = parse_document(sources.workloads_json, kWorkloadsFile, load.errors);
  if (gpu_doc) {
    detail::read_gpu_instances(Reader(kGpuInstancesFile, load.errors), *gpu_doc, catalog);
    catalog.gpu_instances_doc = std::move(*gpu_doc);
    load.gpu_instances_read = load.errors.empty();
  }
  if (model_doc) {
    detail::fields::check_fields(Reader(kModelConfigFile, load.errors), *model_doc, "", "model_config_file");
    read_model_config(Reader(kModelConfigFile, load.errors), *model_doc, catalog);
    detail::read_model_catalog(Reader(kModelConfigFile, load.errors), *model_doc, catalog);
    catalog.model_config_doc = std::move(*model_doc);
  }
  // Workloads refer to the other two files; check them only when those loaded.
  if (workloads_doc && gpu_doc && model_doc) {
    detail::fields::check_fields(Reader(kWorkloadsFile, load.errors), *workloads_doc, "", "workloads_file");
    read_workloads(Reader(kWorkloadsFile, load.errors), *workloads_doc, catalog);
    catalog.workloads_doc = std::move(*workloads_doc);
  }
  return load;
}

namespace detail {

void index_families(Catalog& catalog) {
  catalog.family_index.clear();
  catalog.instance_index.clear();
  std::map<std::string, std::size_t> by_key;  // exact family key -> index
  for (std::size_t f = 0; f < catalog.families.size(); ++f) {
    catalog.families[f].instances.clear();
    by_key.emplace(catalog.families[f].key, f);
    catalog.family_index.emplace(lower(catalog.families[f].key), f);
  }
  for (std::size_t i = 0; i < catalog.instances.size(); ++i) {
    catalog.instance_index.emplace(lower(catalog.instances[i].name), i);
    if (auto f = by_key.find(catalog.instances[i].family_key); f != by_key.end())
      catalog.families[f->second].instances.push_back(i);
  }
  // Within a family: fewest GPUs first, priced before unpriced, then cheapest.
  for (auto& family : catalog.families) {
    small_stable_sort(family.instances.begin(), family.instances.end(), [&](std::size_t a, std::size_t b) {
      const auto& x = catalog.instances[a];
      const auto& y = catalog.instances[b];
      if (x.gpus != y.gpus) return x.gpus < y.gpus;
      if (x.on_demand_usd_per_hour.has_value() != y.on_demand_usd_per_hour.has_value())
        return x.on_demand_usd_per_hour.has_value();
      return x.on_demand_usd_per_hour.value_or(0) < y.on_demand_usd_per_hour.value_or(0);
    });
  }
}

}  // namespace detail

}  // namespace gpufleet
