#include <algorithm>
#include <cmath>

#include "fleet/road_parts.hpp"
#include "model/sequences.hpp"

namespace gpufleet {
using namespace road_parts;

namespace {
// How training shards its states over `gpus`: the recipe's sharding when they hold more than one
// copy's ranks (data-parallel copies), else none.
std::string sharding_of(const Workload& w, const Layout& layout, double gpus) {
  return std::max(gpus, layout.gpus_per_copy()) / layout.gpus_per_copy() > 1 ? w.recipe.sharding
                                                                             : "none";
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
  q.compute = compute == "fp32" || compute == "fp16" || compute == "bf16" || compute == "fp8"
                  ? compute
                  : "fp16";
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
    q.master_weights =
        w.recipe.master_weights && w.task != WorkloadType::kLora && w.task != WorkloadType::kQlora;
    q.gradient_checkpointing = w.recipe.gradient_checkpointing;
    q.lora_rank = w.recipe.lora_rank;
    q.sharding = sharding_of(w, layout, gpus);
  }
  return q;
}

std::string memory_refusal(const MemoryQuestion& q, const MemoryEstimate& e, double capacity) {
  auto gib = [](double bytes) { return num(text::round_to(bytes / (1024.0 * 1024 * 1024), 3)); };
  if (e.total_bytes > capacity)
    return "does not fit: " + gib(e.total_bytes) + " GiB per GPU, the GPU has " + gib(capacity) +
           " GiB";
  if (e.kv_pool_tokens && q.mode == TrainMode::kInference &&
      e.max_concurrent_sequences.value_or(0) < 1)
    return "does not fit: the KV cache left (" + gib(e.kv_pool_bytes.value_or(0)) + " GiB, " +
           num(*e.kv_pool_tokens) + " tokens) holds no whole " + num(q.sequence + q.new_tokens) +
           "-token sequence; use more GPUs per copy (tensor_parallel), an fp8 KV cache, a smaller "
           "weight format or a "
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
  return tensor_parallel == o.tensor_parallel && pipeline_parallel == o.pipeline_parallel &&
         gpus == o.gpus && capacity_bytes == o.capacity_bytes && batch == o.batch &&
         gpus_linked == o.gpus_linked && compute == o.compute && gpu == o.gpu;
}

MemoryRequirement seed_requirement(const Catalog& catalog, const Workload& w) {
  const Precision* p = w.precision ? w.precision : catalog.precision("fp16");
  return memory_requirement(catalog, w.model, w.task, *p);
}

namespace road_parts {

std::optional<WholeModel> whole_model(const Catalog& catalog, const Workload& w,
                                      const std::string& compute) {
  const std::string key = w.weight_format + "/" + w.kv_format + "/" + compute;
  for (const auto& [k, cached] : w.memo.whole)
    if (k == key)
      return cached.first > 0 ? std::optional<WholeModel>(WholeModel{cached.first, cached.second})
                              : std::nullopt;
  MemoryQuestion q = memory_question(w, Layout{}, 1, 0, compute);
  q.mode = TrainMode::kLoadOnly;
  q.gpu_memory_bytes.reset();
  q.sharding = "none";
  const MemoryAnswer a = estimate_memory(catalog.memory, q);
  w.memo.whole.emplace_back(
      key, a.estimate ? std::make_pair(a.estimate->weights_bytes, a.estimate->kv_bytes_per_token)
                      : std::make_pair(0.0, 0.0));
  if (!a.estimate) return std::nullopt;
  return WholeModel{a.estimate->weights_bytes, a.estimate->kv_bytes_per_token};
}

// The memory model's answer for the deployment's layout, GPUs, capacity and link at `batch`
// sequences (training: micro-batch), asked once per workload for each such setup: the question
// is made only then.
RoadMemo::MemoryKey memory_key(const Deployment& d, const std::string& compute, double batch) {
  const InstanceType& it = *d.instance;
  const bool linked = link_figures(it, d.layout.tensor_parallel).kind == "domain";
  return RoadMemo::MemoryKey{d.layout.tensor_parallel,
                             d.layout.pipeline_parallel,
                             d.gpus,
                             it.memory_per_gpu_bytes,
                             batch,
                             linked,
                             compute,
                             gpu_name(it)};
}

MemoryQuestion memory_question_of(const Workload& w, const Deployment& d,
                                  const RoadMemo::MemoryKey& key) {
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
double sequences_of(const Catalog& catalog, const Workload& w, const Deployment& d,
                    const std::string& compute, const MemoryEstimate& at_one) {
  RoadMemo::MemoryKey key = memory_key(d, compute, 1);
  for (const auto& [k, n] : w.memo.sequences)
    if (k == key) return n;
  const double n = sequences_that_fit(catalog.memory, memory_question_of(w, d, key), at_one,
                                      w.max_memory_share * d.instance->memory_per_gpu_bytes);
  return w.memo.sequences.emplace_back(std::move(key), n).second;
}

// Fills the memory of a deployment; false (with the refusal) when it does not fit.
bool size_memory(const Catalog& catalog, const Workload& w, const std::string& compute,
                 Deployment& d) {
  const InstanceType& it = *d.instance;
  const double cap = it.memory_per_gpu_bytes;
  d.capacity_per_gpu_bytes = cap;
  const MemoryAnswer& a = memory_of(catalog, w, d, compute, w.serving() ? 1 : w.recipe.micro_batch);
  if (!a.estimate) {
    refuse(
        d,
        a.faults.empty() ? "the memory model cannot size this workload" : a.faults.front().second,
        "");
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
           (neuron(it) ? "one instance" : "an NVLink instance") +
           std::string(w.serving() ? ")" : ", data-parallel sharding)") +
           ", a smaller weight format, or " + one() + "s with more memory";
  };
  if (w.seed_memory) {
    const MemoryRequirement need = seed_requirement(catalog, w);
    const double ranks = w.serving() ? d.layout.gpus_per_copy() : d.gpus;
    const Fit fit = fit_on(it, ranks, need);
    d.memory_per_gpu_bytes = fit.per_gpu_bytes;
    if (!fit.fits) {
      refuse(d,
             "does not fit (rule of thumb): " + num(text::round_to(need.total_bytes / 1e9, 2)) +
                 " GB over " + num(ranks) + " " + one() + "(s) is " + gb(fit.per_gpu_bytes) +
                 " per " + one() + ", " + it.gpu_type + " has " + gb(cap),
             more());
      return false;
    }
    if (w.serving())
      d.max_concurrency_by_kv = std::max(1.0, sequences_of(catalog, w, d, compute, e));
    d.memory
        .reset();  // the seed's figure is the deployment's memory: no architecture lines beside it
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
        refuse(d,
               "less than " + num(std::round(100 * (1 - w.max_memory_share))) +
                   " % memory headroom per " + one() + " even at one sequence",
               more());
        return false;
      }
      if (d.max_concurrency_by_kv < 1) {
        refuse(d,
               "does not fit: the KV cache left on " + where() + " (" + gb(*e.kv_pool_bytes) +
                   ") holds no whole " + num(w.demand.input_tokens + w.demand.output_tokens) +
                   "-token sequence (" + gb(per_seq) + ")",
               more());
        return false;
      }
      return true;
    }
    const auto engine = catalog.memory.engines.find(w.engine_key());
    if (!e.kv_pool_bytes && engine != catalog.memory.engines.end() &&
        engine->second.kv_policy == "pool") {
      refuse(d,
             "does not fit: " + where() + " (" + gb(cap) + " each) cannot hold the weights (" +
                 gb(e.weights_per_gpu_bytes) + " per " + one() +
                 ") and the engine's activations with room for a KV cache",
             more());
      return false;
    }
    // Engines that grow the cache with the batch: sequences until the device is full.
    d.memory_per_gpu_bytes = e.total_bytes;
    if (e.total_bytes > cap) {
      refuse(d,
             "does not fit: one sequence needs " + gb(e.total_bytes) + " per " + one() + " on " +
                 where() + ", " + it.gpu_type + " has " + gb(cap),
             more());
      return false;
    }
    d.max_concurrency_by_kv = std::max(1.0, d.max_concurrency_by_kv);
    return true;
  }
  d.memory_per_gpu_bytes = e.total_bytes;
  if (e.total_bytes > cap) {
    refuse(
        d,
        "does not fit: training needs " + gb(e.total_bytes) + " per " + one() + " over " +
            num(d.gpus) + " x " + it.gpu_type + " (" + gb(cap) +
            " each; weights, gradients and optimizer states " +
            (sharding_of(w, d.layout, d.gpus) == "none"
                 ? "not sharded"
                 : "sharded over " + num(d.gpus / d.layout.gpus_per_copy()) + " " + one() + "s") +
            ")",
        "more " + one() + "s to shard over, LoRA or QLoRA instead of full fine-tuning, or " +
            one() + "s with more memory");
    return false;
  }
  return true;
}

}  // namespace road_parts
}  // namespace gpufleet
