#include "model/architecture.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "support/text.hpp"

namespace gpufleet {

namespace {

// Attention projections of one layer: {weights, biases}.
std::pair<double, double> attention_params(const Architecture& a, double heads, double kv_heads,
                                           double head_dim) {
  const double h = a.hidden;
  if (a.mla()) {
    const double qk = a.qk_nope_head_dim + a.qk_rope_head_dim;
    double w = a.q_lora_rank > 0 ? h * a.q_lora_rank + a.q_lora_rank * heads * qk : h * heads * qk;
    w += h * (a.kv_lora_rank + a.qk_rope_head_dim) +
         a.kv_lora_rank * heads * (a.qk_nope_head_dim + a.v_head_dim);
    w += heads * a.v_head_dim * h;
    const double norms = a.q_lora_rank + a.kv_lora_rank;  // q_a_layernorm, kv_a_layernorm
    return {w, norms};
  }
  const double q = heads * head_dim, kv = kv_heads * head_dim;
  const double w = h * q + 2 * h * kv + q * h;
  double b = 0;
  if (a.qkv_bias)
    b += q + 2 * kv - (a.model_type == "whisper" ? kv : 0);  // Whisper's k_proj has no bias
  if (a.out_bias) b += h;
  if (a.qk_norm()) b += 2 * head_dim;  // q_norm, k_norm
  return {w, b};
}

std::pair<double, double> mlp_params(const Architecture& a, double width) {
  const double w = (a.gated_mlp ? 3 : 2) * a.hidden * width;
  const double b = a.mlp_bias ? width * (a.gated_mlp ? 2 : 1) + a.hidden : 0;
  return {w, b};
}

double norm_params(const Architecture& a, double count) {
  return count * a.hidden * (a.layer_norm_bias ? 2 : 1);
}

}  // namespace

ParameterCount count_parameters(const Architecture& a) {
  ParameterCount p;
  const double h = a.hidden;
  p.embedding = a.vocab * h + a.position_embeddings * h + a.type_vocab * h;
  p.lm_head = a.tied_embeddings ? 0 : a.vocab * h;
  if (a.lm_head_bias) p.other += a.vocab;

  if (a.kind == ArchKind::kEncoderDecoder) {
    const bool whisper = a.model_type == "whisper";
    const double self_heads = a.heads;
    auto [attn_w, attn_b] = attention_params(a, self_heads, self_heads, a.head_dim);
    auto [enc_mlp_w, enc_mlp_b] = mlp_params(a, a.encoder_intermediate);
    auto [dec_mlp_w, dec_mlp_b] = mlp_params(a, a.intermediate);
    p.linear = a.encoder_layers * (attn_w + enc_mlp_w) + a.layers * (2 * attn_w + dec_mlp_w);
    p.other += a.encoder_layers * (attn_b + enc_mlp_b + norm_params(a, 2)) +
               a.layers * (2 * attn_b + dec_mlp_b + norm_params(a, 3)) + norm_params(a, 2);
    if (whisper) {
      p.other += a.mel_bins * h * 3 + h + h * h * 3 + h;  // two conv layers of the audio front end
      p.embedding += (a.source_positions + a.target_positions) * h;
    } else {
      p.other += 2 * a.relative_attention_buckets * a.heads;  // relative position biases
    }
  } else {
    auto [attn_w, attn_b] = attention_params(a, a.heads, a.kv_heads, a.head_dim);
    const double moe_layers = a.moe() ? a.layers - a.dense_layers : 0;
    auto [dense_w, dense_b] = mlp_params(a, a.intermediate);
    double expert_w = 0, expert_b = 0, shared_w = 0, shared_b = 0;
    if (a.moe()) {
      std::tie(expert_w, expert_b) = mlp_params(a, a.moe_intermediate);
      std::tie(shared_w, shared_b) = mlp_params(a, a.shared_intermediate);
    }
    p.expert_linear = moe_layers * a.experts * expert_w;
    p.linear = a.layers * attn_w + (a.layers - moe_layers) * dense_w + p.expert_linear +
               moe_layers * a.shared_experts * shared_w;
    p.other += a.layers * (attn_b + norm_params(a, a.norms_per_layer)) +
               (a.layers - moe_layers) * dense_b +
               moe_layers * (a.experts * expert_b + a.shared_experts * shared_b +
                             a.experts * h +                         // routers
                             (a.shared_expert_gate ? h : 0));        // the shared expert's gate
    if (a.moe() && (a.model_type == "deepseek_v3"))
      p.other += moe_layers * a.experts;  // e_score_correction_bias
    p.other += norm_params(a, 1);         // final norm
    if (a.kind ==
        ArchKind::kEncoder) {  // the embedding LayerNorm stands where the final norm is counted
      if (a.pooler) p.other += h * h + h;
      p.other += a.num_labels * h + a.num_labels;
    }
    if (a.model_type == "bloom") p.other += norm_params(a, 1);  // word_embeddings_layernorm
  }
  p.total = p.embedding + p.lm_head + p.linear + p.other;
  p.active = p.total;
  if (a.moe() && a.experts > 0) p.active -= p.expert_linear * (1 - a.experts_per_token / a.experts);
  return p;
}

double kv_elements_per_token_per_layer(const Architecture& a) {
  if (a.mla()) return a.kv_lora_rank + a.qk_rope_head_dim;
  return 2 * a.kv_heads * a.head_dim;
}

}  // namespace gpufleet
