#include "pricing/cost.hpp"

#include <algorithm>
#include <cmath>

#include "support/decimal.hpp"
#include "support/json_reader.hpp"

namespace gpufleet {
namespace {

int instances_for(const InstanceType& it, double gpus) {
  if (it.gpus <= 0) return 1;
  // Bounded: request GPU counts are at most 4096 and catalog counts at least kMinGpusPerInstance.
  return static_cast<int>(std::clamp(std::ceil(gpus / it.gpus - 1e-9), 1.0, 1e6));
}

// printf's "%.*f" at any magnitude (1e308 has 309 digits).
std::string number_text(double x, int decimals) { return decimal::fixed(x, decimals); }

std::string pct_text(double pct) { return number_text(pct, pct == std::floor(pct) ? 0 : 1) + "%"; }

// The family's figure for a way (by family key, then by the family's series), or nullptr.
const WayFigure* family_figure(const Catalog& catalog, const WayToPay& way, const InstanceType& it) {
  if (way.families.empty()) return nullptr;
  auto found = way.families.find(detail::lower(it.family_key));
  if (found != way.families.end()) return &found->second;
  if (const Family* family = catalog.family(it.family_key)) {
    found = way.families.find(detail::lower(family->family));
    if (found != way.families.end()) return &found->second;
  }
  return nullptr;
}


// Every way the provider offers for this instance, priced from the placement's on-demand rate.
std::vector<CommitmentCost> ways_for(const Catalog& catalog, const ProviderTerms& terms, const InstanceType& it,
                                     std::optional<double> on_demand_usd_per_hour) {
  std::vector<CommitmentCost> out;
  out.reserve(terms.ways.size());
  for (const WayToPay& way : terms.ways) {
    const WayFigure* figure = family_figure(catalog, way, it);
    if (figure && !figure->offered) continue;
    CommitmentCost x;
    x.way = &way;
    x.figure = figure && figure->discount_pct ? figure : nullptr;
    x.discount_pct = x.figure ? figure->discount_pct : way.discount_pct;
    if (x.discount_pct && on_demand_usd_per_hour) {
      const double keep = 1 - *x.discount_pct / 100;
      const double rate = *on_demand_usd_per_hour * keep;  // the term's total over its hours
      x.usd_per_hour = rate;
      x.usd_per_month = rate * kAlwaysOnHoursPerMonth;
      x.upfront_usd = rate * way.term_hours() * way.upfront_share;
      x.recurring_usd_per_month = rate * (1 - way.upfront_share) * kAlwaysOnHoursPerMonth;
      x.break_even_utilization_pct = 100 * keep;
    }
    x.no_on_demand = x.discount_pct && !on_demand_usd_per_hour;
    out.push_back(x);
  }
  return out;
}

}  // namespace

std::string way_name(const WayToPay& w) {
  return w.name + ", " + decimal::whole(w.term_years) + " year" + (w.term_years > 1 ? "s" : "") + ", " +
         (w.upfront == "none" ? "no upfront" : w.upfront == "all" ? "all upfront" : "partial upfront");
}

std::string CommitmentCost::note() const {
  if (usd_per_month) return "";
  if (no_on_demand) return "no on-demand price (the base of a commitment)";
  return "no public figure for this family" +
         (way->up_to_pct ? " (the provider publishes up to " + pct_text(*way->up_to_pct) + ")" : std::string()) +
         "; not priced";
}

std::string usd_rate(double amount) {
  std::string text = number_text(amount, 4);
  while (text.size() > 3 && text.back() == '0' && text[text.size() - 3] != '.') text.pop_back();
  return "$" + text;
}

std::string spot_zone_basis(const InstanceType& it) {
  if (!it.spot_usd_per_hour || it.spot_zones <= 0) return "";
  if (it.spot_zones == 1) return "the one zone of " + it.region + " with spot below on-demand";
  std::string text =
      "the cheapest of " + decimal::whole(it.spot_zones) + " zones with spot in " + it.region;
  if (it.spot_zone_median_usd_per_hour)
    text += " (their median " + usd_rate(*it.spot_zone_median_usd_per_hour) + "/h per instance)";
  return text;
}

std::string usd(double amount) {
  const std::string digits = number_text(std::fabs(amount), 2);
  const std::size_t point = std::min(digits.find('.'), digits.size());
  std::string whole = digits.substr(0, point);
  std::string grouped;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    if (i > 0 && (whole.size() - i) % 3 == 0) grouped += ',';
    grouped += whole[i];
  }
  return std::string(amount < 0 ? "-$" : "$") + grouped + digits.substr(point);
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

std::string to_string(PaymentMode mode) {
  switch (mode) {
    case PaymentMode::kOnDemand: return "on_demand";
    case PaymentMode::kSpot: return "spot";
    case PaymentMode::kMixed: return "mixed";
    case PaymentMode::kReserved1y: return "reserved_1y";
    case PaymentMode::kReserved3y: return "reserved_3y";
    case PaymentMode::kWay: return "way";
  }
  return "on_demand";
}

std::optional<PaymentMode> parse_payment_mode(const std::string& text) {
  for (PaymentMode m : {PaymentMode::kOnDemand, PaymentMode::kSpot, PaymentMode::kMixed,
                        PaymentMode::kReserved1y, PaymentMode::kReserved3y}) {
    if (to_string(m) == text) return m;
  }
  return std::nullopt;
}

namespace {
// A way to pay asked for at a provider that does not offer it: whose way it is, by name.
std::string way_elsewhere(const Catalog& catalog, const std::string& id) {
  for (const auto& [key, terms] : catalog.providers)
    if (const WayToPay* w = terms.way(id)) return way_name(*w) + " is a way to pay at " + catalog.provider_name(key);
  return "no way to pay \"" + id + "\" in this catalog";
}
// The same instance type in the cheapest region of its provider whose price nothing flags, or
// nullptr (the flag is on the type itself, or every region's price is flagged).
const InstanceType* trusted_offer(const Catalog& catalog, const InstanceType& flagged) {
  const InstanceType* best = nullptr;
  if (!catalog.offers) return best;
  for (const InstanceType& o : *catalog.offers) {
    if (o.name != flagged.name || o.provider != flagged.provider || !o.price_flags.empty() || !o.on_demand_usd_per_hour)
      continue;
    if (!best || *o.on_demand_usd_per_hour < *best->on_demand_usd_per_hour) best = &o;
  }
  return best;
}

}  // namespace

Cost cost_of(const Catalog& catalog, const Placement& placement, const Billing& billing, bool every_way,
             bool explain) {
  Cost c;
  const InstanceType& named = *placement.instance;
  // A price the catalog flags is never used: the same type's trustworthy price in another region
  // of its provider stands in, said so; with none, the placement is unpriced with a way out.
  const InstanceType* source = &named;
  if (!named.price_flags.empty()) {
    c.price_flags = named.price_flags;
    source = trusted_offer(catalog, named);
    if (!source) {
      c.monthly_hours = billing.hours_per_month;
      c.schedule_basis = billing.schedule_basis;
      c.provider = named.provider;
      c.region = named.region;
      c.pricing = "unknown";
      c.note = "the catalog flags " + named.name + "'s price (" + price_flag_name(named.price_flags.front()) +
               ") in every region loaded that lists it: not used. Load another region of " + named.provider +
               " (its price may be trustworthy there), check the price against the provider's page and correct it in "
               "config/prices/overrides.json, or pick another instance type";
      return c;
    }
    c.priced_from_region = source->region;
  }
  const InstanceType& it = *source;
  const double n = placement.instance_count;
  const double hours = billing.hours_per_month;
  c.monthly_hours = hours;
  c.schedule_basis = billing.schedule_basis;
  c.provider = it.provider;
  c.region = named.region;
  const ProviderTerms* terms = catalog.provider(it.provider);
  if (it.on_demand_usd_per_hour) {
    c.on_demand_usd_per_hour = *it.on_demand_usd_per_hour * n;
    c.on_demand_usd_per_month = *c.on_demand_usd_per_hour * hours;
  }
  const bool commits = billing.mode == PaymentMode::kReserved1y || billing.mode == PaymentMode::kReserved3y ||
                       billing.mode == PaymentMode::kWay;
  if (terms && (every_way || commits)) c.commitments = ways_for(catalog, *terms, it, c.on_demand_usd_per_hour);
  if (it.spot_usd_per_hour) {
    c.spot_usd_per_hour = *it.spot_usd_per_hour * n;
    c.spot_usd_per_month = *c.spot_usd_per_hour * hours;
    if (explain) c.spot_basis = spot_zone_basis(it);
    if (terms && terms->spot_interruption_notice_s > 0) {
      c.spot_interruption_notice_s = terms->spot_interruption_notice_s;
    }
  }
  if (c.on_demand_usd_per_hour && c.spot_usd_per_hour && *c.on_demand_usd_per_hour > 0) {
    c.spot_savings_pct = 100.0 * (1.0 - *c.spot_usd_per_hour / *c.on_demand_usd_per_hour);
  }
  const std::string hours_text = number_text(hours, hours == std::floor(hours) ? 0 : 1) + " h";
  auto count = [&] { return number_text(n, 0) + " x " + it.name + " x "; };
  auto unpriced = [&](const std::string& what) {
    c.pricing = "unknown";
    c.note = "no public " + what + " price for " + it.name +
             (it.price_notes.empty() ? "" : " (" + it.price_notes + ")");
  };
  switch (billing.mode) {
    case PaymentMode::kReserved1y:
    case PaymentMode::kReserved3y:
    case PaymentMode::kWay: {
      const std::string asked = billing.pricing();
      std::string id = billing.way;
      if (billing.mode != PaymentMode::kWay && terms) {
        auto d = terms->default_ways.find(asked);
        if (d != terms->default_ways.end()) id = d->second;
      }
      auto found = std::find_if(c.commitments.begin(), c.commitments.end(),
                                [&](const CommitmentCost& x) { return !id.empty() && x.way->id == id; });
      auto on_demand_instead = [&](const std::string& why) {
        c.pricing = "on_demand";
        c.usd_per_hour = c.on_demand_usd_per_hour;
        c.usd_per_month = c.on_demand_usd_per_month;
        c.note = why + "; on-demand price used";
        if (explain) c.basis = count() + usd_rate(*it.on_demand_usd_per_hour) + "/h (on-demand) x " + hours_text +
                  " = " + usd(*c.usd_per_month);
      };
      if (!it.on_demand_usd_per_hour) {
        unpriced("on-demand (the base of a commitment)");
      } else if (found == c.commitments.end()) {
        const WayToPay* way = terms && !id.empty() ? terms->way(id) : nullptr;
        if (way) {
          const WayFigure* figure = family_figure(catalog, *way, it);
          on_demand_instead(way->name + " does not cover " + it.family_key +
                            (figure && !figure->reason.empty() ? " (" + figure->reason + ")" : ""));
        } else if (billing.mode == PaymentMode::kWay) {
          on_demand_instead(way_elsewhere(catalog, id) + ", not at " + catalog.provider_name(it.provider));
        } else {
          on_demand_instead("no " + asked.substr(asked.size() - 2, 1) + "-year commitment known for " +
                            catalog.provider_name(it.provider) +
                            (terms && !terms->notes.empty() ? " (" + terms->notes + ")" : ""));
        }
      } else if (!found->usd_per_month) {
        on_demand_instead(found->way->name + ", " + decimal::whole(found->way->term_years) + " year" +
                          (found->way->term_years > 1 ? "s" : "") + " on " + it.family_key + ": " + found->note());
      } else {
        const CommitmentCost& x = *found;
        c.pricing = asked;
        const WayToPay& w = *x.way;
        c.way = w.id;
        c.usd_per_month = x.usd_per_month;
        c.usd_per_hour = x.usd_per_hour;
        if (explain) c.basis = count() + usd_rate(*it.on_demand_usd_per_hour) + "/h x (1 - " + pct_text(*x.discount_pct) + " " + way_name(w) +
                  ") x 730 h (billed whether used or not) = " + usd(*x.usd_per_month);
        if (explain && w.upfront == "all") {
          c.basis += " a month over the term, all paid upfront: " + usd(*x.upfront_usd);
        } else if (explain && w.upfront == "partial") {
          c.basis += " a month over the term: " + usd(*x.upfront_usd) + " upfront + " +
                     usd(*x.recurring_usd_per_month) + "/month";
        }
        if (hours < kAlwaysOnHoursPerMonth * *x.break_even_utilization_pct / 100) {
          c.note = "at " + hours_text + "/month on-demand costs " + usd(*c.on_demand_usd_per_month) +
                   ", less than the commitment: break-even is " +
                   number_text(*x.break_even_utilization_pct, 0) + "% utilization";
        }
      }
      break;
    }
    case PaymentMode::kSpot:
    case PaymentMode::kMixed: {
      const double share = billing.mode == PaymentMode::kSpot ? 1.0 : billing.spot_share;
      if (!it.on_demand_usd_per_hour && !(it.spot_usd_per_hour && share == 1.0)) {
        unpriced(share == 1.0 ? "spot or on-demand" : "on-demand");
      } else if (!it.spot_usd_per_hour) {
        c.pricing = "on_demand";
        c.usd_per_hour = c.on_demand_usd_per_hour;
        c.usd_per_month = c.on_demand_usd_per_month;
        c.note = "no spot price known for " + it.name + "; on-demand price used";
        if (explain) c.basis = count() + usd_rate(*it.on_demand_usd_per_hour) + "/h (on-demand) x " + hours_text +
                  " = " + usd(*c.usd_per_month);
      } else if (share == 1.0) {
        c.pricing = "spot";
        c.usd_per_hour = c.spot_usd_per_hour;
        c.usd_per_month = c.spot_usd_per_month;
        if (explain)
          c.basis = count() + usd_rate(*it.spot_usd_per_hour) + "/h (spot" +
                    (it.spot_zones > 1 ? ", cheapest zone" : "") + ") x " + hours_text + " = " +
                    usd(*c.usd_per_month);
      } else {
        c.pricing = "mixed";
        const double rate = share * *it.spot_usd_per_hour + (1 - share) * *it.on_demand_usd_per_hour;
        c.usd_per_hour = rate * n;
        c.usd_per_month = *c.usd_per_hour * hours;
        if (explain)
          c.basis = count() + "(" + number_text(100 * share, 0) + "% x " +
                    usd_rate(*it.spot_usd_per_hour) +
                    (it.spot_zones > 1 ? " spot (cheapest zone) + " : " spot + ") +
                    number_text(100 * (1 - share), 0) + "% x " +
                    usd_rate(*it.on_demand_usd_per_hour) + " on-demand)/h x " + hours_text + " = " +
                    usd(*c.usd_per_month);
      }
      break;
    }
    case PaymentMode::kOnDemand:
      if (!it.on_demand_usd_per_hour) {
        unpriced("on-demand");
      } else {
        c.pricing = "on_demand";
        c.usd_per_hour = c.on_demand_usd_per_hour;
        c.usd_per_month = c.on_demand_usd_per_month;
        if (explain) c.basis = count() + usd_rate(*it.on_demand_usd_per_hour) + "/h (on-demand) x " + hours_text +
                  " = " + usd(*c.usd_per_month);
      }
      break;
  }
  if (!c.priced_from_region.empty()) {
    c.note = "the catalog flags " + named.name + "'s price in " + named.region + " (" +
             price_flag_name(named.price_flags.front()) + "): priced as in " + c.priced_from_region +
             ", its provider's cheapest region with a trustworthy price" + (c.note.empty() ? "" : "; " + c.note);
  }
  return c;
}

}  // namespace gpufleet
