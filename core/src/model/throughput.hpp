#pragma once
// How fast: a roofline model of inference (prefill compute-bound, decode memory-bound, each phase
// the maximum of its compute and memory times, plus tensor-parallel communication) and of
// training (6 x parameters FLOPs per token at a model-FLOPs utilisation). The efficiency factors
// live in model_config.json under "throughput_model", each with its source.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/architecture.hpp"

namespace gpufleet {

struct MemoryConstants;
struct MemoryQuestion;

// How one inference engine runs: where its KV pool comes from, and the host time its steps add.
struct InferenceEngine {
  std::string key;
  std::string name;
  std::vector<std::string> matches;  // lower-case substrings of framework names that mean it
  bool has_pool = true;              // false: the general serving figures size its pool
  bool kv_of_free_memory = false;    // the pool is a share of what the weights leave, not of the device
  double kv_fraction = 0.9;
  double step_overhead_ms = 0;   // host work per step the device waits for (scheduling, inputs, outputs)
  double max_batch = 0;  // the scheduler's default cap on running sequences (0: the serving block's)
  // What each layer of a model with MLA and routed experts adds to a decode step whatever it
  // reads: the layer's chain of small kernels, run one after another (0: not known).
  double mla_moe_layer_us = 0;
  // Decode attention in one thread block per sequence and query head, each streaming its head's
  // keys and values at this rate (0: the engine splits the context, no such bound).
  double head_block_gb_per_s = 0;
  // A weight-only kernel that dequantizes the weights again for every `tile_rows` rows of input:
  // its matmuls cost linear parameters x ceil(rows / tile_rows) / `weights_per_s` at least.
  std::string tiled_format;
  double tile_rows = 0;
  double tile_weights_per_s = 0;
  // An eager engine (transformers' generate): the host launches every kernel of a forward pass
  // one by one, so a pass takes at least layers x kernels_per_layer x us_per_kernel, and the
  // loop's own kernels_per_step follow once the step's tokens are back on the host.
  double kernels_per_layer = 0;  // 0: not eager
  // Kernels per layer where they were counted for an attention implementation ("eager"), or for
  // a model type with it ("qwen3 eager"): the model type's row, else the implementation's, else
  // kernels_per_layer.
  std::map<std::string, double> kernels_per_layer_by;
  double kernels_per_step = 0;
  // Bytes an eager attention kernel chain moves per attention score (the scores written by one
  // matmul, scaled, masked, softmaxed in fp32 and read by the next): 0 where the engine runs
  // no such chain. Applies when the question's attention is "eager".
  double eager_score_bytes = 0;
  // Bytes an eager engine's elementwise kernels (norms, rotary, cache copy, residual adds, the
  // MLP's activation and product, the attention's inputs and output) move per token and layer of a
  // Llama-form decoder in 16-bit compute, per element of each width (0: none counted).
  struct ActivationBytes {
    double hidden = 0, query = 0, kv = 0, intermediate = 0, qk_norm = 0;
  } eager_activation_bytes;
  double us_per_kernel = 0;
  double us_per_kernel_low = 0, us_per_kernel_high = 0;  // the documented range (host CPUs differ)
  // PyTorch's SDPA on these compute capabilities runs cuDNN attention, which builds a graph on the
  // host for each pass whose shapes the process has not run before (a decode step's keys are one
  // longer than the last step's).
  struct CudnnGraph {
    double build_ms = 0;
    std::vector<std::string> preferred_on;
    std::string basis;
  } cudnn_graph;
  std::string eager_basis;
  std::string kernels_by_basis;
  std::string eager_score_basis;
  std::string eager_activation_basis;
  std::string basis;
  std::string overhead_basis;
  std::string tile_basis;
  std::string max_batch_basis;
  std::string mla_moe_basis;
  std::string head_block_basis;
};

struct ThroughputConstants {
  double decode_bandwidth_efficiency = 0;        // share of peak bandwidth a decode step reaches
  double decode_bandwidth_efficiency_multi = 0;  // the same with tensor parallelism
  double prefill_mfu_short = 0;                  // prompts under `long_prompt_tokens`
  double prefill_mfu_long = 0;
  double long_prompt_tokens = 1024;
  double decode_mfu = 0;            // large-batch decode when compute-bound
  double allreduce_latency_us = 0;  // per all-reduce, tensor parallel
  double interconnect_efficiency = 0;
  // Pipeline stages on several instances: per token, `pipeline_activation_tensors` hidden-size
  // tensors of `pipeline_activation_bytes` per element cross each boundary, each message paying
  // the fabric's latency.
  double pipeline_activation_tensors = 0;
  double pipeline_activation_bytes = 0;
  double rdma_message_latency_us = 0;  // EFA, InfiniBand
  double tcp_message_latency_us = 0;
  double serving_max_batch = 0;                 // scheduler's cap when the source lets it choose
  double serving_kv_fraction = 0;               // device share the KV pool may take
  std::map<std::string, double> training_mfu;   // by GPU key, "default" for the rest
  // The rate a training step's attention FLOPs (as MFU counts them) reach, as a share of its
  // matmuls' (training_mfu): by GPU key, or the GPU's family (its name up to the first '-');
  // "default" for the rest. Kernels that are as fast as the matmuls on every GPU skip it.
  std::map<std::string, double> training_attention;
  // Times a training step writes or reads each logit of each token (the output layer's write, the
  // loss's reads, its gradient's write): memory traffic outside the matmuls. 0: not modelled.
  double loss_logit_accesses = 0;
  // A training step's passes over memory outside its matmuls (training_step; 0: not modelled):
  // reads and writes of each parameter by one step of torch's AdamW, and of each attention score
  // by eager attention, in the compute precision and in fp32, forward and backward.
  double adamw_parameter_accesses = 0;
  double eager_forward_score_accesses = 0, eager_forward_fp32_score_accesses = 0;
  double eager_backward_score_accesses = 0, eager_backward_fp32_score_accesses = 0;
  std::map<std::string, double> link_gb_per_s;  // per GPU key, one direction
  // Measured shares of peak a GPU reaches: dense matmuls ("<GPU>" 16-bit, "<GPU> fp8") and memory
  // streams ("<GPU>": a read-only stream, STREAM's Dot, as inference reads weights and KV cache;
  // "<GPU> triad": read-read-write, as the training loss moves logits); "default" / "default fp8"
  // are the GPUs the inference efficiencies were calibrated on, so a GPU's efficiencies scale by
  // its share over the default's.
  std::map<std::string, double> matmul_efficiency;
  // matmul_efficiency's sized rows ("<GPU> fp8 n=2048"), read once: by "<GPU> fp8", the (log n,
  // share) points in order of size.
  std::map<std::string, std::vector<std::pair<double, double>>> matmul_by_size;
  std::map<std::string, double> bandwidth_efficiency;
  // Time each layer adds to every inference step on a platform (by GPU vendor), whatever the
  // engine: dispatching its kernels one by one, or its collectives, not hidden behind its reads.
  std::map<std::string, double> layer_overhead_us;
  // Host time per eager kernel launch by GPU, for the servers the GPU ships in: for that GPU it
  // replaces the eager engines' us_per_kernel.
  std::map<std::string, double> eager_us_per_kernel;
  std::map<std::string, InferenceEngine> engines;  // by key
  bool present = false;
};

// The tensor-parallel link, one direction, where the catalog gives none: PCIe Gen3 x16 class
// (about 32 GB/s both ways, the T4's and V100 PCIe's datasheet figure).
constexpr double kUnknownLinkGbPerS = 16;

// One device: what the roofline needs.
struct DeviceSpec {
  std::string name;
  std::string vendor;  // nvidia, amd, apple, aws ... ("" unknown)
  double memory_bytes = 0;
  double bandwidth_gb_per_s = 0;
  std::map<std::string, double, std::less<>> tflops;  // dense, by precision (found by any string)
  double link_gb_per_s = 0;              // tensor-parallel link, one direction (0 = unknown: kUnknownLinkGbPerS)
  std::string compute_capability;        // CUDA's ("9.0"; "" not CUDA or not known)
};

struct ThroughputQuestion {
  Architecture arch;
  ParameterCount params;
  double weight_bytes = 0;        // whole model, in its format
  double kv_bytes_per_token = 0;  // whole model (all layers)
  std::string compute = "fp16";   // precision whose peak the matmuls use
  DeviceSpec device;
  double gpus = 1;
  double tensor_parallel = 1;
  // Pipeline stages, one per instance, and the network between them (its bandwidth each way and
  // one message's latency): the road's serving layouts across instances.
  double pipeline_parallel = 1;
  double network_gbit_per_s = 0;
  double network_latency_us = 0;
  std::string engine;  // a key of ThroughputConstants::engines, or "" (the general serving figures)
  std::string weight_format;  // as stored (awq_int4, fp8, ...): some engines' kernels depend on it
  // The attention implementation (transformers' attn_implementation: sdpa, eager,
  // flash_attention_2): an eager engine's kernels and its score traffic depend on it.
  std::string attention = "sdpa";
  double batch = 1;  // concurrent sequences; 0 = as many as the KV cache allows
  // Whole sequences the KV cache holds, as the memory model sizes it on the device (the road's
  // figure); unset: a share of the device less the weights (a ranking over many devices).
  std::optional<double> kv_sequences;
  double input_tokens = 512;
  double output_tokens = 128;
  double scheduler_steps = 1;  // decode steps per scheduling of the engine (vLLM's num_scheduler_steps)
  // Whether each pass's attention shapes are new to the process (an eager engine's cuDNN graph is
  // built for each): false where the process ran them before, or its cuDNN does not come first.
  bool new_attention_shapes = true;
  bool explain = true;  // false: the figures without their basis texts (a search over settings)
  // Training.
  double sequence = 2048;
  bool full_recompute = false;
  // Attention in fused kernels tuned for each generation (Transformer Engine's cuDNN attention):
  // as fast as the matmuls, so training_attention does not apply.
  bool fused_attention = false;
  // transformers' eager attention: the scores are written to memory, softmax-ed in fp32 and read
  // back, forward and backward (training_step's eager_*_score_accesses).
  bool eager_attention = false;
  // transformers' modules run each layer's elementwise ops (norms, activation, rotary embeddings,
  // residual sums) one kernel at a time: each a memory pass of its own.
  bool eager_layers = false;
  // Adapters (LoRA, QLoRA): the frozen base takes no weight gradients and no optimizer step.
  // Their in + out features summed over every adapted module of every layer (their trainable
  // parameters over the rank), and the bytes of each of their values (peft's fp32 adapters: 4).
  bool adapters = false;
  double adapter_features = 0;
  double adapter_bytes = 4;
  // The optimizer's step, a pass over the parameters each GPU holds states for, once per
  // `step_tokens` tokens each GPU trains (0: not counted); ZeRO/FSDP split the states over
  // `optimizer_shards` GPUs. Its passes move 4 bytes per parameter when states and master weights
  // are fp32 (`fp32_optimizer`), else the weights' 2.
  std::string optimizer;
  double step_tokens = 0;
  double optimizer_shards = 1;
  bool fp32_optimizer = false;
  // fp32 weights under autocast: every forward casts them to 16 bits, every backward casts their
  // gradients back to fp32.
  bool autocast_weights = false;
  std::optional<double> dataset_tokens;
};

struct Phase {
  double seconds = 0;
  double compute_s = 0, memory_s = 0, comm_s = 0;
  double pipeline_link_s = 0;  // of `seconds`: activations sent between pipeline stages
  std::string_view bound;  // compute | memory bandwidth | interconnect (a literal: copied for free)
  std::string basis;
};

struct InferenceEstimate {
  Phase prefill;      // the whole batch's prompts (what throughput pays)
  Phase first_token;  // one request's prompt: its time to first token
  Phase decode;       // one step at the mean context
  double ttft_ms = 0;
  double tpot_ms = 0;         // at this batch, prompts interleaved: batch / output_tokens_per_s
  double decode_step_ms = 0;  // one decode step alone (what a decode benchmark times)
  double e2e_ms = 0;          // own prefill + (output - 1) decode steps
  double batch = 1;
  double max_batch_by_kv = 0;
  double output_tokens_per_s = 0;  // whole system
  double output_tokens_per_s_per_gpu = 0;
  double batch1_decode_tokens_per_s = 0;
  double prefill_tokens_per_s = 0;
  std::string limit;  // what limits the serving throughput
};

struct TrainingEstimate {
  double flops_per_token = 0;
  double attention_flops_per_token = 0;  // of flops_per_token
  double attention_share = 1;            // its rate over the matmuls' (training_attention)
  double loss_s_per_token = 0;  // GPU time of the loss over the vocabulary's logits, per token
  double optimizer_s_per_token = 0;      // the optimizer's step over the tokens between two steps
  double memory_s_per_token = 0;         // eager attention's scores, autocast's and adapters' casts
  double recompute_s_per_token = 0;      // the forward run again by activation checkpointing
  double matmul_mfu = 0;                 // the matmuls' rate over the peak (training_mfu)
  double mfu = 0;  // model FLOPs per second over the peak: the whole step, as MFU is published
  double hfu = 0;  // hardware FLOPs utilisation: MFU x 8/6 when activations are recomputed
  double tokens_per_s_per_gpu = 0;
  double tokens_per_s = 0;
  double tflops_per_gpu = 0;
  std::optional<double> seconds;  // for dataset_tokens
  std::optional<double> gpu_hours;
  std::string basis;
};

// The most sequences one model copy runs at once: the engine's scheduler default, else the
// serving block's cap.
double serving_max_batch(const ThroughputConstants& k, const std::string& engine);
InferenceEstimate estimate_inference(const ThroughputConstants& k, const ThroughputQuestion& q);
// One stream's decode step at `context` tokens: reading the weights and its KV cache, or the step's
// FLOPs, whichever takes longer, plus tensor-parallel all-reduces (the single-stream figure of
// estimate_inference, and the recommendations' performance).
Phase single_stream_decode(const ThroughputConstants& k, const ThroughputQuestion& q,
                           double context);
TrainingEstimate estimate_training(const ThroughputConstants& k, const ThroughputQuestion& q);
// What a training step's time takes from the recipe a memory question states: adapters,
// checkpointing, eager attention, the optimizer, its states' precision and sharding, and the
// tokens each GPU trains per step (one micro-batch: no gradient accumulation).
// `trainable_parameters`: the memory model's (adapters: their parameters).
void take_training_recipe(const MemoryConstants& mk, const MemoryQuestion& mq,
                          double trainable_parameters, ThroughputQuestion& q);

}  // namespace gpufleet
