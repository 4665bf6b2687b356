#pragma once
// Cost: instance-hour prices times hours. A request for N GPUs is served by whole instances.

#include <optional>
#include <string>

#include "gpufleet/catalog.hpp"

namespace gpufleet {

// N GPUs of a named instance type or family, served by whole instances.
struct Placement {
  const InstanceType* instance = nullptr;
  double gpus = 0;           // GPUs the workload uses
  int instance_count = 0;    // whole instances bought
  std::string requested;     // the name the user gave ("P5")
  bool resolved_from_family = false;
};

// Resolves "p5.48xlarge" directly and "P5" to the family's smallest size holding `gpus` GPUs
// (several of its largest size when none does). nullopt when the name is unknown.
std::optional<Placement> place(const Catalog& catalog, const std::string& name, double gpus);

// The cheapest way a family serves `gpus` GPUs on one instance, else on several of its largest.
Placement place_in_family(const Catalog& catalog, const Family& family, double gpus);

struct Cost {
  double monthly_hours = 0;
  std::optional<double> on_demand_usd_per_hour;  // for all instances of the placement
  std::optional<double> spot_usd_per_hour;
  std::optional<double> on_demand_usd_per_month;
  std::optional<double> spot_usd_per_month;
  bool use_spot = false;
  std::string pricing;  // "spot" | "on_demand" | "unknown": the rate the monthly figure uses
  std::optional<double> usd_per_hour;
  std::optional<double> usd_per_month;
  std::optional<double> spot_savings_pct;
  std::string basis;  // "1 x p5.4xlarge x $6.88/h x 720 h = $4,953.60"
  std::string note;   // why a rate is missing or replaced
};

Cost cost_of(const Placement& placement, double monthly_hours, bool use_spot);

std::string usd(double amount);       // "$4,953.60"
std::string usd_rate(double amount);  // "$6.88", "$10.4926": up to 4 decimals for hourly rates

}  // namespace gpufleet
