// The spot question: the pools (instance type x region) that run a workload, each with its
// interruption band, and the cheapest on-demand base + spot plan that meets a target availability
// (serving), or a training job's checkpoint interval, interruptions, wall time and cost on spot.
#include "api/questions/spot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "api/answers.hpp"
#include "fleet/band.hpp"
#include "fleet/road.hpp"
#include "fleet/spot.hpp"
#include "pricing/prices.hpp"
#include "support/decimal.hpp"

namespace gpufleet::detail {
namespace {

using report::round_to;

constexpr int kMaxUnits = 64;        // model copies (or pipeline groups) a plan sizes
constexpr std::size_t kMaxTypes = 8;  // instance types planned (the cheapest on demand)
constexpr std::size_t kMaxPlanPools = 6;
constexpr int kKarpenterTypes = 15;  // Karpenter's spot-to-spot consolidation wants 15 types

struct Band3 {
  double low = 0, point = 0, high = 0;
};

struct PoolRow {
  const InstanceType* offer = nullptr;
  Band3 hazard;  // per unit, per hour
  Band3 up;      // probability a unit is up
  int same_accelerator = 0;
};

struct TypeRow {
  const InstanceType* type = nullptr;
  Deployment d;
  int units = 0;             // needed for the demand
  double unit_instances = 1;  // instances a unit holds (pipeline stages)
  const InstanceType* on_demand = nullptr;  // the cheapest on-demand offer among the regions
  std::vector<PoolRow> pools;
};

Json band3(const Band3& b, int decimals) {
  return {{"low", round_to(b.low, decimals)}, {"point", round_to(b.point, decimals)}, {"high", round_to(b.high, decimals)}};
}

Json finite(double v, int decimals) { return std::isfinite(v) ? Json(round_to(v, decimals)) : Json(nullptr); }

int same_accelerator_types(const Catalog& catalog, const InstanceType& o) {
  std::set<std::string> names;
  for (const InstanceType& x : *catalog.offers) {
    if (x.provider == o.provider && x.region == o.region && x.spot_usd_per_hour && x.gpu_type == o.gpu_type) names.insert(x.name);
  }
  return static_cast<int>(names.size());
}

bool usable(const InstanceType& o) { return o.price_flags.empty() && o.on_demand_usd_per_hour && o.spot_usd_per_hour; }


// What spot's own fields ask (the workload and billing are the road's).
struct SpotAsk {
  double target = 0.999, replacement_h = 10.0 / 60, checkpoint_s = 60, restart_s = 600;
  spot::Reading reading = spot::Reading::kReclaimedFraction;
  std::vector<std::string> only;  // instance_types
};

SpotAsk read_ask(const Catalog& catalog, Reader& r, const Json& req) {
  SpotAsk a;
  a.target = r.number(req, "target_availability", "", false, {0, 1, true}).value_or(0.999);
  if (req.contains("target_availability") && req["target_availability"].is_number() && a.target >= 1) {
    r.fail("out_of_range", "/target_availability", "expected a probability strictly between 0 and 1 (e.g. 0.999), got 1 or more");
  }
  a.replacement_h = r.number(req, "replacement_minutes", "", false, {0, 1440, true}).value_or(10) / 60;
  a.checkpoint_s = r.number(req, "checkpoint_write_s", "", false, {0, 86400, true}).value_or(60);
  a.restart_s = r.number(req, "restart_s", "", false, {0, 86400}).value_or(600);
  if (auto text = r.string(req, "band_reading", "", false)) {
    if (auto parsed = spot::parse_reading(lower(*text))) a.reading = *parsed;
    else r.fail("unknown_name", "/band_reading", "expected reclaimed_fraction or events_per_month, got \"" + *text + "\"");
  }
  a.only = r.strings(req, "instance_types", "", false);
  for (std::size_t i = 0; i < a.only.size(); ++i) {
    if (!catalog.instance(a.only[i])) {
      r.fail("unknown_name", "/instance_types/" + decimal::whole(i), "expected an instance type of gpu_instances.json, got \"" + a.only[i] + "\"");
    }
  }
  return a;
}

// The instance types that run the workload, each on the road once (the device is the same in
// every region), the cheapest on demand first, at most kMaxTypes.
std::vector<TypeRow> types_that_run(const Catalog& catalog, const Workload& w, const Billing& billing,
                                    const std::vector<std::string>& providers, const std::vector<std::string>& only,
                                    const RegionChoice& choice) {
  std::vector<TypeRow> types;
  for (const InstanceType& it : catalog.instances) {
    if (!only.empty() && std::none_of(only.begin(), only.end(), [&](const std::string& n) { return lower(n) == lower(it.name); })) continue;
    if (!providers.empty() && std::find(providers.begin(), providers.end(), it.provider) == providers.end()) continue;
    if (it.accelerator_kind == "cpu" && only.empty()) continue;
    TypeRow t;
    t.type = &it;
    for (const InstanceType* o : offers_in(catalog, it.name, choice)) {
      if (o->family_key != it.family_key || !usable(*o)) continue;
      if (!t.on_demand || *o->on_demand_usd_per_hour < *t.on_demand->on_demand_usd_per_hour) t.on_demand = o;
      PoolRow p;
      p.offer = o;
      t.pools.push_back(p);
    }
    if (!t.on_demand) continue;
    t.d = best_on(catalog, w, billing, *t.on_demand);
    refuse_without_speed(t.d);
    if (!t.d.runs() || !t.d.cost.usd_per_month) continue;
    t.unit_instances = std::max(1.0, t.d.layout.pipeline_parallel);
    t.units = static_cast<int>(std::ceil(t.d.instance_count / t.unit_instances - 1e-9));
    types.push_back(std::move(t));
  }
  std::stable_sort(types.begin(), types.end(), [](const TypeRow& a, const TypeRow& b) {
    return *a.d.cost.usd_per_month < *b.d.cost.usd_per_month;
  });
  if (types.size() > kMaxTypes) types.resize(kMaxTypes);
  return types;
}

// Each pool's row, its band's hazards and chance of being up set on the way; `as_ofs` collects the
// bands' dates.
Json pool_rows(const Catalog& catalog, std::vector<TypeRow>& types, const SpotAsk& ask, std::set<std::string>& as_ofs) {
  Json pools = Json::array();
  for (TypeRow& t : types) {
    for (PoolRow& p : t.pools) {
      const InstanceType& o = *p.offer;
      p.same_accelerator = same_accelerator_types(catalog, o);
      if (o.interruption_band) {
        const InterruptionBand& b = *o.interruption_band;
        const double pts[3] = {b.low_pct, spot::band_point_pct(b.low_pct, b.high_pct), b.high_pct};
        double* hz[3] = {&p.hazard.low, &p.hazard.point, &p.hazard.high};
        double* up[3] = {&p.up.low, &p.up.point, &p.up.high};
        for (int k = 0; k < 3; ++k) {
          *hz[k] = spot::hazard_per_hour(pts[k], ask.reading) * t.unit_instances;
          *up[k] = spot::p_up(*hz[k], ask.replacement_h);
        }
        as_ofs.insert(b.as_of);
      }
      const ProviderTerms* terms = catalog.provider(o.provider);
      Json row = report::object(16);
      row["instance"] = o.name;
      row["region"] = o.region;
      row["provider"] = o.provider;
      row["accelerator"] = o.gpu_type;
      row["on_demand_usd_per_hour"] = round_to(*o.on_demand_usd_per_hour, 4);
      row["spot_usd_per_hour"] = round_to(*o.spot_usd_per_hour, 4);
      row["spot_discount_pct"] = round_to(100 * (1 - *o.spot_usd_per_hour / *o.on_demand_usd_per_hour), 1);
      if (const std::string basis = spot_zone_basis(o); !basis.empty()) row["spot_basis"] = basis;
      if (o.spot_zone_median_usd_per_hour && o.spot_zones > 1) {
        row["spot_zone_median_usd_per_hour"] = round_to(*o.spot_zone_median_usd_per_hour, 4);
      }
      row["instances_for_demand"] = t.d.instance_count;
      row["replicas_for_demand"] = t.units;
      if (o.interruption_band) {
        const InterruptionBand& b = *o.interruption_band;
        row["interruption_band"] = report::interruption_band(b, catalog);
        row["hazard_per_hour"] = band3(p.hazard, 6);
        row["mean_hours_between_interruptions"] = {{"low", finite(1 / p.hazard.high, 1)}, {"point", finite(1 / p.hazard.point, 1)}, {"high", finite(1 / p.hazard.low, 1)}};
        row["p_replica_up"] = band3(p.up, 6);
      } else {
        row["interruption_band"] = {{"label", "unknown"}, {"reason", o.band_unknown}};
      }
      row["notice_s"] = terms ? terms->spot_interruption_notice_s : 0;
      row["same_accelerator_instance_types"] = p.same_accelerator;
      row["below_karpenter_15"] = p.same_accelerator < kKarpenterTypes;
      pools.push_back(std::move(row));
    }
  }

  return pools;
}

// The bands' date against the catalog's, and a warning when they are old or missing.
Json data_age(const std::set<std::string>& as_ofs, const std::string& cat_date) {
  Json data = report::object(6);
  data["bands_as_of"] = as_ofs.empty() ? Json("unknown") : Json(*as_ofs.begin());
  data["catalog_date"] = cat_date;
  if (!as_ofs.empty()) {
    const auto age = spot::days_between(*as_ofs.begin(), cat_date);
    data["age_days"] = age ? Json(*age) : Json(nullptr);
    data["stale"] = !age || *age > 30;
    if (!age || *age > 30) {
      data["warning"] = "the interruption bands are as of " + *as_ofs.begin() + " at the latest, " +
                        (age ? decimal::whole(static_cast<std::size_t>(std::max(0, *age))) + " days" : std::string("an unknown time")) +
                        " before the catalog's date (" + cat_date + "): bands move month to month; refresh with scripts/update-prices --download";
    }
  } else {
    data["stale"] = true;
    data["warning"] = "no pool asked has a published interruption band (Azure and Google publish none): spot replicas are not planned on unknown bands";
  }
  return data;
}

Json assumptions(const SpotAsk& ask) {
  return {
      {"band_reading", spot::to_string(ask.reading)},
      {"band_reading_formula", spot::reading_formula(ask.reading)},
      {"band_point", "the band's midpoint; the open top band (>20 %, written 20-100) at 25 %"},
      {"replacement_minutes", round_to(ask.replacement_h * 60, 2)},
      {"p_replica_up", "1 / (1 + hazard x replacement time): the share of time a spot replica is up (alternating renewal)"},
      {"independence", "replicas and pools are reclaimed independently; reclaims of one pool come together in practice, so the "
                       "probability is an upper estimate: keep capacity for the largest pool's loss"},
      {"billing", "spot replicas are billed every hour (a replacement is billed while it starts); interruption notice: pools[].notice_s"}};
}

// The cheapest on-demand base + spot plan of `units` replicas of `t` over the pools `used`, each
// up with its band's `which` chance.
spot::Plan plan_for(const TypeRow& t, const std::vector<PoolRow*>& used, int units,
                    double Band3::*which, double target) {
  std::vector<spot::Pool> in;
  for (const PoolRow* p : used)
    in.push_back({*p->offer->spot_usd_per_hour * t.unit_instances, p->up.*which});
  return spot::cheapest_plan(units, *t.on_demand->on_demand_usd_per_hour * t.unit_instances, in,
                             target, 2 * units + 8);
}

// The plan at the measured error of the type's throughput: the replicas the demand needs at each
// end, each planned at the band's point as the plan is.
Json plan_band(const Catalog& catalog, const Workload& w, const Billing& billing, const TypeRow& t,
               const std::vector<PoolRow*>& used, double target, double hours) {
  const DeploymentBand b = deployment_band(catalog, w, billing, t.d);
  if (!b.slow || !b.fast) return report::no_band(b.kind);
  Json j = report::object(4);
  const auto units_at = [&](const BandEnd& e) {
    return static_cast<int>(std::ceil(e.instance_count / t.unit_instances - 1e-9));
  };
  const int fewest = units_at(*b.fast), most = units_at(*b.slow);
  const double low = plan_for(t, used, fewest, &Band3::point, target).usd_per_hour * hours;
  const double high = plan_for(t, used, most, &Band3::point, target).usd_per_hour * hours;
  j["replicas_for_demand"] = {{"low", fewest}, {"high", most}};
  j["usd_per_month"] = {{"low", round_to(low, 2)}, {"high", round_to(high, 2)}};
  j["text"] = decimal::whole(static_cast<std::size_t>(fewest)) + "-" +
              decimal::whole(static_cast<std::size_t>(most)) + " replicas for the demand, " +
              usd(round_to(low, 2)) + "-" + usd(round_to(high, 2)) +
              "/month planned the same way," + report::at_measured_error(*b.kind.measured);
  j["expected_error"] = report::band_error(b.kind);
  return j;
}

// Serving: the cheapest on-demand base + spot plan over the types (plan, all_on_demand, all_spot,
// method); false (with the fault) when every type needs too many replicas.
bool plan_serving(const Catalog& catalog, const Workload& w, const Billing& billing, Reader& r,
                  std::vector<TypeRow>& types, double target, double hours, Json& result) {
  // For each type: the cheapest plan at the band's point (and at its ends, for the interval).
  struct Planned {
    TypeRow* t;
    std::vector<PoolRow*> used;
    spot::Plan point, low, high;
  };
  std::optional<Planned> best;
  for (TypeRow& t : types) {
    if (t.units > kMaxUnits) continue;
    std::vector<PoolRow*> known;
    for (PoolRow& p : t.pools) {
      if (p.offer->interruption_band) known.push_back(&p);
    }
    std::stable_sort(known.begin(), known.end(), [](const PoolRow* a, const PoolRow* b) {
      return a->up.point / *a->offer->spot_usd_per_hour > b->up.point / *b->offer->spot_usd_per_hour;
    });
    if (known.size() > kMaxPlanPools) known.resize(kMaxPlanPools);
    const auto plan_at = [&](double Band3::*which) {
      return plan_for(t, known, t.units, which, target);
    };
    Planned pl{&t, known, plan_at(&Band3::point), plan_at(&Band3::low), plan_at(&Band3::high)};
    if (!best || pl.point.usd_per_hour < best->point.usd_per_hour) best = std::move(pl);
  }
  if (!best) {
    r.fail("cannot_answer", "", "the demand needs more than " + decimal::whole(kMaxUnits) +
                                    " replicas on every instance type asked: plan a share of it, or name larger instance types");
    return false;
  }
  TypeRow& t = *best->t;
  const double unit_od = *t.on_demand->on_demand_usd_per_hour * t.unit_instances;
  std::vector<double> p_low, p_high;
  for (PoolRow* p : best->used) {
    p_low.push_back(p->up.low);
    p_high.push_back(p->up.high);
  }
  const spot::Plan& plan = best->point;
  Json spot_rows = Json::array();
  int largest = 0;
  for (std::size_t i = 0; i < best->used.size(); ++i) {
    if (plan.spot_units[i] == 0) continue;
    largest = std::max(largest, plan.spot_units[i]);
    spot_rows.push_back({{"region", best->used[i]->offer->region},
                         {"replicas", plan.spot_units[i]},
                         {"usd_per_hour", round_to(plan.spot_units[i] * *best->used[i]->offer->spot_usd_per_hour * t.unit_instances, 4)}});
  }
  const double low_cost = std::min(best->low.usd_per_hour, plan.usd_per_hour);
  const double high_cost = std::max(best->high.usd_per_hour, plan.usd_per_hour);
  Json j = report::object(14);
  j["instance"] = t.type->name;
  j["replicas_for_demand"] = t.units;
  j["instances_per_replica"] = t.unit_instances;
  j["target_availability"] = target;
  j["on_demand"] = {{"region", t.on_demand->region}, {"replicas", plan.on_demand_units},
                    {"usd_per_hour", round_to(plan.on_demand_units * unit_od, 4)}};
  j["spot"] = std::move(spot_rows);
  j["replicas_total"] = plan.on_demand_units + plan.spot_total();
  j["usd_per_month"] = {{"low", round_to(low_cost * hours, 2)}, {"point", round_to(plan.usd_per_hour * hours, 2)}, {"high", round_to(high_cost * hours, 2)}};
  j["usd_per_month_reading"] = "point: this plan; low and high: the cheapest plan meeting the target if the band's low or high end holds";
  j["p_capacity_met"] = round_to(plan.p_capacity_met, 6);
  j["p_capacity_met_band"] = {{"low", round_to(spot::p_capacity_met(plan.on_demand_units, plan.spot_units, p_low, t.units), 6)},
                              {"high", round_to(spot::p_capacity_met(plan.on_demand_units, plan.spot_units, p_high, t.units), 6)}};
  const int left = plan.on_demand_units + plan.spot_total() - largest;
  j["capacity_if_largest_pool_lost_pct"] = round_to(100.0 * std::min(left, t.units) / t.units, 1);
  j["hours_per_month"] = hours;
  j["band"] = plan_band(catalog, w, billing, t, best->used, target, hours);
  result["plan"] = std::move(j);
  result["all_on_demand"] = {{"instance", t.type->name}, {"region", t.on_demand->region}, {"replicas", t.units},
                             {"usd_per_month", round_to(t.units * unit_od * hours, 2)}, {"p_capacity_met", 1}};
  // All spot: the demand's replicas in the pool up most per dollar, nothing spare.
  if (!best->used.empty()) {
    const PoolRow& p = *best->used.front();
    const int n = t.units;
    Json all = {{"instance", t.type->name}, {"region", p.offer->region}, {"replicas", n},
                {"usd_per_month", round_to(n * *p.offer->spot_usd_per_hour * t.unit_instances * hours, 2)}};
    const auto met = [&](double q) { return round_to(spot::p_capacity_met(0, {n}, {q}, n), 6); };
    all["p_capacity_met"] = {{"low", met(p.up.low)}, {"point", met(p.up.point)}, {"high", met(p.up.high)}};
    result["all_spot"] = std::move(all);
  } else {
    result["all_spot"] = {{"usd_per_month", nullptr}, {"note", "no pool asked has a known band"}};
  }
  result["method"] = "replicas from the road (best_on per type); P(on-demand base + spot replicas up >= replicas needed), spot replicas "
                     "binomial per pool; for each base from all on-demand down to none, spot replicas are added where they raise "
                     "that probability most per dollar until the target is met; the cheapest wins (docs/spot.md)";
  return true;
}

// A training job on spot at the measured error of its throughput: the work at each end of the
// band, run at the band's point hazard, and what it costs on spot.
Json job_band(const DeploymentBand& b, double units, double hazard, double spot_rate,
              const SpotAsk& ask) {
  if (!b.slow || !b.fast || !b.slow->run_hours || !b.fast->run_hours)
    return report::no_band(b.kind);
  Json j = report::object(4);
  const auto wall = [&](double work_h) {
    return spot::job_on_spot({work_h, units, hazard, ask.checkpoint_s, ask.restart_s});
  };
  const spot::JobOutcome fast = wall(*b.fast->run_hours), slow = wall(*b.slow->run_hours);
  j["work_hours"] = {{"low", round_to(*b.fast->run_hours, 2)},
                     {"high", round_to(*b.slow->run_hours, 2)}};
  j["wall_hours"] = {{"low", finite(fast.wall_hours, 2)}, {"high", finite(slow.wall_hours, 2)}};
  j["spot_usd"] = {{"low", finite(fast.wall_hours * spot_rate, 2)},
                   {"high", finite(slow.wall_hours * spot_rate, 2)}};
  j["text"] = text::short_number(round_to(fast.wall_hours, 1)) + "-" +
              text::short_number(round_to(slow.wall_hours, 1)) +
              " h on spot at the band's point, " + usd(round_to(fast.wall_hours * spot_rate, 2)) +
              "-" + usd(round_to(slow.wall_hours * spot_rate, 2)) + "," +
              report::at_measured_error(*b.kind.measured);
  j["expected_error"] = report::band_error(b.kind);
  return j;
}

// Training: the job on each pool with a band, cheapest on spot first.
Json training_jobs(const Catalog& catalog, const Workload& w, const Billing& billing,
                   std::vector<TypeRow>& types, const SpotAsk& ask) {
  const double checkpoint_s = ask.checkpoint_s, restart_s = ask.restart_s;
  Json jobs = Json::array();
  for (TypeRow& t : types) {
    if (!t.d.run_hours) continue;
    const DeploymentBand band = deployment_band(catalog, w, billing, t.d);
    for (PoolRow& p : t.pools) {
      if (!p.offer->interruption_band) continue;
      const double n = t.d.instance_count;
      const double spot_rate = *p.offer->spot_usd_per_hour * n;
      const double od_rate = *t.on_demand->on_demand_usd_per_hour * n;
      spot::JobOutcome outs[3];
      const double hz[3] = {p.hazard.low, p.hazard.point, p.hazard.high};
      for (int k = 0; k < 3; ++k) {
        outs[k] = spot::job_on_spot({*t.d.run_hours, n / t.unit_instances, hz[k], checkpoint_s, restart_s});
      }
      Json row = report::object(14);
      row["instance"] = p.offer->name;
      row["region"] = p.offer->region;
      row["instances"] = n;
      row["work_hours"] = round_to(*t.d.run_hours, 2);
      row["checkpoint_interval_s"] = {{"low", finite(outs[2].checkpoint_interval_s, 1)}, {"point", finite(outs[1].checkpoint_interval_s, 1)}, {"high", finite(outs[0].checkpoint_interval_s, 1)}};
      row["mtbi_hours"] = {{"low", finite(outs[2].mtbi_s / 3600, 2)}, {"point", finite(outs[1].mtbi_s / 3600, 2)}, {"high", finite(outs[0].mtbi_s / 3600, 2)}};
      row["expected_interruptions"] = {{"low", finite(outs[0].expected_interruptions, 2)}, {"point", finite(outs[1].expected_interruptions, 2)}, {"high", finite(outs[2].expected_interruptions, 2)}};
      row["wall_hours"] = {{"low", finite(outs[0].wall_hours, 2)}, {"point", finite(outs[1].wall_hours, 2)}, {"high", finite(outs[2].wall_hours, 2)}};
      row["spot_usd"] = {{"low", finite(outs[0].wall_hours * spot_rate, 2)}, {"point", finite(outs[1].wall_hours * spot_rate, 2)}, {"high", finite(outs[2].wall_hours * spot_rate, 2)}};
      row["on_demand_usd"] = round_to(*t.d.run_hours * od_rate, 2);
      const auto break_even = [&](const spot::JobOutcome& o) { return o.finishes ? Json(round_to(100 * (1 - *t.d.run_hours / o.wall_hours), 1)) : Json(nullptr); };
      row["break_even_discount_pct"] = {{"low", break_even(outs[0])}, {"point", break_even(outs[1])}, {"high", break_even(outs[2])}};
      row["spot_discount_pct"] = round_to(100 * (1 - *p.offer->spot_usd_per_hour / *t.on_demand->on_demand_usd_per_hour), 1);
      row["spot_pays"] = outs[2].finishes && outs[2].wall_hours * spot_rate < *t.d.run_hours * od_rate;
      row["band"] = job_band(band, n / t.unit_instances, p.hazard.point, spot_rate, ask);
      jobs.push_back(std::move(row));
    }
  }
  std::stable_sort(jobs.begin(), jobs.end(), [](const Json& a, const Json& b) {
    const Json& x = a["spot_usd"]["point"];
    const Json& y = b["spot_usd"]["point"];
    if (x.is_null() != y.is_null()) return y.is_null();
    return !x.is_null() && x.get<double>() < y.get<double>();
  });
  return jobs;
}

}  // namespace

Json answer_spot(const Catalog& catalog, Session& s, const Json& req) {
  Reader& r = s.reader();
  auto w = s.road_workload(req, "", true);
  auto billed = s.billing(req, "");
  const std::vector<std::string> providers = s.providers(req, "");
  const SpotAsk ask = read_ask(catalog, r, req);
  // The pools' regions: those named, else each provider's usual region.
  auto choice = req.contains("region") || req.contains("regions") ? read_region_choice(catalog, req, r)
                                                                   : std::optional<RegionChoice>(RegionChoice{});
  if (!w || !billed || !choice || !r.ok()) return nullptr;
  billed->mode = PaymentMode::kOnDemand;
  std::vector<TypeRow> types = types_that_run(catalog, *w, *billed, providers, ask.only, *choice);
  if (types.empty()) {
    r.fail("cannot_answer", "", "no instance type with both an on-demand and a spot price runs the workload in the regions asked: "
                                "name more regions (\"regions\": \"all\"), other instance_types, or a smaller model");
    return nullptr;
  }
  const std::string cat_date = report::catalog_date(catalog);
  std::set<std::string> as_ofs;
  Json pools = pool_rows(catalog, types, ask, as_ofs);
  Json result = report::object(12);
  result["request"] = report::workload(*w);
  result["data"] = data_age(as_ofs, cat_date);
  result["assumptions"] = assumptions(ask);
  result["pools"] = std::move(pools);
  if (w->serving()) {
    return plan_serving(catalog, *w, *billed, r, types, ask.target, billed->hours_per_month, result)
               ? result
               : Json(nullptr);
  }
  if (!w->demand.dataset_tokens) {
    r.fail("missing_field", "/demand/dataset_tokens", "a training job on spot needs its dataset (demand.dataset_tokens) for its run time");
    return nullptr;
  }
  result["jobs"] = training_jobs(catalog, *w, *billed, types, ask);
  result["checkpoint"] = {{"write_s", ask.checkpoint_s}, {"restart_s", ask.restart_s}};
  result["method"] = "Young/Daly: checkpoint every sqrt(2 x write x MTBI); wall = work x (1 + write / interval) / (1 - rate x (interval / 2 + "
                     "restart)); interruptions = rate x wall; break-even discount = 1 - work / wall (docs/spot.md)";
  return result;
}

}  // namespace gpufleet::detail
