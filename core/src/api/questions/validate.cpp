// "validate": the catalog's counts, unpriced instance types and warnings.

#include "api/questions/questions.hpp"

#include "pricing/prices.hpp"

namespace gpufleet::detail {

Json answer_validate(const Catalog& catalog, Session&, const Json&) {
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

}  // namespace gpufleet::detail
