#pragma once
// A model's architecture in Hugging Face config.json terms, and the parameter counts that follow
// from it. Decoder-only transformers (Llama, Mistral, Mixtral, Qwen, Gemma, Phi, DeepSeek MLA/MoE,
// Falcon, GPT-2, GPT-J, BigCode, BLOOM), BERT encoders, and encoder-decoders (T5, Whisper).

#include <optional>
#include <string>


namespace gpufleet {

enum class ArchKind { kDecoder, kEncoder, kEncoderDecoder };

struct Architecture {
  std::string model_type;  // config.json model_type, lower case
  // A multimodal config (Gemma 3, LLaVA, Mistral 3, Llama 4): its model_type, when the text model
  // read is the one under "text_config" (the vision tower is not counted).
  std::string multimodal_type;
  ArchKind kind = ArchKind::kDecoder;
  double layers = 0;          // decoder layers (encoder layers for an encoder)
  double encoder_layers = 0;  // encoder-decoder only
  double hidden = 0;
  double heads = 0;
  double kv_heads = 0;
  double head_dim = 0;
  double intermediate = 0;          // MLP width of a dense layer
  double encoder_intermediate = 0;  // encoder-decoder only
  double vocab = 0;
  bool tied_embeddings = false;
  bool gated_mlp = false;        // SwiGLU / GeGLU: gate, up and down projections
  std::string hidden_act;        // config.json hidden_act / activation_function ("" = not given)
  bool layer_norm_bias = false;  // LayerNorm (weight + bias) instead of RMSNorm (weight)
  bool qkv_bias = false;
  bool out_bias = false;
  bool mlp_bias = false;
  bool lm_head_bias = false;
  double norms_per_layer = 2;
  double position_embeddings = 0;  // learned absolute positions (rows)
  double type_vocab = 0;           // BERT token types
  double num_labels = 0;           // classification head (BERT)
  bool pooler = false;
  double attention_dropout = 0;  // nonzero: the dropout masks are kept for backward
  double hidden_dropout = 0;
  // Mixture of experts.
  double experts = 0;  // routed experts per MoE layer (0 = dense)
  double experts_per_token = 0;
  double shared_experts = 0;
  double moe_intermediate = 0;
  // Width of each shared expert: DeepSeek's are routed-expert wide; Qwen2-MoE has one of its own
  // width (shared_expert_intermediate_size) behind a sigmoid gate, Linear(hidden, 1).
  double shared_intermediate = 0;
  bool shared_expert_gate = false;
  double dense_layers = 0;  // leading dense layers of a MoE model (first_k_dense_replace)
  // Multi-head latent attention (DeepSeek-V2/V3).
  double q_lora_rank = 0;
  double kv_lora_rank = 0;
  double qk_nope_head_dim = 0;
  double qk_rope_head_dim = 0;
  double v_head_dim = 0;
  // Sliding-window attention: the window and the share of layers that use it.
  double sliding_window = 0;
  double sliding_layer_share = 0;
  // The window layers attend within fixed chunks of sliding_window tokens instead (Llama 4's
  // chunked local attention): a token sees the tokens of its own chunk only.
  bool chunked_attention = false;
  double max_positions = 0;
  // Encoder-decoder extras (Whisper: conv front end, fixed encoder length).
  double mel_bins = 0;
  double source_positions = 0;            // encoder frames (Whisper 1500)
  double target_positions = 0;            // decoder positions (Whisper 448)
  double relative_attention_buckets = 0;  // T5

  bool mla() const { return kv_lora_rank > 0; }
  // Qwen3's attention norms its queries and keys per head (q_norm, k_norm) before the rotary.
  bool qk_norm() const { return model_type == "qwen3" || model_type == "qwen3_moe"; }
  bool moe() const { return experts > 0; }
};

// Parameters by role: what a quantizer converts (linear weights of the blocks) and what stays in
// the working precision (embeddings, the output head, norms, biases, routers, positions).
struct ParameterCount {
  double total = 0;
  double active = 0;         // parameters a token passes through (MoE: routed experts only)
  double embedding = 0;      // token, position and type embeddings
  double lm_head = 0;        // 0 when tied to the embedding
  double linear = 0;         // weight matrices of the attention and MLP blocks (quantizable)
  double expert_linear = 0;  // the routed experts' part of `linear`
  double other = 0;          // norms, biases, routers, conv front end, heads
};

ParameterCount count_parameters(const Architecture& arch);

// KV-cache elements stored per token per decoder layer (K and V, or MLA's latent + rope key).
double kv_elements_per_token_per_layer(const Architecture& arch);

}  // namespace gpufleet
