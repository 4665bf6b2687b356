// "cost": a placement's price, on spot, and in each region asked. The page's module leaves it out.

#include "api/questions/questions.hpp"

#include <utility>
#include <vector>

#include "api/answers.hpp"
#include "pricing/cost.hpp"
#include "pricing/prices.hpp"
#include "support/small_sort.hpp"
#include "support/text.hpp"

namespace gpufleet::detail {
namespace {

// The same placement in every region asked, cheapest first, each against the first region named
// (or the provider's usual region with "all"): seed 003's "5-15 % lower in us-west-2", computed.
Json cost_by_region(const Catalog& catalog, Session& s, const Json& req, const Placement& p, const Billing& billed) {
  auto choice = detail::read_region_choice(catalog, req, s.reader());
  if (!choice) return nullptr;
  std::vector<std::pair<const InstanceType*, Cost>> rows;
  for (const InstanceType* offer : detail::offers_in(catalog, p.instance->name, *choice)) {
    Placement here = p;
    here.instance = offer;
    rows.emplace_back(offer, cost_of(catalog, here, billed));
  }
  detail::small_stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    if (a.second.usd_per_month.has_value() != b.second.usd_per_month.has_value()) return a.second.usd_per_month.has_value();
    return a.second.usd_per_month.value_or(0) < b.second.usd_per_month.value_or(0);
  });
  const std::string reference = choice->all || !req["regions"].is_array() || req["regions"].empty()
                                    ? catalog.usual_region(p.instance->provider)
                                    : lower(req["regions"][0].get<std::string>());
  const Cost* base = nullptr;
  for (const auto& [offer, cost] : rows) {
    if (offer->region == reference && cost.usd_per_month) base = &cost;
  }
  Json list = Json::array();
  for (const auto& [offer, cost] : rows) {
    Json row = report::object(8);
    row["region"] = offer->region;
    row["usd_per_hour"] = report::report_optional(cost.usd_per_hour, 4);
    row["usd_per_month"] = report::report_optional(cost.usd_per_month, 2);
    row["pricing"] = cost.pricing;
    if (base && cost.usd_per_month && *base->usd_per_month > 0) {
      row["difference_usd_per_month"] = round_to(*cost.usd_per_month - *base->usd_per_month, 2);
      row["difference_pct"] = round_to(100 * (*cost.usd_per_month / *base->usd_per_month - 1), 1);
    }
    if (!offer->price_flags.empty()) {
      row["suspect"] = offer->price_flags;
      row["suspect_reason"] = price_flag_name(offer->price_flags.front());
    }
    if (!cost.note.empty()) row["note"] = cost.note;
    list.push_back(std::move(row));
  }
  return {{"reference_region", reference}, {"regions", std::move(list)}};
}

}  // namespace

Json answer_cost(const Catalog& catalog, Session& s, const Json& req) {
  auto p = s.placement(req, "");
  auto billed = s.billing(req, "");
  if (!p || !billed) return nullptr;
  Json result;
  result["placement"] = report::placement(*p);
  const Cost cost = cost_of(catalog, *p, *billed);
  result["cost"] = report::cost(cost, true);
  Billing spot = *billed;
  spot.mode = PaymentMode::kSpot;
  result["spot"] = report::cost(cost_of(catalog, *p, spot));
  result["pricing_note"] = "Prices are per instance-hour; N GPUs are served by whole instances";
  if (req.contains("regions")) result["by_region"] = cost_by_region(catalog, s, req, *p, *billed);
  return report::price_flags_first(std::move(result), cost);
}

}  // namespace gpufleet::detail
