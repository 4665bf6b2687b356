#include "fleet/regions.hpp"

#include <algorithm>
#include <cmath>
#include "support/text.hpp"

namespace gpufleet::regions {

double great_circle_km(double lat1, double lon1, double lat2, double lon2) {
  constexpr double kEarthKm = 6371.0;
  constexpr double kRad = 3.14159265358979323846 / 180;
  const double dlat = (lat2 - lat1) * kRad, dlon = (lon2 - lon1) * kRad;
  const double a = std::sin(dlat / 2) * std::sin(dlat / 2) +
                   std::cos(lat1 * kRad) * std::cos(lat2 * kRad) * std::sin(dlon / 2) * std::sin(dlon / 2);
  return 2 * kEarthKm * std::asin(std::min(1.0, std::sqrt(a)));
}

double rtt_ms(double km) { return 2 * km / kFiberKmPerS * 1000 * kPathFactor; }

std::string rtt_method() {
  return "estimate, not a measurement: RTT ~= 2 x great-circle distance / (200,000 km/s in fiber) x 1.5 path factor, "
         "between the users' point and the region's city (haversine, Earth radius 6,371 km)";
}

namespace {

Workload scaled(const Workload& w, double share) {
  Workload out = w;
  if (out.demand.requests_per_s) *out.demand.requests_per_s *= share;
  if (out.demand.tokens_per_month) *out.demand.tokens_per_month *= share;
  return out;
}

double egress_gb(const Input& in, double share) {
  const double rps = in.workload.demand.requests_per_s.value_or(0);
  return rps * share * in.response_bytes * in.billing.hours_per_month * 3600 / 1e9;
}

}  // namespace

Result place(const Input& in) {
  Result out;
  if (in.candidates.empty()) {
    out.refusal = "no region allowed offers the instance type";
    out.way_out = "widen the residency (more regions or a larger geography) or choose an instance type offered there";
    return out;
  }
  const bool located = !in.users.empty();
  const std::vector<UserGroup> users = located ? in.users : std::vector<UserGroup>{UserGroup{"", 0, 0, 1}};
  std::vector<Deployment> full;
  for (const Candidate& c : in.candidates) {
    full.push_back(best_on(*in.catalog, in.workload, in.billing, *c.offer));
    refuse_without_speed(full.back());
  }
  const auto runs = [&](std::size_t i) { return full[i].runs() && full[i].cost.usd_per_month.has_value(); };
  std::size_t runnable = 0;
  for (std::size_t i = 0; i < full.size(); ++i) runnable += runs(i);
  if (runnable == 0) {
    out.refusal = full.front().runs() ? "no allowed region prices the instance type" : full.front().refusal;
    out.way_out = full.front().runs() ? "name regions whose price files price it" : full.front().way_out;
    return out;
  }
  const auto rtt_of = [&](std::size_t i, const UserGroup& g) {
    const RegionSite* s = in.candidates[i].site;
    return located && s ? rtt_ms(great_circle_km(g.lat, g.lon, s->lat, s->lon)) : -1.0;
  };
  const auto group_cost = [&](std::size_t i, const UserGroup& g) {
    return *full[i].cost.usd_per_month * g.share + egress_gb(in, g.share) * in.candidates[i].internet_usd_per_gb;
  };
  const std::optional<double> target = in.workload.demand.max_ttft_ms;
  std::vector<double> share(in.candidates.size(), 0);
  std::vector<std::vector<std::string>> who(in.candidates.size());
  std::vector<double> worst(in.candidates.size(), -1);
  for (const UserGroup& g : users) {
    std::size_t pick = full.size(), nearest = full.size();
    for (std::size_t i = 0; i < full.size(); ++i) {
      if (!runs(i)) continue;
      const double rtt = rtt_of(i, g);
      if (nearest == full.size() || rtt < rtt_of(nearest, g)) nearest = i;
      if (target && rtt >= 0 && full[i].p95_ttft_ms + rtt > *target) continue;
      if (pick == full.size() || group_cost(i, g) < group_cost(pick, g) - 1e-9) pick = i;
    }
    if (pick == full.size()) {
      pick = nearest;
      out.notes.push_back("users at " + g.label + ": no allowed region meets max_ttft_ms with the network round trip; "
                          "the nearest is used");
    }
    share[pick] += g.share;
    if (!g.label.empty()) who[pick].push_back(g.label);
    worst[pick] = std::max(worst[pick], rtt_of(pick, g));
  }
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < share.size(); ++i) {
    if (share[i] > 0) chosen.push_back(i);
  }
  if (in.failover && chosen.size() == 1) {
    std::size_t second = full.size();
    for (std::size_t i = 0; i < full.size(); ++i) {
      if (i == chosen[0] || !runs(i)) continue;
      if (second == full.size() || *full[i].cost.usd_per_month < *full[second].cost.usd_per_month) second = i;
    }
    if (second == full.size()) {
      out.notes.push_back("failover: no second allowed region offers the instance type, so the loss of the region is not covered");
    } else {
      chosen.push_back(second);
    }
  }
  double largest = 0;
  for (std::size_t i : chosen) largest = std::max(largest, share[i]);
  double plain = 0;
  for (std::size_t i : chosen) {
    Chosen c;
    c.candidate = &in.candidates[i];
    c.share = share[i];
    double others = 0;
    for (std::size_t j : chosen) {
      if (j != i) others = std::max(others, share[j]);
    }
    c.sized_share = in.failover && chosen.size() > 1 ? std::min(1.0, share[i] + others) : share[i];
    c.deployment = c.sized_share >= 1 ? full[i] : best_on(*in.catalog, scaled(in.workload, c.sized_share), in.billing, *c.candidate->offer);
    if (in.failover && share[i] > 0) {
      const Deployment own = share[i] >= 1 ? full[i] : best_on(*in.catalog, scaled(in.workload, share[i]), in.billing, *c.candidate->offer);
      plain += own.cost.usd_per_month.value_or(0);
    }
    c.worst_rtt_ms = worst[i];
    c.p95_ttft_with_rtt_ms = c.deployment.p95_ttft_ms + std::max(0.0, worst[i]);
    c.meets_ttft = !target || c.p95_ttft_with_rtt_ms <= *target;
    c.egress_gb_per_month = egress_gb(in, c.share);
    c.egress_usd_per_month = c.egress_gb_per_month * c.candidate->internet_usd_per_gb;
    if (in.dataset_gb > 0 && c.candidate->offer->region != in.dataset_region) {
      c.copy_usd = in.dataset_gb * c.candidate->inter_region_usd_per_gb;
    }
    c.users = who[i];
    out.compute_usd_per_month += c.deployment.cost.usd_per_month.value_or(0);
    out.egress_usd_per_month += c.egress_usd_per_month;
    out.one_time_usd += c.copy_usd;
    out.chosen.push_back(std::move(c));
  }
  if (in.failover) out.without_failover_compute_usd_per_month = plain;
  // The provider's free internet egress counts once over every region: each region's bill keeps
  // its share of the GB beyond it.
  double gb = 0;
  for (const Chosen& c : out.chosen) gb += c.egress_gb_per_month;
  const double free_gb = in.candidates.front().internet_free_gb_per_month;
  if (gb > 0 && free_gb > 0) {
    const double billed = std::max(0.0, 1 - free_gb / gb);
    out.egress_usd_per_month = 0;
    for (Chosen& c : out.chosen) {
      c.egress_usd_per_month = c.egress_gb_per_month * billed * c.candidate->internet_usd_per_gb;
      out.egress_usd_per_month += c.egress_usd_per_month;
    }
    out.notes.push_back("egress: the provider's first " + text::short_number(free_gb) +
                        " GB a month out to the internet are free, once over every region (" +
                        text::short_number(std::min(gb, free_gb)) + " of the fleet's " + text::short_number(gb) + " GB)");
  }
  return out;
}

}  // namespace gpufleet::regions
