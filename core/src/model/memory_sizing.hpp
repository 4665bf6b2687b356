#pragma once
// The memory model's working parts, shared by the files that compute them: memory_weights.cpp
// (weights and training states), memory_activations.cpp (KV cache, activations, logits) and
// memory_pool.cpp (paged states, runtime, the serving engines' KV pools). estimate_memory
// (memory_model.cpp) runs them in order. Internal to the model layer.

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "model/memory_model.hpp"
#include "support/text.hpp"

namespace gpufleet::memory_parts {

inline constexpr double kMiB = 1024.0 * 1024.0;

inline std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

inline std::string num(double x) { return text::short_number(x); }
inline std::string gib(double bytes) {
  return text::short_number(std::round(bytes / (1024.0 * 1024 * 1024) * 100) / 100) + " GiB";
}

// The CUDA context and the libraries' kernels: PyTorch by module loading, other runtimes their own.
inline double context_bytes(const MemoryConstants& k, const EngineProfile& eng,
                            const MemoryQuestion& q) {
  if (eng.pytorch)
    return (q.cuda_eager_loading ? k.cuda_context_eager_mib : k.cuda_context_lazy_mib) * kMiB;
  return (q.cuda_eager_loading ? eng.eager_context_mib : eng.context_mib) * kMiB;
}

inline bool is_training(TrainMode m) {
  return m == TrainMode::kFullFinetune || m == TrainMode::kLora || m == TrainMode::kQlora ||
         m == TrainMode::kPretraining;
}

// Whether attention runs without a score matrix, and why (memory_model.cpp).
bool fused_attention(const MemoryQuestion& q, const EngineProfile& eng, const std::string& compute,
                     std::string& why);

// Which linear layers' inputs a training step keeps for backward. PyTorch's autograd saves a
// matmul's input only for its weight's gradient (tools/autograd/gen_variable_type.py guard_for:
// a tensor one derivative alone reads is saved when that input requires grad), so a frozen layer
// keeps none: under LoRA only the inputs an adapter reads itself are kept, and the norms' frozen
// weights keep no normed input.
struct LinearInputs {
  bool attention_in = true;   // q, k, v
  bool attention_out = true;  // the output projection
  bool mlp_in = true;         // gate and up, or the first projection
  bool mlp_out = true;        // the down (second) projection
  bool frozen = false;        // the base weights are frozen (LoRA)
};

// One memory estimate in the making: the question, the catalog's figures it reads, the estimate's
// lines so far and the figures one part leaves for the next. estimate_memory runs the parts in
// order: weights, training states, KV cache, activations, paged states, runtime and pool.
struct Sizing {
  Sizing(const MemoryConstants& constants, const MemoryQuestion& question,
         const WeightFormat& format, const EngineProfile& engine, const OptimizerSpec* optimizer,
         const std::string& compute_type, double kv_element_bytes, const std::string& sharding_kind)
      : k(constants),
        q(question),
        fmt(format),
        eng(engine),
        opt(optimizer),
        compute(compute_type),
        kv_el(kv_element_bytes),
        sharding(sharding_kind),
        sac(question.selective_checkpointing),
        a(question.arch),
        act(compute_type == "fp32" ? 4 : 2),
        tp(std::max(1.0, question.tensor_parallel)),
        pp(std::max(1.0, question.pipeline_parallel)),
        dp(std::max(1.0, std::floor(question.gpus / (tp * pp)))),
        full_shard(sharding_kind == "zero3" || sharding_kind == "fsdp" ||
                   sharding_kind == "fsdp_full_shard"),
        grads_sharded(full_shard || sharding_kind == "zero2"),
        states_sharded(grads_sharded || sharding_kind == "zero1"),
        explain(question.explain),
        training(is_training(question.mode)),
        adapters(question.mode == TrainMode::kLora || question.mode == TrainMode::kQlora),
        generates(question.mode == TrainMode::kInference),
        active_width(a.moe() ? a.moe_intermediate : a.intermediate),
        // Shared experts counted in routed-expert widths (Qwen2-MoE's one shared expert is 4 wide).
        active_count(a.moe() ? a.experts_per_token +
                                   a.shared_experts * a.shared_intermediate / a.moe_intermediate
                             : 1),
        flash(fused_attention(question, engine, compute_type, attention_why)) {
    e.params = count_parameters(a);
  }

