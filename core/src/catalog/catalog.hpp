#pragma once
// The catalog: everything gpufleet knows (instances, GPUs, model sizes, precisions, workloads),
// parsed and validated once from the three JSON files of config/, then immutable.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpufleet/analyzer.hpp"
#include "gpufleet/errors.hpp"
#include "support/json.hpp"
#include "model/memory_model.hpp"
#include "model/throughput.hpp"

namespace gpufleet {


struct GpuSpec {
  std::string name;  // key in "gpus", e.g. "H100-SXM-80GB"
  std::string vendor;
  std::string arch;
  std::string compute_capability;  // CUDA's, as written ("9.0")
  double memory_gb = 0;  // label, binary GiB per DESIGN
  std::optional<double> usable_memory_mib;
  std::optional<double> memory_bandwidth_gb_per_s;
  std::map<std::string, double, std::less<>> tflops;  // per precision, dense (found by any string)
  std::string source;
  std::string source_date;
  // The model types its serving stack runs, with their source (absent: any).
  std::optional<std::vector<std::string>> model_types_served;
  std::string model_types_source;
  // What a process can allocate: the cloud-reported MiB, else the label taken as GiB.
  double usable_bytes() const {
    return usable_memory_mib ? *usable_memory_mib * 1024 * 1024 : memory_gb * 1024 * 1024 * 1024;
  }
};

// One purchasable instance type (a family's flagship or one of its sizes).
// A spot pool's interruption frequency band as the provider publishes it (AWS Spot Instance
// Advisor: the share of capacity reclaimed in the trailing month), with its source and date.
struct InterruptionBand {
  double low_pct = 0;
  double high_pct = 0;
  std::string label;   // "<5%", "5-10%", ..., ">20%"
  std::string source;
  std::string as_of;   // YYYY-MM-DD or "unknown"
};

struct InstanceType {
  std::string name;        // "p5.48xlarge", or the family key for an entry without instance_type
  std::string family_key;  // "P5"
  std::string provider = "aws";
  std::string region = "us-east-1";
  std::string accelerator_kind = "gpu";  // gpu | trainium | inferentia | cpu (the host is one device)
  std::vector<std::string> price_flags;  // faults found on load (spot_not_below_on_demand, ...)
  std::string file = kGpuInstancesFile;   // where its prices come from (a price file, or the catalog)
  double gpus = 0;         // GPUs per instance (a fractional GPU counts as one device)
  double gpu_fraction = 1;  // share of one physical GPU per device (AWS g6f sells 1/4 and 1/2 L4)
  double vcpus = 0;
  std::optional<double> ram_gib;
  std::optional<double> on_demand_usd_per_hour;  // per instance-hour; absent = unknown
  std::optional<double>
      spot_usd_per_hour;  // the cheapest zone's where zones differ (spot_zones > 0)
  std::optional<double> spot_zone_median_usd_per_hour;  // the median over the zones with spot
  int spot_zones =
      0;  // zones whose spot price the file kept (docs/prices.md); 0: one price per region
  std::optional<double> usable_memory_mib;  // cloud-reported, when the size sets its own
  std::string price_notes;
  std::string source;
  std::string source_date;
  std::string json_path;  // where its prices are defined in `file`
  std::optional<InterruptionBand> interruption_band;  // absent: unknown
  std::string band_unknown;  // why no band: the provider publishes none, or the feed lacks the pool

