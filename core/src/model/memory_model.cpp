#include "model/memory_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "support/text.hpp"

namespace gpufleet {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string num(double x) { return text::short_number(x); }
std::string gib(double bytes) {
  return text::short_number(std::round(bytes / (1024.0 * 1024 * 1024) * 100) / 100) + " GiB";
}

template <class Map>
std::string keys_of(const Map& m) {
  std::string out;
  for (const auto& [k, v] : m) out += (out.empty() ? "" : ", ") + k;
  return out;
}

// The CUDA context and the libraries' kernels: PyTorch by module loading, other runtimes their own.
double context_bytes(const MemoryConstants& k, const EngineProfile& eng, const MemoryQuestion& q) {
  if (eng.pytorch)
    return (q.cuda_eager_loading ? k.cuda_context_eager_mib : k.cuda_context_lazy_mib) * kMiB;
  return (q.cuda_eager_loading ? eng.eager_context_mib : eng.context_mib) * kMiB;
}

bool is_training(TrainMode m) {
  return m == TrainMode::kFullFinetune || m == TrainMode::kLora || m == TrainMode::kQlora ||
         m == TrainMode::kPretraining;
}

// (in, out) features of a LoRA target module by its name in any of the common model families,
// and how many of it each decoder layer has.
struct Target {
  double in = 0, out = 0, per_layer = 1;
};

std::optional<Target> lora_target(const Architecture& a, const std::string& name) {
  const double h = a.hidden, q = a.heads * a.head_dim, kv = a.kv_heads * a.head_dim,
               I = a.intermediate;
  const double attn_blocks = a.kind == ArchKind::kEncoderDecoder ? 2 : 1;  // self + cross attention
  const std::string n = lower(name);
  auto is = [&](std::initializer_list<const char*> names) {
    return std::any_of(names.begin(), names.end(), [&](const char* x) { return n == x; });
  };
  if (is({"q_proj", "q", "query", "wq"})) return Target{h, q, attn_blocks};
  if (is({"k_proj", "k", "key", "wk"})) return Target{h, kv, attn_blocks};
  if (is({"v_proj", "v", "value", "wv"})) return Target{h, kv, attn_blocks};
  if (is({"o_proj", "o", "out_proj", "output_proj", "dense", "wo_attn", "c_proj"}))
    return Target{q, h, attn_blocks};
  if (is({"query_key_value", "c_attn", "qkv_proj", "wqkv"})) return Target{h, q + 2 * kv, 1};
  const double experts = a.moe() ? a.experts + a.shared_experts : 1;
  const double width = a.moe() ? a.moe_intermediate : I;
  if (is({"gate_proj", "up_proj", "wi_0", "wi_1", "wi", "w1", "w3", "fc1", "c_fc",
          "dense_h_to_4h"}))
    return Target{h, width, experts};
  if (is({"down_proj", "wo", "w2", "fc2", "dense_4h_to_h"})) return Target{width, h, experts};
  return std::nullopt;
}

// Bytes saved for backward per token in one layer (Korthikanti et al. 2022, "Reducing Activation
// Recomputation in Large Transformer Models", section 4.1, generalised to grouped-query attention,
// gated MLPs, runs without dropout and 4-byte activations): sbh(34 + 5as/h) for GPT-3 in fp16.
double layer_activation_bytes_per_token(const Architecture& a, double act, double s_kv, bool flash,
                                        double mlp_width, double mlp_count) {
  const double h = a.hidden, q = a.heads * a.head_dim, kv = a.kv_heads * a.head_dim;
  const double mask = a.hidden_dropout > 0 ? 1 : 0;
  // Attention: LayerNorm input, QKV input, Q, K, V, output-projection input, dropout mask.
  double attn = (2 * h + q + 2 * kv + q) * act + mask * h;
  if (!flash) {
    // Scores: the softmax output (fp32 in transformers' eager attention and under autocast), the
    // dropout mask and output, and the 16-bit copy the value matmul keeps.
    double per_score = 4 + (a.attention_dropout > 0 ? 1 + 4 : 0) + (act < 4 ? act : 0);
    attn += a.heads * s_kv * per_score;
  }
  // MLP: LayerNorm input, first-projection input, the intermediate tensors (gated: gate, up,
  // activation and product; plain: pre- and post-activation), dropout mask.
  const double mlp = (2 * h + mlp_count * (a.gated_mlp ? 4 : 2) * mlp_width) * act + mask * h;
  return attn + mlp;
}

// Whether attention runs without a score matrix, and why. transformers' "sdpa" calls PyTorch's
// scaled_dot_product_attention, whose flash kernel takes 16-bit inputs only; with fp32 inputs the
// memory-efficient kernel takes over, except for grouped-query attention: transformers passes
// enable_gqa=True (torch >= 2.5, no mask) and that kernel does not admit it, so the math kernel
// materialises the fp32 scores (aten sdp_utils.cpp; transformers integrations/sdpa_attention.py).
// Under autocast the inputs are 16-bit.
bool fused_attention(const MemoryQuestion& q, const EngineProfile& eng, const std::string& compute,
                     std::string& why) {
  if (!eng.materialized_attention) {
    why = eng.name + "'s fused attention kernels";
    return true;
  }
  const std::string impl = lower(q.attention);
  if (impl == "flash_attention_2") {
    why = "flash_attention_2";
    return true;
  }
  if (impl == "eager") {
    why = "eager attention";
    return false;
  }
  const bool gqa = !q.arch.mla() && q.arch.kv_heads < q.arch.heads;
  if (compute == "fp32" && gqa) {
    why = "sdpa with fp32 inputs and grouped-query attention runs PyTorch's math kernel";
    return false;
  }
  why = compute == "fp32" ? "sdpa with fp32 inputs runs PyTorch's memory-efficient kernel"
                          : "sdpa with 16-bit inputs runs PyTorch's flash kernel";
  return true;
}

}  // namespace

