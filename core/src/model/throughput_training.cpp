// Training tokens/s: model FLOPs at the GPU's measured matmul share, attention at its own rate,
// the loss's memory traffic and the tensor-parallel all-reduces.
#include <algorithm>
#include <cmath>
#include <optional>

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
// kernels or where the table has no figure.
double attention_share(const ThroughputConstants& k, const ThroughputQuestion& q) {
  if (q.fused_attention) return 1;
  const double share = by_gpu(k.training_attention, q.device.name).value_or(1);
  return share > 0 ? share : 1;
}

// The loss over the vocabulary, per token: the output layer writes the token's logits, the loss
// reads them, and its backward reads them again and writes their gradient (flash-attn's fused
// cross-entropy; an unfused one moves more). A stream of reads and writes at the GPU's measured
// Triad share, outside the matmul FLOPs, and as long whatever the model's width: it weighs on
// small models. Logits are 16-bit under mixed precision (FP8 leaves the output layer in 16 bits).
double loss_s_per_token(const ThroughputConstants& k, const ThroughputQuestion& q) {
  if (k.loss_logit_accesses <= 0 || output_params(q.arch, q.params) <= 0) return 0;
  const auto& table = k.bandwidth_efficiency;
  auto share = table.find(q.device.name + " triad");
  if (share == table.end()) share = table.find("default triad");
  const double bw = q.device.bandwidth_gb_per_s * 1e9 * (share == table.end() ? 1 : share->second);
  const double bytes = q.arch.vocab * k.loss_logit_accesses * (q.compute == "fp32" ? 4 : 2);
  return bw > 0 ? bytes / bw : 0;
}

}  // namespace

TrainingEstimate estimate_training(const ThroughputConstants& k, const ThroughputQuestion& q) {
  TrainingEstimate t;
  const Architecture& a = q.arch;
  // Forward + backward: 6 FLOPs per matmul parameter per token, and 12 x layers x width x
  // sequence for attention (Narayanan et al. 2021; causal kernels skip half of it, which the
  // attention's rate absorbs, as in the MFU figures it is measured with).
  const double matmuls = 6 * matmul_params(a, q.params);
  t.attention_flops_per_token = 12 * (a.layers + a.encoder_layers) * query_width(a) * q.sequence;
  const double per_token = matmuls + t.attention_flops_per_token;
  // MFU counts model FLOPs only: recomputed activations raise the hardware's work, not the
  // model FLOPs a token needs, and published MFU figures of checkpointed runs are the same.
  t.flops_per_token = per_token;
  t.matmul_mfu = by_gpu(k.training_mfu, q.device.name).value_or(0.4);
  t.attention_share = attention_share(k, q);
  const double peak = peak_tflops(q.device, q.compute) * 1e12;
  // FP8 training (Transformer Engine) runs only the GEMMs of its Linear layers in FP8: dot-product
  // attention stays in 16 bits (the recipes' fp8_dpa defaults to False) and so does the output
  // layer, Megatron-core's own ColumnParallelLinear rather than a TE module. Those FLOPs run at
  // the 16-bit peak.
  const double wide = peak_tflops(q.device, "bf16") * 1e12;
  const bool fp8 = q.compute == "fp8" && wide > 0 && wide < peak;
  const double output = fp8 ? std::min(matmuls, 6 * output_params(a, q.params)) : 0;
  const double slow_flops = fp8 ? output + t.attention_flops_per_token : 0;
  // Attention at its own rate: a share of the matmuls' on GPUs whose attention kernels reach less
  // of the peak than their GEMMs.
  const double attention_peak = (fp8 ? wide : peak) * t.attention_share;
  const double seconds = peak > 0 && attention_peak > 0
                             ? (matmuls - output) / peak + output / (output > 0 ? wide : 1) +
                                   t.attention_flops_per_token / attention_peak
                             : 0;
  // Tensor parallelism: each layer's two all-reduces in the forward pass and two in the backward
  // (Megatron-LM's f and g operators, Shoeybi et al. 2019; sequence parallelism's reduce-scatter +
  // all-gather moves as much), two more when full recomputation runs the forward again, each over
  // one sequence's activations in 16 bits. They run between the layer's matmuls, not under them:
  // every GPU of the group waits for them.
  const double tp = std::max(1.0, q.tensor_parallel);
  double comm_per_token = 0;
  if (tp > 1 && q.sequence > 0) {
    const double collectives = (q.full_recompute ? 6 : 4) * (a.layers + a.encoder_layers);
    comm_per_token =
        collectives * allreduce_s(k, q.device, tp, q.sequence * a.hidden * 2) / q.sequence;
  }
  t.loss_s_per_token = loss_s_per_token(k, q);
  const double gpu_s_per_token =
      seconds > 0 && t.matmul_mfu > 0
          ? seconds / t.matmul_mfu + tp * comm_per_token + t.loss_s_per_token
          : 0;
  t.tokens_per_s_per_gpu = gpu_s_per_token > 0 ? 1 / gpu_s_per_token : 0;
  t.tflops_per_gpu = t.tokens_per_s_per_gpu * per_token / 1e12;
  t.tokens_per_s = t.tokens_per_s_per_gpu * std::max(1.0, q.gpus);
  if (q.dataset_tokens && t.tokens_per_s > 0) {
    t.seconds = *q.dataset_tokens / t.tokens_per_s;
    t.gpu_hours = *t.seconds * std::max(1.0, q.gpus) / 3600;
  }
  // Full recomputation runs the forward twice: 8 x N FLOPs per token on the hardware, the same
  // tokens/s at a hardware utilisation 8/6 of the MFU (llm-foundry reports both).
  t.mfu = peak > 0 ? t.tflops_per_gpu * 1e12 / peak : 0;
  t.hfu = q.full_recompute ? t.mfu * 8 / 6 : t.mfu;
  t.basis =
      num(t.flops_per_token / 1e9) + " GFLOP per token (6 x " +
      num(matmul_params(a, q.params) / 1e9) + " B parameters + attention) at " +
      num(round(t.mfu * 1000) / 10) + " % MFU of " + num(peak / 1e12) +
      " TFLOPS per GPU, the matmuls at " + num(t.matmul_mfu * 100) + " %" +
      (slow_flops > 0 ? " (" + num(slow_flops / 1e9) + " GFLOP of attention and output layer at " +
                            num(wide / 1e12) + " TFLOPS: FP8 runs the other matmuls only)"
                      : "") +
      (t.attention_share < 1
           ? "; attention's " + num(t.attention_flops_per_token / 1e9) + " GFLOP at " +
                 num(t.attention_share * 100) +
                 " % of the matmuls' rate (its kernels reach less of this GPU's peak)"
           : "") +
      (q.full_recompute ? "; with full recomputation the GPUs run 8 x N FLOPs per token, " +
                              num(round(t.hfu * 1000) / 10) + " % hardware utilisation"
                        : "") +
      (t.loss_s_per_token > 0
           ? "; + " + num(t.loss_s_per_token * 1e6) + " us per token for the loss over " +
                 num(q.arch.vocab) + " logits, each written or read " + num(k.loss_logit_accesses) +
                 " times"
           : "") +
      (comm_per_token > 0 ? "; + " + num(q.full_recompute ? 6 : 4) +
                                " tensor-parallel all-reduces per layer over " + num(tp) +
                                " GPUs: " + num(comm_per_token * 1e6) + " us per token"
                          : "");
  return t;
}

}  // namespace gpufleet
