#pragma once
// Cost: instance-hour prices times hours. A request for N GPUs is served by whole instances.

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"

namespace gpufleet {

// N GPUs of a named instance type or family, served by whole instances.
struct Placement {
  const InstanceType* instance = nullptr;
  double gpus = 0;           // GPUs the workload uses
  int instance_count = 0;    // whole instances bought
  std::string requested;     // the name the user gave ("P5")
  bool resolved_from_family = false;
  std::string note;  // how the instance and its GPUs were chosen when the request did not say
};

// Resolves "p5.48xlarge" directly and "P5" to the family's smallest size holding `gpus` GPUs
// (several of its largest size when none does). nullopt when the name is unknown.
std::optional<Placement> place(const Catalog& catalog, const std::string& name, double gpus);

// The cheapest way a family serves `gpus` GPUs on one instance, else on several of its largest.
Placement place_in_family(const Catalog& catalog, const Family& family, double gpus);

// kReserved1y/3y: the provider's default way of that term (providers.<p>.default_ways);
// kWay: a way named by its id (providers.<p>.ways_to_pay), in Billing::way.
enum class PaymentMode { kOnDemand, kSpot, kMixed, kReserved1y, kReserved3y, kWay };
std::string to_string(PaymentMode mode);
std::optional<PaymentMode> parse_payment_mode(const std::string& text);  // not kWay
// "EC2 Instance Savings Plan, 1 year, no upfront": a way to pay as a person reads it.
std::string way_name(const WayToPay& way);

// How the hours are paid for, and how many hours a month the instances run.
struct Billing {
  double hours_per_month = 720;  // the seed's month; 730 = 8760 h / 12 for "24/7"
  std::string schedule_basis = "720 h/month";
  PaymentMode mode = PaymentMode::kOnDemand;
  double spot_share = 0;  // kMixed: the share of hours on spot capacity
  std::string way;        // kWay: the way's id
  std::string pricing() const { return mode == PaymentMode::kWay ? way : to_string(mode); }
  bool committed() const {
    return mode == PaymentMode::kReserved1y || mode == PaymentMode::kReserved3y || mode == PaymentMode::kWay;
  }
  bool uses_spot() const { return mode == PaymentMode::kSpot || mode == PaymentMode::kMixed; }
};

inline constexpr double kHoursPerYear = 8760;
inline constexpr double kAlwaysOnHoursPerMonth = kHoursPerYear / 12;  // 730

// One way to pay with a commitment, priced for a placement. Unpriced (no public figure): the
// optional figures are absent. Names and sources stay in the catalog (the sweeps price every offer).
struct CommitmentCost {
  const WayToPay* way = nullptr;
  const WayFigure* figure = nullptr;  // the family's own figure, when it has one
  std::optional<double> discount_pct;
  std::optional<double> usd_per_hour;   // effective: the term's total over its hours
  std::optional<double> usd_per_month;  // effective, 730 h billed whether used or not
  std::optional<double> recurring_usd_per_month;  // what is billed monthly after the upfront part
  std::optional<double> upfront_usd;  // paid at purchase for the whole term
  std::optional<double> break_even_utilization_pct;  // below this share of 730 h, on-demand is cheaper
  bool no_on_demand = false;  // a figure, but no on-demand price to apply it to
  std::string note() const;   // why it is not priced, "" when it is
  const std::string& source() const { return figure ? figure->source : way->source; }
  const std::string& source_date() const { return figure ? figure->source_date : way->source_date; }
  const std::string& estimates() const { return figure ? figure->estimates : way->estimates; }
};

struct Cost {
  double monthly_hours = 0;
  std::string schedule_basis;
  std::string pricing;  // on_demand | spot | mixed | reserved_1y | reserved_3y | a way's id | unknown
  std::string way;      // the way to pay a commitment is billed on (its id), when one is
  std::optional<double> on_demand_usd_per_hour;  // for all instances of the placement
  std::optional<double> spot_usd_per_hour;
  std::optional<double> on_demand_usd_per_month;
  std::optional<double> spot_usd_per_month;
  std::optional<double> usd_per_hour;  // effective rate the monthly figure uses
  std::optional<double> usd_per_month;
  std::optional<double> spot_savings_pct;
  std::vector<CommitmentCost> commitments;
  std::optional<double> spot_interruption_notice_s;
  std::string
      spot_basis;  // which zone's price the spot rate is ("" where the provider prices a region)
  std::string provider;
  std::string region;
  std::vector<std::string> price_flags;  // the asked offer's flags: its own price was not used
  std::string priced_from_region;        // where the price used comes from, when not the asked region
  std::string basis;  // "1 x p5.4xlarge x $6.88/h (on-demand) x 720 h = $4,953.60"
  std::string note;   // why a rate is missing or replaced
};

// every_way: price every way to pay the provider offers (Cost::commitments, which a fit or cost
// answer lists); false prices only the way the billing asks for (the road's many candidates).
// explain: false leaves `basis` empty (candidates a sweep compares and drops).
Cost cost_of(const Catalog& catalog, const Placement& placement, const Billing& billing, bool every_way = true,
             bool explain = true);

std::string usd(double amount);       // "$4,953.60"
std::string usd_rate(double amount);  // "$6.88", "$10.4926": up to 4 decimals for hourly rates
// "the cheapest of 4 zones with spot in us-east-1 (their median $8.0001/h)"; "" where the price
// file gives one price for the region.
std::string spot_zone_basis(const InstanceType& it);

}  // namespace gpufleet
