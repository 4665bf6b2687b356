// "placement": models packed onto GPUs by memory, whole or split over instances (seed 000).

#include "api/questions/questions.hpp"

#include <utility>

#include "api/answers.hpp"
#include "catalog/fields.hpp"
#include "fleet/placement.hpp"
#include "pricing/prices.hpp"
#include "support/decimal.hpp"

namespace gpufleet::detail {
namespace {

using report::round_to;

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
  const std::string& kind = packing.instance->accelerator_kind;
  if (kind == "inferentia" || kind == "trainium")
    j["note"] = "AWS Neuron: every model placed here must be compiled for Neuron first (torch-neuronx or NxD "
                "Inference traces each model and input shape) and its architecture supported by the Neuron SDK; "
                "models the SDK does not support (check the Neuron model architecture support list) cannot run "
                "here, whatever their memory";
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
    if (!fields::check_fields(r, m, mp, m.contains("memory_gb") ? "placement_model_by_memory" : "placement_model")) return nullptr;
    ModelLoad load;
    load.name = r.string(m, "name", mp, true).value_or("");
    if (m.contains("memory_gb")) {
      auto gb = r.number(m, "memory_gb", mp, true, {0, 100000, true});
      if (!gb) return nullptr;
      load.bytes = *gb * 1e9;
      load.basis = "given: " + report::short_number(*gb) + " GB";
    } else {
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
    if (!priced_on_demand(it, Kinds::kAccelerators, providers)) continue;
    for (int k = 1; k <= most; ++k) {
      Packing packing = pack(it, k, models);
      if (!packing.fits) continue;
      Placement p{&it, it.gpus * k, k, it.name, false, ""};
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

}  // namespace gpufleet::detail
