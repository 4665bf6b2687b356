// The memory model's weights (formats, upcasts, sharding, offload) and training states
// (trainable parameters, LoRA adapters, gradients, optimizer states, master weights).
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "model/memory_sizing.hpp"

namespace gpufleet::memory_parts {
namespace {

// (in, out) features of a LoRA target module by its name in any of the common model families,
// and how many of it each decoder layer has.
struct Target {
  double in = 0, out = 0, per_layer = 1;
  bool LinearInputs::*input;  // which of a layer's linear inputs the module reads
};

std::optional<Target> lora_target(const Architecture& a, const std::string& name) {
  const double h = a.hidden, q = a.heads * a.head_dim, kv = a.kv_heads * a.head_dim,
               I = a.intermediate;
  const double attn_blocks = a.kind == ArchKind::kEncoderDecoder ? 2 : 1;  // self + cross attention
  const std::string n = lower(name);
  auto is = [&](std::initializer_list<const char*> names) {
    return std::any_of(names.begin(), names.end(), [&](const char* x) { return n == x; });
  };
  using L = LinearInputs;
  if (is({"q_proj", "q", "query", "wq"})) return Target{h, q, attn_blocks, &L::attention_in};
  if (is({"k_proj", "k", "key", "wk"})) return Target{h, kv, attn_blocks, &L::attention_in};
  if (is({"v_proj", "v", "value", "wv"})) return Target{h, kv, attn_blocks, &L::attention_in};
  if (is({"o_proj", "o", "out_proj", "output_proj", "dense", "wo_attn", "c_proj"}))
    return Target{q, h, attn_blocks, &L::attention_out};
  if (is({"query_key_value", "c_attn", "qkv_proj", "wqkv"}))
    return Target{h, q + 2 * kv, 1, &L::attention_in};
  const double experts = a.moe() ? a.experts + a.shared_experts : 1;
  const double width = a.moe() ? a.moe_intermediate : I;
  if (is({"gate_proj", "up_proj", "wi_0", "wi_1", "wi", "w1", "w3", "fc1", "c_fc",
          "dense_h_to_4h"}))
    return Target{h, width, experts, &L::mlp_in};
  if (is({"down_proj", "wo", "w2", "fc2", "dense_4h_to_h"}))
    return Target{width, h, experts, &L::mlp_out};
  return std::nullopt;
}

}  // namespace

// ---- Weights ---------------------------------------------------------------------------------
void Sizing::weights() {
  unquantized = p.total - p.linear;
  weights_all = fmt.whole_model ? p.total * fmt.linear_bits / 8
                                : p.linear * fmt.linear_bits / 8 + unquantized * fmt.other_bytes;
  // Checkpoints of this format that ship a tied model's output head as its own 16-bit tensor,
  // which the engine keeps apart from the embeddings (model_config.json weight_formats,
  // tied_head_source).
  const auto& apart = fmt.tied_head_apart_engines;
  const double head_apart = !training && a.tied_embeddings && !fmt.whole_model &&
                                    std::find(apart.begin(), apart.end(), eng.key) != apart.end()
                                ? a.vocab * a.hidden * fmt.other_bytes
                                : 0;
  weights_all += head_apart;
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
  if (head_apart > 0 && explain)
    wbasis += "; + the output head kept apart from the tied embeddings (" + num(a.vocab) + " x " +
              num(a.hidden) + " x " + num(fmt.other_bytes) + " bytes = " + gib(head_apart) +
              "): " + eng.name + " holds the checkpoint's own 16-bit head";
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
               "; layers fill GPU 0 up to its free memory less the largest module (" + gib(budget) +
               "), the rest go to the next GPU; the fuller GPU is shown";
  }
  add("weights", "Weights", weights_gpu, [&] { return wbasis; });
  rope_tables();
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
bool Sizing::training_states(std::vector<std::pair<std::string, std::string>>& faults) {
  if (training) {
    double trainable = p.total;
    if (adapters) {
      trainable = 0;
      saved_inputs = LinearInputs{false, false, false, false, true};
      const double rank = q.lora_rank > 0 ? q.lora_rank : k.lora_default_rank;
      std::vector<std::string> targets = q.lora_targets;
      if (targets.empty()) {
        auto it = k.lora_default_targets.find(a.model_type);
        targets = it != k.lora_default_targets.end() ? it->second
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
        // lora_A saves for backward. Otherwise lora_A keeps the layer's input itself, which the
        // frozen layer does not (saved_inputs). lora_B keeps lora_A's rank-wide output. A routed
        // expert sees only the tokens sent to it.
        const bool routed =
            a.moe() && t->per_layer != 1 && t->per_layer == a.experts + a.shared_experts;
        const double seen = routed ? copies * active_count / t->per_layer : copies;
        const double input = q.lora_dropout > 0     ? adapter_bytes + 1
                             : adapter_bytes != act ? adapter_bytes
                                                    : 0;
        adapter_bytes_per_token += seen * (t->in * input + rank * adapter_bytes);
        if (input == 0) saved_inputs.*(t->input) = true;
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
      const double unit = std::max({layer_params, p.embedding, p.lm_head}) * grad_bytes / (tp * pp);
      grads = fsdp ? unit : 0;
      if (fsdp && explain)
        gbasis = "offloaded to the host; the largest unit's unsharded gradient (" + gib(unit) +
                 ") is on the GPU before it is reduce-scattered and copied out";
    }
    // Gradients held whole until the step and freed after it (zero_grad(set_to_none=True)) meet
    // the optimizer step's temporaries, not the next forward's activations.
    const bool grads_freed = q.gradients_freed_after_step && !q.optimizer_in_backward &&
                             !(q.cpu_offload && states_sharded);
    if (grads_freed) {
      step_gradients = grads;
      step_gradients_basis = gbasis;
      add_phase(kStep, "gradients", "Gradients (at the optimizer step)", grads, [&] {
        return gbasis +
               "; freed after each step (zero_grad(set_to_none=True)), so they meet the "
               "optimizer step, not the forward pass";
      });
    } else {
      add("gradients", "Gradients", grads, [&] { return gbasis; });
    }
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
    step_temporaries(trainable, 4 * state_scale, shard);
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
    autocast_weight_casts();
  }

  return true;
}

// autocast's 16-bit copies of the weights that a training step keeps for backward.
void Sizing::autocast_weight_casts() {
  // Under a fully sharded data-parallel run the 16-bit copies are the gathered units (FSDP's
  // MixedPrecisionPolicy casts in the all-gather), already counted with the weights.
  if ((compute == "amp_fp16" || compute == "amp_bf16") && bytes_per_param >= 4 && !full_shard) {
    // Each matmul keeps its weight's copy for backward (the output head's too). Checkpointed
    // layers keep none: autocast's cache of copies goes with its context, before backward, and
    // the recomputed layer casts its weights again.
    const double head = (p.lm_head > 0 ? p.lm_head : p.embedding) * 2 / (tp * pp);
    const double casts = p.linear * 2 / (tp * pp) + head;
    auto basis = [] { return "autocast's 16-bit copies of the linear weights and head"; };
    if (step_gradients == 0) {
      add("weight_casts", "16-bit weight copies (autocast)", casts, basis);
    } else if (q.gradient_checkpointing && sac.empty()) {
      add_phase(kBackward, "weight_casts", "16-bit weight copies (autocast)", head,
                [] { return "the head's copy (checkpointed layers keep none)"; });
      add_phase(kRecompute, "weight_casts", "16-bit weight copies (autocast)",
                layer_params * 2 / (tp * pp), [] { return "the recomputed layer's copies"; });
    } else {
      add_backward("weight_casts", "16-bit weight copies (autocast)", casts, basis);
    }
  }
}

// torch.optim's foreach step makes its temporaries for every parameter at once, in the states'
// dtype (model_config.json optimizers.*.foreach_source); a fused or per-parameter step, none beyond
// one tensor.
void Sizing::step_temporaries(double trainable, double state_element_bytes, double shard) {
#if GPUFLEET_ACCURACY  // only the accuracy harness's cases name a foreach step
  if (q.optimizer_step != "foreach" || opt->paged || (q.cpu_offload && states_sharded)) return;
  const double bytes =
      opt->foreach_temporaries * trainable * state_element_bytes / (tp * pp * shard);
  add_phase(kStep, "optimizer_step", "Optimizer step temporaries", bytes, [&] {
    return num(opt->foreach_temporaries) + " x " + num(trainable / 1e6) +
           " M trainable parameters x " + num(state_element_bytes) +
           " bytes: torch.optim's foreach step makes one state-sized temporary for every "
           "parameter at once (torch._foreach_sqrt(exp_avg_sqs))";
  });
#else
  (void)trainable, (void)state_element_bytes, (void)shard;
#endif
}

// Engines that put every checkpoint tensor on the GPU before they tie the output matrix to the
// embeddings hold a checkpoint's second copy of tied embeddings until then
// (model_config.json engines.transformers.ties_after_loading_source). The peak is the larger of
// that moment (the weights and the copy) and the run; the line is how far loading rises above it.
void Sizing::loading_peak() {
  if (!q.checkpoint_head_copy || !eng.ties_after_loading || !a.tied_embeddings || fmt.whole_model)
    return;
  const double copy = a.vocab * a.hidden * fmt.other_bytes;
  const double loading = weights_gpu + copy;
  add("loading_peak", "Loading peak above the run", loading - listed_bytes, [&] {
    return "the checkpoint stores the tied embeddings twice; " + eng.name +
           " loads the second copy (" + gib(copy) +
           ") beside the weights before tying it: " + gib(loading) +
           " in all, above the run's own peak";
  });
}

// Older transformers releases build one rotary embedding per attention layer, and each caches cos
// and sin over max_position_embeddings positions in the dtype the model is built in: buffers that
// move to the GPU with the model (model_config.json engines.transformers.rope_cache_source).
void Sizing::rope_tables() {
  const auto& types = eng.rope_cache_model_types;
  const double version = q.engine_version.empty() ? 0 : parse_engine_version(q.engine_version);
  if (!(version > 0 && version < eng.rope_cache_before_version) || !(a.max_positions > 0) ||
      std::find(types.begin(), types.end(), a.model_type) == types.end())
    return;
  const double layers = a.layers / pp;
  add("rope_tables", "Rotary-embedding tables", layers * 2 * a.max_positions * a.head_dim * act,
      [&] {
        return num(layers) + " attention layers x cos and sin x " + num(a.max_positions) +
               " positions x " + num(a.head_dim) + " x " + num(act) + " bytes: " + eng.name + " " +
               q.engine_version + " caches them in every layer";
      });
}

}  // namespace gpufleet::memory_parts
