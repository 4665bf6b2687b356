#pragma once
// The architecture-aware memory model: what one GPU holds for a concrete model and workload,
// line by line (weights, KV cache, activations, logits, gradients, optimizer states, master
// weights, runtime), in bytes. The constants it uses (formats, optimizers, engines) live in
// model_config.json under "memory_model", each with its source.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/architecture.hpp"

namespace gpufleet {

struct WeightFormat {
  std::string key;           // "nf4", "gptq_int4", "gguf_q4_k_m", ...
  double linear_bits = 16;   // bits per weight of the blocks' linear layers, scales included
  double other_bytes = 2;    // bytes per parameter of what stays unquantized
  bool whole_model = false;  // GGUF: linear_bits is the file's average over every tensor
  std::string quantizer;     // the library that writes such checkpoints ("AutoAWQ")
  double head_copy_before_version = 0;  // its releases before this save tied embeddings twice
  // Engines that keep a tied model's output head as its own 16-bit matrix in this format.
  std::vector<std::string> tied_head_apart_engines;
  std::string basis;
};

struct OptimizerSpec {
  std::string key;
  double bytes_per_parameter = 0;  // states per trainable parameter
  bool factored = false;           // Adafactor: row + column statistics per matrix
  bool paged = false;              // paged states may live in host memory under pressure
  // torch.optim: the states are created like the parameter (zeros_like), so 16-bit parameters
  // without an fp32 master copy get 16-bit states; bytes_per_parameter is their fp32 size.
  bool states_in_parameter_dtype = false;
  // State-sized temporaries torch.optim's foreach step allocates for every parameter at once.
  double foreach_temporaries = 0;
  std::string basis;
};

// A band of a pool engine's releases (vLLM): the defaults its start-up profile run takes. The run is
// one forward pass over max_num_batched_tokens tokens, spread over up to max_num_seqs dummy
// requests whose last tokens are sampled.
struct ProfileBand {
  std::string label;
  std::string generation;                  // "v0" | "v1": a version string may name one
  double from_version = 0;                 // major x 1e6 + minor x 1e3 + patch
  double max_num_seqs = 256;
  double chunked_prefill_above_tokens = 0;  // max_model_len beyond which prefills are chunked (0: always)
  double unchunked_min_tokens = 0;          // unchunked: max(max_model_len, this) tokens
  double serve_batched_tokens = 0;          // chunked: the budget of `vllm serve`
  double offline_batched_tokens = 0;        // chunked: the budget of the LLM class
  double large_gpu_serve_batched_tokens = 0;    // on >= 70 GiB GPUs other than the A100 (0: same)
  double large_gpu_offline_batched_tokens = 0;
  double large_gpu_max_num_seqs = 0;
  bool charges_cuda_context = false;  // the budget counts everything on the device, the context too
  double sampler_bytes_per_logit = 0;  // the band's sampler, per sampled logit (0: the engine's)
  // A hybrid KV cache manager: sliding-window layers hold only their window (plus one step's
  // batched tokens) of each sequence's KV in the pool, full-attention layers all of it.
  bool window_kv = false;
  std::string window_kv_basis;
  std::string basis;
};

// A runtime or serving engine: what it adds beyond tensors, and how it allocates the KV cache.
struct EngineProfile {
  std::string key;
  std::string name;
  std::vector<std::string> matches;   // lower-case substrings of framework names that mean it
  bool pytorch = true;                // CUDA context of a PyTorch process (else a lean C++ runtime)
  double context_mib = 0;             // CUDA context when not PyTorch
  double eager_context_mib = 0;       // not PyTorch, CUDA < 12.2: every library kernel loaded
  bool fp32_parameters = false;       // 16-bit checkpoints held as fp32, cast per call
  bool checkpoint_on_device = false;  // the checkpoint is loaded onto the GPU, then cached
  bool ties_after_loading = false;    // every checkpoint tensor lands on the GPU before tying
  double allocator_reserve = 0;       // share of transient memory the caching allocator keeps
  double compute_buffer_mib = 0;      // fixed scratch buffers (llama.cpp, whisper.cpp)
  std::string kv_policy = "dynamic";  // dynamic | full_context | pool
  bool logits_all_prompt_tokens = false;
  bool chunked_loss = false;           // the loss is computed in chunks of the vocabulary rows
  bool cross_cache_per_beam = true;    // encoder-decoders: one cross-attention cache per beam
  bool softmax_fp32 = true;            // materialised attention: the softmax output kept in fp32
  bool eager_rms_norm =
      false;  // RMSNorms written as PyTorch ops: each keeps two copies for backward
  bool eager_loss_backward = false;      // the loss's backward holds three fp32 logit-sized tensors
  bool adapters_in_model_dtype = false;  // LoRA adapters built in the model's dtype (else peft's fp32)
  bool materialized_attention = true;  // eager attention unless flash is asked for
  // Releases before this one (parse_engine_version) cache rotary cos/sin tables over the longest
  // position in every attention layer, for these model types (0: none does).
  double rope_cache_before_version = 0;
  std::vector<std::string> rope_cache_model_types;
  double gpu_memory_utilization = 0;   // pool engines: share of the device they may take
  // "profile": the pool is what a profiled forward pass leaves of the share (vLLM); "static": the
  // share of the memory free before loading, less the weights (SGLang's mem_fraction_static).
  std::string pool_sizing = "profile";
  std::vector<std::pair<double, double>> share_by_tp;  // (from tensor-parallel size, share)
  double non_torch_mib = 0;
  double non_torch_tp_mib = 0;           // added per GPU under tensor parallelism over NVLink
  double sampler_bytes_per_logit = 0;    // pool engines: the profiled sampler, per sampled logit
  std::vector<ProfileBand> bands;        // pool engines, by release
  double default_version = 0;            // the band taken when the question names no version
  std::string layer_split = "balanced";  // how a model spread over GPUs by layers is placed
  std::string basis;
};

struct MemoryConstants {
  std::map<std::string, WeightFormat> weight_formats;
  std::map<std::string, double> kv_bytes;  // bytes per KV element by cache format
  std::map<std::string, OptimizerSpec> optimizers;
  std::map<std::string, EngineProfile> engines;
  double cuda_context_eager_mib = 0;     // PyTorch, CUDA < 11.7: every kernel module loaded at init
  double cuda_context_lazy_mib = 0;      // PyTorch, CUDA >= 11.7: modules loaded on first use
  double zero3_max_live_parameters = 0;  // DeepSpeed ZeRO-3: gathered parameters kept resident
  double lora_default_rank = 8;
  std::map<std::string, std::vector<std::string>> lora_default_targets;  // by model_type
  bool present = false;
};

// A concrete model of the catalog.
struct NamedModel {
  std::string key;
  std::string name;
  std::string hf_id;
  std::vector<std::string> aliases;
  Architecture arch;
  ParameterCount params;
  double published_parameters = 0;
  double published_active_parameters = 0;
  std::string source;
  std::string json_path;
};

enum class TrainMode { kLoadOnly, kInference, kFullFinetune, kLora, kQlora, kPretraining };

struct MemoryQuestion {
  Architecture arch;
  TrainMode mode = TrainMode::kInference;
  std::string weight_format = "bf16";
  std::string compute = "bf16";  // fp32 | amp_fp16 | amp_bf16 | bf16 | fp16 | fp8
  std::string optimizer = "adamw";
  bool optimizer_in_backward = false;  // gradients freed as soon as each parameter is stepped
  // The step as PyTorch >= 2.0 runs it by default: zero_grad(set_to_none=True) frees the gradients
  // after each step, so they never meet the next forward's activations (under gradient
  // accumulation they stay through the micro-batches' forward passes). transformers' Trainer steps
  // with torch.optim.AdamW(fused=True) from torch 2.8 ("fused"); a plain torch.optim.AdamW takes
  // the foreach implementation on CUDA ("foreach"); PyTorch 1.x steps one parameter at a time
  // ("for-loop").
  bool gradients_freed_after_step = true;
  std::string optimizer_step = "fused";  // fused | foreach | for-loop
  bool checkpoint_head_copy = false;   // the checkpoint stores tied embeddings a second time
  bool master_weights = false;         // fp32 master copy beside 16-bit weights
  double batch = 1;
  double sequence = 2048;  // prompt (inference) or training tokens per sequence
  double new_tokens = 0;
  double beams = 1;
  bool gradient_checkpointing = false;
  // Selective activation checkpointing (torchtitan's selective_ac_option): "op" keeps the outputs of
  // a listed set of ops per layer; a whole number N checkpoints every N-th layer; "" = none.
  std::string selective_checkpointing;
  // The attention implementation (transformers' attn_implementation): "sdpa" (its default),
  // "eager" or "flash_attention_2". Engines with their own kernels ignore it.
  std::string attention = "sdpa";
  bool chunked_loss = false;  // logits made and consumed in chunks (torchtune, Liger)
  bool compiled_loss =
      false;                  // torch.compile fuses the loss and its backward (the harness's cases)
  bool output_kept = false;   // the caller keeps the model's output (its logits) through backward
  std::string kv_format;      // "" = the compute precision's 16-bit format
  double lora_rank = 0;
  double lora_dropout = 0;  // peft's lora_dropout (its default 0: no dropout module)
  std::vector<std::string> lora_targets;
  double gpus = 1;
  double tensor_parallel = 1;
  double pipeline_parallel = 1;
  std::string sharding = "none";  // none | zero1 | zero2 | zero3 | fsdp
  bool cpu_offload = false;
  std::string engine = "transformers";
  bool cuda_eager_loading = false;  // kernels loaded at start (CUDA before lazy loading)
  std::optional<double> gpu_memory_bytes;  // the device, when known
  std::optional<double> gpu_memory_utilization;
  std::optional<double> free_before_load_bytes;  // a static pool engine's logged free memory
  std::optional<double> max_model_len;
  std::optional<double> max_batched_tokens;
  std::optional<double> max_num_seqs;
  std::string engine_version;            // "0.6.5", "V0 0.7.3", ...: "" = the engine's default
  bool offline_engine = false;           // vLLM's LLM class rather than `vllm serve`
  std::string gpu_name;                  // the device, where defaults depend on it
  bool gpus_linked = false;              // GPU-to-GPU NVLink / Infinity Fabric (peer access)
  bool explain = true;  // false: the figures without their lines (a sweep's candidates show none)
};

struct MemoryLine {
  std::string key;
  std::string label;
  double bytes = 0;
  std::string basis;
};

struct MemoryEstimate {
  std::vector<MemoryLine> lines;  // one GPU (the fullest)
  double tensor_bytes = 0;        // peak tensors: what torch.cuda.max_memory_allocated shows
  double total_bytes = 0;         // the device's used memory: tensors + runtime
  double reserved_bytes = 0;      // tensors + the allocator's cache: torch.cuda.max_memory_reserved
  double weights_bytes = 0;          // the whole model's (the checkpoint as loaded)
  double weights_per_gpu_bytes = 0;  // what the fullest GPU holds of them (the "weights" line)
  double kv_bytes_per_token = 0;  // on this GPU
  double kv_cache_bytes = 0;
  std::optional<double> kv_pool_bytes;  // serving engines that pre-allocate a pool
  std::optional<double> kv_pool_tokens;
  std::optional<double> max_concurrent_sequences;
  // A pool's KV bytes for one sequence of the question's input + output tokens (sliding-window
  // layers at their window where the engine keeps only the window); 0 without a pool.
  double kv_bytes_per_sequence = 0;
  ParameterCount params;
  double trainable_parameters = 0;
  std::vector<std::string> notes;
};

// Faults in the question (unknown format, optimizer or engine) are returned as messages keyed by
// the request field they concern.
struct MemoryAnswer {
  std::optional<MemoryEstimate> estimate;
  std::vector<std::pair<std::string, std::string>> faults;  // field, message
};

MemoryAnswer estimate_memory(const MemoryConstants& constants, const MemoryQuestion& q);

// "0.6.4-0.6.5 (...)", "~0.8.x", "V1 engine, ~0.9.2": the first dotted number as major x 1e6 +
// minor x 1e3 + patch, or 0 when there is none.
double parse_engine_version(const std::string& text);
// The band of `engine` for a version string ("" = the engine's default version), or nullptr.
const ProfileBand* profile_band(const EngineProfile& engine, const std::string& version);

std::optional<TrainMode> parse_train_mode(const std::string& text);
std::string to_string(TrainMode mode);

}  // namespace gpufleet
