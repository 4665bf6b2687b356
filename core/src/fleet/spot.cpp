#include "fleet/spot.hpp"
#include "support/civil_date.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpufleet::spot {

std::string to_string(Reading reading) {
  return reading == Reading::kEventsPerMonth ? "events_per_month" : "reclaimed_fraction";
}

std::optional<Reading> parse_reading(const std::string& text) {
  if (text == "reclaimed_fraction") return Reading::kReclaimedFraction;
  if (text == "events_per_month") return Reading::kEventsPerMonth;
  return std::nullopt;
}

std::string reading_formula(Reading reading) {
  return reading == Reading::kEventsPerMonth
             ? "the band's % read as interruptions per instance-month (a Poisson rate): hazard = f / 730 per hour"
             : "the band's % read as the share of instances reclaimed within a month (AWS: \"the rate at which Spot "
               "has reclaimed capacity during the trailing month\"): hazard = -ln(1 - f) / 730 per hour, f at most 0.99";
}

double hazard_per_hour(double pct, Reading reading) {
  const double f = std::clamp(pct / 100.0, 0.0, kMaxFraction);
  if (reading == Reading::kEventsPerMonth) return f / kHoursPerBandMonth;
  return -std::log1p(-f) / kHoursPerBandMonth;
}

double p_up(double hazard, double replacement_hours) { return 1.0 / (1.0 + std::max(0.0, hazard) * std::max(0.0, replacement_hours)); }

double band_point_pct(double low_pct, double high_pct) {
  if (high_pct >= 100 && low_pct > 0) return std::min(high_pct, low_pct + 5);
  return (low_pct + high_pct) / 2;
}

namespace {

// The distribution of base + sum of Binomial(n_i, p_i), truncated at `needed` (the last cell
// holds P(total >= needed)).
std::vector<double> distribution(int base, const std::vector<int>& units, const std::vector<double>& p, int needed) {
  std::vector<double> dist(static_cast<std::size_t>(needed) + 1, 0.0);
  dist[static_cast<std::size_t>(std::min(base, needed))] = 1;
  for (std::size_t i = 0; i < units.size(); ++i) {
    for (int k = 0; k < units[i]; ++k) {
      std::vector<double> next(dist.size(), 0.0);
      for (std::size_t j = 0; j < dist.size(); ++j) {
        if (dist[j] == 0) continue;
        next[j] += dist[j] * (1 - p[i]);
        next[std::min(j + 1, dist.size() - 1)] += dist[j] * p[i];
      }
      dist = std::move(next);
    }
  }
  return dist;
}

}  // namespace

double p_capacity_met(int base, const std::vector<int>& spot_units, const std::vector<double>& p, int needed) {
  if (needed <= 0 || base >= needed) return 1;
  return std::clamp(distribution(base, spot_units, p, needed).back(), 0.0, 1.0);
}

int Plan::spot_total() const {
  int n = 0;
  for (int u : spot_units) n += u;
  return n;
}

Plan cheapest_plan(int needed, double on_demand, const std::vector<Pool>& pools, double target, int max_spot_units) {
  std::vector<double> p;
  for (const Pool& pool : pools) p.push_back(std::clamp(pool.p_up, 0.0, 1.0));
  Plan best;
  best.on_demand_units = needed;
  best.spot_units.assign(pools.size(), 0);
  best.usd_per_hour = needed * on_demand;
  best.p_capacity_met = 1;
  best.feasible = true;
  for (int base = needed - 1; base >= 0; --base) {
    std::vector<int> units(pools.size(), 0);
    double cost = base * on_demand;
    double met = p_capacity_met(base, units, p, needed);
    for (int added = 0; met < target && added < max_spot_units && cost < best.usd_per_hour; ++added) {
      std::size_t pick = pools.size();
      double pick_gain = -1, pick_tie = -1;
      for (std::size_t i = 0; i < pools.size(); ++i) {
        if (p[i] <= 0 || pools[i].spot_usd_per_unit_hour <= 0) continue;
        ++units[i];
        const double gain = (p_capacity_met(base, units, p, needed) - met) / pools[i].spot_usd_per_unit_hour;
        --units[i];
        const double tie = p[i] / pools[i].spot_usd_per_unit_hour;
        if (gain > pick_gain + 1e-15 || (std::abs(gain - pick_gain) <= 1e-15 && tie > pick_tie)) {
          pick = i;
          pick_gain = gain;
          pick_tie = tie;
        }
      }
      if (pick == pools.size()) break;
      ++units[pick];
      cost += pools[pick].spot_usd_per_unit_hour;
      met = p_capacity_met(base, units, p, needed);
    }
    if (met >= target && cost < best.usd_per_hour) {
      best.on_demand_units = base;
      best.spot_units = units;
      best.usd_per_hour = cost;
      best.p_capacity_met = met;
    }
  }
  return best;
}

double young_daly_interval_s(double checkpoint_write_s, double mtbi_s) { return std::sqrt(2 * checkpoint_write_s * mtbi_s); }

JobOutcome job_on_spot(const JobInput& in) {
  JobOutcome out;
  const double rate_per_s = in.hazard_per_hour * std::max(1.0, in.instances) / 3600;
  const double work_s = in.work_hours * 3600;
  if (rate_per_s <= 0) {
    out.mtbi_s = std::numeric_limits<double>::infinity();
    out.checkpoint_interval_s = 0;  // no interruption to protect against
    out.wall_hours = in.work_hours;
    return out;
  }
  out.mtbi_s = 1 / rate_per_s;
  out.checkpoint_interval_s = young_daly_interval_s(in.checkpoint_write_s, out.mtbi_s);
  const double tau = out.checkpoint_interval_s;
  // Wall = work x (1 + C / tau) + interruptions x (tau / 2 + restart), interruptions = rate x wall.
  const double lost = rate_per_s * (tau / 2 + in.restart_s);
  if (lost >= 1) {
    out.finishes = false;
    out.wall_hours = std::numeric_limits<double>::infinity();
    out.expected_interruptions = std::numeric_limits<double>::infinity();
    return out;
  }
  const double wall_s = work_s * (1 + in.checkpoint_write_s / tau) / (1 - lost);
  out.wall_hours = wall_s / 3600;
  out.expected_interruptions = rate_per_s * wall_s;
  return out;
}

namespace {
using civil::days_from_civil;
std::optional<long> day_number(const std::string& t) {
  if (t.size() != 10 || t[4] != '-' || t[7] != '-') return std::nullopt;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (t[i] < '0' || t[i] > '9') return std::nullopt;
  }
  const int y = std::stoi(t.substr(0, 4));
  const unsigned m = static_cast<unsigned>(std::stoi(t.substr(5, 2)));
  const unsigned d = static_cast<unsigned>(std::stoi(t.substr(8, 2)));
  if (m < 1 || m > 12 || d < 1 || d > 31) return std::nullopt;
  return days_from_civil(y, m, d);
}
}  // namespace

std::optional<int> days_between(const std::string& a, const std::string& b) {
  auto x = day_number(a), y = day_number(b);
  if (!x || !y) return std::nullopt;
  return static_cast<int>(*y - *x);
}

}  // namespace gpufleet::spot