  const MemoryConstants& k;
  const MemoryQuestion& q;
  const WeightFormat& fmt;
  const EngineProfile& eng;
  const OptimizerSpec* opt;  // training only
  const std::string compute;
  const double kv_el;
  const std::string sharding;
  const std::string& sac;
  const Architecture& a;
  MemoryEstimate e;
  const ParameterCount& p = e.params;
  const double act, tp, pp, dp;
  const bool full_shard, grads_sharded, states_sharded, explain, training, adapters, generates;
  const double active_width, active_count;
  std::string attention_why;  // set with flash: the kernel the attention runs
  const bool flash;
  double adapter_bytes_per_token = 0;  // over all layers: what the LoRA adapters save for backward
  LinearInputs saved_inputs;
  double listed_bytes = 0;             // the lines' bytes, also when they are not listed
  // Weights.
  double unquantized = 0, weights_all = 0, checkpoint_bytes = 0, weights_gpu = 0,
         bytes_per_param = 0, layer_params = 0;
  double paged_states = 0;
  // KV cache.
  double kv_layer_token = 0, layers_here = 0, seqs = 0;
  double kv_generated = 0;  // a dynamic cache's growth after the prefill (decoder-only models)
  double transient = 0;     // memory that comes and goes: the allocator keeps part of it
  double runtime = 0;
  // A training step's moments of peak, held apart until training_peak() lists the highest: the
  // backward pass's start (activations, the loss's backward over the logits, autocast's weight
  // copies), its end (the gradients freed after each step, all but the first layer's, beside that
  // layer's backward), the optimizer step (the gradients and the step's temporaries) and, under
  // checkpointing, the last layer recomputed after the loss's backward has freed the logits.
  enum Phase { kBackward = 0, kBackwardEnd = 1, kStep = 2, kRecompute = 3 };
  std::vector<MemoryLine> phase_lines[4];
  double phase_bytes[4] = {0, 0, 0, 0};
  double step_gradients = 0;  // gradients freed after each step (0: kept, listed with the weights)
  double recomputed = 0;      // the last layer's recompute under checkpointing (0: none)
  std::string step_gradients_basis;

  // A line of the estimate, listed with its basis (made by `basis()`) when the answer explains.
  template <class Basis>
  void add(const char* key, const char* label, double bytes, const Basis& basis) {
    if (!(bytes > 0)) return;  // NaN included: a line the figures cannot hold is left out
    listed_bytes += bytes;
    if (explain) e.lines.push_back({key, label, bytes, basis()});
  }
  template <class Basis>
  void add_phase(Phase phase, const char* key, const char* label, double bytes,
                 const Basis& basis) {
    if (!(bytes > 0)) return;
    phase_bytes[phase] += bytes;
    if (explain) phase_lines[phase].push_back({key, label, bytes, basis()});
  }
  // What the backward pass holds from its start through the last layer's recompute.
  template <class Basis>
  void add_backward(const char* key, const char* label, double bytes, const Basis& basis) {
    add_phase(kBackward, key, label, bytes, basis);
    if (q.gradient_checkpointing || !sac.empty()) add_phase(kRecompute, key, label, bytes, basis);
  }
  template <class Basis>
  void add_runtime(const char* key, const char* label, double bytes, const Basis& basis) {
    if (bytes <= 0) return;
    runtime += bytes;
    add(key, label, bytes, basis);
  }

  void weights();
  void rope_tables();
  void loading_peak();
  bool training_states(std::vector<std::pair<std::string, std::string>>& faults);
  void autocast_weight_casts();
  void step_temporaries(double trainable, double state_element_bytes, double shard);
  void kv_cache();
  void serving_activations();
  void training_activations();
  void training_held();
  void training_peak();
  void paged_optimizer_states();
  template <class How>
  void place_pool(double pool, const How& how, double window = 0);
  void runtime_and_pool();
  void static_pool(double context);
  void profiled_pool(double context);
};

}  // namespace gpufleet::memory_parts
