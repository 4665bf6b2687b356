// "recommend" (ranked deployments) and "migrate" (a migration report against today's deployment).

#include "fleet/recommend.hpp"

#include "api/answers.hpp"
#include "api/questions/questions.hpp"
#include "catalog/fields.hpp"
#include "fleet/band.hpp"
#include "support/decimal.hpp"

namespace gpufleet::detail {

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
  Json result = report::object(7);
  // The first pick's speed without a measured error is said before anything else.
  if (!rec.ranked.empty() && rec.ranked.front().d.uncalibrated)
    result["first_pick_caveat"] =
        "the first pick, " +
        report::uncalibrated_caveat(rec.ranked.front().d,
                                    throughput_kind(catalog, q->w, *rec.ranked.front().d.instance));
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
  return report::price_flags_first(report::migration(report, *q), report.current.d.cost);
}

}  // namespace gpufleet::detail
