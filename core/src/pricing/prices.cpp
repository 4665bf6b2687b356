// Price files (config/prices/<provider>/<region>.json, written by scripts/update-prices): every
// instance type's offer in every region priced, and the regional views questions are answered on.

#include "pricing/prices.hpp"

#include "gpufleet/names.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "support/decimal.hpp"
#include "catalog/fields.hpp"
#include "support/json_guard.hpp"
#include "support/json_reader.hpp"
#include "support/small_sort.hpp"

namespace gpufleet {
namespace detail {
namespace {

using fields::kMaxPriceUsdPerHour;
using fields::kMinPriceUsdPerHour;
constexpr std::size_t kMaxPriceFiles = 256;
constexpr std::size_t kMaxOffersPerFile = 4096;
constexpr std::size_t kMaxOffers = 65536;

bool is_date(const std::string& text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  const int month = (text[5] - '0') * 10 + (text[6] - '0');
  const int day = (text[8] - '0') * 10 + (text[9] - '0');
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

struct LoadedFile {
  PriceSnapshot snapshot;
  std::string bands_source, bands_as_of, bands_unknown;  // the file's "spot_bands"
  bool has_bands = false;
  Json doc;
  std::map<std::string, std::string> offer_keys;  // lower-case instance name -> key in "offers"
};

std::optional<LoadedFile> read_file(const PriceFile& file, Errors& errors) {
  auto doc = parse_checked(file.text, file.name, kCatalogLimits, errors);
  if (!doc) return std::nullopt;
  const Reader r(file.name, errors);
  if (!r.expect_object(*doc, "")) return std::nullopt;
  const std::size_t before = errors.size();
  fields::check_fields(r, *doc, "", "price_file");
  LoadedFile out;
  PriceSnapshot& s = out.snapshot;
  s.file = file.name;
  s.provider = r.string(*doc, "provider", "", true).value_or("");
  s.region = lower(r.string(*doc, "region", "", true).value_or(""));
  s.spot_statistic = r.string(*doc, "spot_statistic", "", false).value_or("");
  if (s.region.empty() && doc->contains("region")) r.fail("out_of_range", "/region", "expected a region name, got \"\"");
  if (const Json* snap = r.object(*doc, "snapshot", "", true)) {
    fields::check_fields(r, *snap, "/snapshot", "snapshot");
    s.source = r.string(*snap, "source", "/snapshot", true).value_or("");
    if (auto path = r.string(*snap, "path", "/snapshot", false)) s.source += " " + *path;
    s.commit = r.string(*snap, "commit", "/snapshot", false).value_or("");
    s.date = r.string(*snap, "date", "/snapshot", true).value_or("");
    r.string(*snap, "date_source", "/snapshot", false);
    if (s.date == "unknown") s.date = "undated: the upstream snapshot's date is not recorded; see its commit";
    else if (!is_date(s.date)) {
      r.fail("out_of_range", "/snapshot/date", "expected a date YYYY-MM-DD or \"unknown\", got \"" + s.date + "\"");
    }
  }
  if (const Json* bands = r.object(*doc, "spot_bands", "", false)) {
    fields::check_fields(r, *bands, "/spot_bands", "spot_bands");
    out.has_bands = true;
    out.bands_source = r.string(*bands, "source", "/spot_bands", true).value_or("");
    out.bands_as_of = r.string(*bands, "as_of", "/spot_bands", true).value_or("");
    r.string(*bands, "as_of_source", "/spot_bands", false);
    r.string(*bands, "meaning", "/spot_bands", false);
    out.bands_unknown = r.string(*bands, "unknown", "/spot_bands", false).value_or("");
    if (out.bands_as_of != "unknown" && !is_date(out.bands_as_of)) {
      r.fail("out_of_range", "/spot_bands/as_of", "expected a date YYYY-MM-DD or \"unknown\", got \"" + out.bands_as_of + "\"");
    }
  }
  const Json* offers = r.object(*doc, "offers", "", true);
  if (offers && r.at_most(*offers, "/offers", kMaxOffersPerFile, "offers")) {
    const fields::Kind& offer_kind = fields::kind("offer");
    for (const auto& [name, offer] : offers->items()) {
      const std::string path = Reader::child("/offers", name);
      if (!r.expect_object(offer, path)) continue;
      fields::check_fields(r, offer, path, offer_kind);
      if (const Json* parts = r.object(offer, "on_demand_parts", path, false)) {
        fields::check_fields(r, *parts, path + "/on_demand_parts", "on_demand_parts");
        for (const char* key : {"host", "accelerators"}) r.number(*parts, key, path + "/on_demand_parts", false, {0, kMaxPriceUsdPerHour});
      }
      for (const char* key : {"on_demand_cost_per_hour", "spot_cost_per_hour", "spot_median_cost_per_hour"}) {
        r.number(offer, key, path, false, {kMinPriceUsdPerHour, kMaxPriceUsdPerHour});
      }
      for (const char* key : {"zones", "spot_zones"}) r.number(offer, key, path, false, {0, 1000});
      for (const char* key : {"notes", "source", "source_date"}) r.string(offer, key, path, false);
      if (const Json* band = r.object(offer, "interruption_band", path, false)) {
        const std::string bp = path + "/interruption_band";
        fields::check_fields(r, *band, bp, "interruption_band");
        auto low = r.number(*band, "low_pct", bp, true, {0, 100});
        auto high = r.number(*band, "high_pct", bp, true, {0, 100});
        r.string(*band, "label", bp, true);
        if (low && high && *low > *high) {
          r.fail("out_of_range", bp + "/high_pct", "expected high_pct at or above low_pct (" + decimal::general(*low, 4) + ")");
        }
        if (!out.has_bands) r.fail("missing_field", "/spot_bands", "expected \"spot_bands\" {source, as_of} in a file whose offers carry interruption bands");
      }
      if (const Json* anomalies = r.member(offer, "anomalies", path, false)) {
        if (!anomalies->is_array()) {
          r.fail("wrong_type", path + "/anomalies", "expected an array of {code, detail}, got " + Reader::describe(*anomalies));
        } else if (r.at_most(*anomalies, path + "/anomalies", 16, "anomalies")) {
          for (std::size_t i = 0; i < anomalies->size(); ++i) {
            const std::string ap = path + "/anomalies/" + decimal::whole(i);
            if (!r.expect_object((*anomalies)[i], ap)) continue;
            fields::check_fields(r, (*anomalies)[i], ap, "anomaly");
            r.string((*anomalies)[i], "code", ap, true);
            r.string((*anomalies)[i], "detail", ap, true);
          }
        }
      }
      out.offer_keys.emplace(lower(name), name);
    }
  }
  if (errors.size() != before) return std::nullopt;
  out.doc = std::move(*doc);
  return out;
}

std::string money(double usd) {
  return "$" + decimal::general(usd, 4);
}

// An offer of `type` in the file's region, priced from `offer`.
InstanceType offer_of(const InstanceType& type, const LoadedFile& f, const std::string& key, Catalog& catalog) {
  const Json& offer = f.doc["offers"][key];
  InstanceType o = type;
  o.region = f.snapshot.region;
  o.file = f.snapshot.file;
  o.json_path = Reader::child("/offers", key);
  o.on_demand_usd_per_hour.reset();
  o.spot_usd_per_hour.reset();
  o.spot_zone_median_usd_per_hour.reset();
  if (offer.contains("on_demand_cost_per_hour")) o.on_demand_usd_per_hour = offer["on_demand_cost_per_hour"].get<double>();
  if (offer.contains("spot_cost_per_hour")) o.spot_usd_per_hour = offer["spot_cost_per_hour"].get<double>();
  if (offer.contains("spot_median_cost_per_hour")) {
    o.spot_zone_median_usd_per_hour = offer["spot_median_cost_per_hour"].get<double>();
  }
  o.spot_zones = static_cast<int>(offer.value("spot_zones", 0.0));
  o.price_notes = offer.value("notes", "");
  if (!f.snapshot.spot_statistic.empty() && o.spot_usd_per_hour) {
    o.price_notes += std::string(o.price_notes.empty() ? "" : "; ") + "spot: " + f.snapshot.spot_statistic;
    if (offer.contains("spot_zones")) {
      o.price_notes += " (" + Json(offer["spot_zones"]).dump() + " of " + Json(offer.value("zones", Json(0))).dump() + " zones)";
    }
  }
  // An offer that is not the snapshot's (a rate the overrides give) names its own source.
  o.source = offer.value("source", f.snapshot.source + (f.snapshot.commit.empty() ? "" : "@" + f.snapshot.commit.substr(0, 8)));
  o.source_date = offer.value("source_date", f.snapshot.date);
  o.interruption_band.reset();
  o.band_unknown.clear();
  if (const auto band = offer.find("interruption_band"); band != offer.end()) {
    o.interruption_band = InterruptionBand{(*band)["low_pct"].get<double>(), (*band)["high_pct"].get<double>(),
                                           (*band)["label"].get<std::string>(), f.bands_source, f.bands_as_of};
  } else if (!f.bands_unknown.empty()) {
    o.band_unknown = f.bands_unknown;
  } else {
    o.band_unknown = f.has_bands ? "the interruption-band feed lists no band for this instance type in this region"
                                 : "the price file carries no interruption bands";
  }
  o.price_flags.clear();
  if (const auto anomalies = offer.find("anomalies"); anomalies != offer.end()) {
    for (std::size_t i = 0; i < anomalies->size(); ++i) {
      const Json& a = (*anomalies)[i];
      o.price_flags.push_back(a["code"].get<std::string>());
      catalog.warnings.push_back({a["code"].get<std::string>(), f.snapshot.file,
                                  o.json_path + "/anomalies/" + decimal::whole(i),
                                  type.name + " in " + o.region + ": " + a["detail"].get<std::string>()});
    }
  }
  return o;
}

double rate(const InstanceType& it, double spot_share) {
  const double od = it.on_demand_usd_per_hour.value_or(0);
  const double spot = it.spot_usd_per_hour.value_or(od);
  if (!it.on_demand_usd_per_hour) return spot;
  return (1 - spot_share) * od + spot_share * spot;
}

bool priced(const InstanceType& it) {
  return (it.on_demand_usd_per_hour || it.spot_usd_per_hour) && it.price_flags.empty();
}

std::string list_regions(const std::vector<std::string>& regions) {
  std::string out;
  const std::size_t shown = std::min<std::size_t>(regions.size(), 6);
  for (std::size_t i = 0; i < shown; ++i) out += (i ? ", " : "") + regions[i];
  if (regions.size() > shown) out += " and " + decimal::whole(regions.size() - shown) + " more";
  return out;
}

// One offer of each instance type, in the regions `choice` allows.
std::vector<InstanceType> choose(const Catalog& catalog, const RegionChoice& choice) {
  std::vector<InstanceType> chosen;
  const auto& offers = *catalog.offers;
  for (std::size_t begin = 0; begin < offers.size();) {
    std::size_t end = begin + 1;
    while (end < offers.size() && offers[end].name == offers[begin].name &&
           offers[end].family_key == offers[begin].family_key)
      ++end;
    const InstanceType& first = offers[begin];
    const auto named = choice.regions.find(first.provider);
    const std::vector<std::string> usual{catalog.usual_region(first.provider)};
    const std::vector<std::string>& allowed = named != choice.regions.end() ? named->second : usual;
    const InstanceType* best = nullptr;
    std::size_t asked = 0;  // priced offers in the regions allowed
    double low = 0, high = 0;
    std::vector<std::string> priced_in;
    for (std::size_t i = begin; i < end; ++i) {
      const InstanceType& o = offers[i];
      if (priced(o)) priced_in.push_back(o.region);
      if (!choice.all && std::find(allowed.begin(), allowed.end(), o.region) == allowed.end()) continue;
      if (priced(o)) {
        const double r = rate(o, choice.spot_share);
        low = asked ? std::min(low, r) : r;
        high = asked ? std::max(high, r) : r;
        ++asked;
      }
      if (!best || (priced(o) && (!priced(*best) || rate(o, choice.spot_share) < rate(*best, choice.spot_share))) ||
          (!priced(*best) && !best->on_demand_usd_per_hour && o.on_demand_usd_per_hour))
        best = &o;
    }
    if (!best && named == choice.regions.end() && !choice.all) {
      // A type priced only by gpu_instances.json is offered where the catalog says.
      for (std::size_t i = begin; i < end && !best; ++i) {
        if (offers[i].file == kGpuInstancesFile) best = &offers[i];
      }
    }
    if (best) {
      chosen.push_back(*best);
      if (asked > 1 && priced(*best)) {
        std::string& notes = chosen.back().price_notes;
        notes = "cheapest of " + decimal::whole(asked) + " regions asked (" + money(low) + " to " + money(high) +
                "/h)" + (notes.empty() ? "" : "; " + notes);
      }
    } else {
      InstanceType missing = first;
      missing.on_demand_usd_per_hour.reset();
      missing.spot_usd_per_hour.reset();
      missing.price_flags.clear();
      missing.region = choice.all ? catalog.usual_region(first.provider) : allowed.front();
      missing.price_notes = "no price in " + list_regions(allowed) +
                            (priced_in.empty() ? "" : "; priced in " + list_regions(priced_in));
      chosen.push_back(std::move(missing));
    }
    begin = end;
  }
  return chosen;
}

// Faults public catalogs are known to have; the row still loads, flagged and left out of rankings.
void flag_suspect_prices(Catalog& catalog, std::vector<InstanceType>& offers) {
  constexpr double kSentinelPrices[] = {0.0, 700.0};
  for (auto& it : offers) {
    auto flag = [&](const char* code, const std::string& field, const std::string& message) {
      it.price_flags.push_back(code);
      catalog.warnings.push_back({code, it.file, it.json_path + "/" + field, message});
    };
    const std::string where = it.name + (it.file == kGpuInstancesFile ? "" : " in " + it.region);
    for (const char* field : {"on_demand_cost_per_hour", "spot_cost_per_hour"}) {
      const auto& value = std::string(field) == "spot_cost_per_hour" ? it.spot_usd_per_hour
                                                                     : it.on_demand_usd_per_hour;
      for (double sentinel : kSentinelPrices) {
        if (value && *value == sentinel) {
          flag("sentinel_price", field,
               where + " lists $" + Json(sentinel).dump() +
                   "/h, a placeholder some public catalogs use for 'no price'");
        }
      }
    }
    if (it.on_demand_usd_per_hour && it.spot_usd_per_hour &&
        *it.spot_usd_per_hour >= *it.on_demand_usd_per_hour && *it.on_demand_usd_per_hour > 0) {
      flag("spot_not_below_on_demand", "spot_cost_per_hour",
           where + " spot $" + Json(*it.spot_usd_per_hour).dump() + "/h is not below on-demand $" +
               Json(*it.on_demand_usd_per_hour).dump() + "/h: no spot price was captured");
    }
  }
}

}  // namespace

void read_price_files(const std::vector<PriceFile>& files, Catalog& catalog, Errors& errors) {
  std::vector<LoadedFile> loaded;
  if (files.size() > kMaxPriceFiles) {
    errors.push_back({"too_large", files[kMaxPriceFiles].name, "",
                      "expected at most " + decimal::whole(kMaxPriceFiles) + " price files"});
    return;
  }
  std::size_t offers = 0;
  for (const PriceFile& file : files) {
    auto f = read_file(file, errors);
    if (!f) continue;
    if (!catalog.providers.count(f->snapshot.provider)) {
      // A catalog of one's own may leave a provider out: its prices are not used.
      catalog.warnings.push_back({"unknown_name", file.name, "/provider",
                                  "\"" + f->snapshot.provider + "\" is not a provider of gpu_instances.json: this file's prices are not used"});
      continue;
    }
    for (const LoadedFile& other : loaded) {
      if (other.snapshot.region == f->snapshot.region) {
        errors.push_back({"duplicate_name", file.name, "/region",
                          "region \"" + f->snapshot.region + "\" is already priced by " + other.snapshot.file});
      }
    }
    if ((offers += f->offer_keys.size()) > kMaxOffers) {
      errors.push_back({"too_large", file.name, "/offers",
                        "expected at most " + decimal::whole(kMaxOffers) + " offers over all price files"});
      return;
    }
    loaded.push_back(std::move(*f));
  }
  if (!errors.empty()) return;

  std::set<std::string> known;
  auto all = std::make_shared<std::vector<InstanceType>>();
  for (const InstanceType& type : catalog.instances) {
    known.insert(lower(type.name));
    const bool inline_priced = type.on_demand_usd_per_hour || type.spot_usd_per_hour;
    const std::size_t first = all->size();
    if (inline_priced) all->push_back(type);  // the catalog's own price wins in the region it names
    for (const LoadedFile& f : loaded) {
      if (f.snapshot.provider != type.provider) continue;
      auto key = f.offer_keys.find(lower(type.name));
      if (key == f.offer_keys.end() || (inline_priced && f.snapshot.region == type.region)) continue;
      all->push_back(offer_of(type, f, key->second, catalog));
    }
    if (all->size() == first) all->push_back(type);  // unpriced in every region: one offer, no price
  }
  for (const LoadedFile& f : loaded) {
    catalog.snapshots.push_back(f.snapshot);
    catalog.region_provider.emplace(lower(f.snapshot.region), f.snapshot.provider);
    for (const auto& [name, key] : f.offer_keys) {
      if (!known.count(name)) {
        catalog.warnings.push_back({"unknown_name", f.snapshot.file, Reader::child("/offers", key),
                                    "\"" + key + "\" is not an instance type of gpu_instances.json: its prices are not used"});
      }
    }
  }
  for (const auto& [key, terms] : catalog.providers) {
    if (!terms.region.empty()) catalog.region_provider.emplace(lower(terms.region), key);
  }
  catalog.offers = std::move(all);
}

void apply_regions(Catalog& catalog, const RegionChoice& choice) {
  catalog.instances = choose(catalog, choice);
  index_families(catalog);
}

std::optional<RegionChoice> read_region_choice(const Catalog& catalog, const Json& request, const Reader& r) {
  RegionChoice choice;
  const bool one = request.contains("region"), many = request.contains("regions");
  if (one && many) {
    r.fail("unknown_field", "/regions", "give \"region\" (one) or \"regions\" (a list or \"all\"), not both");
    return std::nullopt;
  }
  std::vector<std::pair<std::string, std::string>> named;  // region, its path
  if (one) {
    if (auto region = r.string(request, "region", "", true)) named.emplace_back(*region, "/region");
  } else if (request["regions"].is_string() && lower(request["regions"].get<std::string>()) == "all") {
    choice.all = true;
  } else if (request["regions"].is_array() && r.at_most(request["regions"], "/regions", 256, "regions")) {
    const auto list = r.strings(request, "regions", "", true);
    choice.all = list.size() == 1 && lower(list[0]) == "all";  // ["all"] as "all"
    for (std::size_t i = 0; i < list.size() && !choice.all; ++i) named.emplace_back(list[i], "/regions/" + decimal::whole(i));
    if (list.empty() && request["regions"].empty()) r.fail("out_of_range", "/regions", "expected at least one region, or \"all\"");
  } else if (!request["regions"].is_array()) {
    r.fail("wrong_type", "/regions", "expected a list of regions or \"all\", got " + Reader::describe(request["regions"]));
  }
  for (const auto& [region, path] : named) {
    auto provider = catalog.region_provider.find(lower(region));
    if (provider == catalog.region_provider.end()) {
      std::vector<std::string> known;
      for (const auto& [name, _] : catalog.region_provider) known.push_back(name);
      r.fail("unknown_name", path,
             "expected a region with prices loaded (" + list_regions(known) + "), got \"" + region + "\"" +
                 (known.size() > 6 ? "; the catalog menu lists them all" : "") +
                 (nearest_names(region, known).empty() ? "" : "; did you mean " + list_regions(nearest_names(region, known)) + "?"));
      continue;
    }
    auto& list = choice.regions[provider->second];
    if (std::find(list.begin(), list.end(), provider->first) == list.end()) list.push_back(provider->first);
  }
  if (!r.ok()) return std::nullopt;
  // The way of paying decides which region is cheapest (the request's billing fields are checked
  // where they are read; here an unexpected value counts as on demand).
  const Json pricing = request.value("pricing", Json());
  if ((pricing.is_string() && pricing.get<std::string>() == "spot") ||
      (request.value("use_spot", Json()).is_boolean() && request["use_spot"].get<bool>())) {
    choice.spot_share = 1;
  } else if (pricing.is_string() && pricing.get<std::string>() == "mixed") {
    const Json share = request.value("spot_share", Json(0.5));
    choice.spot_share = share.is_number() && share.get<double>() >= 0 && share.get<double>() <= 1 ? share.get<double>() : 0.5;
  }
  return choice;
}

std::vector<const InstanceType*> offers_in(const Catalog& catalog, const std::string& name, const RegionChoice& choice) {
  std::vector<const InstanceType*> found;
  if (!catalog.offers) return found;
  for (const InstanceType& o : *catalog.offers) {
    if (o.name != name) continue;
    const auto named = choice.regions.find(o.provider);
    const bool allowed = choice.all || (named != choice.regions.end()
                                            ? std::find(named->second.begin(), named->second.end(), o.region) != named->second.end()
                                            : o.region == catalog.usual_region(o.provider));
    if (allowed) found.push_back(&o);
  }
  return found;
}

}  // namespace detail

std::string RegionChoice::key() const {
  std::string k = all ? "*" : "";
  for (const auto& [provider, list] : regions) {
    k += provider + ":";
    for (const auto& r : list) k += r + ",";
    k += ";";
  }
  return k + "|" + Json(spot_share).dump();
}

std::shared_ptr<const Catalog> regional_view(const Catalog& catalog, const RegionChoice& choice) {
  auto view = std::make_shared<Catalog>(catalog);
  detail::apply_regions(*view, choice);
  return view;
}

CatalogLoad load_catalog(const CatalogSources& sources) {
  CatalogFiles files = read_catalog_files(sources);
  CatalogLoad load;
  load.errors = std::move(files.errors);
  Catalog& catalog = *files.catalog;
  if (files.gpu_instances_read) {
    Errors price_errors;
    detail::read_price_files(sources.price_files, catalog, price_errors);
    if (price_errors.empty()) {
      auto offers = std::make_shared<std::vector<InstanceType>>(*catalog.offers);
      detail::flag_suspect_prices(catalog, *offers);
      catalog.offers = std::move(offers);
      detail::apply_regions(catalog, RegionChoice{});
    }
    load.errors.insert(load.errors.end(), price_errors.begin(), price_errors.end());
  }
  if (load.errors.empty()) load.catalog = std::move(files.catalog);
  return load;
}

bool priced_on_demand(const InstanceType& it, Kinds kinds, const std::vector<std::string>& providers) {
  const std::string& k = it.accelerator_kind;
  const bool kind = kinds == Kinds::kAny ||
                    (it.gpus >= 1 && (k == "gpu" || (kinds == Kinds::kAccelerators && (k == "inferentia" || k == "trainium"))));
  return kind && it.on_demand_usd_per_hour && it.price_flags.empty() &&
         (providers.empty() || std::find(providers.begin(), providers.end(), it.provider) != providers.end());
}

}  // namespace gpufleet