double parse_engine_version(const std::string& text) {
  for (std::size_t i = 0; i + 2 < text.size(); ++i) {
    auto digit = [&](std::size_t j) {
      return j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]));
    };
    if (!digit(i) || (i > 0 && (digit(i - 1) || text[i - 1] == '.'))) continue;
    double parts[3] = {0, 0, 0};
    std::size_t j = i;
    int n = 0;
    for (; n < 3; ++n) {
      if (!digit(j)) break;
      double x = 0;
      while (digit(j) && x < 1e5) x = x * 10 + (text[j++] - '0');
      parts[n] = x;
      if (j >= text.size() || text[j] != '.') {
        ++n;
        break;
      }
      ++j;
    }
    if (n >= 2) return parts[0] * 1e6 + parts[1] * 1e3 + parts[2];
    i = j;
  }
  return 0;
}

const ProfileBand* profile_band(const EngineProfile& engine, const std::string& version) {
  const std::string v = lower(version);
  const double at = v.empty() ? engine.default_version : parse_engine_version(v);
  std::string generation;
  for (const char* g : {"v0", "v1"}) {
    const std::size_t pos = v.find(g);
    if (pos != std::string::npos &&
        (pos == 0 || !std::isalnum(static_cast<unsigned char>(v[pos - 1]))))
      generation = g;
  }
  const ProfileBand* best = nullptr;
  for (int pass = 0; pass < 2 && !best; ++pass) {
    for (const auto& band : engine.bands) {
      if (band.from_version > at ||
          (pass == 0 && !generation.empty() && band.generation != generation))
        continue;
      if (!best || band.from_version >= best->from_version) best = &band;
    }
  }
  return best ? best : engine.bands.empty() ? nullptr : &engine.bands.front();
}

std::optional<TrainMode> parse_train_mode(const std::string& text) {
  const std::string t = lower(text);
  if (t == "load_only") return TrainMode::kLoadOnly;
  if (t == "inference") return TrainMode::kInference;
  if (t == "full_finetune" || t == "fine_tuning" || t == "full_fine_tuning")
    return TrainMode::kFullFinetune;
  if (t == "lora") return TrainMode::kLora;
  if (t == "qlora") return TrainMode::kQlora;
  if (t == "pretraining" || t == "training") return TrainMode::kPretraining;
  return std::nullopt;
}

std::string to_string(TrainMode mode) {
  switch (mode) {
    case TrainMode::kLoadOnly:
      return "load_only";
    case TrainMode::kInference:
      return "inference";
    case TrainMode::kFullFinetune:
      return "full_finetune";
    case TrainMode::kLora:
      return "lora";
    case TrainMode::kQlora:
      return "qlora";
    case TrainMode::kPretraining:
      return "pretraining";
  }
  return "inference";
}

