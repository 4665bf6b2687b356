// gpu_instances.json: the accelerators, the providers' terms and the instance families with their
// sizes, read into the catalog and checked (every fault named by its JSON path).
#include "catalog/gpu_instances_reader.hpp"

#include <algorithm>
#include <cmath>

#include "catalog/batch_api.hpp"
#include "catalog/fields.hpp"
#include "support/decimal.hpp"

namespace gpufleet {
namespace {

using detail::lower;
using detail::Range;
using detail::Reader;

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;
// memory_bandwidth_factor is defined relative to 8000 GB/s (B200), see config/gpu_instances.json.
constexpr double kBandwidthFactorReferenceGbPerS = 8000.0;
constexpr double kMaxGpusPerInstance = 64.0;
constexpr double kMinGpusPerInstance = 0.01;  // fractional GPUs: AWS sells down to 1/8 of an L4
// What a catalog may hold (docs/api.md, "Limits"): every question walks these lists, so an accepted
// catalog answers within about a second in the browser (scripts/bench.sh's scale curve).
constexpr std::size_t kMaxFamilies = 1024;
constexpr std::size_t kMaxInstanceTypes = 4096;

std::optional<double> price(const Reader& r, const Json& obj, const char* key,
                            const std::string& path) {
  return r.number(obj, key, path, false,
                  {detail::fields::kMinPriceUsdPerHour, detail::fields::kMaxPriceUsdPerHour});
}

void read_gpus(const Reader& r, const Json& doc, Catalog& catalog) {
  const Json* gpus = r.object(doc, "gpus", "", false);
  if (!gpus) return;
  for (const auto& [key, value] : gpus->items()) {
    const std::string path = Reader::child("/gpus", key);
    if (!r.expect_object(value, path)) continue;
    detail::fields::check_fields(r, value, path, "gpu");
    GpuSpec spec;
    spec.name = key;
    spec.vendor = r.string(value, "vendor", path, false).value_or("");
    spec.arch = r.string(value, "arch", path, false).value_or("");
    spec.compute_capability = r.string(value, "compute_capability", path, false).value_or("");
    if (!spec.compute_capability.empty() &&
        !detail::fields::compute_capability(spec.compute_capability))
      r.fail(
          "out_of_range", Reader::child(path, "compute_capability"),
          "expected a compute capability such as \"9.0\", got \"" + spec.compute_capability + "\"");
    spec.memory_gb = r.number(value, "memory_gb", path, true, {0.1, 4096}).value_or(0);
    spec.usable_memory_mib = r.number(value, "usable_memory_mib", path, false, {64, 4194304});
    spec.memory_bandwidth_gb_per_s =
        r.number(value, "memory_bandwidth_gb_per_s", path, false, {1, 1e6});
    if (const Json* tflops = r.object(value, "tflops", path, false)) {
      for (const auto& [precision, _] : tflops->items()) {
        if (auto t = r.speed(*tflops, precision, path + "/tflops", true, 0.001, 1e6)) {
          spec.tflops[lower(precision)] = *t;
        }
      }
    }
    spec.source = r.string(value, "source", path, false).value_or("");
    spec.source_date = r.string(value, "source_date", path, false).value_or("");
    const bool listed = value.contains("model_types_served");
    const auto types_source = r.string(value, "model_types_source", path, listed);
    const auto types_date = r.string(value, "model_types_source_date", path, listed);
    if (listed) {
      spec.model_types_served = r.strings(value, "model_types_served", path, true);
      for (auto& type : *spec.model_types_served) type = lower(type);
      spec.model_types_source = types_source.value_or("") + ", read " + types_date.value_or("");
    }
    catalog.gpus[key] = spec;
  }
}

// Fields shared by a family's flagship and its sizes; a size inherits what it does not set.
void read_instance_fields(const Reader& r, const Json& obj, const std::string& path,
                          const Catalog& catalog, bool is_family, InstanceType& it) {
  const bool cpu = it.accelerator_kind == "cpu";
  if (auto gpus = r.number(obj, "gpus_per_instance", path, is_family || !it.gpus,
                           {cpu ? 0 : kMinGpusPerInstance, kMaxGpusPerInstance})) {
    it.gpus = *gpus;
  }
  if (auto vcpus = r.number(obj, "vcpus", path, is_family, {0, 4096})) it.vcpus = *vcpus;
  if (auto ram = r.number(obj, "ram_gib", path, cpu && is_family, {cpu ? 0.5 : 0, 65536}))
    it.ram_gib = ram;
  if (auto model = r.string(obj, "gpu_model", path, false)) {
    if (!catalog.gpus.count(*model)) {
      r.fail("unknown_name", Reader::child(path, "gpu_model"),
             "expected the name of an entry of \"gpus\", got \"" + *model + "\"");
    } else {
      it.gpu_model = *model;
    }
  }
  if (auto memory = r.number(obj, "gpu_memory_gb", path, is_family, {cpu ? 0 : 0.1, 4096})) {
    it.gpu_memory_gb = *memory;
  }
  it.usable_memory_mib = r.number(obj, "usable_memory_mib", path, false, {64, 4194304});
  it.on_demand_usd_per_hour = price(r, obj, "on_demand_cost_per_hour", path);
  it.spot_usd_per_hour = price(r, obj, "spot_cost_per_hour", path);
  it.price_notes = r.string(obj, "price_notes", path, false).value_or("");
  if (auto domain = r.number(obj, "nvlink_domain_gpus", path, false, {1, 576}))
    it.nvlink_domain_gpus = *domain;
  // Not inherited: a smaller size has a slower network, so each size states its own.
  it.network_gbit_per_s = r.number(obj, "network_gbit_per_s", path, false, {0.1, 1e5});
  it.network_fabric =
      r.string(obj, "network_fabric", path, it.network_gbit_per_s.has_value()).value_or("");
  if (!it.network_fabric.empty() && it.network_fabric != "efa" &&
      it.network_fabric != "infiniband" && it.network_fabric != "tcp")
    r.fail("unknown_name", Reader::child(path, "network_fabric"),
           "expected one of efa, infiniband, tcp, got \"" + it.network_fabric + "\"");
  if (auto source = r.string(obj, "source", path, false)) it.source = *source;
  if (auto date = r.string(obj, "source_date", path, false)) it.source_date = *date;
  it.json_path = path;
}

// Derives fit and performance figures from the family fields and the GPU spec.
void resolve_gpu(const Catalog& catalog, double bandwidth_factor, InstanceType& it) {
  it.memory_per_gpu_bytes = it.gpu_memory_gb * kGiB;
  it.memory_is_usable_figure = false;
  it.memory_bandwidth_gb_per_s = bandwidth_factor * kBandwidthFactorReferenceGbPerS;
  it.bandwidth_from_factor = true;
  if (it.accelerator_kind == "cpu") {
    // A CPU-only instance is one device: the host, holding the model in system RAM.
    it.gpus = 1;
    it.memory_per_gpu_bytes = it.ram_gib.value_or(0) * kGiB;
    return;
  }
  if (it.gpus > 0 && it.gpus < 1) {
    // A GPU partition is one device with the partition's memory and its share of the throughput.
    it.gpu_fraction = it.gpus;
    it.gpus = 1;
  }
  if (it.usable_memory_mib) {
    it.memory_per_gpu_bytes = *it.usable_memory_mib * kMiB;
    it.memory_is_usable_figure = true;
  }
  auto spec = catalog.gpus.find(it.gpu_model);
  if (spec == catalog.gpus.end()) return;
  it.arch = spec->second.arch;
  // A usable figure only applies while the label still matches the spec it was measured for.
  if (!it.usable_memory_mib && spec->second.usable_memory_mib &&
      spec->second.memory_gb == it.gpu_memory_gb) {
    it.memory_per_gpu_bytes = *spec->second.usable_memory_mib * kMiB;
    it.memory_is_usable_figure = true;
  }
  if (spec->second.memory_bandwidth_gb_per_s) {
    it.memory_bandwidth_gb_per_s = *spec->second.memory_bandwidth_gb_per_s;
    it.bandwidth_from_factor = false;
  }
}

// A count no instance has: flagged once per type (every region's offer carries the flag).
void flag_implausible_counts(Catalog& catalog) {
  for (auto& it : catalog.instances) {
    const double gpus = it.gpus;
    if (it.accelerator_kind != "cpu" && (gpus > 16 || (gpus > 1 && gpus != std::floor(gpus)))) {
      it.price_flags.push_back("implausible_gpu_count");
      catalog.warnings.push_back(
          {"implausible_gpu_count", kGpuInstancesFile, it.json_path + "/gpus_per_instance",
           it.name + " lists " + Json(gpus).dump() +
               " accelerators; no cloud instance has more than 16 or a fractional count above 1"});
    }
  }
}

void read_providers(const Reader& r, const Json& doc, Catalog& catalog) {
  const Json* providers = r.object(doc, "providers", "", false);
  if (!providers) return;
  for (const auto& [key, value] : providers->items()) {
    const std::string path = Reader::child("/providers", key);
    if (!r.expect_object(value, path)) continue;
    detail::fields::check_fields(r, value, path, "provider");
    ProviderTerms terms;
    terms.key = key;
    terms.name = r.string(value, "name", path, false).value_or(key);
    terms.region = r.string(value, "region", path, false).value_or("");
    terms.spot_interruption_notice_s =
        r.number(value, "spot_interruption_notice_seconds", path, false, {0, 86400}).value_or(0);
    terms.spot_training_restart_overhead_pct =
        r.number(value, "spot_training_restart_overhead_pct", path, false, {0, 100});
    terms.minimum_billing_seconds =
        r.number(value, "minimum_billing_seconds", path, false, {0, 86400}).value_or(0);
    terms.checkpoint_write_mib_per_s =
        r.number(value, "checkpoint_write_mib_per_s", path, false, {0, 1e6, true});
    terms.checkpoint_write_source =
        r.string(value, "checkpoint_write_source", path, false).value_or("");
    terms.checkpoint_write_source_date =
        r.string(value, "checkpoint_write_source_date", path, false).value_or("");
    terms.notes = r.string(value, "commitment_notes", path, false).value_or("");
    if (const Json* sites = r.object(value, "regions", path, false)) {
      for (const auto& [region, site] : sites->items()) {
        const std::string sp = Reader::child(path + "/regions", region);
        if (!r.expect_object(site, sp)) continue;
        detail::fields::check_fields(r, site, sp, "region_site");
        RegionSite rs;
        rs.location = r.string(site, "location", sp, false).value_or(region);
        rs.lat = r.number(site, "lat", sp, true, {-90, 90}).value_or(0);
        rs.lon = r.number(site, "lon", sp, true, {-180, 180}).value_or(0);
        rs.geos = r.strings(site, "geos", sp, false);
        terms.sites.emplace(region, std::move(rs));
      }
    }
    terms.sites_source = r.string(value, "regions_source", path, false).value_or("");
    terms.sites_source_date = r.string(value, "regions_source_date", path, false).value_or("");
    if (const Json* egress = r.object(value, "egress", path, false)) {
      const std::string ep = path + "/egress";
      detail::fields::check_fields(r, *egress, ep, "egress");
      Egress e;
      e.internet_usd_per_gb =
          r.number(*egress, "internet_usd_per_gb", ep, true, {0, 10}).value_or(0);
      e.inter_region_usd_per_gb =
          r.number(*egress, "inter_region_usd_per_gb", ep, true, {0, 10}).value_or(0);
      e.internet_free_gb_per_month =
          r.number(*egress, "internet_free_gb_per_month", ep, false, {0, 1e6}).value_or(0);
      e.covers = r.string(*egress, "covers", ep, false).value_or("");
      r.string(*egress, "estimates", ep, false);
      e.source = r.string(*egress, "source", ep, true).value_or("");
      e.source_date = r.string(*egress, "source_date", ep, true).value_or("");
      terms.egress = e;
    }
    if (const Json* ways = r.object(value, "ways_to_pay", path, false)) {
      for (const auto& [id, w] : ways->items()) {
        const std::string wp = Reader::child(path + "/ways_to_pay", id);
        if (!r.expect_object(w, wp)) continue;
        detail::fields::check_fields(r, w, wp, "way_to_pay");
        WayToPay way;
        way.id = id;
        way.kind = r.string(w, "kind", wp, true).value_or("");
        way.name = r.string(w, "name", wp, false).value_or(way.kind);
        way.term_years = static_cast<int>(r.number(w, "term_years", wp, true, {1, 5}).value_or(1));
        if (w.contains("term_years") && w["term_years"] != 1 && w["term_years"] != 3) {
          r.fail("out_of_range", Reader::child(wp, "term_years"), "expected 1 or 3");
        }
        way.upfront = r.string(w, "upfront", wp, true).value_or("none");
        if (way.upfront != "none" && way.upfront != "partial" && way.upfront != "all") {
          r.fail("unknown_name", Reader::child(wp, "upfront"),
                 "expected one of none, partial, all, got \"" + way.upfront + "\"");
        }
        const double share_default = way.upfront == "all" ? 1 : 0;
        way.upfront_share = r.number(w, "upfront_share", wp, way.upfront == "partial", {0, 1})
                                .value_or(share_default);
        if ((way.upfront == "none" && way.upfront_share != 0) ||
            (way.upfront == "all" && way.upfront_share != 1) ||
            (way.upfront == "partial" && (way.upfront_share <= 0 || way.upfront_share >= 1))) {
          r.fail("out_of_range", Reader::child(wp, "upfront_share"),
                 "expected 0 with no upfront, 1 with all upfront, between 0 and 1 with partial "
                 "upfront");
        }
        way.discount_pct = r.number(w, "discount_pct", wp, false, {0, 95});
        way.up_to_pct = r.number(w, "up_to_pct", wp, false, {0, 95});
        way.estimates = r.string(w, "estimates", wp, false).value_or("");
        way.source = r.string(w, "source", wp, true).value_or("");
        way.source_date = r.string(w, "source_date", wp, true).value_or("");
        if (const Json* families = r.object(w, "families", wp, false)) {
          for (const auto& [family, f] : families->items()) {
            const std::string fp = Reader::child(wp + "/families", family);
            if (!r.expect_object(f, fp)) continue;
            detail::fields::check_fields(r, f, fp, "way_family");
            WayFigure figure;
            figure.key = family;
            figure.offered = r.boolean(f, "offered", fp, false).value_or(true);
            figure.discount_pct = r.number(f, "discount_pct", fp, false, {0, 95});
            figure.reason = r.string(f, "reason", fp, !figure.offered).value_or("");
            figure.estimates = r.string(f, "estimates", fp, false).value_or("");
            figure.source = r.string(f, "source", fp, true).value_or("");
            figure.source_date = r.string(f, "source_date", fp, true).value_or("");
            way.families[lower(family)] = figure;
          }
        }
        terms.ways.push_back(std::move(way));
      }
    }
    if (const Json* defaults = r.object(value, "default_ways", path, false)) {
      detail::fields::check_fields(r, *defaults, path + "/default_ways", "default_ways");
      for (const char* alias : {"reserved_1y", "reserved_3y"}) {
        auto id = r.string(*defaults, alias, path + "/default_ways", false);
        if (!id) continue;
        if (!terms.way(*id)) {
          r.fail("unknown_name", path + "/default_ways/" + alias,
                 "expected a key of " + path + "/ways_to_pay, got \"" + *id + "\"");
          continue;
        }
        terms.default_ways[alias] = *id;
      }
    }
    catalog.providers[key] = terms;
  }
}

void read_instances(const Reader& r, const Json& doc, Catalog& catalog) {
  const Json* families = r.object(doc, "gpu_instances", "", true);
  if (!families || !r.at_most(*families, "/gpu_instances", kMaxFamilies, "families")) return;
  std::size_t types = 0;
  std::map<std::string, std::string> names;  // lower-case name -> path that defined it
  auto claim = [&](const std::string& name, const std::string& path) {
    auto [it, inserted] = names.emplace(lower(name), path);
    if (!inserted) {
      r.fail("duplicate_name", path,
             "instance name \"" + name + "\" is already defined at " + it->second);
    }
    return inserted;
  };
  for (const auto& [key, value] : families->items()) {
    const std::string path = Reader::child("/gpu_instances", key);
    if (!r.expect_object(value, path)) continue;
    detail::fields::check_fields(r, value, path, "family");
    Family family;
    family.key = key;
    family.name = r.string(value, "name", path, true).value_or(key);
    family.family = r.string(value, "family", path, true).value_or("");
    family.gpu_type = r.string(value, "gpu_type", path, true).value_or("");
    family.description = r.string(value, "description", path, false).value_or("");

    InstanceType flagship;
    flagship.family_key = key;
    flagship.gpu_type = family.gpu_type;
    flagship.provider = r.string(value, "provider", path, false).value_or("aws");
    flagship.region = r.string(value, "region", path, false).value_or("us-east-1");
    flagship.accelerator_kind = r.string(value, "accelerator_kind", path, false).value_or("gpu");
    static const std::vector<std::string> kKinds{"gpu", "trainium", "inferentia", "cpu"};
    if (std::find(kKinds.begin(), kKinds.end(), flagship.accelerator_kind) == kKinds.end()) {
      r.fail("unknown_name", Reader::child(path, "accelerator_kind"),
             "expected one of gpu, trainium, inferentia, cpu, got \"" + flagship.accelerator_kind +
                 "\"");
    }
    family.provider = flagship.provider;
    read_instance_fields(r, value, path, catalog, true, flagship);
    flagship.name = r.string(value, "instance_type", path, false).value_or(key);
    flagship.compute_tflops = r.speed(value, "compute_tflops", path, true, 0.001, 1e6).value_or(0);
    flagship.interconnect_type = r.string(value, "interconnect_type", path, true).value_or("");
    flagship.interconnect_bandwidth_gb_per_s =
        r.speed(value, "interconnect_bandwidth_gbps", path, true, 0.001, 1e6).value_or(0);
    flagship.interconnect_multiplier =
        r.number(value, "interconnect_multiplier", path, true, {0, 1}).value_or(1);
    const double factor =
        r.speed(value, "memory_bandwidth_factor", path, true, 1e-4, 10).value_or(0);  // 0 = unknown
    resolve_gpu(catalog, factor, flagship);

    if (!claim(key, path)) continue;
    if (flagship.name != key && !claim(flagship.name, Reader::child(path, "instance_type")))
      continue;
    std::vector<InstanceType> members{flagship};
    if (++types > kMaxInstanceTypes) {
      r.fail("too_large", path,
             "expected at most " + decimal::whole(kMaxInstanceTypes) +
                 " instance types in the catalog");
      return;
    }

    if (const Json* sizes = r.object(value, "sizes", path, false)) {
      for (const auto& [size_name, size_value] : sizes->items()) {
        const std::string size_path = Reader::child(path + "/sizes", size_name);
        if (!r.expect_object(size_value, size_path)) continue;
        detail::fields::check_fields(r, size_value, size_path, "size");
        if (++types > kMaxInstanceTypes) {
          r.fail("too_large", size_path,
                 "expected at most " + decimal::whole(kMaxInstanceTypes) +
                     " instance types in the catalog");
          return;
        }
        InstanceType size = flagship;
        size.name = size_name;
        size.ram_gib.reset();
        size.price_notes.clear();
        size.usable_memory_mib.reset();
        read_instance_fields(r, size_value, size_path, catalog, false, size);
        resolve_gpu(catalog, factor, size);
        if (claim(size_name, size_path)) members.push_back(size);
      }
    }
    for (auto& member : members) {
      family.instances.push_back(catalog.instances.size());
      catalog.instances.push_back(std::move(member));
    }
    catalog.families.push_back(std::move(family));
  }
}

}  // namespace

namespace detail {

void read_gpu_instances(const Reader& r, const Json& doc, Catalog& catalog) {
  fields::check_fields(r, doc, "", "gpu_instances_file");
  if (const Json* info = r.object(doc, "catalog_info", "", false)) {
    fields::check_fields(r, *info, "/catalog_info", "catalog_info");
    catalog.info = *info;
  }
  read_gpus(r, doc, catalog);
  read_providers(r, doc, catalog);
  read_batch_apis(r, doc);  // checked here, read by the batch question from the document
  read_instances(r, doc, catalog);
  index_families(catalog);  // names resolve even when the price files are not read
  flag_implausible_counts(catalog);
}

}  // namespace detail
}  // namespace gpufleet
