#pragma once
// The fields of gpu_instances.json's objects: the catalog's GPUs, providers and their ways to pay,
// and the instance families and sizes (fields.cpp's table of kinds names them).

#include "catalog/fields.hpp"

namespace gpufleet::detail::fields::gpu_instances {

using T = Type;
using namespace define;

// ---- gpu_instances.json ----------------------------------------------------------------------

inline constexpr Field kGpuInstancesFile[] = {
    str("$schema", kInfo, FIELD_DOC("the JSON Schema of this file, for editors (./schemas/gpu_instances.schema.json)")),
    obj("catalog_info", 0, "catalog_info", FIELD_DOC("the catalog's name, version and date, shown in every answer")),
    obj("gpus", 0, "gpus", FIELD_DOC("accelerator specifications by name; instances refer to them with gpu_model")),
    obj("providers", 0, "providers", FIELD_DOC("each provider's usual region, spot notice and commitment discounts")),
    obj("gpu_instances", kRequired, "families", FIELD_DOC("instance families by key, each with its flagship instance and its sizes")),
};

inline constexpr Field kCatalogInfo[] = {
    str("name", kInfo, FIELD_DOC("the catalog's name")),
    str("version", kInfo, FIELD_DOC("the catalog's version")),
    str("date", kInfo, FIELD_DOC("the catalog's date, YYYY-MM-DD")),
    str("dates_note", kInfo, FIELD_DOC("how the dates of the entries are to be read")),
    obj("field_notes", kInfo, "field_notes", FIELD_DOC("what each field of the catalog means, by field name")),
    str("generated_by", kInfo, FIELD_DOC("the script that wrote the file, if one did")),
    str("price_unit", kInfo, FIELD_DOC("the unit of the prices")),
    str("provider", kInfo, FIELD_DOC("the provider the catalog began with")),
    str("region", kInfo, FIELD_DOC("the region the catalog's own prices are for")),
    field("sources", T::kStrings, kInfo, FIELD_DOC("where the catalog's figures come from")),
};
inline constexpr Field kAnyString = str("*", 0, FIELD_DOC("free text"));

inline constexpr Field kGpu[] = {
    str("vendor", 0, FIELD_DOC("the maker: NVIDIA, AMD, AWS, ...")),
    str("arch", 0,
        FIELD_DOC("the architecture (hopper, ampere, ...), matched against precision_formats' "
                  "native_architectures")),
    num("memory_gb", kRequired, 0.1, 4096,
        FIELD_DOC("the memory label in GiB, as the datasheet gives it")),
    num("usable_memory_mib", 0, 64, 4194304,
        FIELD_DOC("the memory the driver reports (nvidia-smi), MiB; used while memory_gb matches "
                  "the instance's label")),
    num("memory_bandwidth_gb_per_s", 0, 1, 1e6, FIELD_DOC("memory bandwidth, GB/s")),
    obj("tflops", 0, "tflops",
        FIELD_DOC("dense tensor TFLOPS by precision; a precision listed here runs natively")),
    str("compute_capability", 0, FIELD_DOC("CUDA compute capability (\"9.0\")")),
    str("confidence", kInfo, FIELD_DOC("how sure the figures are, where not from a datasheet")),
    str("interconnect", kInfo, FIELD_DOC("the GPU's links, as text")),
    str("memory_type", kInfo, FIELD_DOC("HBM3, GDDR6, ...")),
    field("precisions_native", T::kStrings, kInfo,
          FIELD_DOC("the precisions the datasheet lists, as text")),
    str("spec_notes", kInfo, FIELD_DOC("notes on the specification")),
    str("usable_memory_source", kInfo, FIELD_DOC("where usable_memory_mib was measured")),
    str("usable_memory_source_date", kInfo, FIELD_DOC("when usable_memory_mib was measured")),
    field("model_types_served", T::kStrings, 0,
          FIELD_DOC("the Hugging Face model_type values its serving stack runs (absent: any); "
                    "serving a model of another type is refused")),
    str("model_types_source", 0,
        FIELD_DOC("where model_types_served comes from: the serving stack's list of supported "
                  "architectures")),
    str("model_types_source_date", 0, FIELD_DOC("when that list was read")),
};
inline constexpr Field kTflopsValue = num("*", kZeroOr, 0.001, 1e6, FIELD_DOC("dense TFLOPS at this precision (0: unknown)"));

inline constexpr Field kProvider[] = {
    str("name", 0, FIELD_DOC("the provider's name as shown")),
    str("region", 0, FIELD_DOC("the usual region: the one priced when a request names none")),
    num("spot_interruption_notice_seconds", 0, 0, 86400, FIELD_DOC("warning before a spot instance is reclaimed, seconds")),
    num("spot_training_restart_overhead_pct", 0, 0, 100, FIELD_DOC("share of a training run lost to spot interruptions, %")),
    num("minimum_billing_seconds", 0, 0, 86400, FIELD_DOC("the shortest time an instance is billed for (a job's cost counts at least this)")),
    num("checkpoint_write_mib_per_s", kMinExclusive, 0, 1e6, FIELD_DOC("the write speed of the storage a training job checkpoints to by default, MiB/s (batch's default checkpoint write time)")),
    str("checkpoint_write_source", 0, FIELD_DOC("where that speed comes from: the storage and its page")),
    str("checkpoint_write_source_date", 0, FIELD_DOC("when it was read")),
    str("commitment_notes", 0, FIELD_DOC("how the provider's commitments work")),
    obj("ways_to_pay", 0, "ways_to_pay", FIELD_DOC("the ways to pay with a commitment, by id (a value of a request's pricing)")),
    obj("default_ways", 0, "default_ways", FIELD_DOC("the ways reserved_1y and reserved_3y mean")),
    obj("sustained_use", kInfo, "sustained_use", FIELD_DOC("automatic discounts for running most of a month (recorded, not applied)")),
    obj("regions", 0, "region_sites", FIELD_DOC("where each region is: location, latitude, longitude, geographies (the regions question)")),
    str("regions_source", 0, FIELD_DOC("where the regions' locations come from")),
    str("regions_source_date", 0, FIELD_DOC("when they were read")),
    obj("egress", 0, "egress", FIELD_DOC("data transfer prices: to the internet and between regions")),
    obj("batch_api", 0, "batch_api", FIELD_DOC("the provider's batch-inference API: its published discount off real-time token prices (the batch question prices a batch-inference job's tokens at it)")),
};

inline constexpr Field kBatchApi[] = {
    str("name", kRequired, FIELD_DOC("the service, as the provider names it")),
    num("discount_pct", kRequired, 0, 100, FIELD_DOC("the published discount off the real-time (on-demand) token price, %")),
    num("turnaround_hours", 0, 0, 8760, FIELD_DOC("the published target time to results, hours")),
    str("applies_to", 0, FIELD_DOC("which models the discount is published for")),
    str("source", kRequired, FIELD_DOC("the provider's page stating the discount")),
    str("source_date", kRequired, FIELD_DOC("when it was read")),
    obj("token_prices", 0, "batch_api_token_prices", FIELD_DOC("real-time list prices per token of the catalog's models at this service, by model key (the basis the discount is taken off)")),
};
inline constexpr Field kTokenPrice[] = {
    num("input_usd_per_million_tokens", kRequired, 0, 1e6, FIELD_DOC("real-time list price of a million input tokens, USD")),
    num("output_usd_per_million_tokens", kRequired, 0, 1e6, FIELD_DOC("real-time list price of a million output tokens, USD")),
    str("source", kRequired, FIELD_DOC("the provider's price page")),
    str("source_date", kRequired, FIELD_DOC("when it was read")),
};

inline constexpr Field kRegionSite[] = {
    str("location", 0, FIELD_DOC("the place the provider names")),
    num("lat", kRequired, -90, 90, FIELD_DOC("latitude, degrees (approximate: the place's centre)")),
    num("lon", kRequired, -180, 180, FIELD_DOC("longitude, degrees")),
    field("geos", T::kStrings, 0, FIELD_DOC("geographies the region is in, for residency: a continent (north_america, europe, asia_pacific, ...), eu, and the ISO country code")),
};

inline constexpr Field kEgress[] = {
    num("internet_usd_per_gb", kRequired, 0, 10, FIELD_DOC("USD per GB out to the internet (first tier)")),
    num("inter_region_usd_per_gb", kRequired, 0, 10, FIELD_DOC("USD per GB between two of the provider's regions")),
    num("internet_free_gb_per_month", 0, 0, 1e6, FIELD_DOC("GB a month out to the internet free of charge, once per account over every region (absent: none)")),
    str("covers", 0, FIELD_DOC("which tier and source regions the figures are")),
    str("estimates", 0, FIELD_DOC("how the figures were read")),
    str("source", kRequired, FIELD_DOC("the provider's price page")),
    str("source_date", kRequired, FIELD_DOC("when it was read")),
};

inline constexpr Field kSustainedUse[] = {
    field("applies_to_series", T::kStrings, kInfo, FIELD_DOC("machine series the discount applies to")),
    num("max_discount_pct", kInfo, 0, 95, FIELD_DOC("the largest discount, for a full month, %")),
    str("not_for", kInfo, FIELD_DOC("what gets no discount")),
    boolean("priced", kInfo, FIELD_DOC("whether answers apply it")),
};

inline constexpr Field kWayToPay[] = {
    str("kind", kRequired, FIELD_DOC("savings_plan_compute, savings_plan_ec2_instance, reserved_standard, committed_use, reservation, savings_plan, ...")),
    str("name", 0, FIELD_DOC("the way's name as shown")),
    num("term_years", kRequired, 1, 5, FIELD_DOC("1 or 3")),
    str("upfront", kRequired, FIELD_DOC("how much is paid at the start"), "none partial all"),
    num("upfront_share", 0, 0, 1, FIELD_DOC("share of the term's cost paid upfront (required with partial)")),
    num("discount_pct", 0, 0, 95, FIELD_DOC("discount on the on-demand price, % (absent: no public figure, not priced)")),
    num("up_to_pct", 0, 0, 95, FIELD_DOC("the provider's published \"up to\" discount, %")),
    field("range_pct", T::kNumbers, kInfo, FIELD_DOC("the quoted range the discount was taken from, %")),
    obj("families", 0, "way_families", FIELD_DOC("figures for instance families or series (A2), by key")),
};

inline constexpr Field kWayFamily[] = {
    boolean("offered", 0, FIELD_DOC("false: the way is not sold for this family (say why in reason)")),
    num("discount_pct", 0, 0, 95, FIELD_DOC("the family's discount, %")),
    str("reason", 0, FIELD_DOC("why it is not offered")),
};

inline constexpr Field kDefaultWays[] = {
    str("reserved_1y", 0, FIELD_DOC("the way pricing reserved_1y means: a key of ways_to_pay")),
    str("reserved_3y", 0, FIELD_DOC("the way pricing reserved_3y means: a key of ways_to_pay")),
};

// Fields a family's flagship and its sizes share; a size inherits what it leaves out.
#define INSTANCE_FIELDS(gpus_flags, vcpus_flags, memory_flags)                                                   \
  num("gpus_per_instance", gpus_flags, 0.01, 64,                                                                 \
      FIELD_DOC("accelerators per instance; a fraction is a partition (1/8 of an L4); 0 for a CPU family")),     \
      num("vcpus", vcpus_flags, 0, 4096, FIELD_DOC("vCPUs per instance")),           \
      num("ram_gib", 0, 0, 65536, FIELD_DOC("host memory, GiB (required for a CPU family: the model lives there)")), \
      str("gpu_model", 0, FIELD_DOC("the name of an entry of \"gpus\"")),                          \
      num("gpu_memory_gb", memory_flags, 0.1, 4096,                                                              \
          FIELD_DOC("memory per accelerator as the cloud labels it, GiB; 0 for a CPU family")),                  \
      num("usable_memory_mib", 0, 64, 4194304, FIELD_DOC("memory per accelerator the driver reports, MiB")), \
      num("on_demand_cost_per_hour", 0, kMinPriceUsdPerHour, kMaxPriceUsdPerHour,                                                            \
          FIELD_DOC("USD per instance-hour on demand in the family's region (price files price the others)")),   \
      num("spot_cost_per_hour", 0, kMinPriceUsdPerHour, kMaxPriceUsdPerHour, FIELD_DOC("USD per instance-hour on spot")), \
      str("price_notes", 0, FIELD_DOC("what the price covers")),                                   \
      num("nvlink_domain_gpus", 0, 1, 576,                                                                       \
          FIELD_DOC("accelerators one NVLink / NVSwitch domain joins (1: PCIe only); a size with fewer joins those it has")), \
      str("nvlink_domain_source", kInfo, FIELD_DOC("where nvlink_domain_gpus comes from, and what is inferred")), \
      str("nvlink_domain_source_date", kInfo, FIELD_DOC("when nvlink_domain_gpus was taken, YYYY-MM-DD")),      \
      num("network_gbit_per_s", 0, 0.1, 1e5,                                                                     \
          FIELD_DOC("network bandwidth between instances of this type, Gbit/s each way (pipeline stages cross it); each size states its own, none: unknown")), \
      str("network_fabric", 0, FIELD_DOC("what the network between instances is (required with network_gbit_per_s)"), "efa infiniband tcp"), \
      str("network_source", kInfo, FIELD_DOC("where network_gbit_per_s and network_fabric come from")),          \
      str("network_source_date", kInfo, FIELD_DOC("when they were taken, YYYY-MM-DD")),                          \
      str("source", 0, FIELD_DOC("where the figures come from")),                                  \
      str("source_date", 0, FIELD_DOC("when they were taken, YYYY-MM-DD"))

inline constexpr Field kFamily[] = {
    str("name", kRequired, FIELD_DOC("the family's name as shown")),
    str("family", kRequired, FIELD_DOC("the family's kind, as seed 004 names it (GPU_INFERENCE, ...)")),
    str("gpu_type", kRequired, FIELD_DOC("the accelerator as shown (H100, A10G, ...)")),
    str("provider", 0, FIELD_DOC("aws (default), gcp, azure: a key of \"providers\"")),
    str("region", 0, FIELD_DOC("the region of the family's own prices (default us-east-1)")),
    str("accelerator_kind", 0, FIELD_DOC("what the accelerators are (default gpu)"), "gpu trainium inferentia cpu"),
    str("instance_type", 0, FIELD_DOC("the flagship's instance type (default: the family's key)")),
    INSTANCE_FIELDS(kRequired, kRequired, kRequired),
    num("compute_tflops", kRequired | kZeroOr, 0.001, 1e6, FIELD_DOC("dense tensor TFLOPS per accelerator (0: unknown)")),
    str("interconnect_type", kRequired, FIELD_DOC("PCIe, NVLink, NVSwitch, EFA, ... as text")),
    num("interconnect_bandwidth_gbps", kRequired | kZeroOr, 0.001, 1e6, FIELD_DOC("accelerator-to-accelerator bandwidth, GB/s (0: unknown)")),
    num("interconnect_multiplier", kRequired, 0, 1, FIELD_DOC("share of linear scaling several accelerators reach (seed 004)")),
    num("memory_bandwidth_factor", kRequired | kZeroOr, 1e-4, 10, FIELD_DOC("memory bandwidth relative to 8,000 GB/s (seed 004; a GPU's memory_bandwidth_gb_per_s wins)")),
    obj("sizes", 0, "sizes", FIELD_DOC("the family's other instance types by name; each inherits what it leaves out")),
    str("spec_source", kInfo, FIELD_DOC("where the specification comes from")),
};
// A CPU family: no accelerators, the model in host memory.
inline constexpr Field kCpuFamily[] = {
    num("gpus_per_instance", kRequired, 0, 64, FIELD_DOC("0 for a CPU family")),
    num("ram_gib", kRequired, 0.5, 65536, FIELD_DOC("host memory, GiB: the model lives there")),
    num("gpu_memory_gb", kRequired, 0, 4096, FIELD_DOC("0 for a CPU family")),
};

inline constexpr Field kSize[] = {
    INSTANCE_FIELDS(0, 0, 0),
};

#undef INSTANCE_FIELDS

}  // namespace gpufleet::detail::fields::gpu_instances