namespace {

// One memory estimate in the making: the question, the catalog's figures it reads, the estimate's
// lines so far and the figures one part leaves for the next. estimate_memory runs the parts in
// order: weights, training states, KV cache, activations, paged states, runtime and pool.
struct Sizing {
  Sizing(const MemoryConstants& constants, const MemoryQuestion& question,
         const WeightFormat& format, const EngineProfile& engine, const OptimizerSpec* optimizer,
         const std::string& compute_type, double kv_element_bytes, const std::string& sharding_kind)
      : k(constants),
        q(question),
        fmt(format),
        eng(engine),
        opt(optimizer),
        compute(compute_type),
        kv_el(kv_element_bytes),
        sharding(sharding_kind),
        sac(question.selective_checkpointing),
        a(question.arch),
        act(compute_type == "fp32" ? 4 : 2),
        tp(std::max(1.0, question.tensor_parallel)),
        pp(std::max(1.0, question.pipeline_parallel)),
        dp(std::max(1.0, std::floor(question.gpus / (tp * pp)))),
        full_shard(sharding_kind == "zero3" || sharding_kind == "fsdp" ||
                   sharding_kind == "fsdp_full_shard"),
        grads_sharded(full_shard || sharding_kind == "zero2"),
        states_sharded(grads_sharded || sharding_kind == "zero1"),
        explain(question.explain),
        training(is_training(question.mode)),
        adapters(question.mode == TrainMode::kLora || question.mode == TrainMode::kQlora),
        generates(question.mode == TrainMode::kInference),
        active_width(a.moe() ? a.moe_intermediate : a.intermediate),
        // Shared experts counted in routed-expert widths (Qwen2-MoE's one shared expert is 4 wide).
        active_count(a.moe() ? a.experts_per_token +
                                   a.shared_experts * a.shared_intermediate / a.moe_intermediate
                             : 1),
        flash(fused_attention(question, engine, compute_type, attention_why)) {
    e.params = count_parameters(a);
  }

  const MemoryConstants& k;
  const MemoryQuestion& q;
  const WeightFormat& fmt;
  const EngineProfile& eng;
  const OptimizerSpec* opt;  // training only
  const std::string compute;
  const double kv_el;
  const std::string sharding;
  const std::string& sac;
  const Architecture& a;
  MemoryEstimate e;
  const ParameterCount& p = e.params;
  const double act, tp, pp, dp;
  const bool full_shard, grads_sharded, states_sharded, explain, training, adapters, generates;
  const double active_width, active_count;
  std::string attention_why;  // set with flash: the kernel the attention runs
  const bool flash;
  double adapter_bytes_per_token = 0;  // over all layers: what the LoRA adapters save for backward
  double listed_bytes = 0;  // the lines' bytes, also when they are not listed
  // Weights.
  double unquantized = 0, weights_all = 0, checkpoint_bytes = 0, weights_gpu = 0,
         bytes_per_param = 0, layer_params = 0;
  double paged_states = 0;
  // KV cache.
  double kv_layer_token = 0, layers_here = 0, seqs = 0;
  double kv_generated = 0;  // a dynamic cache's growth after the prefill (decoder-only models)
  double transient = 0;     // memory that comes and goes: the allocator keeps part of it
  double runtime = 0;

  // A line of the estimate, listed with its basis (made by `basis()`) when the answer explains.
  template <class Basis>
  void add(const char* key, const char* label, double bytes, const Basis& basis) {
    if (!(bytes > 0)) return;  // NaN included: a line the figures cannot hold is left out
    listed_bytes += bytes;
    if (explain) e.lines.push_back({key, label, bytes, basis()});
  }
  template <class Basis>
  void add_runtime(const char* key, const char* label, double bytes, const Basis& basis) {
    if (bytes <= 0) return;
    runtime += bytes;
    add(key, label, bytes, basis);
  }

