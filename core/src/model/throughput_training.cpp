// Training tokens/s: model FLOPs at the GPU's measured matmul share, attention at its own rate,
// the loss's memory traffic and the tensor-parallel all-reduces.
#include <algorithm>
#include <cmath>
#include <optional>

#include "model/memory_model.hpp"
#include "model/throughput.hpp"
#include "model/throughput_parts.hpp"

namespace gpufleet {
namespace {

using namespace throughput_parts;

// A figure by GPU: the GPU's own, else its family's (the name before its first '-': H100-NVL-94GB
// takes H100-SXM-80GB's or H100's), else "default"; nullopt when the table has none of them.
std::optional<double> by_gpu(const std::map<std::string, double>& table, const std::string& name) {
  const auto family = [](const std::string& key) { return key.substr(0, key.find('-')); };
  if (auto it = table.find(name); it != table.end()) return it->second;
  for (const auto& [key, value] : table)
    if (key != "default" && family(key) == family(name)) return value;
  if (auto it = table.find("default"); it != table.end()) return it->second;
  return std::nullopt;
}

// The rate of a training step's attention over its matmuls' (training_attention); 1 for fused
// kernels, for eager attention (its two products are batched GEMMs, run as the other matmuls) or
// where the table has no figure.
double attention_share(const ThroughputConstants& k, const ThroughputQuestion& q) {
  if (q.fused_attention || q.eager_attention) return 1;
  const double share = by_gpu(k.training_attention, q.device.name).value_or(1);
  return share > 0 ? share : 1;
}

// Bytes per second of a stream that reads and writes, at the GPU's measured Triad share.
double triad_bytes_per_s(const ThroughputConstants& k, const DeviceSpec& d) {
  const auto& table = k.bandwidth_efficiency;
  auto share = table.find(d.name + " triad");
  if (share == table.end()) share = table.find("default triad");
  return d.bandwidth_gb_per_s * 1e9 * (share == table.end() ? 1 : share->second);
}

// The loss over the vocabulary, per token: the output layer writes the token's logits, the loss
// reads them, and its backward reads them again and writes their gradient (flash-attn's fused
// cross-entropy; an unfused one moves more). A stream of reads and writes outside the matmul
// FLOPs, and as long whatever the model's width: it weighs on small models. Logits are 16-bit
// under mixed precision (FP8 leaves the output layer in 16 bits).
double loss_s_per_token(const ThroughputConstants& k, const ThroughputQuestion& q) {
  if (k.loss_logit_accesses <= 0 || output_params(q.arch, q.params) <= 0) return 0;
  const double bw = triad_bytes_per_s(k, q.device);
  const double bytes = q.arch.vocab * k.loss_logit_accesses * (q.compute == "fp32" ? 4 : 2);
  return bw > 0 ? bytes / bw : 0;
}

// The parameters one GPU holds: tensor and pipeline parallelism split them.
double params_per_gpu(const ThroughputQuestion& q) {
  return q.params.total / (std::max(1.0, q.tensor_parallel) * std::max(1.0, q.pipeline_parallel));
}

// The optimizer's step, per token: a memory-bound pass over the parameters whose states this GPU
// holds, torch's AdamW reading and writing each `adamw_parameter_accesses` times (training_step:
// its other optimizers are not counted), 4 bytes each with fp32 states, else the 16-bit weights' 2;
// fp32 master weights then write the 16-bit copy (read 4, write 2). It runs once per step, so few
// tokens per step make it a large share. Adapters step only theirs.
double optimizer_s_per_token(const ThroughputConstants& k, const ThroughputQuestion& q) {
  if (q.adapters || q.step_tokens <= 0 || q.optimizer != "adamw") return 0;
  const bool master_copy = q.fp32_optimizer && q.compute != "fp32" && !q.autocast_weights;
  const double bytes_per_param =
      k.adamw_parameter_accesses * (q.fp32_optimizer ? 4 : 2) + (master_copy ? 6 : 0);
  const double bw = triad_bytes_per_s(k, q.device);
  const double params = params_per_gpu(q) / std::max(1.0, q.optimizer_shards);
  return bw > 0 ? params * bytes_per_param / bw / q.step_tokens : 0;
}

// The bytes peft's LoRA layer moves per token for each in or out feature of an adapted module,
// forward and backward (peft tuners/lora/layer.py, Linear.forward: `x = self._cast_input_dtype(x,
// lora_A.weight.dtype)`, `result = result + lora_B(lora_A(dropout(x))) * scaling`,
// `result.to(torch_result_dtype)`), with adapters of `a` bytes in a model computing in `c`.
// Forward, per input feature: the cast (read c, write a) and lora_A's read (a); per output
// feature: lora_B's write (a), the scaling (read and write a), the sum (read c and a, write the
// wider) and the cast back (read a, write c). Backward, per input feature: lora_A's input
// gradient (write a) and weight gradient (read a), the cast's (read a, write c), the sum with the
// frozen layer's input gradient (read 2 c, write c); per output feature: the two casts' (read c,
// write a; read a, write c), the scaling's (read and write a), lora_B's two gradients (read a
// twice). Without a cast (adapters in the model's dtype) those passes drop out. The layer's in and
// out features are counted alike (their mean): the trainable parameters give their sum only.
// lora_dropout's mask (0 by default) is not counted; lora_A and lora_B's own FLOPs are a rank's
// worth, negligible beside their reads.
std::pair<double, double> adapter_bytes_per_feature(const ThroughputQuestion& q) {
  const double a = q.adapter_bytes, c = q.compute == "fp32" ? 4 : 2;
  const double cast = a != c ? a + c : 0;
  const double forward_in = cast + a, forward_out = a + 2 * a + (c + a + std::max(a, c)) + cast;
  const double backward_in = 2 * a + cast + 3 * c, backward_out = 2 * cast + 2 * a + 2 * a;
  return {(forward_in + forward_out) / 2, (backward_in + backward_out) / 2};
}

// The bytes each layer's forward reads and writes per token outside its matmuls when
// transformers runs its modules op by op (modeling_llama.py and the models built from it,
// modeling_gpt2.py), in the compute precision's c bytes. RMSNorm: to fp32 (read c, write 4), pow
// (4, 4), mean (4), x rsqrt (4, 4), back (4, c), x weight (c, c), per element of the width;
// LayerNorm one kernel (c, c), in fp32 under autocast with the casts of its input and, by the next
// matmul, of its output. SwiGLU's act (c, c) and product (2c, c); GPT-2's gelu_new, eight ops
// written in Python (pow, mul, add, mul, tanh, add, mul, mul: 18c); other activations one
// kernel. Rotary embeddings on queries and keys: x cos (c, c), rotate_half's cat (c, c) and
// negation (half: c), x sin (c, c), the sum (2c, c): 10c. Two residual sums (2c, c) and the
// attention output's transpose into a contiguous tensor (c, c). The backward reads each op's
// saved input and incoming gradient and writes one gradient: twice the forward's bytes.
double eager_layer_forward_bytes(const ThroughputQuestion& q) {
  const Architecture& a = q.arch;
  const double c = q.compute == "fp32" ? 4 : 2;
  const double norm =
      a.layer_norm_bias ? (q.autocast_weights ? 2 * 4 + 2 * (c + 4) : 2 * c) : 28 + 4 * c;
  const double activation = a.gated_mlp ? 5 * c : a.model_type == "gpt2" ? 18 * c : 2 * c;
  const double mlp_width =
      a.moe() ? a.moe_intermediate * (a.experts_per_token + a.shared_experts) : a.intermediate;
  const double rotary = a.position_embeddings > 0 ? 0 : 10 * c;
  const double qk_width = query_width(a) + a.kv_heads * a.head_dim;
  return a.norms_per_layer * a.hidden * norm + mlp_width * activation + qk_width * rotary +
         a.hidden * 2 * 3 * c + query_width(a) * 2 * c;
}

// Memory passes of the layers outside their matmuls, per token: eager attention's scores (each
// token's query meets `sequence` keys in every head: the whole square is computed, the causal
// mask added), transformers' elementwise ops, adapters' casts and sums, and autocast's casts of
// fp32 weights to 16 bits in every forward (read 4, write 2 bytes) and of their gradients back
// (read 2, write 4) once per step. Activation checkpointing repeats the forward's share.
double layer_memory_s_per_token(const ThroughputConstants& k, const ThroughputQuestion& q) {
  const double bw = triad_bytes_per_s(k, q.device);
  if (bw <= 0) return 0;
  const double forwards = q.full_recompute ? 2 : 1;
  double bytes = 0;
  if (q.eager_attention) {
    const double scores = (q.arch.layers + q.arch.encoder_layers) * q.arch.heads * q.sequence;
    const double width = q.compute == "fp32" ? 4 : 2;
    const double forward =
        k.eager_forward_score_accesses * width + k.eager_forward_fp32_score_accesses * 4;
    const double backward =
        k.eager_backward_score_accesses * width + k.eager_backward_fp32_score_accesses * 4;
    bytes += scores * (forward * forwards + backward);
  }
  if (q.eager_layers)
    bytes +=
        (q.arch.layers + q.arch.encoder_layers) * eager_layer_forward_bytes(q) * (forwards + 2);
  if (q.adapters && q.adapter_features > 0) {
    const auto [forward, backward] = adapter_bytes_per_feature(q);
    bytes += q.adapter_features * (forward * forwards + backward);
  }
  if (q.autocast_weights && q.step_tokens > 0)
    bytes += params_per_gpu(q) * (6 * forwards + (q.adapters ? 0 : 6)) / q.step_tokens;
  return bytes / bw;
}

// Seconds per token of a step's matmuls and attention at their peaks (before the MFU): the
// `passes` of FLOPs per matmul parameter (2 a forward, 4 its backward, 2 when adapters leave the
// weights' gradients out), attention's `attention` FLOPs at its own rate. FP8 training
// (Transformer Engine) runs only the GEMMs of its Linear layers in FP8: dot-product attention stays
// in 16 bits (the recipes' fp8_dpa defaults to False) and so does the output layer,
// Megatron-core's own ColumnParallelLinear rather than a TE module. Those FLOPs run at the 16-bit
// peak; `slow_flops` gets them.
double compute_s(const ThroughputQuestion& q, double share, double passes, double attention,
                 double& slow_flops) {
  const double matmuls = passes * matmul_params(q.arch, q.params);
  const double peak = peak_tflops(q.device, q.compute) * 1e12;
  const double wide = peak_tflops(q.device, "bf16") * 1e12;
  const bool fp8 = q.compute == "fp8" && wide > 0 && wide < peak;
  const double output = fp8 ? std::min(matmuls, passes * output_params(q.arch, q.params)) : 0;
  slow_flops = fp8 ? output + attention : 0;
  const double attention_peak = (fp8 ? wide : peak) * share;
  if (peak <= 0 || attention_peak <= 0) return 0;
  return (matmuls - output) / peak + (output > 0 ? output / wide : 0) + attention / attention_peak;
}

// Tensor parallelism: each layer's two all-reduces in the forward pass and two in the backward
// (Megatron-LM's f and g operators, Shoeybi et al. 2019; sequence parallelism's reduce-scatter +
// all-gather moves as much), two more when full recomputation runs the forward again, each over
// one sequence's activations in 16 bits. They run between the layer's matmuls, not under them:
// every GPU of the group waits for them. Seconds per token.
double tensor_parallel_s(const ThroughputConstants& k, const ThroughputQuestion& q) {
  const double tp = std::max(1.0, q.tensor_parallel);
  if (tp <= 1 || q.sequence <= 0) return 0;
  const double collectives = (q.full_recompute ? 6 : 4) * (q.arch.layers + q.arch.encoder_layers);
  return collectives * allreduce_s(k, q.device, tp, q.sequence * q.arch.hidden * 2) / q.sequence;
}

// What the step's memory passes outside the matmuls are, in words.
std::string memory_passes(const ThroughputQuestion& q) {
  std::string parts;
  const auto add = [&](bool on, const char* what) {
    if (on) parts += (parts.empty() ? "" : ", ") + std::string(what);
  };
  add(q.eager_layers, "transformers' norms, activation, rotary embeddings and sums op by op");
  add(q.eager_attention, "eager attention's scores");
  add(q.adapters && q.adapter_features > 0,
      q.adapter_bytes == 4 ? "the fp32 adapters' casts and sums" : "the adapters' sums");
  add(q.autocast_weights, "autocast's casts of the fp32 weights");
  return parts;
}

std::string training_basis(const ThroughputConstants& k, const ThroughputQuestion& q,
                           const TrainingEstimate& t, double slow_flops, double comm_s) {
  const double peak = peak_tflops(q.device, q.compute);
  const auto us = [](double s) { return num(round(s * 1e7) / 10); };
  return num(t.flops_per_token / 1e9) + " GFLOP per token (" + (q.adapters ? "4" : "6") + " x " +
         num(matmul_params(q.arch, q.params) / 1e9) + " B parameters + attention" +
         (q.adapters ? ": adapters leave the frozen weights' gradients out" : "") + ") at " +
         num(round(t.mfu * 1000) / 10) + " % MFU of " + num(peak) +
         " TFLOPS per GPU, the matmuls at " + num(t.matmul_mfu * 100) + " %" +
         (slow_flops > 0
              ? " (" + num(slow_flops / 1e9) + " GFLOP of attention and output layer at " +
                    num(peak_tflops(q.device, "bf16")) + " TFLOPS: FP8 runs the other matmuls only)"
              : "") +
         (t.attention_share < 1
              ? "; attention's " + num(t.attention_flops_per_token / 1e9) + " GFLOP at " +
                    num(t.attention_share * 100) +
                    " % of the matmuls' rate (its kernels reach less of this GPU's peak)"
              : "") +
         (q.full_recompute ? "; activation checkpointing runs the forward again: + " +
                                 us(t.recompute_s_per_token) + " us per token, " +
                                 num(round(t.hfu * 1000) / 10) + " % hardware utilisation"
                           : "") +
         (t.loss_s_per_token > 0
              ? "; + " + us(t.loss_s_per_token) + " us per token for the loss over " +
                    num(q.arch.vocab) + " logits, each written or read " +
                    num(k.loss_logit_accesses) + " times"
              : "") +
         (t.memory_s_per_token > 0 ? "; + " + us(t.memory_s_per_token) +
                                         " us per token of memory passes (" + memory_passes(q) + ")"
                                   : "") +
         (t.optimizer_s_per_token > 0
              ? "; + " + us(t.optimizer_s_per_token) + " us per token for the " + q.optimizer +
                    " step once per " + num(q.step_tokens) + " tokens per GPU, " +
                    num(k.adamw_parameter_accesses) + " passes over each parameter in " +
                    (q.fp32_optimizer ? "fp32" : "16 bits")
              : "") +
         (comm_s > 0 ? "; + " + num(q.full_recompute ? 6 : 4) +
                           " tensor-parallel all-reduces per layer over " + num(q.tensor_parallel) +
                           " GPUs: " + us(comm_s) + " us per token"
                     : "");
}

}  // namespace

TrainingEstimate estimate_training(const ThroughputConstants& k, const ThroughputQuestion& q) {
  TrainingEstimate t;
  const Architecture& a = q.arch;
  // Forward + backward: 6 FLOPs per matmul parameter per token (4 with adapters: no gradients of
  // the frozen weights), and 12 x layers x width x sequence for attention (Narayanan et al. 2021;
  // causal kernels skip half of it, which the attention's rate absorbs, as in the MFU figures it
  // is measured with). MFU counts these model FLOPs only.
  const double passes = q.adapters ? 4 : 6;
  t.attention_flops_per_token = 12 * (a.layers + a.encoder_layers) * query_width(a) * q.sequence;
  t.flops_per_token = passes * matmul_params(a, q.params) + t.attention_flops_per_token;
  t.matmul_mfu = by_gpu(k.training_mfu, q.device.name).value_or(0.4);
  t.attention_share = attention_share(k, q);
  double slow_flops = 0, unused = 0;
  const double seconds =
      compute_s(q, t.attention_share, passes, t.attention_flops_per_token, slow_flops);
  // Activation checkpointing (HF's gradient_checkpointing_enable: torch.utils.checkpoint around
  // each decoder layer) runs each layer's forward again in the backward: 2 FLOPs per matmul
  // parameter and attention's forward third, at the same rates.
  if (q.full_recompute && t.matmul_mfu > 0)
    t.recompute_s_per_token =
        compute_s(q, t.attention_share, 2, t.attention_flops_per_token / 3, unused) / t.matmul_mfu;
  const double tp = std::max(1.0, q.tensor_parallel);
  const double comm_per_token = tensor_parallel_s(k, q);
  t.loss_s_per_token = loss_s_per_token(k, q);
  t.memory_s_per_token = layer_memory_s_per_token(k, q);
  t.optimizer_s_per_token = optimizer_s_per_token(k, q);
  const double gpu_s_per_token = seconds > 0 && t.matmul_mfu > 0
                                     ? seconds / t.matmul_mfu + t.recompute_s_per_token +
                                           tp * comm_per_token + t.loss_s_per_token +
                                           t.memory_s_per_token + t.optimizer_s_per_token
                                     : 0;
  t.tokens_per_s_per_gpu = gpu_s_per_token > 0 ? 1 / gpu_s_per_token : 0;
  t.tflops_per_gpu = t.tokens_per_s_per_gpu * t.flops_per_token / 1e12;
  t.tokens_per_s = t.tokens_per_s_per_gpu * std::max(1.0, q.gpus);
  if (q.dataset_tokens && t.tokens_per_s > 0) {
    t.seconds = *q.dataset_tokens / t.tokens_per_s;
    t.gpu_hours = *t.seconds * std::max(1.0, q.gpus) / 3600;
  }
  // With recomputation the hardware runs 8 x N FLOPs per token where the model counts 6 x N
  // (llm-foundry reports both).
  const double peak = peak_tflops(q.device, q.compute) * 1e12;
  t.mfu = peak > 0 ? t.tflops_per_gpu * 1e12 / peak : 0;
  t.hfu = q.full_recompute ? t.mfu * (passes + 2) / passes : t.mfu;
  if (q.explain) t.basis = training_basis(k, q, t, slow_flops, comm_per_token);
  return t;
}

void take_training_recipe(const MemoryConstants& mk, const MemoryQuestion& mq,
                          double trainable_parameters, ThroughputQuestion& q) {
  q.adapters = mq.mode == TrainMode::kLora || mq.mode == TrainMode::kQlora;
  q.full_recompute = mq.gradient_checkpointing;
  q.eager_attention = mq.attention == "eager";
  q.eager_layers = mq.engine == "transformers";
  q.optimizer = mq.optimizer;
  const double ranks = std::max(1.0, mq.tensor_parallel) * std::max(1.0, mq.pipeline_parallel);
  q.step_tokens = mq.batch * mq.sequence / ranks;
  const bool sharded = mq.sharding != "none" && !mq.sharding.empty();
  q.optimizer_shards = sharded ? std::max(1.0, mq.gpus / ranks) : 1;
  q.fp32_optimizer = mq.master_weights || mq.compute == "fp32" || mq.weight_format == "fp32";
  q.autocast_weights = mq.weight_format == "fp32" && mq.compute != "fp32";
  // The adapters' dtype as the memory model holds them: peft's fp32, or the model's where the
  // engine builds them so or sharded data parallelism casts the whole model to one dtype.
  const double rank = mq.lora_rank > 0 ? mq.lora_rank : mk.lora_default_rank;
  q.adapter_features = q.adapters && rank > 0 ? trainable_parameters / rank : 0;
  const auto engine = mk.engines.find(mq.engine);
  const bool model_dtype =
      sharded || (engine != mk.engines.end() && engine->second.adapters_in_model_dtype);
  q.adapter_bytes = model_dtype && q.compute != "fp32" ? 2 : 4;
}

}  // namespace gpufleet
