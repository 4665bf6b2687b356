#include "catalog/architecture_reader.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "support/json_reader.hpp"
#include "support/text.hpp"

namespace gpufleet {
namespace {

using detail::Range;
using detail::Reader;

bool one_of(const std::string& type, std::initializer_list<const char*> types) {
  return std::any_of(types.begin(), types.end(), [&](const char* t) { return type == t; });
}
template <std::size_t N>
bool one_of(const std::string& type, const char* const (&types)[N]) {
  return std::any_of(std::begin(types), std::end(types), [&](const char* t) { return type == t; });
}

// The first of `keys` that the config holds as a number (validated to `range`), else fallback.
bool has_any(const Json& c, std::initializer_list<const char*> keys) {
  return std::any_of(keys.begin(), keys.end(), [&](const char* k) {
    auto it = c.find(k);
    return it != c.end() && !it->is_null();
  });
}

double first_number(const Reader& r, const Json& c, const std::string& path,
                    std::initializer_list<const char*> keys, double fallback, Range range) {
  for (const char* key : keys) {
    auto it = c.find(key);
    if (it == c.end() || it->is_null()) continue;
    return r.number(c, key, path, true, range).value_or(fallback);
  }
  return fallback;
}

bool flag(const Reader& r, const Json& c, const std::string& path, const char* key, bool fallback) {
  auto it = c.find(key);
  if (it == c.end() || it->is_null()) return fallback;
  return r.boolean(c, key, path, true).value_or(fallback);
}

// The model types whose structure the reader knows (each named below or in model/architecture.cpp);
// any other is refused rather than sized as a Llama it may not be.
constexpr const char* kModelTypes[] = {
    "bert",        "bloom",       "deepseek_v2", "deepseek_v3", "distilbert", "falcon",    "gemma2",
    "gemma3",      "gemma3_text", "gpt2",        "gpt_bigcode", "gpt_neox",   "gptj",      "granite",
    "llama",       "llama4_text", "mistral",     "mixtral",     "mpt",        "mt5",       "olmo",      "opt",
    "phi",         "phi3",        "qwen2",       "qwen2_moe",   "qwen3",      "qwen3_moe", "roberta",
    "t5",          "umt5",        "whisper",     "xlm-roberta"};
// Types that route every token over experts: without an expert count they have no shape.
constexpr const char* kExpertTypes[] = {"mixtral",     "qwen2_moe",   "qwen3_moe",
                                        "deepseek_v2", "deepseek_v3", "llama4_text"};

constexpr Range kCount{1, 1e6};
constexpr Range kWidth{1, 1e7};
constexpr Range kVocab{1, 1e8};
constexpr Range kOptional{0, 1e8};

// Llama 4 (transformers' configuration_llama4.py and modeling_llama4.py): every
// interleave_moe_layer_step-th layer holds the routed experts of intermediate_size and one shared
// expert of the same width, the others a dense MLP of intermediate_size_mlp; the RoPE layers
// (no_rope_layers, by default all but every no_rope_layer_interval-th) attend within chunks of
// attention_chunk_size tokens.
void read_llama4(const Reader& r, const Json& c, const std::string& path, Architecture& a) {
  a.moe_intermediate = a.shared_intermediate = a.intermediate;
  a.shared_experts = 1;
  a.intermediate = first_number(r, c, path, {"intermediate_size_mlp"}, a.intermediate, kWidth);
  const double step = first_number(r, c, path, {"interleave_moe_layer_step"}, 1, kCount);
  a.dense_layers = a.layers - std::floor(a.layers / step);
  const double chunk = first_number(r, c, path, {"attention_chunk_size"}, 0, kOptional);
  if (chunk <= 0 || a.layers <= 0) return;
  double rope_layers = 0;
  const auto listed = c.find("no_rope_layers");
  if (listed != c.end() && listed->is_array() && listed->size() == a.layers) {
    for (const Json& x : *listed) rope_layers += x.is_number() && x.get<double>() != 0 ? 1 : 0;
  } else {
    const double interval = first_number(r, c, path, {"no_rope_layer_interval"}, 4, kCount);
    rope_layers = a.layers - std::floor(a.layers / interval);
  }
  a.sliding_window = chunk;
  a.sliding_layer_share = rope_layers / a.layers;
  a.chunked_attention = true;
}

}  // namespace

std::optional<Architecture> read_architecture(const Json& c, const std::string& file,
                                              const std::string& path, Errors& errors) {
  const std::size_t before = errors.size();
  Reader r(file, errors);
  if (!r.expect_object(c, path)) return std::nullopt;
  // A multimodal config holds its language model under text_config, which may leave out what the
  // outer config says (model_type, vocab_size): those are taken from the outer one.
  const auto text = c.find("text_config");
  if (text != c.end() && text->is_object() && !has_any(c, {"hidden_size", "n_embd", "d_model", "dim"})) {
    Json inner = *text;
    for (const char* key : {"model_type", "vocab_size", "tie_word_embeddings", "max_position_embeddings"}) {
      if (!inner.contains(key) && c.contains(key)) inner[key] = c[key];
    }
    auto a = read_architecture(inner, file, Reader::child(path, "text_config"), errors);
    if (a) a->multimodal_type = detail::lower(c.value("model_type", Json("")).is_string() ? c["model_type"].get<std::string>() : "");
    return a;
  }
  Architecture a;
  a.model_type = detail::lower(r.string(c, "model_type", path, true).value_or(""));
  const std::string& t = a.model_type;
  if (errors.size() > before) return std::nullopt;
  if (std::find(std::begin(kModelTypes), std::end(kModelTypes), t) == std::end(kModelTypes)) {
    std::string types;
    for (const char* type : kModelTypes) types += (types.empty() ? "" : ", ") + std::string(type);
    r.fail("unknown_name", Reader::child(path, "model_type"),
           "expected a supported model_type (" + types + "), got \"" + t +
               "\"" + (file == detail::kRequest ? "; give its parameter count (params_b) to size it as a generic decoder" : ""));
    return std::nullopt;
  }

  const bool whisper = t == "whisper";
  const bool t5 = one_of(t, {"t5", "mt5", "umt5"});
  const bool bert = one_of(t, {"bert", "roberta", "xlm-roberta", "distilbert"});
  a.kind = whisper || t5 ? ArchKind::kEncoderDecoder
           : bert        ? ArchKind::kEncoder
                         : ArchKind::kDecoder;

  a.hidden = first_number(r, c, path, {"hidden_size", "n_embd", "d_model", "dim"}, 0, kWidth);
  if (a.hidden == 0 && !has_any(c, {"hidden_size", "n_embd", "d_model", "dim"}))
    r.fail("missing_field", Reader::child(path, "hidden_size"),
           "expected the model width (hidden_size, n_embd or d_model)");
  if (whisper) {
    a.layers = first_number(r, c, path, {"decoder_layers", "num_hidden_layers"}, 0, kCount);
    a.encoder_layers = first_number(r, c, path, {"encoder_layers", "num_hidden_layers"}, 0, kCount);
    a.heads =
        first_number(r, c, path, {"decoder_attention_heads", "num_attention_heads"}, 0, kCount);
    a.intermediate =
        first_number(r, c, path, {"decoder_ffn_dim", "intermediate_size"}, 4 * a.hidden, kWidth);
    a.encoder_intermediate =
        first_number(r, c, path, {"encoder_ffn_dim", "intermediate_size"}, a.intermediate, kWidth);
    a.mel_bins = first_number(r, c, path, {"num_mel_bins"}, 80, kCount);
    a.source_positions = first_number(r, c, path, {"max_source_positions"}, 1500, kCount);
    a.target_positions = first_number(r, c, path, {"max_target_positions"}, 448, kCount);
  } else if (t5) {
    a.encoder_layers = first_number(r, c, path, {"num_layers", "num_hidden_layers"}, 0, kCount);
    a.layers = first_number(r, c, path, {"num_decoder_layers"}, a.encoder_layers, kCount);
    a.heads = first_number(r, c, path, {"num_heads", "num_attention_heads"}, 0, kCount);
    a.intermediate = first_number(r, c, path, {"d_ff", "intermediate_size"}, 4 * a.hidden, kWidth);
    a.encoder_intermediate = a.intermediate;
    a.relative_attention_buckets =
        first_number(r, c, path, {"relative_attention_num_buckets"}, 32, kOptional);
  } else {
    a.layers = first_number(r, c, path, {"num_hidden_layers", "n_layer", "num_layers", "n_layers"},
                            0, kCount);
    a.heads = first_number(r, c, path, {"num_attention_heads", "n_head", "num_heads"}, 0, kCount);
    a.intermediate =
        first_number(r, c, path, {"intermediate_size", "n_inner", "ffn_hidden_size", "ffn_dim"},
                     4 * a.hidden, kWidth);
  }
  if (a.layers == 0 || (a.kind == ArchKind::kEncoderDecoder && a.encoder_layers == 0)) {
    if (errors.size() == before) {
      r.fail("missing_field", Reader::child(path, whisper ? "decoder_layers" : "num_hidden_layers"),
             "expected the number of layers (at least 1 decoder layer, and encoder layers for an "
             "encoder-decoder)");
    }
  }
  if (a.heads == 0 &&
      !has_any(c, {"num_attention_heads", "n_head", "num_heads", "decoder_attention_heads"}))
    r.fail("missing_field", Reader::child(path, "num_attention_heads"),
           "expected the number of attention heads");
  a.vocab = first_number(r, c, path, {"vocab_size", "padded_vocab_size"}, 0, kVocab);
  if (a.vocab == 0 && !has_any(c, {"vocab_size", "padded_vocab_size"}))
    r.fail("missing_field", Reader::child(path, "vocab_size"), "expected the vocabulary size");
  if (errors.size() > before) return std::nullopt;

  const bool multi_query = flag(r, c, path, "multi_query", false);
  a.kv_heads = multi_query
                   ? 1
                   : first_number(r, c, path, {"num_key_value_heads", "num_kv_heads", "n_head_kv"},
                                  a.heads, kCount);
  if (t == "falcon" && !flag(r, c, path, "new_decoder_architecture", false) &&
      !c.contains("num_kv_heads")) {
    a.kv_heads =
        flag(r, c, path, "multi_query", true) ? 1 : a.heads;  // Falcon-7B: multi-query by default
  }
  a.head_dim = first_number(r, c, path, {"head_dim", "d_kv"}, a.hidden / a.heads, kWidth);
  a.max_positions = first_number(
      r, c, path, {"max_position_embeddings", "n_positions", "seq_length", "n_ctx"}, 0, kOptional);

  // Per-family structure (the transformers modeling_*.py of each model_type).
  const bool gpt2_like = one_of(t, {"gpt2", "gpt_bigcode"});
  const bool layer_norm_family =
      gpt2_like || whisper || bert ||
      one_of(t, {"gptj", "bloom", "falcon", "gpt_neox", "opt", "phi", "mpt"});
  a.layer_norm_bias = layer_norm_family;
  for (const char* key : {"hidden_act", "activation_function"})
    if (auto it = c.find(key); it != c.end() && it->is_string() && a.hidden_act.empty())
      a.hidden_act = detail::lower(it->get<std::string>());
  if (a.hidden_act.empty() && gpt2_like) a.hidden_act = "gelu_new";  // GPT2Config's default
  a.gated_mlp = !layer_norm_family && !t5;
  if (t5) {
    const std::string proj = c.contains("feed_forward_proj") && c["feed_forward_proj"].is_string()
                                 ? c["feed_forward_proj"].get<std::string>()
                                 : "relu";
    a.gated_mlp = proj.rfind("gated", 0) == 0;
  }
  a.qkv_bias = gpt2_like || whisper || bert ||
               one_of(t, {"bloom", "qwen2", "qwen2_moe", "gpt_neox", "opt", "phi"}) ||
               flag(r, c, path, "attention_bias", false) || flag(r, c, path, "qkv_bias", false);
  a.out_bias = gpt2_like || whisper || bert || one_of(t, {"bloom", "gpt_neox", "opt", "phi"}) ||
               flag(r, c, path, "attention_bias", false);
  a.mlp_bias = gpt2_like || whisper || bert ||
               one_of(t, {"bloom", "gptj", "gpt_neox", "opt", "phi"}) ||
               flag(r, c, path, "mlp_bias", false);
  if (t == "falcon") a.qkv_bias = a.out_bias = a.mlp_bias = flag(r, c, path, "bias", false);
  a.lm_head_bias = t == "gptj";
  if (t == "gptj") a.norms_per_layer = 1;
  if (t == "falcon")
    a.norms_per_layer = flag(r, c, path, "new_decoder_architecture", false) ? 2 : 1;
  if (one_of(t, {"gemma2", "gemma3", "gemma3_text"})) a.norms_per_layer = 4;
  const bool untied_by_default =
      one_of(t, {"llama", "llama4_text", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "phi3",
                 "deepseek_v2", "deepseek_v3", "gptj", "t5", "mt5", "gpt_neox", "olmo", "granite"});
  a.tied_embeddings = flag(r, c, path, "tie_word_embeddings", !untied_by_default);
  if (gpt2_like) a.position_embeddings = a.max_positions;
  if (t == "opt")
    a.position_embeddings = a.max_positions + 2;  // OPT's learned positions are offset by 2
  if (t == "mpt") {  // MPT: learned positions unless ALiBi; biases unless no_bias
    if (flag(r, c, path, "learned_pos_emb", true) && !flag(r, c, path, "alibi", false))
      a.position_embeddings = a.max_positions;
    a.qkv_bias = a.out_bias = a.mlp_bias = !flag(r, c, path, "no_bias", true);
    a.layer_norm_bias = !flag(r, c, path, "no_bias", true);
  }
  if (bert) {
    a.position_embeddings = a.max_positions;
    a.type_vocab = first_number(r, c, path, {"type_vocab_size"}, 2, kOptional);
    a.pooler = true;
    a.tied_embeddings = true;
    if (auto it = c.find("num_labels"); it != c.end() && it->is_number()) {
      a.num_labels = r.number(c, "num_labels", path, true, {0, 1e6}).value_or(0);
    }
    a.hidden_dropout = first_number(r, c, path, {"hidden_dropout_prob"}, 0.1, {0, 1});
    a.attention_dropout = first_number(r, c, path, {"attention_probs_dropout_prob"}, 0.1, {0, 1});
  } else if (gpt2_like) {
    a.hidden_dropout = first_number(r, c, path, {"resid_pdrop"}, 0.1, {0, 1});
    a.attention_dropout = first_number(r, c, path, {"attn_pdrop"}, 0.1, {0, 1});
  } else if (t5) {
    a.hidden_dropout = a.attention_dropout =
        first_number(r, c, path, {"dropout_rate"}, 0.1, {0, 1});
  } else if (whisper) {
    a.hidden_dropout = first_number(r, c, path, {"dropout"}, 0, {0, 1});
    a.attention_dropout = first_number(r, c, path, {"attention_dropout"}, 0, {0, 1});
  } else {
    a.attention_dropout = first_number(r, c, path, {"attention_dropout", "attn_pdrop"}, 0, {0, 1});
  }

  // Mixture of experts (Mixtral: num_local_experts; DeepSeek/Qwen-MoE: n_routed_experts,
  // num_experts).
  a.experts = first_number(r, c, path, {"num_local_experts", "n_routed_experts", "num_experts"}, 0,
                           kOptional);
  const bool routed = has_any(c, {"num_experts_per_tok", "moe_topk"});
  if (a.experts == 0 && (routed || one_of(t, kExpertTypes))) {
    r.fail(has_any(c, {"num_local_experts", "n_routed_experts", "num_experts"}) ? "out_of_range" : "missing_field",
           Reader::child(path, has_any(c, {"n_routed_experts"}) ? "n_routed_experts"
                               : has_any(c, {"num_experts"})    ? "num_experts"
                                                                : "num_local_experts"),
           "expected at least 1 expert: " +
               (routed ? std::string("the config routes each token to its top-k experts (num_experts_per_tok)")
                       : "a " + t + " config is a mixture of experts"));
    return std::nullopt;
  }
  if (a.experts > 0) {
    a.experts_per_token = first_number(r, c, path, {"num_experts_per_tok", "moe_topk"}, 2, kCount);
    a.shared_experts = first_number(r, c, path, {"n_shared_experts"}, 0, kOptional);
    a.moe_intermediate =
        first_number(r, c, path, {"moe_intermediate_size"}, a.intermediate, kWidth);
    const double shared_width =
        first_number(r, c, path, {"shared_expert_intermediate_size"}, 0, kOptional);
    if (shared_width > 0 && a.shared_experts == 0) {
      a.shared_experts = 1;
      a.shared_expert_gate = true;
    }
    a.shared_intermediate = shared_width > 0 ? shared_width : a.moe_intermediate;
    a.dense_layers =
        std::min(a.layers, first_number(r, c, path, {"first_k_dense_replace"}, 0, kOptional));
  }
  // Multi-head latent attention.
  a.kv_lora_rank = first_number(r, c, path, {"kv_lora_rank"}, 0, kOptional);
  if (a.kv_lora_rank > 0) {
    a.q_lora_rank = first_number(r, c, path, {"q_lora_rank"}, 0, kOptional);
    a.qk_nope_head_dim = first_number(r, c, path, {"qk_nope_head_dim"}, 128, kWidth);
    a.qk_rope_head_dim = first_number(r, c, path, {"qk_rope_head_dim"}, 64, kWidth);
    a.v_head_dim = first_number(r, c, path, {"v_head_dim"}, 128, kWidth);
  }
  // Sliding windows: Mistral applies one to every layer; Gemma 2 to every other layer; Qwen2 only
  // when use_sliding_window is set.
  a.sliding_window = first_number(r, c, path, {"sliding_window"}, 0, kOptional);
  if (a.sliding_window > 0) {
    if (one_of(t, {"qwen2", "qwen2_moe", "qwen3", "qwen3_moe"}) &&
        !flag(r, c, path, "use_sliding_window", false)) {
      a.sliding_window = 0;
    } else {
      a.sliding_layer_share = one_of(t, {"gemma2"})                  ? 0.5
                              : one_of(t, {"gemma3", "gemma3_text"}) ? 5.0 / 6.0
                                                                     : 1.0;
    }
  }
  if (t == "llama4_text") read_llama4(r, c, path, a);
  // Shapes that no model has: counts that are not whole, more KV heads than heads, heads that do
  // not share KV heads evenly, more experts per token than experts.
  auto whole = [&](double x, const char* key) {
    if (x != std::floor(x))
      r.fail("wrong_type", Reader::child(path, key),
             "expected a whole number, got " + text::short_number(x));
  };
  whole(a.layers, "num_hidden_layers");
  whole(a.heads, "num_attention_heads");
  whole(a.kv_heads, "num_key_value_heads");
  whole(a.experts, "num_local_experts");
  whole(a.experts_per_token, "num_experts_per_tok");
  if (a.kv_heads > a.heads)
    r.fail("out_of_range", Reader::child(path, "num_key_value_heads"),
           "expected at most num_attention_heads (" + text::short_number(a.heads) + "), got " +
               text::short_number(a.kv_heads));
  else if (std::fmod(a.heads, a.kv_heads) != 0)
    r.fail("out_of_range", Reader::child(path, "num_key_value_heads"),
           "expected a divisor of num_attention_heads (" + text::short_number(a.heads) +
               "), got " + text::short_number(a.kv_heads));
  if (a.head_dim != std::floor(a.head_dim))
    r.fail("wrong_type", Reader::child(path, "head_dim"),
           "expected hidden_size (" + text::short_number(a.hidden) +
               ") to be a multiple of num_attention_heads (" + text::short_number(a.heads) +
               "), or head_dim");
  if (a.experts > 0 && a.experts_per_token > a.experts)
    r.fail("out_of_range", Reader::child(path, "num_experts_per_tok"),
           "expected at most the number of experts (" + text::short_number(a.experts) +
               "), got " + text::short_number(a.experts_per_token));
  if (errors.size() > before) return std::nullopt;
  return a;
}

std::vector<std::string> supported_model_types() {
  return {std::begin(kModelTypes), std::end(kModelTypes)};
}

}  // namespace gpufleet