  // ---- Weights ---------------------------------------------------------------------------------
  void weights() {
    unquantized = p.total - p.linear;
    weights_all = fmt.whole_model ? p.total * fmt.linear_bits / 8
                                  : p.linear * fmt.linear_bits / 8 + unquantized * fmt.other_bytes;
    // Runtimes that keep a 16-bit checkpoint's parameters in fp32 (cast to the input's type per
    // call).
    const bool upcast = eng.fp32_parameters && !fmt.whole_model && fmt.linear_bits == 16;
    checkpoint_bytes = weights_all;
    if (upcast) weights_all = p.total * 4;
    e.weights_bytes = weights_all;
    std::string wbasis;
    if (explain)
      wbasis = fmt.whole_model ? num(p.total / 1e9) + " B parameters x " + num(fmt.linear_bits) +
                                     " bits (" + fmt.basis + ")"
                               : num(p.linear / 1e9) + " B linear-layer parameters x " +
                                     num(fmt.linear_bits) + " bits + " + num(unquantized / 1e9) +
                                     " B others (embeddings, head, norms, biases) x " +
                                     num(fmt.other_bytes) + " bytes (" + fmt.basis + ")";
    if (upcast && explain)
      wbasis = num(p.total / 1e9) + " B parameters x 4 bytes: " + eng.name +
               " keeps the parameters in fp32 and casts each weight to the input's type per call";
    weights_gpu = weights_all / (tp * pp);
    if (tp * pp > 1 && explain)
      wbasis += "; split over " + num(tp * pp) + " GPUs (tensor x pipeline parallel)";
    bytes_per_param = weights_all / std::max(1.0, p.total);
    layer_params = p.linear / std::max(1.0, a.layers + a.encoder_layers);
    if (full_shard) {
      if (q.cpu_offload && sharding == "zero3") {
        // DeepSpeed keeps gathered parameters resident up to stage3_max_live_parameters.
        // The embedding and output matrices are gathered whole and held from forward to backward
        // (a tied matrix is gathered for both of its uses); estimate from the PEFT ZeRO-3 offload
        // measurements, see model_config.json memory_model.deepspeed_zero3.
        const double live = std::min(p.total, k.zero3_max_live_parameters);
        const double vocab_matrices = a.vocab * a.hidden * 2;
        weights_gpu = (live + vocab_matrices) * bytes_per_param;
        if (explain)
          wbasis += "; ZeRO-3 with parameters offloaded to the CPU: up to " + num(live / 1e9) +
                    " B gathered parameters stay resident (stage3_max_live_parameters), plus the "
                    "gathered embedding and output matrices (" +
                    gib(vocab_matrices * bytes_per_param) + ")";
      } else if (q.cpu_offload) {
        // FSDP: parameters live on the host; a GPU gathers one unit at a time and prefetches the
        // next.
        const double unit = std::max(layer_params, p.embedding) * bytes_per_param;
        weights_gpu = 2 * unit;
        if (explain)
          wbasis +=
              "; sharded and offloaded to the CPU: the GPU holds the gathered unit being computed "
              "and "
              "the one prefetched (2 x " +
              gib(unit) + ")";
      } else {
        weights_gpu = weights_gpu / dp + 2 * layer_params * bytes_per_param;
        if (explain)
          wbasis += "; sharded over " + num(dp) + " data-parallel GPUs, plus two gathered layers";
      }
    }
    if (eng.layer_split == "sequential" && pp > 1 && q.gpu_memory_bytes) {
      // Layers fill the first GPU up to its free memory less room for the largest module, then the
      // next (accelerate's device_map="auto"); the fuller of the first two is reported.
      const double largest = std::max({layer_params, p.embedding, p.lm_head}) * bytes_per_param;
      const double context = context_bytes(k, eng, q);
      const double budget = std::max(0.0, *q.gpu_memory_bytes - context - largest);
      const double first = std::min(weights_all, budget);
      weights_gpu = std::max(first, weights_all - first);
      if (explain)
        wbasis = wbasis.substr(0, wbasis.find(';')) +
                 "; layers fill GPU 0 up to its free memory less the largest module (" +
                 gib(budget) + "), the rest go to the next GPU; the fuller GPU is shown";
    }
    add("weights", "Weights", weights_gpu, [&] { return wbasis; });
    e.weights_per_gpu_bytes = weights_gpu;
    if (eng.checkpoint_on_device && !training)
      add("checkpoint", "Loaded checkpoint (cached)", checkpoint_bytes / (tp * pp), [&] {
        return "the checkpoint is read onto the GPU before the model is built; PyTorch's caching "
               "allocator keeps its blocks after it is freed (" +
               eng.name + ")";
      });
  }

