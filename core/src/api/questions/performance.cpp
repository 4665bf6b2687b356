// "performance": setups compared on one model (the road) or on catalog figures (seed 004). The page's module leaves it out.

#include "api/answers.hpp"
#include "api/questions/questions.hpp"
#include "catalog/fields.hpp"
#include "fleet/band.hpp"
#include "fleet/road.hpp"
#include "fleet/seed_score.hpp"
#include "support/decimal.hpp"

namespace gpufleet::detail {

namespace {
// The setup's figures at the measured error of its throughput: the deployment's band (capacity,
// cost, $ per 1M tokens) with the score's range, score / (1 + p90) to score / (1 - p90).
Json score_band(const Catalog& catalog, const Workload& w, const Billing& billing,
                const Deployment& d, double score) {
  const DeploymentBand b = deployment_band(catalog, w, billing, d);
  Json band = report::band(b, d);
  if (!b.kind.measured) return band;
  const MeasuredRange m = measured_range(score, b.kind.measured->p90_abs_err_pct);
  Json range = report::object(2);
  report::add(range, "low", round_to(m.low, 1));
  report::add(range, "high", report::report_optional(m.high, 1));
  band["score"] = std::move(range);
  return band;
}
}  // namespace

Json answer_performance(const Catalog& catalog, Session& s, const Json& req) {
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
      if (d.runs()) report::add(row, "band", score_band(catalog, *w, *billed, d, score));
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

}  // namespace gpufleet::detail