  // GPU properties, resolved from the family and its "gpus" spec.
  std::string gpu_type;
  std::string gpu_model;  // key into Catalog::gpus, may be empty
  std::string arch;       // GPU generation, "" when unknown
  double gpu_memory_gb = 0;
  double memory_per_gpu_bytes = 0;  // usable memory used for fit
  bool memory_is_usable_figure = false;
  double compute_tflops = 0;  // dense FP16 per GPU (seed field)
  double memory_bandwidth_gb_per_s = 0;
  bool bandwidth_from_factor = false;
  std::string interconnect_type;
  double interconnect_bandwidth_gb_per_s = 0;
  double interconnect_multiplier = 1;
  // GPUs one NVLink / NVSwitch domain joins (1: they talk over PCIe only); 0 = not stated, the
  // interconnect taken for the whole instance as the seed's fields read.
  double nvlink_domain_gpus = 0;
  // The network between instances of this type (pipeline stages send their activations over it):
  // its bandwidth per direction, Gbit/s, and its fabric (efa | infiniband | tcp); each size states
  // its own, absent where the catalog has no sourced figure.
  std::optional<double> network_gbit_per_s;
  std::string network_fabric;
};

struct Family {
  std::string key;  // "P5"
  std::string provider = "aws";
  std::string name;
  std::string family;  // "P"
  std::string gpu_type;
  std::string description;
  std::vector<std::size_t> instances;  // indices into Catalog::instances, by GPU count then price
};

struct ModelSize {
  std::string key;
  std::string name;
  std::string description;
  double parameter_count_billion = 0;
  double memory_overhead_multiplier = 0;
  std::vector<std::string> typical_use_cases;
  std::vector<std::string> examples;
};

struct Precision {
  std::string key;  // "fp16"
  std::string name;
  double bytes_per_parameter = 0;
  std::string description;
  std::vector<std::string> native_architectures;
};

struct MemoryPlanning {
  double training_multiplier = 0;
  double fine_tuning_multiplier = 0;
  double inference_multiplier = 0;
  std::string source;
};

// What a cloud offers beyond list prices: spot notice and ways to pay with a commitment.
// A figure for one family of the provider (key: a family key such as "GCP-A2-HighGPU", or the
// family's series such as "A2"), replacing the way's provider-wide figure.
struct WayFigure {
  std::string key;                     // as the catalog writes it ("A2")
  bool offered = true;                 // false: the way does not cover this family
  std::optional<double> discount_pct;  // absent: no public figure
  std::string reason;                  // why not offered
  std::string estimates;
  std::string source;
  std::string source_date;
};

// One way to pay with a commitment (providers.<p>.ways_to_pay.<id>).
struct WayToPay {
  std::string id;    // "savings_plan_ec2_instance_1y_no_upfront"
  std::string kind;  // "savings_plan_compute", "reserved_instance_standard", "committed_use_resource", ...
  std::string name;  // "EC2 Instance Savings Plan"
  int term_years = 1;
  std::string upfront = "none";  // none | partial | all
  double upfront_share = 0;      // share of the term's total paid at purchase (all: 1)
  std::optional<double> discount_pct;  // provider-wide; absent: no public figure (not priced)
  std::optional<double> up_to_pct;     // the provider's published maximum
  std::string estimates;
  std::string source;
  std::string source_date;
  std::map<std::string, WayFigure> families;
  double term_hours() const { return 8760.0 * term_years; }
};

// Where a region is (the regions question's distances) and which geographies it is in (residency).
struct RegionSite {
  std::string location;
  double lat = 0, lon = 0;
  std::vector<std::string> geos;
};

// A provider's data transfer prices, first tier, with their source.
struct Egress {
  double internet_usd_per_gb = 0;
  double inter_region_usd_per_gb = 0;
  double internet_free_gb_per_month = 0;  // once per account, over every region
  std::string covers, source, source_date;
};

struct ProviderTerms {
  std::string key;  // "aws"
  std::string name;
  std::string region;  // the usual region: prices shown when a question names none
  double spot_interruption_notice_s = 0;
  std::optional<double> spot_training_restart_overhead_pct;
  double minimum_billing_seconds = 0;  // a job is billed at least this long (per-second billing after it)
  // The storage a training job writes its checkpoints to by default, and where its speed is from.
  std::optional<double> checkpoint_write_mib_per_s;
  std::string checkpoint_write_source, checkpoint_write_source_date;
  std::vector<WayToPay> ways;  // in file order
  std::map<std::string, std::string> default_ways;  // "reserved_1y" | "reserved_3y" -> way id
  std::string notes;
  std::map<std::string, RegionSite> sites;  // region -> where it is
  std::string sites_source, sites_source_date;
  std::optional<Egress> egress;
  const WayToPay* way(const std::string& id) const;
};

// The task: serving (interactive or batch), full fine-tuning, adapters (LoRA, QLoRA), pre-training.
enum class WorkloadType { kInference, kBatchInference, kFineTuning, kLora, kQlora, kTraining };

struct Scenario {
  std::string current_instance;
  double current_gpu_count = 1;
  WorkloadType workload_type = WorkloadType::kInference;
  std::string model_size;
  double monthly_hours = 720;
  bool use_spot = false;
  std::string precision;
  std::string priority = "cost";  // the seed's scenarios are cost migrations
};

struct WorkloadScenario {
  std::string id;
  std::string name;
  std::string description;
  Scenario scenario;
  std::string expected_outcome;
  std::vector<std::string> tags;
};

// Where one price file's figures come from: the upstream snapshot it was generated from.
struct PriceSnapshot {
  std::string file;
  std::string provider;
  std::string region;
  std::string source;  // "skypilot-org/skypilot-catalog catalogs/v8/aws/vms.csv"
  std::string commit;
  std::string date;  // YYYY-MM-DD, or "" when the snapshot's date is unknown
  std::string spot_statistic;
};

// The regions whose prices a question sees, per provider. A provider none of whose regions is named
// keeps its usual region; "all" takes every region priced. With several regions, each instance
// type is priced in the cheapest of them for the way of paying (spot_share 0: on demand, 1: spot).
struct RegionChoice {
  std::map<std::string, std::vector<std::string>> regions;  // provider -> regions named
  bool all = false;
  double spot_share = 0;
  std::string key() const;
};

// The measured error of one kind of figure (quantity x phase x engine) over the measurement cases:
// what an answer of that kind can expect (model_config.json "measured_error").
struct MeasuredError {
  std::string quantity;  // memory | throughput
  std::string phase;     // inference | training
  std::string engine;
  std::string vendor;  // of the cases' GPUs: nvidia, amd, aws ("" unknown)
  double n = 0;
  double sources = 0;  // publications the cases come from, each weighted equally
  std::string pool;    // kind | engine (any vendor) | phase (any engine): what the band is taken over
  double median_abs_err_pct = 0;
  double p90_abs_err_pct = 0;
};

struct Catalog {
  Json info;  // catalog_info block of gpu_instances.json (version, date, sources)
  std::map<std::string, GpuSpec> gpus;
  std::vector<InstanceType> instances;
  std::vector<Family> families;
  std::vector<ModelSize> model_sizes;
  std::vector<Precision> precisions;
  MemoryPlanning planning;
  std::vector<WorkloadScenario> workloads;
  std::vector<std::pair<std::string, std::vector<std::string>>> workload_sets;
  std::map<std::string, ProviderTerms> providers;
  std::vector<NamedModel> models;  // concrete models (model_config.json "models")
  // Models whose shape a size class or a bare parameter count borrows (model_config.json
  // "generic_decoder"), and where the rule comes from.
  std::vector<std::string> generic_shapes;
  std::string generic_shapes_source;
  MemoryConstants memory;          // model_config.json "memory_model"
  std::vector<MeasuredError> measured_error;  // model_config.json "measured_error"
  ThroughputConstants throughput;  // model_config.json "throughput_model"
  Errors warnings;  // faults that do not stop loading (suspect prices); flagged rows are not ranked
  // Every instance type's offer in every region priced (in catalog order, a type's offers together);
  // `instances` above is one region's offer of each type (RegionChoice), shared by every view.
  std::shared_ptr<const std::vector<InstanceType>> offers;
  std::vector<PriceSnapshot> snapshots;
  // Lower-case family keys and instance names -> index (the first of a name): lookups inside the
  // sweeps' loops stay logarithmic in the catalog (scripts/bench.sh's scale curve).
  std::map<std::string, std::size_t> family_index;
  std::map<std::string, std::size_t> instance_index;
  std::map<std::string, std::string> region_provider;  // every region priced -> its provider