  // ---- Trainable parameters, gradients, optimizer states, master weights; false: a LoRA target
  // the model does not have (in `faults`).
  bool training_states(std::vector<std::pair<std::string, std::string>>& faults) {
    if (training) {
      double trainable = p.total;
      if (adapters) {
        trainable = 0;
        const double rank = q.lora_rank > 0 ? q.lora_rank : k.lora_default_rank;
        std::vector<std::string> targets = q.lora_targets;
        if (targets.empty()) {
          auto it = k.lora_default_targets.find(a.model_type);
          targets = it != k.lora_default_targets.end()
                        ? it->second
                        : std::vector<std::string>{"q_proj", "v_proj"};
        }
        // peft keeps the adapters in fp32 (autocast_adapter_dtype); engines that build them in the
        // model's dtype, and sharded data parallelism, which casts the whole model to one dtype
        // (FSDP's flat parameters, DeepSpeed's module cast), hold them in the compute dtype.
        const double adapter_bytes = eng.adapters_in_model_dtype || sharding != "none" ? act : 4;
        for (const auto& name : targets) {
          auto t = lora_target(a, name);
          if (!t) {
            faults.emplace_back(
                "lora/target_modules",
                "unknown module \"" + name +
                    "\": expected q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj or "
                    "their T5/GPT/BLOOM names");
            return false;
          }
          // Encoder-decoders: attention modules sit once per encoder layer and twice per decoder
          // layer (self and cross attention); MLP modules once per layer.
          const double copies = a.kind == ArchKind::kEncoderDecoder
                                    ? (t->per_layer == 2 ? a.encoder_layers + 2 * a.layers
                                                         : a.encoder_layers + a.layers)
                                    : t->per_layer * a.layers;
          trainable += rank * (t->in + t->out) * copies;
          // peft casts each adapted module's input to the adapters' dtype (a new tensor when it
          // differs from the model's) and, with lora_dropout, keeps a dropout mask and output: what
          // lora_A saves for backward beside the frozen layer's own input. lora_B keeps lora_A's
          // rank-wide output. A routed expert sees only the tokens sent to it.
          const bool routed =
              a.moe() && t->per_layer != 1 && t->per_layer == a.experts + a.shared_experts;
          const double seen = routed ? copies * active_count / t->per_layer : copies;
          const double input = q.lora_dropout > 0       ? adapter_bytes + 1
                               : adapter_bytes != act ? adapter_bytes
                                                        : 0;
          adapter_bytes_per_token += seen * (t->in * input + rank * adapter_bytes);
        }
      }
      e.trainable_parameters = trainable;
      const double shard = states_sharded ? dp : 1;
      // Gradients take the trainable weights' type: fp32 adapters and fp32 models 4 bytes, pure
      // 16-bit training 2 bytes.
      const double grad_bytes = adapters || bytes_per_param >= 4 ? 4 : 2;
      double grads = trainable * grad_bytes / (tp * pp);
      std::string gbasis;
      if (explain)
        gbasis = num(trainable / 1e6) + " M trainable parameters x " + num(grad_bytes) + " bytes";
      if (q.optimizer_in_backward && !adapters) {
        grads = std::max(p.embedding, p.lm_head) * grad_bytes;
        if (explain)
          gbasis =
              "optimizer step fused into backward: one parameter's gradient at a time (the "
              "largest, " +
              gib(grads) + ")";
      } else if (grads_sharded) {
        grads /= dp;
        if (explain) gbasis += " / " + num(dp) + " (sharded)";
      }
      if (q.cpu_offload && states_sharded && !adapters) {
        // Offloaded gradients live on the host, but FSDP computes each unit's gradient on the GPU,
        // unsharded in the parameters' type, before it reduce-scatters and copies it out (PyTorch
        // FSDP docs, CPUOffload; FSDP2 fully_shard offload_policy): the largest unit's at a time.
        const bool fsdp = sharding == "fsdp" || sharding == "fsdp_full_shard";
        const double unit =
            std::max({layer_params, p.embedding, p.lm_head}) * grad_bytes / (tp * pp);
        grads = fsdp ? unit : 0;
        if (fsdp && explain)
          gbasis = "offloaded to the host; the largest unit's unsharded gradient (" + gib(unit) +
                   ") is on the GPU before it is reduce-scattered and copied out";
      }
      add("gradients", "Gradients", grads, [&] { return gbasis; });
      // torch.optim creates its states like the parameters they step: 16-bit parameters trained
      // without an fp32 master copy get 16-bit states. Adapters are fp32 (peft's
      // autocast_adapter_dtype), and so are the states of an optimizer stepping a master copy.
      const bool master_copy = q.master_weights && bytes_per_param < 4 && !adapters;
      const double state_scale = opt->states_in_parameter_dtype && !adapters && !master_copy
                                     ? std::min(1.0, bytes_per_param / 4)
                                     : 1;
      double states = trainable * opt->bytes_per_parameter * state_scale;
      // Adafactor: a row and a column statistic per matrix (about 2 x trainable / width), and full
      // states for the vectors and embeddings it does not factor, when they are trained.
      if (opt->factored)
        states = (trainable * 2 / std::max(1.0, a.hidden) + (adapters ? 0 : unquantized)) * 4;
      states /= (tp * pp * shard);
      if (q.cpu_offload && states_sharded) {
        states = 0;
      }
      if (opt->paged) {
        paged_states =
            states;  // placed after everything else: they stay on the GPU only while there is room
      } else {
        add("optimizer", "Optimizer states", states, [&] {
          return opt->basis +
                 (state_scale < 1 ? "; held in the parameters' " + num(bytes_per_param) +
                                        "-byte dtype (torch.optim creates its states like the "
                                        "parameters; no fp32 master copy)"
                                  : "") +
                 (shard > 1 ? "; sharded over " + num(shard) + " GPUs" : "");
        });
      }
      if (q.master_weights && bytes_per_param < 4 && !adapters &&
          !(q.cpu_offload && states_sharded)) {
        add("master_weights", "FP32 master weights", trainable * 4 / (tp * pp * shard),
            [] { return "mixed precision keeps an fp32 copy of the trainable weights"; });
      }
      // Under a fully sharded data-parallel run the 16-bit copies are the gathered units (FSDP's
      // MixedPrecisionPolicy casts in the all-gather), already counted with the weights.
      if ((compute == "amp_fp16" || compute == "amp_bf16") && bytes_per_param >= 4 && !full_shard) {
        add("weight_casts", "16-bit weight copies (autocast)", p.linear * 2 / (tp * pp), [] {
          return "autocast casts each linear weight to 16 bits in the forward pass and keeps the "
                 "copy for backward";
        });
      }
    }

    return true;
  }

