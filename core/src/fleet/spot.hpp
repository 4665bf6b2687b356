#pragma once
// Spot capacity: interruption bands read as hazards, the availability of replicas spread over
// spot pools, the cheapest on-demand base + spot plan that meets a target availability, and a
// training job's checkpoint interval, interruptions, wall time and cost on spot (Young/Daly).
// Structs in, structs out; docs/spot.md states the method.

#include <optional>
#include <string>
#include <vector>

namespace gpufleet::spot {

inline constexpr double kHoursPerBandMonth = 730;  // the trailing month a band is measured over
inline constexpr double kMaxFraction = 0.99;       // ">20%" is written 20-100: 100 % is read as 99 %

// How a band's percentage becomes an hourly hazard (a stated, switchable assumption).
enum class Reading {
  kReclaimedFraction,  // f = share of instances reclaimed within the month: -ln(1 - f) / 730
  kEventsPerMonth,     // f = interruptions per instance-month (a Poisson rate): f / 730
};
std::string to_string(Reading reading);
std::optional<Reading> parse_reading(const std::string& text);
std::string reading_formula(Reading reading);

// Hourly hazard of one instance for a band percentage (0-100).
double hazard_per_hour(double pct, Reading reading);
// Steady-state probability that a spot replica is up: MTBI / (MTBI + replacement) =
// 1 / (1 + hazard x replacement hours) (an alternating renewal process).
double p_up(double hazard_per_hour, double replacement_hours);
// The band's point: its midpoint, except the open top band (>20 %, written 20-100) whose point is
// its floor + 5, the width of every other band.
double band_point_pct(double low_pct, double high_pct);

// P(base + sum of Binomial(n_i, p_i) >= needed).
double p_capacity_met(int base, const std::vector<int>& spot_units, const std::vector<double>& p, int needed);

// One spot pool a plan may use: a unit's price and its probability of being up.
struct Pool {
  double spot_usd_per_unit_hour = 0;
  double p_up = 1;
};

struct Plan {
  int on_demand_units = 0;
  std::vector<int> spot_units;  // per pool, in the order given
  double usd_per_hour = 0;
  double p_capacity_met = 1;
  bool feasible = false;
  int spot_total() const;
};

// The cheapest plan whose probability of covering `needed` units is at least `target`: for each
// on-demand base b (needed .. 0), spot units are added one at a time where they raise that
// probability most per dollar (ties: the pool up most per dollar) until the target is met, at most
// `max_spot_units` in all. The all-on-demand plan (b = needed) is always feasible, so a plan never
// costs more than all on-demand; a higher target only ever lengthens each base's path.
Plan cheapest_plan(int needed, double on_demand_usd_per_unit_hour, const std::vector<Pool>& pools, double target,
                   int max_spot_units);

// A training or batch job on spot, first-order (Young 1974, Daly 2006): checkpoints every
// sqrt(2 C M), each interruption loses half an interval of work and a restart.
struct JobInput {
  double work_hours = 0;          // the run on reliable capacity
  double instances = 1;           // an interruption of any stops the job
  double hazard_per_hour = 0;     // per instance
  double checkpoint_write_s = 60;
  double restart_s = 600;
};
struct JobOutcome {
  double mtbi_s = 0;                 // mean time between the job's interruptions (inf: none)
  double checkpoint_interval_s = 0;  // Young/Daly: sqrt(2 x write x MTBI)
  double expected_interruptions = 0;
  double wall_hours = 0;  // inf: interruptions come faster than the job advances
  bool finishes = true;
};
JobOutcome job_on_spot(const JobInput& in);
// sqrt(2 x write x MTBI): the checkpoint interval.
double young_daly_interval_s(double checkpoint_write_s, double mtbi_s);

// Days from a to b (YYYY-MM-DD), nullopt when either is not a date.
std::optional<int> days_between(const std::string& a, const std::string& b);

}  // namespace gpufleet::spot
