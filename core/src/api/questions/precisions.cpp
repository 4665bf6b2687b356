// "precisions": weights by precision for a model, and the families that run each natively (seed 004).

#include "api/questions/questions.hpp"

#include "api/answers.hpp"

namespace gpufleet::detail {

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

}  // namespace gpufleet::detail
