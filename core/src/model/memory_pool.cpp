// The memory model's paged optimizer states, the runtime (CUDA context, buffers, allocator
// reserve) and the KV pools serving engines keep (static share, profiled run).
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "model/memory_sizing.hpp"

namespace gpufleet::memory_parts {

void Sizing::paged_optimizer_states() {
  if (paged_states > 0) {
    // Paged optimizer states (unified memory) are evicted to host memory only under pressure: on
    // a device of known size they occupy what the rest leaves free. bitsandbytes allocates them
    // with cudaMallocManaged, outside PyTorch's caching allocator, so the device's used memory
    // holds them and torch.cuda.max_memory_allocated / _reserved never do
    // (model_config.json optimizers.paged_adamw_8bit.paged_source).
    const double context_guess = context_bytes(k, eng, q);
    const double room = q.gpu_memory_bytes
                            ? std::max(0.0, *q.gpu_memory_bytes - e.tensor_bytes - context_guess)
                            : paged_states;
    const double resident = std::min(paged_states, room);
    add_runtime("optimizer", "Optimizer states (paged, outside PyTorch's allocator)", resident,
                [&] {
                  return opt->basis + "; " + gib(resident) + " of " + gib(paged_states) +
                         " resident on the GPU" +
                         (resident < paged_states ? ", the rest paged to host memory" : "") +
                         "; CUDA managed memory, which PyTorch's memory statistics do not count";
                });
  }
}

// A pool that fits: its bytes and tokens, and how many sequences of the longest length it holds.
// `window`: tokens a sliding-window layer keeps per sequence in the pool (0: every token, as a
// full-attention layer does).
template <class How>
void Sizing::place_pool(double pool, const How& how, double window) {
  e.kv_pool_bytes = pool;
  e.kv_pool_tokens = std::floor(pool / e.kv_bytes_per_token);
  const double sliding = window > 0 && a.sliding_window > 0 ? a.sliding_layer_share : 0;
  auto sequence_bytes = [&](double n) {
    return e.kv_bytes_per_token * ((1 - sliding) * n + sliding * std::min(n, window));
  };
  const double max_len = q.max_model_len.value_or(q.sequence + q.new_tokens);
  if (max_len > 0) e.max_concurrent_sequences = std::floor(pool / sequence_bytes(max_len));
  e.kv_bytes_per_sequence = sequence_bytes(q.sequence + q.new_tokens);
  add("kv_cache", "KV cache pool", pool, [&] {
    return how() + " = " + gib(pool) + " = " + num(*e.kv_pool_tokens) + " tokens at " +
           num(e.kv_bytes_per_token / 1024) + " KiB each" +
           (sliding > 0 ? "; its sliding-window layers (" + num(std::round(sliding * 100)) +
                              " % of them) keep " + num(std::min(max_len, window)) +
                              " tokens of a " + num(max_len) +
                              "-token sequence: " + gib(sequence_bytes(max_len)) + " per sequence"
                        : "");
  });
  e.kv_cache_bytes = pool;
  e.tensor_bytes += pool;
}

// ---- Runtime, and the pool an engine keeps ---------------------------------------------------
void Sizing::runtime_and_pool() {
  const double context = context_bytes(k, eng, q);
  add_runtime("cuda_context", "CUDA context", context, [&]() -> std::string {
    return eng.pytorch ? (q.cuda_eager_loading
                              ? "PyTorch with every CUDA module loaded at start (CUDA < 11.7)"
                              : "PyTorch with lazy CUDA module loading (CUDA >= 11.7)")
           : q.cuda_eager_loading && eng.eager_context_mib != eng.context_mib
               ? eng.name + " runtime with every library kernel loaded at start (CUDA < 12.2)"
               : eng.name + " runtime";
  });
  add_runtime("compute_buffers", "Compute buffers", eng.compute_buffer_mib * kMiB,
              [&] { return eng.name + " scratch buffers"; });
  add_runtime("allocator_reserve", "Allocator reserve", eng.allocator_reserve * transient, [&] {
    return num(eng.allocator_reserve * 100) +
           " % of the transient memory stays cached by the allocator (" + eng.name + ")";
  });

  if (eng.kv_policy == "pool" && eng.pool_sizing == "static" && generates && q.gpu_memory_bytes) {
    static_pool(context);
  } else if (eng.kv_policy == "pool" && generates) {
    profiled_pool(context);
  }
}

void Sizing::static_pool(double context) {
  // The engine measures the memory free once its process group is up, loads the weights, and
  // keeps its share of that measure for the weights and the pool: the rest of the share after
  // the weights is the pool; the remainder of the device is left to activations and graphs.
  double share = eng.gpu_memory_utilization;
  for (const auto& [from, s] : eng.share_by_tp)
    if (tp >= from) share = s;
  share = q.gpu_memory_utilization.value_or(share);
  const double non_torch =
      (eng.non_torch_mib + (tp > 1 && q.gpus_linked ? eng.non_torch_tp_mib : 0)) * kMiB;
  const double free_before =
      q.free_before_load_bytes.value_or(*q.gpu_memory_bytes - context - non_torch);
  const double pool = share * free_before - weights_gpu;
  auto how = [&] {
    return num(share) + " x " + gib(free_before) +
           (q.free_before_load_bytes ? " free before loading (as logged)"
                                     : " free before loading (" + gib(*q.gpu_memory_bytes) +
                                           " less the CUDA context and " + num(non_torch / kMiB) +
                                           " MiB of communication buffers)") +
           " - weights";
  };
  if (pool > 0 && e.kv_bytes_per_token > 0) {
    place_pool(pool, how);
  } else {
    e.notes.push_back("the weights (" + gib(weights_gpu) + ") leave no room for a KV cache in " +
                      num(share) + " x " + gib(free_before) + " = " + gib(share * free_before));
  }
  add_runtime("non_torch", "Non-torch memory", non_torch,
              [&] { return eng.name + " communication buffers outside PyTorch"; });
}

void Sizing::profiled_pool(double context) {
  // The engine profiles one forward pass of its token budget and samples one token per dummy
  // request, then gives the rest of its share of the device to the KV-cache pool.
  const double util = q.gpu_memory_utilization.value_or(eng.gpu_memory_utilization);
  const ProfileBand* band = profile_band(eng, q.engine_version);
  const double gib70 = 70.0 * 1024 * 1024 * 1024;
  const bool large_gpu = band && band->large_gpu_serve_batched_tokens > 0 && q.gpu_memory_bytes &&
                         *q.gpu_memory_bytes >= gib70 &&
                         lower(q.gpu_name).find("a100") == std::string::npos;
  const double max_len = q.max_model_len.value_or(q.sequence + q.new_tokens);
  double budget_tokens = 2048, seqs_profiled = 256;
  if (band) {
    const bool chunked =
        band->chunked_prefill_above_tokens <= 0 || max_len > band->chunked_prefill_above_tokens;
    budget_tokens = !chunked    ? std::max(max_len, band->unchunked_min_tokens)
                    : large_gpu ? (q.offline_engine ? band->large_gpu_offline_batched_tokens
                                                    : band->large_gpu_serve_batched_tokens)
                                : (q.offline_engine ? band->offline_batched_tokens
                                                    : band->serve_batched_tokens);
    seqs_profiled = large_gpu && band->large_gpu_max_num_seqs > 0 ? band->large_gpu_max_num_seqs
                                                                  : band->max_num_seqs;
  }
  const double tokens = q.max_batched_tokens.value_or(budget_tokens);
  const double rows = std::min(q.max_num_seqs.value_or(seqs_profiled), tokens);
  // One layer at a time over every token, its MLP split over the tensor-parallel ranks; routed
  // experts also keep one hidden-sized output per chosen expert (fused MoE's third buffer).
  const double layer =
      tokens *
      (3 * a.hidden +
       ((a.gated_mlp ? 3 : 2) * active_width + (a.moe() ? a.hidden : 0)) * active_count / tp) *
      act;
  // The sampler sees the whole vocabulary (the logits are gathered over the ranks) while the
  // final hidden states are still held.
  const double per_logit = band && band->sampler_bytes_per_logit > 0 ? band->sampler_bytes_per_logit
                                                                     : eng.sampler_bytes_per_logit;
  const double sampler = rows * a.vocab * per_logit;
  const double profile = std::max(layer, tokens * a.hidden * act + sampler);
  add("activations", "Activations (profiled peak)", profile, [&] {
    return "max of one layer's intermediates over " + num(tokens) +
           " batched tokens and the sampler over " + num(rows) + " dummy requests x " +
           num(a.vocab) + " vocabulary x " + num(per_logit) + " bytes" +
           (band ? " (" + eng.name + " " + band->label + ")" : "");
  });
  // Tensor-parallel ranks joined by NVLink hold communication buffers outside PyTorch's
  // allocator.
  const double non_torch =
      (eng.non_torch_mib + (tp > 1 && q.gpus_linked ? eng.non_torch_tp_mib : 0)) * kMiB;
  e.tensor_bytes += profile;
  if (q.gpu_memory_bytes) {
    const double budget = util * *q.gpu_memory_bytes;
    // Releases that size the pool from the device's free memory also charge the CUDA context.
    const double charged_context = band && band->charges_cuda_context ? context : 0;
    const double pool = budget - weights_gpu - profile - non_torch - charged_context;
    if (pool > 0 && e.kv_bytes_per_token > 0) {
      // vLLM's SlidingWindowSpec.max_memory_usage_bytes: a window layer holds at most
      // sliding_window - 1 + max_num_batched_tokens tokens of a sequence. Chunked local attention
      // keeps every token: vLLM turns the hybrid manager off for it by default (a latency
      // regression, VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE).
      const double window =
          band && band->window_kv && !a.chunked_attention ? a.sliding_window - 1 + tokens : 0;
      place_pool(
          pool,
          [&] {
            return num(util) + " x " + gib(*q.gpu_memory_bytes) +
                   " - weights - profiled activations - " + num(non_torch / kMiB) +
                   " MiB non-torch" +
                   (charged_context > 0 ? " - the CUDA context (" + gib(charged_context) + ")"
                                        : "");
          },
          window);
    } else {
      e.notes.push_back("the weights (" + gib(weights_gpu) + ") and the profiled activations (" +
                        gib(profile) + ") leave no room for a KV cache in " + num(util) + " x " +
                        gib(*q.gpu_memory_bytes) + " = " + gib(budget));
    }
    add_runtime("non_torch", "Non-torch memory", non_torch, [&] {
      return eng.name + " NCCL/cuBLAS workspaces outside PyTorch" +
             (non_torch > eng.non_torch_mib * kMiB
                  ? " (" + num(eng.non_torch_tp_mib) +
                        " MiB more for the NVLink tensor-parallel group)"
                  : "");
    });
  }
}

}  // namespace gpufleet::memory_parts
