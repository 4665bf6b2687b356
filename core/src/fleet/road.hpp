#pragma once
// One workload, one road: every question that sizes or prices a deployment evaluates the same
// Workload on candidate deployments (an instance offer x instances x a layout) with the
// architecture-aware memory model, the roofline throughput model, the replicas the demand needs
// and the catalog's prices. A deployment that cannot run carries its refusal and a way out.

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "pricing/cost.hpp"
#include "fleet/seed_memory.hpp"
#include "model/memory_model.hpp"
#include "model/throughput.hpp"

namespace gpufleet {

// What the users of a deployment ask of it. Serving: a request rate with its shape and latency
// targets; batch inference: output tokens a month; training: a dataset, epochs and a deadline.
struct Demand {
  std::optional<double> requests_per_s;
  double input_tokens = 500;
  double output_tokens = 200;
  std::optional<double> max_ttft_ms;  // p95, queueing included
  std::optional<double> max_tpot_ms;
  double target_utilization = 0.7;
  std::optional<double> tokens_per_month;  // batch inference: output tokens
  std::optional<double> dataset_tokens;
  double epochs = 1;
  std::optional<double> deadline_days;
};

// How a model is trained when the request does not say: AdamW with mixed precision (16-bit
// weights and gradients, fp32 master weights and moments: 16 bytes per parameter), activations
// recomputed, parameters, gradients and optimizer states sharded over the data-parallel GPUs.
struct Recipe {
  std::string optimizer = "adamw";
  bool master_weights = true;
  bool gradient_checkpointing = true;
  std::string sharding = "zero3";
  double micro_batch = 1;
  double sequence = 2048;
  double lora_rank = 0;  // 0: the memory model's default
};

// What the road computes once per workload for every candidate that asks the same (its sweeps
// ask thousands of times; instance types of one GPU ask the same questions): the whole model's
// bytes by compute precision, and the memory and throughput models' answers by what varies
// between candidates. A copy starts empty: a copied workload may be changed before it is asked.
struct RoadMemo {
  struct MemoryKey {
    double tensor_parallel, pipeline_parallel, gpus, capacity_bytes, batch;
    bool gpus_linked;
    std::string compute;
    std::string gpu;  // the device's name: vLLM's defaults depend on it (A100s keep the small budget)
    bool operator==(const MemoryKey& o) const;
  };
  // One device, precision, tensor-parallel degree and pipeline depth the throughput model is
  // asked about (found by what an instance type's question is made of, before it is made), its
  // question, and its answers (each at its batch), without and with their basis texts.
  struct InferenceSetup {
    const InstanceType* instance;  // the first asked; others with the same device share it
    std::string compute;
    double tensor_parallel, pipeline_parallel;
    ThroughputQuestion question;
    std::vector<InferenceEstimate> figures, explained;
  };
  std::vector<std::pair<std::string, std::pair<double, double>>> whole;
  std::vector<std::pair<MemoryKey, MemoryAnswer>> memory;
  std::vector<std::pair<MemoryKey, double>> sequences;  // sequences_that_fit, by setup
  std::vector<InferenceSetup> inference;

  RoadMemo() = default;
  RoadMemo(const RoadMemo&) {}
  RoadMemo& operator=(const RoadMemo&) {
    whole.clear();
    memory.clear();
    sequences.clear();
    inference.clear();
    return *this;
  }
};

struct Workload {
  ModelSpec model;
  WorkloadType task = WorkloadType::kInference;
  const Precision* precision = nullptr;  // the seed's precision, when the format is one
  std::string weight_format = "fp16";    // memory_model.weight_formats key
  std::string kv_format;                 // "" = the compute precision's 16-bit format
  std::string engine;                    // "" = vllm for serving, transformers for training
  Recipe recipe;
  Demand demand;
  bool seed_memory = false;  // seed 004's weights x 1.2 / x 1.5 instead of the architecture
  // The share of each GPU's memory a deployment may use (reliability keeps 10 % free): serving
  // runs at the concurrency whose KV cache stays within it.
  double max_memory_share = 1.0;
  // false: the road's figures without the basis texts of their estimates (answers that list
  // candidates show none of them).
  bool explain = true;
  mutable RoadMemo memo;

