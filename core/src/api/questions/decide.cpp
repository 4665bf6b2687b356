// "decide": GPU, Trainium, Inferentia or CPU, by the guide's decision trees (seed 002).

#include "api/questions/questions.hpp"

#include <utility>

#include "api/answers.hpp"
#include "api/request_fields.hpp"
#include "fleet/decide.hpp"

namespace gpufleet::detail {

Json answer_decide(const Catalog& catalog, Session& s, const Json& req) {
  Reader& r = s.reader();
  DecisionInput in;
  auto w = s.road_workload(req, "", true);
  auto billed = s.billing(req, "");
  in.providers = s.providers(req, "");
  // The allowed values are the field table's (api/request_fields.cpp).
  in.framework = pick(r, "decide", req, "framework").value_or(in.framework);
  in.model_kind = pick(r, "decide", req, "model_kind").value_or(in.model_kind);
  in.goal = pick(r, "decide", req, "goal").value_or(in.goal);
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
