// The "memory" question: a concrete model's per-GPU breakdown against a GPU, the largest batch and
// context that fit, the KV-cache capacity, which GPUs hold it; and the memory request's reader
// that right_size and estimate share.
#include "api/questions/memory.hpp"

#include "gpufleet/names.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "api/answers.hpp"
#include "catalog/architecture_reader.hpp"
#include "catalog/fields.hpp"
#include "fleet/band.hpp"
#include "fleet/rank.hpp"
#include "fleet/road.hpp"
#include "model/sequences.hpp"

namespace gpufleet::detail {

using report::round_to;

double gib(double bytes) { return round_to(bytes / (1024.0 * 1024 * 1024), 3); }

std::optional<ModelChoice> read_model(Session& s, const Json& req, const std::string& path) {
  // The road's one model reader: a name, a config.json, a size class or a parameter count.
  auto spec = s.model(req, path);
  if (!spec) return std::nullopt;
  if (!spec->arch) {
    s.reader().fail("cannot_answer", path + "/model",
                    "the catalog names no generic decoder shape (model_config.json generic_decoder) to size " +
                        spec->label + " by; give its name or its config.json (hf_config)");
    return std::nullopt;
  }
  ModelChoice choice{*spec->arch, spec->label, spec->named, spec->named ? "" : spec->shape_basis, spec->typed_name};
  return choice;
}

namespace {

bool trains(const std::string& mode) { return mode != "inference" && mode != "load_only"; }

// The older name of one of the road's fields given beside it: a fault.
void clash(Reader& r, const Json& req, const std::string& path, const char* road, const char* older) {
  if (req.contains(older))
    r.fail("wrong_type", path + "/" + older, std::string("give ") + road + " or its older name " + older + ", not both");
}

// The members of a road object this question reads; any other is a mistake to name, not a default.
void only_members(Reader& r, const Json& obj, const std::string& path, const std::vector<std::string>& reads,
                  const std::string& why) {
  for (const auto& [key, _] : obj.items()) {
    if (std::find(reads.begin(), reads.end(), key) == reads.end())
      r.fail("unknown_field", Reader::child(path, key), "\"" + key + "\" does not apply here: " + why);
  }
}

// The task: "workload" (the road's name; memory also takes load_only) read by the Session's reader, as
// memory's mode or estimate's phase; or the older name; or inference.
std::string read_task(Session& s, const Json& req, const std::string& path, RoadQuestion question) {
  Reader& r = s.reader();
  const char* older = question == RoadQuestion::kEstimate ? "phase" : "mode";
  if (!req.contains("workload")) {
    const auto it = req.find(older);
    return it != req.end() && it->is_string() ? lower(it->get<std::string>()) : "inference";
  }
  clash(r, req, path, "workload", older);
  const auto text = r.string(req, "workload", path, true);
  if (text && question != RoadQuestion::kEstimate && lower(*text) == "load_only") return "load_only";
  const auto task = s.workload(req, path, true);
  if (!task) return "inference";
  const std::string mode = to_string(train_mode(*task));
  if (question != RoadQuestion::kEstimate) return mode;
  if (mode == "lora" || mode == "qlora")
    r.fail("cannot_answer", path + "/workload",
           "estimate's training speed is a full training run's (workload training or fine_tuning); ask fit or performance "
           "for " + lower(*text));
  return trains(mode) ? "training" : "inference";
}

}  // namespace

std::optional<Json> with_older_names(Session& s, const Json& req, const std::string& path, RoadQuestion question) {
  Reader& r = s.reader();
  const bool estimate = question == RoadQuestion::kEstimate;
  if (!req.contains("workload") && !req.contains("demand") && !req.contains("recipe") && !req.contains("precision")) {
    // Older names only: a training job still takes the recipe's defaults (below).
    const auto older = req.find(estimate ? "phase" : "mode");
    if (older == req.end() || !older->is_string() || !trains(lower(older->get<std::string>()))) return req;
  }
  Json out = req;
  const std::string task = read_task(s, req, path, question);
  if (req.contains("workload")) out[estimate ? "phase" : "mode"] = task;
  const bool training = trains(task);
  if (auto format = s.weight_format(req, path)) out["weight_format"] = *format;
  if (const Json* d = r.object(req, "demand", path, false)) {
    const std::string dp = path + "/demand";
    Demand demand;
    s.demand(*d, dp, demand);
    if (estimate) {
      for (const char* older : {"input_tokens", "output_tokens", "max_ttft_ms", "max_tpot_ms", "dataset_tokens", "epochs"})
        clash(r, req, path, (std::string("demand.") + older).c_str(), older);
      only_members(r, *d, dp, {"input_tokens", "output_tokens", "max_ttft_ms", "max_tpot_ms", "dataset_tokens", "epochs"},
                   "estimate reads the tokens per request, the latency targets (with rank) and a training run's dataset");
      for (const char* key : {"input_tokens", "output_tokens", "max_ttft_ms", "max_tpot_ms", "dataset_tokens", "epochs"})
        if (d->contains(key)) out[key] = (*d)[key];
    } else {
      clash(r, req, path, "demand.input_tokens", "context");
      clash(r, req, path, "demand.output_tokens", "new_tokens");
      only_members(r, *d, dp, training ? std::vector<std::string>{} : std::vector<std::string>{"input_tokens", "output_tokens"},
                   training ? "a training job's sequence is recipe.sequence_length"
                            : "the memory question reads the tokens of one request");
      out["context"] = demand.input_tokens;
      out["new_tokens"] = demand.output_tokens;
    }
  }
  const Json* rc = r.object(req, "recipe", path, false);
  if (rc && !training)
    only_members(r, *rc, path + "/recipe", {}, "a recipe is how a training job runs (workload fine_tuning, lora, qlora or training)");
  if (training) {
    // A training job's recipe, its defaults the road's whichever names the request uses: an older
    // name (beside no recipe) gives its own field, as recipe's member would.
    Recipe recipe;
    if (rc) {
      s.recipe(*rc, path + "/recipe", recipe);
      const std::vector<const char*> older =
          estimate ? std::vector<const char*>{"gradient_checkpointing", "context", "batch"}
                   : std::vector<const char*>{"optimizer", "gradient_checkpointing", "master_weights", "sharding", "context", "batch"};
      for (const char* name : older) clash(r, req, path, "recipe", name);
      if (estimate)
        only_members(r, *rc, path + "/recipe", {"gradient_checkpointing", "sequence_length", "micro_batch"},
                     "estimate's training speed reads the sequence, the micro-batch and recomputation");
    }
    auto unless_given = [&](const char* older, Json value) {
      if (!req.contains(older)) out[older] = std::move(value);
    };
    unless_given("gradient_checkpointing", recipe.gradient_checkpointing);
    unless_given("context", recipe.sequence);
    unless_given("batch", recipe.micro_batch);
    if (!estimate) {
      unless_given("optimizer", recipe.optimizer);
      unless_given("master_weights", recipe.master_weights && task != "lora" && task != "qlora");  // as the road
      // As the road: the recipe shards over the data-parallel GPUs only (none on one copy's GPUs).
      auto count = [&](const char* key) {
        const auto it = req.find(key);
        return it != req.end() && it->is_number() ? std::max(1.0, it->get<double>()) : 1.0;
      };
      const double data_parallel = count("gpus") / (count("tensor_parallel") * count("pipeline_parallel"));
      unless_given("sharding", data_parallel > 1 ? recipe.sharding : "none");
      if (recipe.lora_rank > 0) {
        if (req.contains("lora") && req["lora"].is_object() && req["lora"].contains("rank"))
          r.fail("wrong_type", path + "/lora/rank", "give recipe.lora_rank or its older name lora.rank, not both");
        out["lora"]["rank"] = recipe.lora_rank;
      }
    }
  }
  for (const char* road : {"workload", "precision", "demand", "recipe"}) out.erase(road);
  if (!r.ok()) return std::nullopt;
  return out;
}

std::optional<MemoryQuestion> read_question(const Catalog& catalog, Reader& r, const Json& req,
                                            ModelChoice& model, const GpuSpec*& gpu) {
  MemoryQuestion q;
  q.arch = model.arch;
  if (auto mode = r.string(req, "mode", "", false)) {
    auto m = parse_train_mode(*mode);
    if (!m) {
      r.fail(
          "unknown_name", "/mode",
          "expected one of load_only, inference, full_finetune, lora, qlora, pretraining, got \"" +
              *mode + "\"");
    } else {
      q.mode = *m;
    }
  }
  q.weight_format = lower(r.string(req, "weight_format", "", false).value_or("bf16"));
  const std::string default_compute = q.weight_format == "fp32"   ? "fp32"
                                      : q.weight_format == "fp16" ? "fp16"
                                                                  : "bf16";
  q.compute = lower(r.string(req, "compute_precision", "", false).value_or(default_compute));
  q.optimizer = lower(r.string(req, "optimizer", "", false).value_or("adamw"));
  q.batch = r.number(req, "batch", "", false, {1, 1e6}).value_or(1);
  // Serving without tokens takes the road's request (Demand's 500 + 200), as every question; an older
  // `context` alone is the whole sequence held; training's came from the recipe (read_road_names).
  const bool serves = q.mode == TrainMode::kInference && !req.contains("context");
  q.sequence = r.number(req, "context", "", false, {1, kMaxTokens})
                   .value_or(serves ? Demand{}.input_tokens
                                    : std::min(model.arch.max_positions > 0 ? model.arch.max_positions : 4096, 4096.0));
  q.new_tokens = r.number(req, "new_tokens", "", false, {0, kMaxTokens}).value_or(serves ? Demand{}.output_tokens : 0);
  q.beams = r.number(req, "beams", "", false, {1, 64}).value_or(1);
  q.gradient_checkpointing = r.boolean(req, "gradient_checkpointing", "", false).value_or(false);
  const auto attention = r.string(req, "attention", "", false);
  const auto flash = r.boolean(req, "flash_attention", "", false);
  if (attention && flash && (*flash != (lower(*attention) == "flash_attention_2")))
    r.fail("cannot_answer", "/flash_attention",
           "flash_attention " + std::string(*flash ? "true" : "false") + " contradicts attention \"" + *attention +
               "\": give one of them");
  q.attention = attention ? lower(*attention) : !flash ? "sdpa" : *flash ? "flash_attention_2" : "eager";
  q.chunked_loss = r.boolean(req, "chunked_loss", "", false).value_or(false);
  q.optimizer_in_backward = r.boolean(req, "optimizer_in_backward", "", false).value_or(false);
  q.master_weights = r.boolean(req, "master_weights", "", false).value_or(false);
  q.kv_format = lower(r.string(req, "kv_cache_format", "", false).value_or(""));
  if (const Json* lora = r.object(req, "lora", "", false)) {
    fields::check_fields(r, *lora, "/lora", "request_lora");
    q.lora_rank = r.number(*lora, "rank", "/lora", false, {1, 65536}).value_or(0);
    q.lora_dropout = r.number(*lora, "dropout", "/lora", false, {0, 0.99}).value_or(0);
    q.lora_targets = r.strings(*lora, "target_modules", "/lora", false);
  }
  q.gpus = r.number(req, "gpus", "", false, {1, kMaxGpus}).value_or(1);
  q.tensor_parallel = r.number(req, "tensor_parallel", "", false, {1, kMaxGpus}).value_or(1);
  q.pipeline_parallel = r.number(req, "pipeline_parallel", "", false, {1, kMaxGpus}).value_or(1);
  if (q.tensor_parallel * q.pipeline_parallel > q.gpus)
    q.gpus = q.tensor_parallel * q.pipeline_parallel;
  q.sharding = lower(r.string(req, "sharding", "", false).value_or("none"));
  q.cpu_offload = r.boolean(req, "cpu_offload", "", false).value_or(false);
  q.engine = lower(r.string(req, "engine", "", false).value_or("transformers"));
  q.cuda_eager_loading = r.boolean(req, "cuda_eager_loading", "", false).value_or(false);
  if (auto u = r.number(req, "gpu_memory_utilization", "", false, {0.05, 1}))
    q.gpu_memory_utilization = *u;
  if (auto len = r.number(req, "max_model_len", "", false, {1, kMaxTokens})) q.max_model_len = *len;
  if (auto n = r.number(req, "max_num_batched_tokens", "", false, {1, kMaxTokens}))
    q.max_batched_tokens = *n;
  if (auto n = r.number(req, "max_num_seqs", "", false, {1, 1e6})) q.max_num_seqs = *n;
  q.engine_version = r.string(req, "engine_version", "", false).value_or("");
  if (!q.engine_version.empty() && parse_engine_version(q.engine_version) <= 0)
    r.fail("unknown_name", "/engine_version",
           "expected a release such as \"0.6.5\" or \"V0 0.7.3\", got \"" + q.engine_version + "\"");
  if (auto text = r.string(req, "engine_entrypoint", "", false)) {
    const std::string entry = lower(*text);  // any case, as every value of the field table
    if (entry != "serve" && entry != "offline")
      r.fail("unknown_name", "/engine_entrypoint",
             "expected serve (vllm serve) or offline (the LLM class), got \"" + *text + "\"");
    q.offline_engine = entry == "offline";
  }
  if (auto name = r.string(req, "gpu", "", false)) {
    gpu = catalog.gpu(*name);
    if (!gpu) {
      std::vector<std::string> keys;
      for (const auto& [key, _] : catalog.gpus) keys.push_back(key);
      r.fail(
          "unknown_name", "/gpu",
          "expected a GPU of gpu_instances.json (" + names_of(keys) + "), got \"" + *name + "\"" +
              (nearest_names(*name, keys).empty() ? "" : "; did you mean " + names_of(nearest_names(*name, keys)) + "?"));
    }
  }
  if (gpu) {
    q.gpu_memory_bytes = gpu->usable_bytes();
    q.gpu_name = gpu->name;
    q.gpus_linked = catalog.gpu_has_nvlink(gpu->name);
  }
  if (!r.ok()) return std::nullopt;
  return q;
}

Json breakdown(const MemoryEstimate& e) {
  Json lines = Json::array();
  for (const auto& l : e.lines) {
    lines.push_back({{"key", l.key},
                     {"label", l.label},
                     {"gib", gib(l.bytes)},
                     {"bytes", round_to(l.bytes, 0)},
                     {"basis", l.basis}});
  }
  return lines;
}

std::vector<std::string> words(const char* text) {
  std::vector<std::string> out;
  std::string word;
  for (const char* c = text;; ++c) {
    if (*c == ' ' || *c == '\0') {
      if (!word.empty()) out.push_back(word);
      word.clear();
      if (*c == '\0') break;
    } else {
      word += *c;
    }
  }
  return out;
}

Json expected_error(const Catalog& catalog, const std::string& quantity, const std::string& phase,
                    const std::string& engine, const std::string& vendor) {
  return report::expected_error(error_kind(catalog, quantity, phase, engine, vendor));
}

Json answer_memory(const Catalog& catalog, Session& s, const Json& request) {
  Reader& r = s.reader();
  const auto named = with_older_names(s, request, "", RoadQuestion::kMemory);
  if (!named) return nullptr;
  const Json& req = *named;
  auto model = read_model(s, req, "");
  if (!model) return nullptr;
  const GpuSpec* gpu = nullptr;
  auto q = read_question(catalog, r, req, *model, gpu);
  if (!q) return nullptr;
  if (std::string why = tp_refusal(q->arch, q->tensor_parallel); !why.empty()) {
    r.fail("cannot_answer", "/tensor_parallel", why + "; use " + kTpWayOut + ", or pipeline_parallel for more GPUs");
    return nullptr;
  }
  MemoryAnswer answer = estimate_memory(catalog.memory, *q);
  for (const auto& [field, message] : answer.faults) r.fail("unknown_name", "/" + field, message);
  if (!answer.estimate) return nullptr;
  const MemoryEstimate& e = *answer.estimate;
  Json result;
  Json m;
  m["name"] = model->label;
  if (model->named) {
    m["key"] = model->named->key;
    m["hf_id"] = model->named->hf_id;
    m["source"] = model->named->source;
    if (model->typed_name) m["typed_name"] = report::typed_name(*model->typed_name);
  }
  if (!model->shape_basis.empty()) m["shape"] = model->shape_basis;
  m["model_type"] = q->arch.model_type;
  m["parameters"] = round_to(e.params.total, 0);
  m["parameters_billion"] = round_to(e.params.total / 1e9, 3);
  if (q->arch.moe()) m["active_parameters_billion"] = round_to(e.params.active / 1e9, 3);
  m["kv_cache_kib_per_token"] = round_to(e.kv_bytes_per_token / 1024, 3);
  result["model"] = std::move(m);
  result["settings"] = {{"mode", to_string(q->mode)},
                        {"weight_format", q->weight_format},
                        {"compute_precision", q->compute},
                        {"batch", q->batch},
                        {"context", q->sequence},
                        {"new_tokens", q->new_tokens},
                        {"engine", q->engine},
                        {"gpus", q->gpus},
                        {"tensor_parallel", q->tensor_parallel},
                        {"pipeline_parallel", q->pipeline_parallel},
                        {"sharding", q->sharding}};
  result["per_gpu"] = breakdown(e);
  result["total_gib"] = gib(e.total_bytes);
  result["total_bytes"] = round_to(e.total_bytes, 0);
  result["tensors_gib"] = gib(e.tensor_bytes);
  result["weights_gib"] = gib(e.weights_bytes);
  if (e.trainable_parameters > 0)
    result["trainable_parameters"] = round_to(e.trainable_parameters, 0);
  if (e.kv_pool_tokens) {
    result["kv_cache_capacity"] = {
        {"tokens", *e.kv_pool_tokens},
        {"gib", gib(*e.kv_pool_bytes)},
        {"concurrent_sequences", e.max_concurrent_sequences.value_or(0)}};
  }
  Json notes = e.notes;
  if (q->arch.max_positions > 0 && q->sequence + q->new_tokens > q->arch.max_positions) {
    notes.push_back("the context (" + report::short_number(q->sequence + q->new_tokens) +
                    " tokens) is longer than the model's window of " +
                    report::short_number(q->arch.max_positions) + " tokens");
  }
  result["notes"] = std::move(notes);
  const bool serving = q->mode == TrainMode::kInference || q->mode == TrainMode::kLoadOnly;
  result["expected_error"] =
      expected_error(catalog, "memory", serving ? "inference" : "training", q->engine, gpu ? gpu->vendor : "");
  result["basis"] =
      "per GPU; tensors are what torch.cuda.max_memory_allocated shows, the total adds the runtime "
      "(CUDA context, allocator reserve, engine buffers)";
  if (gpu && q->gpu_memory_bytes) {
    const double capacity = *q->gpu_memory_bytes;
    Json g;
    g["gpu"] = gpu->name.empty() ? "" : gpu->name;
    g["capacity_gib"] = gib(capacity);
    g["used_gib"] = gib(e.total_bytes);
    g["utilization_pct"] = round_to(e.total_bytes / capacity * 100, 1);
    const std::string why = memory_refusal(*q, e, capacity);
    g["fits"] = why.empty();
    if (!why.empty()) g["reason"] = why;
    g["headroom_gib"] = gib(capacity - e.total_bytes);
    const auto engine = catalog.memory.engines.find(q->engine);
    const bool pool = engine != catalog.memory.engines.end() && engine->second.kv_policy == "pool";
    if (Json band = report::fit_band(e, q->sequence + q->new_tokens, capacity, pool, result["expected_error"]);
        !band.is_null())
      g["fit_band"] = std::move(band);
    const bool serves = q->mode == TrainMode::kInference;
    // The sequences one copy holds at this length: the road's figure (model/sequences.hpp).
    const double sequences = serves && why.empty() && !pool ? sequences_that_fit(catalog.memory, *q, e, capacity) : 0;
    if (!pool) {  // a pool engine takes its share whatever the batch: no largest batch to find
      g["largest_batch"] =
          serves ? sequences : largest_fitting(catalog.memory, *q, capacity, &MemoryQuestion::batch, 1e6);
      // Never beyond the model's own context window.
      const double window = q->arch.max_positions > 0      ? q->arch.max_positions
                            : q->arch.target_positions > 0 ? q->arch.target_positions
                                                           : kMaxTokens;
      g["largest_context"] =
          largest_fitting(catalog.memory, *q, capacity, &MemoryQuestion::sequence, window);
      if (serves && e.kv_bytes_per_token > 0 && why.empty()) {
        const double spare = capacity - e.total_bytes + e.kv_cache_bytes;
        g["kv_cache_tokens_that_fit"] = std::floor(spare / e.kv_bytes_per_token);
        // A pool engine's figure is its pool's (kv_cache_capacity.concurrent_sequences).
        g["concurrent_sequences_at_context"] = sequences;
      }
    }
    result["gpu"] = std::move(g);
  }
  // Which GPUs hold it (with this many GPUs per model copy).
  Json which = Json::array();
  const bool cuda_engine = q->engine != "llama.cpp" && q->engine != "whisper.cpp";
  for (const auto& [key, spec] : catalog.gpus) {
    // Neuron devices run their own SDK, not the CUDA engines this estimate describes.
    if (cuda_engine && spec.vendor != "nvidia" && spec.vendor != "amd") continue;
    MemoryQuestion other = *q;
    other.gpu_memory_bytes = spec.usable_bytes();
    other.gpus_linked = catalog.gpu_has_nvlink(key);
    other.gpu_name = spec.name;
    auto a = estimate_memory(catalog.memory, other);
    if (!a.estimate) continue;
    which.push_back({{"gpu", key},
                     {"capacity_gib", gib(*other.gpu_memory_bytes)},
                     {"used_gib", gib(a.estimate->total_bytes)},
                     {"fits", memory_refusal(other, *a.estimate, *other.gpu_memory_bytes).empty()}});
  }
  result["gpus"] = std::move(which);
  return result;
}

}  // namespace gpufleet::detail