  bool serving() const { return task == WorkloadType::kInference || task == WorkloadType::kBatchInference; }
  bool trains() const { return !serving(); }
  std::string engine_key() const { return !engine.empty() ? engine : serving() ? "vllm" : "transformers"; }
};

// Ranks of one model copy and how many copies serve (or train, data-parallel).
struct Layout {
  double tensor_parallel = 1;
  double pipeline_parallel = 1;  // across instances
  double replicas = 1;           // serving: model copies; training: data-parallel groups
  double gpus_per_copy() const { return tensor_parallel * pipeline_parallel; }
};

// The path a tensor-parallel group of `tp` GPUs of one instance all-reduces over: the NVLink /
// NVSwitch domain's bandwidth when the group fits inside one domain, else the PCIe path.
struct TensorLink {
  std::string kind;       // none (one GPU) | domain (NVLink, NVSwitch, NeuronLink, ...) | pcie
  double gb_per_s = 0;    // one direction; 0 = unknown (the throughput model's kUnknownLinkGbPerS)
  double domain_gpus = 1;  // GPUs one domain of the instance joins
  std::string basis;      // which link and why, with its figure
};

struct Deployment {
  const InstanceType* instance = nullptr;
  int instance_count = 0;
  Layout layout;
  double gpus = 0;  // accelerators used
  std::string refusal;  // empty: it runs
  std::string way_out;
  std::vector<std::string> notes;  // format fallbacks, uncalibrated devices, assumptions
  bool uncalibrated = false;       // Neuron devices: datasheet peaks, GPU efficiencies
  std::string compute_precision;
  // Memory of the fullest GPU.
  double capacity_per_gpu_bytes = 0;
  double memory_per_gpu_bytes = 0;
  double weights_per_gpu_bytes = 0;  // also where a refusal leaves `memory` unset
  std::optional<MemoryEstimate> memory;
  // Serving, per model copy.
  double concurrency = 0;
  double max_concurrency_by_kv = 0;
  std::optional<InferenceEstimate> inference;
  double p95_ttft_ms = 0;
  double queue_wait_ms = 0;
  // Training.
  std::optional<TrainingEstimate> training;
  std::optional<double> run_hours;
  // Capacity, demand and cost.
  double output_tokens_per_s = 0;  // serving: all copies at their concurrency; training: tokens/s
  double utilization = 0;          // demand / capacity (0 without a demand)
  Cost cost;
  std::optional<double> usd_per_million_output_tokens;
  std::optional<double> usd_per_run;
  std::string bound;
  // Serving sized for a demand: the demand, what one copy serves at the target utilization (both
  // in requests/s) and the copies beyond what the demand needs (queueing, a spare).
  bool sized_for_demand = false;
  double demand_rps = 0;
  double copy_rps = 0;
  double copies_beyond_demand = 0;

