#pragma once
// The fields of a request's objects: those every question shares, each question's own and the
// nested objects (request_fields.cpp's table of questions and kinds names them).

#include "catalog/fields.hpp"

namespace gpufleet::detail::request_tables {

using namespace fields;
using namespace fields::define;
using T = Type;

inline constexpr double kMaxTokens = 1e7;
// The workload's other spellings, as parse_workload_type takes them (any case).
#define TASK_ALIASES "batch_inference|batch|batch-inference fine_tuning|finetuning|full_finetune|fine-tuning|full-finetune"
#define TRAINING_ALIASES "training|pretraining"

// ---- the fields questions share, each question's own, and the nested objects ----------------

inline constexpr Field kRequestFields[] = {
    str("question", kRequired, FIELD_DOC("what is asked")),
    obj("model", 0, "request_model", FIELD_DOC("the model, in exactly one of four forms")),
    str("workload", 0, FIELD_DOC("the task (any case)"),
        "inference " TASK_ALIASES " lora qlora " TRAINING_ALIASES),
    str("precision", 0,
        FIELD_DOC("a weight format (the seed's name; or weight_format, not both); default fp16")),
    str("weight_format", 0, FIELD_DOC("a key of memory_model.weight_formats")),
    str("kv_cache_format", 0, FIELD_DOC("a key of memory_model.kv_cache_formats")),
    str("engine", 0, FIELD_DOC("a key of memory_model.engines")),
    str("memory_method", 0, FIELD_DOC("architecture (default) or seed (any case)"),
        "architecture seed"),
    obj("demand", 0, "demand", FIELD_DOC("what the deployment must serve or train")),
    obj("recipe", 0, "recipe", FIELD_DOC("how a training job runs")),
    num("max_tpot_ms", kMinExclusive, 0, 1e7,
        FIELD_DOC("time per output token, ms (as demand.max_tpot_ms)")),
    str("instance", 0, FIELD_DOC("an instance family (P5) or instance type (p5.48xlarge)")),
    num("gpus", kMinExclusive, 0, kMaxGpus,
        FIELD_DOC("GPUs used (default 1); served by whole instances")),
    num("hours_per_month", kMinExclusive, 0, 744,
        FIELD_DOC("hours a month (default 720); or schedule, not both")),
    obj("schedule", 0, "schedule", FIELD_DOC("hours a month as a schedule")),
    boolean("use_spot", 0, FIELD_DOC("spot where a spot price is known; or pricing, not both")),
    str("pricing", kUsual,
        FIELD_DOC("the way of paying: on_demand, spot, mixed, reserved_1y, reserved_3y, or a key "
                  "of a provider's ways_to_pay (the catalog's menus list them)"),
        "on_demand spot mixed reserved_1y reserved_3y"),
    num("spot_share", 0, 0, 1,
        FIELD_DOC("share on spot with \"pricing\": \"mixed\" (default 0.5)")),
    strings("providers", kUsual, FIELD_DOC("only these providers (aws, gcp, azure)"),
            "aws gcp azure"),
    strings("kinds", 0, FIELD_DOC("accelerator kinds: gpu, trainium, inferentia, cpu"),
            "gpu trainium inferentia cpu"),
    str("region", 0, FIELD_DOC("a region with prices loaded; or regions, not both")),
    field("regions", T::kStringOrStrings, 0,
          FIELD_DOC("a list of regions with prices loaded, or \"all\"")),
    str("priority", 0,
        FIELD_DOC("cost (default), performance, balanced (cost_per_token), reliability"),
        "cost performance balanced cost_per_token reliability"),
    field("families", T::kStrings, 0, FIELD_DOC("instance families of gpu_instances.json to rank")),
    num("max_usd_per_month", kMinExclusive, 0, 1e9, FIELD_DOC("budget, USD a month")),
    num("min_gpus", 0, 0, kMaxGpus, FIELD_DOC("at least this many GPUs")),
    num("limit", 0, 1, 1000, FIELD_DOC("at most this many rows")),
    obj("current", 0, "placement", FIELD_DOC("the deployment today")),
    objects("instances", 0, "placement", 1, 64, FIELD_DOC("1 to 64 setups to compare")),
    str("id", 0, FIELD_DOC("a workload or workload set id of workloads.json")),
    str("section", 0,
        FIELD_DOC("all (default), menus, instances, models, precisions, workloads, files, "
                  "model_name (any case)"),
        "all menus instances models precisions workloads files model_name"),
    obj("plan", 0, "plan",
        FIELD_DOC("{name, environments: [{name, workloads: [...]}]} (docs/api.md)")),
    objects("models", 0, nullptr, 1, 64,
            FIELD_DOC("the models to place or right-size, at most 64")),
    num("max_instances", 0, 1, 16, FIELD_DOC("instances a split placement may use (default 4)")),
    field("cases", T::kArray, 0,
          FIELD_DOC("measured cases, or arrays of them, one per case file (docs/accuracy.md)")),
    str("attention", 0,
        FIELD_DOC("the attention implementation (transformers' attn_implementation): sdpa "
                  "(default, as transformers), eager, flash_attention_2"),
        "sdpa eager flash_attention_2"),
};

// Fields whose meaning differs in one question.
inline constexpr Field kDecideRequest[] = {
    str("framework", 0, FIELD_DOC("pytorch, tensorflow, jax, other"), "pytorch tensorflow jax other"),
    str("model_kind", 0, FIELD_DOC("transformer, cnn, mixed, simple"), "transformer cnn mixed simple"),
    str("goal", 0, FIELD_DOC("cost, performance, balanced, flexibility, experimentation"), "cost performance balanced flexibility experimentation"),
    num("latency_ms", kMinExclusive, 0, 3.6e6, FIELD_DOC("per-request latency target, ms")),
    boolean("edge", 0, FIELD_DOC("an edge deployment")),
    boolean("batch", 0, FIELD_DOC("batch processing")),
};

#define TOKENS(name, least, text) num(name, 0, least, kMaxTokens, FIELD_DOC(text))
inline constexpr Field kMemoryRequest[] = {
    obj("model", kRequired, "request_model",
        FIELD_DOC("the model, in exactly one of four forms (as fit's)")),
    str("workload", 0,
        FIELD_DOC("the task, as every question's (any case); memory's own load_only: the weights "
                  "alone. Older name: mode"),
        "inference " TASK_ALIASES " lora qlora " TRAINING_ALIASES " load_only"),
    str("mode", 0,
        FIELD_DOC("older name of workload: inference (default), full_finetune, lora, qlora, "
                  "pretraining, load_only"),
        "load_only inference full_finetune|fine_tuning|full_fine_tuning lora qlora "
        "pretraining|training"),
    str("compute_precision", 0, FIELD_DOC("the precision activations are computed in")),
    str("optimizer", kUsual, FIELD_DOC("older name of recipe.optimizer (default adamw)"),
        "adamw adamw_8bit paged_adamw_8bit adafactor sgd sgd_momentum lion"),
    num("batch", 0, 1, 1e6,
        FIELD_DOC("sequences at once (default 1); training: older name of recipe.micro_batch")),
    TOKENS("context", 1,
           "tokens per sequence: older name of demand.input_tokens (serving) or "
           "recipe.sequence_length (training)"),
    TOKENS("new_tokens", 0, "tokens generated: older name of demand.output_tokens"),
    num("beams", 0, 1, 64, FIELD_DOC("beams (default 1)")),
    boolean("gradient_checkpointing", 0,
            FIELD_DOC(
                "activations recomputed in backward: older name of recipe.gradient_checkpointing")),
    boolean("flash_attention", 0,
            FIELD_DOC("shorthand: true is attention flash_attention_2, false eager")),
    boolean("chunked_loss", 0, FIELD_DOC("the loss computed in chunks")),
    boolean("optimizer_in_backward", 0, FIELD_DOC("optimizer step fused into backward")),
    boolean("checkpoint_head_copy", 0,
            FIELD_DOC("the checkpoint stores tied embeddings twice (as the output matrix too), as "
                      "AutoAWQ before 0.2.7 saved them")),
    boolean("master_weights", 0,
            FIELD_DOC("fp32 master weights (default false: torch.optim steps the parameters, its "
                      "states in their dtype): older name of recipe.master_weights")),
    obj("lora", 0, "request_lora",
        FIELD_DOC("LoRA settings (rank: older name of recipe.lora_rank; target_modules)")),
    num("gpus", 0, 1, kMaxGpus, FIELD_DOC("GPUs (default 1)")),
    num("tensor_parallel", 0, 1, kMaxGpus, FIELD_DOC("tensor-parallel degree")),
    num("pipeline_parallel", 0, 1, kMaxGpus, FIELD_DOC("pipeline-parallel degree")),
    str("sharding", 0,
        FIELD_DOC("older name of recipe.sharding: none (default), zero1, zero2, zero3, fsdp"),
        "none zero1 zero2 zero3 fsdp"),
    boolean("cpu_offload", 0, FIELD_DOC("optimizer states offloaded to the host")),
    boolean("cuda_eager_loading", 0, FIELD_DOC("CUDA modules loaded eagerly")),
    num("gpu_memory_utilization", 0, 0.05, 1,
        FIELD_DOC("a serving engine's share of GPU memory (vLLM's gpu_memory_utilization, SGLang's "
                  "mem_fraction_static)")),
    TOKENS("max_model_len", 1, "the engine's context limit, tokens"),
    str("gpu", 0, FIELD_DOC("a GPU of gpu_instances.json \"gpus\"")),
    TOKENS("max_num_batched_tokens", 1,
           "a pool engine's profile run: tokens of its one forward pass (default: the release's)"),
    num("max_num_seqs", 0, 1, 1e6,
        FIELD_DOC("a pool engine's profile run: sampler rows (default: the release's)")),
    str("engine_version", 0,
        FIELD_DOC("a pool engine's release (\"0.6.5\", \"V0 0.7.3\"; default: the engine's "
                  "default_version)")),
    str("engine_entrypoint", 0, FIELD_DOC("serve (vllm serve, default) or offline (the LLM class)"),
        "serve offline"),
};

inline constexpr Field kEstimateRequest[] = {
    obj("model", kRequired, "request_model", FIELD_DOC("the model, in exactly one of four forms (as fit's)")),
    str("workload", 0, FIELD_DOC("the task, as every question's (any case): inference (default) or a full training run. Older name: phase"), "inference " TASK_ALIASES " " TRAINING_ALIASES),
    str("phase", 0, FIELD_DOC("older name of workload: inference (default) or training"), "inference training"),
    str("compute_precision", 0, FIELD_DOC("the precision computed in")),
    str("gpu", 0, FIELD_DOC("a GPU of gpu_instances.json \"gpus\"")),
    num("gpus", 0, 1, kMaxGpus, FIELD_DOC("GPUs")),
    num("tensor_parallel", 0, 1, kMaxGpus, FIELD_DOC("tensor-parallel degree")),
    TOKENS("input_tokens", 1, "older name of demand.input_tokens (default 500)"),
    TOKENS("output_tokens", 1, "older name of demand.output_tokens (default 200)"),
    num("concurrency", 0, 0, 1e6, FIELD_DOC("streams at once (0: the largest that fits)")),
    TOKENS("context", 1, "older name of recipe.sequence_length (training)"),
    num("dataset_tokens", 0, 1, 1e16, FIELD_DOC("older name of demand.dataset_tokens")),
    num("epochs", 0, 0.01, 1e4, FIELD_DOC("older name of demand.epochs")),
    boolean("gradient_checkpointing", 0, FIELD_DOC("older name of recipe.gradient_checkpointing")),
    num("batch", 0, 1, 1e6, FIELD_DOC("older name of recipe.micro_batch (training)")),
    boolean("rank", 0, FIELD_DOC("rank instance types for the model")),
    num("max_ttft_ms", kMinExclusive, 0, 1e9, FIELD_DOC("older name of demand.max_ttft_ms (with rank)")),
    num("max_tpot_ms", kMinExclusive, 0, 1e9, FIELD_DOC("older name of demand.max_tpot_ms (with rank)")),
    num("limit", 0, 1, 1000, FIELD_DOC("ranked rows (with rank)")),
};

inline constexpr Field kAutoscaleRequest[] = {
    obj("profile", kRequired, "autoscale_profile", FIELD_DOC("the traffic: 24 or 168 hourly requests/s values, a named shape or a CSV export")),
    obj("policy", 0, "autoscale_policy", FIELD_DOC("the scaling policy to evaluate (default target_tracking on concurrency)")),
    obj("cold_start", 0, "cold_start", FIELD_DOC("from the decision to a new replica serving (defaults: estimates)")),
    str("commitment", 0, FIELD_DOC("the committed base's way to pay (default reserved_1y; any case)"), "reserved_1y reserved_3y"),
    str("pricing", 0, FIELD_DOC("the way to pay above the committed base: on_demand (default), spot or mixed")),
};

inline constexpr Field kAutoscaleProfile[] = {
    field("requests_per_s", T::kNumbers, 0, FIELD_DOC("24 or 168 hourly requests/s values, from 0 to 1e7; or csv or shape, not both")),
    field("csv", T::kStringOrStrings, 0, FIELD_DOC("timestamp,requests rows (a Prometheus or CloudWatch export: Unix or ISO 8601 times) as one text or an array of lines, bucketed to UTC hours, at most 8,784")),
    str("csv_values", 0, FIELD_DOC("count (default: requests in each row's period, summed per hour / 3600) or rate (requests/s, averaged per hour)"), "count rate"),
    str("shape", 0, FIELD_DOC("a shape of config/traffic_shapes.json (all synthetic, said so; any case)"), "flat diurnal_5x business_hours"),
    num("peak_requests_per_s", kMinExclusive, 0, 1e7, FIELD_DOC("with shape: the requests/s of its peak")),
};

inline constexpr Field kAutoscalePolicy[] = {
    str("kind", 0, FIELD_DOC("the policy (any case)"), "target_tracking scheduled oracle"),
    str("metric", 0, FIELD_DOC("target_tracking's metric per replica (any case)"), "concurrency queue_length requests_per_s"),
    num("target", kMinExclusive, 0, 1e7, FIELD_DOC("the metric's target per replica (default: the road's at the target utilization and p95 TTFT; queue_length 1)")),
    num("min_replicas", 0, 0, 10000, FIELD_DOC("fewest replicas (default: the fewest the profile needs, at least 1)")),
    num("max_replicas", 0, 1, 10000, FIELD_DOC("most replicas (default: the most the profile needs)")),
    num("control_period_s", 0, 5, 3600, FIELD_DOC("seconds between decisions (default 30, KEDA's pollingInterval)")),
    num("scale_up_delay_s", 0, 0, 86400, FIELD_DOC("scale-up stabilization window, s (default 0, the HPA's)")),
    num("scale_down_delay_s", 0, 0, 86400, FIELD_DOC("scale-down stabilization window, s (default 300, the HPA's)")),
    num("tolerance", 0, 0, 1, FIELD_DOC("no change while the metric is within this share of its target (default 0.1, the HPA's)")),
};

inline constexpr Field kColdStart[] = {
    num("provisioning_s", 0, 0, 3600, FIELD_DOC("a GPU node launched and joined, s (default 180, an estimate)")),
    num("image_pull_s", 0, 0, 3600, FIELD_DOC("the serving image pulled, s (default 60, an estimate)")),
    num("weights_gb_per_s", kMinExclusive, 0, 1e4, FIELD_DOC("the weights read, GB/s (default 1, an estimate)")),
    num("warmup_s", 0, 0, 3600, FIELD_DOC("the engine's profiling and CUDA graph capture, s (default 60, an estimate)")),
};

inline constexpr Field kRightSizeRequest[] = {
    num("hours_per_month", 0, 1, 744, FIELD_DOC("hours a month (default 720)")),
};

inline constexpr Field kRequestModel[] = {
    str("name", 0, FIELD_DOC("a model of model_config.json (key, alias or Hugging Face id)")),
    obj("hf_config", 0, nullptr, FIELD_DOC("a Hugging Face config.json object")),
    str("size", kUsual, FIELD_DOC("a size class of model_config.json (small, medium, large, massive)"), "small medium large massive"),
    num("params_b", kMinExclusive, 0, 100000, FIELD_DOC("billions of parameters")),
};

// memory and estimate size a concrete model: by name or by its config.json.
inline constexpr Field kMemoryRequestModel[] = {
    str("name", 0, FIELD_DOC("a model of model_config.json (key, alias or Hugging Face id)")),
    obj("hf_config", 0, nullptr, FIELD_DOC("a Hugging Face config.json object")),
};

inline constexpr Field kDemand[] = {
    num("requests_per_s", kMinExclusive, 0, 1e7, FIELD_DOC("requests a second")),
    TOKENS("input_tokens", 1, "prompt tokens per request (default 500)"),
    TOKENS("output_tokens", 1, "output tokens per request (default 200)"),
    num("max_ttft_ms", kMinExclusive, 0, 1e9, FIELD_DOC("p95 time to first token, ms")),
    num("max_tpot_ms", kMinExclusive, 0, 1e9, FIELD_DOC("time per output token, ms")),
    num("target_utilization", kMinExclusive, 0, 1, FIELD_DOC("share of capacity the demand may use (default 0.7)")),
    num("tokens_per_month", kMinExclusive, 0, 1e18, FIELD_DOC("batch inference: output tokens a month")),
    num("dataset_tokens", kMinExclusive, 0, 1e16, FIELD_DOC("training: tokens in the dataset")),
    num("epochs", 0, 0.01, 1e4, FIELD_DOC("passes over the dataset (default 1)")),
    num("deadline_days", kMinExclusive, 0, 36500, FIELD_DOC("days the run may take")),
};

inline constexpr Field kRecipe[] = {
    str("optimizer", kUsual, FIELD_DOC("a key of memory_model.optimizers (default adamw)"), "adamw adamw_8bit paged_adamw_8bit adafactor sgd sgd_momentum lion"),
    boolean("gradient_checkpointing", 0, FIELD_DOC("activations recomputed in backward (default true)")),
    str("sharding", 0, FIELD_DOC("none, zero1, zero2, zero3 (default), fsdp (any case)"), "none zero1 zero2 zero3 fsdp"),
    num("micro_batch", 0, 1, 1e5, FIELD_DOC("sequences per GPU step (default 1)")),
    TOKENS("sequence_length", 1, "tokens per sequence (default 2048)"),
    num("lora_rank", 0, 1, 65536, FIELD_DOC("LoRA rank")),
    boolean("master_weights", 0, FIELD_DOC("fp32 master weights (default true)")),
};

inline constexpr Field kSchedule[] = {
    num("hours_per_month", kMinExclusive, 0, 744, FIELD_DOC("hours a month (with always_on: 672 to 744)")),
    num("hours_per_day", kMinExclusive, 0, 24, FIELD_DOC("hours a day")),
    num("hours_per_week", kMinExclusive, 0, 168, FIELD_DOC("hours a week")),
    boolean("always_on", 0, FIELD_DOC("24/7: true")),
    num("off_hours_per_day", 0, 0, 24, FIELD_DOC("hours a day scaled to zero (fewer than 24)")),
    num("days_per_month", kMinExclusive, 0, 31, FIELD_DOC("days a month (default 30.4)")),
    num("weeks_per_month", kMinExclusive, 0, 31.0 / 7, FIELD_DOC("weeks a month (default 4.35)")),
};

inline constexpr Field kPlan[] = {
    str("name", 0, FIELD_DOC("the plan's name (default \"fleet plan\")")),
    objects("environments", kRequired, "plan_environment", 1, 100, FIELD_DOC("1 to 100 environments")),
};

inline constexpr Field kPlanEnvironment[] = {
    str("name", kRequired, FIELD_DOC("the environment's name")),
    objects("workloads", kRequired, "plan_workload", 1, 100, FIELD_DOC("1 to 100 workloads (at most 1,000 in a plan)")),
};

// A workload's hours and way to pay are its own: a schedule beside "workloads" would bill nothing.
inline constexpr Field kPlanWorkload[] = {
    str("name", kRequired, FIELD_DOC("the workload's name")),
    str("instance", kRequired, FIELD_DOC("an instance family (P5) or instance type (p5.48xlarge)")),
    num("count", 0, 1, 10000, FIELD_DOC("instances (default 1; a fraction is rounded up)")),
    num("hours_per_month", kMinExclusive, 0, 744, FIELD_DOC("hours a month (default 720); or schedule, not both")),
    obj("schedule", 0, "schedule", FIELD_DOC("hours a month as a schedule")),
    boolean("use_spot", 0, FIELD_DOC("spot where a spot price is known; or pricing, not both")),
    str("pricing", kUsual, FIELD_DOC("the way of paying (as a request's pricing)"), "on_demand spot mixed reserved_1y reserved_3y"),
    num("spot_share", 0, 0, 1, FIELD_DOC("share on spot with \"pricing\": \"mixed\" (default 0.5)")),
    str("notes", 0, FIELD_DOC("free text, not read")),
};

// A placement model is given by its memory or as the road's workload, never both.
inline constexpr Field kPlacementModelByMemory[] = {
    str("name", kRequired, FIELD_DOC("the model's name in the answer")),
    num("memory_gb", kRequired | kMinExclusive, 0, 100000, FIELD_DOC("the memory one copy needs, GB")),
};

inline constexpr Field kPlacementModel[] = {
    str("name", kRequired, FIELD_DOC("the model's name in the answer")),
    obj("model", kRequired, "request_model", FIELD_DOC("the model, in exactly one of four forms")),
    str("workload", 0, FIELD_DOC("the task (default inference)"), "inference batch_inference fine_tuning lora qlora training"),
    str("precision", 0, FIELD_DOC("a weight format (or weight_format, not both); default fp16")),
    str("weight_format", 0, FIELD_DOC("a key of memory_model.weight_formats")),
    str("kv_cache_format", 0, FIELD_DOC("a key of memory_model.kv_cache_formats")),
    str("engine", 0, FIELD_DOC("a key of memory_model.engines")),
    obj("demand", 0, "demand", FIELD_DOC("the sequence one copy holds (input_tokens, output_tokens)")),
    str("memory_method", 0, FIELD_DOC("architecture (default) or seed (any case)"), "architecture seed"),
};

inline constexpr Field kLora[] = {
    num("rank", 0, 1, 65536, FIELD_DOC("the adapters' rank")),
    strings("target_modules", 0, FIELD_DOC("the modules adapted (default: the model type's usual ones)")),
    num("dropout", 0, 0, 0.99, FIELD_DOC("peft's lora_dropout (default 0): with it each adapted module keeps a dropout mask and output for backward")),
};

inline constexpr Field kPlacement[] = {
    str("instance", kRequired, FIELD_DOC("an instance family (P5) or instance type (p5.48xlarge)")),
    num("gpus", kMinExclusive, 0, kMaxGpus, FIELD_DOC("GPUs used (default 1)")),
};


// spot and regions (issue 34, docs/spot.md).
inline constexpr Field kSpotRequest[] = {
    num("target_availability", kMinExclusive, 0, 1, FIELD_DOC("serving: the probability that the replicas up cover the demand, strictly between 0 and 1 (default 0.999)")),
    num("replacement_minutes", kMinExclusive, 0, 1440, FIELD_DOC("minutes from a reclaim to a replacement serving (default 10)")),
    str("band_reading", 0, FIELD_DOC("how a band's % becomes a hazard: reclaimed_fraction (default: -ln(1 - f) / 730 per hour) or events_per_month (f / 730)"), "reclaimed_fraction events_per_month"),
    num("checkpoint_write_s", kMinExclusive, 0, 86400, FIELD_DOC("training: seconds to write a checkpoint (default 60)")),
    num("restart_s", 0, 0, 86400, FIELD_DOC("training: seconds from an interruption to training again, replacement and checkpoint load (default 600)")),
    field("instance_types", T::kStrings, 0, FIELD_DOC("only these instance types (names of gpu_instances.json)")),
};

inline constexpr Field kRegionsRequest[] = {
    str("instance", 0, FIELD_DOC("the instance type to place (default: the road's cheapest for the workload in the usual regions)")),
    objects("users", 0, "user_group", 1, 64, FIELD_DOC("where the demand comes from: 1 to 64 {region or lat and lon, share}; shares sum to 1")),
    obj("residency", 0, "residency", FIELD_DOC("where the workload may run: regions, or a geography")),
    boolean("failover", 0, FIELD_DOC("survive the loss of any one region (N+1)")),
    num("response_bytes", 0, 0, 1e9, FIELD_DOC("bytes sent to the users per request (default output_tokens x 4)")),
    num("dataset_gb", 0, 0, 1e7, FIELD_DOC("a dataset copied once into each region chosen, GB")),
    str("dataset_region", 0, FIELD_DOC("where the dataset is now (not copied there)")),
};

// deploy (issue 36, docs/deploy.md); the targets are api/deploy/targets.cpp's table.
inline constexpr Field kDeployRequest[] = {
    str("target", kRequired, FIELD_DOC("the files to write: all (every target that applies) or one target"),
        "all kubernetes keda hpa karpenter eksctl gke_compute_class terraform ecs skypilot infracost"),
    obj("from", kRequired, nullptr, FIELD_DOC("the request whose chosen deployment is written: a fit, recommend, migrate, autoscale, spot, placement, decide, regions or plan request")),
    num("candidate", 0, 0, 999, FIELD_DOC("with a recommend request: the row of its candidates (default 0, the first pick); with decide: the row of its options (default: the recommended one)")),
    str("packing", 0, FIELD_DOC("with a placement request: the packing written (default on_instance when it names an instance, else cheapest_split)"),
        "on_instance cheapest_single_instance cheapest_split"),
};

inline constexpr Field kCatalogRequest[] = {
    str("model_name", 0, FIELD_DOC("a model's name as a person types it (section model_name): the catalog model it names and how, or the nearest models, ranked")),
};

inline constexpr Field kUserGroup[] = {
    str("region", 0, FIELD_DOC("users near this region (a region of the catalog); or lat and lon")),
    num("lat", 0, -90, 90, FIELD_DOC("latitude, degrees")),
    num("lon", 0, -180, 180, FIELD_DOC("longitude, degrees")),
    num("share", kMinExclusive, 0, 1, FIELD_DOC("share of the demand (default: an equal share)")),
};

inline constexpr Field kResidency[] = {
    field("regions", T::kStrings, 0, FIELD_DOC("the regions allowed")),
    str("geo", 0, FIELD_DOC("a geography every region must be in: north_america, europe, eu, asia_pacific, middle_east, south_america, africa, or an ISO country code (us, de, ...)")),
};

// batch (issue 35, docs/batch.md): one job at the top level, or a list in "jobs".
inline constexpr Field kBatchRequest[] = {
    num("deadline_hours", kMinExclusive, 0, 87600, FIELD_DOC("one job: hours from now by which it must finish")),
    num("earliest_start_hours", 0, 0, 87600, FIELD_DOC("one job: hours from now before which it may not start (default 0)")),
    num("checkpoint_write_s", 0, 0, 86400, FIELD_DOC("one job: seconds to write a checkpoint (default 60 training; 0 batch inference, which keeps each output)")),
    num("restart_s", 0, 0, 86400, FIELD_DOC("seconds from an interruption or a switch to working again: replacement and checkpoint load (default 600)")),
    num("replacement_minutes", kMinExclusive, 0, 1440, FIELD_DOC("mean minutes a reclaimed spot pool stays without capacity (default 10)")),
    str("band_reading", 0, FIELD_DOC("how a band's % becomes a hazard: reclaimed_fraction (default: -ln(1 - f) / 730 per hour) or events_per_month (f / 730)"), "reclaimed_fraction events_per_month"),
    field("instance_types", T::kStrings, 0, FIELD_DOC("only these instance types (names of gpu_instances.json)")),
    num("seed", 0, 0, 9007199254740991.0, FIELD_DOC("the availability traces' seed, a whole number (default 1)")),
    num("traces", 0, 1, 10000, FIELD_DOC("simulated availability traces, 1 to 10000 (default 1000)")),
    num("max_usd", kMinExclusive, 0, 1e12, FIELD_DOC("a budget for all the jobs, USD")),
    num("concurrent_jobs", 0, 1, 64, FIELD_DOC("jobs run at once (default: every job when it may start)")),
    objects("jobs", 0, "batch_job", 1, 64, FIELD_DOC("1 to 64 jobs, each {name, model, workload, demand, deadline_hours, ...}")),
};

inline constexpr Field kBatchJob[] = {
    str("name", 0, FIELD_DOC("the job's name (default: job N)")),
    obj("model", kRequired, "request_model", FIELD_DOC("the model, in exactly one of four forms")),
    str("workload", kRequired, FIELD_DOC("batch_inference, fine_tuning, lora, qlora or training (any case)"), "batch_inference fine_tuning lora qlora training"),
    str("precision", 0, FIELD_DOC("a weight format (the seed's name; or weight_format, not both); default fp16")),
    str("weight_format", 0, FIELD_DOC("a key of memory_model.weight_formats")),
    str("kv_cache_format", 0, FIELD_DOC("a key of memory_model.kv_cache_formats")),
    str("engine", 0, FIELD_DOC("a key of memory_model.engines")),
    str("memory_method", 0, FIELD_DOC("architecture (default) or seed (any case)"), "architecture seed"),
    obj("demand", kRequired, "demand", FIELD_DOC("the job's tokens: dataset_tokens (and epochs)")),
    obj("recipe", 0, "recipe", FIELD_DOC("how a training job runs")),
    num("deadline_hours", kRequired | kMinExclusive, 0, 87600, FIELD_DOC("hours from now by which it must finish")),
    num("earliest_start_hours", 0, 0, 87600, FIELD_DOC("hours from now before which it may not start (default 0)")),
    num("checkpoint_write_s", 0, 0, 86400, FIELD_DOC("seconds to write a checkpoint (default 60 training; 0 batch inference)")),
};

#undef TOKENS
#undef TRAINING_ALIASES
#undef TASK_ALIASES

}  // namespace gpufleet::detail::request_tables
