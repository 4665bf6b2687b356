// The memory model's KV cache (engines without a pool) and activations: a prefill's peak when
// serving, the saved activations and logits when training, the dequantisation buffers.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "model/memory_sizing.hpp"

namespace gpufleet::memory_parts {
namespace {

// Bytes per intermediate element transformers' gelu_new (NewGELUActivation, written as elementwise
// ops: 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * pow(x, 3))))) saves for backward, with
// the second projection's input: pow's input, tanh's output, 0.5 * x and 1 + tanh. Under autocast
// pow runs in fp32 (a 4-byte copy of x; torch's CUDA autocast fp32 op list), so tanh and the sum
// are fp32 while 0.5 * x stays 16-bit, and the fp32 product is cast back for the projection.
double gelu_new_bytes(double act, bool autocast) { return autocast ? 4 + 4 + 2 + 4 + 2 : 5 * act; }

// Bytes saved for backward per token in one layer (Korthikanti et al. 2022, "Reducing Activation
// Recomputation in Large Transformer Models", section 4.1, generalised to grouped-query attention,
// gated MLPs, runs without dropout and 4-byte activations): sbh(34 + 5as/h) for GPT-3 in fp16.
// Under autocast with fp32 parameters the residual stream is fp32 (the embeddings are, and 16-bit
// outputs added to it promote), so each norm saves a 4-byte input and its linear a 16-bit cast.
// A frozen linear layer's input is kept only where something else reads it in backward (`in`).
double layer_activation_bytes_per_token(const Architecture& a, double act, double s_kv, bool flash,
                                        double mlp_width, double mlp_count, bool autocast,
                                        bool eager_rms_norm, const LinearInputs& in) {
  const double h = a.hidden, q = a.heads * a.head_dim, kv = a.kv_heads * a.head_dim;
  const double mask = a.hidden_dropout > 0 ? 1 : 0;
  const double norm_input = autocast ? 4 : act;
  // transformers' RMSNorm as PyTorch ops (LlamaRMSNorm: x.to(float32), pow(2).mean, rsqrt, the
  // product, .to(dtype), the weight's product): pow and the product keep the fp32 copy (4 bytes),
  // the weight's product the normed input in the activations' type, where the formula counts one
  // input: 4 more bytes per element of every norm, and Qwen3's q and k norms (per head, before the
  // rotary, whose input is not kept otherwise) 4 + the activations' type per query and key element.
  // A frozen weight (LoRA) needs no normed input for its gradient: the fp32 copy alone is kept.
  const double kept = in.frozen ? 4 : 4 + act;
  const double rms_extra =
      eager_rms_norm && !a.layer_norm_bias
          ? a.norms_per_layer * (kept - act) * h + (a.qk_norm() ? kept * (q + kv) : 0)
          : 0;
  // Attention: LayerNorm input, QKV input, Q, K, V, output-projection input (which a fused
  // attention kernel keeps as its output in any case), dropout mask.
  const double attn_in = in.attention_in ? h : 0, attn_out = in.attention_out || flash ? q : 0;
  double attn = h * norm_input + (attn_in + q + 2 * kv + attn_out) * act + mask * h;
  if (!flash) {
    // Scores: the softmax output (fp32 in transformers' eager attention and under autocast), the
    // dropout mask and output, and the 16-bit copy the value matmul keeps.
    double per_score = 4 + (a.attention_dropout > 0 ? 1 + 4 : 0) + (act < 4 ? act : 0);
    attn += a.heads * s_kv * per_score;
  }
  // MLP: LayerNorm input, first-projection input, the intermediate tensors (gated: gate, up,
  // activation and product; plain: pre- and post-activation, or gelu_new's), dropout mask. The
  // last of the intermediates is the second projection's input (16-bit under autocast).
  const double down_in = in.mlp_out ? 0 : autocast ? 2 : act;
  const double intermediate = (a.gated_mlp                  ? 4 * act
                               : a.hidden_act == "gelu_new" ? gelu_new_bytes(act, autocast)
                                                            : 2 * act) -
                              down_in;
  const double mlp =
      h * norm_input + (in.mlp_in ? h * act : 0) + mlp_count * intermediate * mlp_width + mask * h;
  return attn + mlp + rms_extra;
}

}  // namespace

// ---- KV cache of the engines that do not keep a pool -----------------------------------------
void Sizing::kv_cache() {
  const double kv_split = a.mla() ? 1 : std::min(tp, std::max(1.0, a.kv_heads));
  kv_layer_token = kv_elements_per_token_per_layer(a) * kv_el / kv_split;
  layers_here = a.layers / pp;
  e.kv_bytes_per_token = kv_layer_token * layers_here;
  seqs = q.batch * q.beams;
  if (generates && eng.kv_policy != "pool") {
    double tokens = q.sequence + q.new_tokens;
    double kv = 0;
    std::string basis;
    if (a.kind == ArchKind::kEncoderDecoder) {
      // Engines that allocate up front hold the whole decoder context for every beam; dynamic
      // caches grow to the generated length (Whisper's decoder stops at half its context,
      // openai-whisper's sample_len). The cross-attention cache is per beam or per input, as the
      // engine keeps it.
      const bool upfront = eng.kv_policy == "full_context";
      const double ctx = a.target_positions > 0 ? a.target_positions : q.sequence;
      const double dec = q.new_tokens > 0 ? q.new_tokens : upfront ? ctx : std::ceil(ctx / 2);
      const double enc = a.source_positions > 0 ? a.source_positions : q.sequence;
      const double cross_copies = eng.cross_cache_per_beam ? seqs : q.batch;
      kv = kv_layer_token * layers_here * (seqs * dec + cross_copies * enc);
      if (explain)
        basis = num(seqs) + " sequences x " + num(dec) + " decoder tokens + " + num(cross_copies) +
                " x " + num(enc) + " cross-attention tokens, " +
                num(kv_layer_token * layers_here / 1024) + " KiB per token";
    } else {
      const double sliding = a.sliding_window > 0 ? a.sliding_layer_share : 0;
      const double window_tokens =
          a.sliding_window > 0 ? std::min(tokens, a.sliding_window) : tokens;
      auto per_seq = [&](double n) {
        return kv_layer_token * layers_here *
               ((1 - sliding) * n +
                sliding * (a.sliding_window > 0 ? std::min(n, a.sliding_window) : n));
      };
      kv = seqs * per_seq(tokens);
      if (eng.kv_policy == "dynamic") kv_generated = kv - seqs * per_seq(q.sequence);
      if (explain)
        basis =
            num(seqs) + " sequences x " + num(tokens) + " tokens x " +
            num(kv_layer_token * layers_here / 1024) + " KiB per token (" +
            num(kv_elements_per_token_per_layer(a)) + " elements per layer" +
            (a.mla()                ? ", MLA latent"
             : a.kv_heads < a.heads ? ", " + num(a.kv_heads) + " KV heads"
                                    : "") +
            ", " + num(kv_el) + " bytes each" +
            (sliding > 0 ? std::string(a.chunked_attention ? "; chunked-attention layers keep "
                                                           : "; sliding-window layers keep ") +
                               num(window_tokens) + " tokens"
                         : "") +
            ")";
    }
    e.kv_cache_bytes = kv;
    add("kv_cache", "KV cache", kv, [&] { return basis; });
  }
}

// ---- Activations and logits: serving (a prefill's peak) and loading -------------------------
void Sizing::serving_activations() {
  if (generates && eng.kv_policy != "pool" && eng.compute_buffer_mib == 0) {
    // Prefill peak: one layer's intermediate tensors at a time, the attention scores when
    // materialised, then the logits.
    const bool encdec = a.kind == ArchKind::kEncoderDecoder;
    const double s = encdec && a.source_positions > 0 ? a.source_positions : q.sequence;
    const double tokens = q.batch * s;
    const double layer =
        tokens * (3 * a.hidden + (a.gated_mlp ? 3 : 2) * active_width * active_count) * act;
    // Materialised attention peaks in its softmax, apart from the MLP's intermediates: the
    // residual, Q, K and V (repeat_kv copies K and V to every head for grouped-query attention)
    // beside the scores' input and output. transformers' eager_attention_forward takes
    // softmax(dtype=float32) of 16-bit scores: the 16-bit input, its fp32 copy (ATen's softmax
    // casts before _softmax) and the fp32 output at once, 10 bytes per bf16 score; a softmax in
    // the scores' own type holds its input and output, 2 x act. PyTorch's sdpa math kernel
    // (_scaled_dot_product_attention_math) is counted as before: the layer's intermediates beside
    // its fp32 scores and softmax.
    const bool math_kernel = lower(q.attention) == "sdpa" && eng.materialized_attention;
    const double per_score = math_kernel                   ? act + (eng.softmax_fp32 ? 4 : 0)
                             : eng.softmax_fp32 && act < 4 ? act + 4 + 4
                                                           : 2 * act;
    const double scores = flash ? 0 : q.batch * a.heads * s * s * per_score;
    const double qw = a.heads * a.head_dim, kvw = a.kv_heads * a.head_dim;
    const double repeated = a.kv_heads < a.heads && !a.mla() ? 2 * qw : 0;
    const double attention = flash ? 0
                             : math_kernel
                                 ? layer + scores
                                 : tokens * (a.hidden + qw + 2 * kvw + repeated) * act + scores;
    const double logit_rows = eng.logits_all_prompt_tokens && !encdec ? q.batch * q.sequence : seqs;
    const double logits = logit_rows * a.vocab * (act + (act < 4 ? 4 : 0));  // + fp32 copy
    double peak = std::max({layer, attention, logits});
    // An encoder runs before its decoder fills the cache, and a dynamic cache grows by the
    // generated tokens only after the prefill (transformers' DynamicCache appends each step's
    // keys and values): the prefill peak and the whole cache do not coexist.
    if (encdec)
      peak = std::max(0.0, peak - e.kv_cache_bytes);
    else
      peak = std::max(0.0, peak - kv_generated);
    transient += peak;
    add("activations",
        encdec             ? "Activations (encoder peak beyond the KV cache)"
        : kv_generated > 0 ? "Activations (prefill peak beyond the generated tokens' cache)"
                           : "Activations (prefill peak)",
        peak / pp, [&] {
          return "max of one layer's intermediates over " + num(tokens) + " tokens" +
                 (scores > 0 ? ", its attention with the materialised scores (" + gib(scores) +
                                   ", " + num(per_score) + " bytes per score in the softmax, " +
                                   attention_why + ")"
                             : "") +
                 " and the logits of " + num(logit_rows) + " rows x " + num(a.vocab) +
                 " vocabulary (" + gib(logits) + (act < 4 ? ", 16-bit + fp32)" : ", fp32)") +
                 (kv_generated > 0 ? ", less the cache the generated tokens add later (" +
                                         gib(kv_generated) + ")"
                                   : "");
        });
  }
  if (fmt.linear_bits < 8 && !fmt.whole_model && generates) {
    const double largest = a.hidden * active_width * (compute == "fp32" ? 4 : 2);
    transient += largest;
    add("dequantization", "Dequantized weight (transient)", largest,
        [] { return "the largest linear layer dequantized to the compute type for its matmul"; });
  }
}

// ---- Activations and logits: training --------------------------------------------------------
void Sizing::training_activations() {
  const double s = q.sequence, b = q.batch;
  const double all_layers = a.layers + a.encoder_layers;
  // The adapters' saved inputs per layer: counted where a layer keeps its activations through the
  // backward pass; a checkpointed layer recomputes them one layer at a time.
  const double adapters_per_layer = adapter_bytes_per_token / std::max(1.0, all_layers);
  const bool autocast = (compute == "amp_fp16" || compute == "amp_bf16") && bytes_per_param >= 4;
  const double per_token = layer_activation_bytes_per_token(
      a, act, s, flash, active_width, active_count, autocast, eng.eager_rms_norm, saved_inputs);
  // One layer recomputed under checkpointing, after the loss's backward (its adapters included).
  const double layer = per_token + adapters_per_layer;
  double acts = 0, recompute = 0;
  std::string basis;
  // Selective checkpointing comes only from the accuracy harness's cases (torchtitan's runs): the
  // WebAssembly module leaves it out.
  if (false) {
#if GPUFLEET_ACCURACY
  } else if (sac == "op") {
    // torchtitan's op-level policy keeps the outputs of every second matmul (aten.mm) and of the
    // fused attention kernel, the rest is recomputed in backward (torchtitan
    // models/llama3/parallelize_llama.py, _save_list and _custom_policy). Matmuls in a layer's
    // order: q, k, v, o, then gate, up, down (plain MLP: up, down). fp8 linears run as
    // aten._scaled_mm, which is not on the list: none of their outputs is kept.
    const double h = a.hidden, qw = a.heads * a.head_dim, kvw = a.kv_heads * a.head_dim;
    const double w = active_width * active_count;
    std::vector<double> mm = {qw, kvw, kvw, h};
    if (a.gated_mlp) mm.push_back(w);
    mm.push_back(w);
    mm.push_back(h);
    double kept = 0;
    if (compute != "fp8")
      for (std::size_t i = 0; i < mm.size(); i += 2) kept += mm[i];
    const double saved =
        (h + kept + (flash ? qw : 0)) * act + (flash ? a.heads * 4 : 0);  // + logsumexp (fp32)
    acts = b * s * saved * all_layers / pp;
    recompute = b * s * 2 * layer;
    if (explain)
      basis = "selective (op) checkpointing: each layer keeps its input, " +
              std::string(compute == "fp8" ? "no matmul output (fp8 matmuls are recomputed)"
                                           : "every second matmul's output") +
              (flash ? " and the attention output" : "") + " (" + num(saved) +
              " bytes per token x " + num(all_layers / pp) + " layers)";
  } else if (!sac.empty()) {
    // Every N-th layer checkpointed whole (torchtitan's selective_ac_option = N); the others keep
    // all their activations.
    const double every = std::max(1.0, std::floor(std::atof(sac.c_str())));
    const double layers = all_layers / pp, ckpt = std::floor(layers / every);
    acts = b * s * (ckpt * a.hidden * act + (layers - ckpt) * layer);
    recompute = ckpt > 0 ? b * s * layer : 0;
    if (explain)
      basis = "selective (every " + num(every) + " layers) checkpointing: " + num(ckpt) +
              " layers keep only their input, " + num(layers - ckpt) + " keep " + num(layer) +
              " bytes per token";
#endif
  } else if (q.gradient_checkpointing) {
    acts = b * s * a.hidden * act * all_layers / pp;
    recompute = b * s * 2 * layer;
    if (explain)
      basis = "checkpointed: each layer's input (" + num(all_layers / pp) + " x s x b x h x " +
              num(act) + " bytes)";
  } else {
    acts = b * s * (per_token + adapters_per_layer) * all_layers / pp;
    if (explain)
      basis = "b x s x " + num(per_token + adapters_per_layer) + " bytes per token per layer x " +
              num(all_layers / pp) + " layers (Korthikanti et al. 2022" +
              (flash ? ", no score matrix: " : ", score matrix materialised: ") + attention_why +
              (adapter_bytes_per_token > 0 ? "; with the LoRA adapters' saved inputs" : "") + ")";
  }
  if (tp > 1) {
    // Tensor parallelism with sequence parallelism splits every saved activation over the ranks
    // (Korthikanti et al. 2022, section 4.2.2: sbh(34/t + 5as/ht)), and a vocabulary-parallel
    // loss splits the logits (torchtitan apply_tp: SequenceParallel norms, loss_parallel).
    acts /= tp;
    recompute /= tp;
    if (explain)
      basis += "; split over " + num(tp) + " tensor-parallel ranks (sequence parallelism)";
  }
  transient += acts + recompute;
  recomputed = recompute;
  if (recompute > 0) {
    add_phase(kBackward, "activations", "Activations", acts, [&] { return basis; });
    add_phase(kRecompute, "activations", "Activations", acts + recompute, [&] {
      return basis + " + the last layer recomputed, 2 x " + num(layer) + " bytes per token";
    });
  } else {
    add_phase(kBackward, "activations", "Activations", acts, [&] { return basis; });
  }
  if (step_gradients > 0) {
    // The backward pass ends with the first layer's backward (its activations, recomputed under
    // checkpointing, and as much again in flight) beside every gradient but that layer's and an
    // untied embedding's, which come last.
    const double first_layer = b * s * 2 * layer / tp;
    const double embedding_grad =
        adapters || a.tied_embeddings ? 0 : step_gradients * p.embedding / std::max(1.0, p.total);
    const double layer_grad = (step_gradients - embedding_grad) / std::max(1.0, all_layers / pp);
    const double grads_before = step_gradients - embedding_grad - layer_grad;
    add_phase(kBackwardEnd, "gradients", "Gradients (end of the backward pass)", grads_before, [&] {
      return step_gradients_basis + ", less the first layer's" +
             (embedding_grad > 0 ? std::string(" and the embeddings'") : "") + ", which come last";
    });
    add_phase(kBackwardEnd, "activations", "Activations (the first layer's backward)", first_layer,
              [&] {
                return "b x s x 2 x " + num(layer) +
                       " bytes per token: the first layer's activations and its backward";
              });
  }
  training_held();
}

// What the backward pass holds beside the activations: the logits and the loss's tensors, a
// training loop's kept output, FSDP's gathered root unit, QLoRA's dequantized weight.
void Sizing::training_held() {
  const double s = q.sequence, b = q.batch;
  const double vocab_rows = b * s;
  // The loss upcasts the logits to fp32 (a copy only when they are 16-bit) and keeps the fp32
  // log-softmax for backward. Run as PyTorch ops, its backward then holds that output, nll_loss's
  // gradient (a dense fp32 tensor of the logits' shape) and the log-softmax's gradient at once,
  // the caller having kept the loss alone: 12 bytes, above the forward's end.
  const double upcast_copy = act < 4 ? 4 : 0;
  const double forward_end = act + upcast_copy + 4;
  const double loss_backward = eng.eager_loss_backward && !q.compiled_loss ? 4 + 4 + 4 : 0;
  const double per_logit = q.chunked_loss ? act : std::max(forward_end, loss_backward);
  const double logits =
      vocab_rows * a.vocab * per_logit / (a.kind == ArchKind::kEncoder ? a.vocab : 1) / tp;
  if (a.kind != ArchKind::kEncoder) {
    transient += std::max(0.0, logits - recomputed);  // the two are never held at once
    add_phase(kBackward, "logits", "Logits and loss", logits, [&] {
      return num(vocab_rows) + " tokens x " + num(a.vocab) + " vocabulary x " +
             (q.chunked_loss ? num(act) + " bytes (chunked loss)"
              : loss_backward > forward_end
                  ? "4 + 4 + 4 bytes (the loss's backward: fp32 log-softmax and two gradients)"
              : act < 4 ? num(act) + " + 4 + 4 bytes (logits, fp32 copy, fp32 log-softmax)"
                        : "4 + 4 bytes (fp32 logits, fp32 log-softmax)");
    });
  }
#if GPUFLEET_ACCURACY  // only the accuracy harness's cases keep it (the WebAssembly module leaves
                       // it out)
  if (q.output_kept && a.kind != ArchKind::kEncoder && !q.chunked_loss) {
    // A training loop that holds the model's output until after the step keeps its logits
    // through the backward pass, beside the loss's own tensors.
    const double kept = vocab_rows * a.vocab * act / tp;
    auto basis = [] { return "the training loop keeps the model's output"; };
    add_backward("output_logits", "Logits kept", kept, basis);
    if (step_gradients > 0) {
      add_phase(kBackwardEnd, "output_logits", "Logits kept", kept, basis);
      add_phase(kStep, "output_logits", "Logits kept", kept, basis);
    }
  }
#endif
  // Offloaded FSDP counts its gathered units with the weights (the larger of a layer and the
  // embeddings, twice).
  if ((sharding == "fsdp" || sharding == "fsdp_full_shard") && !q.cpu_offload && dp > 1) {
    // FSDP does not reshard the root unit after the forward pass, "with the intention that they
    // are immediately used for backward" (torch/distributed/fsdp/_runtime_utils.py
    // _post_forward_reshard; fully_shard sets the root's reshard_after_forward to False): what
    // the layers' wrapping leaves to the root, the embeddings and the output head, stays
    // gathered from the forward's end through the backward pass. Pipeline stages hold the
    // embeddings (the first) or the head (the last), not both.
    const double params = pp > 1 ? std::max(p.embedding, p.lm_head) : p.embedding + p.lm_head;
    const double root = params * act / tp;
    auto basis = [&] {
      return num(params / 1e9) + " B embedding and head parameters x " + num(act) + " bytes / " +
             num(tp) + ", gathered through backward";
    };
    add_backward("root_unit", "FSDP root unit", root, basis);
    if (step_gradients > 0) add_phase(kBackwardEnd, "root_unit", "FSDP root unit", root, basis);
  }
  if (q.mode == TrainMode::kQlora) {
    const double largest = a.hidden * active_width * act;
    transient += largest;
    add_backward("dequantization", "Dequantized weight (transient)", largest,
                 [] { return "the largest 4-bit linear layer dequantized for its matmul"; });
  }
}

// The step's peak is the highest of its moments (the backward pass's start and end, the optimizer
// step and, under checkpointing, the last layer's recompute); only the highest is listed, the
// others named. The allocator's reserve stays that of the activations
// (`transient`): gradients and the step's temporaries come back at the same sizes every step.
void Sizing::training_peak() {
  int top = kBackward;
  for (int phase : {kBackwardEnd, kStep, kRecompute})
    if (phase_bytes[phase] > phase_bytes[top]) top = phase;
  listed_bytes += phase_bytes[top];
  if (!explain) return;
  static const char* kNames[] = {"the backward pass's start", "its end", "the optimizer step",
                                 "the last layer's recompute"};
  std::string others;
  for (int phase : {kBackward, kBackwardEnd, kStep, kRecompute})
    if (phase != top && phase_bytes[phase] > 0)
      others +=
          (others.empty() ? "" : ", ") + std::string(kNames[phase]) + " " + gib(phase_bytes[phase]);
  auto& lines = phase_lines[top];
  if (!lines.empty() && !others.empty())
    lines.front().basis += std::string("; the step's peak is ") + kNames[top] + " (" +
                           gib(phase_bytes[top]) + "), above " + others;
  for (auto& l : lines) e.lines.push_back(std::move(l));
}

}  // namespace gpufleet::memory_parts