  bool runs() const { return refusal.empty(); }
};

// Why an engine cannot split the model's attention over `tp` ranks (vLLM, TensorRT-LLM and
// Megatron shard whole heads; grouped KV heads are split or replicated); empty when it can.
std::string tp_refusal(const Architecture& a, double tp);
inline constexpr const char* kTpWayOut = "a tensor-parallel degree that divides the heads (powers of two for most models)";

// The name of `it`'s GPU that the memory model's device-dependent defaults read (vLLM's larger
// token budget is for 70 GiB GPUs other than A100s): the catalog's GPU key, else the GPU type.
std::string gpu_name(const InstanceType& it);

// The link a tensor-parallel group of `tp` GPUs of `it` uses, and why.
TensorLink tensor_link(const InstanceType& it, double tp);

// The device a throughput question sees on one instance: its memory, its share of the GPU, and
// the link its `tp` tensor-parallel ranks use on that instance, not the GPU model's own link.
DeviceSpec instance_device(const Catalog& catalog, const InstanceType& it, double tp);
// Whether the throughput model sees the same device on `a` and `b` at `tp` (offers of one type in
// several regions, sizes of one family): their estimates are the same.
bool same_device(const InstanceType& a, const InstanceType& b, double tp);

// Whether `it` runs the weight format for the workload: the compute precision, or a refusal.
struct FormatSupport {
  std::string compute;  // precision of the matmuls; empty when refused
  std::string note;     // weight-only fallback, stated
  std::string refusal;
  std::string way_out;
};
FormatSupport format_support(const Catalog& catalog, const Workload& w, const InstanceType& it);

// Why the memory estimate `e` of `q` does not run on a GPU of `capacity` bytes; empty when it does.
// A fit means the memory holds it and, under an engine with a KV pool, the pool holds at least one
// whole sequence at the asked length (size_memory's rule, for the memory questions).
std::string memory_refusal(const MemoryQuestion& q, const MemoryEstimate& e, double capacity);

// The smallest tensor-parallel degree (1, 2, 4, ... up to the instance's GPUs) the engines can
// shard the model with at which one copy of `q` fits `it`'s GPUs (their memory, name and link);
// 0 when none does.
double smallest_fitting_tp(const Catalog& catalog, MemoryQuestion q, const InstanceType& it);

// The memory question of a workload on a layout (the memory answer and the road both ask it).
MemoryQuestion memory_question(const Workload& w, const Layout& layout, double gpus,
                               double capacity_bytes, const std::string& compute);

// The deployment's cost as the billing asks (`explain`: with its basis).
void price(const Catalog& catalog, const Billing& billing, bool explain, Deployment& d);
// A priced deployment's $ per 1M output tokens (of the tokens it serves) and a job's cost.
void per_token_and_run_costs(const Catalog& catalog, const Workload& w, Deployment& d);

// The copies a demand needs: max(1, ceil(demand / what one copy serves)), both in requests/s,
// the copy's at the target utilization.
double copies_for(double demand_rps, double copy_rps);
// Model copies of one instance: a pipeline's stage spans it, else its GPUs over the tensor ranks.
double copies_per_instance(const InstanceType& it, const Layout& layout);
// The instances `copies` copies of `layout` take on `it`.
int instances_for(const InstanceType& it, const Layout& layout, double copies);

// The workload on `count` x `it` with `layout`, at the demand (or at one copy without one).
Deployment deploy(const Catalog& catalog, const Workload& w, const Billing& billing,
                  const InstanceType& it, const Layout& layout, int count);

// The memory model's mode of a task (inference and batch inference: inference).
TrainMode train_mode(WorkloadType task);

// The workload on exactly `gpus` GPUs of `it` (fit, a current setup): the best valid layout over
// them, or the refusal of the closest one.
Deployment deploy_on_gpus(const Catalog& catalog, const Workload& w, const Billing& billing,
                          const InstanceType& it, double gpus);

// A deployment that fits but has no speed estimate cannot be sized for a demand: refused, with the
// road's note as the reason. Every question that sizes replicas asks this of what it takes.
void refuse_without_speed(Deployment& d);

// The cheapest valid deployment of the workload on instances of type `it` for the demand (without
// one: the fewest GPUs per copy, lowest $ per token), or the refusal that stopped every layout.
Deployment best_on(const Catalog& catalog, const Workload& w, const Billing& billing,
                   const InstanceType& it);

// Seed 004's memory rule for the workload (weights x 1.2 inference, x 1.5 training).
MemoryRequirement seed_requirement(const Catalog& catalog, const Workload& w);

// The generic dense decoder of `parameters` (a size class or a bare count): the published shape
// nearest in size of model_config.json's generic_decoder.shapes_from, its depth scaled to the
// count. nullopt when the catalog names no shape.
std::optional<Architecture> generic_decoder(const Catalog& catalog, double parameters,
                                            std::string& basis);

// A size class of model_config.json as a model: its parameter count as a generic decoder.
ModelSpec size_class_model(const Catalog& catalog, const ModelSize& size);

}  // namespace gpufleet
