#pragma once
// The fields of model_config.json's objects: the model sizes and formats, the memory model's
// engines and the throughput model's constants (fields.cpp's table of kinds names them).

#include <iterator>

#include "catalog/fields.hpp"

namespace gpufleet::detail::fields::model_config {

using T = Type;
using namespace define;

// ---- model_config.json -----------------------------------------------------------------------

inline constexpr Field kModelConfigFile[] = {
    str("$schema", kInfo,
        FIELD_DOC(
            "the JSON Schema of this file, for editors (./schemas/model_config.schema.json)")),
    obj("model_sizes", kRequired, "model_sizes",
        FIELD_DOC("size classes (seed 004): small, medium, large, ...")),
    obj("precision_formats", kRequired, "precision_formats",
        FIELD_DOC("the seed's precisions: bytes per parameter and native architectures")),
    obj("memory_planning", kRequired, "memory_planning",
        FIELD_DOC("the seed's memory rule: weights x multiplier")),
    obj("models", 0, "models",
        FIELD_DOC("concrete models by key, each with its Hugging Face config.json")),
    obj("generic_decoder", 0, "generic_decoder",
        FIELD_DOC("the models whose shapes size a model given by its parameter count")),
    obj("memory_model", 0, "memory_model",
        FIELD_DOC("the memory model's constants: formats, optimizers, engines, runtime")),
    obj("throughput_model", 0, "throughput_model",
        FIELD_DOC("the throughput model's constants: efficiencies, MFU, links")),
    obj("measured_error", 0, "measured_error",
        FIELD_DOC("the error of each kind of figure over the measurement cases, written by "
                  "scripts/accuracy-doc.sh")),
};

inline constexpr Field kMeasuredError[] = {
    str("generated_by", kInfo, FIELD_DOC("the script that writes this block")),
    field("case_files", T::kStrings, kInfo, FIELD_DOC("the measurement case files it summarizes")),
    objects("kinds", kRequired, "measured_error_kind", 0, 256,
            FIELD_DOC("one summary per quantity x phase x engine")),
};

inline constexpr Field kMeasuredErrorKind[] = {
    str("quantity", kRequired, FIELD_DOC("memory or throughput")),
    str("phase", kRequired, FIELD_DOC("inference or training")),
    str("engine", kRequired,
        FIELD_DOC("the engine (a key of memory_model.engines) or the framework the cases name")),
    str("vendor", 0,
        FIELD_DOC("the vendor of the cases' GPUs (nvidia, amd, aws; empty when unknown)")),
    num("n", kRequired, 1, 1e6, FIELD_DOC("high- and medium-confidence cases predicted")),
    num("sources", kRequired, 1, 1e6,
        FIELD_DOC(
            "publications the cases come from, each weighted equally (leave one source out)")),
    str("pool", kRequired,
        FIELD_DOC("the cases the band is taken over: the kind's, the engine's on any vendor, or "
                  "the quantity x phase's (fewer than 3 sources)"),
        "kind engine phase"),
    num("median_abs_err_pct", kRequired, 0, 1e6, FIELD_DOC("median absolute error, %")),
    num("p90_abs_err_pct", kRequired, 0, 1e6, FIELD_DOC("90th percentile absolute error, %")),
};

inline constexpr Field kModelSize[] = {
    str("name", kRequired, FIELD_DOC("the size class as shown")),
    num("parameter_count_billion", kRequired | kMinExclusive, 0, 100000,
        FIELD_DOC("parameters, billions")),
    num("memory_overhead_multiplier", kRequired, 1, 100,
        FIELD_DOC("the seed's training memory: weights x this")),
    field("typical_use_cases", T::kStrings, 0, FIELD_DOC("what models of this size are used for")),
    field("examples", T::kStrings, 0, FIELD_DOC("models of this size")),
};

inline constexpr Field kPrecisionFormat[] = {
    str("name", kRequired, FIELD_DOC("the precision as shown")),
    num("bytes_per_parameter", kRequired | kMinExclusive, 0, 16, FIELD_DOC("bytes per weight")),
    field("native_architectures", T::kStrings, 0,
          FIELD_DOC("architectures (prefixes of a GPU's arch) that run it natively")),
};

inline constexpr Field kMemoryPlanning[] = {
    num("training_multiplier", kRequired, 1, 100,
        FIELD_DOC("training memory = weights x this (seed 004: 1.5)")),
    num("fine_tuning_multiplier", kRequired, 1, 100,
        FIELD_DOC("fine-tuning memory = weights x this")),
    num("inference_multiplier", kRequired, 1, 100,
        FIELD_DOC("inference memory = weights x this (seed 004: 1.2)")),
};

inline constexpr Field kModel[] = {
    str("name", kRequired, FIELD_DOC("the model's name as shown")),
    str("hf_id", 0, FIELD_DOC("its Hugging Face id (a request may name the model by it)")),
    field("aliases", T::kStrings, 0, FIELD_DOC("other names a request may use")),
    str("source", kRequired, FIELD_DOC("where the config.json comes from")),
    num("published_parameters", 0, 0, 1e14, FIELD_DOC("the parameter count its makers publish")),
    num("published_active_parameters", 0, 0, 1e14,
        FIELD_DOC("active parameters per token (mixture of experts)")),
    obj("config", kRequired, nullptr,
        FIELD_DOC("the Hugging Face config.json; the architecture reader takes the fields it knows "
                  "and checks them")),
    num("computed_parameters", kInfo, 0, 0,
        FIELD_DOC("the count computed from config, for comparison")),
    num("computed_active_parameters", kInfo, 0, 0,
        FIELD_DOC("active parameters computed from config")),
    str("published_parameters_source", kInfo, FIELD_DOC("where published_parameters comes from")),
    boolean("verified", kInfo, FIELD_DOC("config checked against the published count")),
};

inline constexpr Field kGenericDecoder[] = {
    field("shapes_from", T::kStrings, kRequired,
          FIELD_DOC("keys of \"models\" whose shapes are interpolated")),
    str("source", kRequired, FIELD_DOC("why these models")),
};

inline constexpr Field kMemoryModel[] = {
    obj("weight_formats", kRequired, "weight_formats",
        FIELD_DOC("weight formats by key (fp16, nf4, gguf_q4_k_m, ...)")),
    obj("kv_cache_formats", kRequired, "kv_cache_formats", FIELD_DOC("KV-cache formats by key")),
    obj("optimizers", kRequired, "optimizers", FIELD_DOC("optimizers by key")),
    obj("engines", kRequired, "engines", FIELD_DOC("serving and training engines by key")),
    obj("cuda_context", kRequired, "cuda_context", FIELD_DOC("the CUDA context's memory")),
    obj("deepspeed_zero3", kRequired, "deepspeed_zero3",
        FIELD_DOC("DeepSpeed ZeRO-3's live parameters")),
    obj("lora", kRequired, "lora", FIELD_DOC("LoRA defaults")),
};

inline constexpr Field kWeightFormat[] = {
    num("bits_per_weight", kRequired, 0.5, 64,
        FIELD_DOC("bits per quantized (linear-layer) weight")),
    num("unquantized_bytes_per_parameter", 0, 0.5, 8,
        FIELD_DOC("bytes per weight left unquantized (default 2)")),
    boolean("whole_model_average", 0, FIELD_DOC("bits_per_weight is the whole model's average")),
    str("quantizer", 0,
        FIELD_DOC("the library that writes such checkpoints, as measured cases name it")),
    str("head_copy_before_version", 0,
        FIELD_DOC(
            "its releases before this one save tied embeddings twice (as the output matrix too)")),
    str("head_copy_source", kInfo, FIELD_DOC("where head_copy_before_version comes from")),
    field("tied_head_apart_engines", T::kStrings, 0,
          FIELD_DOC("engines (keys of engines) that hold a tied model's output head as its own "
                    "16-bit matrix in this format")),
    str("tied_head_source", kInfo, FIELD_DOC("where tied_head_apart_engines comes from")),
    str("basis", kRequired, FIELD_DOC("how the figure is derived")),
    str("source", kRequired, FIELD_DOC("where it comes from")),
};

inline constexpr Field kKvCacheFormat[] = {
    num("bytes_per_element", kRequired, 0.1, 8, FIELD_DOC("bytes per cached element")),
    str("source", kRequired, FIELD_DOC("where it comes from")),
};

inline constexpr Field kOptimizer[] = {
    num("bytes_per_parameter", kRequired, 0, 64,
        FIELD_DOC("optimizer state bytes per trained parameter")),
    boolean("factored", 0, FIELD_DOC("factored second moments (Adafactor)")),
    boolean("paged", 0, FIELD_DOC("paged to host memory")),
    str("paged_source", kInfo,
        FIELD_DOC("where paged and how memory statistics count paged states come from")),
    boolean("states_in_parameter_dtype", 0,
            FIELD_DOC("the states take the trained parameters' dtype (torch.optim): "
                      "bytes_per_parameter is their fp32 size")),
    str("states_dtype_source", kInfo, FIELD_DOC("where states_in_parameter_dtype comes from")),
    num("foreach_temporaries", 0, 0, 8,
        FIELD_DOC("state-sized tensors torch.optim's foreach step allocates for every parameter at "
                  "once")),
    str("foreach_source", kInfo, FIELD_DOC("where foreach_temporaries comes from")),
    str("basis", kRequired, FIELD_DOC("how the figure is derived")),
    str("source", kRequired, FIELD_DOC("where it comes from")),
};

inline constexpr Field kEngine[] = {
    str("name", kRequired, FIELD_DOC("the engine as shown")),
    field("matches", T::kStrings, 0, FIELD_DOC("names of measured cases that used this engine")),
    boolean("pytorch", kRequired, FIELD_DOC("runs on PyTorch (its CUDA context and allocator)")),
    num("cuda_context_mib", 0, 0, 65536,
        FIELD_DOC("CUDA context, MiB (required when pytorch is false)")),
    num("eager_cuda_context_mib", 0, 0, 65536,
        FIELD_DOC("CUDA context with eager module loading, MiB")),
    boolean("fp32_parameters", 0, FIELD_DOC("keeps fp32 parameters")),
    boolean("checkpoint_on_device", 0, FIELD_DOC("keeps a checkpoint copy on the device")),
    boolean("ties_after_loading", 0,
            FIELD_DOC("loads every checkpoint tensor onto the device, then ties the output matrix "
                      "to the embeddings")),
    str("ties_after_loading_source", kInfo, FIELD_DOC("where ties_after_loading comes from")),
    num("allocator_reserve_fraction", 0, 0, 4,
        FIELD_DOC("allocator reserve as a share of live memory")),
    str("allocator_reserve_source", kInfo,
        FIELD_DOC("where allocator_reserve_fraction comes from: the allocator the engine uses by "
                  "default and what it keeps cached")),
    num("compute_buffer_mib", 0, 0, 65536, FIELD_DOC("compute buffers, MiB")),
    str("kv_cache", 0, FIELD_DOC("how the KV cache is allocated (default dynamic)"),
        "dynamic full_context pool"),
    boolean("logits_for_every_prompt_token", 0,
            FIELD_DOC("computes logits for every prompt token")),
    boolean("materialized_attention", 0,
            FIELD_DOC("materializes the attention matrix (default true)")),
    str("rope_cache_before_version", 0,
        FIELD_DOC("releases before this one keep rotary cos/sin tables over "
                  "max_position_embeddings in every attention layer (for rope_cache_model_types)")),
    field("rope_cache_model_types", T::kStrings, 0,
          FIELD_DOC("model_type values whose attention layers keep those tables")),
    str("rope_cache_source", kInfo, FIELD_DOC("where the rotary tables come from")),
    num("gpu_memory_utilization", 0, 0.05, 1,
        FIELD_DOC("share of GPU memory the pool takes (required with kv_cache pool)")),
    str("pool_sizing", 0,
        FIELD_DOC("how a pool is sized: what a profiled forward pass leaves of the share "
                  "(default), or the share of the memory free before loading less the weights"),
        "profile static"),
    objects("share_by_tensor_parallel", 0, "pool_share_step", 1, 16,
            FIELD_DOC("the default share from a tensor-parallel size on (static pools)")),
    str("share_source", kInfo, FIELD_DOC("where the shares come from")),
    num("non_torch_mib", 0, 0, 65536, FIELD_DOC("memory outside PyTorch's allocator, MiB")),
    num("non_torch_tp_mib", 0, 0, 65536,
        FIELD_DOC("non-torch memory added per GPU under tensor parallelism over NVLink, MiB")),
    str("non_torch_tp_source", kInfo, FIELD_DOC("where non_torch_tp_mib comes from")),
    str("default_version", 0,
        FIELD_DOC(
            "the release a request without engine_version means (required with profile_bands)")),
    num("sampler_bytes_per_logit", 0, 0, 256,
        FIELD_DOC(
            "bytes per sampled logit in the profile run's sampler (required with profile_bands)")),
    str("sampler_source", 0,
        FIELD_DOC("where sampler_bytes_per_logit comes from (required with profile_bands)")),
    objects("profile_bands", 0, "profile_band", 1, 32,
            FIELD_DOC("the profile run's defaults by release band (required with kv_cache pool)")),
    str("layer_split", 0, FIELD_DOC("how pipeline stages split the layers (default balanced)")),
    boolean("chunked_loss", 0, FIELD_DOC("computes the loss in chunks")),
    boolean("softmax_fp32", 0, FIELD_DOC("softmax in fp32 (default true)")),
    boolean("eager_rms_norm", 0,
            FIELD_DOC("RMSNorms run as separate PyTorch ops that keep an fp32 copy of their input "
                      "and the normed input for backward (default false)")),
    str("eager_rms_norm_source", kInfo, FIELD_DOC("where eager_rms_norm comes from")),
    boolean(
        "eager_loss_backward", 0,
        FIELD_DOC("the training loss runs as PyTorch ops, whose backward holds the fp32 "
                  "log-softmax, nll_loss's dense gradient and its own at once (default false)")),
    str("eager_loss_backward_source", kInfo, FIELD_DOC("where eager_loss_backward comes from")),
    boolean(
        "adapters_in_model_dtype", 0,
        FIELD_DOC(
            "LoRA adapters are built in the model's dtype (default false: peft's fp32 adapters)")),
    str("adapters_source", kInfo, FIELD_DOC("where adapters_in_model_dtype comes from")),
    str("cross_attention_cache", 0, FIELD_DOC("per_beam (default) or per_input")),
    str("source", kRequired, FIELD_DOC("where the figures come from")),
    str("eager_cuda_context_estimate", kInfo,
        FIELD_DOC("how eager_cuda_context_mib was estimated")),
};

inline constexpr Field kProfileBand[] = {
    str("label", kRequired, FIELD_DOC("the band as shown")),
    str("generation", kRequired, FIELD_DOC("the engine generation (v0, v1)")),
    str("from_version", kRequired, FIELD_DOC("the first release of the band")),
    num("max_num_seqs", kRequired, 1, 1e6, FIELD_DOC("dummy sequences the profile run samples")),
    num("chunked_prefill_above_tokens", 0, 0, 1e7,
        FIELD_DOC("chunked prefill is on by default above this max_model_len")),
    num("unchunked_min_tokens", 0, 0, 1e7,
        FIELD_DOC("without chunked prefill, at least these tokens per step")),
    num("serve_batched_tokens", kRequired, 1, 1e7,
        FIELD_DOC("max_num_batched_tokens of the server")),
    num("offline_batched_tokens", kRequired, 1, 1e7,
        FIELD_DOC("max_num_batched_tokens of the offline LLM class")),
    num("large_gpu_serve_batched_tokens", 0, 0, 1e7, FIELD_DOC("the server's on large GPUs")),
    num("large_gpu_offline_batched_tokens", 0, 0, 1e7,
        FIELD_DOC("the offline class's on large GPUs")),
    num("large_gpu_max_num_seqs", 0, 0, 1e6, FIELD_DOC("max_num_seqs on large GPUs")),
    boolean(
        "charges_cuda_context", 0,
        FIELD_DOC(
            "the pool is sized from free device memory, so the CUDA context counts against it")),
    num("sampler_bytes_per_logit", 0, 0, 256,
        FIELD_DOC("the band's sampler bytes per sampled logit (default: the engine's)")),
    boolean("sliding_window_kv", 0,
            FIELD_DOC("the pool keeps only the window (plus one step's batched tokens) of a "
                      "sliding-window layer's KV per sequence (a hybrid KV cache manager)")),
    str("sliding_window_kv_source", 0,
        FIELD_DOC("where sliding_window_kv comes from (required with it)")),
    str("source", kRequired, FIELD_DOC("where the band's defaults come from")),
};

inline constexpr Field kPoolShareStep[] = {
    num("from_tensor_parallel", kRequired, 1, 1024,
        FIELD_DOC("the smallest tensor-parallel size the share applies to")),
    num("share", kRequired, 0.05, 1, FIELD_DOC("the share of the memory free before loading")),
};

inline constexpr Field kCudaContext[] = {
    num("pytorch_eager_module_loading_mib", kRequired, 0, 65536,
        FIELD_DOC("PyTorch's CUDA context with eager module loading, MiB")),
    num("pytorch_lazy_module_loading_mib", kRequired, 0, 65536,
        FIELD_DOC("PyTorch's CUDA context with lazy module loading, MiB")),
    str("source", kRequired, FIELD_DOC("where the figures come from")),
};

inline constexpr Field kDeepspeedZero3[] = {
    num("stage3_max_live_parameters", kRequired, 0, 1e13,
        FIELD_DOC("DeepSpeed's stage3_max_live_parameters default")),
    str("source", kRequired, FIELD_DOC("where it comes from")),
};

inline constexpr Field kLora[] = {
    num("default_rank", kRequired, 1, 65536, FIELD_DOC("LoRA rank when a request gives none")),
    obj("default_target_modules", kRequired, "lora_target_modules",
        FIELD_DOC("the modules LoRA adapts, by model type")),
    str("source", kRequired, FIELD_DOC("where they come from")),
};
inline constexpr Field kTargetModules =
    field("*", T::kStrings, 0, FIELD_DOC("module names adapted for this model type"));

inline constexpr Field kThroughputModel[] = {
    obj("decode_bandwidth_efficiency", kRequired, "efficiency",
        FIELD_DOC("share of memory bandwidth decode reaches on one GPU")),
    obj("decode_bandwidth_efficiency_tensor_parallel", kRequired, "efficiency",
        FIELD_DOC("the same with tensor parallelism")),
    obj("prefill_mfu", kRequired, "prefill_mfu", FIELD_DOC("model FLOPS utilization of prefill")),
    obj("decode_mfu", kRequired, "efficiency", FIELD_DOC("model FLOPS utilization of decode")),
    obj("tensor_parallel", kRequired, "tensor_parallel",
        FIELD_DOC("all-reduce latency and link efficiency")),
    obj("pipeline_parallel", kRequired, "pipeline_parallel",
        FIELD_DOC("what pipeline stages on several instances send each other, and each message's "
                  "latency")),
    obj("serving", kRequired, "serving",
        FIELD_DOC("batch and KV-cache limits of a serving engine")),
    obj("training_mfu", kRequired, "training_mfu", FIELD_DOC("training MFU by GPU")),
    obj("training_attention", 0, "training_attention",
        FIELD_DOC(
            "the rate of training's attention FLOPs over its matmuls', by GPU or GPU family")),
    obj("training_loss", 0, "training_loss",
        FIELD_DOC("the memory traffic of a training step's loss over the vocabulary's logits")),
    obj("training_step", 0, "training_step",
        FIELD_DOC("a training step's memory passes outside its matmuls: the optimizer's step and "
                  "eager attention's scores")),
    obj("link_gb_per_s", kRequired, "link_gb_per_s",
        FIELD_DOC("GPU-to-GPU link bandwidth by GPU, GB/s")),
    obj("matmul_efficiency", 0, "matmul_efficiency",
        FIELD_DOC("measured share of peak dense-matmul FLOPS by GPU (\"<GPU> fp8\" for FP8), "
                  "\"default\" the calibration GPUs'")),
    obj("bandwidth_efficiency", 0, "bandwidth_efficiency",
        FIELD_DOC(
            "measured share of peak memory bandwidth by GPU: \"<GPU>\" a read-only stream "
            "(STREAM's Dot), \"<GPU> triad\" read-read-write, \"default\" the calibration GPUs'")),
    obj("layer_overhead_us", 0, "layer_overhead_us",
        FIELD_DOC("time each layer adds to every inference step, microseconds, by GPU vendor")),
    obj("eager_us_per_kernel", 0, "eager_us_per_kernel",
        FIELD_DOC("host time per eager kernel launch on the servers a GPU ships in, microseconds, "
                  "by GPU: replaces the eager engines' us_per_kernel")),
    obj("engines", 0, "inference_engines",
        FIELD_DOC("inference engines by key: how each sizes its KV pool, its host time per step, "
                  "its tiled kernels")),
};

inline constexpr Field kInferenceEngine[] = {
    str("name", kRequired, FIELD_DOC("the engine as shown")),
    field("matches", T::kStrings, 0, FIELD_DOC("names of measured cases that used this engine")),
    str("kv_cache_share_of", 0,
        FIELD_DOC("what the KV pool is a share of: the device's memory, or what the weights leave "
                  "free (absent: the serving block's pool)"),
        "device free_memory"),
    num("kv_memory_fraction", 0, 0.05, 1,
        FIELD_DOC("the share the KV pool takes (with kv_cache_share_of)")),
    num("step_overhead_ms", 0, 0, 1000,
        FIELD_DOC("host time per engine step the device waits for (scheduling, inputs, outputs)")),
    str("step_overhead_source", 0, FIELD_DOC("where step_overhead_ms comes from")),
    num("max_batch", 0, 1, 1e6, FIELD_DOC("the scheduler's default cap on running sequences")),
    str("max_batch_source", 0, FIELD_DOC("where max_batch comes from")),
    num("mla_moe_layer_us", 0, 0, 1e4,
        FIELD_DOC("time each layer of a model with MLA and routed experts adds to a decode step "
                  "whatever it reads (its chain of small kernels), microseconds")),
    str("mla_moe_layer_source", 0, FIELD_DOC("where mla_moe_layer_us comes from")),
    num("head_block_gb_per_s", 0, 0, 1e5,
        FIELD_DOC("decode attention in one thread block per sequence and query head (no split of "
                  "the context): the rate one block streams its head's keys and values, GB/s")),
    str("head_block_source", 0, FIELD_DOC("where head_block_gb_per_s comes from")),
    obj("tiled_kernel", 0, "tiled_kernel",
        FIELD_DOC("a weight-only kernel that dequantizes the weights again for every tile of input "
                  "rows")),
    obj("eager_host", 0, "eager_host",
        FIELD_DOC("an eager engine's host time per forward pass: its kernels launched one by one, "
                  "then its own per-step work")),
    num("eager_score_bytes", 0, 0, 1e3,
        FIELD_DOC("bytes the engine's eager attention moves per attention score through its "
                  "kernels (scores written, scaled, masked, softmaxed, read)")),
    str("eager_score_source", 0, FIELD_DOC("where eager_score_bytes comes from")),
    obj("eager_activation_bytes", 0, "eager_activation_bytes",
        FIELD_DOC("bytes the engine's elementwise kernels move per token and layer of a Llama-form "
                  "decoder in 16-bit compute, per element of each width")),
    str("source", kRequired, FIELD_DOC("where it comes from")),
};

inline constexpr Field kEagerHost[] = {
    num("kernels_per_layer", kRequired, 1, 1e4,
        FIELD_DOC("kernels one decoder layer launches in a forward pass")),
    obj("kernels_per_layer_by", 0, "kernels_per_layer_by",
        FIELD_DOC("kernels per layer counted for an attention implementation (\"eager\") or a "
                  "model type with one (\"qwen3 eager\"); others take kernels_per_layer")),
    num("kernels_per_step", kRequired, 0, 1e5,
        FIELD_DOC("kernels the generation loop launches per step beside the layers (embedding, "
                  "final norm, head, logits processors, stopping criteria)")),
    num("us_per_kernel", kRequired, 0.1, 1000,
        FIELD_DOC("host time per kernel (Python, dispatcher, launch), microseconds: the centre of "
                  "the documented range")),
    num("us_per_kernel_low", kRequired, 0.1, 1000,
        FIELD_DOC("the documented range's low end, microseconds")),
    num("us_per_kernel_high", kRequired, 0.1, 1000,
        FIELD_DOC("the documented range's high end, microseconds")),
    num("cudnn_graph_build_ms", 0, 0, 1e4,
        FIELD_DOC(
            "host time to build cuDNN attention's graph for a pass whose shapes the process has "
            "not run (SDPA on the GPUs of cudnn_preferred_on), milliseconds")),
    field("cudnn_preferred_on", T::kStrings, 0,
          FIELD_DOC("compute capabilities on which SDPA takes cuDNN attention first")),
    str("cudnn_graph_source", 0, FIELD_DOC("where the cuDNN graph figures come from")),
    str("source", kRequired, FIELD_DOC("where it comes from")),
};

inline constexpr Field kTiledKernel[] = {
    str("format", kRequired,
        FIELD_DOC("the weight format the kernel runs (a key of memory_model.weight_formats)")),
    num("tile_rows", kRequired, 1, 1e6,
        FIELD_DOC("input rows per tile: the weights are dequantized once per tile")),
    num("weights_per_s", kRequired, 1e6, 1e18,
        FIELD_DOC("weights dequantized and multiplied per second, per GPU")),
    str("source", kRequired, FIELD_DOC("where it comes from")),
};

inline constexpr Field kEfficiency[] = {
    num("value", kRequired, 0.01, 1, FIELD_DOC("the share reached")),
    str("source", kRequired, FIELD_DOC("where it comes from")),
};

inline constexpr Field kPrefillMfu[] = {
    num("short_prompt", kRequired, 0.01, 1, FIELD_DOC("MFU of a short prompt")),
    num("long_prompt", kRequired, 0.01, 1, FIELD_DOC("MFU of a long prompt")),
    num("long_prompt_tokens", kRequired, 1, 1e7,
        FIELD_DOC("where a prompt counts as long, tokens")),
    str("source", kRequired, FIELD_DOC("where it comes from")),
};

inline constexpr Field kTensorParallel[] = {
    num("allreduce_latency_us", kRequired, 0, 1e4,
        FIELD_DOC("latency of one all-reduce, microseconds")),
    num("interconnect_efficiency", kRequired, 0.01, 1,
        FIELD_DOC("share of link bandwidth reached")),
    str("source", kRequired, FIELD_DOC("where it comes from")),
};

inline constexpr Field kTrainingLoss[] = {
    num("logit_accesses", kRequired, 1, 100,
        FIELD_DOC("times a training step writes or reads each logit of each token")),
    str("source", kRequired, FIELD_DOC("where it comes from")),
};

inline constexpr Field kTrainingStep[] = {
    num("adamw_parameter_accesses", kRequired, 1, 100,
        FIELD_DOC("reads and writes of each parameter-sized tensor by one step of torch's AdamW")),
    num("eager_forward_score_accesses", kRequired, 0, 100,
        FIELD_DOC("reads and writes of each attention score in the compute precision by an eager "
                  "attention's forward")),
    num("eager_forward_fp32_score_accesses", kRequired, 0, 100,
        FIELD_DOC("those of its fp32 softmax output")),
    num("eager_backward_score_accesses", kRequired, 0, 100,
        FIELD_DOC("reads and writes of each score in the compute precision by its backward")),
    num("eager_backward_fp32_score_accesses", kRequired, 0, 100,
        FIELD_DOC("those in fp32 by its backward")),
    str("source", kRequired, FIELD_DOC("where it comes from")),
};

inline constexpr Field kPipelineParallel[] = {
    num("activation_tensors", kRequired, 1, 16,
        FIELD_DOC("hidden-size tensors a stage sends the next per token")),
    num("activation_bytes", kRequired, 1, 8, FIELD_DOC("bytes per element of those tensors")),
    num("rdma_message_latency_us", kRequired, 0, 1e4,
        FIELD_DOC("one message between instances over EFA or InfiniBand, microseconds")),
    num("tcp_message_latency_us", kRequired, 0, 1e4,
        FIELD_DOC("one message between instances over TCP, microseconds")),
    str("source", kRequired, FIELD_DOC("where they come from")),
};

inline constexpr Field kServing[] = {
    num("max_batch", kRequired, 1, 1e6, FIELD_DOC("largest batch an engine runs")),
    num("kv_memory_fraction", kRequired, 0.05, 1,
        FIELD_DOC("share of free memory the KV cache takes")),
    str("source", kRequired, FIELD_DOC("where it comes from")),
};

// A table keyed by GPU names beside its source: every member but these two is a figure.
inline constexpr Field kByGpu[] = {
    str("source", kRequired, FIELD_DOC("where the figures come from")),
    str("source_date", kInfo, FIELD_DOC("when they were taken")),
};
inline constexpr Field kEagerActivationBytes[] = {
    num("hidden", kRequired, 0, 1e3, FIELD_DOC("bytes per element of the hidden size")),
    num("query", kRequired, 0, 1e3, FIELD_DOC("bytes per element of the query heads' width")),
    num("kv", kRequired, 0, 1e3, FIELD_DOC("bytes per element of the key (or value) heads' width")),
    num("intermediate", kRequired, 0, 1e3, FIELD_DOC("bytes per element of the MLP's width")),
    num("qk_norm", kRequired, 0, 1e3,
        FIELD_DOC(
            "bytes per element of the query and key widths where the model norms them (Qwen3)")),
    str("source", kRequired, FIELD_DOC("where the counts come from")),
};

inline constexpr Field kKernelsPerLayerBy[] = {
    str("source", kRequired, FIELD_DOC("where the counts come from")),
    str("source_date", kInfo, FIELD_DOC("when they were taken")),
};
inline constexpr Field kKernelsPerLayerByValue =
    num("*", 0, 1, 1e4, FIELD_DOC("kernels one layer launches for this attention implementation"));
inline constexpr Field kByGpuValue =
    num("*", kZeroOr, 0.001, 1e5, FIELD_DOC("the figure for this GPU (0: unknown)"));

}  // namespace gpufleet::detail::fields::model_config
