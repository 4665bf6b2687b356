// "workload", "workload_set" and "workloads": the catalog's scenarios run as migration reports (seed 004).

#include "api/questions/questions.hpp"

#include "api/answers.hpp"
#include "fleet/recommend.hpp"
#include "fleet/road.hpp"
#include "support/text.hpp"

namespace gpufleet::detail {
namespace {

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

}  // namespace

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

Json workload_list(const Catalog& catalog) {
  Json list = Json::array();
  for (const auto& w : catalog.workloads) list.push_back(workload_summary(w));
  Json sets = Json::object();
  for (const auto& [key, members] : catalog.workload_sets) sets[key] = members;
  return {{"workloads", list}, {"workload_sets", sets}};
}

Json answer_workloads(const Catalog& catalog, Session&, const Json&) { return workload_list(catalog); }

}  // namespace gpufleet::detail
