#include "fleet/road.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "model/queueing.hpp"
#include "model/sequences.hpp"
#include "support/json_reader.hpp"
#include "support/text.hpp"

namespace gpufleet {
namespace {

constexpr int kMaxInstances = 128;
// Room for the setups one workload's sweep usually asks about (a recommendation over every region:
// about 40 GPU x layout setups): the memos seldom move what they hold as they grow.
constexpr std::size_t kSetupsKept = 64;

std::string num(double x) { return text::short_number(x); }
std::string gb(double bytes) { return num(text::round_to(bytes / 1e9, 2)) + " GB"; }

bool neuron(const InstanceType& it) {
  return it.accelerator_kind == "trainium" || it.accelerator_kind == "inferentia";
}

// A training job spans several instances only where the family is built for it (NVSwitch inside,
// a fast fabric between: the catalog's interconnect_multiplier of 1).
bool spans_instances(const InstanceType& it) { return it.interconnect_multiplier >= 1 && it.gpus >= 2; }

// Why pipeline stages cannot run on several instances of `it` ("" when they can): their
// activations cross the instances' network, which the catalog must give to cost them.
std::string pipeline_refusal(const InstanceType& it) {
  if (neuron(it)) return "pipeline stages across " + it.gpu_type + " instances are not modelled";
  if (!it.network_gbit_per_s)
    return "the catalog lacks the network bandwidth between " + it.name +
           " instances (network_gbit_per_s), so the activations its pipeline stages send cannot be "
           "costed";
  return "";
}

}  // namespace

TrainMode train_mode(WorkloadType task) {
  switch (task) {
    case WorkloadType::kInference:
    case WorkloadType::kBatchInference: return TrainMode::kInference;
    case WorkloadType::kFineTuning: return TrainMode::kFullFinetune;
    case WorkloadType::kLora: return TrainMode::kLora;
    case WorkloadType::kQlora: return TrainMode::kQlora;
    case WorkloadType::kTraining: return TrainMode::kPretraining;
  }
  return TrainMode::kInference;
}

namespace {

bool quantized(const Catalog& catalog, const std::string& format) {
  auto f = catalog.memory.weight_formats.find(format);
  return f != catalog.memory.weight_formats.end() && (f->second.linear_bits < 16 || f->second.whole_model);
}

double peak(const GpuSpec* spec, std::string_view precision) {
  if (!spec) return 0;
  auto t = spec->tflops.find(precision);
  return t != spec->tflops.end() ? t->second : 0;
}

}  // namespace

namespace {
// The link's kind and figure without its explanation (the sizing loop asks it for every layout).
TensorLink link_figures(const InstanceType& it, double tp) {
  TensorLink l;
  const double gpus = std::max(1.0, it.gpus);
  // A size with fewer GPUs than its family's domain joins those it has (p5.4xlarge: 1 of 8).
  l.domain_gpus = it.nvlink_domain_gpus > 0 ? std::min(it.nvlink_domain_gpus, gpus) : gpus;
  if (tp <= 1) {
    l.kind = "none";
  } else if (l.domain_gpus > 1 && tp <= l.domain_gpus) {
    l.kind = "domain";
    l.gb_per_s = it.interconnect_bandwidth_gb_per_s / 2;
  } else {
    l.kind = "pcie";
    // Without NVLink the catalog's figure is the PCIe path; between domains it gives none.
    l.gb_per_s = l.domain_gpus <= 1 ? it.interconnect_bandwidth_gb_per_s / 2 : 0;
  }
  return l;
}
}  // namespace

namespace {
// A device whose serving stack runs a listed set of architectures (Neuron's NxD Inference): serving
// any other is refused, with the list's source.
std::string served_model_type_refusal(const Catalog& catalog, const Workload& w, const InstanceType& it) {
  const GpuSpec* spec = catalog.gpu(it.gpu_model);
  if (!w.serving() || !w.model.arch || !spec || !spec->model_types_served) return "";
  const auto& types = *spec->model_types_served;
  const Architecture& a = *w.model.arch;
  auto listed = [&](const std::string& t) { return !t.empty() && std::find(types.begin(), types.end(), t) != types.end(); };
  if (listed(a.model_type) || listed(a.multimodal_type)) return "";
  std::string list;
  for (const auto& t : types) list += (list.empty() ? "" : ", ") + t;
  return "model type " + (a.multimodal_type.empty() ? a.model_type : a.multimodal_type) + " is not one " + it.gpu_type +
         "'s serving stack runs: " + list + " (" + spec->model_types_source + ")";
}
}  // namespace

std::string tp_refusal(const Architecture& a, double tp) {
  if (tp <= 1) return "";
  if (a.heads > 0 && std::fmod(a.heads, tp) != 0)
    return "tensor parallelism " + num(tp) + " does not divide the model's " + num(a.heads) +
           " attention heads (engines shard whole heads)";
  if (!a.mla() && a.kv_heads > 0 && std::fmod(a.kv_heads, tp) != 0 && std::fmod(tp, a.kv_heads) != 0)
    return "tensor parallelism " + num(tp) + " neither divides nor is a multiple of the model's " +
           num(a.kv_heads) + " KV heads";
  return "";
}

std::string gpu_name(const InstanceType& it) { return it.gpu_model.empty() ? it.gpu_type : it.gpu_model; }

TensorLink tensor_link(const InstanceType& it, double tp) {
  TensorLink l = link_figures(it, tp);
  if (l.kind == "none") {
    l.basis = "one GPU per model copy: no tensor-parallel all-reduces";
    return l;
  }
  const std::string link = it.interconnect_type.empty() ? "" : " (" + it.interconnect_type + ")";
  const double both_ways = it.interconnect_bandwidth_gb_per_s;
  if (l.kind == "domain") {
    l.basis = "tensor parallelism " + num(tp) + " stays inside one " + num(l.domain_gpus) + "-GPU domain of " +
              it.name + link + (it.nvlink_domain_gpus > 0 ? "" : "; the catalog names no domain, so the whole instance is one") +
              ": all-reduces";
  } else {
    l.basis = l.domain_gpus <= 1
                  ? it.name + "'s GPUs share no NVLink domain" + link + ": all-reduces cross PCIe"
                  : "tensor parallelism " + num(tp) + " crosses " + it.name + "'s " + num(l.domain_gpus) +
                        "-GPU domains" + link + ": all-reduces cross PCIe between them";
  }
  l.basis += l.gb_per_s > 0 ? " at " + num(l.gb_per_s) + " GB/s per direction (half of " + num(both_ways) + " GB/s both ways)"
                            : "; the catalog gives no figure for this path: " + num(kUnknownLinkGbPerS) +
                                  " GB/s per direction assumed (PCIe Gen3 x16 class)";
  return l;
}

DeviceSpec instance_device(const Catalog& catalog, const InstanceType& it, double tp) {
  DeviceSpec d;
  if (const GpuSpec* spec = catalog.gpu(it.gpu_model)) d = catalog.device(*spec);
  d.name = it.gpu_model.empty() ? it.gpu_type : it.gpu_model;
  d.memory_bytes = it.memory_per_gpu_bytes;
  d.bandwidth_gb_per_s = it.memory_bandwidth_gb_per_s * it.gpu_fraction;
  for (auto& [key, tflops] : d.tflops) tflops *= it.gpu_fraction;
  d.link_gb_per_s = link_figures(it, tp).gb_per_s;
  return d;
}

bool same_device(const InstanceType& a, const InstanceType& b, double tp) {
  return &a == &b ||
         (a.memory_per_gpu_bytes == b.memory_per_gpu_bytes && a.memory_bandwidth_gb_per_s == b.memory_bandwidth_gb_per_s &&
          a.gpu_fraction == b.gpu_fraction && a.gpu_model == b.gpu_model && a.gpu_type == b.gpu_type &&
          link_figures(a, tp).gb_per_s == link_figures(b, tp).gb_per_s);
}

FormatSupport format_support(const Catalog& catalog, const Workload& w, const InstanceType& it) {
  FormatSupport s;
  const std::string& f = w.weight_format;
  const GpuSpec* spec = catalog.gpu(it.gpu_model);
  auto gpu = [&] { return it.gpu_type + (it.arch.empty() ? "" : " (" + it.arch + ")"); };
  if (!spec || spec->tflops.empty()) {
    s.compute = f;  // no datasheet: nothing to check against
    return s;
  }
  const bool has16 = peak(spec, "bf16") > 0 || peak(spec, "fp16") > 0;
  const std::string sixteen = peak(spec, "bf16") > 0 ? "bf16" : "fp16";
  if (peak(spec, f) > 0) {
    s.compute = f;
  } else if (!quantized(catalog, f) || !has16) {
    s.refusal = f + " does not run on " + gpu() + ": its tensor cores have no " + f + " mode";
    s.way_out = f == "bf16" ? "use fp16 (same memory) on this GPU, or an Ampere or newer GPU for bf16"
                            : "use a format it runs (" + sixteen + ") or a newer GPU";
  } else if (w.trains() && !(w.task == WorkloadType::kQlora)) {
    s.refusal = f + " is a storage format here: " + gpu() + " cannot train in it";
    s.way_out = "train in " + sixteen + ", or use qlora for 4-bit base weights";
  } else if (neuron(it) && f != "fp8" && f != "int8") {
    s.refusal = f + " kernels are CUDA kernels: the Neuron SDK does not run them";
    s.way_out = "use bf16, fp8 or int8 on " + it.gpu_type;
  } else if (f == "fp8" && peak(spec, "bf16") <= 0) {
    // Weight-only fp8 (Marlin kernels) needs Ampere's instructions (compute capability 8.0).
    s.refusal = "fp8 weights need Ampere or newer (weight-only fp8 kernels) or Ada/Hopper/Blackwell (fp8 compute); " +
                gpu() + " has neither";
    s.way_out = "use fp16 or int8 on this GPU, or fp8 on L4, L40S, H100 or newer";
  } else if (f == "awq_int4" && peak(spec, "int8") <= 0) {
    s.refusal = "AWQ kernels need compute capability 7.5 (Turing) or newer; " + gpu() + " is older";
    s.way_out = "use gptq_int4 or fp16 on this GPU";
  } else {
    s.compute = sixteen;
    s.note = f + " on " + gpu() + " is weight-only: weights are stored in " + f +
             " and dequantized to " + sixteen + " for the matmuls";
  }
  if (w.trains() && w.task == WorkloadType::kQlora && s.refusal.empty()) s.compute = sixteen;
  return s;
}

namespace {
// How training shards its states over `gpus`: the recipe's sharding when they hold more than one
// copy's ranks (data-parallel copies), else none.
std::string sharding_of(const Workload& w, const Layout& layout, double gpus) {
  return std::max(gpus, layout.gpus_per_copy()) / layout.gpus_per_copy() > 1 ? w.recipe.sharding : "none";
}
}  // namespace

MemoryQuestion memory_question(const Workload& w, const Layout& layout, double gpus,
                               double capacity_bytes, const std::string& compute) {
  MemoryQuestion q;
  q.arch = *w.model.arch;
  q.mode = train_mode(w.task);
  q.weight_format = w.task == WorkloadType::kQlora && w.weight_format.size() >= 2 &&
                            (w.weight_format == "bf16" || w.weight_format == "fp16")
                        ? "nf4"
                        : w.weight_format;
  // The memory model's compute precisions: int8 matmuls keep 16-bit activations.
  q.compute = compute == "fp32" || compute == "fp16" || compute == "bf16" || compute == "fp8" ? compute : "fp16";
  q.kv_format = w.kv_format;
  q.engine = w.engine_key();
  q.explain = w.explain;
  q.tensor_parallel = layout.tensor_parallel;
  q.pipeline_parallel = layout.pipeline_parallel;
  q.gpus = std::max(gpus, layout.gpus_per_copy());
  q.gpu_memory_bytes = capacity_bytes;
  if (w.serving()) {
    q.batch = 1;
    q.sequence = w.demand.input_tokens;
    q.new_tokens = w.demand.output_tokens;
    q.max_model_len = w.demand.input_tokens + w.demand.output_tokens;
  } else {
    q.batch = w.recipe.micro_batch;
    q.sequence = w.recipe.sequence;
    q.optimizer = w.recipe.optimizer;
    q.master_weights = w.recipe.master_weights && w.task != WorkloadType::kLora && w.task != WorkloadType::kQlora;
    q.gradient_checkpointing = w.recipe.gradient_checkpointing;
    q.lora_rank = w.recipe.lora_rank;
    q.sharding = sharding_of(w, layout, gpus);
  }
  return q;
}

std::string memory_refusal(const MemoryQuestion& q, const MemoryEstimate& e, double capacity) {
  auto gib = [](double bytes) { return num(text::round_to(bytes / (1024.0 * 1024 * 1024), 3)); };
  if (e.total_bytes > capacity)
    return "does not fit: " + gib(e.total_bytes) + " GiB per GPU, the GPU has " + gib(capacity) + " GiB";
  if (e.kv_pool_tokens && q.mode == TrainMode::kInference && e.max_concurrent_sequences.value_or(0) < 1)
    return "does not fit: the KV cache left (" + gib(e.kv_pool_bytes.value_or(0)) + " GiB, " + num(*e.kv_pool_tokens) +
           " tokens) holds no whole " + num(q.sequence + q.new_tokens) +
           "-token sequence; use more GPUs per copy (tensor_parallel), an fp8 KV cache, a smaller weight format or a "
           "shorter context";
  return "";
}

double smallest_fitting_tp(const Catalog& catalog, MemoryQuestion q, const InstanceType& it) {
  q.gpu_memory_bytes = it.memory_per_gpu_bytes;
  q.gpu_name = gpu_name(it);
  q.explain = false;
  for (double tp = 1; tp <= it.gpus; tp *= 2) {
    if (!tp_refusal(q.arch, tp).empty()) continue;
    q.tensor_parallel = q.gpus = tp;
    q.gpus_linked = tensor_link(it, tp).kind == "domain";
    const MemoryAnswer a = estimate_memory(catalog.memory, q);
    if (a.estimate && memory_refusal(q, *a.estimate, it.memory_per_gpu_bytes).empty()) return tp;
  }
  return 0;
}

bool RoadMemo::MemoryKey::operator==(const MemoryKey& o) const {
  return tensor_parallel == o.tensor_parallel && pipeline_parallel == o.pipeline_parallel && gpus == o.gpus &&
         capacity_bytes == o.capacity_bytes && batch == o.batch && gpus_linked == o.gpus_linked && compute == o.compute &&
         gpu == o.gpu;
}

MemoryRequirement seed_requirement(const Catalog& catalog, const Workload& w) {
  const Precision* p = w.precision ? w.precision : catalog.precision("fp16");
  return memory_requirement(catalog, w.model, w.task, *p);
}

namespace {

// The whole model in its format (no parallel split) and its KV cache per token: what the
// throughput model splits over its ranks.
struct WholeModel {
  double weight_bytes = 0;
  double kv_bytes_per_token = 0;
};

std::optional<WholeModel> whole_model(const Catalog& catalog, const Workload& w, const std::string& compute) {
  const std::string key = w.weight_format + "/" + w.kv_format + "/" + compute;
  for (const auto& [k, cached] : w.memo.whole)
    if (k == key) return cached.first > 0 ? std::optional<WholeModel>(WholeModel{cached.first, cached.second}) : std::nullopt;
  MemoryQuestion q = memory_question(w, Layout{}, 1, 0, compute);
  q.mode = TrainMode::kLoadOnly;
  q.gpu_memory_bytes.reset();
  q.sharding = "none";
  const MemoryAnswer a = estimate_memory(catalog.memory, q);
  w.memo.whole.emplace_back(key, a.estimate ? std::make_pair(a.estimate->weights_bytes, a.estimate->kv_bytes_per_token)
                                                 : std::make_pair(0.0, 0.0));
  if (!a.estimate) return std::nullopt;
  return WholeModel{a.estimate->weights_bytes, a.estimate->kv_bytes_per_token};
}

ThroughputQuestion throughput_question(const Catalog& catalog, const Workload& w, const InstanceType& it,
                                       const WholeModel& whole, const std::string& compute, double tp) {
  ThroughputQuestion q;
  q.arch = *w.model.arch;
  q.params = count_parameters(q.arch);
  q.weight_bytes = whole.weight_bytes;
  q.kv_bytes_per_token = whole.kv_bytes_per_token;
  q.device = instance_device(catalog, it, tp);
  q.compute = compute;
  q.engine = w.engine_key();
  q.weight_format = w.weight_format;
  q.tensor_parallel = q.gpus = tp;
  q.input_tokens = w.demand.input_tokens;
  q.output_tokens = w.demand.output_tokens;
  q.sequence = w.recipe.sequence;
  q.full_recompute = w.recipe.gradient_checkpointing;
  q.explain = true;
  return q;
}

void refuse(Deployment& d, std::string why, std::string way_out) {
  d.refusal = std::move(why);
  d.way_out = std::move(way_out);
}

// The memory model's answer for the deployment's layout, GPUs, capacity and link at `batch`
// sequences (training: micro-batch), asked once per workload for each such setup: the question
// is made only then.
RoadMemo::MemoryKey memory_key(const Deployment& d, const std::string& compute, double batch) {
  const InstanceType& it = *d.instance;
  const bool linked = link_figures(it, d.layout.tensor_parallel).kind == "domain";
  return RoadMemo::MemoryKey{d.layout.tensor_parallel, d.layout.pipeline_parallel, d.gpus, it.memory_per_gpu_bytes,
                             batch, linked, compute, gpu_name(it)};
}

MemoryQuestion memory_question_of(const Workload& w, const Deployment& d, const RoadMemo::MemoryKey& key) {
  MemoryQuestion q = memory_question(w, d.layout, d.gpus, key.capacity_bytes, key.compute);
  q.gpus_linked = key.gpus_linked;
  q.gpu_name = key.gpu;
  q.batch = key.batch;
  return q;
}

const MemoryAnswer& memory_of(const Catalog& catalog, const Workload& w, const Deployment& d,
                              const std::string& compute, double batch) {
  RoadMemo::MemoryKey key = memory_key(d, compute, batch);
  for (const auto& [k, answer] : w.memo.memory)
    if (k == key) return answer;
  const MemoryQuestion q = memory_question_of(w, d, key);
  if (w.memo.memory.empty()) w.memo.memory.reserve(kSetupsKept);
  return w.memo.memory.emplace_back(std::move(key), estimate_memory(catalog.memory, q)).second;
}

// The sequences of the demand's length one copy holds within the workload's share of each GPU
// (model/sequences.hpp: the figure every question reports), once per setup.
double sequences_of(const Catalog& catalog, const Workload& w, const Deployment& d, const std::string& compute,
                    const MemoryEstimate& at_one) {
  RoadMemo::MemoryKey key = memory_key(d, compute, 1);
  for (const auto& [k, n] : w.memo.sequences)
    if (k == key) return n;
  const double n = sequences_that_fit(catalog.memory, memory_question_of(w, d, key), at_one,
                                      w.max_memory_share * d.instance->memory_per_gpu_bytes);
  return w.memo.sequences.emplace_back(std::move(key), n).second;
}

// The throughput model's setup for `it`'s device at the precision, tensor-parallel degree and
// pipeline stages (what throughput_question's answer varies by between candidates), its question
// made on first use and kept for the workload.
RoadMemo::InferenceSetup& inference_setup(const Catalog& catalog, const Workload& w, const InstanceType& it,
                                          const WholeModel& whole, const std::string& compute, double tp, double pp) {
  for (auto& s : w.memo.inference) {
    if (s.tensor_parallel == tp && s.pipeline_parallel == pp && s.compute == compute &&
        same_device(*s.instance, it, tp) &&
        (pp == 1 || (s.instance->network_gbit_per_s == it.network_gbit_per_s &&
                     s.instance->network_fabric == it.network_fabric)))
      return s;
  }
  ThroughputQuestion q = throughput_question(catalog, w, it, whole, compute, tp);
  q.device.memory_bytes *= pp;
  q.pipeline_parallel = pp;
  q.network_gbit_per_s = it.network_gbit_per_s.value_or(0);
  q.network_latency_us = it.network_fabric == "tcp" ? catalog.throughput.tcp_message_latency_us
                                                    : catalog.throughput.rdma_message_latency_us;
  if (w.memo.inference.empty()) w.memo.inference.reserve(kSetupsKept);
  return w.memo.inference.emplace_back(RoadMemo::InferenceSetup{&it, compute, tp, pp, std::move(q), {}, {}});
}

// Fills the memory of a deployment; false (with the refusal) when it does not fit.
bool size_memory(const Catalog& catalog, const Workload& w, const std::string& compute, Deployment& d) {
  const InstanceType& it = *d.instance;
  const double cap = it.memory_per_gpu_bytes;
  d.capacity_per_gpu_bytes = cap;
  const MemoryAnswer& a = memory_of(catalog, w, d, compute, w.serving() ? 1 : w.recipe.micro_batch);
  if (!a.estimate) {
    refuse(d, a.faults.empty() ? "the memory model cannot size this workload" : a.faults.front().second, "");
    return false;
  }
  d.memory = a.estimate;
  const MemoryEstimate& e = *d.memory;
  d.weights_per_gpu_bytes = e.weights_per_gpu_bytes;
  // Texts of the refusals only (a sweep sizes many layouts that fit).
  auto where = [&] { return num(d.layout.gpus_per_copy()) + " x " + it.gpu_type; };
  auto one = [&] { return device_name(it); };
  auto more = [&] {
    return "more " + one() + "s per model copy (tensor parallelism within " +
           (neuron(it) ? "one instance" : "an NVLink instance") + std::string(w.serving() ? ")" : ", data-parallel sharding)") +
           ", a smaller weight format, or " + one() + "s with more memory";
  };
  if (w.seed_memory) {
    const MemoryRequirement need = seed_requirement(catalog, w);
    const double ranks = w.serving() ? d.layout.gpus_per_copy() : d.gpus;
    const Fit fit = fit_on(it, ranks, need);
    d.memory_per_gpu_bytes = fit.per_gpu_bytes;
    if (!fit.fits) {
      refuse(d, "does not fit (rule of thumb): " + num(text::round_to(need.total_bytes / 1e9, 2)) +
                    " GB over " + num(ranks) + " " + one() + "(s) is " + gb(fit.per_gpu_bytes) + " per " + one() + ", " + it.gpu_type +
                    " has " + gb(cap), more());
      return false;
    }
    if (w.serving()) d.max_concurrency_by_kv = std::max(1.0, sequences_of(catalog, w, d, compute, e));
    d.memory.reset();  // the seed's figure is the deployment's memory: no architecture lines beside it
    return true;
  }
  if (w.serving()) {
    d.max_concurrency_by_kv = sequences_of(catalog, w, d, compute, e);
    if (e.kv_pool_tokens) {
      // A pool engine takes its share of the device; a copy needs what it holds for its sequences.
      const double per_seq =
          e.kv_bytes_per_sequence > 0
              ? e.kv_bytes_per_sequence
              : e.kv_bytes_per_token * (w.demand.input_tokens + w.demand.output_tokens);
      d.memory_per_gpu_bytes = e.total_bytes - *e.kv_pool_bytes;
      if (d.max_concurrency_by_kv < 1 && e.max_concurrent_sequences.value_or(0) >= 1) {
        refuse(d, "less than " + num(std::round(100 * (1 - w.max_memory_share))) + " % memory headroom per " + one() + " even at one sequence",
               more());
        return false;
      }
      if (d.max_concurrency_by_kv < 1) {
        refuse(d, "does not fit: the KV cache left on " + where() + " (" + gb(*e.kv_pool_bytes) +
                      ") holds no whole " + num(w.demand.input_tokens + w.demand.output_tokens) +
                      "-token sequence (" + gb(per_seq) + ")", more());
        return false;
      }
      return true;
    }
    const auto engine = catalog.memory.engines.find(w.engine_key());
    if (!e.kv_pool_bytes && engine != catalog.memory.engines.end() &&
        engine->second.kv_policy == "pool") {
      refuse(d, "does not fit: " + where() + " (" + gb(cap) + " each) cannot hold the weights (" +
                    gb(e.weights_per_gpu_bytes) + " per " + one() + ") and the engine's activations with room for a KV cache",
             more());
      return false;
    }
    // Engines that grow the cache with the batch: sequences until the device is full.
    d.memory_per_gpu_bytes = e.total_bytes;
    if (e.total_bytes > cap) {
      refuse(d, "does not fit: one sequence needs " + gb(e.total_bytes) + " per " + one() + " on " + where() + ", " +
                    it.gpu_type + " has " + gb(cap), more());
      return false;
    }
    d.max_concurrency_by_kv = std::max(1.0, d.max_concurrency_by_kv);
    return true;
  }
  d.memory_per_gpu_bytes = e.total_bytes;
  if (e.total_bytes > cap) {
    refuse(d, "does not fit: training needs " + gb(e.total_bytes) + " per " + one() + " over " + num(d.gpus) + " x " +
                  it.gpu_type + " (" + gb(cap) + " each; weights, gradients and optimizer states " +
                  (sharding_of(w, d.layout, d.gpus) == "none"
                       ? "not sharded"
                       : "sharded over " + num(d.gpus / d.layout.gpus_per_copy()) + " " + one() + "s") + ")",
           "more " + one() + "s to shard over, LoRA or QLoRA instead of full fine-tuning, or " + one() + "s with more memory");
    return false;
  }
  return true;
}

// Serving: the largest concurrency that fits and meets the latency targets, the copies the demand
// needs, and the queueing its p95 time to first token pays.
void size_serving(const Catalog& catalog, const Workload& w, const Billing& billing, const WholeModel& whole,
                  const std::string& compute, std::optional<double> fixed_copies, Deployment& d) {
  const InstanceType& it = *d.instance;
  const Demand& dm = w.demand;
  RoadMemo::InferenceSetup& setup =
      inference_setup(catalog, w, it, whole, compute, d.layout.tensor_parallel, d.layout.pipeline_parallel);
  ThroughputQuestion& q = setup.question;
  bool explain = false;
  const double pp = d.layout.pipeline_parallel;
  // A reference into the memo: valid until the next run.
  auto run = [&](double batch) -> const InferenceEstimate& {
    std::vector<InferenceEstimate>& known = explain ? setup.explained : setup.figures;
    // Pipeline stages: the copy's sequences go through in pp micro-batches, one per stage, and a
    // sequence's token takes a round of every stage: the full model's step at the micro-batch.
    if (pp > 1) batch = std::max(1.0, std::ceil(batch / pp));
    for (const auto& e : known)
      if (e.batch == batch) return e;
    q.batch = batch;
    q.explain = explain;
    return known.emplace_back(estimate_inference(catalog.throughput, q));
  };
  auto meets = [&](const InferenceEstimate& e) {
    return (!dm.max_ttft_ms || e.ttft_ms <= *dm.max_ttft_ms) && (!dm.max_tpot_ms || e.tpot_ms <= *dm.max_tpot_ms);
  };
  const double cap = std::max(1.0, std::min(d.max_concurrency_by_kv, serving_max_batch(catalog.throughput, q.engine)));
  if (const InferenceEstimate& one = run(1); !meets(one)) {
    refuse(d, "misses the latency target even at one sequence: time to first token " +
                  num(text::round_to(one.ttft_ms, 1)) + " ms, time per output token " +
                  num(text::round_to(one.tpot_ms, 2)) + " ms",
           "more tensor parallelism, a faster GPU or a smaller weight format");
    d.inference = one;
    return;
  }
  double lo = 1, hi = cap + 1;
  if (meets(run(cap))) lo = cap;
  while (hi - lo > 1) {
    const double mid = std::floor((lo + hi) / 2);
    (meets(run(mid)) ? lo : hi) = mid;
  }
  d.concurrency = lo;
  // A pool engine reserves its share of the device; the copy holds its sequences' KV cache of it.
  // Its lines say the same: the KV line is what the sequences hold, of the pool.
  if (d.memory && d.memory->kv_pool_bytes) {
    const double held =
        lo * (d.memory->kv_bytes_per_sequence > 0
                  ? d.memory->kv_bytes_per_sequence
                  : d.memory->kv_bytes_per_token * (dm.input_tokens + dm.output_tokens));
    d.memory_per_gpu_bytes += held;
    for (auto& l : d.memory->lines) {
      if (l.key != "kv_cache" || held >= l.bytes) continue;
      l.basis = num(lo) + " sequences at " + num(dm.input_tokens + dm.output_tokens) + " tokens hold " + gb(held) +
                " of the pool: " + l.basis;
      l.bytes = held;
    }
  }
  explain = w.explain;
  d.inference = run(lo);
  const InferenceEstimate& e = *d.inference;
  // The copy's capacity at its concurrency: its sequences, a token each per TPOT (Little's law;
  // with pipeline stages, pp micro-batches in flight at once).
  const double copy_tps = e.tpot_ms > 0 ? d.concurrency * 1e3 / e.tpot_ms : 0;
  const double copy_rps = copy_tps / dm.output_tokens;
  double copies = copies_per_instance(it, d.layout);
  std::optional<double> demand_rps;
  if (dm.requests_per_s) demand_rps = *dm.requests_per_s;
  if (dm.tokens_per_month && billing.hours_per_month > 0)
    demand_rps = *dm.tokens_per_month / (billing.hours_per_month * 3600) / dm.output_tokens;
  else if (w.task == WorkloadType::kBatchInference && dm.dataset_tokens && dm.deadline_days)
    demand_rps = *dm.dataset_tokens / (*dm.deadline_days * 86400) / dm.output_tokens;  // the job within its deadline
  d.p95_ttft_ms = e.ttft_ms;
  if (fixed_copies) {
    copies = *fixed_copies;
  } else if (demand_rps) {
    const double target = dm.requests_per_s ? dm.target_utilization : 1.0;
    // Decode slots and the prefill that feeds them both stay under the target utilization.
    const double prefill_rps = e.first_token.seconds > 0 ? 1 / e.first_token.seconds : copy_rps;
    d.sized_for_demand = true;
    d.demand_rps = *demand_rps;
    d.copy_rps = std::min(copy_rps, prefill_rps * pp) * target;
    copies = copies_for(d.demand_rps, d.copy_rps);
  }
  if (demand_rps && dm.requests_per_s) {
    // Queueing at the demanded rate: a request waits for a free sequence slot (Erlang C, c =
    // concurrency slots per copy) and behind the prompts prefilled before it (M/D/1): the 95th
    // percentile of their sum (model/queueing.hpp).
    for (int step = 0; step < 256; ++step) {
      const QueueDelay delay = queue_delay(*demand_rps / copies, d.concurrency, d.concurrency / copy_rps,
                                           e.first_token.seconds / pp);
      d.queue_wait_ms = delay.p95_wait_s * 1e3;
      d.p95_ttft_ms = e.ttft_ms + d.queue_wait_ms;
      const bool saturated = delay.p95_wait_s >= 1e8;  // the queue grows without bound
      if (fixed_copies || (!saturated && (!dm.max_ttft_ms || d.p95_ttft_ms <= *dm.max_ttft_ms))) break;
      copies += 1;
    }
  }
  if (d.sized_for_demand) d.copies_beyond_demand = copies - copies_for(d.demand_rps, d.copy_rps);
  d.layout.replicas = copies;
  d.gpus = copies * d.layout.gpus_per_copy();
  d.instance_count = instances_for(it, d.layout, copies);
  d.output_tokens_per_s = copy_tps * copies;
  d.bound = e.limit;
  // A batch job of a dataset runs until its tokens are out: its hours, not a month's.
  if (w.task == WorkloadType::kBatchInference && dm.dataset_tokens && !dm.tokens_per_month && d.output_tokens_per_s > 0)
    d.run_hours = *dm.dataset_tokens / d.output_tokens_per_s / 3600;
  if (demand_rps) {
    d.utilization = *demand_rps * dm.output_tokens / d.output_tokens_per_s;
    if (d.utilization > 1 + 1e-9)
      d.notes.push_back("serves " + num(text::round_to(d.output_tokens_per_s / dm.output_tokens, 2)) +
                        " requests/s, below the demand of " + num(*demand_rps) + ": needs " +
                        num(std::ceil(*demand_rps / copy_rps / dm.target_utilization)) + " model copies");
    if (d.queue_wait_ms >= 1e11)
      d.notes.push_back("requests arrive faster than the copies prefill them: the queue grows without bound");
    else if (dm.max_ttft_ms && d.p95_ttft_ms > *dm.max_ttft_ms)
      d.notes.push_back("p95 time to first token " + num(text::round_to(d.p95_ttft_ms, 0)) +
                        " ms is above the target of " + num(*dm.max_ttft_ms) + " ms at this rate");
  }
}

void size_training(const Catalog& catalog, const Workload& w, const WholeModel& whole,
                   const std::string& compute, Deployment& d) {
  const InstanceType& it = *d.instance;
  // The workload's question on this device, at this layout's GPUs and tokens.
  ThroughputQuestion& q = inference_setup(catalog, w, it, whole, compute, d.layout.tensor_parallel, 1).question;
  q.gpus = d.gpus;
  q.explain = true;
  const Demand& dm = w.demand;
  if (dm.dataset_tokens) q.dataset_tokens = *dm.dataset_tokens * dm.epochs;
  TrainingEstimate t = estimate_training(catalog.throughput, q);
  // Adapters train a fraction of the weights: the forward and the backward through the frozen
  // base remain (about 4 of the 6 FLOPs per parameter per token, Hu et al. 2021's LoRA setup).
  const double scale = (d.instance_count > 1 ? it.interconnect_multiplier : 1.0) *
                       (w.task == WorkloadType::kLora || w.task == WorkloadType::kQlora ? 6.0 / 4.0 : 1.0);
  t.tokens_per_s *= scale;
  t.tokens_per_s_per_gpu *= scale;
  d.output_tokens_per_s = t.tokens_per_s;
  d.bound = "compute";
  if (dm.dataset_tokens && t.tokens_per_s > 0) {
    d.run_hours = *dm.dataset_tokens * dm.epochs / t.tokens_per_s / 3600;
    t.seconds = *d.run_hours * 3600;
    t.gpu_hours = *d.run_hours * d.gpus;
  }
  d.training = std::move(t);
  if (d.run_hours && dm.deadline_days && *d.run_hours > *dm.deadline_days * 24) {
    refuse(d, "misses the deadline: " + num(text::round_to(*d.run_hours / 24, 2)) + " days on " +
                  num(d.gpus) + " x " + it.gpu_type + ", the deadline is " + num(*dm.deadline_days) + " days",
           "more instances, or faster GPUs");
  }
}

// Sizes a laid-out deployment on the road, as far as it goes: a refusal, or no figures to
// estimate its speed with, stops it.
void size_layout(const Catalog& catalog, const Workload& w, const Billing& billing, const FormatSupport& fmt,
                 std::optional<double> copies, Deployment& d) {
  const InstanceType& it = *d.instance;
  const double tp = d.layout.tensor_parallel, pp = d.layout.pipeline_parallel;
  if (it.accelerator_kind == "cpu") {
    refuse(d, it.name + " has no accelerator: the catalog gives no throughput figures for CPU inference or training of a transformer",
           "a GPU, Inferentia or Trainium instance");
    return;
  }
  if (it.accelerator_kind == "inferentia" && w.trains()) {
    refuse(d, "Inferentia serves inference only", "Trainium or a GPU instance");
    return;
  }
  if (!w.model.arch) {
    refuse(d, "the model has no architecture to size (the catalog names no generic shape)", "name a model of model_config.json");
    return;
  }
  if (std::string why = served_model_type_refusal(catalog, w, it); !why.empty()) {
    refuse(d, why, "a GPU instance, or the model ported to the stack (its model onboarding guide)");
    return;
  }
  d.uncalibrated = neuron(it);
  if (d.uncalibrated)
    d.notes.push_back(it.gpu_type + ": datasheet peaks with the GPU efficiency factors, not calibrated on Neuron measurements");
  if (!fmt.refusal.empty()) {
    refuse(d, fmt.refusal, fmt.way_out);
    return;
  }
  if (!fmt.note.empty()) d.notes.push_back(fmt.note);
  d.compute_precision = fmt.compute;
  if (it.gpu_fraction < 1 && tp * pp > 1) {
    refuse(d, it.name + " is a fraction of one " + it.gpu_type + ": a partition cannot join tensor or pipeline parallelism",
           "a whole-GPU instance");
    return;
  }
  if (tp > it.gpus) {
    refuse(d, "tensor parallelism " + num(tp) + " spans more than the " + num(it.gpus) + " " + device_name(it) + "(s) of one " + it.name +
                  ": it stays inside one instance's " + it.interconnect_type + " domain",
           "tensor parallelism up to " + num(it.gpus) + ", pipeline stages across instances");
    return;
  }
  if (w.trains() && d.instance_count > 1 && !spans_instances(it)) {
    refuse(d,
           "one model copy spans " + num(d.instance_count) + " x " + it.name +
               ": only NVSwitch-class families with a fast fabric are modelled across instances",
           "an 8-GPU NVSwitch instance (p4d, p5, a3, ND) or more memory per GPU");
    return;
  }
  if (pp > 1) {
    if (std::string why = pipeline_refusal(it); !why.empty()) {
      refuse(d, "one model copy spans " + num(pp) + " x " + it.name + ": " + why,
             "an instance type whose network the catalog gives (g5, g6, g6e or p5.48xlarge, ...), "
             "or more memory per GPU");
      return;
    }
  }
  if (std::string why = tp_refusal(*w.model.arch, tp); !why.empty()) {
    refuse(d, why, kTpWayOut);
    return;
  }
  const auto whole = whole_model(catalog, w, fmt.compute);
  // Pruned before the memory model: the weights alone exceed the ranks' memory.
  const double ranks = w.trains() ? d.gpus : tp * pp;  // training shards the weights over every GPU
  if (whole && !w.seed_memory && whole->weight_bytes / ranks > it.memory_per_gpu_bytes) {
    // The refusal names the weights; the figures are still the memory model's, as every question reports them.
    const MemoryAnswer& a = memory_of(catalog, w, d, fmt.compute, w.serving() ? 1 : w.recipe.micro_batch);
    d.weights_per_gpu_bytes = whole->weight_bytes / ranks;
    if (a.estimate) d.memory = a.estimate;
    d.memory_per_gpu_bytes = a.estimate ? a.estimate->total_bytes : d.weights_per_gpu_bytes;
    refuse(d, "does not fit: the weights alone are " + gb(d.weights_per_gpu_bytes) + " per " + device_name(it) + " over " + num(ranks) +
                  " x " + it.gpu_type + " (" + gb(it.memory_per_gpu_bytes) + " each)",
           "more " + device_name(it) + "s per model copy, a smaller weight format, or " + device_name(it) + "s with more memory");
    return;
  }
  if (!size_memory(catalog, w, fmt.compute, d)) return;
  const GpuSpec* spec = catalog.gpu(it.gpu_model);
  if (!whole || !spec || !spec->memory_bandwidth_gb_per_s || spec->tflops.empty() || !catalog.throughput.present) {
    d.notes.push_back("no speed estimate: the catalog has no bandwidth or TFLOPS for " + it.gpu_type);
    if (w.serving()) d.concurrency = std::min(1.0, d.max_concurrency_by_kv);
    return;
  }
  if (w.serving()) {
    size_serving(catalog, w, billing, *whole, fmt.compute, copies, d);
  } else {
    size_training(catalog, w, *whole, fmt.compute, d);
  }
}

// `fmt`: format_support of the workload on `it` (the same for every layout of it).
Deployment deploy_layout(const Catalog& catalog, const Workload& w, const Billing& billing, const InstanceType& it,
                         const FormatSupport& fmt, double tp, double pp, std::optional<double> copies) {
  Deployment d;
  d.instance = &it;
  d.layout.tensor_parallel = tp;
  d.layout.pipeline_parallel = pp;
  d.layout.replicas = copies.value_or(1);
  d.gpus = d.layout.gpus_per_copy() * d.layout.replicas;
  d.instance_count = static_cast<int>(std::ceil(d.gpus / std::max(1.0, it.gpus) - 1e-9));
  d.capacity_per_gpu_bytes = it.memory_per_gpu_bytes;
  size_layout(catalog, w, billing, fmt, copies, d);
  price(catalog, billing, w.explain, d);
  per_token_and_run_costs(catalog, w, d);
  return d;
}

bool cheaper(const Workload& w, const Deployment& a, const Deployment& b) {
  auto key = [&](const Deployment& d) {
    if (d.usd_per_run) return *d.usd_per_run;  // a job: what the run costs
    if (w.serving() && !w.demand.requests_per_s && !w.demand.tokens_per_month && d.usd_per_million_output_tokens)
      return *d.usd_per_million_output_tokens;
    return d.cost.usd_per_month.value_or(1e300);
  };
  const double ka = key(a), kb = key(b);
  if (ka != kb) return ka < kb;
  return a.gpus < b.gpus;
}

}  // namespace

void per_token_and_run_costs(const Catalog& catalog, const Workload& w, Deployment& d) {
  if (!d.cost.usd_per_hour || !d.runs()) return;
  if (w.serving() && d.output_tokens_per_s > 0) {
    const double served = d.utilization > 0 ? std::min(1.0, d.utilization) * d.output_tokens_per_s : d.output_tokens_per_s;
    d.usd_per_million_output_tokens = *d.cost.usd_per_hour / (served * 3600) * 1e6;
  }
  if (d.run_hours) {
    // Billed per second after the provider's minimum (a job shorter than it pays the minimum).
    const ProviderTerms* terms = catalog.provider(d.instance->provider);
    const double minimum_h = terms ? terms->minimum_billing_seconds / 3600 : 0;
    d.usd_per_run = std::max(*d.run_hours, minimum_h) * *d.cost.usd_per_hour;
  }
}

double copies_for(double demand_rps, double copy_rps) {
  return std::max(1.0, std::ceil(demand_rps / copy_rps - 1e-9));
}

double copies_per_instance(const InstanceType& it, const Layout& layout) {
  return layout.pipeline_parallel > 1 ? 1 : std::max(1.0, std::floor(it.gpus / layout.tensor_parallel));
}

int instances_for(const InstanceType& it, const Layout& layout, double copies) {
  const double pp = layout.pipeline_parallel;
  return static_cast<int>(pp > 1 ? pp * copies : std::ceil(copies / copies_per_instance(it, layout) - 1e-9));
}

void price(const Catalog& catalog, const Billing& billing, bool explain, Deployment& d) {
  const InstanceType& it = *d.instance;
  d.cost = cost_of(catalog, Placement{&it, d.gpus, std::max(1, d.instance_count), it.name, false, ""}, billing, false, explain);
}

Deployment deploy(const Catalog& catalog, const Workload& w, const Billing& billing, const InstanceType& it,
                  const Layout& layout, int count) {
  const std::optional<double> copies =
      w.trains() ? std::optional<double>(layout.replicas)
                 : count > 0 ? std::optional<double>(layout.replicas) : std::nullopt;
  return deploy_layout(catalog, w, billing, it, format_support(catalog, w, it), layout.tensor_parallel,
                       layout.pipeline_parallel, copies);
}

Deployment deploy_on_gpus(const Catalog& catalog, const Workload& w, const Billing& billing,
                          const InstanceType& it, double gpus) {
  const FormatSupport fmt = format_support(catalog, w, it);
  std::optional<Deployment> best, refused;
  auto consider = [&](double tp, double pp) {
    const double copies = gpus / (tp * pp);
    if (copies < 1 || std::fabs(copies - std::round(copies)) > 1e-9) return;
    Deployment d = deploy_layout(catalog, w, billing, it, fmt, tp, pp, std::round(copies));
    if (!d.runs()) {
      if (!refused || tp * pp >= refused->layout.gpus_per_copy()) refused = std::move(d);
    } else if (!best || (w.serving() ? d.output_tokens_per_s > best->output_tokens_per_s
                                     : d.output_tokens_per_s > best->output_tokens_per_s)) {
      best = std::move(d);
    }
  };
  const double per_instance = std::max(1.0, it.gpus);
  for (double tp = 1; tp <= std::min(gpus, per_instance); tp *= 2) consider(tp, 1);
  if (gpus <= per_instance && std::fmod(std::log2(gpus), 1) != 0) consider(gpus, 1);
  if (gpus > per_instance && w.serving()) consider(per_instance, std::round(gpus / per_instance));
  if (best) return std::move(*best);
  if (refused) return std::move(*refused);
  Deployment d = deploy_layout(catalog, w, billing, it, fmt, gpus, 1, 1);
  return d;
}

void refuse_without_speed(Deployment& d) {
  if (!d.runs() || d.inference || d.training) return;
  d.refusal = d.notes.empty() ? "no speed estimate" : d.notes.back();
  d.way_out = "add the GPU's bandwidth and TFLOPS to gpu_instances.json, or choose another instance type";
}

Deployment best_on(const Catalog& catalog, const Workload& w, const Billing& billing, const InstanceType& it) {
  const FormatSupport fmt = format_support(catalog, w, it);
  std::optional<Deployment> best, refused;
  auto keep = [&](Deployment d) {
    if (!d.runs()) {
      // Keep the refusal closest to running: the least memory per GPU short of the capacity.
      const double need = d.memory_per_gpu_bytes > 0 ? d.memory_per_gpu_bytes : 1e300;
      const double kept = refused && refused->memory_per_gpu_bytes > 0 ? refused->memory_per_gpu_bytes : 1e300;
      if (!refused || need <= kept) refused = std::move(d);
      return false;
    }
    if (!best || cheaper(w, d, *best)) best = std::move(d);
    return true;
  };
  const double per_instance = std::max(1.0, it.gpus);
  if (w.serving()) {
    bool any = false;
    for (double tp = 1; tp <= per_instance; tp *= 2) any = keep(deploy_layout(catalog, w, billing, it, fmt, tp, 1, std::nullopt)) || any;
    // Stages of whole multi-GPU instances, each a tensor-parallel group (fit takes any instance).
    if (!any && it.gpus >= 2 && it.gpu_fraction == 1 && pipeline_refusal(it).empty() &&
        (!refused || refused->refusal.rfind("does not fit", 0) == 0)) {
      for (double pp = 2; pp <= 8 && !any; pp *= 2)
        any = keep(deploy_layout(catalog, w, billing, it, fmt, per_instance, pp, std::nullopt));
    }
  } else {
    const int most = spans_instances(it) ? kMaxInstances : 1;
    for (int n = 1; n <= most && !best; n *= 2) {
      for (double tp = 1; tp <= per_instance; tp *= 2)
        keep(deploy_layout(catalog, w, billing, it, fmt, tp, 1, n * per_instance / tp));
      // A refusal no count of instances lifts ends the search.
      if (!best && refused && refused->refusal.rfind("does not fit", 0) != 0 &&
          refused->refusal.rfind("misses the deadline", 0) != 0)
        break;
    }
  }
  if (best) return std::move(*best);
  return std::move(*refused);
}

ModelSpec size_class_model(const Catalog& catalog, const ModelSize& size) {
  ModelSpec spec;
  spec.size = size.key;
  spec.parameters = size.parameter_count_billion * 1e9;
  spec.training_overhead_multiplier = size.memory_overhead_multiplier;
  spec.label = size.key + " (" + num(size.parameter_count_billion) + "B)";
  spec.arch = generic_decoder(catalog, spec.parameters, spec.shape_basis);
  return spec;
}

std::optional<Architecture> generic_decoder(const Catalog& catalog, double parameters, std::string& basis) {
  const NamedModel* nearest = nullptr;
  double distance = 0;
  for (const std::string& key : catalog.generic_shapes) {
    const NamedModel* m = catalog.model(key);
    if (!m || m->params.total <= 0) continue;
    const double d = std::fabs(std::log(parameters / m->params.total));
    if (!nearest || d < distance) {
      nearest = m;
      distance = d;
    }
  }
  if (!nearest || parameters <= 0) return std::nullopt;
  Architecture a = nearest->arch;
  const ParameterCount p = nearest->params;
  const double per_layer = (p.total - p.embedding - p.lm_head) / std::max(1.0, a.layers);
  a.layers = std::max(1.0, std::round((parameters - p.embedding - p.lm_head) / per_layer));
  a.model_type = "llama";
  basis = "a generic dense decoder of " + num(text::round_to(parameters / 1e9, 3)) + " B parameters: " +
          nearest->name + "'s width (" + num(a.hidden) + "), heads (" + num(a.heads) + ", " + num(a.kv_heads) +
          " KV heads) and vocabulary, " + num(a.layers) + " layers to reach the size (" +
          catalog.generic_shapes_source + ")";
  return a;
}

}  // namespace gpufleet
