// The field definitions of the catalog kinds (fields.hpp): every object of gpu_instances.json,
// model_config.json, workloads.json and the price files (a request's kinds are api/request_fields.cpp's).
// Ranges and values are the ones the readers check (catalog.cpp, model_catalog.cpp, prices.cpp); the unit test
// fields_test.cpp mutates the shipped files field by field to prove that the core and this table
// agree.

#include "catalog/fields.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <vector>

#include "catalog/gpu_instances_fields.hpp"
#include "catalog/model_config_fields.hpp"
#include "gpufleet/names.hpp"

namespace gpufleet::detail::fields {
namespace {

using T = Type;
using namespace define;
using namespace gpu_instances;
using namespace model_config;

// ---- workloads.json --------------------------------------------------------------------------

constexpr Field kWorkloadsFile[] = {
    str("$schema", kInfo, FIELD_DOC("the JSON Schema of this file, for editors (./schemas/workloads.schema.json)")),
    obj("workloads", kRequired, "workloads", FIELD_DOC("scenarios by id (seed 004), at most 256")),
    obj("workload_sets", 0, "workload_sets", FIELD_DOC("lists of workload ids by set id, at most 64")),
};
constexpr Field kWorkloadSet = field("*", T::kStrings, 0, FIELD_DOC("ids of entries of \"workloads\""));

constexpr Field kWorkload[] = {
    str("name", kRequired, FIELD_DOC("the scenario as shown")),
    str("expected_outcome", 0, FIELD_DOC("what the report should conclude")),
    field("tags", T::kStrings, 0, FIELD_DOC("labels")),
    obj("scenario", kRequired, "scenario", FIELD_DOC("the deployment today and what matters")),
};

constexpr Field kScenario[] = {
    str("current_instance", kRequired, FIELD_DOC("an instance family or type of gpu_instances.json")),
    num("current_gpu_count", kRequired | kMinExclusive, 0, 4096, FIELD_DOC("GPUs in use today")),
    str("workload_type", kRequired, FIELD_DOC("INFERENCE, FINE_TUNING or TRAINING (any case; lora, qlora, batch_inference too)")),
    str("model_size", kRequired, FIELD_DOC("a key of model_sizes in model_config.json (any case)")),
    num("monthly_hours", kMinExclusive, 0, 744, FIELD_DOC("hours a month (default 720)")),
    boolean("use_spot", 0, FIELD_DOC("spot pricing (default false)")),
    str("precision", 0, FIELD_DOC("a key of precision_formats (default fp16; any case)")),
    str("priority", 0, FIELD_DOC("cost (default), performance or balanced (any case)")),
};

// ---- price files (config/prices/<provider>/<region>.json) -------------------------------------

constexpr Field kPriceFile[] = {
    str("$schema", kInfo, FIELD_DOC("the JSON Schema of this file, for editors")),
    str("provider", kRequired, FIELD_DOC("a key of \"providers\" of gpu_instances.json")),
    str("region", kRequired, FIELD_DOC("the region priced (not empty)")),
    obj("snapshot", kRequired, "snapshot", FIELD_DOC("the upstream snapshot the prices come from")),
    str("spot_statistic", 0, FIELD_DOC("how the spot price was taken from the zones' prices")),
    obj("spot_bands", 0, "spot_bands", FIELD_DOC("where the offers' interruption bands come from, and as of when (docs/spot.md)")),
    obj("offers", kRequired, "offers", FIELD_DOC("prices by instance type, at most 4096")),
};

constexpr Field kSpotBands[] = {
    str("source", kRequired, FIELD_DOC("the feed the bands come from, or \"none\"")),
    str("as_of", kRequired, FIELD_DOC("YYYY-MM-DD, or \"unknown\"")),
    str("as_of_source", 0, FIELD_DOC("how the date is known")),
    str("meaning", 0, FIELD_DOC("what the provider says a band measures")),
    str("unknown", 0, FIELD_DOC("why the provider's bands are unknown")),
};

constexpr Field kInterruptionBand[] = {
    num("low_pct", kRequired, 0, 100, FIELD_DOC("the band's low end, % of capacity reclaimed in a month")),
    num("high_pct", kRequired, 0, 100, FIELD_DOC("its high end (>20 % is written 20-100)")),
    str("label", kRequired, FIELD_DOC("the provider's label: <5%, 5-10%, 10-15%, 15-20%, >20%")),
};

constexpr Field kSnapshot[] = {
    str("source", kRequired, FIELD_DOC("the upstream repository or page")),
    str("path", 0, FIELD_DOC("the file within it")),
    str("commit", 0, FIELD_DOC("its commit")),
    str("date", kRequired, FIELD_DOC("YYYY-MM-DD, or \"unknown\"")),
    str("date_source", 0, FIELD_DOC("how the date is known")),
};

constexpr Field kOffer[] = {
    num("on_demand_cost_per_hour", 0, kMinPriceUsdPerHour, kMaxPriceUsdPerHour, FIELD_DOC("USD per instance-hour on demand")),
    obj("on_demand_parts", 0, "on_demand_parts", FIELD_DOC("the on-demand price's parts, where the provider prices them apart")),
    num("spot_cost_per_hour", 0, kMinPriceUsdPerHour, kMaxPriceUsdPerHour, FIELD_DOC("USD per instance-hour on spot (spot_statistic)")),
    num("spot_median_cost_per_hour", 0, kMinPriceUsdPerHour, kMaxPriceUsdPerHour, FIELD_DOC("the zones' median spot price")),
    num("zones", 0, 0, 1000, FIELD_DOC("zones offering the type")),
    num("spot_zones", 0, 0, 1000, FIELD_DOC("zones with a spot price")),
    objects("anomalies", 0, "anomaly", 0, 16, FIELD_DOC("faults found in the upstream rows, at most 16: the offer is flagged and left out of rankings")),
    str("notes", 0, FIELD_DOC("what the price covers")),
    str("source", 0, FIELD_DOC("where the price comes from, when not the snapshot")),
    str("source_date", 0, FIELD_DOC("its date, when not the snapshot's")),
    obj("interruption_band", 0, "interruption_band", FIELD_DOC("the spot interruption band (AWS Spot Instance Advisor), when known")),
};

constexpr Field kOnDemandParts[] = {
    num("host", 0, 0, kMaxPriceUsdPerHour, FIELD_DOC("the host VM, USD per hour")),
    num("accelerators", 0, 0, kMaxPriceUsdPerHour, FIELD_DOC("the accelerators, USD per hour")),
};

constexpr Field kAnomaly[] = {
    str("code", kRequired, FIELD_DOC("cross_region_price, marked_anomaly, sentinel_price, ...")),
    str("detail", kRequired, FIELD_DOC("what is wrong")),
};

constexpr Field kMapOfGpus = obj("*", 0, "gpu", nullptr);
constexpr Field kMapOfProviders = obj("*", 0, "provider", nullptr);
constexpr Field kMapOfWays = obj("*", 0, "way_to_pay", nullptr);
constexpr Field kMapOfWayFamilies = obj("*", 0, "way_family", nullptr);
constexpr Field kMapOfFamilies = obj("*", 0, "family", nullptr);
constexpr Field kMapOfSizes = obj("*", 0, "size", nullptr);
constexpr Field kMapOfModelSizes = obj("*", 0, "model_size", nullptr);
constexpr Field kMapOfPrecisions = obj("*", 0, "precision_format", nullptr);
constexpr Field kMapOfModels = obj("*", 0, "model", nullptr);
constexpr Field kMapOfWeightFormats = obj("*", 0, "weight_format", nullptr);
constexpr Field kMapOfKvFormats = obj("*", 0, "kv_cache_format", nullptr);
constexpr Field kMapOfOptimizers = obj("*", 0, "optimizer", nullptr);
constexpr Field kMapOfEngines = obj("*", 0, "engine", nullptr);
constexpr Field kMapOfInferenceEngines = obj("*", 0, "inference_engine", nullptr);
constexpr Field kMapOfWorkloads = obj("*", 0, "workload", nullptr);
constexpr Field kMapOfOffers = obj("*", 0, "offer", nullptr);
constexpr Field kMapOfRegionSites = obj("*", 0, "region_site", nullptr);
constexpr Field kMapOfTokenPrices = obj("*", 0, "token_price", nullptr);

#define MAP(name, what, rest, text) Kind{name, what, nullptr, 0, 0, &rest, nullptr, nullptr, nullptr, 0, FIELD_DOC(text)}

constexpr Kind kKinds[] = {
    // gpu_instances.json
    Kind{"gpu_instances_file", "gpu_instances.json", KIND_FIELDS(kGpuInstancesFile), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("gpu_instances.json: accelerators, providers and instance families")},
    Kind{"catalog_info", "\"catalog_info\"", KIND_FIELDS(kCatalogInfo), kCatalog | kOpen, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("free metadata about the catalog; name, version and date are shown in every answer")},
    MAP("field_notes", "\"field_notes\"", kAnyString, "what each field means, by name"),
    MAP("gpus", "\"gpus\"", kMapOfGpus, "accelerator specifications by name"),
    Kind{"gpu", "a GPU", KIND_FIELDS(kGpu), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("an accelerator's datasheet figures")},
    MAP("tflops", "\"tflops\"", kTflopsValue, "dense tensor TFLOPS by precision (fp16, bf16, fp8, int8, ...)"),
    MAP("providers", "\"providers\"", kMapOfProviders, "providers by key (aws, gcp, azure)"),
    Kind{"provider", "a provider", KIND_FIELDS(kProvider), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a provider's terms")},
    MAP("ways_to_pay", "\"ways_to_pay\"", kMapOfWays, "ways to pay with a commitment, by id"),
    MAP("region_sites", "\"regions\"", kMapOfRegionSites, "a provider's regions by name"),
    Kind{"region_site", "a region", KIND_FIELDS(kRegionSite), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("where a region is and which geographies it is in")},
    Kind{"egress", "\"egress\"", KIND_FIELDS(kEgress), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a provider's data transfer prices")},
    Kind{"batch_api", "\"batch_api\"", KIND_FIELDS(kBatchApi), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a provider's batch-inference API and its discount")},
    MAP("batch_api_token_prices", "\"token_prices\"", kMapOfTokenPrices, "real-time token prices by model key"),
    Kind{"token_price", "a model's token price", KIND_FIELDS(kTokenPrice), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a model's real-time list price per token at a service, with its source")},
    Kind{"way_to_pay", "a way to pay", KIND_FIELDS(kWayToPay), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a commitment a provider sells: its term, upfront payment and discount")},
    MAP("way_families", "\"families\" of a way to pay", kMapOfWayFamilies, "a way's figures by instance family or series"),
    Kind{"way_family", "a family's figure", KIND_FIELDS(kWayFamily), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a way to pay for one family or series")},
    Kind{"sustained_use", "\"sustained_use\"", KIND_FIELDS(kSustainedUse), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a provider's sustained use discount")},
    Kind{"default_ways", "\"default_ways\"", KIND_FIELDS(kDefaultWays), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("the ways reserved_1y and reserved_3y mean")},
    MAP("families", "\"gpu_instances\"", kMapOfFamilies, "instance families by key"),
    Kind{"family", "an instance family", KIND_FIELDS(kFamily), kCatalog, nullptr, "accelerator_kind", "cpu", KIND_FIELDS(kCpuFamily),
     FIELD_DOC("an instance family: its flagship instance type's fields, and its sizes")},
    MAP("sizes", "\"sizes\"", kMapOfSizes, "instance types of the family by name"),
    Kind{"size", "an instance size", KIND_FIELDS(kSize), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("an instance type of a family; what it leaves out is the flagship's")},
    // model_config.json
    Kind{"model_config_file", "model_config.json", KIND_FIELDS(kModelConfigFile), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("model_config.json: size classes, precisions, concrete models and the models' constants")},
    MAP("model_sizes", "\"model_sizes\"", kMapOfModelSizes, "size classes by key"),
    Kind{"model_size", "a model size", KIND_FIELDS(kModelSize), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a size class (seed 004)")},
    MAP("precision_formats", "\"precision_formats\"", kMapOfPrecisions, "precisions by key"),
    Kind{"precision_format", "a precision format", KIND_FIELDS(kPrecisionFormat), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a precision (seed 004)")},
    Kind{"memory_planning", "\"memory_planning\"", KIND_FIELDS(kMemoryPlanning), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("the seed's memory multipliers")},
    MAP("models", "\"models\"", kMapOfModels, "concrete models by key, at most 1024"),
    Kind{"model", "a model", KIND_FIELDS(kModel), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a concrete model and its config.json")},
    Kind{"generic_decoder", "\"generic_decoder\"", KIND_FIELDS(kGenericDecoder), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("shapes for a model given by its size")},
    Kind{"memory_model", "\"memory_model\"", KIND_FIELDS(kMemoryModel), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("the memory model's constants")},
    MAP("weight_formats", "\"weight_formats\"", kMapOfWeightFormats, "weight formats by key"),
    Kind{"weight_format", "a weight format", KIND_FIELDS(kWeightFormat), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("bits per weight of a format")},
    MAP("kv_cache_formats", "\"kv_cache_formats\"", kMapOfKvFormats, "KV-cache formats by key"),
    Kind{"kv_cache_format", "a KV-cache format", KIND_FIELDS(kKvCacheFormat), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("bytes per KV-cache element")},
    MAP("optimizers", "\"optimizers\"", kMapOfOptimizers, "optimizers by key"),
    Kind{"optimizer", "an optimizer", KIND_FIELDS(kOptimizer), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("an optimizer's state")},
    MAP("engines", "\"engines\"", kMapOfEngines, "engines by key"),
    Kind{"engine", "an engine", KIND_FIELDS(kEngine), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("an engine's runtime memory")},
    Kind{"measured_error", "\"measured_error\"", KIND_FIELDS(kMeasuredError), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("the measured error of each kind of figure")},
    Kind{"measured_error_kind", "a kind of figure", KIND_FIELDS(kMeasuredErrorKind), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("the measured error of one quantity x phase x engine")},
    Kind{"pool_share_step", "a pool share step", KIND_FIELDS(kPoolShareStep), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a static pool's default share from one tensor-parallel size on")},
    Kind{"profile_band", "a release band", KIND_FIELDS(kProfileBand), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a pool engine's profile-run defaults from one release on")},
    Kind{"cuda_context", "\"cuda_context\"", KIND_FIELDS(kCudaContext), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("PyTorch's CUDA context")},
    Kind{"deepspeed_zero3", "\"deepspeed_zero3\"", KIND_FIELDS(kDeepspeedZero3), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("DeepSpeed ZeRO-3 defaults")},
    Kind{"lora", "\"lora\"", KIND_FIELDS(kLora), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("LoRA defaults")},
    MAP("lora_target_modules", "\"default_target_modules\"", kTargetModules, "module names by model type"),
    Kind{"throughput_model", "\"throughput_model\"", KIND_FIELDS(kThroughputModel), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("the throughput model's constants")},
    Kind{"efficiency", "an efficiency", KIND_FIELDS(kEfficiency), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a share reached, with its source")},
    Kind{"prefill_mfu", "\"prefill_mfu\"", KIND_FIELDS(kPrefillMfu), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("prefill MFU by prompt length")},
    Kind{"tensor_parallel", "\"tensor_parallel\"", KIND_FIELDS(kTensorParallel), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("tensor parallelism's costs")},
    Kind{"training_loss", "\"training_loss\"", KIND_FIELDS(kTrainingLoss), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("the loss's memory traffic over the logits in training")},
    Kind{"training_step", "\"training_step\"", KIND_FIELDS(kTrainingStep), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a training step's memory passes outside its matmuls")},
    Kind{"pipeline_parallel", "\"pipeline_parallel\"", KIND_FIELDS(kPipelineParallel), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("the costs of pipeline stages across instances")},
    MAP("inference_engines", "\"engines\"", kMapOfInferenceEngines, "inference engines by key"),
    Kind{"inference_engine", "an inference engine", KIND_FIELDS(kInferenceEngine), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("how an inference engine sizes its KV pool")},
    Kind{"eager_host", "\"eager_host\"", KIND_FIELDS(kEagerHost), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("an eager engine's host time per forward pass")},
    Kind{"kernels_per_layer_by", "\"kernels_per_layer_by\"", KIND_FIELDS(kKernelsPerLayerBy), 0, &kKernelsPerLayerByValue, nullptr, nullptr, nullptr, 0, FIELD_DOC("an eager engine's kernels per layer by attention implementation and model type, with its source")},
    Kind{"eager_activation_bytes", "\"eager_activation_bytes\"", KIND_FIELDS(kEagerActivationBytes), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("an eager engine's elementwise bytes per token and layer, by width")},
    Kind{"tiled_kernel", "a tiled weight-only kernel", KIND_FIELDS(kTiledKernel), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("an engine's weight-only matmul kernel that dequantizes per tile of rows")},
    Kind{"serving", "\"serving\"", KIND_FIELDS(kServing), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a serving engine's limits")},
    Kind{"training_mfu", "\"training_mfu\"", KIND_FIELDS(kByGpu), 0, &kByGpuValue, nullptr, nullptr, nullptr, 0, FIELD_DOC("training MFU by GPU name, with its source")},
    Kind{"training_attention", "\"training_attention\"", KIND_FIELDS(kByGpu), 0, &kByGpuValue, nullptr, nullptr, nullptr, 0, FIELD_DOC("attention's rate over the matmuls' in training by GPU name or family, with its source")},
    Kind{"link_gb_per_s", "\"link_gb_per_s\"", KIND_FIELDS(kByGpu), 0, &kByGpuValue, nullptr, nullptr, nullptr, 0, FIELD_DOC("GPU-to-GPU link GB/s by GPU name, with its source")},
    Kind{"matmul_efficiency", "\"matmul_efficiency\"", KIND_FIELDS(kByGpu), 0, &kByGpuValue, nullptr, nullptr, nullptr, 0, FIELD_DOC("measured share of peak matmul FLOPS by GPU, with its source")},
    Kind{"bandwidth_efficiency", "\"bandwidth_efficiency\"", KIND_FIELDS(kByGpu), 0, &kByGpuValue, nullptr, nullptr, nullptr, 0, FIELD_DOC("measured share of peak memory bandwidth by GPU, with its source")},
    Kind{"layer_overhead_us", "\"layer_overhead_us\"", KIND_FIELDS(kByGpu), 0, &kByGpuValue, nullptr, nullptr, nullptr, 0, FIELD_DOC("time per layer per step by GPU vendor, with its source")},
    Kind{"eager_us_per_kernel", "\"eager_us_per_kernel\"", KIND_FIELDS(kByGpu), 0, &kByGpuValue, nullptr, nullptr, nullptr, 0, FIELD_DOC("host time per eager kernel launch by GPU, with its source")},
    // workloads.json
    Kind{"workloads_file", "workloads.json", KIND_FIELDS(kWorkloadsFile), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("workloads.json: scenarios and sets (seed 004)")},
    MAP("workloads", "\"workloads\"", kMapOfWorkloads, "scenarios by id"),
    Kind{"workload", "a workload", KIND_FIELDS(kWorkload), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a scenario: today's deployment and what matters")},
    Kind{"scenario", "a scenario", KIND_FIELDS(kScenario), kCatalog, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("the deployment today")},
    MAP("workload_sets", "\"workload_sets\"", kWorkloadSet, "lists of workload ids by set id"),
    // price files
    Kind{"price_file", "a price file", KIND_FIELDS(kPriceFile), kNoNull, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("one region's prices (config/prices/<provider>/<region>.json, written by scripts/update-prices)")},
    Kind{"snapshot", "\"snapshot\"", KIND_FIELDS(kSnapshot), kNoNull, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("the upstream snapshot")},
    MAP("offers", "\"offers\"", kMapOfOffers, "prices by instance type"),
    Kind{"offer", "an offer", KIND_FIELDS(kOffer), kNoNull, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("an instance type's prices in the region")},
    Kind{"on_demand_parts", "\"on_demand_parts\"", KIND_FIELDS(kOnDemandParts), kNoNull, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("the parts of an on-demand price")},
    Kind{"spot_bands", "\"spot_bands\"", KIND_FIELDS(kSpotBands), kNoNull, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("the source and date of a file's interruption bands")},
    Kind{"interruption_band", "an interruption band", KIND_FIELDS(kInterruptionBand), kNoNull, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a spot pool's interruption frequency band")},
    Kind{"anomaly", "an anomaly", KIND_FIELDS(kAnomaly), kNoNull, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a fault found in the upstream rows")},
};

constexpr Kind kMissing{"", "an object", nullptr, 0};

bool type_matches(Type type, const Json& value) {
  switch (type) {
    case T::kString: return value.is_string();
    case T::kNumber: return value.is_number();
    case T::kBoolean: return value.is_boolean();
    case T::kObject: return value.is_object();
    case T::kStrings:
      return value.is_array() && std::all_of(value.begin(), value.end(), [](const Json& x) { return x.is_string(); });
    case T::kNumbers:
      return value.is_array() && std::all_of(value.begin(), value.end(), [](const Json& x) { return x.is_number(); });
    case T::kObjects: return value.is_array();
    case T::kStringOrStrings: return value.is_string() || type_matches(T::kStrings, value);
    case T::kArray: return value.is_array();
    case T::kAny: return true;
  }
  return true;
}

const char* type_text(Type type) {
  switch (type) {
    case T::kString: return "a string";
    case T::kNumber: return "a number";
    case T::kBoolean: return "true or false";
    case T::kObject: return "an object";
    case T::kStrings: return "an array of strings";
    case T::kNumbers: return "an array of numbers";
    case T::kObjects: return "an array of objects";
    case T::kStringOrStrings: return "a string or an array of strings";
    case T::kArray: return "an array";
    case T::kAny: return "a value";
  }
  return "a value";
}


}  // namespace

const Kind* kinds_begin() { return std::begin(kKinds); }
const Kind* kinds_end() { return std::end(kKinds); }

namespace {
// The higher layer's table (constant-initialized: set before main, read after).
KindTable added{nullptr, nullptr};
}  // namespace

bool add_kinds(KindTable table) {
  added = table;
  return true;
}

const Kind& kind(std::string_view name) {
  for (const Kind& k : kKinds) {
    if (name == k.name) return k;
  }
  for (const Kind* k = added.begin; k != added.end; ++k) {
    if (name == k->name) return *k;
  }
  return kMissing;
}

std::vector<std::vector<std::string>> spellings_of(const Field& field) {
  std::vector<std::vector<std::string>> out;
  std::string_view rest = field.values ? field.values : "";
  while (!rest.empty()) {
    const std::size_t space = rest.find(' ');
    std::string_view word = rest.substr(0, space);
    if (!word.empty()) {
      std::vector<std::string>& spellings = out.emplace_back();
      for (std::size_t bar = word.find('|');; bar = word.find('|')) {
        spellings.emplace_back(word.substr(0, bar));
        if (bar == std::string_view::npos) break;
        word.remove_prefix(bar + 1);
      }
    }
    if (space == std::string_view::npos) break;
    rest.remove_prefix(space + 1);
  }
  return out;
}

std::vector<std::string> values_of(const Field& field) {
  std::vector<std::string> out;
  for (auto& spellings : spellings_of(field)) out.push_back(std::move(spellings.front()));
  return out;
}

const Field* find(const Kind& kind, std::string_view name) {
  for (std::size_t i = 0; i < kind.count; ++i) {
    if (name == kind.fields[i].name) return &kind.fields[i];
  }
  return nullptr;
}

bool is_free_text(const Kind& kind, std::string_view name) {
  if (!(kind.flags & kCatalog)) return false;
  for (const char* text : kFreeText) {
    if (name == text) return true;
  }
  return name.size() > kFreeTextSuffix.size() && name.substr(name.size() - kFreeTextSuffix.size()) == kFreeTextSuffix;
}

std::string names(const Kind& kind) {
  std::string out;
  for (std::size_t i = 0; i < kind.count; ++i) out += (i ? ", " : "") + std::string(kind.fields[i].name);
  return out;
}

bool check_fields(const Reader& r, const Json& obj, const std::string& path, const Kind& kind) {
  if (!obj.is_object()) return true;  // the reader says what it expected
  bool good = true;
  const bool catalog = kind.flags & kCatalog;
  for (const auto& item : obj.items()) {
    const std::string& key = item.key();
    const Json& value = item.value();
    const Field* field = find(kind, key);
    if (field || kind.rest || (kind.flags & kOpen)) {
      if (!field) continue;  // the reader of the table checks its members
      if (value.is_null() && (kind.flags & kNoNull)) {
        // A price file says what it means: null is not "no price" (a request's reader says the same of its fields).
        r.fail("wrong_type", Reader::child(path, key), "expected a value, got null; leave \"" + key + "\" out");
        good = false;
      } else if ((field->flags & kInfo) && !value.is_null() && !type_matches(field->type, value)) {
        r.fail("wrong_type", Reader::child(path, key), std::string("expected ") + type_text(field->type) + ", got " + Reader::describe(value));
        good = false;
      }
      continue;
    }
    if (is_free_text(kind, key)) {
      if (!value.is_string() && !value.is_null()) {
        r.fail("wrong_type", Reader::child(path, key), "expected a string (free text), got " + Reader::describe(value));
        good = false;
      }
      continue;
    }
    std::string message = "expected one of " + names(kind) + " (the fields of " + kind.what + ")";
    if (catalog) message += ", or free text (description, notes, note, source, source_date, estimate, estimates, about, *_notes)";
    message += "; got \"" + key + "\"";
    const Field* best = nullptr;
    std::size_t best_distance = 0;
    for (std::size_t i = 0; i < kind.count; ++i) {
      const std::size_t d = edit_distance(key, kind.fields[i].name);
      if (!best || d < best_distance) {
        best = &kind.fields[i];
        best_distance = d;
      }
    }
    if (best && best_distance <= std::max<std::size_t>(2, key.size() / 4)) message += "; did you mean \"" + std::string(best->name) + "\"?";
    r.fail("unknown_field", Reader::child(path, key), message);
    good = false;
  }
  return good;
}

}  // namespace gpufleet::detail::fields
