
// The regions question: per candidate region, prices by way to pay, spot band, offers and the
// estimated round trip from the users; then the placement (regions chosen, replicas per region
// from the road at each region's share of the demand, egress and copy costs, N+1).
#include "fleet/regions.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "api/answers.hpp"
#include "api/questions/spot.hpp"
#include "catalog/fields.hpp"
#include "fleet/band.hpp"
#include "pricing/prices.hpp"
#include "support/decimal.hpp"

namespace gpufleet::detail {
namespace {

using report::round_to;

const RegionSite* site_of(const Catalog& catalog, const std::string& region) {
  for (const auto& [key, terms] : catalog.providers) {
    if (auto it = terms.sites.find(region); it != terms.sites.end()) return &it->second;
  }
  return nullptr;
}

bool in_geo(const RegionSite* site, const std::string& geo) {
  return site && std::find(site->geos.begin(), site->geos.end(), geo) != site->geos.end();
}


// Where the workload may run: regions named and a geography (none: anywhere).
struct Residency {
  std::vector<std::string> allowed;
  std::string geo;
  bool admits(const std::string& region, const RegionSite* site) const {
    return (allowed.empty() || std::find(allowed.begin(), allowed.end(), region) != allowed.end()) &&
           (geo.empty() || in_geo(site, geo));
  }
};

Residency read_residency(const Catalog& catalog, Reader& r, const Json& req) {
  Residency a;
  const Json* res = r.object(req, "residency", "", false);
  if (!res) return a;
  fields::check_fields(r, *res, "/residency", "residency");
  a.allowed = r.strings(*res, "regions", "/residency", false);
  for (std::size_t i = 0; i < a.allowed.size(); ++i) {
    a.allowed[i] = lower(a.allowed[i]);
    if (!catalog.region_provider.count(a.allowed[i])) {
      r.fail("unknown_name", "/residency/regions/" + decimal::whole(i), "expected a region with prices loaded, got \"" + a.allowed[i] + "\"");
    }
  }
  a.geo = lower(r.string(*res, "geo", "/residency", false).value_or(""));
  if (!a.geo.empty()) {
    bool known = false;
    for (const auto& [key, terms] : catalog.providers) {
      for (const auto& [region, site] : terms.sites) known = known || in_geo(&site, a.geo);
    }
    if (!known) r.fail("unknown_name", "/residency/geo", "expected a geography of the catalog's regions (north_america, europe, eu, asia_pacific, middle_east, south_america, africa, or a country code such as us, de), got \"" + a.geo + "\"");
  }
  return a;
}

const RegionSite* site_in(const Catalog& catalog, const InstanceType& o) {
  const ProviderTerms* terms = catalog.provider(o.provider);
  return terms && terms->sites.count(o.region) ? &terms->sites.at(o.region) : nullptr;
}

// The user groups: each a region or a point, and its share of the demand.
std::vector<regions::UserGroup> read_users(const Catalog& catalog, Reader& r, const Json& req) {
  std::vector<regions::UserGroup> users;
  if (const Json* list = r.member(req, "users", "", false)) {
    if (!list->is_array() || list->empty() || list->size() > 64) {
      r.fail("wrong_type", "/users", "expected an array of 1 to 64 {region or lat and lon, share}, got " + Reader::describe(*list));
    } else {
      double total = 0;
      bool shares_given = false;
      for (std::size_t i = 0; i < list->size(); ++i) {
        const std::string path = "/users/" + decimal::whole(i);
        if (!r.expect_object((*list)[i], path)) continue;
        fields::check_fields(r, (*list)[i], path, "user_group");
        regions::UserGroup g;
        auto region = r.string((*list)[i], "region", path, false);
        auto lat = r.number((*list)[i], "lat", path, false, {-90, 90});
        auto lon = r.number((*list)[i], "lon", path, false, {-180, 180});
        if (region) {
          const RegionSite* site = site_of(catalog, lower(*region));
          if (!site) {
            r.fail("unknown_name", path + "/region", "expected a region of the catalog's providers.<p>.regions, got \"" + *region + "\"");
            continue;
          }
          g.label = lower(*region);
          g.lat = site->lat;
          g.lon = site->lon;
        } else if (lat && lon) {
          g.lat = *lat;
          g.lon = *lon;
          g.label = decimal::general(*lat, 4) + "," + decimal::general(*lon, 4);
        } else {
          r.fail("missing_field", path, "expected \"region\", or \"lat\" and \"lon\"");
          continue;
        }
        if (auto share = r.number((*list)[i], "share", path, false, {0, 1, true})) {
          g.share = *share;
          shares_given = true;
        } else {
          g.share = 1.0 / static_cast<double>(list->size());
        }
        total += g.share;
        users.push_back(g);
      }
      if (r.ok() && shares_given && std::abs(total - 1) > 0.01) {
        r.fail("out_of_range", "/users", "expected the users' shares to sum to 1, got " + decimal::general(total, 4));
      }
    }
  }
  return users;
}

// The road's cheapest instance type for the workload, or nullptr.
const InstanceType* cheapest_type(const Catalog& catalog, const Workload& w, const Billing& billing,
                                  const std::vector<std::string>& providers) {
  std::optional<Deployment> cheapest;
  for (const InstanceType& it : catalog.instances) {
    if (!providers.empty() && std::find(providers.begin(), providers.end(), it.provider) == providers.end()) continue;
    if (it.accelerator_kind == "cpu" || !it.price_flags.empty()) continue;
    Deployment d = best_on(catalog, w, billing, it);
    refuse_without_speed(d);
    if (!d.runs() || !d.cost.usd_per_month) continue;
    if (!cheapest || *d.cost.usd_per_month < *cheapest->cost.usd_per_month) cheapest = std::move(d);
  }
  return cheapest ? cheapest->instance : nullptr;
}

// The type's offers in the regions asked (all when none) that the residency admits.
std::vector<regions::Candidate> candidates_for(const Catalog& catalog, const InstanceType& type, const Json& req,
                                               const Residency& residency) {
  std::vector<regions::Candidate> candidates;
  std::vector<std::string> asked_regions;
  if (req.contains("regions") && req["regions"].is_array()) {
    for (const auto& x : req["regions"]) asked_regions.push_back(lower(x.get<std::string>()));
  } else if (req.contains("region")) {
    asked_regions.push_back(lower(req["region"].get<std::string>()));
  }
  RegionChoice every;
  every.all = true;
  for (const InstanceType* o : offers_in(catalog, type.name, every)) {
    if (o->family_key != type.family_key || !o->price_flags.empty() || !o->on_demand_usd_per_hour) continue;
    if (!asked_regions.empty() && std::find(asked_regions.begin(), asked_regions.end(), o->region) == asked_regions.end()) continue;
    const ProviderTerms* terms = catalog.provider(o->provider);
    const RegionSite* site = site_in(catalog, *o);
    if (!residency.admits(o->region, site)) continue;
    regions::Candidate c;
    c.offer = o;
    c.site = site;
    if (terms && terms->egress) {
      c.internet_usd_per_gb = terms->egress->internet_usd_per_gb;
      c.inter_region_usd_per_gb = terms->egress->inter_region_usd_per_gb;
      c.internet_free_gb_per_month = terms->egress->internet_free_gb_per_month;
    }
    candidates.push_back(c);
  }
  return candidates;
}

// Every candidate region, cheapest on demand first: its prices by way to pay, band, offers, round
// trips from the users and egress price.
Json region_rows(const Catalog& catalog, const std::vector<regions::Candidate>& candidates,
                 const std::vector<regions::UserGroup>& users, const Billing& billing) {
  Json table = Json::array();
  for (const regions::Candidate& c : candidates) {
    const InstanceType& o = *c.offer;
    Json row = report::object(12);
    row["region"] = o.region;
    row["provider"] = o.provider;
    if (c.site) row["location"] = c.site->location;
    Json ways = report::object(4);
    ways["on_demand"] = report::report_optional(o.on_demand_usd_per_hour, 4);
    ways["spot"] = report::report_optional(o.spot_usd_per_hour, 4);
    const Placement one{&o, o.gpus, 1, o.name, false};
    Billing od = billing;
    od.mode = PaymentMode::kOnDemand;
    for (const CommitmentCost& cc : cost_of(catalog, one, od, true, false).commitments) {
      if (cc.usd_per_hour) ways[cc.way->id] = round_to(*cc.usd_per_hour, 4);
    }
    row["usd_per_hour"] = std::move(ways);
    if (const std::string basis = spot_zone_basis(o); !basis.empty() && o.spot_usd_per_hour)
      row["spot_basis"] = basis;
    row["interruption_band"] = o.interruption_band ? report::interruption_band(*o.interruption_band, catalog)
                                                   : Json{{"label", "unknown"}, {"reason", o.band_unknown}};
    std::size_t offered = 0;
    for (const InstanceType& x : *catalog.offers) offered += x.region == o.region && x.provider == o.provider && x.on_demand_usd_per_hour;
    row["offers_in_region"] = offered;
    if (!users.empty() && c.site) {
      Json rtts = Json::array();
      for (const auto& g : users) {
        const double km = regions::great_circle_km(g.lat, g.lon, c.site->lat, c.site->lon);
        rtts.push_back({{"users", g.label}, {"km", round_to(km, 0)}, {"rtt_ms_estimate", round_to(regions::rtt_ms(km), 1)}});
      }
      row["rtt_from_users"] = std::move(rtts);
    }
    row["egress_usd_per_gb"] = round_to(c.internet_usd_per_gb, 4);
    table.push_back(std::move(row));
  }
  std::stable_sort(table.begin(), table.end(), [](const Json& a, const Json& b) {
    return a["usd_per_hour"]["on_demand"].get<double>() < b["usd_per_hour"]["on_demand"].get<double>();
  });
  return table;
}

// A way out of a placement refused: regions inside the residency where an instance type with the
// same GPU is priced.
std::string way_out(const Catalog& catalog, const InstanceType& type, const Residency& residency,
                    const regions::Result& placed) {
  std::set<std::string> where;
  for (const InstanceType& x : *catalog.offers) {
    if (x.gpu_type != type.gpu_type || !x.on_demand_usd_per_hour) continue;
    if (residency.admits(x.region, site_in(catalog, x))) where.insert(x.name + " in " + x.region);
  }
  std::string list;
  std::size_t n = 0;
  for (const auto& x : where) {
    if (n++ < 8) list += (list.empty() ? "" : ", ") + x;
  }
  return where.empty() ? placed.way_out + " (no instance type with a " + type.gpu_type + " is priced inside the residency)"
                                    : "the same GPU is offered inside the residency as " + list + (where.size() > 8 ? " and more" : "") +
                                          ": ask with that \"instance\"";
}

// Each region chosen, with its deployment's band at the measured error of its throughput.
Json chosen_rows(const Catalog& catalog, const Workload& w, const Billing& billing,
                 const regions::Result& placed) {
  const bool serving = w.serving();
  Json chosen = Json::array();
  for (const regions::Chosen& c : placed.chosen) {
    Json row = report::object(16);
    row["region"] = c.candidate->offer->region;
    row["replicas"] = c.deployment.layout.replicas;
    row["instances"] = c.deployment.instance_count;
    row["usd_per_month"] = report::report_optional(c.deployment.cost.usd_per_month, 2);
    row["share"] = round_to(c.share, 4);
    row["sized_for_share"] = round_to(c.sized_share, 4);
    if (!c.users.empty()) row["users"] = c.users;
    if (c.worst_rtt_ms >= 0) row["rtt_ms_estimate"] = round_to(c.worst_rtt_ms, 1);
    if (serving) {
      row["p95_ttft_ms"] = round_to(c.deployment.p95_ttft_ms, 1);
      row["p95_ttft_with_rtt_ms"] = round_to(c.p95_ttft_with_rtt_ms, 1);
      row["meets_ttft"] = c.meets_ttft;
    }
    row["egress_gb_per_month"] = round_to(c.egress_gb_per_month, 1);
    row["egress_usd_per_month"] = round_to(c.egress_usd_per_month, 2);
    row["dataset_copy_usd"] = round_to(c.copy_usd, 2);
    row["band"] = report::band(deployment_band(catalog, w, billing, c.deployment), c.deployment);
    chosen.push_back(std::move(row));
  }
  return chosen;
}

Json method_of(const Catalog& catalog, const InstanceType& type) {
  const ProviderTerms* terms = catalog.provider(type.provider);
  Json method = report::object(6);
  method["rtt"] = regions::rtt_method();
  method["placement"] = "each user group goes to the allowed region where its share costs least (compute at the region's price for the "
                        "whole demand x the share, plus egress) among those whose estimated RTT + p95 TTFT meets max_ttft_ms; each region "
                        "is then sized by the road for its share of the demand";
  method["egress"] = "requests/s x share x response bytes (default output_tokens x 4 bytes) x hours x 3600, at the provider's first-tier "
                     "internet price; a dataset is copied once into each region chosen but its own at the inter-region price";
  if (terms) {
    method["regions_source"] = terms->sites_source + " (" + terms->sites_source_date + ")";
    if (terms->egress) method["egress_source"] = terms->egress->source + " (" + terms->egress->source_date + "): " + terms->egress->covers;
  }
  return method;
}

}  // namespace

Json answer_regions(const Catalog& catalog, Session& s, const Json& req) {
  Reader& r = s.reader();
  auto w = s.road_workload(req, "", true);
  auto billed = s.billing(req, "");
  const std::vector<std::string> providers = s.providers(req, "");
  const InstanceType* chosen_type = nullptr;
  if (auto name = r.string(req, "instance", "", false)) {
    chosen_type = catalog.instance(*name);
    if (!chosen_type) r.fail("unknown_name", "/instance", "expected an instance type of gpu_instances.json, got \"" + *name + "\"");
  }
  const bool failover = r.boolean(req, "failover", "", false).value_or(false);
  const auto response_bytes = r.number(req, "response_bytes", "", false, {0, 1e9});
  const double dataset_gb = r.number(req, "dataset_gb", "", false, {0, 1e7}).value_or(0);
  const std::string dataset_region = lower(r.string(req, "dataset_region", "", false).value_or(""));
  if (!dataset_region.empty() && !catalog.region_provider.count(dataset_region)) {
    r.fail("unknown_name", "/dataset_region", "expected a region with prices loaded, got \"" + dataset_region + "\"");
  }
  const Residency residency = read_residency(catalog, r, req);
  const std::vector<regions::UserGroup> users = read_users(catalog, r, req);
  if (!w || !billed || !r.ok()) return nullptr;

  // The instance type: the one named, or the road's cheapest for the workload.
  if (!chosen_type && !(chosen_type = cheapest_type(catalog, *w, *billed, providers))) {
    r.fail("cannot_answer", "", "no instance type runs the workload: see recommend for the refusals and ways out");
    return nullptr;
  }
  const std::vector<regions::Candidate> candidates = candidates_for(catalog, *chosen_type, req, residency);
  regions::Input in;
  in.catalog = &catalog;
  in.workload = *w;
  in.billing = *billed;
  in.candidates = candidates;
  in.users = users;
  in.failover = failover;
  in.response_bytes = response_bytes.value_or(w->demand.output_tokens * regions::kBytesPerOutputToken);
  in.dataset_gb = dataset_gb;
  in.dataset_region = dataset_region;
  const regions::Result placed = regions::place(in);

  Json result = report::object(12);
  result["request"] = report::workload(*w);
  result["instance"] = chosen_type->name;
  // Every candidate region, cheapest first for the whole demand.
  result["regions"] = region_rows(catalog, in.candidates, users, *billed);
  if (!placed.refusal.empty()) {
    result["status"] = "CANNOT PLACE";
    result["refusal"] = placed.refusal;
    result["way_out"] = way_out(catalog, *chosen_type, residency, placed);
    result["regions_chosen"] = Json::array();
    return result;
  }
  result["status"] = "PLACED";
  result["regions_chosen"] = chosen_rows(catalog, *w, *billed, placed);
  Json totals = report::object(6);
  totals["compute_usd_per_month"] = round_to(placed.compute_usd_per_month, 2);
  totals["egress_usd_per_month"] = round_to(placed.egress_usd_per_month, 2);
  totals["usd_per_month"] = round_to(placed.compute_usd_per_month + placed.egress_usd_per_month, 2);
  totals["one_time_usd"] = round_to(placed.one_time_usd, 2);
  result["totals"] = std::move(totals);
  std::vector<Json> bands;
  for (const Json& row : result["regions_chosen"]) bands.push_back(row["band"]);
  result["band"] =
      report::summed_band(bands, placed.egress_usd_per_month,
                          "over " + decimal::whole(bands.size()) +
                              (bands.size() == 1 ? " region" : " regions") + " with egress");
  if (failover) {
    const double without = placed.without_failover_compute_usd_per_month.value_or(0);
    result["failover"] = {{"n_plus_1", placed.chosen.size() > 1},
                          {"compute_without_failover_usd_per_month", round_to(without, 2)},
                          {"premium_usd_per_month", round_to(placed.compute_usd_per_month - without, 2)},
                          {"rule", "each region is sized for its share plus the largest other region's, so any one region can be lost"}};
  }
  if (!placed.notes.empty()) result["notes"] = placed.notes;
  result["method"] = method_of(catalog, *chosen_type);
  return result;
}

}  // namespace gpufleet::detail
