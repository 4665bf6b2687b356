#include "gpufleet/cost.hpp"

#include <cmath>
#include <cstdio>

namespace gpufleet {
namespace {

int instances_for(const InstanceType& it, double gpus) {
  if (it.gpus <= 0) return 1;
  return std::max(1, static_cast<int>(std::ceil(gpus / it.gpus - 1e-9)));
}

std::string number_text(double x, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

}  // namespace

std::string usd_rate(double amount) {
  std::string text = number_text(amount, 4);
  while (text.size() > 3 && text.back() == '0' && text[text.size() - 3] != '.') text.pop_back();
  return "$" + text;
}

std::string usd(double amount) {
  std::string digits = number_text(std::fabs(amount), 2);
  std::string whole = digits.substr(0, digits.find('.'));
  std::string grouped;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    if (i > 0 && (whole.size() - i) % 3 == 0) grouped += ',';
    grouped += whole[i];
  }
  return std::string(amount < 0 ? "-$" : "$") + grouped + digits.substr(digits.find('.'));
}

Placement place_in_family(const Catalog& catalog, const Family& family, double gpus) {
  Placement p;
  p.gpus = gpus;
  p.requested = family.key;
  p.resolved_from_family = true;
  // family.instances is sorted by GPU count, priced first, then price.
  for (std::size_t index : family.instances) {
    const InstanceType& it = catalog.instances[index];
    if (it.gpus + 1e-9 >= gpus) {
      p.instance = &it;
      p.instance_count = 1;
      return p;
    }
  }
  // No single instance holds them: several of the largest (priced where one is).
  const InstanceType* largest = nullptr;
  for (std::size_t index : family.instances) {
    const InstanceType& it = catalog.instances[index];
    if (!largest || it.gpus > largest->gpus ||
        (it.gpus == largest->gpus && !largest->on_demand_usd_per_hour && it.on_demand_usd_per_hour))
      largest = &it;
  }
  p.instance = largest;
  p.instance_count = largest ? instances_for(*largest, gpus) : 0;
  return p;
}

std::optional<Placement> place(const Catalog& catalog, const std::string& name, double gpus) {
  if (const InstanceType* it = catalog.instance(name)) {
    Placement p;
    p.instance = it;
    p.gpus = gpus;
    p.instance_count = instances_for(*it, gpus);
    p.requested = name;
    return p;
  }
  if (const Family* family = catalog.family(name)) {
    Placement p = place_in_family(catalog, *family, gpus);
    p.requested = name;
    if (p.instance) return p;
  }
  return std::nullopt;
}

Cost cost_of(const Placement& placement, double monthly_hours, bool use_spot) {
  Cost c;
  c.monthly_hours = monthly_hours;
  c.use_spot = use_spot;
  const InstanceType& it = *placement.instance;
  const double n = placement.instance_count;
  if (it.on_demand_usd_per_hour) {
    c.on_demand_usd_per_hour = *it.on_demand_usd_per_hour * n;
    c.on_demand_usd_per_month = *c.on_demand_usd_per_hour * monthly_hours;
  }
  if (it.spot_usd_per_hour) {
    c.spot_usd_per_hour = *it.spot_usd_per_hour * n;
    c.spot_usd_per_month = *c.spot_usd_per_hour * monthly_hours;
  }
  if (c.on_demand_usd_per_hour && c.spot_usd_per_hour && *c.on_demand_usd_per_hour > 0) {
    c.spot_savings_pct = 100.0 * (1.0 - *c.spot_usd_per_hour / *c.on_demand_usd_per_hour);
  }
  std::optional<double> unit_rate;
  if (use_spot && it.spot_usd_per_hour) {
    c.pricing = "spot";
    unit_rate = it.spot_usd_per_hour;
  } else if (it.on_demand_usd_per_hour) {
    c.pricing = "on_demand";
    unit_rate = it.on_demand_usd_per_hour;
    if (use_spot) c.note = "no spot price known for " + it.name + "; on-demand price used";
  } else {
    c.pricing = "unknown";
    c.note = "no public " + std::string(use_spot ? "spot or on-demand" : "on-demand") +
             " price for " + it.name + (it.price_notes.empty() ? "" : " (" + it.price_notes + ")");
  }
  if (unit_rate) {
    c.usd_per_hour = *unit_rate * n;
    c.usd_per_month = *c.usd_per_hour * monthly_hours;
    c.basis = number_text(n, 0) + " x " + it.name + " x " + usd_rate(*unit_rate) + "/h (" +
              (c.pricing == "spot" ? "spot" : "on-demand") + ") x " +
              number_text(monthly_hours, monthly_hours == std::floor(monthly_hours) ? 0 : 1) +
              " h = " + usd(*c.usd_per_month);
  }
  return c;
}

}  // namespace gpufleet