  // ---- KV cache of the engines that do not keep a pool -----------------------------------------
  void kv_cache() {
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
          basis = num(seqs) + " sequences x " + num(dec) + " decoder tokens + " +
                  num(cross_copies) + " x " + num(enc) + " cross-attention tokens, " +
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
          basis = num(seqs) + " sequences x " + num(tokens) + " tokens x " +
                  num(kv_layer_token * layers_here / 1024) + " KiB per token (" +
                  num(kv_elements_per_token_per_layer(a)) + " elements per layer" +
                  (a.mla()                ? ", MLA latent"
                   : a.kv_heads < a.heads ? ", " + num(a.kv_heads) + " KV heads"
                                          : "") +
                  ", " + num(kv_el) + " bytes each" +
                  (sliding > 0 ? "; sliding-window layers keep " + num(window_tokens) + " tokens"
                               : "") +
                  ")";
      }
      e.kv_cache_bytes = kv;
      add("kv_cache", "KV cache", kv, [&] { return basis; });
    }
  }

  // ---- Activations and logits: serving (a prefill's peak) and loading -------------------------
  void serving_activations() {
    if (generates && eng.kv_policy != "pool" && eng.compute_buffer_mib == 0) {
      // Prefill peak: one layer's intermediate tensors at a time, the attention scores when
      // materialised, then the logits.
      const bool encdec = a.kind == ArchKind::kEncoderDecoder;
      const double s = encdec && a.source_positions > 0 ? a.source_positions : q.sequence;
      const double tokens = q.batch * s;
      const double layer =
          tokens * (3 * a.hidden + (a.gated_mlp ? 3 : 2) * active_width * active_count) * act;
      const double scores =
          flash ? 0 : q.batch * a.heads * s * s * (act + (eng.softmax_fp32 ? 4 : 0));
      const double logit_rows =
          eng.logits_all_prompt_tokens && !encdec ? q.batch * q.sequence : seqs;
      const double logits = logit_rows * a.vocab * (act + (act < 4 ? 4 : 0));  // + fp32 copy
      double peak = std::max(layer + scores, logits);
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
                   (scores > 0 ? " + materialised attention scores (" + gib(scores) + ", " + attention_why + ")" : "") +
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
  void training_activations() {
    const double s = q.sequence, b = q.batch;
    const double all_layers = a.layers + a.encoder_layers;
    // The adapters' saved inputs per layer: counted where a layer keeps its activations through the
    // backward pass; a checkpointed layer recomputes them one layer at a time.
    const double adapters_per_layer = adapter_bytes_per_token / std::max(1.0, all_layers);
    const double per_token =
        layer_activation_bytes_per_token(a, act, s, flash, active_width, active_count);
    double acts = 0;
    std::string basis;
    if (sac == "op") {
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
      acts = b * s * (saved * all_layers / pp + 2 * per_token);
      if (explain)
        basis = "selective (op) checkpointing: each layer keeps its input, " +
                std::string(compute == "fp8" ? "no matmul output (fp8 matmuls are recomputed)"
                                             : "every second matmul's output") +
                (flash ? " and the attention output" : "") + " (" + num(saved) +
                " bytes per token x " + num(all_layers / pp) +
                " layers), + one layer recomputed and its backward";
    } else if (!sac.empty()) {
      // Every N-th layer checkpointed whole (torchtitan's selective_ac_option = N); the others keep
      // all their activations.
      const double every = std::max(1.0, std::floor(std::atof(sac.c_str())));
      const double layers = all_layers / pp, ckpt = std::floor(layers / every);
      acts = b * s *
             (ckpt * a.hidden * act + (layers - ckpt) * (per_token + adapters_per_layer) +
              (ckpt > 0 ? per_token : 0));
      if (explain)
        basis = "selective (every " + num(every) + " layers) checkpointing: " + num(ckpt) +
                " layers keep only their input, " + num(layers - ckpt) + " keep " + num(per_token) +
                " bytes per token, + one layer recomputed";
    } else if (q.gradient_checkpointing) {
      acts = b * s * (a.hidden * act * all_layers / pp + 2 * per_token);
      if (explain)
        basis = "checkpointed: each layer's input (" + num(all_layers / pp) + " x s x b x h x " +
                num(act) + " bytes) + one layer recomputed and its backward";
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
      if (explain)
        basis += "; split over " + num(tp) + " tensor-parallel ranks (sequence parallelism)";
    }
    transient += acts;
    add("activations", "Activations", acts, [&] { return basis; });
    const double vocab_rows = b * s;
    // The loss upcasts the logits to fp32 (a copy only when they are 16-bit) and keeps the fp32
    // log-softmax for backward.
    const double upcast_copy = act < 4 ? 4 : 0;
    const double logits = vocab_rows * a.vocab * (q.chunked_loss ? act : act + upcast_copy + 4) /
                          (a.kind == ArchKind::kEncoder ? a.vocab : 1) / tp;
    if (a.kind != ArchKind::kEncoder) {
      transient += logits;
      add("logits", "Logits and loss", logits, [&] {
        return num(vocab_rows) + " tokens x " + num(a.vocab) + " vocabulary x " +
               (q.chunked_loss ? num(act) + " bytes (chunked loss)"
                               : act < 4 ? num(act) + " + 4 + 4 bytes (logits, fp32 copy, fp32 log-softmax)"
                                         : "4 + 4 bytes (fp32 logits, fp32 log-softmax)");
      });
    }
    if (q.mode == TrainMode::kQlora) {
      const double largest = a.hidden * active_width * act;
      transient += largest;
      add("dequantization", "Dequantized weight (transient)", largest,
          [] { return "the largest 4-bit linear layer dequantized for its matmul"; });
    }
  }

  void paged_optimizer_states() {
    if (paged_states > 0) {
      // Paged optimizer states (unified memory) are evicted to host memory only under pressure: on
      // a device of known size they occupy what the rest leaves free.
      const double context_guess = context_bytes(k, eng, q);
      const double room = q.gpu_memory_bytes
                              ? std::max(0.0, *q.gpu_memory_bytes - e.tensor_bytes - context_guess)
                              : paged_states;
      const double resident = std::min(paged_states, room);
      add("optimizer", "Optimizer states (paged)", resident, [&] {
        return opt->basis + "; " + gib(resident) + " of " + gib(paged_states) +
               " resident on the GPU" +
               (resident < paged_states ? ", the rest paged to host memory" : "");
      });
      e.tensor_bytes += resident;
    }
  }

  // A pool that fits: its bytes and tokens, and how many sequences of the longest length it holds.
  // `window`: tokens a sliding-window layer keeps per sequence in the pool (0: every token, as a
  // full-attention layer does).
  template <class How>
  void place_pool(double pool, const How& how, double window = 0) {
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
  void runtime_and_pool() {
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

  void static_pool(double context) {
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

  void profiled_pool(double context) {
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
    const double per_logit = band && band->sampler_bytes_per_logit > 0
                                 ? band->sampler_bytes_per_logit
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
        // sliding_window - 1 + max_num_batched_tokens tokens of a sequence.
        const double window = band && band->window_kv ? a.sliding_window - 1 + tokens : 0;
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
};

}  // namespace

MemoryAnswer estimate_memory(const MemoryConstants& k, const MemoryQuestion& q) {
  MemoryAnswer answer;
  auto fault = [&](const std::string& field, const std::string& message) {
    answer.faults.emplace_back(field, message);
  };
  if (!k.present) {
    fault("model", "the catalog has no memory_model block in model_config.json");
    return answer;
  }
  const auto fmt_it = k.weight_formats.find(lower(q.weight_format));
  if (fmt_it == k.weight_formats.end())
    fault("weight_format",
          "expected one of " + keys_of(k.weight_formats) + ", got \"" + q.weight_format + "\"");
  const auto engine_it = k.engines.find(lower(q.engine));
  if (engine_it == k.engines.end())
    fault("engine", "expected one of " + keys_of(k.engines) + ", got \"" + q.engine + "\"");
  const bool training = is_training(q.mode);
  const OptimizerSpec* opt = nullptr;
  if (training) {
    auto it = k.optimizers.find(lower(q.optimizer));
    if (it == k.optimizers.end()) {
      fault("optimizer",
            "expected one of " + keys_of(k.optimizers) + ", got \"" + q.optimizer + "\"");
    } else {
      opt = &it->second;
    }
  }
  static const char* kComputes[] = {"fp32", "amp_fp16", "amp_bf16", "bf16", "fp16", "fp8"};
  const std::string compute = lower(q.compute);
  if (std::find(std::begin(kComputes), std::end(kComputes), compute) == std::end(kComputes)) {
    fault("compute_precision",
          "expected one of fp32, amp_fp16, amp_bf16, bf16, fp16, fp8, got \"" + q.compute + "\"");
  }
  double kv_el = compute == "fp32" ? 4 : 2;
  if (!q.kv_format.empty()) {
    auto it = k.kv_bytes.find(lower(q.kv_format));
    if (it == k.kv_bytes.end()) {
      fault("kv_cache_format",
            "expected one of " + keys_of(k.kv_bytes) + ", got \"" + q.kv_format + "\"");
    } else {
      kv_el = it->second;
    }
  }
  static const char* kShardings[] = {"none", "zero1", "zero2", "zero3", "fsdp", "fsdp_full_shard"};
  const std::string sharding = lower(q.sharding);
  if (std::find(std::begin(kShardings), std::end(kShardings), sharding) == std::end(kShardings)) {
    fault("sharding",
          "expected one of none, zero1, zero2, zero3, fsdp, got \"" + q.sharding + "\"");
  }
  if (const std::string impl = lower(q.attention);
      impl != "sdpa" && impl != "eager" && impl != "flash_attention_2")
    fault("attention", "expected sdpa, eager or flash_attention_2, got \"" + q.attention + "\"");
  const std::string& sac = q.selective_checkpointing;
  if (!sac.empty() && sac != "op" &&
      (sac.find_first_not_of("0123456789") != std::string::npos || std::atof(sac.c_str()) < 1))
    fault(
        "activation_checkpointing",
        "expected \"op\" or a whole number of layers N >= 1 (checkpoint every N-th layer), got \"" +
            sac + "\"");
  if (!answer.faults.empty()) return answer;
  Sizing s(k, q, fmt_it->second, engine_it->second, opt, compute, kv_el, sharding);
  s.weights();
  if (!s.training_states(answer.faults)) return answer;
  s.kv_cache();
  if (s.generates || q.mode == TrainMode::kLoadOnly) {
    s.serving_activations();
  } else {
    s.training_activations();
  }
  s.e.tensor_bytes = s.listed_bytes;
  s.paged_optimizer_states();
  s.runtime_and_pool();
  s.e.total_bytes = s.e.tensor_bytes + s.runtime;
  s.e.reserved_bytes = s.e.tensor_bytes + s.eng.allocator_reserve * s.transient;
  answer.estimate = std::move(s.e);
  return answer;
}

}  // namespace gpufleet
