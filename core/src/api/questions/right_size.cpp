// The "right_size" question (seed 000's right-sizing): for each model, the memory it needs, the
// smallest GPU that holds it, and the cheapest instance that does.
#include <algorithm>
#include <utility>

#include "api/answers.hpp"
#include "api/questions/memory.hpp"
#include "fleet/road.hpp"
#include "pricing/prices.hpp"
#include "support/decimal.hpp"

namespace gpufleet::detail {

using report::round_to;

// Seed 000's right-sizing: for each model, the memory it needs (the memory model at the request's
// settings), the smallest GPU that holds it, and the cheapest instance that does (with as many GPUs
// as tensor parallelism needs), priced per month.
Json answer_right_size(const Catalog& catalog, Session& s, const Json& req) {
  Reader& r = s.reader();
  const Json* models = r.member(req, "models", "", true);
  if (!models) return nullptr;
  if (!models->is_array() || models->empty() || models->size() > 64) {
    r.fail("wrong_type", "/models",
           "expected an array of 1 to 64 requests like {\"model\": {\"name\": ...}, "
           "\"weight_format\": ...}, got " +
               Reader::describe(*models));
    return nullptr;
  }
  const double hours =
      r.number(req, "hours_per_month", "", false, {1, kMaxHoursPerMonth}).value_or(720);
  const std::vector<std::string> providers = s.providers(req, "");
  Json rows = Json::array();
  for (std::size_t i = 0; i < models->size(); ++i) {
    const std::string path = "/models/" + decimal::whole(i);
    if (!r.expect_object((*models)[i], path)) return nullptr;
    const auto named = with_older_names(s, (*models)[i], path, RoadQuestion::kMemory);
    if (!named) return nullptr;
    const Json& item = *named;
    const std::vector<std::string> allowed = words(kMemoryFields);
    for (const auto& [key, value] : item.items()) {
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        r.fail("unknown_field", Reader::child(path, key),
               "expected one of " + names_of(allowed) + " (the fields of the memory question); got \"" + key + "\"");
        return nullptr;
      }
    }
    Errors local;
    Reader lr(kRequest, local);
    auto model = read_model(s, item, path);
    const GpuSpec* unused = nullptr;
    std::optional<MemoryQuestion> q;
    if (model) q = read_question(catalog, lr, item, *model, unused);
    if (q) {
      MemoryAnswer a = estimate_memory(catalog.memory, *q);
      for (const auto& [field, message] : a.faults) lr.fail("unknown_name", "/" + field, message);
    }
    for (auto& e : local) r.fail(e.code, path + e.path, e.message);
    if (!r.ok()) return nullptr;
    const MemoryEstimate e = *estimate_memory(catalog.memory, *q).estimate;
    Json row;
    row["model"] = model->label;
    row["key"] = model->named ? model->named->key : "";
    row["weights_gb"] = report::gb(e.weights_bytes);
    row["min_vram_gb"] = report::gb(e.total_bytes);
    row["min_vram_gib"] = gib(e.total_bytes);
    // The smallest GPU of the catalog that holds it on its own.
    const GpuSpec* smallest = nullptr;
    double smallest_bytes = 0;
    for (const auto& [key, spec] : catalog.gpus) {
      const double cap = spec.usable_bytes();
      if (cap >= e.total_bytes && (!smallest || cap < smallest_bytes)) {
        smallest = &spec;
        smallest_bytes = cap;
      }
    }
    row["smallest_gpu"] = smallest ? Json(smallest->name) : Json(nullptr);
    // The cheapest priced GPU instance that holds it, splitting over its GPUs when one is too
    // small.
    const InstanceType* best = nullptr;
    double best_price = 0, best_gpus = 0;
    for (const auto& it : catalog.instances) {
      if (!priced_on_demand(it, Kinds::kGpus, providers)) continue;
      const double need = smallest_fitting_tp(catalog, *q, it);
      if (need == 0) continue;
      const double price = *it.on_demand_usd_per_hour;
      if (!best || price < best_price) {
        best = &it;
        best_price = price;
        best_gpus = need;
      }
    }
    if (best) {
      row["cheapest_instance"] = {{"instance", best->name},
                                  {"provider", best->provider},
                                  {"gpu_type", best->gpu_type},
                                  {"gpus_used", best_gpus},
                                  {"gpus_per_instance", best->gpus},
                                  {"usd_per_hour", best_price},
                                  {"usd_per_month", round_to(best_price * hours, 2)},
                                  {"basis", "$" + report::short_number(best_price) + "/h x " +
                                                report::short_number(hours) + " h"}};
    } else {
      row["cheapest_instance"] = nullptr;
    }
    row["per_gpu"] = breakdown(e);
    rows.push_back(std::move(row));
  }
  return {{"models", rows},
          {"hours_per_month", hours},
          {"basis",
           "memory from the architecture-aware model at each request's settings (batch, context, "
           "engine); the cheapest "
           "on-demand GPU instance whose GPUs hold it, split by tensor parallelism over up to all "
           "of its GPUs"}};
}

}  // namespace gpufleet::detail
