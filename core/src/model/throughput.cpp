#include "model/throughput.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

#include "model/throughput_parts.hpp"
#include "support/text.hpp"

namespace gpufleet {
namespace {

using namespace throughput_parts;

// Decode FLOPs of attention per cached token a step's query attends to (all heads, one layer).
// MLA decodes in its absorbed form (DeepSeek-V2 paper section 2.1.2; SGLang's and vLLM's MLA decode
// kernels): each head scores its query against the kv_lora_rank-wide latent plus the rope key and
// sums the latent back, 2 (rank + rope) + 2 rank FLOPs per head; other attention 4 x head width.
double decode_attention_flops(const Architecture& a) {
  return a.mla() ? a.heads * (4 * a.kv_lora_rank + 2 * a.qk_rope_head_dim) : 4 * query_width(a);
}

// The GPUs a tensor-parallel group divides the KV cache over: whole KV heads per GPU, replicated
// when there are fewer heads than GPUs; MLA's latent is shared by every head, so each GPU keeps
// (and each decode step reads) all of it (as the memory model sizes it).
double kv_split(const Architecture& a, double tp) {
  return a.mla() ? 1 : std::min(tp, std::max(1.0, a.kv_heads));
}

// Cached tokens a decode step attends to at `context` tokens, averaged over the layers: a
// sliding-window layer attends to (and reads the KV of) its last `sliding_window` tokens only
// (FlashAttention's and the engines' window kernels), whatever the cache keeps. A chunked layer's
// token at position p attends to the p mod chunk tokens before it in its chunk: averaged over the
// decode steps from context - span / 2 to context + span / 2 (exact at one position for span 0).
double attended_tokens(const Architecture& a, double context, double span = 0) {
  if (a.sliding_window <= 0) return context;
  const double s = a.sliding_layer_share, w = a.sliding_window;
  if (!a.chunked_attention) return (1 - s) * context + s * std::min(context, w);
  // The integral of p mod w from 0 to x.
  const auto integral = [w](double x) {
    const double q = std::floor(x / w), r = x - q * w;
    return q * w * w / 2 + r * r / 2;
  };
  const double lo = std::max(0.0, context - span / 2), hi = context + span / 2;
  const double mean =
      hi > lo ? (integral(hi) - integral(lo)) / (hi - lo) : context - std::floor(context / w) * w;
  return (1 - s) * context + s * mean;
}

// What a question looks up in the constants, once: its engine, its platform's time per layer of
// each step, the device's peak for its precision and its measured shares of peak.
struct Lookups {
  const InferenceEngine* engine = nullptr;  // when the catalog knows it
  double layer_us = 0;                      // 0 where the table names none
  double us_per_kernel = 0;                 // an eager engine's host time per launch on this GPU
  double kernels_per_layer = 0;             // its launches per layer for this model and attention
  double graph_build_s = 0;                 // its cuDNN attention graph, built once per pass
  double peak_flops = 0;                    // dense, one GPU
  double bandwidth_share = 1;               // relative_share of memory streams
  double matmul_share = 1;                  // relative_share of best-shape matmuls
  // Sized matmul rows (see relative_share_at): the GPU's own, the default's, and the default's
  // best-shape share they are taken over.
  const std::vector<std::pair<double, double>>* own_sized = nullptr;
  const std::vector<std::pair<double, double>>* default_sized = nullptr;
  double default_best = 0;
};

// A GPU's measured share of its peak over that of the GPUs the efficiencies were calibrated on
// (1 where the table has no figure for it).
double relative_share(const std::map<std::string, double>& table, const std::string& gpu,
                      const std::string& suffix) {
  auto own = table.find(gpu + suffix), base = table.find("default" + suffix);
  if (own == table.end() || base == table.end() || own->second <= 0 || base->second <= 0) return 1;
  return own->second / base->second;
}

// Kernels one layer of an eager engine launches: counted for the model type with the question's
// attention implementation, else for the implementation, else the engine's default count.
double eager_kernels_per_layer(const InferenceEngine& e, const ThroughputQuestion& q) {
  for (const std::string& key : {q.arch.model_type + " " + q.attention, q.attention}) {
    if (auto it = e.kernels_per_layer_by.find(key); it != e.kernels_per_layer_by.end())
      return it->second;
  }
  return e.kernels_per_layer;
}

// PyTorch's SDPA takes cuDNN attention first on some GPUs, for 16-bit inputs; a pass whose shapes
// the process has not run builds cuDNN's graph on the host first.
double cudnn_graph_build_s(const InferenceEngine& e, const ThroughputQuestion& q) {
  const auto& g = e.cudnn_graph;
  const auto& on = g.preferred_on;
  if (!q.new_attention_shapes || q.attention != "sdpa" || q.compute == "fp32" ||
      q.compute == "tf32" ||
      std::find(on.begin(), on.end(), q.device.compute_capability) == on.end())
    return 0;
  return g.build_ms * 1e-3;
}

Lookups look_up(const ThroughputConstants& k, const ThroughputQuestion& q) {
  Lookups l;
  if (auto it = k.engines.find(q.engine); it != k.engines.end()) l.engine = &it->second;
  if (auto it = k.layer_overhead_us.find(q.device.vendor); it != k.layer_overhead_us.end()) l.layer_us = it->second;
  if (l.engine) {
    l.us_per_kernel = l.engine->us_per_kernel;
    l.kernels_per_layer = eager_kernels_per_layer(*l.engine, q);
    l.graph_build_s = cudnn_graph_build_s(*l.engine, q);
  }
  if (auto it = k.eager_us_per_kernel.find(q.device.name); it != k.eager_us_per_kernel.end())
    l.us_per_kernel = it->second;
  l.peak_flops = peak_tflops(q.device, q.compute) * 1e12;
  l.bandwidth_share = relative_share(k.bandwidth_efficiency, q.device.name, "");
  const std::string suffix = q.compute == "fp8" ? " fp8" : "";
  l.matmul_share = relative_share(k.matmul_efficiency, q.device.name, suffix);
  auto sized = [&](const std::string& key) {
    auto it = k.matmul_by_size.find(key);
    return it == k.matmul_by_size.end() || it->second.empty() ? nullptr : &it->second;
  };
  l.own_sized = sized(q.device.name + suffix);
  l.default_sized = sized("default" + suffix);
  if (auto it = k.matmul_efficiency.find("default" + suffix); it != k.matmul_efficiency.end()) l.default_best = it->second;
  return l;
}

// What an MLA + mixture-of-experts model's layers add to a decode step whatever they read: each
// runs a chain of tens of small kernels one after another (norms, activation quantization before
// each FP8 matmul, the latent projections, the absorbed attention's batched matmuls and decode
// kernel, the router and its grouped top-k, token sorting, the fused-MoE GEMMs, the shared expert,
// two all-reduces), microseconds each at small batches, on top of the bytes the step streams.
double mla_moe_chain_s(const Lookups& l, const ThroughputQuestion& q) {
  const InferenceEngine* e = l.engine;
  if (!e || e->mla_moe_layer_us <= 0 || !q.arch.mla() || !q.arch.moe()) return 0;
  return q.arch.layers * e->mla_moe_layer_us * 1e-6;
}

// Time per step that the device's streams and matmuls do not cover: the engine's host work per
// step, and the per-layer time of platforms that dispatch or synchronise every layer.
// Multi-step scheduling (vLLM's num_scheduler_steps) runs that many decode steps per host step;
// a prompt pass is scheduled on its own.
double step_overhead_s(const Lookups& l, const ThroughputQuestion& q, bool decode) {
#if GPUFLEET_ACCURACY  // vLLM's multi-step scheduling: the harness's cases only
  const double steps = decode ? std::max(1.0, q.scheduler_steps) : 1;
#else
  const double steps = 1;
#endif
  return (l.engine ? l.engine->step_overhead_ms * 1e-3 / steps : 0) +
         q.arch.layers * l.layer_us * 1e-6 + (decode ? mla_moe_chain_s(l, q) : 0);
}

// A GPU's measured share of peak at square GEMMs of the size of a layer's matmuls ("<GPU> fp8
// n=2048": m = n = k = 2048; interpolated in log size, held at the ends of the table) over the
// default's best-shape share, the one the efficiencies are calibrated at. A GPU without sized
// rows follows the default's rows scaled by its best-shape ratio; with no default rows (16-bit),
// the best-shape ratio alone.
double relative_share_at(const Lookups& l, double log_side) {
  auto at = [&](const std::vector<std::pair<double, double>>* points) {
    if (!points) return 0.0;
    if (log_side <= points->front().first) return points->front().second;
    for (std::size_t i = 1; i < points->size(); ++i) {
      if (log_side <= (*points)[i].first) {
        const auto& [x0, y0] = (*points)[i - 1];
        const auto& [x1, y1] = (*points)[i];
        return y0 + (y1 - y0) * (log_side - x0) / (x1 - x0);
      }
    }
    return points->back().second;
  };
  const double base = at(l.default_sized);
  if (base <= 0 || l.default_best <= 0) return l.matmul_share;
  const double own = at(l.own_sized);
  return own > 0 ? own / l.default_best : l.matmul_share * base / l.default_best;
}

// Log of the side of the square GEMM with as many FLOPs as one of a layer's matmuls on one GPU:
// `rows` input rows through a quarter of its linear weights (a transformer layer runs four: the
// attention's input and output projections, the MLP's input and output), sharded tp ways.
double log_gemm_side(const ThroughputQuestion& q, double rows, double tp) {
  const double layers = std::max(1.0, q.arch.layers + q.arch.encoder_layers);
  const double per_matrix = matmul_params(q.arch, q.params) / layers / 4 / tp;
  return std::log(std::max(1.0, rows) * std::max(1.0, per_matrix)) / 3;
}

// Dense matmul FLOPS the engine's GEMMs reach at most for `rows` input rows: the precision's peak x
// tensor-parallel GPUs, scaled by the GPU's measured share of peak (its matmul library's achievable
// FLOPS, at the GEMMs' size where the tables give sizes).
double matmul_peak(const Lookups& l, const ThroughputQuestion& q, double tp, double rows) {
  return l.peak_flops * tp * relative_share_at(l, log_gemm_side(q, rows, tp));
}

// Memory bandwidth of the tensor-parallel GPUs, scaled by the GPU's measured share of its peak.
double stream_bandwidth(const Lookups& l, const ThroughputQuestion& q, double tp) {
  return q.device.bandwidth_gb_per_s * 1e9 * tp * l.bandwidth_share;
}

// The least time the engine's weight-only kernel takes for `rows` input rows: it dequantizes every
// linear weight again for each tile of rows (0 when the engine has no such kernel for the format).
double tiled_gemm_s(const Lookups& l, const ThroughputQuestion& q, double rows) {
  const InferenceEngine* e = l.engine;
  if (!e || e->tile_rows <= 0 || e->tile_weights_per_s <= 0 || e->tiled_format != q.weight_format) return 0;
  const double tp = std::max(1.0, q.tensor_parallel);
  return q.params.linear / tp * std::ceil(rows / e->tile_rows) / e->tile_weights_per_s;
}

// Weight bytes one decode step reads for `batch` sequences: all of a dense model; of a mixture of
// experts, the shared weights and the routed experts its tokens touch: with uniform routing of k
// experts among E, a layer's tokens touch E (1 - (1 - k/E)^batch) of them (k at batch 1, nearly
// all from a few dozen sequences). Expert bytes are taken in proportion to their parameters.
double decode_weight_bytes(const ThroughputQuestion& q, double batch) {
  const Architecture& a = q.arch;
  if (!a.moe() || q.params.total <= 0) return q.weight_bytes;
  const double routed = q.weight_bytes * q.params.expert_linear / q.params.total;
  // (1 - k/E)^batch by squaring, batch a whole count of sequences (std::pow would bring 6 KB of
  // tables into the WebAssembly core).
  double untouched = 1, factor = 1 - std::min(1.0, a.experts_per_token / a.experts);
  for (auto n = static_cast<long long>(std::max(1.0, std::round(batch))); n > 0; n >>= 1) {
    if (n & 1) untouched *= factor;
    factor *= factor;
  }
  return q.weight_bytes - routed * untouched;
}

// An engine whose decode attention runs one thread block per sequence and query head over the
// whole context (FasterTransformer's masked multi-head attention: grid = heads x batch, no split
// of the context) cannot finish a layer's attention before one block has streamed its head's keys
// and values: a step's attention takes at least every layer's per-head bytes at one block's rate.
double head_block_s(const Lookups& l, const ThroughputQuestion& q, double attended) {
  const InferenceEngine* e = l.engine;
  if (!e || e->head_block_gb_per_s <= 0 || !(q.arch.kv_heads > 0)) return 0;
  return attended * q.kv_bytes_per_token / q.arch.kv_heads / (e->head_block_gb_per_s * 1e9);
}

std::string head_block_note(const Lookups& l, double block_s) {
  if (block_s <= 0) return "";
  return "; " + l.engine->name + "'s attention streams each head's cache in one thread block at " +
         num(l.engine->head_block_gb_per_s) + " GB/s: at least " + num(block_s * 1e3) + " ms";
}

// What one pipeline boundary sends for `tokens`: the hidden-size tensors of each token.
double pipeline_bytes(const ThroughputConstants& k, const ThroughputQuestion& q, double tokens) {
  return tokens * q.arch.hidden * k.pipeline_activation_tensors * k.pipeline_activation_bytes;
}

// Pipeline stages on several instances (vLLM's pipeline parallelism across nodes): a pass of
// `tokens` sends each boundary's activations (hidden-size tensors per token) over the network at
// its bandwidth, and every hop of the ring pays one message's latency, the last the sampled
// tokens back to the first stage. 0 without stages or a known network.
double pipeline_link_s(const ThroughputConstants& k, const ThroughputQuestion& q, double tokens) {
  const double pp = q.pipeline_parallel;
  if (pp <= 1 || q.network_gbit_per_s <= 0) return 0;
  return pp * q.network_latency_us * 1e-6 +
         (pp - 1) * pipeline_bytes(k, q, tokens) * 8 / (q.network_gbit_per_s * 1e9);
}

void add_pipeline_link(const ThroughputConstants& k, const ThroughputQuestion& q, double tokens,
                       Phase& ph) {
  ph.pipeline_link_s = pipeline_link_s(k, q, tokens);
  ph.comm_s += ph.pipeline_link_s;
  ph.seconds += ph.pipeline_link_s;
}

std::string pipeline_note(const ThroughputConstants& k, const ThroughputQuestion& q, double tokens,
                          const Phase& ph) {
  if (ph.pipeline_link_s <= 0) return "";
  return "; + " + num(ph.pipeline_link_s * 1e3) + " ms between " + num(q.pipeline_parallel) +
         " pipeline stages: " + num(q.pipeline_parallel - 1) + " x " +
         num(pipeline_bytes(k, q, tokens) / 1e6) + " MB of activations at " +
         num(q.network_gbit_per_s) + " Gbit/s, " + num(q.pipeline_parallel) + " x " +
         num(q.network_latency_us) + " us per message";
}

// A decode step runs its kernels one after another: the matmuls stream the weights (compute-bound
// once the batch is large), then attention streams each sequence's KV cache (memory-bound at any
// batch: a cached token's K and V are used by its own sequence only). Each kernel class takes the
// longer of its compute and memory times and the step is their sum, the per-operator roofline of
// LLM-Viewer (Yuan et al. 2024, "LLM Inference Unveiled: Survey and Roofline Model Insights",
// arXiv:2402.16363): one roofline over the whole step would hide the KV reads behind the matmuls.
// `gemm_floor_s`, `attn_floor_s`: the least time the matmuls' and the attention's kernels take
// whatever the roofline says.
Phase decode_roofline(double gemm_flops, double weight_bytes, double attn_flops, double kv_bytes,
                      double peak_flops, double bandwidth, double comm_s, double gemm_floor_s = 0,
                      double attn_floor_s = 0) {
  Phase ph;
  const double gemm_c = std::max(peak_flops > 0 ? gemm_flops / peak_flops : 0, gemm_floor_s);
  const double attn_c = peak_flops > 0 ? attn_flops / peak_flops : 0;
  const double gemm_m = bandwidth > 0 ? weight_bytes / bandwidth : 0;
  const double attn_m = std::max(bandwidth > 0 ? kv_bytes / bandwidth : 0, attn_floor_s);
  ph.compute_s = gemm_c + attn_c;
  ph.memory_s = gemm_m + attn_m;
  ph.comm_s = comm_s;
  const double compute_bound = (gemm_c > gemm_m ? gemm_c : 0) + (attn_c > attn_m ? attn_c : 0);
  const double memory_bound = (gemm_c > gemm_m ? 0 : gemm_m) + (attn_c > attn_m ? 0 : attn_m);
  ph.seconds = compute_bound + memory_bound + comm_s;
  ph.bound = comm_s > compute_bound + memory_bound ? "interconnect"
             : compute_bound >= memory_bound        ? "compute"
                                                    : "memory bandwidth";
  return ph;
}

Phase roofline(double flops, double peak_flops, double bytes, double bandwidth, double comm_s) {
  Phase ph;
  ph.compute_s = peak_flops > 0 ? flops / peak_flops : 0;
  ph.memory_s = bandwidth > 0 ? bytes / bandwidth : 0;
  ph.comm_s = comm_s;
  ph.seconds = std::max(ph.compute_s, ph.memory_s) + comm_s;
  ph.bound = comm_s > std::max(ph.compute_s, ph.memory_s) ? "interconnect"
             : ph.compute_s >= ph.memory_s                ? "compute"
                                                          : "memory bandwidth";
  return ph;
}

// A weight-only kernel slower than the pass's matmuls at the roofline (`gemm_s`) sets their time
// instead; returns the kernel's time (0 when there is none).
double with_tiled_gemm(Phase& ph, double tiled_s, double gemm_s) {
  if (tiled_s <= gemm_s) return 0;
  const double before = ph.seconds - ph.comm_s;
  ph.compute_s += tiled_s - gemm_s;
  if (ph.compute_s > before) {
    ph.seconds = ph.compute_s + ph.comm_s;
    ph.bound = ph.comm_s > ph.compute_s ? "interconnect" : "compute";
  }
  return tiled_s;
}

// Eager attention over a prompt of `n` tokens for `batch` sequences: every layer materialises each
// query head's full n x n scores (the causal mask is added to them, not skipped) and its kernel
// chain moves the engine's eager_score_bytes per score at the streams' `bandwidth`, after the
// matmuls. Returns that time (0: not eager attention).
// Adds `s` seconds of memory traffic to a phase (after its roofline), naming memory its bound
// once the traffic outweighs the matmuls.
double with_memory_pass(double s, Phase& ph) {
  ph.memory_s += s;
  ph.seconds += s;
  if (ph.memory_s > ph.compute_s && ph.bound == "compute") ph.bound = "memory bandwidth";
  return s;
}
double with_eager_scores(const Lookups& l, const ThroughputQuestion& q, double batch, double n,
                         double bandwidth, Phase& ph) {
  const InferenceEngine* e = l.engine;
  if (!e || e->eager_score_bytes <= 0 || q.attention != "eager" || bandwidth <= 0) return 0;
  return with_memory_pass(
      q.arch.layers * batch * q.arch.heads * n * n * e->eager_score_bytes / bandwidth, ph);
}

// An eager engine's elementwise kernels over `tokens` tokens of a Llama-form decoder (RMSNorm,
// rotary positions, a gated MLP; dense): each reads and writes its tensors in full, at the
// streams' `bandwidth`, beside the matmuls. Counted for 16-bit compute only (fp32 skips the
// norms' casts). Returns that time (0: none counted).
double with_eager_activations(const Lookups& l, const ThroughputQuestion& q, double tokens,
                              double bandwidth, Phase& ph) {
  const InferenceEngine* e = l.engine;
  const Architecture& a = q.arch;
  if (!e || e->eager_activation_bytes.hidden <= 0 || bandwidth <= 0 || q.compute == "fp32")
    return 0;
  if (a.kind != ArchKind::kDecoder || !a.gated_mlp || a.layer_norm_bias ||
      a.position_embeddings > 0 || a.moe() || a.mla())
    return 0;
  const InferenceEngine::ActivationBytes& b = e->eager_activation_bytes;
  const double query = a.heads * a.head_dim, kv = a.kv_heads * a.head_dim;
  const double per_token = b.hidden * a.hidden + b.query * query + b.kv * kv +
                           b.intermediate * a.intermediate +
                           (a.qk_norm() ? b.qk_norm * (query + kv) : 0);
  return with_memory_pass(tokens * a.layers * per_token / bandwidth, ph);
}

// A prompt pass's eager traffic beside its matmuls: attention scores and elementwise kernels.
struct EagerTraffic {
  double scores_s = 0, activations_s = 0;
};

EagerTraffic with_eager_traffic(const Lookups& l, const ThroughputQuestion& q, double batch,
                                double n, double bandwidth, Phase& ph) {
  return {with_eager_scores(l, q, batch, n, bandwidth, ph),
          with_eager_activations(l, q, batch * n, bandwidth, ph)};
}

std::string eager_activations_note(double tokens, double s) {
  if (s <= 0) return "";
  return "; its elementwise kernels read and write " + num(tokens) +
         " tokens' activations in every layer: + " + num(s * 1e3) + " ms";
}

std::string eager_scores_note(const Lookups& l, const ThroughputQuestion& q, double n, double s) {
  if (s <= 0) return "";
  return "; eager attention writes " + num(q.arch.heads) + " heads x " + num(n) + " x " + num(n) +
         " scores per sequence and layer and moves " + num(l.engine->eager_score_bytes) +
         " bytes per score through its kernels: + " + num(s * 1e3) + " ms";
}

std::string tiled_note(const Lookups& l, const ThroughputQuestion& q, double tiled_s) {
  const InferenceEngine* e = l.engine;
  if (!e || tiled_s <= 0) return "";
  return "; " + e->name + "'s " + q.weight_format + " kernel dequantizes the weights again for every " +
         num(e->tile_rows) + " rows: at least " + num(tiled_s * 1e3) + " ms for its matmuls";
}

// An eager engine's forward pass: the device cannot finish before the host has launched its last
// kernel, and the loop's own per-step work (after a device-to-host sync for the sampled token and
// the stopping criteria) runs while the device waits. Returns the launch time (0: not eager).
double with_eager_host(const Lookups& l, const ThroughputQuestion& q, Phase& ph) {
  const InferenceEngine* e = l.engine;
  if (!e || l.kernels_per_layer <= 0) return 0;
  const double us = l.us_per_kernel * 1e-6;
  const double launch = (q.arch.layers + q.arch.encoder_layers) * l.kernels_per_layer * us;
  if (launch > ph.seconds) {
    ph.seconds = launch;
    ph.bound = "host (kernel launches)";
  }
  // The build stalls the host before the first layer's attention, with the device's queue short.
  ph.seconds += e->kernels_per_step * us + l.graph_build_s;
  return launch;
}

std::string eager_note(const Lookups& l, double launch) {
  const InferenceEngine* e = l.engine;
  if (!e || launch <= 0) return "";
  std::string note = "; " + e->name + " launches " + num(l.kernels_per_layer) +
                     " kernels per layer and " + num(e->kernels_per_step) +
                     " per step from the host at " + num(l.us_per_kernel) + " us each (" +
                     num(e->us_per_kernel_low) + "-" + num(e->us_per_kernel_high) +
                     " us by host CPU): the pass takes at least " + num(launch * 1e3) + " ms";
  if (l.graph_build_s > 0)
    note += "; + " + num(l.graph_build_s * 1e3) +
            " ms to build cuDNN attention's graph for shapes new to the process, as every decode "
            "step's are (TORCH_CUDNN_SDPA_DEPRIORITIZED=1 avoids it)";
  return note;
}

std::string host_note(const Lookups& l, const ThroughputQuestion& q, bool decode) {
  const InferenceEngine* e = l.engine;
#if GPUFLEET_ACCURACY  // vLLM's multi-step scheduling: the harness's cases only
  const double steps = decode ? std::max(1.0, q.scheduler_steps) : 1;
#else
  const double steps = 1;
#endif
  std::string note;
  if (e && e->step_overhead_ms > 0)
    note += "; + " + num(e->step_overhead_ms / steps) + " ms of " + e->name + " host work per step" +
            (steps > 1 ? " (once per " + num(steps) + " steps)" : "");
  if (const double us = l.layer_us; us > 0)
    note += "; + " + num(us) + " us per layer per step on " + q.device.vendor + " devices";
  if (const double chain = decode ? mla_moe_chain_s(l, q) : 0; chain > 0)
    note += "; + " + num(chain * 1e3) + " ms of " + e->name + "'s MLA + MoE kernel chain (" +
            num(e->mla_moe_layer_us) + " us per layer x " + num(q.arch.layers) + " layers)";
  return note;
}

// Where the GPU's measured shares of peak scale the calibrated efficiencies, say by how much.
// `peak`: the matmul FLOPS the pass reaches at most (matmul_peak), `tp` its GPUs.
std::string share_note(const Lookups& l, const ThroughputQuestion& q, double peak, double tp) {
  const double full = l.peak_flops * tp;
  const double flops = full > 0 ? peak / full : 1;
  const double bytes = l.bandwidth_share;
  if (flops == 1 && bytes == 1) return "";
  return "; " + q.device.name + " peaks x" + num(flops) + " (FLOPS) and x" + num(bytes) +
         " (bandwidth): its measured share of peak over the calibration GPUs'";
}

// One stream's decode step at `context` tokens (the public single_stream_decode, with the
// question's lookups done).
Phase single_stream_decode(const Lookups& l, const ThroughputConstants& k, const ThroughputQuestion& q,
                           double context) {
  const Architecture& a = q.arch;
  const double tp = std::max(1.0, q.tensor_parallel);
  const double peak = matmul_peak(l, q, tp, 1);
  const double bw = stream_bandwidth(l, q, tp);
  const double eff = tp > 1 ? k.decode_bandwidth_efficiency_multi : k.decode_bandwidth_efficiency;
  Phase ph = decode_roofline(
      2 * matmul_params(a, q.params), decode_weight_bytes(q, 1),
      a.layers * decode_attention_flops(a) * attended_tokens(a, context),
      attended_tokens(a, context) * q.kv_bytes_per_token * tp / kv_split(a, tp),
      peak * k.decode_mfu, bw * eff, 2 * a.layers * allreduce_s(k, q.device, tp, a.hidden * 2),
      tiled_gemm_s(l, q, 1), head_block_s(l, q, attended_tokens(a, context)));
  with_eager_activations(l, q, 1, bw * eff, ph);
  ph.seconds += step_overhead_s(l, q, true);
  with_eager_host(l, q, ph);
  add_pipeline_link(k, q, 1, ph);
  return ph;
}

// Pipeline stages each run one micro-batch (`batch`) at a time and the network carries each
// boundary's sends one after another, so a micro-batch's next token comes at most once per
// pp x the slowest of them: the stages share the compute evenly, a boundary's link is busy for
// its bytes (latency overlaps). Per output token; 0 without stages.
double slowest_stage_s(const ThroughputConstants& k, const ThroughputQuestion& q,
                       const InferenceEstimate& e, double batch, double out) {
  const double pp = q.pipeline_parallel;
  if (pp <= 1 || q.network_gbit_per_s <= 0) return 0;
  const double links = e.prefill.pipeline_link_s + out * e.decode.pipeline_link_s;
  const double stage = (e.prefill.seconds + out * e.decode.seconds - links) / pp;
  const double boundary = (pipeline_bytes(k, q, batch * std::max(1.0, q.input_tokens)) +
                           out * pipeline_bytes(k, q, batch)) *
                          8 / (q.network_gbit_per_s * 1e9);
  return pp * std::max(stage, boundary) / out;
}

}  // namespace

double serving_max_batch(const ThroughputConstants& k, const std::string& engine) {
  auto it = k.engines.find(engine);
  return it != k.engines.end() && it->second.max_batch > 0 ? it->second.max_batch : k.serving_max_batch;
}

InferenceEstimate estimate_inference(const ThroughputConstants& k, const ThroughputQuestion& q) {
  InferenceEstimate e;
  const Architecture& a = q.arch;
  const double tp = std::max(1.0, q.tensor_parallel);
  const double q_dim = query_width(a);
  const Lookups l = look_up(k, q);
  const double bw = stream_bandwidth(l, q, tp);
  const double weights = q.weight_bytes;
  const double n = std::max(1.0, q.input_tokens), out = std::max(1.0, q.output_tokens);

  // Batch: as given, or as many sequences as the KV-cache pool holds at full length. The pool is
  // a share of the device less the weights (vLLM's gpu_memory_utilization), or a share of what the
  // weights leave free (TensorRT-LLM's kv_cache_free_gpu_mem_fraction).
  const InferenceEngine* engine = l.engine;
  const double memory = q.device.memory_bytes * tp;
  const double pool = !engine || !engine->has_pool ? memory * k.serving_kv_fraction - weights
                      : engine->kv_of_free_memory  ? (memory - weights) * engine->kv_fraction
                                                   : memory * engine->kv_fraction - weights;
  const double host = step_overhead_s(l, q, false);
  const double per_seq = q.kv_bytes_per_token * (n + out);
  e.max_batch_by_kv = q.kv_sequences ? *q.kv_sequences : per_seq > 0 ? std::max(0.0, std::floor(pool / per_seq)) : 0;
  double batch = q.batch;
  if (batch <= 0) batch = std::max(1.0, std::min(serving_max_batch(k, q.engine), e.max_batch_by_kv));
  e.batch = batch;

  const double layers = a.layers;
  const double comm_bytes_per_token = a.hidden * 2;  // 16-bit activations
  // Prefill: every prompt token through every matmul, causal attention over the prompt.
  {
    const double tokens = batch * n;
    const double peak = matmul_peak(l, q, tp, tokens);
    const double flops = 2 * matmul_params(a, q.params) * tokens + 2 * layers * q_dim * n * n * batch;
    // GEMM efficiency follows the rows of the pass: every prompt token of the batch.
    const double mfu = tokens >= k.long_prompt_tokens ? k.prefill_mfu_long : k.prefill_mfu_short;
    const double comm = 2 * layers * allreduce_s(k, q.device, tp, tokens * comm_bytes_per_token);
    e.prefill = roofline(flops, peak * mfu, weights, bw * k.decode_bandwidth_efficiency, comm);
    const double tiled = with_tiled_gemm(e.prefill, tiled_gemm_s(l, q, tokens),
                                         2 * matmul_params(a, q.params) * tokens / (peak * mfu));
    const EagerTraffic traffic =
        with_eager_traffic(l, q, batch, n, bw * k.decode_bandwidth_efficiency, e.prefill);
    e.prefill.seconds += host;
    const double launch = with_eager_host(l, q, e.prefill);
    add_pipeline_link(k, q, tokens, e.prefill);
    if (q.explain)
      e.prefill.basis = num(tokens) + " prompt tokens x 2 x " +
                        num(matmul_params(a, q.params) / 1e9) +
                        " B parameters + attention = " + num(flops / 1e12) + " TFLOP at " +
                        num(mfu * 100) + " % of " + num(peak / 1e12) + " TFLOPS" +
                        tiled_note(l, q, tiled) + eager_scores_note(l, q, n, traffic.scores_s) +
                        eager_activations_note(tokens, traffic.activations_s) +
                        host_note(l, q, false) + eager_note(l, launch) +
                        share_note(l, q, peak, tp) + pipeline_note(k, q, tokens, e.prefill);
  }
  // Decode: one step reads the weights and every sequence's KV cache at the mean context.
  {
    const double context = n + out / 2;
    const double peak = matmul_peak(l, q, tp, batch);
    const double kv = batch * attended_tokens(a, context, out) * q.kv_bytes_per_token;
    // What the group's GPUs read together: a replicated cache is read once per GPU holding it.
    const double kv_read = kv * tp / kv_split(a, tp);
    const double bytes = decode_weight_bytes(q, batch) + kv_read;
    const double gemm = 2 * matmul_params(a, q.params) * batch;
    const double attn =
        layers * decode_attention_flops(a) * attended_tokens(a, context, out) * batch;
    const double flops = gemm + attn;
    const double eff = tp > 1 ? k.decode_bandwidth_efficiency_multi : k.decode_bandwidth_efficiency;
    const double comm = 2 * layers * allreduce_s(k, q.device, tp, batch * comm_bytes_per_token);
    const double tiled = tiled_gemm_s(l, q, batch);
    const double block = head_block_s(l, q, attended_tokens(a, context, out));
    e.decode = decode_roofline(gemm, decode_weight_bytes(q, batch), attn, kv_read,
                               peak * k.decode_mfu, bw * eff, comm, tiled, block);
    const double elementwise = with_eager_activations(l, q, batch, bw * eff, e.decode);
    e.decode.seconds += step_overhead_s(l, q, true);
    const double launch = with_eager_host(l, q, e.decode);
    add_pipeline_link(k, q, batch, e.decode);
    if (q.explain)
      e.decode.basis =
          "each step reads " + num(bytes / 1e9) + " GB (weights" +
          (a.moe() ? " of the experts its tokens touch" : "") + " + KV of " + num(batch) +
          " sequences at " + num(context) + " tokens" +
          (a.mla() && tp > 1 ? ", MLA's latent read by each of the " + num(tp) + " GPUs" : "") +
          (a.sliding_window > 0 && a.sliding_window < context
               ? ", " + num(std::round(a.sliding_layer_share * 100)) +
                     " % of the layers at their " + num(a.sliding_window) +
                     (a.chunked_attention ? "-token chunks" : "-token window")
               : "") +
          ") at " + num(eff * 100) + " % of " + num(bw / 1e9) + " GB/s; " + num(flops / 1e12) +
          " TFLOP" + tiled_note(l, q, tiled) + head_block_note(l, block) +
          eager_activations_note(batch, elementwise) + host_note(l, q, true) +
          eager_note(l, launch) + share_note(l, q, peak, tp) + pipeline_note(k, q, batch, e.decode);
    const Phase one = single_stream_decode(l, k, q, context);
    e.batch1_decode_tokens_per_s = one.seconds > 0 ? 1 / one.seconds : 0;
  }
  // A request's own prompt: its time to first token (queueing behind other prompts not counted).
  {
    const double flops = 2 * matmul_params(a, q.params) * n + 2 * layers * q_dim * n * n;
    const double peak = matmul_peak(l, q, tp, n);
    const double mfu = n >= k.long_prompt_tokens ? k.prefill_mfu_long : k.prefill_mfu_short;
    const double comm = 2 * layers * allreduce_s(k, q.device, tp, n * comm_bytes_per_token);
    e.first_token = roofline(flops, peak * mfu, weights, bw * k.decode_bandwidth_efficiency, comm);
    const double tiled = with_tiled_gemm(e.first_token, tiled_gemm_s(l, q, n),
                                         2 * matmul_params(a, q.params) * n / (peak * mfu));
    const EagerTraffic traffic =
        with_eager_traffic(l, q, 1, n, bw * k.decode_bandwidth_efficiency, e.first_token);
    e.first_token.seconds += host;
    const double launch = with_eager_host(l, q, e.first_token);
    add_pipeline_link(k, q, n, e.first_token);
    if (q.explain)
      e.first_token.basis = num(n) + " prompt tokens: " + num(flops / 1e12) + " TFLOP at " +
                            num(mfu * 100) + " % of " + num(peak / 1e12) + " TFLOPS" +
                            tiled_note(l, q, tiled) + eager_scores_note(l, q, n, traffic.scores_s) +
                            eager_activations_note(n, traffic.activations_s) +
                            host_note(l, q, false) + eager_note(l, launch) +
                            share_note(l, q, peak, tp) + pipeline_note(k, q, n, e.first_token);
  }
  e.ttft_ms = e.first_token.seconds * 1e3;
  e.decode_step_ms = e.decode.seconds * 1e3;
  e.e2e_ms = e.ttft_ms + (out - 1) * e.decode_step_ms;
  e.prefill_tokens_per_s = e.prefill.seconds > 0 ? batch * n / e.prefill.seconds : 0;
  const double total_s = e.prefill.seconds + out * e.decode.seconds;
  e.output_tokens_per_s = total_s > 0 ? batch * out / total_s : 0;
  // A sequence's mean time per output token over its life in the batch, the batch's prompts
  // interleaved with its decode steps (continuous batching, chunked prefill): by Little's law the
  // batch over the capacity, so capacity x TPOT = concurrency.
  e.tpot_ms = total_s > 0 ? total_s / out * 1e3 : 0;
  if (const double stage = slowest_stage_s(k, q, e, batch, out); stage * 1e3 > e.tpot_ms) {
    e.tpot_ms = stage * 1e3;
    e.output_tokens_per_s = batch / stage;
  }
  e.output_tokens_per_s_per_gpu = e.output_tokens_per_s / tp;
  e.limit = std::string(e.decode.bound) + " in decode" +
            (q.batch <= 0 ? " at " + num(batch) + " concurrent sequences" : "");
  return e;
}

Phase single_stream_decode(const ThroughputConstants& k, const ThroughputQuestion& q,
                           double context) {
  return single_stream_decode(look_up(k, q), k, q, context);
}

}  // namespace gpufleet
