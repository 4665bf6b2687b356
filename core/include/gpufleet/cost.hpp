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

enum class PaymentMode { kOnDemand, kSpot, kMixed, kReserved1y, kReserved3y };
std::string to_string(PaymentMode mode);
std::optional<PaymentMode> parse_payment_mode(const std::string& text);

// How the hours are paid for, and how many hours a month the instances run.
struct Billing {
  double hours_per_month = 720;  // the seed's month; 730 = 8760 h / 12 for "24/7"
  std::string schedule_basis = "720 h/month";
  PaymentMode mode = PaymentMode::kOnDemand;
  double spot_share = 0;  // kMixed: the share of hours on spot capacity
  bool uses_spot() const { return mode == PaymentMode::kSpot || mode == PaymentMode::kMixed; }
};

inline constexpr double kHoursPerYear = 8760;
inline constexpr double kAlwaysOnHoursPerMonth = kHoursPerYear / 12;  // 730

struct CommitmentCost {
  std::string term;  // "1y" | "3y"
  double discount_pct = 0;
  double usd_per_month = 0;  // billed for every hour of the month
  double break_even_utilization_pct = 0;  // below this share of 730 h, on-demand is cheaper
  std::string source;
};

struct Cost {
  double monthly_hours = 0;
  std::string schedule_basis;
  std::string pricing;  // on_demand | spot | mixed | reserved_1y | reserved_3y | unknown
  std::optional<double> on_demand_usd_per_hour;  // for all instances of the placement
  std::optional<double> spot_usd_per_hour;
  std::optional<double> on_demand_usd_per_month;
  std::optional<double> spot_usd_per_month;
  std::optional<double> usd_per_hour;  // effective rate the monthly figure uses
  std::optional<double> usd_per_month;
  std::optional<double> spot_savings_pct;
  std::vector<CommitmentCost> commitments;
  std::optional<double> spot_interruption_notice_s;
  std::string provider;
  std::string region;
  std::string basis;  // "1 x p5.4xlarge x $6.88/h (on-demand) x 720 h = $4,953.60"
  std::string note;   // why a rate is missing or replaced
};

Cost cost_of(const Catalog& catalog, const Placement& placement, const Billing& billing);

std::string usd(double amount);       // "$4,953.60"
std::string usd_rate(double amount);  // "$6.88", "$10.4926": up to 4 decimals for hourly rates

}  // namespace gpufleet