  // Raw documents, kept for the catalog viewer.
  Json gpu_instances_doc;
  Json model_config_doc;
  Json workloads_doc;

  const Family* family(const std::string& key) const;           // case-insensitive
  const InstanceType* instance(const std::string& name) const;  // case-insensitive
  const ModelSize* model_size(const std::string& key) const;    // case-insensitive
  const NamedModel* model(const std::string& key) const;        // key, alias or HF id, case-insensitive
  const GpuSpec* gpu(const std::string& name) const;
  // Whether some instance of the catalog joins several of this GPU in an NVLink (or NVSwitch,
  // Infinity Fabric) domain: what a question that names a GPU but no instance assumes of its link.
  bool gpu_has_nvlink(const std::string& gpu_key) const;
  DeviceSpec device(const GpuSpec& spec) const;  // what the throughput model needs of a GPU            // "A100-40GB", "H100": case-insensitive prefix
  const Precision* precision(const std::string& key) const;     // case-insensitive
  const WorkloadScenario* workload(const std::string& id) const;
  const ProviderTerms* provider(const std::string& key) const;
  std::string provider_name(const std::string& key) const;  // the catalog's name ("Google Cloud"), else the key
  const std::vector<std::string>* workload_set(const std::string& id) const;
  bool precision_native(const Precision& p, const InstanceType& it) const;
  std::string usual_region(const std::string& provider) const;
  // The oldest date of the prices this view holds: YYYY-MM-DD, "unknown" when one of them comes
  // from an undated snapshot, "" when nothing is priced.
  std::string prices_as_of() const;
};

// The three catalog files read into a catalog, before any price file (pricing/prices.hpp's
// load_catalog adds them). Never throws.
struct CatalogFiles {
  std::shared_ptr<Catalog> catalog;
  Errors errors;
  bool gpu_instances_read = false;  // gpu_instances.json read without a fault: prices may follow
};
CatalogFiles read_catalog_files(const CatalogSources& sources);

namespace detail {
// The families' and instance types' name indices, after catalog.instances changes.
void index_families(Catalog& catalog);
}  // namespace detail

std::string to_string(WorkloadType type);
std::optional<WorkloadType> parse_workload_type(const std::string& text);

// One accelerator of an instance in a sentence ("GPU", "Trainium chip", "Inferentia chip"): AWS's
// Neuron chips are no GPUs.
std::string device_name(const InstanceType& it);

// A suspect price's code (InstanceType::price_flags, docs/prices.md) or another load warning's, as
// a person reads it; the code itself stays in the answers' JSON fields.
std::string price_flag_name(const std::string& code);

}  // namespace gpufleet
